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
HOST_TAP_TESTS += selftests/hv-color/freestanding

# libFuzzer targets: others append theirs to FUZZ_TARGETS; one runner
# (selftests/hv-color/fuzz-run) runs them side by side for FUZZ_SECONDS and
# reports them all.
HVC_FUZZ_CFLAGS := -O1 -g -std=gnu11 -Wall -Wextra -Werror -I$(TOP)/include \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_TARGETS += $(HVC_OUT)/fuzz/fuzz_list $(HVC_OUT)/fuzz/fuzz_blob
$(HVC_OUT)/fuzz/fuzz_%: selftests/hv-color/fuzz_%.c $(HV_COLOR_SRCS) $(HV_COLOR_HDRS)
	@mkdir -p $(dir $@)
	clang $(HVC_FUZZ_CFLAGS) -o $@ $< $(HV_COLOR_SRCS)

$(HVC_OUT)/fuzz/fuzz_blob: $(HVC_OUT)/fuzz/fuzz_blob.seeds/three-cells
$(HVC_OUT)/fuzz/fuzz_blob.seeds/three-cells: selftests/hv-color/fuzz_blob.c \
		$(HV_COLOR_SRCS) $(HV_COLOR_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -DHVC_FUZZ_SEEDS -o $(HVC_OUT)/fuzz/mkseeds $< \
		$(HV_COLOR_SRCS)
	$(HVC_OUT)/fuzz/mkseeds $(dir $@)

$(HVC_OUT)/fuzz/fuzz_list: $(HVC_OUT)/fuzz/fuzz_list.seeds/lists
$(HVC_OUT)/fuzz/fuzz_list.seeds/lists:
	@mkdir -p $(dir $@)
	printf '0-3,8,10-11\n' > $@
	printf ' 1 ,2\t,,5-1023' > $(dir $@)/spaces
	printf '0-7:2/4' > $(dir $@)/group

# The runner's prerequisites are expanded late so appends after this file
# count as well.
.SECONDEXPANSION:
$(HVC_OUT)/fuzz-all: selftests/hv-color/fuzz-run $$(FUZZ_TARGETS)
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\nexec %s %s\n' "$(TOP)/selftests/hv-color/fuzz-run" \
		"$(FUZZ_TARGETS)" > $@
	chmod +x $@
HOST_TAP_TESTS += $(HVC_OUT)/fuzz-all

# Benchmark: make bench-hv-color prints the table.
$(HVC_OUT)/bench: selftests/hv-color/bench.c $(HV_COLOR_SRCS) $(HV_COLOR_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -o $@ $< $(HV_COLOR_SRCS)
.PHONY: bench-hv-color
bench-hv-color: $(HVC_OUT)/bench
	@selftests/hv-color/bench-run $<
