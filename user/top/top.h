/* SPDX-License-Identifier: GPL-2.0 */
/* `perfjava top` (top/top.c): the hottest frames now, live. */
#ifndef PJ_USER_TOP_H
#define PJ_USER_TOP_H

int cmd_top(int argc, char **argv);

#endif
