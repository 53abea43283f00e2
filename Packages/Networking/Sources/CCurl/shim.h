#include <curl/curl.h>

/* Typed wrappers for libcurl's variadic calls, which Swift cannot call directly. */
static inline CURLcode jqc_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode jqc_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode jqc_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode jqc_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline curl_version_info_data *jqc_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}
