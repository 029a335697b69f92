# SPDX-License-Identifier: GPL-2.0
# llcsim: the shared-LLC model, a QEMU TCG plugin run by the host's QEMU
# (one build for both guest architectures). It needs QEMU's plugin header
# (scripts/install-deps fetches it from the installed QEMU's source
# package) and glib. scripts/vm/run loads it for the suites that ask for it
# (an llc-model file in the suite's folder) and for make llc-report.
LLCSIM_SO := $(BUILD)/host/llcsim/libllcsim.so
LLCSIM_HDR := $(CACHE)/qemu-plugin/qemu-plugin.h
# Hidden by default: QEMU sees only what QEMU_PLUGIN_EXPORT marks, and the
# globals the files share cannot be interposed.
LLCSIM_CFLAGS := -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -std=gnu11 \
	-fPIC -shared -fvisibility=hidden -I$(TOP)/include -I$(CACHE)/qemu-plugin
# The plugin's glue (llcsim.c) calls the model (model.c, its DRAM term in
# dram.c) and the report.
LLCSIM_SRCS := scripts/llcsim/llcsim.c scripts/llcsim/model.c scripts/llcsim/dram.c \
	scripts/llcsim/report.c

$(LLCSIM_HDR):
	scripts/install-deps qemu-plugin

$(LLCSIM_SO): $(LLCSIM_SRCS) scripts/llcsim/llcsim_int.h scripts/llcsim/dram.h \
		include/colorguard/llcsim.h $(HV_COLOR_SRCS) $(HV_COLOR_HDRS) | $(LLCSIM_HDR)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(LLCSIM_CFLAGS) $$(pkg-config --cflags glib-2.0) -o $@ \
		$(LLCSIM_SRCS) hv-color/mask.c

.PHONY: llcsim
llcsim: $(LLCSIM_SO)
check-vm vm-shell demo: llcsim

# The interference scenario under the model, seven configurations
# (selftests/interference/llc.sh): table and plot in build/llc-report/,
# with the provenance the docs' results page shows beside them.
# Not part of make check (several minutes per architecture).
.PHONY: llc-report
llc-report: modules guest guest-tools llcsim
	@mkdir -p $(BUILD)/llc-report
	@scripts/provenance "make llc-report ARCH=$(ARCH)" $(ARCH):debian \
		> $(BUILD)/llc-report/$(ARCH)-provenance.txt
	scripts/vm/run --arch $(ARCH) --results $(BUILD)/llc-report interference/llc.sh

# Host test of the scenario report (host-check) on a TSV of known windows.
HOST_TAP_TESTS += selftests/interference/host-llc
