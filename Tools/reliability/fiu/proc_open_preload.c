/* Opens under /proc/ pass by libfiu's failure points. Loaded first, before
 * fiu_posix_preload.so, by the I/O-fault run (Tools/reliability/jqcrel/iofaults.py).
 *
 * libdispatch, under every Swift program here, watches its worker threads by
 * opening /proc/<tid>/stat once a second and stops the program (SIGILL) when
 * that open fails. Such an open does not fail with the errors the run injects
 * (ENOSPC, EIO, EAGAIN, EINTR), so an injected failure there would report a
 * crash that no disk or user could cause. Every other open still goes through
 * libfiu. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef int (*open_function)(const char *, int, ...);

/* The open of `path` under /proc/ as a system call, libfiu's wrapper left out;
 * any other through the next library's `name` (libfiu's, then libc's). */
static int open_past_faults(open_function *next, const char *name, const char *path, int flags, mode_t mode) {
    if (path && strncmp(path, "/proc/", 6) == 0) return (int) syscall(SYS_openat, AT_FDCWD, path, flags, mode);
    if (!*next) *next = (open_function) dlsym(RTLD_NEXT, name);
    return (*next)(path, flags, mode);
}

int open(const char *path, int flags, ...) {
    static open_function next;
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list arguments;
        va_start(arguments, flags);
        mode = (mode_t) va_arg(arguments, int);
        va_end(arguments);
    }
    return open_past_faults(&next, "open", path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    static open_function next;
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list arguments;
        va_start(arguments, flags);
        mode = (mode_t) va_arg(arguments, int);
        va_end(arguments);
    }
    return open_past_faults(&next, "open64", path, flags | O_LARGEFILE, mode);
}
