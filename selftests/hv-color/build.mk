# SPDX-License-Identifier: GPL-2.0
# hv-color host tests (TAP), freestanding builds, fuzzing and benchmark.
HVC_OUT := $(BUILD)/host/hv-color
HVC_TESTS := $(patsubst selftests/hv-color/%.c,$(HVC_OUT)/%,\
	$(wildcard selftests/hv-color/test_*.c))
# Unit tests run with ASan and UBSan: a memory or UB bug fails the test.
HVC_TEST_CFLAGS := $(HOST_CFLAGS) -isystem $(KSFT_INC) \
	-fsanitize=address,undefined -fno-sanitize-recover=all

$(HVC_OUT)/test_%: selftests/hv-color/test_%.c $(HV_COLOR_SRCS) $(HV_COLOR_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HVC_TEST_CFLAGS) -o $@ $< $(HV_COLOR_SRCS)

HOST_TAP_TESTS += $(HVC_TESTS)
