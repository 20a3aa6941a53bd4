/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFJAVA_RECORD_RUN_H
#define PERFJAVA_RECORD_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "record/recorder.h"

/* Drains the rings until -d, Ctrl-C, SIGTERM (sigfd) or the end of every
 * target; 0. */
int run_loop(struct recorder *rec, int sigfd);
/* Moves the walks the agents left in their rings into the recorder. */
void run_collect_walks(struct recorder *rec);
/* The drain after the stop: at most STOP_DRAIN_NS (300 ms); the samples
 * left in the rings then are counted lost. */
void run_drain_last(struct recorder *rec);

#endif
