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

static int is_proc(const char *path) { return path && strncmp(path, "/proc/", 6) == 0; }

static mode_t mode_of(int flags, va_list arguments) {
    return (flags & (O_CREAT | O_TMPFILE)) ? (mode_t) va_arg(arguments, int) : 0;
}

int open(const char *path, int flags, ...) {
    static open_function next;
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_of(flags, arguments);
    va_end(arguments);
    if (is_proc(path)) return (int) syscall(SYS_openat, AT_FDCWD, path, flags, mode);
    if (!next) next = (open_function) dlsym(RTLD_NEXT, "open");
    return next(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
    static open_function next;
    va_list arguments;
    va_start(arguments, flags);
    mode_t mode = mode_of(flags, arguments);
    va_end(arguments);
    if (is_proc(path)) return (int) syscall(SYS_openat, AT_FDCWD, path, flags | O_LARGEFILE, mode);
    if (!next) next = (open_function) dlsym(RTLD_NEXT, "open64");
    return next(path, flags, mode);
}
