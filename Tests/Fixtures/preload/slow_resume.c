/*
 * Loaded into jqc-server (LD_PRELOAD) by the test of stopping while a worker
 * is still handing an answer over. It widens two windows that are otherwise
 * a few instructions wide:
 *
 * - JQC_SLOW_RESUME_UNTIL: the first time a thread signals an event thread
 *   from inside MHD_resume_connection (an 8-byte write to an eventfd), it
 *   waits until the file named there exists (at most ten minutes; the test always makes it). Another
 *   connection's traffic wakes the event thread meanwhile, so the answer is
 *   sent and the request ends while the worker is still inside the call.
 * - JQC_SLOW_EXIT_MS: exit() waits this long before it runs, so a thread that
 *   is still going after the server stopped gets to run.
 *
 * On stderr: "slow_resume: waiting" when the delayed signal begins,
 * "slow_resume: the resume signal found its channel closed" if its
 * descriptor was closed meanwhile, and "slow_resume: signalled" once it was
 * written.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);

static int is_eventfd(int fd) {
    char link[64], target[64] = {0};
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, target, sizeof target - 1);
    return length > 0 && strstr(target, "eventfd") != NULL;
}

static int called_from_resume(void *caller) {
    Dl_info info;
    return dladdr(caller, &info) && info.dli_sname && strcmp(info.dli_sname, "MHD_resume_connection") == 0;
}

ssize_t write(int fd, const void *bytes, size_t count) {
    if (!real_write) real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (count != 8 || !called_from_resume(__builtin_return_address(0))) return real_write(fd, bytes, count);
    static atomic_int delayed;
    const char *release = getenv("JQC_SLOW_RESUME_UNTIL");
    if (release && is_eventfd(fd) && atomic_fetch_add(&delayed, 1) == 0) {
        static const char waiting[] = "slow_resume: waiting\n";
        real_write(2, waiting, sizeof waiting - 1);
        for (int step = 0; step < 60000 && access(release, F_OK) != 0; step++) usleep(10 * 1000);
        if (!is_eventfd(fd)) {
            static const char closed[] = "slow_resume: the resume signal found its channel closed\n";
            real_write(2, closed, sizeof closed - 1);
        }
        ssize_t written = real_write(fd, bytes, count);
        static const char signalled[] = "slow_resume: signalled\n";
        real_write(2, signalled, sizeof signalled - 1);
        return written;
    }
    return real_write(fd, bytes, count);
}

void exit(int code) {
    void (*real_exit)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
    const char *milliseconds = getenv("JQC_SLOW_EXIT_MS");
    if (milliseconds) usleep((useconds_t)atoi(milliseconds) * 1000);
    real_exit(code);
    __builtin_unreachable();
}
