#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <stddef.h>

/// How a request ended.
enum iap_http_outcome {
    IAP_HTTP_OK = 0,
    IAP_HTTP_TIMED_OUT = 1,
    IAP_HTTP_TOO_LARGE = 2,
    IAP_HTTP_FAILED = 3,
    /// libcurl could not be loaded: `error` says which names were tried.
    IAP_HTTP_NO_LIBRARY = 4,
};

/// One GET's response. `body` and `headers` are malloc'ed; free them with iap_http_free.
typedef struct {
    long status;
    char *body;
    size_t body_length;
    /// The raw header lines of the last response, as received.
    char *headers;
    size_t headers_length;
    int outcome;
    char error[256];
} iap_http_response;

/// A connection: one libcurl handle, whose connection to the server is kept open between
/// requests (a TLS handshake per request would cost more than the request). Used by one thread
/// at a time.
typedef struct iap_http_connection iap_http_connection;

/// A new connection, or NULL when libcurl cannot be loaded or make a handle.
iap_http_connection *iap_http_open(void);

void iap_http_close(iap_http_connection *connection);

/// A GET of `url` on `connection` (NULL: a handle of its own, closed after) with `header_count`
/// header lines ("Name: value"), ended after `timeout_ms` in all, keeping at most `max_body`
/// bytes of body (more ends it as IAP_HTTP_TOO_LARGE). libcurl is loaded on first use (dlopen),
/// so a program that makes no request never loads it. Only http and https; redirects are not
/// followed; a plain http:// request never goes through a proxy (the environment's proxy
/// variables are ignored for it), so a token sent in the clear reaches only the address named.
/// Returns `out->outcome`.
int iap_http_get(iap_http_connection *connection, const char *url, const char *const *headers, int header_count, long timeout_ms,
                 size_t max_body, iap_http_response *out);

/// As iap_http_get, with the method `method` ("GET", "POST" or "PATCH"; any other fails) and, for
/// POST and PATCH, `request_length` bytes of `request_body` sent as the body.
int iap_http_send(iap_http_connection *connection, const char *method, const char *url, const char *const *headers, int header_count,
                  const char *request_body, size_t request_length, long timeout_ms, size_t max_body, iap_http_response *out);

void iap_http_free(iap_http_response *response);

#endif
