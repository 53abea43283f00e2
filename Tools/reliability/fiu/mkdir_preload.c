/* A libfiu failure point for mkdir(2) and mkdirat(2), which libfiu's own
 * POSIX preload library does not wrap. Loaded beside fiu_posix_preload.so by
 * the I/O-fault run (Tools/reliability/jqcrel/iofaults.py), it is enabled like
 * the others: "enable_random name=posix/io/dir/mkdir,probability=P,failinfo=ERRNO".
 * A failinfo of 0 fails with EIO. */
#define _GNU_SOURCE
#define FIU_ENABLE 1 /* fiu.h compiles its calls away unless asked for them */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <fiu.h>

static int injected(void) {
    if (!fiu_fail("posix/io/dir/mkdir")) return 0;
    intptr_t code = (intptr_t) fiu_failinfo();
    errno = code ? (int) code : EIO;
    return 1;
}

int mkdir(const char *path, mode_t mode) {
    static int (*real)(const char *, mode_t);
    if (!real) real = (int (*)(const char *, mode_t)) dlsym(RTLD_NEXT, "mkdir");
    if (injected()) return -1;
    return real(path, mode);
}

int mkdirat(int folder, const char *path, mode_t mode) {
    static int (*real)(int, const char *, mode_t);
    if (!real) real = (int (*)(int, const char *, mode_t)) dlsym(RTLD_NEXT, "mkdirat");
    if (injected()) return -1;
    return real(folder, path, mode);
}
