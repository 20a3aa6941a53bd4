// SPDX-License-Identifier: GPL-2.0
/* The warning on lost Java walks (profile/javaloss.c): each cause its
 * counters point to, and the same line from a file's statistics. */
#include <string.h>

#include "profile/io.h"
#include "profile/javaloss.h"
#include "profile_util.h"
#include "tap.h"

static char line[768];

static int says(const struct pj_java_loss *l, const char *what)
{
	return pj_java_loss_line(l, line, sizeof(line)) && strstr(line, what);
}

/* Issue 49's evidence: 945 samples timed out, no walk matched nor
 * missed, the agent's thread moved none, a recorder that kept no more. */
static void evidence(struct pj_java_loss *l)
{
	pj_java_loss_init(l);
	l->timeout = 945;
	l->not_java = 3;
	l->signal = 63;
}

/* The same, from a recorder that kept the agent's account: nothing came
 * to the handler, its SIGTRAP handler first; one agent library. */
static void evidence_known(struct pj_java_loss *l)
{
	evidence(l);
	l->sig_taken = l->sig_off = l->sig_passed = 0;
	l->trap_first = 1;
	l->idle_ns = l->stuck_ns = 0;
	l->copies = 1;
	l->blocking = 0;
}

static void test_causes(void)
{
	struct pj_java_loss l;

	pj_java_loss_init(&l);
	l.ok = 900;
	l.timeout = 90;
	ok(!pj_java_loss_line(&l, line, sizeof(line)) && !line[0],
	   "9%% lost: no warning");
	l.timeout = 101;
	ok(says(&l, "101 of 1001 samples of Java threads (10%)"),
	   "over a tenth: the share (%s)", line);

	evidence(&l);
	ok(says(&l, "most [java: thread did not answer]: no walk came from "
		    "the agent's signal handler"),
	   "the evidence, as its file says: no walk from the handler (%s)",
	   line);
	l.copies = 2;
	ok(says(&l, "the JVM holds 2 perfjava agents"),
	   "two agent libraries in the JVM (%s)", line);

	evidence_known(&l);
	l.trap_first = 0;
	snprintf(l.trap_owner, sizeof(l.trap_owner), "libjvm.so");
	ok(says(&l, "SIGTRAP handler became libjvm.so's during the "
		    "recording (a Java sun.misc.Signal handler)"),
	   "the handler replaced (%s)", line);
	l.ok = 20;
	l.matched = 20;
	ok(says(&l, "became libjvm.so's"), "... after some walks came (%s)",
	   line);

	evidence_known(&l);
	l.blocking = 40;
	ok(says(&l, "40 of the JVM's threads block the agent's signal"),
	   "threads that block the signal (%s)", line);
	l.blocking = 0;
	l.sig_off = 900;
	ok(says(&l, "the agent's walks were off"), "walks off (%s)", line);
	l.sig_off = 0;
	ok(says(&l, "the agent's signal handler never ran"),
	   "no signal reached the handler (%s)", line);
	l.sig_taken = 945;
	ok(says(&l, "the agent's thread did not move its walks"),
	   "the handler took them, its thread did not move them (%s)", line);
	l.stuck_ns = 3000000000ull;
	ok(says(&l, "a signal handler stopped midway"), "a stuck ring (%s)",
	   line);

	evidence(&l);
	l.signal = 0;
	ok(says(&l, "did not answer the agent's walk requests"),
	   "walks on request (%s)", line);

	pj_java_loss_init(&l);
	l.ok = 10;
	l.not_walkable = 50;
	ok(says(&l, "most [java: not walkable]: AsyncGetCallTrace could not "
		    "walk"),
	   "the commonest loss names the cause (%s)", line);
}

/* The recorder's account written, read back from the file: one line. */
static void test_file(void)
{
	char err[256] = "", want[768];
	struct pj_writer *w = pj_writer_open(tmp("j.data"), err, sizeof(err));
	struct pj_java_loss l, back;
	struct pj_profile *p;

	if (!ok(w != NULL, "writer opens (%s)", err))
		return;
	evidence_known(&l);
	l.trap_first = 0;
	/* a hostile owner's name: made safe on the way back */
	snprintf(l.trap_owner, sizeof(l.trap_owner), "lib\033[2Jx.so");
	pj_writer_stat(w, "walk_timeout", l.timeout);
	pj_writer_stat(w, "walk_not_java", l.not_java);
	pj_writer_stat(w, "walk_at_sample_signal", l.signal);
	pj_java_loss_write(&l, w);
	ok(pj_writer_close(w) == 0, "close");
	if (!ok(pj_profile_load(tmp("j.data"), &p, err, sizeof(err)) == 0,
		"load (%s)", err))
		return;
	pj_java_loss_from(p, &back);
	pj_java_loss_line(&back, line, sizeof(line));
	snprintf(l.trap_owner, sizeof(l.trap_owner), "lib?[2Jx.so");
	pj_java_loss_line(&l, want, sizeof(want));
	ok(!strcmp(line, want), "the file's line is the recorder's (%s)", line);
	ok(!strchr(line, '\033'), "no control character from the owner's name");
	pj_profile_free(p);
}

int main(void)
{
	test_causes();
	if (tmpdir_make())
		return 1;
	test_file();
	tmpdir_remove();
	return tap_done();
}
