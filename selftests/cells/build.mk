# SPDX-License-Identifier: GPL-2.0
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
