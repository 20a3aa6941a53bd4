// SPDX-License-Identifier: GPL-2.0
/* Tracepoints: tracefs lookup and mount, libtraceevent decoding; see
 * events/tracepoint.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "events/pmu.h"
#include "lib/file.h"
#include "events/tracepoint.h"

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

int tracefs_events_dir(char *buf, size_t len, char *err, size_t errlen)
{
	const char *root = pj_sysfs_root();
	char mnt[512];

	snprintf(buf, len, "%s/kernel/tracing/events", root);
	if (is_dir(buf))
		return 0;
	snprintf(buf, len, "%s/kernel/debug/tracing/events", root);
	if (is_dir(buf))
		return 0;
	snprintf(mnt, sizeof(mnt), "%s/kernel/tracing", root);
	snprintf(buf, len, "%s/events", mnt);
	if (!pj_sysfs_is_real() || !is_dir(mnt)) {
		snprintf(err, errlen,
			 "tracefs is not available (no %s); this kernel has "
			 "no tracepoints to sample",
			 buf);
		return -1;
	}
	if (geteuid() != 0 && access(mnt, X_OK) && errno == EACCES) {
		/* mounted (or not: we cannot tell), for root only (0700) */
		snprintf(err, errlen,
			 "tracefs (%s) is open to root only; run perfjava as "
			 "root",
			 mnt);
		return -1;
	}
	if (geteuid() != 0) {
		snprintf(err, errlen,
			 "tracefs is not mounted; as root run: mount -t "
			 "tracefs nodev %s",
			 mnt);
		return -1;
	}
	if (mount("nodev", mnt, "tracefs", 0, NULL) && errno != EBUSY) {
		snprintf(err, errlen,
			 "tracefs is not mounted and mounting it on %s failed "
			 "(%s); mount it with: mount -t tracefs nodev %s",
			 mnt, strerror(errno), mnt);
		return -1;
	}
	if (!is_dir(buf)) {
		snprintf(err, errlen, "tracefs mounted on %s has no events/",
			 mnt);
		return -1;
	}
	fprintf(stderr, "perfjava: mounted tracefs on %s\n", mnt);
	return 0;
}

static bool valid_part(const char *s)
{
	return *s && strcmp(s, ".") && strcmp(s, "..") && !strchr(s, '/');
}

/* Bound of a tracefs id or format file. */
#define TP_FILE_MAX ((size_t)1 << 20)

static int tp_path(const char *sys, const char *name, const char *file,
		   char *path, size_t len, char *err, size_t errlen)
{
	char dir[512];

	if (!valid_part(sys) || !valid_part(name)) {
		snprintf(err, errlen, "bad tracepoint '%s:%s'", sys, name);
		return -1;
	}
	if (tracefs_events_dir(dir, sizeof(dir), err, errlen))
		return -1;
	snprintf(path, len, "%s/%s/%s/%s", dir, sys, name, file);
	if (access(path, R_OK)) {
		int e = errno;

		snprintf(path, len, "%s/%s", dir, sys);
		if (e == EACCES)
			snprintf(err, errlen,
				 "cannot read tracepoint %s:%s (%s); run as "
				 "root",
				 sys, name, strerror(e));
		else if (!is_dir(path))
			snprintf(err, errlen,
				 "no tracepoint subsystem '%s'; see perfjava "
				 "list tracepoint",
				 sys);
		else
			snprintf(err, errlen,
				 "no tracepoint %s:%s; see perfjava list "
				 "tracepoint",
				 sys, name);
		return -1;
	}
	return 0;
}

int tracepoint_id(const char *sys, const char *name, uint64_t *id, char *err,
		  size_t errlen)
{
	char path[1024], *buf, *end;

	if (tp_path(sys, name, "id", path, sizeof(path), err, errlen))
		return -1;
	buf = read_whole_file(path, 0, TP_FILE_MAX, NULL);
	if (!buf) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 strerror(errno));
		return -1;
	}
	errno = 0;
	*id = strtoull(buf, &end, 10);
	if (errno || end == buf) {
		snprintf(err, errlen, "bad tracepoint id in %s", path);
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

int tracepoint_foreach(void (*cb)(void *ctx, const char *sys, const char *name),
		       void *ctx, char *err, size_t errlen)
{
	char dir[512], sub[1024];
	struct dirent **systems = NULL, **events;
	int nsys, count = 0;

	if (tracefs_events_dir(dir, sizeof(dir), err, errlen))
		return -1;
	nsys = scandir(dir, &systems, NULL, alphasort);
	if (nsys < 0) {
		snprintf(err, errlen, "cannot read %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	for (int i = 0; i < nsys; i++) {
		const char *s = systems[i]->d_name;
		int nev;

		snprintf(sub, sizeof(sub), "%s/%s", dir, s);
		if (s[0] == '.' || !is_dir(sub)) {
			free(systems[i]);
			continue;
		}
		nev = scandir(sub, &events, NULL, alphasort);
		for (int j = 0; j < nev; j++) {
			char idp[1400];

			snprintf(idp, sizeof(idp), "%s/%s/id", sub,
				 events[j]->d_name);
			if (events[j]->d_name[0] != '.' && !access(idp, F_OK)) {
				cb(ctx, s, events[j]->d_name);
				count++;
			}
			free(events[j]);
		}
		if (nev >= 0)
			free(events);
		free(systems[i]);
	}
	free(systems);
	return count;
}

struct tp_decoder {
	struct tep_handle *tep;
	struct trace_seq seq;
};

struct tp_decoder *tp_decoder_new(void)
{
	struct tp_decoder *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	tep_set_loglevel(TEP_LOG_NONE);
	d->tep = tep_alloc();
	if (!d->tep) {
		free(d);
		return NULL;
	}
	tep_set_long_size(d->tep, sizeof(long));
	tep_set_page_size(d->tep, (int)sysconf(_SC_PAGESIZE));
	tep_set_file_bigendian(d->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(d->tep, TEP_LITTLE_ENDIAN);
	trace_seq_init(&d->seq);
	return d;
}

int tp_decoder_add(struct tp_decoder *d, const char *sys, const char *name,
		   char *err, size_t errlen)
{
	char path[1024], *buf;
	struct tep_event *ev = NULL;
	size_t n;

	if (tp_path(sys, name, "format", path, sizeof(path), err, errlen))
		return -1;
	buf = read_whole_file(path, 0, TP_FILE_MAX, &n);
	if (!buf) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 strerror(errno));
		return -1;
	}
	if (tep_parse_format(d->tep, &ev, buf, n, sys) || !ev) {
		snprintf(err, errlen, "cannot parse the format of %s:%s", sys,
			 name);
		free(buf);
		return -1;
	}
	free(buf);
	return 0;
}

/* The event's fixed fields must lie inside the record. */
static bool fits(const struct tep_event *ev, uint32_t size)
{
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		if ((uint64_t)f->offset + f->size > size)
			return false;
	for (struct tep_format_field *f = ev->format.common_fields; f;
	     f = f->next)
		if ((uint64_t)f->offset + f->size > size)
			return false;
	return true;
}

int tp_decode(struct tp_decoder *d, const void *raw, uint32_t size, char *buf,
	      size_t len)
{
	struct tep_record rec = { 0 };
	struct tep_event *ev;
	int type;

	if (!d || !raw || size < 8) {
		snprintf(buf, len, "[no raw data]");
		return -1;
	}
	rec.data = (void *)raw;
	rec.size = (int)size;
	type = tep_data_type(d->tep, &rec);
	ev = tep_find_event(d->tep, type);
	if (!ev || !fits(ev, size)) {
		snprintf(buf, len, "[undecodable tracepoint record, type %d]",
			 type);
		return -1;
	}
	trace_seq_reset(&d->seq);
	tep_print_event(d->tep, &d->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&d->seq);
	snprintf(buf, len, "%s", d->seq.buffer ? d->seq.buffer : "");
	/* One line: the report prints it after the sample's header. */
	for (char *p = buf; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	return (int)strlen(buf);
}

void tp_decoder_free(struct tp_decoder *d)
{
	if (!d)
		return;
	trace_seq_destroy(&d->seq);
	tep_free(d->tep);
	free(d);
}
