#include "jqc_interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

// Ctrl-C during an interactive command: the message and the exit happen in
// the signal handler itself (write and _exit are async-signal-safe), so the
// process ends with 130 before an interrupted read can be taken for the end
// of input. libedit restores the terminal before it hands the signal on.
static char jqc_interrupt_message[2048];
static size_t jqc_interrupt_length;

static void jqc_interrupt_handler(int signal_number) {
    (void)signal_number;
    ssize_t written = write(STDERR_FILENO, jqc_interrupt_message, jqc_interrupt_length);
    (void)written;
    _exit(130);
}

void jqc_exit_on_interrupt(const char *message) {
    size_t length = strlen(message);
    if (length > sizeof(jqc_interrupt_message) - 1) length = sizeof(jqc_interrupt_message) - 1;
    memcpy(jqc_interrupt_message, message, length);
    jqc_interrupt_message[length] = '\n';
    jqc_interrupt_length = length + 1;
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = jqc_interrupt_handler;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
}

void jqc_default_interrupt(void) {
    signal(SIGINT, SIG_DFL);
}
