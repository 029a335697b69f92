# SPDX-License-Identifier: GPL-2.0
# mm-color's pure files on the host (TAP): the mask adapters and the status
# line, compiled through a shim of the few kernel headers they include,
# with hv-color's sources and the same sanitizers as hv-color's tests.
MMC_HOST_OUT := $(BUILD)/host/mm-color
MMC_SHIM := selftests/mm-color/host/shim
MMC_HOST_SRCS := mm-color/mask_adapt.c mm-color/state.c

$(MMC_HOST_OUT)/test_%: selftests/mm-color/host/test_%.c $(MMC_HOST_SRCS) \
		mm-color/mm_color_int.h $(wildcard $(MMC_SHIM)/linux/*.h) \
		$(HV_COLOR_SRCS) $(HV_COLOR_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HVC_TEST_CFLAGS) -I$(MMC_SHIM) -Imm-color -o $@ $< \
		$(MMC_HOST_SRCS) $(HV_COLOR_SRCS)

HOST_TAP_TESTS += $(patsubst selftests/mm-color/host/%.c,$(MMC_HOST_OUT)/%,\
	$(wildcard selftests/mm-color/host/test_*.c))
