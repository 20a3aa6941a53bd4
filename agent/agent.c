// SPDX-License-Identifier: GPL-2.0
/*
 * libperfjava-agent.so entry points and the session: Agent_OnAttach (and
 * Agent_OnLoad for -agentpath) set up JVMTI and the signal handlers once,
 * then start a session per attach: connect to the reader's socket, start the
 * session thread, which enables the events, replays code and threads and
 * answers walk requests as they arrive. When the socket closes (or STOP
 * arrives) the session thread disables the events, stops signalling and
 * exits; the library stays loaded and the next attach starts a new session.
 *
 * Options (comma separated): sock=PATH (required; as the JVM sees it),
 * depth=N (frames per walk, default 2048, at most 8192), timeout_us=N (how
 * long a thread may take to answer, default 5000). Benchmarks only:
 * bench=signal, walk, alt, alt-all; tests only: PERFJAVA_AGENT_* in the
 * JVM's environment: both read by testhooks.c, which says what they do.
 */
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "pja.h"
#include "blocked.h"
#include "clock.h"
#include "copies.h"
#include "copywalk.h"
#include "events.h"
#include "input.h"
#include "jevents.h"
#include "ksig.h"
#include "methods.h"
#include "out.h"
#include "park.h"
#include "stackwalk.h"
#include "testhooks.h"
#include "vmstructs.h"
#include "walk.h"
#include "wring.h"

struct pja pja = { .fd = -1, .wake_fd = -1 };

static pthread_mutex_t life_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t sess_thread;
static int sess_running;
static uint32_t reader_pid; /* the session's reader (SO_PEERCRED) */
static char load_options[1100];

static JNIEnv *sess_jni; /* the session thread's */
static struct asgct_frame frames[PJA_MAX_SLOTS];
static struct pja_frame out_frames[PJA_MAX_DEPTH];

static void opt_value(const char *opts, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = opts;

	buf[0] = 0;
	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, ",");

			if (n >= len)
				n = len - 1;
			memcpy(buf, p + klen + 1, n);
			buf[n] = 0;
			return;
		}
		p = strchr(p, ',');
		if (p)
			p++;
	}
}

static int setup_once(JavaVM *vm)
{
	if (pja.ready)
		return 0;
	if (copies_pin()) {
		fprintf(stderr, "perfjava agent: cannot pin its library\n");
		return -1;
	}
	pja.vm = vm;
	pja.asgct = vmstructs_sym("AsyncGetCallTrace");
	if (!pja.asgct) {
		fprintf(
		    stderr,
		    "perfjava agent: AsyncGetCallTrace not found; is this HotSpot?\n");
		return -1;
	}
	vmstructs_init(); /* without it, walks in VM code are not recovered */
	if (events_init(vm)) {
		fprintf(stderr, "perfjava agent: JVMTI setup failed\n");
		return -1;
	}
	pja.wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (pja.wake_fd < 0 || walk_init())
		return -1;
	pja.ready = 1;
	return 0;
}

/* The batch of walks signalled and not collected yet. */
static struct {
	struct pja_walk_req req;
	uint64_t recv_time;
	void *walk; /* NULL: it failed to start, with status */
	int status;
} batch[PJA_WALK_SLOTS];
static unsigned int nbatch;

/* Collects walk i of the batch (its handler has run, or it timed out) and
 * sends the result. */
static void finish_walk(unsigned int i)
{
	const struct pja_walk_req *r = &batch[i].req;
	struct pja_walk_result res = { .cookie = r->cookie,
				       .sample_time = r->sample_time,
				       .recv_time = batch[i].recv_time };
	struct pja_walk w = { .frames = frames };
	int num = 0;

	res.status = batch[i].status;
	if (batch[i].walk) {
		res.status = walk_end(batch[i].walk, &w);
		res.walk_time = w.time;
		res.asgct = w.asgct;
		num = w.num;
	}
	batch[i].walk = NULL;
	if (res.status != PJA_WALK_OK)
		num = 0;
	if (num)
		res.flags |= (w.how & 0xffu) << PJA_WALK_HOW_SHIFT |
			     (w.raw ? PJA_WALK_RAW : 0) |
			     (w.truncated ? PJA_WALK_TRUNCATED : 0);
	num = (int)walk_frames(w.pc, &res.flags, frames, num, out_frames);
	res.nframes = num;
	out_msg(PJA_WALK_RESULT, &res, sizeof(res), out_frames,
		num * sizeof(out_frames[0]), NULL, 0);
}

/* Collects and answers every walk of the batch; -1 when the reader is gone. */
static int finish_batch(void)
{
	unsigned int i;

	for (i = 0; i < nbatch; i++) {
		finish_walk(i);
		if (out_flush())
			return -1;
	}
	nbatch = 0;
	return 0;
}

/* The session is ending: collect what is in flight, answer nothing. */
static void drop_batch(void)
{
	struct pja_walk w = { .frames = frames };
	unsigned int i;

	for (i = 0; i < nbatch; i++)
		if (batch[i].walk)
			walk_end(batch[i].walk, &w);
	nbatch = 0;
}

/*
 * Signals the thread of r at once, so that all requests that arrived together
 * are walked in parallel. A thread already in the batch (two signals to one
 * thread may arrive as one) or a full batch first finishes the batch.
 */
static int start_walk(const struct pja_walk_req *r)
{
	unsigned int i;

	for (i = 0; i < nbatch; i++)
		if (batch[i].req.tid == r->tid)
			break;
	if ((i < nbatch || nbatch == PJA_WALK_SLOTS) && finish_batch())
		return -1;
	batch[nbatch].req = *r;
	batch[nbatch].recv_time = pja_now();
	batch[nbatch].walk = NULL;
	batch[nbatch].status = PJA_WALK_GONE;
	if (pja_valid_tid(r->tid))
		batch[nbatch].walk =
		    walk_begin(r->tid, pja.depth, &batch[nbatch].status);
	nbatch++;
	return 0;
}

static int on_request(void *ctx, const struct pja_walk_req *r)
{
	return start_walk(r);
}

/* The walk ring's memfd, received with the bytes not parsed yet. */
static int ring_fd = -1;
static int ring_offered; /* option ring=1: the offer comes at once */

/* PJA_RING: map the reader's walk ring and say which signal to route. */
static int on_message(void *ctx, uint32_t type, const char *p, uint32_t len)
{
	struct pja_ring req;
	struct pja_ring_ready rr = { 0, 0 };

	if (type == PJA_STACK)
		return blocked_answer(sess_jni, p, len);
	if (type == PJA_EVENTS)
		return jevents_start(sess_jni, p, len);
	if (type == PJA_STACK_COPY)
		return copywalk_answer(p, len);
	if (type != PJA_RING)
		return 0;
	if (len >= sizeof(req) && ring_fd >= 0) {
		memcpy(&req, p, sizeof(req));
		if (!wring_attach(ring_fd, &req))
			rr.signo = ksig_signo();
	}
	if (ring_fd >= 0)
		close(ring_fd);
	ring_fd = -1;
	return out_msg(PJA_RING_READY, &rr, sizeof(rr), NULL, 0, NULL, 0) ? -1
									  : 0;
}

/* Reads from the socket; a passed descriptor (the walk ring) is kept in
 * ring_fd, any other is closed. */
static ssize_t read_input(char *buf, size_t len)
{
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int))];
	} cm;
	struct iovec iov = { buf, len };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = cm.b,
			     .msg_controllen = sizeof(cm.b) };
	struct cmsghdr *c;
	ssize_t n = recvmsg(pja.fd, &mh, MSG_CMSG_CLOEXEC);

	for (c = n >= 0 ? CMSG_FIRSTHDR(&mh) : NULL; c;
	     c = CMSG_NXTHDR(&mh, c)) {
		int fd;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len != CMSG_LEN(sizeof(int)))
			continue;
		memcpy(&fd, CMSG_DATA(c), sizeof(fd));
		if (ring_fd >= 0)
			close(ring_fd);
		ring_fd = fd;
	}
	return n;
}

/* Handles the complete messages in buf; returns bytes used or -1 to stop. */
static ssize_t handle_input(const char *buf, size_t len)
{
	long used = pja_parse_input(buf, len, on_request, on_message, NULL);

	if (used < 0 || finish_batch())
		return -1;
	return used;
}

static void *session_main(void *arg)
{
	JavaVMAttachArgs aa = { JNI_VERSION_1_6, PJA_AGENT_THREAD, NULL };
	struct pja_thread me = { 0, sizeof(PJA_AGENT_THREAD) - 1 };
	JNIEnv *env = NULL;
	static char in[PJA_MAX_MSG + 4096];
	size_t in_len = 0;

	if ((*pja.vm)->AttachCurrentThreadAsDaemon(pja.vm, (void **)&env,
						   &aa) != JNI_OK)
		goto out;
	out_sender(1);
	/* walk latency is how long this thread takes to get a cpu after a
	 * request; ask for a better share where allowed (ignored otherwise) */
	if (setpriority(PRIO_PROCESS, pja_gettid(), -10)) {
		/* not permitted: keep the JVM's priority */
	}
	vmstructs_thread(env);
	/* ours, named so in top and /proc (the JVM names only its own) */
	pthread_setname_np(pthread_self(), PJA_AGENT_THREAD);
	sess_jni = env;
	me.tid = pja_gettid();
	atomic_store(&pja.sess_tid, me.tid);
	out_msg(PJA_THREAD, &me, sizeof(me), PJA_AGENT_THREAD, me.name_len,
		NULL, 0);
	park_announce(); /* a hook bound by an earlier session: where */
	if (out_flush())
		goto stop;
	/* A reader that said ring=1 offers its walk ring (or declines) right
	 * after HELLO: take it before
	 * the replay of code and threads (long in a big JVM), so that walks
	 * at the sample start at once. */
	{
		struct pollfd p = { pja.fd, POLLIN, 0 };
		ssize_t n, used;

		if (ring_offered && poll(&p, 1, 2000) > 0 &&
		    (p.revents & POLLIN)) {
			n = read_input(in, sizeof(in));
			if (n <= 0)
				goto stop;
			in_len = n;
			used = handle_input(in, in_len);
			if (used < 0)
				goto stop;
			memmove(in, in + used, in_len - used);
			in_len -= used;
		}
	}
	if (out_flush() || events_start(env) || out_flush())
		goto stop;
	for (;;) {
		struct pollfd p[2] = { { pja.fd, POLLIN, 0 },
				       { pja.wake_fd, POLLIN, 0 } };
		uint64_t v;
		ssize_t n, used;

		/* walks at the sample are moved to the reader every 10 to
		 * 400 ms (wring.c) */
		if (poll(p, 2, wring_interval_ms()) < 0 && errno != EINTR)
			break;
		if ((p[1].revents & POLLIN) &&
		    read(pja.wake_fd, &v, sizeof(v)) < 0) {
			/* nothing to read: another wake-up got it */
		}
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read_input(in + in_len, sizeof(in) - in_len);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			in_len += n;
			used = handle_input(in, in_len);
			if (used < 0)
				break;
			memmove(in, in + used, in_len - used);
			in_len -= used;
		}
		if (wring_pump() || out_flush())
			break;
	}
stop:
	jevents_stop(env);
	atomic_store(&pja.active, 0);
	wring_detach();
	if (ring_fd >= 0)
		close(ring_fd);
	ring_fd = -1;
	drop_batch();
	events_stop();
	walk_quiesce();
	sess_jni = NULL;
	atomic_store(&pja.sess_tid, 0);
	(*pja.vm)->DetachCurrentThread(pja.vm);
out:
	out_sender(0);
	atomic_store(&pja.active, 0);
	close(pja.fd);
	pja.fd = -1;
	out_reset();
	copies_unlock();
	return NULL;
}

/* Ends a session that is still running (its reader may be gone). */
static int end_session(void)
{
	struct timespec ts;

	if (!sess_running)
		return 0;
	if (pja.fd >= 0)
		shutdown(pja.fd, SHUT_RDWR);
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 3;
	if (pthread_timedjoin_np(sess_thread, NULL, &ts))
		return -1;
	sess_running = 0;
	return 0;
}

/* Whether the running session's reader is still connected (a reader killed
 * a moment ago has closed its end before its session thread noticed). */
static int reader_alive(void)
{
	struct pollfd p = { pja.fd, POLLRDHUP, 0 };

	if (pja.fd < 0 || poll(&p, 1, 0) < 0)
		return 0;
	return !(p.revents & (POLLHUP | POLLRDHUP | POLLERR | POLLNVAL));
}

/*
 * A reader attached while another one records: tell it who has the agent
 * (HELLO with PJA_HELLO_BUSY, then PJA_BUSY) and close, without touching the
 * running session. One reader per JVM at a time, said plainly.
 */
static int refuse_busy(const struct sockaddr_un *sa)
{
	struct {
		struct pja_hdr h1;
		struct pja_hello hello;
		struct pja_hdr h2;
		struct pja_busy busy;
	} m = {
		{ PJA_HELLO, sizeof(struct pja_hello) },
		{ PJA_MAGIC, PJA_VERSION, (uint32_t)getpid(), pja.depth,
		  PJA_HELLO_BUSY, 0 },
		{ PJA_BUSY, sizeof(struct pja_busy) },
		{ reader_pid, 0 },
	};
	struct timeval tv = { 2, 0 };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) ||
	    write(fd, &m, sizeof(m)) != (ssize_t)sizeof(m)) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* The JVM's name and version (PJA_VM_INFO), for the JFR file a recording
 * becomes (jdk.JVMInformation). */
static void send_vm_info(void)
{
	struct pja_vm_info m = { 0 };
	char *name = NULL, *version = NULL;
	jvmtiEnv *j = pja.jvmti;

	if ((*j)->GetSystemProperty(j, "java.vm.name", &name))
		name = NULL;
	if ((*j)->GetSystemProperty(j, "java.vm.version", &version))
		version = NULL;
	m.name_len = name ? strnlen(name, PJA_VM_INFO_MAX) : 0;
	m.version_len = version ? strnlen(version, PJA_VM_INFO_MAX) : 0;
	out_msg(PJA_VM_INFO, &m, sizeof(m), name, m.name_len, version,
		m.version_len);
	if (name)
		(*j)->Deallocate(j, (unsigned char *)name);
	if (version)
		(*j)->Deallocate(j, (unsigned char *)version);
}

static int start_session(const char *options)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { 2, 0 };
	struct pja_hello hello = { PJA_MAGIC, PJA_VERSION };
	char v[sizeof(sa.sun_path)];
	struct ucred cred;
	socklen_t cl = sizeof(cred);
	int fd;

	vmstructs_late();
	opt_value(options, "sock", sa.sun_path, sizeof(sa.sun_path));
	if (!sa.sun_path[0]) {
		fprintf(stderr, "perfjava agent: no sock= option\n");
		return -1;
	}
	/* the first reader keeps its session */
	if (sess_running && atomic_load(&pja.active) && reader_alive())
		return refuse_busy(&sa);
	if (end_session()) {
		fprintf(stderr,
			"perfjava agent: the previous session does not end\n");
		return -1;
	}
	if (copies_lock()) { /* another copy of the agent records */
		reader_pid = 0;
		return refuse_busy(&sa);
	}
	opt_value(options, "depth", v, sizeof(v));
	pja.depth = v[0] ? atoi(v) : PJA_DEFAULT_DEPTH;
	if (pja.depth < 1 || pja.depth > PJA_MAX_DEPTH)
		pja.depth = PJA_DEFAULT_DEPTH;
	opt_value(options, "ring", v, sizeof(v));
	ring_offered = v[0] == '1';
	opt_value(options, "timeout_us", v, sizeof(v));
	pja.timeout_us = v[0] ? atoi(v) : 5000;
	if (pja.timeout_us < 100 || pja.timeout_us > 1000000)
		pja.timeout_us = 5000;
	opt_value(options, "bench", v, sizeof(v));
	testhooks_session(v);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "perfjava agent: cannot connect to %s: %s\n",
			sa.sun_path, strerror(errno));
		if (fd >= 0)
			close(fd);
		copies_unlock();
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl))
		cred.pid = 0;
	reader_pid = cred.pid > 0 ? (uint32_t)cred.pid : 0;
	out_reset();
	pja.fd = fd;
	hello.pid = getpid();
	hello.depth = pja.depth;
	hello.flags = (testhooks_testfault() ? PJA_HELLO_TESTFAULT : 0) |
		      PJA_HELLO_RING | PJA_HELLO_STACKS | PJA_HELLO_EVENTS |
		      PJA_HELLO_COPY | PJA_HELLO_CHAIN |
		      (ksig_trap_first(NULL, 0) ? PJA_HELLO_SIGTRAP : 0);
	(*pja.jvmti)->GetVersionNumber(pja.jvmti, (jint *)&hello.jvmti_version);
	out_msg(PJA_HELLO, &hello, sizeof(hello), NULL, 0, NULL, 0);
	send_vm_info();
	atomic_store(&pja.active, 1);
	if (pthread_create(&sess_thread, NULL, session_main, NULL)) {
		atomic_store(&pja.active, 0);
		close(fd);
		pja.fd = -1;
		copies_unlock();
		return -1;
	}
	sess_running = 1;
	return 0;
}

JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM *vm, char *options, void *res)
{
	int r;

	pthread_mutex_lock(&life_lock);
	r = setup_once(vm) ? -1 : start_session(options ? options : "");
	pthread_mutex_unlock(&life_lock);
	return r ? JNI_ERR : JNI_OK;
}

static void JNICALL on_vm_init(jvmtiEnv *j, JNIEnv *env, jthread t)
{
	pthread_mutex_lock(&life_lock);
	start_session(load_options);
	pthread_mutex_unlock(&life_lock);
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *res)
{
	jvmtiEventCallbacks cb;

	pthread_mutex_lock(&life_lock);
	snprintf(load_options, sizeof(load_options), "%s",
		 options ? options : "");
	if (setup_once(vm)) {
		pthread_mutex_unlock(&life_lock);
		return JNI_ERR;
	}
	pthread_mutex_unlock(&life_lock);
	events_callbacks(&cb);
	cb.VMInit = on_vm_init;
	(*pja.jvmti)->SetEventCallbacks(pja.jvmti, &cb, sizeof(cb));
	(*pja.jvmti)
	    ->SetEventNotificationMode(pja.jvmti, JVMTI_ENABLE,
				       JVMTI_EVENT_VM_INIT, NULL);
	return JNI_OK;
}

JNIEXPORT void JNICALL Agent_OnUnload(JavaVM *vm)
{
	atomic_store(&pja.active, 0);
}
