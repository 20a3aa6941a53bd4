// SPDX-License-Identifier: GPL-2.0
/* perfjava top's terminal; see top/term.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include "top/term.h"

/* The alternate screen, no cursor, no line wrap; and back. */
#define ENTER "\033[?1049h\033[?25l\033[?7l\033[H\033[2J"
#define LEAVE "\033[0m\033[?7h\033[?25h\033[?1049l"

/* What the signal handlers restore: static, set before the terminal
 * changes, read with async-signal-safe calls only. */
static struct termios saved;
static volatile sig_atomic_t taken; /* the terminal is ours */
static int tty_fd = -1, err_fd = -1; /* the screen; the real stderr */
static pid_t owner; /* a child forked by the reader is not the view */

static const int fatal[] = { SIGSEGV, SIGBUS,  SIGILL, SIGFPE,
			     SIGABRT, SIGQUIT, SIGSYS };
static struct sigaction before[sizeof(fatal) / sizeof(fatal[0])];

/* The terminal as it was, stderr back: async-signal-safe. */
static void give_back(void)
{
	if (!taken || getpid() != owner)
		return;
	taken = 0;
	tcsetattr(tty_fd, TCSANOW, &saved);
	if (write(tty_fd, LEAVE, sizeof(LEAVE) - 1) < 0) {
		/* nothing more can be done */
	}
	if (err_fd >= 0)
		dup2(err_fd, STDERR_FILENO);
}

static void on_fatal(int sig, siginfo_t *si, void *uc)
{
	const struct sigaction *b = NULL;

	give_back();
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		if (fatal[i] == sig)
			b = &before[i];
	/* the handler that was there (a sanitizer's), else the default */
	if (b && (b->sa_flags & SA_SIGINFO) && b->sa_sigaction) {
		b->sa_sigaction(sig, si, uc);
		return;
	}
	if (b && b->sa_handler != SIG_DFL && b->sa_handler != SIG_IGN) {
		b->sa_handler(sig);
		return;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void at_exit(void)
{
	give_back();
}

static void catch_fatal(void)
{
	struct sigaction sa = { .sa_sigaction = on_fatal,
				.sa_flags = SA_SIGINFO | SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, &before[i]);
}

/* stderr into a pipe that never blocks a writer (what does not fit is
 * lost); t->errpipe its end to read. */
static void take_stderr(struct term *t)
{
	int p[2];

	t->errpipe = -1;
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return;
	err_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (err_fd < 0 || dup2(p[1], STDERR_FILENO) < 0) {
		if (err_fd >= 0)
			close(err_fd);
		err_fd = -1;
		close(p[0]);
	} else {
		t->errpipe = p[0];
	}
	close(p[1]);
}

/* SIGWINCH read from a signalfd (t->winch), the size read again then. */
static void take_winch(struct term *t)
{
	sigset_t m;

	sigemptyset(&m);
	sigaddset(&m, SIGWINCH);
	sigprocmask(SIG_BLOCK, &m, NULL);
	t->winch = signalfd(-1, &m, SFD_CLOEXEC | SFD_NONBLOCK);
}

int term_open(struct term *t, int in, int out)
{
	struct termios raw;

	memset(t, 0, sizeof(*t));
	t->in = in;
	t->out = out;
	t->errpipe = t->winch = -1;
	if (tcgetattr(in, &saved)) {
		fprintf(stderr, "perfjava: cannot use the terminal: %s\n",
			strerror(errno));
		return -1;
	}
	raw = saved;
	/* keys one by one, unechoed; Ctrl-C still SIGINT (the poll loop's
	 * stop); no Ctrl-S/Ctrl-Q, no Ctrl-Z (a stopped view would hold the
	 * terminal), no Ctrl-\ */
	raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO | IEXTEN);
	raw.c_iflag &= ~(tcflag_t)(IXON | ICRNL);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	raw.c_cc[VSUSP] = _POSIX_VDISABLE;
	raw.c_cc[VQUIT] = _POSIX_VDISABLE;
	tty_fd = out;
	owner = getpid();
	catch_fatal();
	atexit(at_exit);
	taken = 1;
	if (tcsetattr(in, TCSANOW, &raw)) {
		taken = 0;
		fprintf(stderr, "perfjava: cannot use the terminal: %s\n",
			strerror(errno));
		return -1;
	}
	term_write(t, ENTER, sizeof(ENTER) - 1);
	take_stderr(t);
	take_winch(t);
	term_size(t);
	return 0;
}

void term_close(struct term *t)
{
	char line[4096];

	if (!taken)
		return;
	if (t->errpipe >= 0)
		term_stderr(t, line, sizeof(line)); /* the last of it */
	give_back();
	if (t->errpipe >= 0)
		close(t->errpipe);
	if (t->winch >= 0)
		close(t->winch);
	t->errpipe = t->winch = -1;
	if (err_fd >= 0)
		close(err_fd);
	err_fd = -1;
	if (t->msglen)
		fprintf(stderr, "%.*s", (int)t->msglen, t->msg);
	t->msglen = 0;
}

/* An escape sequence at s[0..n) (s[0] is ESC): its key, and its length
 * in *used; a lone ESC is KEY_ESC. */
static int escape(const unsigned char *s, size_t n, size_t *used)
{
	static const struct {
		const char *seq;
		int key;
	} seqs[] = {
		{ "[A", KEY_UP },    { "[B", KEY_DOWN },  { "[C", KEY_RIGHT },
		{ "[D", KEY_LEFT },  { "OA", KEY_UP },	  { "OB", KEY_DOWN },
		{ "OC", KEY_RIGHT }, { "OD", KEY_LEFT },  { "[5~", KEY_PGUP },
		{ "[6~", KEY_PGDN }, { "[H", KEY_HOME },  { "[F", KEY_END },
		{ "OH", KEY_HOME },  { "OF", KEY_END },	  { "[1~", KEY_HOME },
		{ "[4~", KEY_END },  { "[7~", KEY_HOME }, { "[8~", KEY_END },
		{ "OM", KEY_ENTER },
	};
	size_t k;

	*used = 1;
	if (n < 2 || (s[1] != '[' && s[1] != 'O'))
		return KEY_ESC;
	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		k = strlen(seqs[i].seq);
		if (n > k && !memcmp(s + 1, seqs[i].seq, k)) {
			*used = k + 1;
			return seqs[i].key;
		}
	}
	/* another sequence: skipped up to its final byte */
	for (k = 2; k < n && k < 16; k++)
		if (s[k] >= 0x40 && s[k] <= 0x7e) {
			*used = k + 1;
			return 0;
		}
	*used = k;
	return 0;
}

int term_keys(struct term *t, int *keys, int max)
{
	unsigned char buf[256];
	ssize_t n = read(t->in, buf, sizeof(buf));
	size_t i = 0, used;
	int nk = 0;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -1;
	if (!n)
		return -1; /* the terminal hung up */
	while (i < (size_t)n && nk < max) {
		int k = buf[i];

		used = 1;
		if (k == 0x1b)
			k = escape(buf + i, (size_t)n - i, &used);
		else if (k == '\r' || k == '\n')
			k = KEY_ENTER;
		else if (k == 0x7f || k == 0x08)
			k = KEY_BACKSPACE;
		if (k)
			keys[nk++] = k;
		i += used;
	}
	return nk;
}

/* The newest line of msg[0..len) before its end (the end excluded). */
static void last_line(const char *msg, size_t len, char *line, size_t max)
{
	size_t end = len, start;

	while (end && msg[end - 1] == '\n')
		end--;
	start = end;
	while (start && msg[start - 1] != '\n')
		start--;
	snprintf(line, max, "%.*s", (int)(end - start), msg + start);
}

void term_stderr(struct term *t, char *line, size_t len)
{
	char buf[4096];
	ssize_t n;
	bool got = false;

	line[0] = 0;
	while ((n = read(t->errpipe, buf, sizeof(buf))) > 0) {
		got = true;
		size_t keep = sizeof(t->msg) - (size_t)n;

		/* the last sizeof(msg) bytes of it are kept */
		if (t->msglen > keep) {
			memmove(t->msg, t->msg + t->msglen - keep, keep);
			t->msglen = keep;
		}
		memcpy(t->msg + t->msglen, buf, (size_t)n);
		t->msglen += (size_t)n;
	}
	if (got)
		last_line(t->msg, t->msglen, line, len);
}

void term_size(struct term *t)
{
	struct signalfd_siginfo si;
	struct winsize ws;

	while (t->winch >= 0 && read(t->winch, &si, sizeof(si)) > 0)
		;
	if (!ioctl(t->out, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		t->rows = ws.ws_row;
		t->cols = ws.ws_col;
	} else if (!t->rows) {
		t->rows = 24;
		t->cols = 80;
	}
}

void term_write(struct term *t, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(t->out, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}
