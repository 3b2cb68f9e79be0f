/*
 * The ceiling for Lucid's list workload: libmicrohttpd answering every request with the
 * same bytes from memory, threaded the way Lucid's server is (see
 * Sources/LucidHTTP/MHD/Daemon.swift and lucid_mhd_start in the CMicroHTTPD shim), so
 * that what is left between Lucid and this is Lucid's own work: routing, authentication,
 * the store, rendering, and handing each request to a worker and back.
 *
 * Usage: mhd_from_memory BODY_FILE [PORT]
 *   Answers every request 200 with BODY_FILE's bytes as application/json, on 127.0.0.1
 *   (port 0, the default, lets the kernel pick). Prints "listening on
 *   http://127.0.0.1:PORT" once the socket accepts connections, and runs until SIGTERM
 *   or SIGINT. Built by script/bench-limits against the libmicrohttpd Lucid links.
 */
#include <errno.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

/* The one response, made before the daemon starts and queued on every request:
   libmicrohttpd counts its references under its own lock, so its threads may share it. */
static struct MHD_Response *answer;

static enum MHD_Result
access_handler (void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls)
{
  static int seen;
  (void) cls; (void) url; (void) method; (void) version; (void) upload_data;
  /* The first call only marks the request: a response queued then, before libmicrohttpd
     knows there is no body to read, closes the connection instead of keeping it alive. */
  if (NULL == *req_cls)
  {
    *req_cls = &seen;
    return MHD_YES;
  }
  /* A body, if any, is read and dropped. */
  if (0 != *upload_data_size)
  {
    *upload_data_size = 0;
    return MHD_YES;
  }
  return MHD_queue_response (connection, MHD_HTTP_OK, answer);
}

/* The body, read whole; it lives as long as the process (a static buffer to libmicrohttpd). */
static char *
read_file (const char *path, size_t *size)
{
  FILE *file = fopen (path, "rb");
  if (NULL == file)
    return NULL;
  size_t capacity = 1 << 16, used = 0, got;
  char *bytes = malloc (capacity);
  while (NULL != bytes && 0 != (got = fread (bytes + used, 1, capacity - used, file)))
  {
    used += got;
    if (used == capacity)
    {
      char *grown = realloc (bytes, capacity *= 2);
      if (NULL == grown)
        free (bytes);
      bytes = grown;
    }
  }
  if (ferror (file))
  {
    free (bytes);
    bytes = NULL;
  }
  fclose (file);
  *size = used;
  return bytes;
}

/* Lucid's automatic connection limit (ConnectionBudget.automatic): the open-file limit
   raised to its hard limit, less 256 kept back, and at most a quarter of physical memory
   at 64 KiB a connection; at least 16. */
static unsigned int
connection_limit (void)
{
  struct rlimit limit;
  long long by_files = 1024;
  if (0 == getrlimit (RLIMIT_NOFILE, &limit))
  {
    if (limit.rlim_cur < limit.rlim_max)
    {
      struct rlimit raised = limit;
      raised.rlim_cur = limit.rlim_max;
      if (0 == setrlimit (RLIMIT_NOFILE, &raised))
        limit = raised;
    }
    by_files = (RLIM_INFINITY == limit.rlim_cur) ? INT32_MAX : (long long) limit.rlim_cur;
  }
  long pages = sysconf (_SC_PHYS_PAGES), page = sysconf (_SC_PAGESIZE);
  long long memory = (pages > 0 && page > 0) ? (long long) pages * page : 1LL << 30;
  long long connections = by_files - 256;
  if (memory / 4 / (64 << 10) < connections)
    connections = memory / 4 / (64 << 10);
  if (connections > INT32_MAX)
    connections = INT32_MAX;
  return (unsigned int) (connections < 16 ? 16 : connections);
}

int
main (int argc, char **argv)
{
  if ( (argc < 2) || (argc > 3) )
  {
    fprintf (stderr, "usage: %s BODY_FILE [PORT]\n", argv[0]);
    return 2;
  }
  size_t size;
  char *body = read_file (argv[1], &size);
  if (NULL == body)
  {
    fprintf (stderr, "mhd_from_memory: cannot read %s: %s\n", argv[1], strerror (errno));
    return 1;
  }
#if MHD_VERSION >= 0x00097701
  answer = MHD_create_response_from_buffer_static (size, body);
#else
  answer = MHD_create_response_from_buffer (size, body, MHD_RESPMEM_PERSISTENT);
#endif
  if ( (NULL == answer)
       || (MHD_YES != MHD_add_response_header (answer, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json")) )
  {
    fprintf (stderr, "mhd_from_memory: cannot make the response\n");
    return 1;
  }

  /* SIGTERM and SIGINT are blocked before libmicrohttpd starts its threads, which inherit
     the mask, so only sigwait below ever sees them. */
  sigset_t stop;
  sigemptyset (&stop);
  sigaddset (&stop, SIGTERM);
  sigaddset (&stop, SIGINT);
  pthread_sigmask (SIG_BLOCK, &stop, NULL);

  struct sockaddr_in address;
  memset (&address, 0, sizeof (address));
  address.sin_family = AF_INET;
  address.sin_port = htons ((uint16_t) (argc == 3 ? atoi (argv[2]) : 0));
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  long processors = sysconf (_SC_NPROCESSORS_ONLN);

  /* Lucid's flags, pool size (ioThreads: one thread per processor online), connection
     limits (the per-address one at twice lucid serve's default of 256, as Daemon.swift
     sets it) and idle timeout (60 s); and the same leniency towards clients. */
  struct MHD_Daemon *daemon =
    MHD_start_daemon (MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC
                      | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_TURBO,
                      0, NULL, NULL, &access_handler, NULL,
                      MHD_OPTION_SOCK_ADDR, (const struct sockaddr *) &address,
                      MHD_OPTION_THREAD_POOL_SIZE, (unsigned int) (processors > 0 ? processors : 1),
                      MHD_OPTION_CONNECTION_LIMIT, connection_limit (),
                      MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int) (2 * 256),
                      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) 60,
#if MHD_VERSION >= 0x00097701
                      MHD_OPTION_CLIENT_DISCIPLINE_LVL, (int) 1,
#else
                      MHD_OPTION_STRICT_FOR_CLIENT, (int) 0,
#endif
                      MHD_OPTION_END);
  if (NULL == daemon)
  {
    fprintf (stderr, "mhd_from_memory: libmicrohttpd could not start: %s\n", strerror (errno));
    return 1;
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info (daemon, MHD_DAEMON_INFO_BIND_PORT);
  printf ("libmicrohttpd %s, %ld threads, %zu-byte body\n", MHD_get_version (),
          processors > 0 ? processors : 1, size);
  printf ("listening on http://127.0.0.1:%u\n", (NULL == info) ? 0u : (unsigned int) info->port);
  fflush (stdout);

  int signal_number;
  sigwait (&stop, &signal_number);
  MHD_stop_daemon (daemon);
  MHD_destroy_response (answer);
  free (body);
  return 0;
}
