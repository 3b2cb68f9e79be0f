/* MHD_config.h for libmicrohttpd 1.0.1 as Lucid builds it: 64-bit little-endian Linux with
   glibc (Debian 12, x86-64 and arm64). Generated once by upstream's configure (see README.md
   beside this file for the command) and trimmed to the macros the vendored sources test;
   every value below is configure's, unchanged. Not an upstream file.

   The macros configure passes on the command line instead (BUILDING_MHD_LIB, HAVE_CONFIG_H,
   NDEBUG, _GNU_SOURCE, _XOPEN_SOURCE=700) are cSettings of the CMicroHTTPD target in
   Package.swift. */

#ifndef LUCID_MHD_CONFIG_H
#define LUCID_MHD_CONFIG_H

/* Elsewhere these values would be wrong, and the library would build wrongly rather than
   fail: stop here instead. Rerun configure on the new platform to make a header for it. */
#if ! defined(__linux__)
#error "MHD_config.h is configure's answer for Linux; the server (and CMicroHTTPD) builds on Linux only"
#endif
#if (__SIZEOF_INT__ != 4) || (__SIZEOF_SIZE_T__ != 8) || (__SIZEOF_LONG_LONG__ != 8) \
  || (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
#error "MHD_config.h was generated for 64-bit little-endian Linux"
#endif

/* ---- Features, as chosen on configure's command line ---- */

/* Error texts in the bodies of libmicrohttpd's own answers (and for its error log, which
   the server leaves off). */
#define HAVE_MESSAGES 1
/* --disable-https, --disable-dauth, --disable-bauth, --disable-postprocessor,
   --disable-httpupgrade and --disable-cookie leave HTTPS_SUPPORT, DAUTH_SUPPORT,
   BAUTH_SUPPORT, HAVE_POSTPROCESSOR, UPGRADE_SUPPORT and COOKIE_SUPPORT undefined. */

/* Fast (and larger) code rather than compact. */
#define MHD_FAVOR_FAST_CODE 1

/* ---- Event loops, threads, inter-thread communication (Linux) ---- */

#define EPOLL_SUPPORT 1
#define HAVE_EPOLL_CREATE1 1
#define HAVE_POLL 1
#define HAVE_POLL_H 1
#define _MHD_ITC_EVENTFD 1
#define MHD_USE_POSIX_THREADS 1
#define HAVE_PTHREAD_H 1
#define HAVE_PTHREAD_SIGMASK 1
/* GNU form of pthread_setname_np(3): glibc. */
#define HAVE_PTHREAD_SETNAME_NP_GNU 1
#define MHD_SYS_FD_SETSIZE_ 1024
#define LINUX 1

/* ---- Sockets and sending ---- */

#define HAS_SIGNED_SOCKET 1
#define HAVE_ACCEPT4 1
#define HAVE_SOCK_NONBLOCK 1
#define HAVE_INET6 1
#define HAVE_LISTEN_SHUTDOWN 1
#define MHD_USE_GETSOCKNAME 1
#define HAVE_SENDMSG 1
#define HAVE_WRITEV 1
/* Linux-style sendfile(2), and the 64-bit file calls of glibc. */
#define HAVE_LINUX_SENDFILE 1
#define HAVE_SENDFILE64 1
#define HAVE_PREAD 1
#define HAVE_PREAD64 1
#define HAVE_LSEEK64 1

/* ---- Other functions ---- */

#define HAVE_CALLOC 1
#define HAVE_CLOCK_GETTIME 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_GMTIME_R 1
#define HAVE_TIMESPEC_GET 1
#define HAVE_RANDOM 1
#define HAVE_SNPRINTF 1
#define HAVE_SYSCONF 1
#define MHD_USE_SYS_TSEARCH 1

/* ---- Headers ---- */

#define HAVE_ARPA_INET_H 1
#define HAVE_FCNTL_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_LIMITS_H 1
#define HAVE_NETDB_H 1
#define HAVE_NETINET_IN_H 1
#define HAVE_NETINET_TCP_H 1
#define HAVE_NET_IF_H 1
#define HAVE_SIGNAL_H 1
#define HAVE_STDALIGN_H 1
#define HAVE_STDBOOL_H 1
#define HAVE_STDDEF_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_SYS_IOCTL_H 1
#define HAVE_SYS_MMAN_H 1
#define HAVE_SYS_MSG_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_SELECT_H 1
#define HAVE_SYS_SOCKET_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_TIME_H 1
#define HAVE_UNISTD_H 1

/* ---- Compiler (clang and gcc alike) ---- */

#define HAVE_C_ALIGNOF 1
#define HAVE___FUNC__ 1
#define INLINE_FUNC 1
#define _MHD_static_inline static inline __attribute__((always_inline))
#define _MHD_NORETURN _Noreturn
#define _MHD_EXTERN __attribute__((visibility("default"))) extern

/* ---- Sizes (checked against the compiler's above) ---- */

#define SIZEOF_INT 4
#define SIZEOF_UNSIGNED_INT 4
#define SIZEOF_SIZE_T 8
#define SIZEOF_INT64_T 8
#define SIZEOF_UINT64_T 8
#define SIZEOF_UNSIGNED_LONG_LONG 8
#define SIZEOF_STRUCT_TIMEVAL_TV_SEC 8

/* ---- Lucid: the bodies of the answers the library sends by itself ---- */

/* Problem documents instead of HTML pages (patches/0002, ../lucid_error_bodies.c). */
#define MHD_ERROR_BODY lucid_mhd_error_body
#define MHD_ERROR_BODY_CONTENT_TYPE "application/problem+json"

/* ---- Version ---- */

#define PACKAGE_VERSION "1.0.1"
#define VERSION "1.0.1"

#endif /* LUCID_MHD_CONFIG_H */
