# SPDX-License-Identifier: GPL-2.0
# The colorguard config tool: host binary linked with hv-color and libconfig.
CG_TOOL := $(BUILD)/host/colorguard/colorguard
# The channel core (chan/) checks the config's channel geometries.
CG_TOOL_SRCS := $(filter-out %/fuzz_config.c,$(wildcard scripts/colorguard/*.c)) $(CHAN_SRCS)
CG_TOOL_LIB_SRCS := $(filter-out %/main.c,$(CG_TOOL_SRCS))
CG_TOOL_HDRS := $(wildcard scripts/colorguard/*.h include/colorguard/*.h) \
	$(CG_RUNNER_HDRS) $(CHAN_HDRS)
CG_LIBCONFIG_CFLAGS := $(shell pkg-config --cflags libconfig 2>/dev/null)
CG_LIBCONFIG_LIBS := $(or $(shell pkg-config --libs libconfig 2>/dev/null),-lconfig)

# The channel keeper and `colorguard chan` (cells/keeper/), with root
# Linux's channel library (chan/build.mk).
CG_KEEPER_SRCS := $(wildcard cells/keeper/*.c)
CG_KEEPER_HDRS := $(wildcard cells/keeper/*.h)
CG_KEEPER_CFLAGS := -Icells/keeper

# The cell runner (cells/build.mk) is linked in: its x86 arch file here.
$(CG_TOOL): $(CG_TOOL_SRCS) $(CG_TOOL_HDRS) $(HV_COLOR_SRCS) $(CG_RUNNER_SRCS_HOST) \
		$(CG_KEEPER_SRCS) $(CG_KEEPER_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $(CG_RUNNER_CFLAGS) $(CG_KEEPER_CFLAGS) $(CG_LIBCONFIG_CFLAGS) -o $@ \
		$(CG_TOOL_SRCS) $(CG_RUNNER_SRCS_HOST) $(CG_KEEPER_SRCS) \
		$(HV_COLOR_SRCS) $(CG_LIBCONFIG_LIBS)

# The tool needs hv-color; until its sources are in the tree there is nothing
# to build.
ifneq ($(and $(wildcard include/colorguard/hv_color.h),$(strip $(HV_COLOR_SRCS))),)
HOST_ALL += $(CG_TOOL)
endif

# libFuzzer target for the config parser (run by hv-color's fuzz runner).
CG_FUZZ_CONFIG := $(BUILD)/host/colorguard/fuzz-config
CG_FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -I$(TOP)/include -Iscripts/colorguard
$(CG_FUZZ_CONFIG): scripts/colorguard/fuzz_config.c $(CG_TOOL_LIB_SRCS) \
		$(CG_TOOL_HDRS) $(HV_COLOR_SRCS)
	@mkdir -p $(dir $@)
	clang $(CG_FUZZ_CFLAGS) $(CG_LIBCONFIG_CFLAGS) -o $@ \
		scripts/colorguard/fuzz_config.c $(CG_TOOL_LIB_SRCS) \
		$(HV_COLOR_SRCS) $(CG_LIBCONFIG_LIBS)
FUZZ_TARGETS += $(CG_FUZZ_CONFIG)
