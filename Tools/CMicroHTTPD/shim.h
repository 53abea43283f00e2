#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Typed wrappers for libmicrohttpd's variadic calls, which Swift cannot call directly. */
static inline struct MHD_Daemon *jqc_mhd_start(unsigned int flags, const struct sockaddr *address,
                                               MHD_AccessHandlerCallback handler, void *handler_cls,
                                               MHD_RequestCompletedCallback completed, void *completed_cls,
                                               unsigned int connection_timeout, unsigned int connection_limit) {
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_SOCK_ADDR, address,
                            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                            MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                            MHD_OPTION_END);
}
static inline uint16_t jqc_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
