/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `perfjava record [options] -- CMD [ARGS...]`: the command as a child,
 * profiled from its first instruction (record/launch.c).
 */
#ifndef PJ_USER_RECORD_LAUNCH_H
#define PJ_USER_RECORD_LAUNCH_H

#include <stdbool.h>
#include <sys/signalfd.h>

struct recorder;
struct record_opts;
struct launch;

/*
 * Forks the command o->argv, stopped before its exec, into *out; sets
 * o->pid, and *java for a JVM started directly (argv[0] named java), whose
 * command line then gets -agentpath for the agent. 0, or -1 after a message.
 */
int launch_fork(struct record_opts *o, bool *java, struct launch **out);
/*
 * Lets the child exec, once its events are open with enable_on_exec, and
 * waits until it has. 0, or -1 after a message (the exec failed).
 */
int launch_exec(struct recorder *rec);
/* The socket the agent connects to (poll it for POLLIN), or -1. */
int launch_agent_fd(const struct launch *l);
/* Takes the agent's connection into rec->agent (or says why not). */
void launch_agent_ready(struct recorder *rec);
/*
 * A stop signal perfjava received: forwarded to the command when someone
 * sent it to perfjava alone (a terminal's Ctrl-C reaches both). true while
 * the recording should go on until the command ends; a second one stops it.
 */
bool launch_signal(struct recorder *rec, const struct signalfd_siginfo *si);
/* Waits for the command; its exit status as a shell gives it (128+N for a
 * signal). Frees the launch. */
int launch_wait(struct recorder *rec);
/* Kills and reaps a command that never ran (an error before its exec). */
void launch_abort(struct recorder *rec);

#endif
