// CCurlLoader: the libcurl calls of ReportTransport through pointers resolved by dlopen/dlsym, once.
#include "CCurlLoader.h"
#include <dlfcn.h>
#include <pthread.h>

/// The resolved entry points; written once inside `pthread_once`, read-only afterwards.
/// The variadic two keep their variadic types, so each call passes its argument as C's
/// calling convention for `...` wants it.
static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *handle);
    CURLcode (*easy_perform)(CURL *handle);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
} api;
static int usable;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return;
#define RESOLVE(field, symbol)                                   \
    *(void **)&api.field = dlsym(library, symbol);               \
    if (api.field == NULL) return;
    RESOLVE(global_init, "curl_global_init")
    RESOLVE(easy_init, "curl_easy_init")
    RESOLVE(easy_cleanup, "curl_easy_cleanup")
    RESOLVE(easy_perform, "curl_easy_perform")
    RESOLVE(easy_setopt, "curl_easy_setopt")
    RESOLVE(easy_getinfo, "curl_easy_getinfo")
    RESOLVE(easy_strerror, "curl_easy_strerror")
    RESOLVE(slist_append, "curl_slist_append")
    RESOLVE(slist_free_all, "curl_slist_free_all")
#undef RESOLVE
    // Once, here: curl_global_init is not thread-safe in older libcurl, and a process that
    // never sends a report never calls it.
    usable = api.global_init(CURL_GLOBAL_ALL) == CURLE_OK;
}

int ab_curl_load(void) {
    pthread_once(&once, load);
    return usable;
}

CURL *ab_curl_easy_init(void) { return api.easy_init(); }
void ab_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
CURLcode ab_curl_easy_perform(CURL *handle) { return api.easy_perform(handle); }
const char *ab_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }
struct curl_slist *ab_curl_slist_append(struct curl_slist *list, const char *string) {
    return api.slist_append(list, string);
}
void ab_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLcode ab_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ab_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}
CURLcode ab_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback) {
    return api.easy_setopt(handle, option, callback);
}
CURLcode ab_curl_easy_restrict_to_http(CURL *handle) {
    CURLcode code = CURLE_UNKNOWN_OPTION;
#if LIBCURL_VERSION_NUM >= 0x075500
    code = api.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    if (code == CURLE_UNKNOWN_OPTION) {
        code = api.easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    }
    return code;
}
CURLcode ab_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return api.easy_getinfo(handle, info, value);
}
