#ifndef JQC_INTERRUPT_H
#define JQC_INTERRUPT_H

/// Ctrl-C during an interactive command: `message` and a newline on standard
/// error, then exit 130, from the signal handler itself.
void jqc_exit_on_interrupt(const char *message);

/// Ctrl-C ends the program as usual again.
void jqc_default_interrupt(void);

#endif
