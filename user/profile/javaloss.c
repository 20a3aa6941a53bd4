// SPDX-License-Identifier: GPL-2.0
/* What a recording says of its lost Java walks; see profile/javaloss.h. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "lib/text.h"
#include "profile/io.h"
#include "profile/javaloss.h"

#define SECOND_NS 1000000000ULL

void pj_java_loss_init(struct pj_java_loss *l)
{
	memset(l, 0, sizeof(*l));
	l->sig_taken = l->sig_off = l->sig_passed = PJ_JAVA_UNKNOWN;
	l->trap_first = l->idle_ns = l->stuck_ns = PJ_JAVA_UNKNOWN;
	l->copies = l->blocking = PJ_JAVA_UNKNOWN;
}

/* The statistics of the agent's account and the reader's look. */
static const struct {
	const char *key;
	size_t off;
} keys[] = {
	{ "walk_sig_taken", offsetof(struct pj_java_loss, sig_taken) },
	{ "walk_sig_off", offsetof(struct pj_java_loss, sig_off) },
	{ "walk_sig_passed", offsetof(struct pj_java_loss, sig_passed) },
	{ "walk_trap_first", offsetof(struct pj_java_loss, trap_first) },
	{ "walk_agent_idle_ns", offsetof(struct pj_java_loss, idle_ns) },
	{ "walk_agent_stuck_ns", offsetof(struct pj_java_loss, stuck_ns) },
	{ "jvm_agent_libraries", offsetof(struct pj_java_loss, copies) },
	{ "walk_threads_blocking", offsetof(struct pj_java_loss, blocking) },
};

void pj_java_loss_from(const struct pj_profile *p, struct pj_java_loss *l)
{
	pj_java_loss_init(l);
	l->ok = pj_profile_stat(p, "walk_ok", 0);
	l->not_java = pj_profile_stat(p, "walk_not_java", 0);
	l->not_walkable = pj_profile_stat(p, "walk_not_walkable", 0);
	l->timeout = pj_profile_stat(p, "walk_timeout", 0);
	l->fault = pj_profile_stat(p, "walk_fault", 0);
	l->gone = pj_profile_stat(p, "walk_gone", 0);
	l->lost = pj_profile_stat(p, "walk_lost", 0);
	l->signal = pj_profile_stat(p, "walk_at_sample_signal", 0);
	l->matched = pj_profile_stat(p, "walk_at_sample_matched", 0);
	l->missed = pj_profile_stat(p, "walk_at_sample_missed", 0);
	l->orphans = pj_profile_stat(p, "walk_at_sample_orphans", 0);
	l->pumped = pj_profile_stat(p, "walk_agent_pumped", 0);
	l->full = pj_profile_stat(p, "walk_ring_full", 0);
	l->busy = pj_profile_stat(p, "walk_ring_busy", 0);
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++)
		*(uint64_t *)((char *)l + keys[i].off) =
		    pj_profile_stat(p, keys[i].key, PJ_JAVA_UNKNOWN);
	snprintf(l->trap_owner, sizeof(l->trap_owner), "%s",
		 pj_profile_meta(p, "walk_trap_owner"));
	text_clean(l->trap_owner, strlen(l->trap_owner));
}

void pj_java_loss_write(const struct pj_java_loss *l, struct pj_writer *w)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		uint64_t v = *(const uint64_t *)((const char *)l + keys[i].off);

		if (v != PJ_JAVA_UNKNOWN)
			pj_writer_stat(w, keys[i].key, v);
	}
	if (l->trap_owner[0])
		pj_writer_meta(w, "walk_trap_owner", l->trap_owner);
}

static bool known(uint64_t v)
{
	return v != PJ_JAVA_UNKNOWN;
}

/* Why no walk came from the agent's handler at a sample, and what to do,
 * as far as l knows. */
static const char *silent_handler(const struct pj_java_loss *l, char *buf,
				  size_t len)
{
	if (known(l->copies) && l->copies > 1 &&
	    (!known(l->sig_taken) || !l->sig_taken)) {
		snprintf(
		    buf, len,
		    "the JVM holds %llu perfjava agents (other builds, or "
		    "copies), and another one's SIGTRAP handler took the "
		    "signals; record again with this perfjava, which "
		    "then routes its agent's own signal, or restart the JVM",
		    (unsigned long long)l->copies);
	} else if (known(l->blocking) && l->blocking) {
		snprintf(buf, len,
			 "%llu of the JVM's threads block the agent's signal; "
			 "their Java frames cannot be walked",
			 (unsigned long long)l->blocking);
	} else if (known(l->sig_off) && l->sig_off && !l->sig_taken) {
		snprintf(buf, len,
			 "the agent's walks were off while its signals came (a "
			 "session left half-stopped); record again, and "
			 "restart the JVM if it persists");
	} else if (known(l->sig_taken)) {
		snprintf(buf, len,
			 "the agent's signal handler never ran (the signal was "
			 "not delivered, or another library's handler kept "
			 "it); record again, and restart the JVM if it "
			 "persists");
	} else {
		snprintf(buf, len,
			 "no walk came from the agent's signal handler (its "
			 "signal not delivered, its handler replaced, e.g. by "
			 "another perfjava agent in the JVM, or the agent's "
			 "thread not running); record again with a current "
			 "perfjava, and restart the JVM if it persists");
	}
	return buf;
}

/* Why walks at the sample did not answer in time, and what to do. */
static const char *no_answer(const struct pj_java_loss *l, char *buf,
			     size_t len)
{
	if (!l->signal) {
		snprintf(buf, len,
			 "the JVM's threads did not answer the agent's walk "
			 "requests within 1 s (the agent's thread starved of "
			 "CPU, or the threads busy in the VM); record on a "
			 "less loaded machine, or sample less often (-F)");
	} else if (known(l->stuck_ns) && l->stuck_ns >= SECOND_NS) {
		snprintf(buf, len,
			 "a signal handler stopped midway holds the agent's "
			 "walk ring; restart the JVM");
	} else if (known(l->trap_first) && !l->trap_first) {
		/* the agent takes SIGTRAP only when its handler is the
		 * JVM's: another one came in front during the recording */
		snprintf(buf, len,
			 "the JVM's SIGTRAP handler became %s's during the "
			 "recording%s, and it does not pass perf's signals on; "
			 "record again: the agent then takes its own real-time "
			 "signal",
			 l->trap_owner[0] ? l->trap_owner : "another library",
			 !strcmp(l->trap_owner, "libjvm.so")
			     ? " (a Java sun.misc.Signal handler)"
			     : "");
	} else if (!l->matched && !l->missed && !l->pumped) {
		if (known(l->sig_taken) && l->sig_taken)
			snprintf(buf, len,
				 "the agent's thread did not move its walks "
				 "(starved of CPU, or busy replaying a big "
				 "code cache); record longer, or on a less "
				 "loaded machine");
		else
			silent_handler(l, buf, len);
	} else if (known(l->idle_ns) && l->idle_ns >= SECOND_NS) {
		snprintf(buf, len,
			 "the agent's thread stopped moving walks for %.1f s "
			 "(starved of CPU); record on a less loaded machine, "
			 "or sample less often (-F)",
			 l->idle_ns / 1e9);
	} else {
		snprintf(buf, len,
			 "walks came later than 1 s, or the agent dropped them "
			 "(%llu ring full, %llu without a buffer); record on a "
			 "less loaded machine, or sample less often (-F)",
			 (unsigned long long)l->full,
			 (unsigned long long)l->busy);
	}
	return buf;
}

int pj_java_loss_line(const struct pj_java_loss *l, char *buf, size_t len)
{
	const uint64_t kinds[] = { l->timeout, l->not_walkable, l->fault,
				   l->gone, l->lost };
	static const char *const marker[] = {
		"thread did not answer", "not walkable", "walk faulted",
		"thread exited",	 "agent gone",
	};
	uint64_t lost = 0, total;
	unsigned int top = 0;
	char why[400];

	if (len)
		buf[0] = 0;
	for (unsigned int i = 0; i < 5; i++) {
		lost += kinds[i];
		if (kinds[i] > kinds[top])
			top = i;
	}
	total = l->ok + lost;
	if (!len || !total || lost * 10 <= total)
		return 0;
	switch (top) {
	case 0:
		no_answer(l, why, sizeof(why));
		break;
	case 1:
		snprintf(why, sizeof(why),
			 "AsyncGetCallTrace could not walk those threads (in "
			 "the VM, at a safepoint, or deoptimizing); nothing "
			 "to do but record again");
		break;
	case 2:
		snprintf(why, sizeof(why),
			 "their walks faulted (the JVM's code or stacks "
			 "changed under them); record again");
		break;
	case 3:
		snprintf(why, sizeof(why),
			 "those threads ended before their walk; nothing to "
			 "do");
		break;
	default:
		snprintf(why, sizeof(why),
			 "the agent went away during the recording (the JVM "
			 "ended, or the agent's socket closed)");
	}
	snprintf(buf, len,
		 "%llu of %llu samples of Java threads (%.0f%%) have no Java "
		 "frames, most [java: %s]: %s",
		 (unsigned long long)lost, (unsigned long long)total,
		 100.0 * lost / total, marker[top], why);
	return 1;
}
