# SPDX-License-Identifier: GPL-2.0
# libFuzzer target for the cell runner's exit handler: forged kvm_run
# structures and comm pages (selftests/cells/fuzz/fuzz_exit.c), run for
# FUZZ_SECONDS by hv-color's fuzz runner in make check-host. It links
# what the colorguard tool links, without main.
CELLS_FUZZ_EXIT := $(BUILD)/host/cells/fuzz/fuzz_exit
$(CELLS_FUZZ_EXIT): selftests/cells/fuzz/fuzz_exit.c $(CG_RUNNER_SRCS_HOST) \
		$(CG_RUNNER_HDRS) $(CG_TOOL_LIB_SRCS) $(CG_TOOL_HDRS) $(HV_COLOR_SRCS)
	@mkdir -p $(dir $@)
	clang $(CG_FUZZ_CFLAGS) $(CG_RUNNER_CFLAGS) $(CG_LIBCONFIG_CFLAGS) \
		-Wno-gnu-variable-sized-type-not-at-end -o $@ \
		selftests/cells/fuzz/fuzz_exit.c $(CG_RUNNER_SRCS_HOST) \
		$(CG_TOOL_LIB_SRCS) $(HV_COLOR_SRCS) $(CG_LIBCONFIG_LIBS)
FUZZ_TARGETS += $(CELLS_FUZZ_EXIT)

# The race test's driver, a static guest program linked with the runner
# and the config reader like the guest's colorguard tool
# (scripts/interference/build.mk), staged into the guest's
# /suites/cells/.
CELLS_RACE_RUNNER := $(GUEST)/cells/race_runner
$(CELLS_RACE_RUNNER): selftests/cells/race/race_runner.c $(CG_TOOL_LIB_SRCS) \
		$(CG_TOOL_HDRS) $(HV_COLOR_SRCS) $(CG_RUNNER_SRCS_GUEST)
	@mkdir -p $(dir $@)
	$(GUEST_CC) -O2 -static -Wall -Wextra -Werror -std=gnu11 -I$(TOP)/include \
		$(CG_RUNNER_CFLAGS) $(CG_GUEST_CFG_FLAGS) -o $@ $< \
		$(CG_TOOL_LIB_SRCS) $(CG_RUNNER_SRCS_GUEST) $(HV_COLOR_SRCS) \
		$(CG_GUEST_CFG_LIBS)
guest: $(CELLS_RACE_RUNNER)

# Host tests of the runner's console and text escaping (TAP, ASan and
# UBSan), linked like the fuzz target.
CELLS_HOST_TESTS := $(patsubst selftests/cells/host/%.c,$(BUILD)/host/cells/%,\
	$(wildcard selftests/cells/host/test_*.c))
$(BUILD)/host/cells/test_%: selftests/cells/host/test_%.c $(CG_RUNNER_SRCS_HOST) \
		$(CG_RUNNER_HDRS) $(CG_TOOL_LIB_SRCS) $(CG_TOOL_HDRS) $(HV_COLOR_SRCS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -isystem $(KSFT_INC) $(CG_RUNNER_CFLAGS) \
		$(CG_LIBCONFIG_CFLAGS) -fsanitize=address,undefined \
		-fno-sanitize-recover=all -o $@ $< $(CG_RUNNER_SRCS_HOST) \
		$(CG_TOOL_LIB_SRCS) $(HV_COLOR_SRCS) $(CG_LIBCONFIG_LIBS)
HOST_TAP_TESTS += $(CELLS_HOST_TESTS)

# chanpeer, the root Linux end of the channel tests (chan.sh): a static
# guest program on root Linux's channel library, staged into the guest's
# /suites/cells/.
CELLS_CHANPEER := $(GUEST)/cells/chanpeer
$(CELLS_CHANPEER): selftests/cells/chanpeer.c selftests/cells/chan_pattern.h \
		$(CHAN_SRCS) $(CHAN_HDRS) $(CHAN_LINUX_SRCS) $(CHAN_LINUX_HDRS)
	@mkdir -p $(dir $@)
	$(GUEST_CC) -O2 -static -Wall -Wextra -Werror -std=gnu11 -I$(TOP)/include \
		-o $@ $< $(CHAN_SRCS) $(CHAN_LINUX_SRCS)
guest: $(CELLS_CHANPEER)
