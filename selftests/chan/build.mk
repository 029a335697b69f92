# SPDX-License-Identifier: GPL-2.0
# Channel core host tests (TAP, ASan and UBSan), the deterministic
# mutation run and the libFuzzer target.
CHAN_OUT := $(BUILD)/host/chan
CHAN_TESTS := $(patsubst selftests/chan/%.c,$(CHAN_OUT)/%,\
	$(wildcard selftests/chan/test_*.c))
CHAN_TEST_CFLAGS := $(HOST_CFLAGS) -isystem $(KSFT_INC) -pthread \
	-fsanitize=address,undefined -fno-sanitize-recover=all
CHAN_TEST_DEPS := selftests/chan/chan_test.h $(CHAN_SRCS) $(CHAN_HDRS)

$(CHAN_OUT)/test_%: selftests/chan/test_%.c $(CHAN_TEST_DEPS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(CHAN_TEST_CFLAGS) -o $@ $< $(CHAN_SRCS)

HOST_TAP_TESTS += $(CHAN_TESTS)

# The deterministic mutation run, under the same sanitizers (~2 s).
$(CHAN_OUT)/mutate: selftests/chan/mutate.c selftests/chan/hostile.h $(CHAN_TEST_DEPS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(CHAN_TEST_CFLAGS) -o $@ $< $(CHAN_SRCS)
HOST_TAP_TESTS += $(CHAN_OUT)/mutate

# libFuzzer target, run with the others by selftests/hv-color/fuzz-run.
FUZZ_TARGETS += $(CHAN_OUT)/fuzz/fuzz_chan
$(CHAN_OUT)/fuzz/fuzz_chan: selftests/chan/fuzz_chan.c selftests/chan/hostile.h \
		$(CHAN_TEST_DEPS)
	@mkdir -p $(dir $@)
	clang $(HVC_FUZZ_CFLAGS) -o $@ $< $(CHAN_SRCS)
