# SPDX-License-Identifier: GPL-2.0
# The colorguard config tool: host binary linked with hv-color and libconfig.
CG_TOOL := $(BUILD)/host/colorguard/colorguard
# The cell runner's host side (cells/runner/) is part of the tool.
CG_CELL_HOST_SRCS := cells/runner/cell_host.c cells/runner/cell_state.c \
	cells/runner/cli_host.c
CG_TOOL_SRCS := $(filter-out %/fuzz_config.c,$(wildcard scripts/colorguard/*.c)) \
	$(CG_CELL_HOST_SRCS)
CG_TOOL_LIB_SRCS := $(filter-out %/main.c,$(CG_TOOL_SRCS))
CG_TOOL_HDRS := $(wildcard scripts/colorguard/*.h include/colorguard/*.h \
	cells/runner/*.h)
CG_TOOL_INC := -I$(TOP)/scripts/colorguard -I$(TOP)/cells/runner
CG_LIBCONFIG_CFLAGS := $(shell pkg-config --cflags libconfig 2>/dev/null)
CG_LIBCONFIG_LIBS := $(or $(shell pkg-config --libs libconfig 2>/dev/null),-lconfig)

$(CG_TOOL): $(CG_TOOL_SRCS) $(CG_TOOL_HDRS) $(HV_COLOR_SRCS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) $(CG_TOOL_INC) $(CG_LIBCONFIG_CFLAGS) -o $@ $(CG_TOOL_SRCS) \
		$(HV_COLOR_SRCS) $(CG_LIBCONFIG_LIBS)

# The tool needs hv-color; until its sources are in the tree there is nothing
# to build.
ifneq ($(and $(wildcard include/colorguard/hv_color.h),$(strip $(HV_COLOR_SRCS))),)
HOST_ALL += $(CG_TOOL)
endif

# libFuzzer target for the config parser (run by hv-color's fuzz runner).
CG_FUZZ_CONFIG := $(BUILD)/host/colorguard/fuzz-config
CG_FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -I$(TOP)/include $(CG_TOOL_INC)
$(CG_FUZZ_CONFIG): scripts/colorguard/fuzz_config.c $(CG_TOOL_LIB_SRCS) \
		$(CG_TOOL_HDRS) $(HV_COLOR_SRCS)
	@mkdir -p $(dir $@)
	clang $(CG_FUZZ_CFLAGS) $(CG_LIBCONFIG_CFLAGS) -o $@ \
		scripts/colorguard/fuzz_config.c $(CG_TOOL_LIB_SRCS) \
		$(HV_COLOR_SRCS) $(CG_LIBCONFIG_LIBS)
FUZZ_TARGETS += $(CG_FUZZ_CONFIG)
