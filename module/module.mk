# The optional kernel module perfjava_ksym.ko, an out-of-tree Kbuild build.
#
#   make module [KDIR=<kernel headers>]   -> $(BUILD)/module/perfjava_ksym.ko
#   make module-checkpatch CHECKPATCH=<linux>/scripts/checkpatch.pl
#
# KDIR defaults to the running kernel's headers, as usual for out-of-tree
# modules. Kbuild writes its objects next to the sources, so the sources
# are copied to $(BUILD)/module first and built there.

KDIR       ?= /lib/modules/$(shell uname -r)/build
KMOD_DIR    = $(abspath $(BUILD))/module
KMOD_FILES := Kbuild module/perfjava_ksym.c include/perfjava/ksym.h

module:
	@test -f "$(KDIR)/Makefile" || { echo "make module: no kernel headers in $(KDIR); install linux-headers-$$(uname -r) or pass KDIR=<headers dir>" >&2; exit 1; }
	@mkdir -p $(KMOD_DIR)/module $(KMOD_DIR)/include/perfjava
	@for f in $(KMOD_FILES); do cmp -s $$f $(KMOD_DIR)/$$f || cp $$f $(KMOD_DIR)/$$f; done
	$(MAKE) -C "$(KDIR)" M=$(KMOD_DIR) modules

CHECKPATCH ?= scripts/checkpatch.pl
module-checkpatch:
	$(CHECKPATCH) --no-tree --strict -f module/perfjava_ksym.c

.PHONY: module module-checkpatch
