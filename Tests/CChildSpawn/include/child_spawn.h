#ifndef CHILD_SPAWN_H
#define CHILD_SPAWN_H

#include <spawn.h>

/// Adds the action that closes, in the child, every descriptor from `from` on.
int child_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/// Adds the action that makes `directory` the child's working directory.
int child_spawn_change_directory(posix_spawn_file_actions_t *actions, const char *directory);

/// Makes a pipe whose two ends close on exec: `ends[0]` to read, `ends[1]` to write.
int child_spawn_pipe(int ends[2]);

#endif
