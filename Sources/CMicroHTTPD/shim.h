#ifndef LUCID_CMICROHTTPD_SHIM_H
#define LUCID_CMICROHTTPD_SHIM_H

// Fixed-arity wrappers around libmicrohttpd's variadic calls, which Swift
// cannot call directly, and the few socket calls whose C structs Swift should
// not build (sockaddr, the packed epoll_event). Everything here is
// `static inline`, so the module stays a header-only system library that
// links "microhttpd".

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
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
                      /* 0, not 1 or -1: in 0.9.75, 1 closes a connection whose
                         request-target holds a space without answering, and answers
                         an HTTP/1.1 request without Host with its own HTML 400 whose
                         head goes out twice (parse_connection_headers queues it, then
                         the state machine builds the head again); -1 answers
                         whitespace before a field's colon with its own HTML 400. At 0
                         these requests reach the access callback, where the server
                         refuses each with the application's answer (RequestCheck). */
                      MHD_OPTION_STRICT_FOR_CLIENT, (int) 0,
                      MHD_OPTION_END);
  *error_out = (NULL == daemon) ? errno : 0;
  return daemon;
}

/// The status of the response queued on `connection`, or 0 if none is. In the request
/// completed callback this tells an answer libmicrohttpd sent by itself (a malformed
/// Content-Length, a head too large) from a request the client left unanswered.
static inline unsigned int
lucid_mhd_queued_status (struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (connection, MHD_CONNECTION_INFO_HTTP_STATUS);
  return (NULL == info) ? 0 : info->http_status;
}

/// Where lucid_mhd_head_cut has got to: the first byte after the last piece seen.
struct lucid_head_walk
{
  const char *next;
  int whole;
};

/// Whether the bytes from `from` up to `to` are one line end as libmicrohttpd leaves it
/// (CRLF or a bare LF, each byte overwritten with NUL), or, when `blank_line_follows`, a
/// line end and then the empty line that ends the head.
static inline int
lucid_line_ends_between (const char *from, const char *to, int blank_line_follows)
{
  uintptr_t start = (uintptr_t) from, end = (uintptr_t) to;
  uintptr_t least = blank_line_follows ? 2 : 1, most = blank_line_follows ? 4 : 2;
  if ( (end < start + least) || (end > start + most) )
    return 0;
  for (const char *byte = from; byte != to; byte++)
    if ('\0' != *byte)
      return 0;
  return 1;
}

/// MHD_KeyValueIteratorN for lucid_mhd_head_cut: checks that this field line begins
/// where the previous line ended and holds nothing beyond its name and value.
static inline enum MHD_Result
lucid_walk_field (void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                  const char *value, size_t value_size)
{
  struct lucid_head_walk *walk = (struct lucid_head_walk *) cls;
  (void) kind;
  if ( (NULL == key) || (NULL == value)
       || ! lucid_line_ends_between (walk->next, key, 0)
       || ('\0' != key[key_size]) /* the colon */
       || ((uintptr_t) value < (uintptr_t) (key + key_size + 1)) )
  {
    walk->whole = 0;
    return MHD_NO;
  }
  for (const char *space = key + key_size + 1; space != value; space++)
    if ( (' ' != *space) && ('\t' != *space) )
    {
      walk->whole = 0;
      return MHD_NO;
    }
  walk->next = value + value_size;
  return MHD_YES;
}

/// What lucid_mhd_head_cut finds.
enum
{
  LUCID_HEAD_WHOLE = 0, /* every byte of the head is in its pieces */
  LUCID_HEAD_CUT_REQUEST_LINE = 1, /* the method or the target lost bytes */
  LUCID_HEAD_CUT_FIELDS = 2 /* a field line lost bytes, or was folded */
};

/// Whether libmicrohttpd kept every byte of the request head on `connection`, or where a NUL
/// byte hid part of it (LUCID_HEAD_*). Call in the first access callback, with the `method`,
/// `url` and `version` it was given, and `target_length`, the length of the request-target
/// as the URI log callback saw it.
///
/// libmicrohttpd 0.9.75 cuts a head up in its read buffer in place: each line end becomes
/// NUL bytes, and so do the space after the method, the one before the version and each
/// field's colon; it then reads the method, the target and every field name and value as C
/// strings. A NUL byte the client sent ends such a string early, and what follows it in
/// that piece is dropped without a word: `GET /v1/me\0/../x` is served as `/v1/me`, and
/// `X: a\0b` has the value `a`. What was dropped shows only in where the next piece
/// begins, so this walks the pieces in order, as pointers into that one buffer, and
/// reports a cut where anything but a separator lies between one and the next. A folded
/// field line (obs-fold, which libmicrohttpd joins elsewhere in memory) counts as a cut
/// field, which RFC 9112 section 5.2 allows a server to refuse. A NUL just before a line's
/// end hides nothing and cannot be told from the line end: it is as if it were not there.
static inline int
lucid_mhd_head_cut (struct MHD_Connection *connection, const char *method,
                    const char *url, const char *version, size_t target_length)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
  if ( (NULL == info) || (NULL == method) || (NULL == url) || (NULL == version) )
    return LUCID_HEAD_CUT_REQUEST_LINE;
  const char *end = method + info->header_size;
  const char *method_end = method + strlen (method);
  /* The method, one NUL for the space after it, and any further spaces before the target. */
  if ( ((uintptr_t) url <= (uintptr_t) method_end) || ((uintptr_t) url >= (uintptr_t) end) )
    return LUCID_HEAD_CUT_REQUEST_LINE;
  for (const char *space = method_end + 1; space != url; space++)
    if (' ' != *space)
      return LUCID_HEAD_CUT_REQUEST_LINE;
  /* The target, then one NUL for the space before the version. */
  if ( ((uintptr_t) version <= (uintptr_t) url)
       || ((uintptr_t) version >= (uintptr_t) end)
       || ((uintptr_t) version - (uintptr_t) url - 1 != target_length) )
    return LUCID_HEAD_CUT_REQUEST_LINE;
  struct lucid_head_walk walk = { version + strlen (version), 1 };
  MHD_get_connection_values_n (connection, MHD_HEADER_KIND, lucid_walk_field, &walk);
  if (! walk.whole || ! lucid_line_ends_between (walk.next, end, 1))
    return LUCID_HEAD_CUT_FIELDS;
  return LUCID_HEAD_WHOLE;
}

/// The reader of lucid_mhd_create_unframed_response, which is never asked for bytes.
static inline ssize_t
lucid_no_body (void *cls, uint64_t pos, char *buf, size_t max)
{
  (void) cls; (void) pos; (void) buf; (void) max;
  return MHD_CONTENT_READER_END_OF_STREAM;
}

/// A response without a body that libmicrohttpd frames with neither Content-Length nor
/// Transfer-Encoding, for a 304: RFC 9110 section 8.6 allows a Content-Length there only
/// if it is the length the 200 would have had, which the server does not know, and 0.9.75
/// writes one for every response of known size (0 for an empty one). A response of unknown
/// size gets none, and its reader is never asked for bytes, since a 304 has no body; but to
/// an HTTP/1.1 client 0.9.75 would send it chunked, with a last chunk after the head that
/// the client would read as the start of the next response. MHD_RF_HTTP_1_0_COMPATIBLE_STRICT
/// forbids chunking (the status line stays HTTP/1.1). Without a length or chunks,
/// libmicrohttpd can only end the response by closing the connection, and does.
static inline struct MHD_Response *
lucid_mhd_create_unframed_response (void)
{
  struct MHD_Response *response =
    MHD_create_response_from_callback (MHD_SIZE_UNKNOWN, 64, lucid_no_body, NULL, NULL);
  if ( (NULL != response)
       && (MHD_YES != MHD_set_response_options (response, MHD_RF_HTTP_1_0_COMPATIBLE_STRICT, MHD_RO_END)) )
  {
    MHD_destroy_response (response);
    return NULL;
  }
  return response;
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

/// `address` as text ("127.0.0.2", "2001:db8::1") in `buffer`, or "" for another family.
/// An IPv4-mapped IPv6 address is written as IPv4, so one client has one name whichever
/// socket family it came in on.
static inline void
lucid_address_text (const struct sockaddr *address, char *buffer, size_t size)
{
  if (0 == size)
    return;
  buffer[0] = '\0';
  if (NULL == address)
    return;
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

/// The client's address of `connection` as text in `buffer` (see lucid_address_text), or
/// "" when libmicrohttpd does not know it.
static inline void
lucid_mhd_client_address (struct MHD_Connection *connection, char *buffer, size_t size)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  lucid_address_text ((NULL == info) ? NULL : info->client_addr, buffer, size);
}

/// Readiness of one descriptor, as lucid_epoll_wait reports it.
enum
{
  LUCID_READABLE = 1, /* bytes to read, or the peer closed its side */
  LUCID_WRITABLE = 2, /* room in the send buffer */
  LUCID_BROKEN = 4 /* error or hang-up: nothing more can be sent */
};

/// A new epoll instance, or -1 with errno set.
static inline int
lucid_epoll_create (void)
{
  return epoll_create1 (EPOLL_CLOEXEC);
}

/// A new non-blocking eventfd counter for waking an epoll loop, or -1 with errno set.
static inline int
lucid_eventfd (void)
{
  return eventfd (0, EFD_NONBLOCK | EFD_CLOEXEC);
}

/// Removes `fd` from `epoll_fd`: needed before closing it while another descriptor of the
/// same socket may still be open, or its events would keep coming.
static inline void
lucid_epoll_forget (int epoll_fd, int fd)
{
  (void) epoll_ctl (epoll_fd, EPOLL_CTL_DEL, fd, NULL);
}

/// Registers `fd` with the epoll instance `epoll_fd` under `token`, level-triggered, for
/// reading (and the peer closing its side), plus writing when `writable` is non-zero;
/// `modify` non-zero changes an existing registration. Returns 0, or -1 with errno set.
/// The struct epoll_event is packed on x86-64, so it is only ever built here.
static inline int
lucid_epoll_watch (int epoll_fd, int fd, uint64_t token, int writable, int modify)
{
  struct epoll_event event;
  memset (&event, 0, sizeof (event));
  event.events = EPOLLIN | EPOLLRDHUP | (writable ? EPOLLOUT : 0);
  event.data.u64 = token;
  return epoll_ctl (epoll_fd, modify ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event);
}

/// Waits up to `timeout_ms` for ready descriptors of `epoll_fd`; writes each one's token
/// and LUCID_* readiness into `tokens` and `readiness` (room for `capacity`). Returns how
/// many, 0 on timeout or interruption, or -1 with errno set.
static inline int
lucid_epoll_wait (int epoll_fd, uint64_t *tokens, int *readiness, int capacity, int timeout_ms)
{
  struct epoll_event events[256];
  if (capacity > 256)
    capacity = 256;
  int count = epoll_wait (epoll_fd, events, capacity, timeout_ms);
  if (count < 0)
    return (EINTR == errno) ? 0 : -1;
  for (int index = 0; index < count; index++)
  {
    uint32_t flags = events[index].events;
    tokens[index] = events[index].data.u64;
    readiness[index] = ((flags & (EPOLLIN | EPOLLRDHUP)) ? LUCID_READABLE : 0)
                       | ((flags & EPOLLOUT) ? LUCID_WRITABLE : 0)
                       | ((flags & (EPOLLERR | EPOLLHUP)) ? LUCID_BROKEN : 0);
  }
  return count;
}

/// Makes a socket handed over from libmicrohttpd send each write at once: no corking
/// (libmicrohttpd may have left TCP_CORK on after its last response), no Nagle delay.
static inline void
lucid_socket_send_at_once (int fd)
{
  int off = 0, on = 1;
  (void) setsockopt (fd, IPPROTO_TCP, TCP_CORK, &off, sizeof (off));
  (void) setsockopt (fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof (on));
}

#endif
