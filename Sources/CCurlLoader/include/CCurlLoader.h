// CCurlLoader: libcurl's types and constants, and the calls ReportTransport makes, resolved with dlopen on first use.
#ifndef CCURL_LOADER_H
#define CCURL_LOADER_H
// CURLOPT_PROTOCOLS is deprecated since 7.85 but is the fallback for an older libcurl.
#define CURL_DISABLE_DEPRECATION 1
#include <curl/curl.h>

// Why dlopen rather than linking: libcurl and what it pulls in (OpenSSL, GnuTLS, Kerberos,
// LDAP, SSH, …: some thirty libraries) cost the broker about 5.5 MB of resident memory from
// its start, for a report that is sent rarely, if ever. Only libcurl's header is used at build
// time; the library is loaded by the first `ab_curl_load` and stays loaded.

/// Loads libcurl (`libcurl.so.4`), resolves the calls below and runs
/// `curl_global_init(CURL_GLOBAL_ALL)`, once per process whoever calls first (thread-safe).
/// Returns 1 when libcurl is usable, 0 when it is missing or failed to initialise; every
/// call below may only be made after a return of 1.
int ab_curl_load(void);

/// curl_easy_init.
CURL *ab_curl_easy_init(void);
/// curl_easy_cleanup.
void ab_curl_easy_cleanup(CURL *handle);
/// curl_easy_perform.
CURLcode ab_curl_easy_perform(CURL *handle);
/// curl_easy_strerror.
const char *ab_curl_easy_strerror(CURLcode code);
/// curl_slist_append.
struct curl_slist *ab_curl_slist_append(struct curl_slist *list, const char *string);
/// curl_slist_free_all.
void ab_curl_slist_free_all(struct curl_slist *list);

/// curl_easy_setopt with a `long` (a number, a flag, a bit mask).
CURLcode ab_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
/// curl_easy_setopt with a data pointer (a string libcurl copies, a list, a buffer).
CURLcode ab_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
/// curl_easy_setopt with a write (or header) callback.
CURLcode ab_curl_easy_setopt_write_callback(CURL *handle, CURLoption option, curl_write_callback callback);
/// Limits the transfer to HTTP and HTTPS: CURLOPT_PROTOCOLS_STR, or CURLOPT_PROTOCOLS before
/// libcurl 7.85 (which answers CURLE_UNKNOWN_OPTION to the former).
CURLcode ab_curl_easy_restrict_to_http(CURL *handle);
/// curl_easy_getinfo for a `long` answer.
CURLcode ab_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
#endif
