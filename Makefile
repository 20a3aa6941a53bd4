# perfjava: the one entry point for building, testing and installing dependencies.
#
#   make            build build/perfjava (and the agent, when agent/ exists)
#   make deps       install build dependencies from Debian packages (idempotent)
#   make test       the quick layer, in under a minute: the unit tests
#                   (selftests/unit/), the docs checks (selftests/docs/) and
#                   the report tests on made-up profiles (no perf event, no
#                   JVM of their own: TEST_QUICK below)
#   make check      build and run every test in selftests/ (TAP, summary line;
#                   PJ_JOBS at a time, the cores by default)
#   make bench      benchmarks (ratios measured in one run)
#   make stress     attach cycles, soak, SIGKILLs (minutes; not in check)
#   make fuzz       fuzz each parser of untrusted bytes (FUZZ_SECONDS=60 each)
#   make demo       profile a bundled program and write a report
#   make format     clang-format the tree
#   make lint       gcc and clang with -Werror, cppcheck, clang-format checked
#   make sanitize   unit, parser and record tests under ASan and UBSan

VERSION   := 0.1.0
BUILD     ?= build
CC        ?= gcc
DEPS_PREFIX ?= $(CURDIR)/build/deps
export PKG_CONFIG_PATH := $(DEPS_PREFIX)/lib/pkgconfig:$(PKG_CONFIG_PATH)

# `make` and `make check` install what is missing first.
DEPS_STAMP := $(BUILD)/.deps-ok
PKGS       := libperf libelf libdw libtraceevent

# -MMD -MP: every object depends on the headers it includes (build/**/*.d).
# Two warnings of -Wextra are off, on purpose: unused-parameter (callbacks
# and hooks keep the signature of their table: JVMTI, libperf, wait kinds)
# and missing-field-initializers (designated initializers leave the other
# fields zero, as C says). `make lint` adds WERROR=-Werror.
CFLAGS_BASE := -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
	-Wno-missing-field-initializers -D_GNU_SOURCE -Iinclude -MMD -MP \
	-DPERFJAVA_VERSION='"$(VERSION)"' $(WERROR)
# `make sanitize` builds the reader and the unit tests with SANITIZE set.
USER_CFLAGS := -Iuser $(SANITIZE)
PKGCONF    = PKG_CONFIG_PATH="$(PKG_CONFIG_PATH)" pkg-config
PKG_CFLAGS = $(shell $(PKGCONF) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell $(PKGCONF) --static --libs libperf 2>/dev/null) \
	$(shell $(PKGCONF) --libs libelf libdw libtraceevent 2>/dev/null)
# Hardened: perfjava runs as root against processes it must not trust, and
# the agent runs inside them (checked by selftests/security/test_hardening.sh).
HARDEN_CFLAGS  := -fstack-protector-strong -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=2
HARDEN_LDFLAGS := -Wl,-z,relro,-z,now
CFLAGS  += $(CFLAGS_BASE) $(HARDEN_CFLAGS)
LDFLAGS += $(HARDEN_LDFLAGS)
LDLIBS  += -lstdc++ -lz -lpthread -lm

USER_SRC  := $(wildcard user/*.c user/*/*.c)
USER_ASM  := $(wildcard user/*/*.S)
USER_OBJ  := $(patsubst %.c,$(BUILD)/%.o,$(USER_SRC)) \
	$(patsubst %.S,$(BUILD)/%.o,$(USER_ASM))
LIB_OBJ   := $(filter-out $(BUILD)/user/main.o,$(USER_OBJ))
UNIT_SRC  := $(wildcard selftests/unit/test_*.c)
UNIT_BIN  := $(patsubst selftests/unit/%.c,$(BUILD)/selftests/%,$(UNIT_SRC))
PROG_SRC  := $(wildcard selftests/progs/*.c)
PROG_BIN  := $(patsubst selftests/progs/%.c,$(BUILD)/progs/%,$(PROG_SRC))
NOFP_BIN  := $(BUILD)/progs/nofp $(BUILD)/progs/libpjnofp.so \
	$(BUILD)/progs/libpjstubs.so
AGENT_SRC := $(wildcard agent/*.c)
AGENT_SO  := $(if $(AGENT_SRC),$(BUILD)/libperfjava-agent.so)

all: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory binaries

binaries: $(BUILD)/perfjava $(AGENT_SO) $(PROG_BIN) $(NOFP_BIN) $(UNIT_BIN)

deps:
	@scripts/deps.sh "$(DEPS_PREFIX)"
	@mkdir -p $(BUILD) && touch $(DEPS_STAMP)

$(DEPS_STAMP): scripts/deps.sh
	@scripts/deps.sh "$(DEPS_PREFIX)"
	@mkdir -p $(BUILD) && touch $@

$(BUILD)/user/%.o: user/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(USER_CFLAGS) $(PKG_CFLAGS) -fPIE -c -o $@ $<

# The report's web pages, embedded with .incbin (paths from the top).
$(BUILD)/user/%.o: user/%.S
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ $<

$(BUILD)/user/report/pages.o: $(wildcard user/report/pages/*)

$(BUILD)/perfjava: $(USER_OBJ)
	$(CC) $(LDFLAGS) $(SANITIZE) -pie -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(BUILD)/libperfjava.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/selftests/%: selftests/unit/%.c $(BUILD)/libperfjava.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(USER_CFLAGS) $(PKG_CFLAGS) -Iselftests/unit -o $@ $< $(BUILD)/libperfjava.a $(SANITIZE) $(PKG_LIBS) $(LDLIBS)

# The agent's thread table, with a JNI environment of the test's own.
$(BUILD)/selftests/test_jthreads: selftests/unit/test_jthreads.c agent/jthreads.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(AGENT_CFLAGS) $(SANITIZE) -Iselftests/unit -o $@ $(filter %.c,$^) -lpthread

# The agent's code map, with inlining records built by the test.
$(BUILD)/selftests/test_codemap_top: selftests/unit/test_codemap_top.c agent/codemap.c agent/inlinerec.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(AGENT_CFLAGS) $(SANITIZE) -Iselftests/unit -o $@ $(filter %.c,$^) -lpthread

# The walk's frame cache, with writers and a reader of the test's own.
$(BUILD)/selftests/test_framecache: selftests/unit/test_framecache.c agent/framecache.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(AGENT_CFLAGS) $(SANITIZE) -Iselftests/unit -o $@ $(filter %.c,$^) -lpthread

# Test programs: frame pointers kept, so that -g fp gives whole stacks.
$(BUILD)/progs/%: selftests/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-inline -fno-optimize-sibling-calls -Wall -Wextra $(WERROR) -o $@ $< -lpthread -lz

# (the programs whose truth is also a timeline share its header)
$(BUILD)/progs/cpusplit $(BUILD)/progs/waits: selftests/progs/timeline.h

# A program and its shared library without frame pointers (gcc's -O2 as
# distributions build): for CFI unwinding. No inlining or tail calls, so that
# its call chain has a known depth.
NOFP_CFLAGS := -O2 -g -fomit-frame-pointer -fno-inline -fno-optimize-sibling-calls -Wall -Wextra $(WERROR)
$(BUILD)/progs/libpjnofp.so: selftests/progs/nofp/nofp_lib.c
	@mkdir -p $(dir $@)
	$(CC) $(NOFP_CFLAGS) -shared -fPIC -o $@ $<
# The JNI library of selftests/java/src/Stubs.java, likewise.
$(BUILD)/progs/libpjstubs.so: selftests/progs/stubs/stubs_jni.c
	@mkdir -p $(dir $@)
	$(CC) $(NOFP_CFLAGS) -I$(JAVA_HOME)/include -I$(JAVA_HOME)/include/linux -shared -fPIC -o $@ $<
$(BUILD)/progs/nofp: selftests/progs/nofp/nofp.c $(BUILD)/progs/libpjnofp.so
	$(CC) $(NOFP_CFLAGS) -o $@ $< -L$(BUILD)/progs -lpjnofp -Wl,-rpath,'$$ORIGIN'

$(BUILD)/agent/%.o: agent/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(AGENT_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

JAVA_HOME ?= $(firstword $(wildcard /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/default-java))
# The agent runs on JDK 17 and later; built with the newest JDK's headers
# there are, so that it knows virtual threads (JDK 21+; checked at run time).
AGENT_JDK ?= $(firstword $(wildcard /usr/lib/jvm/temurin-25-jdk-amd64) $(JAVA_HOME))
AGENT_CFLAGS = -I$(AGENT_JDK)/include -I$(AGENT_JDK)/include/linux -Iagent

# The walk leaves a fault with siglongjmp from inside a JVM thread's signal
# handler: __longjmp_chk's stack check must not get to abort() the JVM there.
$(BUILD)/agent/stackwalk.o: HARDEN_CFLAGS := -fstack-protector-strong

$(BUILD)/libperfjava-agent.so: $(patsubst %.c,$(BUILD)/%.o,$(AGENT_SRC))
	$(CC) -shared $(LDFLAGS) -o $@ $^ -ldl -lpthread

check: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory -j$(NPROC) binaries
	@selftests/run.sh

# What a developer runs every few minutes (the unit tests' own agent test
# starts two JVMs: still within the minute).
TEST_QUICK := selftests/test_,selftests/docs/,report/test_collapsed.sh,report/test_formats.sh,report/test_report_ux.sh,security/test_hardening.sh
test: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory -j$(NPROC) binaries
	@T="$(TEST_QUICK)" selftests/run.sh

bench: all
	@selftests/bench/run.sh

# minutes: attach cycles, a 1 kHz soak, recorder and JVM SIGKILLs
stress: all
	@selftests/stress/run.sh

# libFuzzer, clang: each parser of untrusted bytes for FUZZ_SECONDS (60)
FUZZ_SECONDS ?= 60
fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) selftests/fuzz/run.sh

# Only what the demo runs (no tests), on every core: a fresh machine's first
# taste should not wait for the test suite to compile.
NPROC := $(shell nproc 2>/dev/null || echo 2)
demo: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory -j$(NPROC) $(BUILD)/perfjava $(AGENT_SO) \
		$(BUILD)/progs/cpusplit
	@selftests/demo.sh

FORMAT_FILES = $$(git ls-files '*.c' '*.h' | grep -v '^module/')
format:
	clang-format -i $(FORMAT_FILES)

# Zero findings: every warning of gcc and clang is an error, cppcheck's
# too (scripts/lint.sh: its checks and each suppression with its reason),
# and clang-format has nothing to change. The kernel module (module/)
# follows the kernel's style and is built by Kbuild.
lint: $(DEPS_STAMP)
	@for cc in gcc clang; do \
		echo "lint: $$cc -Wall -Wextra -Werror"; \
		$(MAKE) --no-print-directory -s -j$(NPROC) \
			BUILD=$(BUILD)/lint-$$cc CC=$$cc WERROR=-Werror \
			binaries || exit 1; \
	done
	@scripts/lint.sh
	@echo "lint: clang-format"; clang-format --dry-run --Werror $(FORMAT_FILES)

# The reader, the unit tests and the test programs built with
# AddressSanitizer and UndefinedBehaviorSanitizer in $(BUILD)/san (the
# agent, which runs inside JVMs, as usual; its unit test sanitized), then
# SAN_TESTS: every unit test (the parsers' included), the record tests and
# report's hostile inputs, about 4 minutes of the CI's run. A finding fails
# it (scripts/sanitize.sh). Left out (SAN_SKIP): test_machine, the whole
# machine read by a reader ASan slows 2-3 times: too few samples for its
# attribution checks (its own run is make check's).
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
SAN_TESTS ?= selftests/test_,selftests/record/,test_report_inputs,test_pprof_hostile,test_java_names
SAN_SKIP ?= test_machine
sanitize: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory -s -j$(NPROC) BUILD=$(BUILD)/san \
		SANITIZE="$(SAN_FLAGS)" binaries
	@TX="$(SAN_SKIP)" scripts/sanitize.sh $(BUILD)/san "$(SAN_TESTS)"

clean:
	rm -rf $(BUILD)/lint-gcc $(BUILD)/lint-clang $(BUILD)/san $(BUILD)/user $(BUILD)/agent $(BUILD)/selftests $(BUILD)/progs \
		$(BUILD)/perfjava $(BUILD)/libperfjava.a $(BUILD)/libperfjava-agent.so

-include module/module.mk
-include $(shell find $(BUILD)/user $(BUILD)/agent $(BUILD)/selftests -name '*.d' 2>/dev/null)

.PHONY: all binaries deps test check bench stress fuzz demo format lint sanitize clean
