/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The reader's side of the agent: start it in a JVM (socket + HotSpot attach),
 * send walk requests, receive Java stacks, method names, the JIT code map and
 * thread names. Wire format: include/perfjava/agent_proto.h.
 *
 * The one header the recorder includes for the agent: it brings the parts
 * of jvm/ below the session too, the values handed out (jvm/types.h), the
 * request queue (jvm/conn.h: agent_flush), walks at the sample
 * (jvm/walkring.h), the JVM's own events (jvm/jevents.h) and
 * java_same_method (jvm/walks.h).
 */
#ifndef PJ_USER_AGENT_H
#define PJ_USER_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "jvm/attach.h"
#include "jvm/conn.h"
#include "jvm/jevents.h"
#include "jvm/types.h"
#include "jvm/walkring.h"
#include "jvm/walks.h"

struct agent;
struct codemap;
struct pja_hello;

/*
 * Attaches the agent at agent_path to JVM pid and waits (bounded) for it to
 * connect back. 0 on success; -1 with a one-line reason in err (attach
 * disabled, not HotSpot, agent failed to load, ...); ATTACH_NOT_YET
 * (jvm/attach.h), the reason in err too, when the JVM cannot be asked yet
 * (it has no SIGQUIT handler: starting, or -Xrs), or its agent loaded but
 * did not connect back in time.
 */
int agent_start(pid_t pid, const char *agent_path, struct agent **out,
		char *err, size_t errlen);
/*
 * agent_start in two halves, for an attach made in another process
 * (jvm/attacher.h): the attach and the agent's connection, whose socket
 * (*fd) and checked HELLO come back (agent_start's returns), then the
 * agent of that connection, charged to the agents' memory budget (its
 * uid's share): 0, or -1 with err (fd closed).
 */
int agent_connect(pid_t pid, const char *agent_path, int *fd,
		  struct pja_hello *hello, char *err, size_t errlen);
int agent_adopt(pid_t pid, int fd, const struct pja_hello *hello,
		struct agent **out, char *err, size_t errlen);
/*
 * Takes the connection of the agent in JVM pid on the listening socket lfd
 * (waiting at most timeout_ms) and checks its HELLO: what agent_start() does
 * after the attach, and the reader's side of an agent loaded with
 * -agentpath at the JVM's start (record/launch.c). 0, or -1 with err.
 */
int agent_accept(pid_t pid, int lfd, int timeout_ms, struct agent **out,
		 char *err, size_t errlen);
/* The socket to poll for POLLIN. */
int agent_fd(const struct agent *a);
/* Queues a walk request for tid, sampled at sample_time (CLOCK_MONOTONIC). */
int agent_request(struct agent *a, pid_t tid, uint64_t sample_time,
		  uint64_t cookie);
/* Reads what is available and calls cb for each finished walk. Returns 0, or
 * -1 when the agent has gone (then every pending walk is reported LOST). */
int agent_process(struct agent *a, agent_walk_cb cb, void *ctx);
/* Whether agent_process() ended it: no room to read its messages (its
 * user's share of the reader's memory for agents spent), not its end. */
bool agent_dropped(const struct agent *a);
/*
 * The code the JVM generated (compiled methods, stubs, the interpreter), by
 * address; NULL for no agent. Valid until agent_stop(); agent_process() may
 * change it.
 */
const struct codemap *agent_codemap(const struct agent *a);
/* The JVM's java.vm.name (version false) or java.vm.version, as its agent
 * said them; NULL when it did not. Valid until agent_stop(). */
const char *agent_vm_info(const struct agent *a, bool version);
/* Thread name from the JVM, or NULL. */
const char *agent_thread_name(const struct agent *a, pid_t tid);
/* Whether a thread the agent had not named before started since the last
 * call (only a hint: the agent's word, not a tid to trust). */
bool agent_thread_started(struct agent *a);
/* Its counters (jvm/types.h), for the recorder's summary. */
void agent_get_stats(const struct agent *a, struct agent_stats *st);

/* Agents started from now on are told that a walk ring will be offered (or
 * declined) at once: they wait for it (bounded) before their replay of code
 * and threads, so that walks at the sample start with the recording. */
void agent_offer_rings(int on);

/* Tells the agent to stop its work and closes the connection. */
void agent_stop(struct agent *a);
/* Path of the agent library next to the perfjava binary. */
const char *agent_default_path(void);

#endif
