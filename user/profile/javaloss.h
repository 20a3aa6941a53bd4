/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a recording says of its lost Java walks: the share of a JVM's
 * samples without their Java frames and, over a tenth, one line with the
 * cause its counters point to and what to do. The recorder prints it on
 * stderr; report's header prints the same line from the file's statistics
 * (a file of an earlier recorder, which lacks the agent's own counters,
 * gets the cause those it has point to).
 */
#ifndef PJ_USER_JAVALOSS_H
#define PJ_USER_JAVALOSS_H

#include <stddef.h>
#include <stdint.h>

struct pj_profile;
struct pj_writer;

#define PJ_JAVA_UNKNOWN UINT64_MAX

struct pj_java_loss {
	/* samples by the end of their walk (walk_ok, walk_not_java, ...) */
	uint64_t ok, not_java, not_walkable, timeout, fault, gone, lost;
	/* walks at the sample: the signal (0: on request), matched to
	 * their sample, passed over, without one; moved by the agent's
	 * thread; dropped by the agent (ring full, no buffer) */
	uint64_t signal, matched, missed, orphans, pumped, full, busy;
	/* the agent's own account (PJ_JAVA_UNKNOWN from a recorder or an
	 * agent that did not keep it): signals its handler took, came
	 * while its walks were off, passed on to the handler before; its
	 * SIGTRAP handler the JVM's (1) or not (0); how long its thread had
	 * not moved walks, and a handler held its ring, at the end (ns) */
	uint64_t sig_taken, sig_off, sig_passed, trap_first, idle_ns, stuck_ns;
	/* the reader's own look at the JVM at the end: agent libraries it
	 * maps, threads that block the agent's signal */
	uint64_t copies, blocking;
	char trap_owner[64]; /* whose the SIGTRAP handler is ("": ours) */
};

/* l as every field unknown or 0. */
void pj_java_loss_init(struct pj_java_loss *l);
/* l from a loaded profile's statistics. */
void pj_java_loss_from(const struct pj_profile *p, struct pj_java_loss *l);
/* The agent's own account and the reader's look into w (the statistics
 * pj_java_loss_from reads back; the others are written where they are
 * counted). */
void pj_java_loss_write(const struct pj_java_loss *l, struct pj_writer *w);
/*
 * The warning for l, without a prefix or newline, into buf: 1 when the
 * JVM samples that should have Java frames lost more than a tenth of
 * them, else 0 (buf "").
 */
int pj_java_loss_line(const struct pj_java_loss *l, char *buf, size_t len);

#endif
