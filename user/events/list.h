/* SPDX-License-Identifier: GPL-2.0 */
/* `perfjava list`: the event kinds this machine can sample, probed. */
#ifndef PJ_USER_LIST_H
#define PJ_USER_LIST_H

/*
 * The command; `list ksym` (what names kernel frames: sym/, which events/
 * does not use) is printed by kernel_symbols, main.c's, after the rest.
 */
int cmd_list(int argc, char **argv, void (*kernel_symbols)(void));
/* One row of a section: NAME in its column, then STATUS. */
void list_row(const char *name, const char *status);

#endif
