#include "jqc_terminal_signals.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

// Everything here runs inside signal handlers, on whichever thread the
// kernel picks: only async-signal-safe calls (tcsetattr, write, _exit,
// sigaction, raise, sigprocmask), and state that is a plain value, never a
// pointer that another thread may clear.

// The terminal's modes from before the line being edited, and whether a line
// is being edited now.
static struct termios jqc_modes_before_editing;
static volatile sig_atomic_t jqc_editing;

// Ctrl-C's message while an interactive command runs; no message: Ctrl-C
// ends the program as usual.
static char jqc_interrupt_message[2048];
static volatile sig_atomic_t jqc_interrupt_length;

static volatile sig_atomic_t jqc_handling_terminal_signals;

static void jqc_restore_terminal(void) {
    if (jqc_editing) {
        int saved = errno;
        (void)tcsetattr(STDIN_FILENO, TCSANOW, &jqc_modes_before_editing);
        errno = saved;
    }
}

static void jqc_install(int signal_number, void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
}

// The signal's default action, once this handler returns: it stays blocked
// in this thread until then.
static void jqc_act_by_default(int signal_number) {
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

static void jqc_on_ending_signal(int signal_number) {
    jqc_restore_terminal();
    if (signal_number == SIGINT && jqc_interrupt_length > 0) {
        ssize_t written = write(STDERR_FILENO, jqc_interrupt_message, (size_t)jqc_interrupt_length);
        (void)written;
        _exit(130);
    }
    jqc_act_by_default(signal_number);
}

static void jqc_on_stop(int signal_number) {
    int saved = errno;
    struct termios editing_modes;
    int was_editing = jqc_editing && tcgetattr(STDIN_FILENO, &editing_modes) == 0;
    jqc_restore_terminal();
    // Stop here: the stop is raised for this thread and let through at once.
    signal(signal_number, SIG_DFL);
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, signal_number);
    raise(signal_number);
    sigprocmask(SIG_UNBLOCK, &stop, NULL);
    // Continued: handled again, and the line is edited on in the editor's modes.
    sigprocmask(SIG_BLOCK, &stop, NULL);
    jqc_install(signal_number, jqc_on_stop);
    if (was_editing && jqc_editing) (void)tcsetattr(STDIN_FILENO, TCSADRAIN, &editing_modes);
    errno = saved;
}

// A signal the program was started with ignored (`nohup` ignores SIGHUP) stays ignored.
static void jqc_install_unless_ignored(int signal_number, void (*handler)(int)) {
    struct sigaction current;
    if (sigaction(signal_number, NULL, &current) == 0 && current.sa_handler == SIG_IGN) return;
    jqc_install(signal_number, handler);
}

void jqc_handle_terminal_signals(void) {
    if (jqc_handling_terminal_signals) return;
    jqc_handling_terminal_signals = 1;
    jqc_install_unless_ignored(SIGHUP, jqc_on_ending_signal);
    jqc_install_unless_ignored(SIGINT, jqc_on_ending_signal);
    jqc_install_unless_ignored(SIGQUIT, jqc_on_ending_signal);
    jqc_install_unless_ignored(SIGTERM, jqc_on_ending_signal);
    jqc_install_unless_ignored(SIGTSTP, jqc_on_stop);
}

void jqc_line_editing_begins(void) {
    jqc_editing = 0;
    if (tcgetattr(STDIN_FILENO, &jqc_modes_before_editing) == 0) jqc_editing = 1;
}

void jqc_line_editing_ends(void) {
    jqc_editing = 0;
}

void jqc_exit_on_interrupt(const char *message) {
    jqc_interrupt_length = 0;
    size_t length = strlen(message);
    if (length > sizeof(jqc_interrupt_message) - 1) length = sizeof(jqc_interrupt_message) - 1;
    memcpy(jqc_interrupt_message, message, length);
    jqc_interrupt_message[length] = '\n';
    jqc_interrupt_length = (sig_atomic_t)(length + 1);
    jqc_install(SIGINT, jqc_on_ending_signal);
}

void jqc_default_interrupt(void) {
    jqc_interrupt_length = 0;
    if (!jqc_handling_terminal_signals) signal(SIGINT, SIG_DFL);
}
