#ifndef JQC_TERMINAL_SIGNALS_H
#define JQC_TERMINAL_SIGNALS_H

/// The signals that end or stop a program at a terminal (SIGHUP, SIGINT,
/// SIGQUIT, SIGTERM, SIGTSTP), handled from now on by handlers that touch
/// nothing but the terminal's modes: while a line is being edited they put
/// the terminal back as it was before, then the signal does what it does by
/// default (Ctrl-Z stops the program, and editing goes on in raw mode when
/// it is continued). They may run on any thread.
void jqc_handle_terminal_signals(void);

/// A line is about to be edited: the terminal's modes now are the ones to
/// restore if a signal ends or stops the program before the line is read.
void jqc_line_editing_begins(void);

/// The line was read, and the editor restored the terminal itself.
void jqc_line_editing_ends(void);

/// Ctrl-C during an interactive command: `message` and a newline on standard
/// error, then exit 130, from the signal handler itself.
void jqc_exit_on_interrupt(const char *message);

/// Ctrl-C ends the program as usual again.
void jqc_default_interrupt(void);

#endif
