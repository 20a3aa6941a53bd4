/* SPDX-License-Identifier: GPL-2.0 */
/* `perfjava list`: the event kinds this machine can sample, probed. */
#ifndef PJ_USER_LIST_H
#define PJ_USER_LIST_H

int cmd_list(int argc, char **argv);

#endif
