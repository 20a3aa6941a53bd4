/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfjava top's terminal, with plain ANSI sequences (no library): raw
 * keys, the alternate screen, and the terminal given back as it was on
 * every way out: term_close on a normal exit (q, Ctrl-C and SIGTERM
 * through the poll loop's signalfd, the target's end, an error), atexit,
 * and a handler for the signals that kill (SIGSEGV, SIGABRT, ...) that
 * restores it with async-signal-safe calls before the signal's own
 * action. Only SIGKILL leaves it as it was in the view (reset(1) mends
 * it). While the view is up, what perfjava writes to stderr goes into a
 * pipe, shown on the status line and written out after term_close.
 */
#ifndef PJ_USER_TOP_TERM_H
#define PJ_USER_TOP_TERM_H

#include <stdbool.h>
#include <stddef.h>

/* Keys other than bytes (term_keys). */
enum {
	KEY_UP = 0x100,
	KEY_DOWN,
	KEY_LEFT,
	KEY_RIGHT,
	KEY_PGUP,
	KEY_PGDN,
	KEY_HOME,
	KEY_END,
	KEY_ESC,
	KEY_ENTER,
	KEY_BACKSPACE,
};

struct term {
	int in, out; /* the terminal: keys, the screen */
	int errpipe; /* what perfjava writes to stderr, to read; -1 none */
	int winch; /* signalfd of SIGWINCH: the size changed; -1 none */
	int rows, cols;
	char msg[4096]; /* the stderr lines taken, the last ones */
	size_t msglen;
};

/* Takes the terminal of in and out (both ttys): 0, or -1 after a
 * message with the terminal untouched. */
int term_open(struct term *t, int in, int out);
/* Gives it back as it was (idempotent), and writes out the stderr lines
 * taken while the view was up. */
void term_close(struct term *t);
/* Reads the keys that came (call when t->in is readable) into keys (at
 * most max): how many, or -1 once the terminal is gone. */
int term_keys(struct term *t, int *keys, int max);
/* Takes what came on stderr (call when t->errpipe is readable): its last
 * line into line (NUL-terminated), "" when nothing came. */
void term_stderr(struct term *t, char *line, size_t len);
/* Reads the size again into t->rows, t->cols (call when t->winch is
 * readable: it takes the signals that came). */
void term_size(struct term *t);
/* Writes all of buf[0..len) to the screen. */
void term_write(struct term *t, const char *buf, size_t len);

#endif
