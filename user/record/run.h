/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFJAVA_RECORD_RUN_H
#define PERFJAVA_RECORD_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "record/recorder.h"

/*
 * What a command runs in the poll loop beside the recording (perfjava
 * top's view, as rec->hook): its fds polled, and call() called when any of
 * them is readable (bit i of ready: fd[i]) or when its time (due) has
 * come; call() sets the next due and may end the recording (rec->stop,
 * rec->stop_reason).
 */
#define RUN_HOOK_FDS 3
struct run_hook {
	int fd[RUN_HOOK_FDS]; /* -1: none */
	uint64_t due; /* CLOCK_MONOTONIC ns; UINT64_MAX: none */
	void (*call)(void *ctx, unsigned int ready, uint64_t now);
	void *ctx;
};

/* Drains the rings until -d, Ctrl-C, SIGTERM (sigfd) or the end of every
 * target; 0. */
int run_loop(struct recorder *rec, int sigfd);
/* Moves the walks the agents left in their rings into the recorder. */
void run_collect_walks(struct recorder *rec);
/* The drain after the stop: at most STOP_DRAIN_NS (300 ms); the samples
 * left in the rings then are counted lost. */
void run_drain_last(struct recorder *rec);

#endif
