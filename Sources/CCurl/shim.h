// The one C header Swift sees for libcurl: the library itself plus fixed-argument wrappers
// for its variadic calls (Swift cannot call a C variadic function) and its macro constants.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
// CURLOPT_PROTOCOLS is deprecated since 7.85 but is the fallback for an older libcurl.
#define CURL_DISABLE_DEPRECATION 1
#include <curl/curl.h>

/// curl_global_init(CURL_GLOBAL_ALL): the flags are a macro of macros, so not importable.
static inline CURLcode ab_curl_global_init_all(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}

/// curl_easy_setopt with a `long` (a number, a flag, a bit mask).
static inline CURLcode ab_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a data pointer (a string libcurl copies, a list, a buffer, callback data).
static inline CURLcode ab_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/// curl_easy_setopt with a write (or header) callback.
static inline CURLcode ab_curl_setopt_write_callback(
    CURL *handle, CURLoption option, curl_write_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

/// curl_easy_setopt(CURLOPT_XFERINFOFUNCTION) with its callback.
static inline CURLcode ab_curl_setopt_xferinfo_callback(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

/// Limits the transfer to HTTP and HTTPS: CURLOPT_PROTOCOLS_STR, or CURLOPT_PROTOCOLS before
/// libcurl 7.85 (which answers CURLE_UNKNOWN_OPTION to the former).
static inline CURLcode ab_curl_restrict_to_http(CURL *handle) {
    CURLcode code = CURLE_UNKNOWN_OPTION;
#if LIBCURL_VERSION_NUM >= 0x075500
    code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    if (code == CURLE_UNKNOWN_OPTION) {
        code = curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    }
    return code;
}

/// curl_easy_getinfo for a `long` answer.
static inline CURLcode ab_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

/// curl_easy_getinfo for a string answer (owned by the handle; NULL when there is none).
static inline CURLcode ab_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    char *text = NULL;
    CURLcode code = curl_easy_getinfo(handle, info, &text);
    *value = text;
    return code;
}
#endif
