# SPDX-License-Identifier: GPL-2.0
# Host TAP tests of the colorguard tool; they need the tool, which needs
# hv-color (see scripts/colorguard/build.mk).
CG_ROUNDTRIP := $(BUILD)/host/colorguard/blob-roundtrip
$(CG_ROUNDTRIP): selftests/colorguard/blob_roundtrip.c $(CG_TOOL_LIB_SRCS) \
		$(CG_TOOL_HDRS) $(HV_COLOR_SRCS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -isystem $(KSFT_INC) -Iscripts/colorguard \
		-DCG_EXAMPLES='"$(TOP)/scripts/colorguard/examples"' \
		$(CG_LIBCONFIG_CFLAGS) -o $@ $< $(CG_TOOL_LIB_SRCS) \
		$(HV_COLOR_SRCS) $(CG_LIBCONFIG_LIBS)

ifneq ($(filter $(CG_TOOL),$(HOST_ALL)),)
HOST_TAP_TESTS += selftests/colorguard/run $(CG_ROUNDTRIP)
endif
