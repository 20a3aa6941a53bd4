// SPDX-License-Identifier: GPL-2.0
/*
 * The metadata perfjava declares in its JFR files (report/jfr_types.h): one
 * table of classes with their fields, written as the element tree the JFR
 * format defines (root > metadata > class > field, annotations below a
 * class or a field, and a region), its strings pooled in front.
 */
#include <stdio.h>
#include <string.h>

#include "report/jfr_types.h"

const char *const jfr_frame_type_names[JFR_NFRAME_TYPES] = {
	[JFR_FRAME_INTERPRETED] = "Interpreted",
	[JFR_FRAME_JIT] = "JIT compiled",
	[JFR_FRAME_INLINED] = "Inlined",
	[JFR_FRAME_NATIVE] = "Native",
	[JFR_FRAME_CPP] = "C++",
	[JFR_FRAME_KERNEL] = "Kernel",
	[JFR_FRAME_C1] = "C1 compiled",
};

/* What a field's annotations say about its value. */
enum {
	F_CPOOL = 1 << 0, /* a constant pool key */
	F_ARRAY = 1 << 1,
	F_TICKS = 1 << 2, /* a time in ticks */
	F_SPAN_TICKS = 1 << 3, /* a duration in ticks */
	F_SPAN_NANOS = 1 << 4,
	F_SPAN_MILLIS = 1 << 5,
	F_EPOCH_MILLIS = 1 << 6,
	F_BYTES = 1 << 7,
	F_UNSIGNED = 1 << 8,
	F_ADDRESS = 1 << 9,
};

struct field {
	const char *name;
	enum jfr_type_id type;
	const char *label;
	unsigned int flags;
};

struct klass {
	enum jfr_type_id id;
	const char *name, *label, *description;
	const char *category[3];
	const struct field *fields;
	unsigned int nfields;
	unsigned int simple : 1;
};

#define FIELDS(...)                                                \
	.fields = (const struct field[]){ __VA_ARGS__ },           \
	.nfields = sizeof((const struct field[]){ __VA_ARGS__ }) / \
		   sizeof(struct field)
#define START                                                  \
	{                                                      \
		"startTime", JFR_T_LONG, "Start Time", F_TICKS \
	}
#define DURATION                                                 \
	{                                                        \
		"duration", JFR_T_LONG, "Duration", F_SPAN_TICKS \
	}
#define THREAD(n, l)                        \
	{                                   \
		n, JFR_T_THREAD, l, F_CPOOL \
	}
#define STACK                                                           \
	{                                                               \
		"stackTrace", JFR_T_STACK_TRACE, "Stack Trace", F_CPOOL \
	}
#define PROFILING                                   \
	{                                           \
		"Java Virtual Machine", "Profiling" \
	}

static const struct klass classes[] = {
	{ JFR_T_BOOLEAN, "boolean" },
	{ JFR_T_CHAR, "char" },
	{ JFR_T_FLOAT, "float" },
	{ JFR_T_DOUBLE, "double" },
	{ JFR_T_BYTE, "byte" },
	{ JFR_T_SHORT, "short" },
	{ JFR_T_INT, "int" },
	{ JFR_T_LONG, "long" },
	{ JFR_T_STRING, "java.lang.String" },
	{ JFR_T_CLASS, "java.lang.Class", "Java Class",
	  FIELDS({ "classLoader", JFR_T_CLASS_LOADER, "Class Loader", F_CPOOL },
		 { "name", JFR_T_SYMBOL, "Name", F_CPOOL },
		 { "package", JFR_T_PACKAGE, "Package", F_CPOOL },
		 { "modifiers", JFR_T_INT, "Access Modifiers" }) },
	{ JFR_T_THREAD, "java.lang.Thread", "Thread",
	  FIELDS({ "osName", JFR_T_STRING, "OS Thread Name" },
		 { "osThreadId", JFR_T_LONG, "OS Thread Id" },
		 { "javaName", JFR_T_STRING, "Java Thread Name" },
		 { "javaThreadId", JFR_T_LONG, "Java Thread Id" },
		 { "group", JFR_T_THREAD_GROUP, "Java Thread Group", F_CPOOL },
		 { "virtual", JFR_T_BOOLEAN, "Virtual Thread" }) },
	{ JFR_T_THREAD_GROUP, "jdk.types.ThreadGroup", "Thread Group",
	  FIELDS({ "parent", JFR_T_THREAD_GROUP, "Parent", F_CPOOL },
		 { "name", JFR_T_STRING, "Name" }) },
	{ JFR_T_CLASS_LOADER, "jdk.types.ClassLoader", "Java Class Loader",
	  FIELDS({ "type", JFR_T_CLASS, "Type", F_CPOOL },
		 { "name", JFR_T_SYMBOL, "Name", F_CPOOL }) },
	{ JFR_T_FRAME_TYPE, "jdk.types.FrameType", "Frame type",
	  FIELDS({ "description", JFR_T_STRING, "Description" }), .simple = 1 },
	{ JFR_T_THREAD_STATE, "jdk.types.ThreadState", "Java Thread State",
	  FIELDS({ "name", JFR_T_STRING, "Name" }), .simple = 1 },
	{ JFR_T_STACK_TRACE, "jdk.types.StackTrace", "Stacktrace",
	  FIELDS({ "truncated", JFR_T_BOOLEAN, "Truncated" },
		 { "frames", JFR_T_STACK_FRAME, "Stack Frames", F_ARRAY }) },
	{ JFR_T_STACK_FRAME, "jdk.types.StackFrame", NULL,
	  FIELDS({ "method", JFR_T_METHOD, "Java Method", F_CPOOL },
		 { "lineNumber", JFR_T_INT, "Line Number" },
		 { "bytecodeIndex", JFR_T_INT, "Bytecode Index" },
		 { "type", JFR_T_FRAME_TYPE, "Frame Type", F_CPOOL }) },
	{ JFR_T_METHOD, "jdk.types.Method", "Java Method",
	  FIELDS({ "type", JFR_T_CLASS, "Type", F_CPOOL },
		 { "name", JFR_T_SYMBOL, "Name", F_CPOOL },
		 { "descriptor", JFR_T_SYMBOL, "Descriptor", F_CPOOL },
		 { "modifiers", JFR_T_INT, "Access Modifiers" },
		 { "hidden", JFR_T_BOOLEAN, "Hidden" }) },
	{ JFR_T_PACKAGE, "jdk.types.Package", "Package",
	  FIELDS({ "name", JFR_T_SYMBOL, "Name", F_CPOOL }) },
	{ JFR_T_SYMBOL, "jdk.types.Symbol", "Symbol",
	  FIELDS({ "string", JFR_T_STRING, "String" }), .simple = 1 },

	{ JFR_T_EXECUTION_SAMPLE, "jdk.ExecutionSample",
	  "Method Profiling Sample",
	  "A thread's stack on CPU, sampled by perfjava", PROFILING,
	  FIELDS(START, THREAD("sampledThread", "Thread"), STACK,
		 { "state", JFR_T_THREAD_STATE, "Thread State", F_CPOOL }) },
	{ JFR_T_WALL_CLOCK_SAMPLE, "profiler.WallClockSample",
	  "Wall Clock Sample",
	  "A thread's stack while it waited (off-CPU), for timeSpan; samples: "
	  "how many CPU samples' time that is",
	  PROFILING,
	  FIELDS(START, THREAD("sampledThread", "Thread"), STACK,
		 { "state", JFR_T_THREAD_STATE, "Thread State", F_CPOOL },
		 { "samples", JFR_T_INT, "Samples", F_UNSIGNED },
		 { "timeSpan", JFR_T_LONG, "Time Span", F_SPAN_TICKS }) },
	{ JFR_T_EVENT_SAMPLE,
	  "perfjava.EventSample",
	  "Perf Event Sample",
	  "A thread's stack at a sample of a perf event (hardware "
	  "counter, tracepoint, software event); period is the event count "
	  "it stands for",
	  { "Java Virtual Machine", "Profiling", "perfjava" },
	  FIELDS(START, THREAD("sampledThread", "Thread"), STACK,
		 { "event", JFR_T_STRING, "Event", F_CPOOL },
		 { "period", JFR_T_LONG, "Period", F_UNSIGNED },
		 { "cpu", JFR_T_INT, "CPU", F_UNSIGNED },
		 { "details", JFR_T_STRING, "Details", F_CPOOL }) },
	{ JFR_T_ALLOCATION_SAMPLE,
	  "jdk.ObjectAllocationSample",
	  "Object Allocation Sample",
	  NULL,
	  { "Java Application" },
	  FIELDS(START, THREAD("eventThread", "Event Thread"), STACK,
		 { "objectClass", JFR_T_CLASS, "Object Class", F_CPOOL },
		 { "weight", JFR_T_LONG, "Sample Weight", F_BYTES }) },
	{ JFR_T_ALLOCATION_IN_TLAB,
	  "jdk.ObjectAllocationInNewTLAB",
	  "Allocation in new TLAB",
	  "Allocation in new Thread Local Allocation Buffer",
	  { "Java Application" },
	  FIELDS(START, THREAD("eventThread", "Event Thread"), STACK,
		 { "objectClass", JFR_T_CLASS, "Object Class", F_CPOOL },
		 { "allocationSize", JFR_T_LONG, "Allocation Size", F_BYTES },
		 { "tlabSize", JFR_T_LONG, "TLAB Size", F_BYTES }) },
	{ JFR_T_ALLOCATION_OUTSIDE_TLAB,
	  "jdk.ObjectAllocationOutsideTLAB",
	  "Allocation outside TLAB",
	  "Allocation outside Thread Local Allocation Buffers",
	  { "Java Application" },
	  FIELDS(START, THREAD("eventThread", "Event Thread"), STACK,
		 { "objectClass", JFR_T_CLASS, "Object Class", F_CPOOL },
		 { "allocationSize", JFR_T_LONG, "Allocation Size", F_BYTES }) },
	{ JFR_T_MONITOR_ENTER,
	  "jdk.JavaMonitorEnter",
	  "Java Monitor Blocked",
	  NULL,
	  { "Java Application" },
	  FIELDS(START, DURATION, THREAD("eventThread", "Event Thread"), STACK,
		 { "monitorClass", JFR_T_CLASS, "Monitor Class", F_CPOOL },
		 THREAD("previousOwner", "Previous Monitor Owner"),
		 { "address", JFR_T_LONG, "Monitor Address", F_ADDRESS }) },
	{ JFR_T_THREAD_PARK,
	  "jdk.ThreadPark",
	  "Java Thread Park",
	  NULL,
	  { "Java Application" },
	  FIELDS(START, DURATION, THREAD("eventThread", "Event Thread"), STACK,
		 { "parkedClass", JFR_T_CLASS, "Class Parked On", F_CPOOL },
		 { "timeout", JFR_T_LONG, "Park Timeout", F_SPAN_NANOS },
		 { "until", JFR_T_LONG, "Park Until", F_EPOCH_MILLIS },
		 { "address", JFR_T_LONG, "Address of Object Parked",
		   F_ADDRESS }) },
	{ JFR_T_ACTIVE_RECORDING,
	  "jdk.ActiveRecording",
	  "perfjava Recording",
	  NULL,
	  { "Flight Recorder" },
	  FIELDS(START, { "id", JFR_T_LONG, "Id" },
		 { "name", JFR_T_STRING, "Name" },
		 { "destination", JFR_T_STRING, "Destination" },
		 { "maxAge", JFR_T_LONG, "Max Age", F_SPAN_MILLIS },
		 { "maxSize", JFR_T_LONG, "Max Size", F_BYTES },
		 { "recordingStart", JFR_T_LONG, "Start Time", F_EPOCH_MILLIS },
		 { "recordingDuration", JFR_T_LONG, "Recording Duration",
		   F_SPAN_MILLIS }) },
	{ JFR_T_ACTIVE_SETTING,
	  "jdk.ActiveSetting",
	  "perfjava Setting",
	  NULL,
	  { "Flight Recorder" },
	  FIELDS(START, { "id", JFR_T_LONG, "Event Id" },
		 { "name", JFR_T_STRING, "Setting Name" },
		 { "value", JFR_T_STRING, "Setting Value" }) },
	{ JFR_T_OS_INFORMATION,
	  "jdk.OSInformation",
	  "OS Information",
	  NULL,
	  { "Operating System" },
	  FIELDS(START, { "osVersion", JFR_T_STRING, "OS Version" }) },
	{ JFR_T_JVM_INFORMATION,
	  "jdk.JVMInformation",
	  "JVM Information",
	  NULL,
	  { "Java Virtual Machine" },
	  FIELDS(
	      START, { "jvmName", JFR_T_STRING, "JVM Name" },
	      { "jvmVersion", JFR_T_STRING, "JVM Version" },
	      { "jvmArguments", JFR_T_STRING, "JVM Command Line Arguments" },
	      { "jvmFlags", JFR_T_STRING, "JVM Settings File Arguments" },
	      { "javaArguments", JFR_T_STRING, "Java Application Arguments" },
	      { "jvmStartTime", JFR_T_LONG, "JVM Start Time", F_EPOCH_MILLIS },
	      { "pid", JFR_T_LONG, "Process Identifier" }) },

	{ JFR_T_LABEL,
	  "jdk.jfr.Label",
	  NULL,
	  NULL,
	  { NULL },
	  FIELDS({ "value", JFR_T_STRING }) },
	{ JFR_T_CATEGORY,
	  "jdk.jfr.Category",
	  NULL,
	  NULL,
	  { NULL },
	  FIELDS({ "value", JFR_T_STRING, NULL, F_ARRAY }) },
	{ JFR_T_DESCRIPTION,
	  "jdk.jfr.Description",
	  NULL,
	  NULL,
	  { NULL },
	  FIELDS({ "value", JFR_T_STRING }) },
	{ JFR_T_CONTENT_TYPE, "jdk.jfr.ContentType", "Content Type" },
	{ JFR_T_TIMESTAMP,
	  "jdk.jfr.Timestamp",
	  "Timestamp",
	  NULL,
	  { NULL },
	  FIELDS({ "value", JFR_T_STRING }) },
	{ JFR_T_TIMESPAN,
	  "jdk.jfr.Timespan",
	  "Timespan",
	  NULL,
	  { NULL },
	  FIELDS({ "value", JFR_T_STRING }) },
	{ JFR_T_DATA_AMOUNT,
	  "jdk.jfr.DataAmount",
	  "Data Amount",
	  NULL,
	  { NULL },
	  FIELDS({ "value", JFR_T_STRING }) },
	{ JFR_T_MEMORY_ADDRESS, "jdk.jfr.MemoryAddress", "Memory Address" },
	{ JFR_T_UNSIGNED, "jdk.jfr.Unsigned", "Unsigned Value" },
};

/* The metadata's string pool: a few hundred strings, found by scanning. */
#define MAX_STRINGS 512

struct meta {
	struct jfr_buf el; /* the element tree */
	const char *s[MAX_STRINGS];
	unsigned int n;
	char nums[64][24]; /* ids and numbers as text */
	unsigned int nnums;
};

static unsigned int sid(struct meta *m, const char *s)
{
	for (unsigned int i = 0; i < m->n; i++)
		if (!strcmp(m->s[i], s))
			return i;
	if (m->n == MAX_STRINGS) { /* the table above cannot get there */
		m->el.oom = true;
		return 0;
	}
	m->s[m->n] = s;
	return m->n++;
}

static const char *num(struct meta *m, unsigned long long v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", v);
	for (unsigned int i = 0; i < m->nnums; i++)
		if (!strcmp(m->nums[i], buf))
			return m->nums[i];
	if (m->nnums == 64) {
		m->el.oom = true;
		return "0";
	}
	memcpy(m->nums[m->nnums], buf, sizeof(buf));
	return m->nums[m->nnums++];
}

/* An element's name and attributes (NULL-terminated pairs); the caller
 * writes the child count and children. */
static void element(struct meta *m, const char *name, const char *const *kv)
{
	unsigned int n = 0;

	while (kv[2 * n])
		n++;
	jfr_varint(&m->el, sid(m, name));
	jfr_varint(&m->el, n);
	for (unsigned int i = 0; i < 2 * n; i++)
		jfr_varint(&m->el, sid(m, kv[i]));
}

static void annotation(struct meta *m, enum jfr_type_id type, const char *value)
{
	element(m, "annotation",
		(const char *const[]){ "class", num(m, type),
				       value ? "value" : NULL, value, NULL });
	jfr_varint(&m->el, 0);
}

static unsigned int field_annotations(const struct field *f)
{
	return !!f->label +
	       !!(f->flags &
		  (F_TICKS | F_SPAN_TICKS | F_SPAN_NANOS | F_SPAN_MILLIS |
		   F_EPOCH_MILLIS | F_UNSIGNED | F_ADDRESS)) +
	       2 * !!(f->flags & F_BYTES);
}

static void field(struct meta *m, const struct field *f)
{
	const char *kv[9] = { "name", f->name, "class", num(m, f->type) };
	unsigned int k = 4, fl = f->flags;

	if (fl & F_CPOOL) {
		kv[k++] = "constantPool";
		kv[k++] = "true";
	}
	if (fl & F_ARRAY) {
		kv[k++] = "dimension";
		kv[k++] = "1";
	}
	kv[k] = NULL;
	element(m, "field", kv);
	jfr_varint(&m->el, field_annotations(f));
	if (f->label)
		annotation(m, JFR_T_LABEL, f->label);
	if (fl & F_TICKS)
		annotation(m, JFR_T_TIMESTAMP, "TICKS");
	else if (fl & F_EPOCH_MILLIS)
		annotation(m, JFR_T_TIMESTAMP, "MILLISECONDS_SINCE_EPOCH");
	else if (fl & F_SPAN_TICKS)
		annotation(m, JFR_T_TIMESPAN, "TICKS");
	else if (fl & F_SPAN_NANOS)
		annotation(m, JFR_T_TIMESPAN, "NANOSECONDS");
	else if (fl & F_SPAN_MILLIS)
		annotation(m, JFR_T_TIMESPAN, "MILLISECONDS");
	else if (fl & F_UNSIGNED)
		annotation(m, JFR_T_UNSIGNED, NULL);
	else if (fl & F_ADDRESS)
		annotation(m, JFR_T_MEMORY_ADDRESS, NULL);
	if (fl & F_BYTES) {
		annotation(m, JFR_T_UNSIGNED, NULL);
		annotation(m, JFR_T_DATA_AMOUNT, "BYTES");
	}
}

static void klass(struct meta *m, const struct klass *c)
{
	bool event = c->id > 100 && c->id < 200;
	bool content = c->id >= JFR_T_TIMESTAMP && c->id <= JFR_T_UNSIGNED;
	const char *kv[7] = { "name", c->name, "id", num(m, c->id) };
	unsigned int k = 4, ncat = 0, nann;

	if (c->simple) {
		kv[k++] = "simpleType";
		kv[k++] = "true";
	} else if (event) {
		kv[k++] = "superType";
		kv[k++] = "jdk.jfr.Event";
	} else if (c->id > 200) {
		kv[k++] = "superType";
		kv[k++] = "java.lang.annotation.Annotation";
	}
	kv[k] = NULL;
	while (ncat < 3 && c->category[ncat])
		ncat++;
	nann = !!c->label + !!c->description + !!ncat + content;
	element(m, "class", kv);
	jfr_varint(&m->el, nann + c->nfields);
	if (c->label)
		annotation(m, JFR_T_LABEL, c->label);
	if (c->description)
		annotation(m, JFR_T_DESCRIPTION, c->description);
	if (ncat) {
		const char *ckv[9] = { "class", num(m, JFR_T_CATEGORY) };
		static const char *const names[3] = { "value-0", "value-1",
						      "value-2" };

		for (unsigned int i = 0; i < ncat; i++) {
			ckv[2 + 2 * i] = names[i];
			ckv[3 + 2 * i] = c->category[i];
		}
		ckv[2 + 2 * ncat] = NULL;
		element(m, "annotation", ckv);
		jfr_varint(&m->el, 0);
	}
	if (content)
		annotation(m, JFR_T_CONTENT_TYPE, NULL);
	for (unsigned int i = 0; i < c->nfields; i++)
		field(m, &c->fields[i]);
}

void jfr_write_metadata(struct jfr_buf *b, uint64_t start_ticks,
			uint64_t events)
{
	struct meta m = { 0 };
	unsigned int nclasses = 0;
	size_t at;

	for (size_t i = 0; i < sizeof(classes) / sizeof(*classes); i++) {
		const struct klass *c = &classes[i];

		if (c->id > 100 && c->id < 200 &&
		    !(events & jfr_event_bit(c->id)))
			continue;
		nclasses++;
	}
	element(&m, "root", (const char *const[]){ NULL });
	jfr_varint(&m.el, 2);
	element(&m, "metadata", (const char *const[]){ NULL });
	jfr_varint(&m.el, nclasses);
	for (size_t i = 0; i < sizeof(classes) / sizeof(*classes); i++) {
		const struct klass *c = &classes[i];

		if (c->id > 100 && c->id < 200 &&
		    !(events & jfr_event_bit(c->id)))
			continue;
		klass(&m, c);
	}
	element(&m, "region",
		(const char *const[]){ "locale", "en_US", "gmtOffset", "0",
				       NULL });
	jfr_varint(&m.el, 0);

	at = jfr_event_begin(b, JFR_T_METADATA);
	jfr_varint(b, start_ticks);
	jfr_varint(b, 0); /* duration */
	jfr_varint(b, 0x50464a00); /* metadata id: none of the JDK's */
	jfr_varint(b, m.n);
	for (unsigned int i = 0; i < m.n; i++)
		jfr_str(b, m.s[i]);
	if (m.el.oom)
		b->oom = true;
	jfr_raw(b, m.el.d, m.el.n);
	jfr_event_end(b, at);
	jfr_buf_free(&m.el);
}
