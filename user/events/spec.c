// SPDX-License-Identifier: GPL-2.0
/* Event specs; see events/spec.h for the syntax, events/table.c for the names. */
#include <ctype.h>
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "events/spec.h"
#include "events/table.h"
#include "events/pmu.h"
#include "events/tracepoint.h"

static int parse_modifiers(const char *m, const char *spec, struct pj_event *ev,
			   char *err, size_t errlen)
{
	bool u = false, k = false, h = false;
	unsigned int p = 0;

	for (; *m; m++) {
		switch (*m) {
		case 'u':
			u = true;
			break;
		case 'k':
			k = true;
			break;
		case 'h':
			h = true;
			break;
		case 'p':
			p++;
			break;
		default:
			snprintf(err, errlen,
				 "bad modifier '%c' in event '%s'; modifiers "
				 "are u, k, h, p, pp, ppp",
				 *m, spec);
			return -1;
		}
	}
	if (p > 3) {
		snprintf(err, errlen,
			 "too many 'p' modifiers in '%s'; at most ppp", spec);
		return -1;
	}
	if (u || k || h) {
		ev->attr.exclude_user = !u;
		ev->attr.exclude_kernel = !k;
		ev->attr.exclude_hv = !h;
	}
	ev->attr.precise_ip = p;
	return 0;
}

static int parse_number(const char *v, const char *what, const char *spec,
			uint64_t *out, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*out = v ? strtoull(v, &end, 0) : 0;
	if (!v || errno || end == v || *end || v[0] == '-') {
		snprintf(err, errlen, "bad %s '%s' in event '%s'", what,
			 v ? v : "", spec);
		return -1;
	}
	return 0;
}

/* Applies "period=1000,name=x,event=0x3c" (terms between slashes). */
static int apply_terms(char *terms, const char *spec, struct pj_event *ev,
		       char *err, size_t errlen)
{
	char *save = NULL, *t;
	uint64_t v;

	for (t = strtok_r(terms, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		char *val = strchr(t, '=');

		if (val)
			*val++ = 0;
		if (!strcmp(t, "period") || !strcmp(t, "freq")) {
			if (parse_number(val, t, spec, &v, err, errlen))
				return -1;
			if (!v) {
				snprintf(err, errlen,
					 "%s must be above 0 in '%s'", t, spec);
				return -1;
			}
			if (t[0] == 'p')
				ev->period = v, ev->freq = 0;
			else
				ev->freq = v, ev->period = 0;
		} else if (!strcmp(t, "name")) {
			if (!val || !*val) {
				snprintf(err, errlen, "empty name= in '%s'",
					 spec);
				return -1;
			}
			snprintf(ev->name, sizeof(ev->name), "%s", val);
		} else if ((ev->kind == PJ_EV_PMU || ev->kind == PJ_EV_RAW) &&
			   (!strcmp(t, "config") || !strcmp(t, "config1") ||
			    !strcmp(t, "config2"))) {
			if (parse_number(val, t, spec, &v, err, errlen))
				return -1;
			if (t[6] == '1')
				ev->attr.config1 = v;
			else if (t[6] == '2')
				ev->attr.config2 = v;
			else
				ev->attr.config = v;
		} else if (ev->kind == PJ_EV_PMU) {
			if (pmu_apply_term(ev->pmu, t, val, &ev->attr, err,
					   errlen))
				return -1;
		} else {
			snprintf(err, errlen,
				 "unknown term '%s' in '%s'; terms are "
				 "period=N, freq=N, name=NAME",
				 t, spec);
			return -1;
		}
	}
	return 0;
}

/* mem:ADDR[/LEN][:rwx][/LEN][:modifiers] */
static int parse_breakpoint(const char *spec, struct pj_event *ev, char *err,
			    size_t errlen)
{
	const char *p = spec + 4;
	unsigned int access = 0;
	uint64_t len = 0;
	char *end;

	errno = 0;
	ev->attr.bp_addr = strtoull(p, &end, 0);
	if (errno || end == p || *p == '-') {
		snprintf(err, errlen,
			 "bad breakpoint '%s'; use mem:ADDR[/LEN][:rwx]", spec);
		return -1;
	}
	p = end;
	while (*p) {
		if (*p == '/') {
			len = strtoull(p + 1, &end, 0);
			if (end == p + 1 ||
			    (len != 1 && len != 2 && len != 4 && len != 8)) {
				snprintf(err, errlen,
					 "bad breakpoint length in '%s'; "
					 "use 1, 2, 4 or 8",
					 spec);
				return -1;
			}
			p = end;
		} else if (*p == ':') {
			size_t n = strcspn(p + 1, ":/");
			char mods[16];

			if (n && strspn(p + 1, "rwx") >= n && !access) {
				for (size_t i = 1; i <= n; i++)
					access |= p[i] == 'r' ? HW_BREAKPOINT_R
						  : p[i] == 'w'
						      ? HW_BREAKPOINT_W
						      : HW_BREAKPOINT_X;
			} else {
				if (n >= sizeof(mods))
					n = sizeof(mods) - 1;
				memcpy(mods, p + 1, n);
				mods[n] = 0;
				if (parse_modifiers(mods, spec, ev, err,
						    errlen))
					return -1;
			}
			p += n + 1;
		} else {
			snprintf(
			    err, errlen,
			    "bad breakpoint '%s'; use mem:ADDR[/LEN][:rwx]",
			    spec);
			return -1;
		}
	}
	if (!access)
		access = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if ((access & HW_BREAKPOINT_X) && access != HW_BREAKPOINT_X) {
		snprintf(err, errlen,
			 "breakpoint '%s': x cannot be combined with r or w",
			 spec);
		return -1;
	}
	if (!len)
		len = access == HW_BREAKPOINT_X ? sizeof(long)
						: HW_BREAKPOINT_LEN_4;
	ev->attr.type = PERF_TYPE_BREAKPOINT;
	ev->attr.config = 0;
	ev->attr.bp_type = access;
	ev->attr.bp_len = len;
	ev->kind = PJ_EV_BREAKPOINT;
	snprintf(ev->unit, sizeof(ev->unit), "events");
	return 0;
}

static int parse_tracepoint(const char *sys, const char *name, const char *spec,
			    struct pj_event *ev, char *err, size_t errlen)
{
	uint64_t id;

	if (strpbrk(sys, "*?[") || strpbrk(name, "*?[")) {
		snprintf(err, errlen,
			 "'%s': wildcards are not supported; name each "
			 "tracepoint (see perfjava list tracepoint)",
			 spec);
		return -1;
	}
	if (!*sys || !*name || strlen(sys) >= sizeof(ev->tp_sys) ||
	    strlen(name) >= sizeof(ev->tp_name)) {
		snprintf(err, errlen, "bad tracepoint '%s'; use subsystem:name",
			 spec);
		return -1;
	}
	if (tracepoint_id(sys, name, &id, err, errlen))
		return -1;
	ev->attr.type = PERF_TYPE_TRACEPOINT;
	ev->attr.config = id;
	ev->kind = PJ_EV_TRACEPOINT;
	ev->tracepoint = true;
	snprintf(ev->tp_sys, sizeof(ev->tp_sys), "%s", sys);
	snprintf(ev->tp_name, sizeof(ev->tp_name), "%s", name);
	snprintf(ev->unit, sizeof(ev->unit), "events");
	return 0;
}

static int parse_pmu(const char *pmu, const char *spec, struct pj_event *ev,
		     char *err, size_t errlen)
{
	char names[512];

	if (strlen(pmu) >= sizeof(ev->pmu) || pmu_type(pmu, &ev->attr.type)) {
		pmu_names(names, sizeof(names));
		snprintf(err, errlen,
			 "unknown event '%s': no PMU '%s' on this machine "
			 "(PMUs: %s)%s; see perfjava list",
			 spec, pmu, *names ? names : "none",
			 pmu_have_cpu() ? "" : ", no hardware PMU");
		return -1;
	}
	snprintf(ev->pmu, sizeof(ev->pmu), "%s", pmu);
	ev->kind = PJ_EV_PMU;
	snprintf(ev->unit, sizeof(ev->unit), "events");
	return 0;
}

size_t events_token_len(const char *p)
{
	size_t k = 0;
	int slash = 0;

	while (p[k] && (p[k] != ',' || slash % 2))
		slash += p[k++] == '/';
	return k;
}

int events_parse_one(const char *spec, struct pj_event *ev, char *err,
		     size_t errlen)
{
	char head[256], terms[512] = "", mods[32] = "";
	const char *slash, *colon, *after = NULL;
	size_t hlen;

	memset(ev, 0, sizeof(*ev));
	ev->attr.size = sizeof(ev->attr);
	if (!*spec || strlen(spec) >= sizeof(ev->name)) {
		snprintf(err, errlen, "bad event '%s'", spec);
		return -1;
	}
	snprintf(ev->name, sizeof(ev->name), "%s", spec);
	if (!strncmp(spec, "mem:", 4))
		return parse_breakpoint(spec, ev, err, errlen);

	/* head [/terms/] [[:]modifiers] */
	slash = strchr(spec, '/');
	hlen = slash ? (size_t)(slash - spec) : strlen(spec);
	if (slash) {
		const char *close = strchr(slash + 1, '/');
		size_t tl;

		if (!close) {
			snprintf(err, errlen, "missing closing '/' in '%s'",
				 spec);
			return -1;
		}
		tl = (size_t)(close - slash - 1);
		if (tl >= sizeof(terms)) {
			snprintf(err, errlen, "bad event '%s'", spec);
			return -1;
		}
		memcpy(terms, slash + 1, tl);
		terms[tl] = 0;
		after = close + 1;
		if (*after == ':')
			after++;
	}
	if (!hlen || hlen >= sizeof(head)) {
		snprintf(err, errlen, "bad event '%s'", spec);
		return -1;
	}
	memcpy(head, spec, hlen);
	head[hlen] = 0;
	colon = strchr(head, ':');
	if (colon) {
		char *c = head + (colon - head), *c2;

		*c = 0;
		if (events_lookup_symbolic(head, ev)) {
			after = c + 1; /* cycles:u */
			if (slash) {
				snprintf(err, errlen,
					 "bad event '%s': modifiers go after "
					 "the terms (%s/%s/%s)",
					 spec, head, terms, c + 1);
				return -1;
			}
		} else {
			c2 = strchr(c + 1, ':');
			if (c2) {
				*c2 = 0;
				if (slash) {
					snprintf(err, errlen, "bad event '%s'",
						 spec);
					return -1;
				}
				after = c2 + 1;
			}
			if (parse_tracepoint(head, c + 1, spec, ev, err,
					     errlen))
				return -1;
		}
	} else if (!events_lookup_symbolic(head, ev)) {
		if (!slash) {
			snprintf(err, errlen,
				 "unknown event '%s'; see perfjava list", head);
			return -1;
		}
		if (parse_pmu(head, spec, ev, err, errlen))
			return -1;
	}
	if (after) {
		if (strlen(after) >= sizeof(mods)) {
			snprintf(err, errlen, "bad modifiers in '%s'", spec);
			return -1;
		}
		snprintf(mods, sizeof(mods), "%s", after);
	}
	if (slash && apply_terms(terms, spec, ev, err, errlen))
		return -1;
	if (ev->kind == PJ_EV_PMU && !ev->attr.config && !ev->attr.config1 &&
	    !ev->attr.config2 && !*terms) {
		snprintf(err, errlen,
			 "'%s' names no event; give terms (%s/event=0x..,"
			 "umask=0x../) or a named event (%s/NAME/)",
			 spec, ev->pmu, ev->pmu);
		return -1;
	}
	if (parse_modifiers(mods, spec, ev, err, errlen))
		return -1;
	ev->hardware =
	    ev->kind == PJ_EV_HARDWARE || ev->kind == PJ_EV_CACHE ||
	    ev->kind == PJ_EV_RAW ||
	    (ev->kind == PJ_EV_PMU &&
	     (!strcmp(ev->pmu, "cpu") || !strncmp(ev->pmu, "cpu_", 4)));
	return 0;
}

int events_parse(const char *list, struct pj_event **out, unsigned int *n,
		 char *err, size_t errlen)
{
	struct pj_event *evs = NULL;
	unsigned int cnt = 0;
	const char *p = list;
	char tok[512];

	while (*p) {
		bool mem = !strncmp(p, "mem:", 4), in_terms = false;
		size_t l = 0;
		struct pj_event *nv;

		/* Commas between slashes belong to the terms. */
		while (p[l] && (p[l] != ',' || in_terms)) {
			if (p[l] == '/' && !mem)
				in_terms = !in_terms;
			l++;
		}
		if (l == 0 || l >= sizeof(tok)) {
			snprintf(err, errlen, "bad event list '%s'", list);
			goto fail;
		}
		memcpy(tok, p, l);
		tok[l] = 0;
		p += l + (p[l] == ',');
		nv = realloc(evs, (cnt + 1) * sizeof(*evs));
		if (!nv) {
			snprintf(err, errlen, "out of memory");
			goto fail;
		}
		evs = nv;
		if (events_parse_one(tok, &evs[cnt], err, errlen))
			goto fail;
		cnt++;
	}
	if (!cnt) {
		snprintf(err, errlen, "no event given");
		goto fail;
	}
	*out = evs;
	*n = cnt;
	return 0;
fail:
	free(evs);
	return -1;
}

bool event_is_clock(const struct pj_event *ev)
{
	return ev->attr.type == PERF_TYPE_SOFTWARE &&
	       (ev->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		ev->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

uint64_t event_max_rate(const struct pj_event *ev)
{
	if (ev->attr.freq)
		return ev->attr.sample_freq;
	if (!ev->attr.sample_period)
		return 0;
	if (event_is_clock(ev))
		return 1000000000ull / ev->attr.sample_period + 1;
	return UINT64_MAX;
}

bool event_counts_hits(const struct pj_event *ev)
{
	return !event_is_clock(ev) &&
	       (ev->kind == PJ_EV_SOFTWARE || ev->kind == PJ_EV_TRACEPOINT ||
		ev->kind == PJ_EV_BREAKPOINT);
}

const char *events_kind_name(enum pj_event_kind k)
{
	static const char *const names[] = {
		[PJ_EV_SOFTWARE] = "software",
		[PJ_EV_HARDWARE] = "hardware",
		[PJ_EV_CACHE] = "hardware cache",
		[PJ_EV_RAW] = "raw",
		[PJ_EV_PMU] = "PMU",
		[PJ_EV_TRACEPOINT] = "tracepoint",
		[PJ_EV_BREAKPOINT] = "breakpoint",
	};

	return (unsigned int)k < sizeof(names) / sizeof(names[0]) ? names[k]
								  : "?";
}

/* Whether ev opens on this process as a counter (no sampling). */
static bool counts_without_sampling(const struct pj_event *ev)
{
	struct perf_event_attr a = ev->attr;
	long fd;

	a.size = sizeof(a);
	a.sample_period = 0;
	a.freq = 0;
	a.sample_type = 0;
	a.disabled = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0) {
		/* Without privilege, only user-space counting is allowed. */
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	}
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

void events_open_error(const struct pj_event *ev, int e, char *buf, size_t len)
{
	if (ev->hardware && !pmu_have_cpu()) {
		snprintf(buf, len,
			 "cannot open %s: no hardware PMU on this machine "
			 "(virtual machine?); try -e cpu-clock",
			 ev->name);
		return;
	}
	switch (e) {
	case EACCES:
	case EPERM:
		snprintf(buf, len,
			 "cannot open %s: not permitted (kernel.perf_event_"
			 "paranoid is too high); run as root, grant "
			 "CAP_PERFMON, or set kernel.perf_event_paranoid=1",
			 ev->name);
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case EINVAL:
		if (ev->kind == PJ_EV_PMU && counts_without_sampling(ev))
			snprintf(buf, len,
				 "cannot sample %s: the %s PMU counts but "
				 "cannot sample; try -e cpu-clock",
				 ev->name, ev->pmu);
		else if (ev->kind == PJ_EV_BREAKPOINT)
			snprintf(buf, len,
				 "cannot open %s: the kernel refuses this "
				 "breakpoint (%s; x86 cannot watch reads "
				 "only, and ADDR must be aligned to LEN)",
				 ev->name, strerror(e));
		else if (ev->attr.precise_ip)
			snprintf(buf, len,
				 "cannot open %s: this machine cannot count "
				 "it precisely (%s); drop the p modifiers",
				 ev->name, strerror(e));
		else
			snprintf(buf, len,
				 "cannot open %s: this machine cannot count "
				 "it (%s); see perfjava list",
				 ev->name, strerror(e));
		break;
	case ENOSPC:
		snprintf(buf, len,
			 "cannot open %s: no free hardware slot (%s); use "
			 "fewer events",
			 ev->name,
			 ev->kind == PJ_EV_BREAKPOINT
			     ? "the CPU has 4 debug registers"
			     : "counters in use");
		break;
	case EMFILE:
		snprintf(buf, len,
			 "cannot open %s: too many open files; raise the "
			 "limit with ulimit -n",
			 ev->name);
		break;
	default:
		snprintf(buf, len, "cannot open %s: %s", ev->name, strerror(e));
	}
}

const char *events_default(bool *fallback)
{
	*fallback = !pmu_have_cpu();
	return *fallback ? "cpu-clock" : "cycles";
}
