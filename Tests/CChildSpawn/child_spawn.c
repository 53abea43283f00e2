// The GNU extensions of posix_spawn and pipe2, which Swift's Glibc module does not show.
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

#include "child_spawn.h"

int child_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int child_spawn_change_directory(posix_spawn_file_actions_t *actions, const char *directory) {
    return posix_spawn_file_actions_addchdir_np(actions, directory);
}

int child_spawn_pipe(int ends[2]) { return pipe2(ends, O_CLOEXEC); }
