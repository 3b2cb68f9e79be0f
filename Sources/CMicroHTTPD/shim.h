#ifndef LUCID_CMICROHTTPD_SHIM_H
#define LUCID_CMICROHTTPD_SHIM_H

// Fixed-arity wrappers around libmicrohttpd's variadic calls, which Swift
// cannot call directly. Everything here is `static inline`, so the module
// stays a header-only system library that links "microhttpd".

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

/// Returned through `error_out` when `host` is neither an IPv4 nor an IPv6
/// literal. Negative, so it can never be mistaken for an errno value.
#define LUCID_MHD_INVALID_HOST (-1)

/// Starts a daemon with an internal thread pool (poll() or epoll loops, as `flags` say), bound to `host:port`
/// (an IPv4 or IPv6 literal; port 0 lets the kernel pick).
///
/// The socket address is parsed here rather than in Swift so that the
/// `sockaddr` casts stay in C. libmicrohttpd binds inside MHD_start_daemon
/// and does not keep the address pointer, so a stack address is enough.
///
/// `per_address_limit` caps the connections from one client address (0: no cap);
/// `accept_policy` may turn a new connection away; `notify_connection` hears of every
/// connection's start and end; `uri_log` sees each request-target as sent, before
/// libmicrohttpd decodes it in place (after which a decoded `%00` would end it).
///
/// Returns NULL on failure with `*error_out` set to errno as it was right
/// after MHD_start_daemon returned (EADDRINUSE, EACCES, ...), or to
/// LUCID_MHD_INVALID_HOST. errno is read before anything else can clobber it.
static inline struct MHD_Daemon *
lucid_mhd_start (unsigned int flags,
                 const char *host,
                 uint16_t port,
                 unsigned int thread_pool_size,
                 unsigned int connection_limit,
                 unsigned int per_address_limit,
                 unsigned int timeout_seconds,
                 MHD_AcceptPolicyCallback accept_policy,
                 void *accept_cls,
                 MHD_AccessHandlerCallback access_handler,
                 void *access_cls,
                 MHD_RequestCompletedCallback completed_handler,
                 void *completed_cls,
                 MHD_NotifyConnectionCallback notify_connection,
                 void *notify_cls,
                 void *(*uri_log) (void *cls, const char *uri, struct MHD_Connection *connection),
                 void *uri_log_cls,
                 int *error_out)
{
  struct sockaddr_in v4;
  struct sockaddr_in6 v6;
  const struct sockaddr *address;

  memset (&v4, 0, sizeof (v4));
  memset (&v6, 0, sizeof (v6));
  if (1 == inet_pton (AF_INET, host, &v4.sin_addr))
  {
    v4.sin_family = AF_INET;
    v4.sin_port = htons (port);
    address = (const struct sockaddr *) &v4;
  }
  else if (1 == inet_pton (AF_INET6, host, &v6.sin6_addr))
  {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons (port);
    address = (const struct sockaddr *) &v6;
    flags |= MHD_USE_IPv6;
  }
  else
  {
    *error_out = LUCID_MHD_INVALID_HOST;
    return NULL;
  }

  errno = 0;
  struct MHD_Daemon *daemon =
    MHD_start_daemon (flags,
                      port, /* ignored: MHD_OPTION_SOCK_ADDR wins */
                      accept_policy, accept_cls,
                      access_handler, access_cls,
                      MHD_OPTION_SOCK_ADDR, address,
                      MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                      MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                      MHD_OPTION_NOTIFY_COMPLETED, completed_handler,
                      completed_cls,
                      MHD_OPTION_NOTIFY_CONNECTION, notify_connection,
                      notify_cls,
                      MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                      MHD_OPTION_END);
  *error_out = (NULL == daemon) ? errno : 0;
  return daemon;
}

/// The socket of a connection, or -1. Only valid while libmicrohttpd holds the
/// connection, i.e. inside one of its callbacks for it.
static inline int
lucid_mhd_connection_fd (struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return (NULL == info) ? -1 : info->connect_fd;
}

/// What a content reader returns to end the body (the last chunk goes out), and to close
/// the connection without ending it: macros with casts, which Swift does not import.
static const long LUCID_MHD_READER_END_OF_STREAM = MHD_CONTENT_READER_END_OF_STREAM;
static const long LUCID_MHD_READER_END_WITH_ERROR = MHD_CONTENT_READER_END_WITH_ERROR;

/// A response whose body comes from `reader` with no size known in advance
/// (MHD_SIZE_UNKNOWN, another macro Swift does not import): libmicrohttpd sends it chunked
/// to an HTTP/1.1 client, and ends it by closing the connection for HTTP/1.0.
static inline struct MHD_Response *
lucid_mhd_create_stream_response (size_t block_size,
                                  MHD_ContentReaderCallback reader,
                                  void *reader_cls,
                                  MHD_ContentReaderFreeCallback free_reader_cls)
{
  return MHD_create_response_from_callback (MHD_SIZE_UNKNOWN, block_size,
                                            reader, reader_cls,
                                            free_reader_cls);
}

/// Makes `response` (of unknown size) go out without chunked framing, its end marked by
/// closing the connection. For the head of a stream answering HEAD: libmicrohttpd 0.9.75
/// follows a chunked head with a last chunk ("0\r\n\r\n") even for HEAD, which a client
/// would read as the start of the next response. Returns MHD_NO if the flag is refused.
static inline enum MHD_Result
lucid_mhd_response_unchunked (struct MHD_Response *response)
{
  return MHD_set_response_options (response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END);
}

/// 1 if the client has closed its side of `connection` (or reset it), 0 if it is still
/// there or cannot be told. Peeks without consuming: bytes of a pipelined request stay
/// for libmicrohttpd. Only on the connection's I/O thread, inside one of its callbacks.
static inline int
lucid_mhd_peer_has_left (struct MHD_Connection *connection)
{
  int fd = lucid_mhd_connection_fd (connection);
  if (fd < 0)
    return 0;
  char byte;
  ssize_t received = recv (fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (0 == received)
    return 1;
  if (received < 0)
    return (ECONNRESET == errno || EPIPE == errno || ENOTCONN == errno) ? 1 : 0;
  return 0;
}

/// The pointer stored as the connection's socket context by the notify-connection
/// callback, or NULL.
static inline void *
lucid_mhd_socket_context (struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return (NULL == info) ? NULL : info->socket_context;
}

/// The port the daemon's listening socket is bound to, or 0 if unknown.
static inline uint16_t
lucid_mhd_bound_port (struct MHD_Daemon *daemon)
{
  const union MHD_DaemonInfo *info =
    MHD_get_daemon_info (daemon, MHD_DAEMON_INFO_BIND_PORT);
  return (NULL == info) ? 0 : info->port;
}

/// A readable text for an errno value, copied into `buffer`. Uses the
/// thread-safe strerror_r; both the GNU and the XSI variants are handled.
static inline void
lucid_errno_text (int code, char *buffer, size_t size)
{
  if (0 == size)
    return;
  buffer[0] = '\0';
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
  const char *text = strerror_r (code, buffer, size);
  if (text != buffer)
  {
    strncpy (buffer, text, size - 1);
    buffer[size - 1] = '\0';
  }
#else
  (void) strerror_r (code, buffer, size);
#endif
}

/// The client's address as text ("127.0.0.2", "2001:db8::1") in `buffer`, or "" when
/// libmicrohttpd does not know it. An IPv4-mapped IPv6 address is written as IPv4, so one
/// client has one name whichever socket family it came in on.
static inline void
lucid_mhd_client_address (struct MHD_Connection *connection, char *buffer, size_t size)
{
  if (0 == size)
    return;
  buffer[0] = '\0';
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if ((NULL == info) || (NULL == info->client_addr))
    return;
  const struct sockaddr *address = info->client_addr;
  if (AF_INET == address->sa_family)
  {
    const struct sockaddr_in *v4 = (const struct sockaddr_in *) address;
    inet_ntop (AF_INET, &v4->sin_addr, buffer, (socklen_t) size);
  }
  else if (AF_INET6 == address->sa_family)
  {
    const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *) address;
    if (IN6_IS_ADDR_V4MAPPED (&v6->sin6_addr))
      inet_ntop (AF_INET, &v6->sin6_addr.s6_addr[12], buffer, (socklen_t) size);
    else
      inet_ntop (AF_INET6, &v6->sin6_addr, buffer, (socklen_t) size);
  }
}

#endif
