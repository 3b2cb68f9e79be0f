/*
 * The bodies of the answers libmicrohttpd sends by itself, before the server sees the
 * request (a malformed head, a head too large for a connection's memory, a bad chunk):
 * RFC 9457 problem documents like every answer of the server's own, one per status, with
 * the type, title and status the server's Problem.Kind gives them. The library answers
 * before the request has an id, so requestId is all zeros. See patches/0002 and the
 * README's "Malformed requests".
 */
#include <stddef.h>

#define LUCID_PROBLEM(kind, title, status, detail) \
  "{\"type\":\"/problems/" kind "\",\"title\":\"" title "\",\"status\":" #status \
  ",\"detail\":\"" detail "\",\"requestId\":\"0000000000000000\"}"

static const char bad_request[] = LUCID_PROBLEM (
  "bad-request", "Bad request", 400,
  "The request is malformed: its request line, a field line or its chunked body breaks "
  "HTTP/1.1's syntax, or its framing is ambiguous. It was not read; the connection closes.");
static const char payload_too_large[] = LUCID_PROBLEM (
  "payload-too-large", "Payload too large", 413,
  "The request's Content-Length or a chunk's size is larger than any body the server "
  "reads. It was not read; the connection closes.");
static const char uri_too_long[] = LUCID_PROBLEM (
  "uri-too-long", "URI too long", 414,
  "The request line is larger than a connection's memory. It was not read; the "
  "connection closes.");
static const char header_fields_too_large[] = LUCID_PROBLEM (
  "header-fields-too-large", "Request header fields too large", 431,
  "The request's head is larger than a connection's memory. It was not read; the "
  "connection closes.");
static const char internal[] = LUCID_PROBLEM (
  "internal", "Internal error", 500,
  "The request's body could not be handed to the server. The connection closes.");
static const char version_not_supported[] = LUCID_PROBLEM (
  "http-version-not-supported", "HTTP version not supported", 505,
  "The server speaks HTTP/1.0 and HTTP/1.1. The connection closes.");

/* The body for an answer with `status_code`, and its length; NULL for a status the server
   has no problem for (the library then sends its own message). */
const char *
lucid_mhd_error_body (unsigned int status_code, size_t *length);

const char *
lucid_mhd_error_body (unsigned int status_code, size_t *length)
{
  const char *body;
  size_t size;
  switch (status_code)
  {
  case 400: body = bad_request; size = sizeof (bad_request); break;
  case 413: body = payload_too_large; size = sizeof (payload_too_large); break;
  case 414: body = uri_too_long; size = sizeof (uri_too_long); break;
  case 431: body = header_fields_too_large; size = sizeof (header_fields_too_large); break;
  case 500: body = internal; size = sizeof (internal); break;
  case 505: body = version_not_supported; size = sizeof (version_not_supported); break;
  default: return NULL;
  }
  *length = size - 1; /* without the terminating NUL */
  return body;
}
