#ifndef LUCID_CMICROHTTPD_SHIM_H
#define LUCID_CMICROHTTPD_SHIM_H

// Fixed-arity wrappers around libmicrohttpd's variadic calls, which Swift
// cannot call directly, and the few socket calls whose C structs Swift should
// not build (sockaddr, the packed epoll_event). Everything here is
// `static inline`; libmicrohttpd itself (1.0.1) is built from ../libmicrohttpd.

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include "../libmicrohttpd/src/include/microhttpd.h"

/// Returned through `error_out` when `host` is neither an IPv4 nor an IPv6
/// literal. Negative, so it can never be mistaken for an errno value.
#define LUCID_MHD_INVALID_HOST (-1)

/// MHD_OPTION_UNESCAPE_CALLBACK: percent-decoding of the target and its query arguments as
/// 0.9.75 did it, where an escape that is not `%` and two hex digits stays as sent. 1.0.1's
/// own decoding at discipline level 0 and above gives an argument with such an escape an
/// empty name or value (`?q=100%` arrives as `q` empty).
static inline size_t
lucid_unescape (void *cls, struct MHD_Connection *connection, char *value)
{
  (void) cls; (void) connection;
  return MHD_http_unescape (value);
}

/// A listening TCP socket bound to `address` (of `length` bytes), set up as libmicrohttpd
/// sets up its own: close-on-exec, SO_REUSEADDR, IPv6 only for an IPv6 address, the
/// system's largest backlog. Returns it, or -1 with `*error_out` set to errno as the
/// failing call left it (EADDRINUSE, EACCES, ...).
static inline int
lucid_listen (const struct sockaddr *address, socklen_t length, int *error_out)
{
  int on = 1;
  int fd = socket (address->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
  {
    *error_out = errno;
    return -1;
  }
  (void) setsockopt (fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof (on));
  if (AF_INET6 == address->sa_family)
    (void) setsockopt (fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof (on));
  if ( (0 != bind (fd, address, length)) || (0 != listen (fd, SOMAXCONN)) )
  {
    *error_out = errno;
    (void) close (fd);
    return -1;
  }
  return fd;
}

/// Starts a daemon with an internal thread pool (poll() or epoll loops, as `flags` say), listening on
/// `host:port` (an IPv4 or IPv6 literal; port 0 lets the kernel pick).
///
/// The socket address is parsed here rather than in Swift so that the `sockaddr` casts
/// stay in C. The listening socket is made here too (lucid_listen) and handed over with
/// MHD_OPTION_LISTEN_SOCKET: when libmicrohttpd 1.0.1 fails to bind or listen itself, it
/// closes its socket twice, so the errno it leaves says EBADF instead of why, and the
/// second close could take a descriptor another thread has just opened. From the call on,
/// the socket is libmicrohttpd's: it closes it when it stops, or when it fails to start.
///
/// `per_address_limit` caps the connections from one client address (0: no cap);
/// `accept_policy` may turn a new connection away; `notify_connection` hears of every
/// connection's start and end; `uri_log` sees each request-target as sent, before
/// libmicrohttpd decodes it in place (after which a decoded `%00` would end it).
///
/// Returns NULL on failure with `*error_out` set to the errno of the call that failed
/// (EADDRINUSE, EACCES, ... from binding; 0 if libmicrohttpd failed without saying), or to
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
  int listening;

  memset (&v4, 0, sizeof (v4));
  memset (&v6, 0, sizeof (v6));
  if (1 == inet_pton (AF_INET, host, &v4.sin_addr))
  {
    v4.sin_family = AF_INET;
    v4.sin_port = htons (port);
    listening = lucid_listen ((const struct sockaddr *) &v4, sizeof (v4), error_out);
  }
  else if (1 == inet_pton (AF_INET6, host, &v6.sin6_addr))
  {
    v6.sin6_family = AF_INET6;
    v6.sin6_port = htons (port);
    listening = lucid_listen ((const struct sockaddr *) &v6, sizeof (v6), error_out);
  }
  else
  {
    *error_out = LUCID_MHD_INVALID_HOST;
    return NULL;
  }
  if (listening < 0)
    return NULL;

  errno = 0;
  struct MHD_Daemon *daemon =
    MHD_start_daemon (flags,
                      port, /* ignored: MHD_OPTION_LISTEN_SOCKET wins */
                      accept_policy, accept_cls,
                      access_handler, access_cls,
                      MHD_OPTION_LISTEN_SOCKET, listening,
                      MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                      MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
                      MHD_OPTION_NOTIFY_COMPLETED, completed_handler,
                      completed_cls,
                      MHD_OPTION_NOTIFY_CONNECTION, notify_connection,
                      notify_cls,
                      MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                      MHD_OPTION_UNESCAPE_CALLBACK, lucid_unescape, (void *) NULL,
                      /* 1, not the default 0. At 0, 1.0.1 joins a folded field line
                         (obs-fold) into its field in place, where the server cannot see it,
                         and serves it, though a proxy that does not fold may read that head
                         otherwise; and it answers a space, tab, VT or FF in the target with
                         its own 301 to the target percent-encoded. At 1 it answers a fold and
                         a space in the target with 400 (a tab reaches the server's check, a
                         VT or FF closes the connection), and a bare LF line end too. Below 0
                         it replaces a NUL or bare CR in a field value with a space, which the
                         server could then no longer refuse. (At any level 1.0.1 refuses
                         itself much of what the server's checks refused after 0.9.75: README,
                         "Malformed requests".) */
                      MHD_OPTION_CLIENT_DISCIPLINE_LVL, (int) 1,
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

/// Whether the bytes from `from` up to `to` are one line end as libmicrohttpd 1.0.1 leaves
/// it after a piece of the head or, when `blank_line_follows`, a line end and then the
/// empty line that ends the head. libmicrohttpd ends each piece with one NUL written over
/// the byte after it (the first of a value's trailing spaces or tabs, the CR, or a bare LF)
/// and leaves the rest in place: so a NUL, then spaces or tabs, CRs each before an LF, and
/// the LFs, one fewer when the NUL stands for the first of them.
static inline int
lucid_line_ends_between (const char *from, const char *to, int blank_line_follows)
{
  int line_ends = 0, spaces = 0;
  const int expected = blank_line_follows ? 2 : 1;
  if ( ((uintptr_t) to <= (uintptr_t) from) || ('\0' != *from) )
    return 0;
  for (const char *byte = from + 1; byte != to; byte++)
  {
    if ('\n' == *byte)
      line_ends++;
    else if ('\r' == *byte)
    {
      if ( (byte + 1 == to) || ('\n' != byte[1]) )
        return 0;
    }
    else if ( ((' ' == *byte) || ('\t' == *byte)) && (0 == line_ends) )
      spaces = 1;
    else
      return 0;
  }
  return (expected == line_ends) || ((expected - 1 == line_ends) && ! spaces);
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
  LUCID_HEAD_CUT_FIELDS = 2 /* a field line lost bytes */
};

/// Whether libmicrohttpd kept every byte of the request head on `connection` in the pieces
/// it hands over, or where it did not (LUCID_HEAD_*). Call in the first access callback,
/// with the `method`, `url` and `version` it was given, and `target_length`, the length of
/// the request-target as the URI log callback saw it.
///
/// libmicrohttpd cuts a head up in its read buffer in place: the space after the method,
/// the one before the version, each field's colon and the end of each line (or of a value's
/// trailing whitespace) become NUL bytes, and the method, the target and every field name
/// and value are read as C strings. Were a NUL byte the client sent ever to reach such a
/// string, it would end it early and what follows would be dropped without a word (0.9.75
/// served `GET /v1/me\0/../x` as `/v1/me`, and gave `X: a\0b` the value `a`). 1.0.1
/// refuses a NUL anywhere in a head itself, before the server sees it; this stays as the
/// check that nothing was lost, whatever the library: what was dropped shows only in where
/// the next piece begins, so this walks the pieces in order, as pointers into that one
/// buffer, and reports a cut where anything but a separator lies between one and the next.
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
    if ( (' ' != *space) && ('\t' != *space) )
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

/// An empty response for a `304` that libmicrohttpd frames with neither `Content-Length` nor
/// `Transfer-Encoding` (MHD_RF_HEAD_ONLY_RESPONSE, since 0.9.77): RFC 9110 section 8.6 allows
/// a `Content-Length` there only if it is the length the `200` would have had, which the
/// server does not know, and libmicrohttpd writes one for every other response of known size
/// (0 for an empty one). A `304` has no body, so the connection stays open for the next
/// request (0.9.75 could end such an answer only by closing the connection).
static inline struct MHD_Response *
lucid_mhd_create_not_modified_response (void)
{
  return MHD_create_response_empty (MHD_RF_HEAD_ONLY_RESPONSE);
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
