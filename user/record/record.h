/* SPDX-License-Identifier: GPL-2.0 */
/* `perfjava record` (record/record.c; its options: record/options.h, its
 * state: record/recorder.h). */
#ifndef PJ_USER_RECORD_H
#define PJ_USER_RECORD_H

int cmd_record(int argc, char **argv);

#endif
