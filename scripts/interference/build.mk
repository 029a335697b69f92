# SPDX-License-Identifier: GPL-2.0
# Guest side of the interference suite and of `make demo`: the colorguard
# tool built statically for the guest (libconfig's static library: the
# host's for x86_64, libconfig-dev:arm64 from scripts/install-deps for
# arm64), the real-hardware runner and the demo's configs, all staged into
# $(GUEST)/interference/ and so into the guest's /suites/interference/.
CG_GUEST_LIBCONFIG := $(CACHE)/guest/arm64/libconfig
ifeq ($(ARCH),arm64)
CG_GUEST_CFG_FLAGS := -I$(CG_GUEST_LIBCONFIG)/usr/include
CG_GUEST_CFG_LIBS := $(CG_GUEST_LIBCONFIG)/usr/lib/aarch64-linux-gnu/libconfig.a
else
CG_GUEST_CFG_FLAGS :=
CG_GUEST_CFG_LIBS := -l:libconfig.a
endif
CG_GUEST_TOOL := $(GUEST)/interference/colorguard
GUEST_TOOLS := $(CG_GUEST_TOOL) $(GUEST)/interference/hwrun \
	$(GUEST)/interference/demo.cfg $(GUEST)/interference/channels.cfg

$(CG_GUEST_TOOL): $(CG_TOOL_SRCS) $(CG_TOOL_HDRS) $(HV_COLOR_SRCS) $(CG_RUNNER_SRCS_GUEST) \
		$(CG_KEEPER_SRCS) $(CG_KEEPER_HDRS)
	@[ "$(ARCH)" != arm64 ] || [ -f $(CG_GUEST_LIBCONFIG)/usr/lib/aarch64-linux-gnu/libconfig.a ] || \
		scripts/install-deps vm
	@mkdir -p $(dir $@)
	$(GUEST_CC) -O2 -static -Wall -Wextra -Werror -std=gnu11 -I$(TOP)/include \
		$(CG_RUNNER_CFLAGS) $(CG_KEEPER_CFLAGS) $(CG_GUEST_CFG_FLAGS) -o $@ $(CG_TOOL_SRCS) \
		$(CG_RUNNER_SRCS_GUEST) $(CG_KEEPER_SRCS) $(HV_COLOR_SRCS) $(CG_GUEST_CFG_LIBS)
$(GUEST)/interference/hwrun: scripts/interference/run
	@mkdir -p $(dir $@)
	cp $< $@
$(GUEST)/interference/demo.cfg: scripts/colorguard/examples/demo.cfg
	@mkdir -p $(dir $@)
	cp $< $@
$(GUEST)/interference/channels.cfg: scripts/colorguard/examples/channels.cfg
	@mkdir -p $(dir $@)
	cp $< $@

.PHONY: guest-tools
guest-tools: $(GUEST_TOOLS)
check-vm vm-shell check-negative: guest-tools

# Host test of the runner's report: summary and plot from recorded samples.
HOST_TAP_TESTS += selftests/interference/host-report

# The real-time cell next to the hog (selftests/interference/rt.sh): one
# plain TCG boot (the mechanics; times are the host's) and one under the
# shared-LLC model (rt-llc.sh), both running KVM; the table and the plot
# (selftests/interference/rt-report) in build/rt-report/, with their
# provenance. Not part of make check (several minutes a boot).
.PHONY: rt-report
# A boot that fails still leaves the other boot and the report to run;
# make then fails, and the report has no figures of an earlier run. The
# model boot is multi-threaded, as make demo's: arm64's deterministic
# (-icount) boot did not get through the memguard configuration in 900 s
# (VM_ICOUNT= asks for it all the same).
rt-report: rt-report-deps
	@$(MAKE) --no-print-directory modules guest guest-tools llcsim ARCH=$(ARCH)
	@mkdir -p $(BUILD)/rt-report
	@rm -f $(BUILD)/rt-report/$(ARCH)-interference-rt*.tap $(BUILD)/rt-report/$(ARCH)-llc*.tsv
	@scripts/provenance "make rt-report ARCH=$(ARCH)" $(ARCH):debian \
		> $(BUILD)/rt-report/$(ARCH)-provenance.txt
	@rc=0; \
	VM_KVM=1 scripts/vm/run --arch $(ARCH) --results $(BUILD)/rt-report interference/rt.sh || rc=1; \
	VM_KVM=1 VM_ICOUNT=$${VM_ICOUNT-off} scripts/vm/run --arch $(ARCH) --timeout 1800 \
		--results $(BUILD)/rt-report interference/rt-llc.sh || rc=1; \
	selftests/interference/rt-report $(BUILD)/rt-report $(ARCH) || rc=1; \
	exit $$rc
.PHONY: rt-report-deps
rt-report-deps:
	@scripts/install-deps all
# Host test of its table: two boots' results and a model TSV, by hand.
HOST_TAP_TESTS += selftests/interference/host-rt
