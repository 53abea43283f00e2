#include <stdio.h>
#include <stdlib.h>
#include <editline/readline.h>

/// libedit installs no signal handlers of its own while it reads a line.
static inline void jqc_editline_without_signal_handlers(void) {
    rl_catch_signals = 0;
}
