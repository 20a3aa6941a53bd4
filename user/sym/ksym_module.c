// SPDX-License-Identifier: GPL-2.0
/* Kernel symbols through the perfjava_ksym module: see sym/ksym_module.h. */
#include "sym/ksym_module.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int ksym_module_open(void)
{
	struct pj_ksym_info info;
	int fd, err;

	fd = open(PJ_KSYM_DEVICE, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	memset(&info, 0, sizeof(info));
	if (ioctl(fd, PJ_KSYM_IOC_INFO, &info) < 0) {
		err = errno == ENOTTY ? EPROTO : errno;
		goto fail;
	}
	if (info.abi_version != PJ_KSYM_ABI_VERSION ||
	    info.entry_size != sizeof(struct pj_ksym_entry) ||
	    info.max_batch == 0) {
		err = EPROTO;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	errno = err;
	return -1;
}

static void copy_entry(struct ksym_module_sym *s, const struct pj_ksym_entry *e)
{
	memset(s, 0, sizeof(*s));
	if (!(e->flags & PJ_KSYM_FOUND))
		return;
	s->found = true;
	s->truncated = e->flags & PJ_KSYM_TRUNCATED;
	s->offset = e->offset;
	s->size = e->size;
	/* The module terminates both; do not trust it to. */
	memcpy(s->name, e->name, sizeof(s->name) - 1);
	memcpy(s->module, e->module, sizeof(s->module) - 1);
}

int ksym_module_resolve(int fd, const uint64_t *addrs, unsigned int n,
			struct ksym_module_sym *out)
{
	struct pj_ksym_entry *batch;
	unsigned int done = 0, i, count;
	int found = 0;

	if (n == 0)
		return 0;
	count = n < PJ_KSYM_MAX_BATCH ? n : PJ_KSYM_MAX_BATCH;
	batch = calloc(count, sizeof(*batch));
	if (!batch)
		return -1;
	while (done < n) {
		struct pj_ksym_resolve req;

		count = n - done;
		if (count > PJ_KSYM_MAX_BATCH)
			count = PJ_KSYM_MAX_BATCH;
		memset(batch, 0, count * sizeof(*batch));
		for (i = 0; i < count; i++)
			batch[i].addr = addrs[done + i];
		memset(&req, 0, sizeof(req));
		req.abi_version = PJ_KSYM_ABI_VERSION;
		req.count = count;
		req.entries = (uintptr_t)batch;
		if (ioctl(fd, PJ_KSYM_IOC_RESOLVE, &req) < 0) {
			int err = errno;

			free(batch);
			errno = err;
			return -1;
		}
		for (i = 0; i < count; i++)
			copy_entry(&out[done + i], &batch[i]);
		found += req.resolved;
		done += count;
	}
	free(batch);
	return found;
}
