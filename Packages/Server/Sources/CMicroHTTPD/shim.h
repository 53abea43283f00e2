#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>
#include <malloc.h>

/* The server's memory policy (glibc): allocations from `bytes` up are mapped on
   their own and returned to the system when freed. */
static inline void jqc_map_large_allocations(int bytes) { mallopt(M_MMAP_THRESHOLD, bytes); }

/* Typed wrappers for libmicrohttpd's variadic calls, which Swift cannot call directly. */

/* A line of MHD's own diagnostics, already formatted; see jqc_mhd_start. */
typedef void (*jqc_mhd_log_line)(void *cls, const char *line);

struct jqc_mhd_logger { jqc_mhd_log_line line; void *cls; };

static inline void jqc_mhd_format_log(void *cls, const char *format, va_list ap) {
    struct jqc_mhd_logger *logger = (struct jqc_mhd_logger *)cls;
    char text[512];
    vsnprintf(text, sizeof text, format, ap);
    if (logger != NULL && logger->line != NULL) logger->line(logger->cls, text);
}

/* Starts a daemon with every option the reference server sets. */
static inline struct MHD_Daemon *jqc_mhd_start(unsigned int flags, const struct sockaddr *address,
                                               MHD_AccessHandlerCallback handler, void *handler_cls,
                                               MHD_RequestCompletedCallback completed, void *completed_cls,
                                               MHD_NotifyConnectionCallback connection_notify, void *notify_cls,
                                               void *(*uri_log)(void *cls, const char *uri, struct MHD_Connection *con),
                                               void *uri_log_cls,
                                               struct jqc_mhd_logger *logger,
                                               unsigned int connection_timeout, unsigned int connection_limit,
                                               unsigned int per_address_limit, unsigned int thread_pool_size) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_EXTERNAL_LOGGER, jqc_mhd_format_log, (void *)logger,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_NOTIFY_CONNECTION, connection_notify, notify_cls,
                            MHD_OPTION_URI_LOG_CALLBACK, uri_log, uri_log_cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
                            MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                            MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024,
                            MHD_OPTION_END);
}

static inline uint16_t jqc_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

/* The connection's socket, or -1. */
static inline int jqc_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* The client's address as text ("127.0.0.1", "::1"); an empty string when unknown. */
static inline void jqc_mhd_client_address(struct MHD_Connection *connection, char *out, size_t size) {
    out[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, out, (socklen_t)size);
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, out, (socklen_t)size);
    }
}

/* A body of unknown length, sent with chunked transfer encoding; the reader's two ends. */
static const uint64_t jqc_mhd_size_unknown = MHD_SIZE_UNKNOWN;
static const ssize_t jqc_mhd_reader_end = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t jqc_mhd_reader_failed = MHD_CONTENT_READER_END_WITH_ERROR;
