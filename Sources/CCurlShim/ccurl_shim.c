// libcurl through dlopen: the App Store Connect client's transport on Linux. Linking libcurl (or
// Foundation's URLSession, which links it with GnuTLS, Kerberos, LDAP and 30 libraries more)
// would load them into every `iap` run, `iap validate` included; loaded here on the first request,
// they cost only the runs that talk to App Store Connect. The option numbers are libcurl's stable
// ABI (curl/curl.h: type base + number).
#include "ccurl_shim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void CURL;
struct curl_slist;
typedef int (*easy_setopt_fn)(CURL *, int, ...);

enum {
    OPT_WRITEDATA = 10001,
    OPT_URL = 10002,
    OPT_PROXY = 10004,
    OPT_ERRORBUFFER = 10010,
    OPT_WRITEFUNCTION = 20011,
    OPT_HTTPHEADER = 10023,
    OPT_HEADERDATA = 10029,
    OPT_POSTFIELDS = 10015,
    OPT_CUSTOMREQUEST = 10036,
    OPT_POST = 47,
    OPT_HTTPGET = 80,
    OPT_POSTFIELDSIZE_LARGE = 30120,
    OPT_FOLLOWLOCATION = 52,
    OPT_NOSIGNAL = 99,
    OPT_HEADERFUNCTION = 20079,
    OPT_TIMEOUT_MS = 155,
    OPT_CONNECTTIMEOUT_MS = 156,
    OPT_PROTOCOLS = 181,
    OPT_REDIR_PROTOCOLS = 182,
    INFO_RESPONSE_CODE = 0x200000 + 2,
    PROTO_HTTP = 1,
    PROTO_HTTPS = 2,
    E_WRITE_ERROR = 23,
    E_OPERATION_TIMEDOUT = 28,
    GLOBAL_ALL = 3,
    ERROR_SIZE = 256,
};

static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    easy_setopt_fn easy_setopt;
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    int loaded;
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4", "libcurl.so", "libcurl.4.dylib", NULL};
    void *library = NULL;
    for (int i = 0; names[i] && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    curl.global_init = (int (*)(long))dlsym(library, "curl_global_init");
    curl.easy_init = (CURL * (*)(void)) dlsym(library, "curl_easy_init");
    curl.easy_setopt = (easy_setopt_fn)dlsym(library, "curl_easy_setopt");
    curl.easy_perform = (int (*)(CURL *))dlsym(library, "curl_easy_perform");
    curl.easy_getinfo = (int (*)(CURL *, int, ...))dlsym(library, "curl_easy_getinfo");
    curl.easy_cleanup = (void (*)(CURL *))dlsym(library, "curl_easy_cleanup");
    curl.easy_strerror = (const char *(*)(int))dlsym(library, "curl_easy_strerror");
    curl.slist_append = (struct curl_slist * (*)(struct curl_slist *, const char *)) dlsym(library, "curl_slist_append");
    curl.slist_free_all = (void (*)(struct curl_slist *))dlsym(library, "curl_slist_free_all");
    if (curl.global_init && curl.easy_init && curl.easy_setopt && curl.easy_perform && curl.easy_getinfo && curl.easy_cleanup
        && curl.easy_strerror && curl.slist_append && curl.slist_free_all && curl.global_init(GLOBAL_ALL) == 0) {
        curl.loaded = 1;
    }
}

typedef struct {
    char *data;
    size_t length;
    size_t capacity;
    size_t limit;
    int over;
} buffer;

static int append(buffer *b, const char *bytes, size_t count) {
    if (b->length + count > b->limit) {
        b->over = 1;
        return 0;
    }
    if (b->length + count + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 16384;
        while (capacity < b->length + count + 1) capacity *= 2;
        if (capacity > b->limit + 1) capacity = b->limit + 1;
        char *grown = realloc(b->data, capacity);
        if (!grown) return 0;
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, bytes, count);
    b->length += count;
    b->data[b->length] = 0;
    return 1;
}

static size_t on_body(char *bytes, size_t size, size_t count, void *context) {
    return append((buffer *)context, bytes, size * count) ? size * count : 0;
}

static size_t on_header(char *bytes, size_t size, size_t count, void *context) {
    buffer *b = (buffer *)context;
    // A new status line starts a new response (after a 100 Continue): keep the last one's headers.
    if (size * count >= 5 && strncmp(bytes, "HTTP/", 5) == 0) b->length = 0;
    return append(b, bytes, size * count) ? size * count : 0;
}

struct iap_http_connection {
    CURL *handle;
};

iap_http_connection *iap_http_open(void) {
    pthread_once(&load_once, load);
    if (!curl.loaded) return NULL;
    iap_http_connection *connection = calloc(1, sizeof *connection);
    if (!connection) return NULL;
    connection->handle = curl.easy_init();
    if (!connection->handle) {
        free(connection);
        return NULL;
    }
    return connection;
}

void iap_http_close(iap_http_connection *connection) {
    if (!connection) return;
    if (connection->handle) curl.easy_cleanup(connection->handle);
    free(connection);
}

int iap_http_get(iap_http_connection *connection, const char *url, const char *const *headers, int header_count, long timeout_ms,
                 size_t max_body, iap_http_response *out) {
    return iap_http_send(connection, "GET", url, headers, header_count, NULL, 0, timeout_ms, max_body, out);
}

int iap_http_send(iap_http_connection *connection, const char *method, const char *url, const char *const *headers, int header_count,
                  const char *request_body, size_t request_length, long timeout_ms, size_t max_body, iap_http_response *out) {
    memset(out, 0, sizeof *out);
    int is_get = strcmp(method, "GET") == 0;
    if (!is_get && strcmp(method, "POST") != 0 && strcmp(method, "PATCH") != 0) {
        out->outcome = IAP_HTTP_FAILED;
        snprintf(out->error, sizeof out->error, "the method %.16s is not one this client sends", method);
        return out->outcome;
    }
    pthread_once(&load_once, load);
    if (!curl.loaded) {
        out->outcome = IAP_HTTP_NO_LIBRARY;
        snprintf(out->error, sizeof out->error, "libcurl (libcurl.so.4) could not be loaded: install libcurl4 (Debian, Ubuntu) or libcurl (Fedora)");
        return out->outcome;
    }
    CURL *handle = connection ? connection->handle : curl.easy_init();
    if (!handle) {
        out->outcome = IAP_HTTP_FAILED;
        snprintf(out->error, sizeof out->error, "libcurl could not make a request");
        return out->outcome;
    }
    struct curl_slist *list = NULL;
    for (int i = 0; i < header_count; i++) list = curl.slist_append(list, headers[i]);
    buffer body = {0}, head = {0};
    body.limit = max_body;
    head.limit = 1 << 20;
    char error[ERROR_SIZE] = {0};
    curl.easy_setopt(handle, OPT_URL, url);
    curl.easy_setopt(handle, OPT_HTTPHEADER, list);
    if (is_get) {
        // A handle that sent a POST or a PATCH before goes back to GET.
        curl.easy_setopt(handle, OPT_HTTPGET, 1L);
    } else {
        curl.easy_setopt(handle, OPT_POST, 1L);
        curl.easy_setopt(handle, OPT_POSTFIELDSIZE_LARGE, (long long)request_length);
        curl.easy_setopt(handle, OPT_POSTFIELDS, request_body ? request_body : "");
        if (strcmp(method, "POST") != 0) curl.easy_setopt(handle, OPT_CUSTOMREQUEST, method);
    }
    curl.easy_setopt(handle, OPT_WRITEFUNCTION, on_body);
    curl.easy_setopt(handle, OPT_WRITEDATA, (void *)&body);
    curl.easy_setopt(handle, OPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(handle, OPT_HEADERDATA, (void *)&head);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_TIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, timeout_ms);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    curl.easy_setopt(handle, OPT_REDIR_PROTOCOLS, (long)PROTO_HTTPS);
    // In the clear, the token would be read by a proxy: "" turns every proxy variable off.
    // Over https a proxy sees only the tunnel (CONNECT), so the environment's is used.
    if (strncmp(url, "https://", 8) != 0) curl.easy_setopt(handle, OPT_PROXY, "");
    int code = curl.easy_perform(handle);
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &out->status);
    if (code == 0) {
        out->outcome = IAP_HTTP_OK;
    } else if (code == E_WRITE_ERROR && body.over) {
        out->outcome = IAP_HTTP_TOO_LARGE;
    } else if (code == E_OPERATION_TIMEDOUT) {
        out->outcome = IAP_HTTP_TIMED_OUT;
    } else {
        out->outcome = IAP_HTTP_FAILED;
        // libcurl's own words for the code, not its error buffer: that one names the host and
        // port ("Could not resolve host: …"), which may come from the environment (IAP_ASC_URL).
        snprintf(out->error, sizeof out->error, "%s", curl.easy_strerror(code));
    }
    if (out->outcome == IAP_HTTP_OK) {
        out->body = body.data;
        out->body_length = body.length;
        out->headers = head.data;
        out->headers_length = head.length;
    } else {
        free(body.data);
        free(head.data);
    }
    // Nothing of this request stays on the handle: its header list and buffers are freed here.
    curl.easy_setopt(handle, OPT_HTTPHEADER, NULL);
    curl.easy_setopt(handle, OPT_WRITEDATA, NULL);
    curl.easy_setopt(handle, OPT_HEADERDATA, NULL);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, NULL);
    curl.easy_setopt(handle, OPT_POSTFIELDS, NULL);
    curl.easy_setopt(handle, OPT_CUSTOMREQUEST, NULL);
    curl.slist_free_all(list);
    if (!connection) curl.easy_cleanup(handle);
    return out->outcome;
}

void iap_http_free(iap_http_response *response) {
    free(response->body);
    free(response->headers);
    response->body = NULL;
    response->headers = NULL;
}
