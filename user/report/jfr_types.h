/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The types perfjava declares in the JFR files it writes: their ids, and
 * the metadata event that describes them (classes, fields, annotations) so
 * that any reader (the JDK's jfr tool, JDK Mission Control, async-profiler's
 * converters) can parse the events without knowing perfjava.
 *
 * Events carry the JDK's names and fields where the JDK has the event
 * (jdk.ExecutionSample, jdk.ObjectAllocationSample and the TLAB events,
 * jdk.JavaMonitorEnter, jdk.ThreadPark, jdk.ActiveRecording,
 * jdk.ActiveSetting, jdk.OSInformation, jdk.JVMInformation), their fields
 * in the JDK's order (async-profiler's converter reads them by position),
 * async-profiler's where it has one (wall-clock: profiler.WallClockSample),
 * and perfjava's own otherwise
 * (perfjava.EventSample: samples of any other perf event, hardware
 * counters included, with the event's name and period). Frame types are
 * jdk.types.FrameType with async-profiler's values (JFR_FRAME_*), so that
 * native and kernel frames show as such. java.lang.Thread has the JDK
 * 21+ fields (group, virtual): JDK 17's readers take them from the
 * metadata as well.
 */
#ifndef PJ_USER_REPORT_JFR_TYPES_H
#define PJ_USER_REPORT_JFR_TYPES_H

#include "report/jfr_chunk.h"

enum jfr_type_id {
	JFR_T_METADATA = 0,
	JFR_T_CHECKPOINT = 1,

	JFR_T_BOOLEAN = 4,
	JFR_T_CHAR = 5,
	JFR_T_FLOAT = 6,
	JFR_T_DOUBLE = 7,
	JFR_T_BYTE = 8,
	JFR_T_SHORT = 9,
	JFR_T_INT = 10,
	JFR_T_LONG = 11,

	JFR_T_STRING = 20,
	JFR_T_CLASS = 21,
	JFR_T_THREAD = 22,
	JFR_T_CLASS_LOADER = 23,
	JFR_T_FRAME_TYPE = 24,
	JFR_T_THREAD_STATE = 25,
	JFR_T_STACK_TRACE = 26,
	JFR_T_STACK_FRAME = 27,
	JFR_T_METHOD = 28,
	JFR_T_PACKAGE = 29,
	JFR_T_SYMBOL = 30,
	JFR_T_THREAD_GROUP = 31,

	JFR_T_EXECUTION_SAMPLE = 101,
	JFR_T_WALL_CLOCK_SAMPLE = 102,
	JFR_T_EVENT_SAMPLE = 103,
	JFR_T_ALLOCATION_SAMPLE = 104,
	JFR_T_MONITOR_ENTER = 105,
	JFR_T_THREAD_PARK = 106,
	JFR_T_ACTIVE_RECORDING = 107,
	JFR_T_ACTIVE_SETTING = 108,
	JFR_T_OS_INFORMATION = 109,
	JFR_T_JVM_INFORMATION = 110,
	JFR_T_ALLOCATION_IN_TLAB = 111,
	JFR_T_ALLOCATION_OUTSIDE_TLAB = 112,

	JFR_T_LABEL = 201,
	JFR_T_CATEGORY = 202,
	JFR_T_DESCRIPTION = 203,
	JFR_T_CONTENT_TYPE = 204,
	JFR_T_TIMESTAMP = 205,
	JFR_T_TIMESPAN = 206,
	JFR_T_DATA_AMOUNT = 207,
	JFR_T_MEMORY_ADDRESS = 208,
	JFR_T_UNSIGNED = 209,
};

/* jdk.types.FrameType keys, as async-profiler numbers them. */
enum jfr_frame_type {
	JFR_FRAME_INTERPRETED = 0,
	JFR_FRAME_JIT = 1,
	JFR_FRAME_INLINED = 2,
	JFR_FRAME_NATIVE =
	    3, /* C code, or a Java native method (with a class) */
	JFR_FRAME_CPP = 4,
	JFR_FRAME_KERNEL = 5,
	JFR_FRAME_C1 = 6,
	JFR_NFRAME_TYPES
};
extern const char *const jfr_frame_type_names[JFR_NFRAME_TYPES];

/*
 * Appends the metadata event declaring every type, with the event types
 * of the bits set in events (1 << (id - 100), of the JFR_T_* event ids).
 * start_ticks is its time.
 */
void jfr_write_metadata(struct jfr_buf *b, uint64_t start_ticks,
			uint64_t events);

static inline uint64_t jfr_event_bit(enum jfr_type_id t)
{
	return 1ull << (t - 100);
}

#endif
