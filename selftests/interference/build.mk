# SPDX-License-Identifier: GPL-2.0
# chanstream, the busy channel of chan-llc.sh: a static guest program on
# root Linux's channel library (chan/linux/ with the core), staged into
# the guest's /suites/interference/ with the folder's other programs.
$(GUEST)/interference/chanstream: selftests/interference/chanstream.c \
		$(CHAN_SRCS) $(CHAN_HDRS) $(CHAN_LINUX_SRCS) $(CHAN_LINUX_HDRS) \
		include/colorguard/llcsim.h
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $< $(CHAN_SRCS) $(CHAN_LINUX_SRCS)

# Comm colors under the model (selftests/interference/chan-llc.sh): the
# critical task solo, next to a busy channel in comm colors, in the
# critical colors, in root Linux's; the table
# (chan-llc-report, run by host-check) in build/chan-llc-report/, with
# its provenance. Not part of make check (some minutes a boot).
# The boot is multi-threaded, as make demo's and rt-report's model boots:
# in arm64's deterministic one (-icount, one TCG thread taking the vCPUs
# in turn) CPU 1 ran no instruction at all while critbench's window was
# open, so nothing of the channel met it in the LLC. VM_ICOUNT= asks for
# the deterministic boot all the same.
.PHONY: chan-llc-report
chan-llc-report: modules guest guest-tools llcsim
	@mkdir -p $(BUILD)/chan-llc-report
	@scripts/provenance "make chan-llc-report ARCH=$(ARCH)" $(ARCH):debian \
		> $(BUILD)/chan-llc-report/$(ARCH)-provenance.txt
	VM_ICOUNT=$${VM_ICOUNT-off} scripts/vm/run --arch $(ARCH) \
		--results $(BUILD)/chan-llc-report interference/chan-llc.sh
# Host test of its table: known windows and reader lines, by hand.
HOST_TAP_TESTS += selftests/interference/host-chan-llc
