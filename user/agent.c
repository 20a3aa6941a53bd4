// SPDX-License-Identifier: GPL-2.0
/* The reader's side of the agent (see agent.h). First stub: not yet wired. */
#include <stdio.h>

#include "agent.h"

int agent_start(pid_t pid, const char *agent_path, struct agent **out,
		char *err, size_t errlen)
{
	*out = NULL;
	snprintf(err, errlen, "Java agent support is not built yet");
	return -1;
}

int agent_fd(const struct agent *a)
{
	return -1;
}

int agent_request(struct agent *a, pid_t tid, uint64_t sample_time,
		  uint64_t cookie)
{
	return -1;
}

int agent_flush(struct agent *a)
{
	return -1;
}

int agent_process(struct agent *a, agent_walk_cb cb, void *ctx)
{
	return -1;
}

int agent_code_at(const struct agent *a, uint64_t addr, const char **name)
{
	return 0;
}

const char *agent_thread_name(const struct agent *a, pid_t tid)
{
	return NULL;
}

void agent_stop(struct agent *a)
{
}

const char *agent_default_path(void)
{
	return "libperfjava-agent.so";
}
