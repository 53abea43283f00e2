#include <curl/curl.h>

/* Typed wrappers for libcurl's variadic calls, which Swift cannot call directly. */
static inline CURLcode jqc_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode jqc_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode jqc_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode jqc_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode jqc_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode jqc_easy_setopt_mime(CURL *handle, curl_mime *mime) {
    return curl_easy_setopt(handle, CURLOPT_MIMEPOST, mime);
}
static inline CURLcode jqc_easy_setopt_write_function(CURL *handle, CURLoption option,
                                                      size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, option, callback);
}
static inline CURLcode jqc_easy_setopt_xferinfo_function(CURL *handle,
                                                         int (*callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode jqc_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline curl_version_info_data *jqc_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}
static inline CURLcode jqc_global_init(void) {
    return curl_global_init(CURL_GLOBAL_ALL);
}
/* The result of a finished transfer, from the union inside CURLMsg. */
static inline CURLcode jqc_multi_message_result(const CURLMsg *message) {
    return message->data.result;
}
static inline int jqc_multi_message_is_done(const CURLMsg *message) {
    return message->msg == CURLMSG_DONE;
}
/* Where libcurl rewinds a streamed body to, when it sends it again on a new connection. */
static inline CURLcode jqc_easy_setopt_seek_function(CURL *handle, int (*callback)(void *, curl_off_t, int)) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, callback);
}
static inline CURLcode jqc_easy_setopt_read_function(CURL *handle, size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}
/* A mail relay's STARTTLS: required (CURLUSESSL_ALL, fails on a relay that does not offer it) or never tried. */
static inline CURLcode jqc_easy_setopt_use_ssl(CURL *handle, int require) {
    return curl_easy_setopt(handle, CURLOPT_USE_SSL, (long)(require ? CURLUSESSL_ALL : CURLUSESSL_NONE));
}
static inline CURLcode jqc_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
