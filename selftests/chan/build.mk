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

# The keeper and root Linux's library together (selftests/chan/keeper/):
# each test runs a --no-color keeper of its own in a child, on a socket in
# a temporary folder, under the same sanitizers; the CLI's shell test
# drives the tool. Both need the tool's config code, hence hv-color.
CHAN_KEEP_TESTS := $(patsubst selftests/chan/keeper/%.c,$(CHAN_OUT)/keeper/%,\
	$(wildcard selftests/chan/keeper/test_*.c))
CHAN_KEEP_TEST_SRCS := $(filter-out cells/keeper/cli_%,$(CG_KEEPER_SRCS)) \
	$(CHAN_LINUX_SRCS) cells/runner/unit_notify.c $(CG_TOOL_LIB_SRCS) $(HV_COLOR_SRCS)
$(CHAN_OUT)/keeper/test_%: selftests/chan/keeper/test_%.c selftests/chan/keeper/keeper_test.h \
		$(CHAN_KEEP_TEST_SRCS) $(CG_KEEPER_HDRS) $(CHAN_LINUX_HDRS) $(CG_TOOL_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(CHAN_TEST_CFLAGS) $(CG_KEEPER_CFLAGS) -Icells/runner -Iscripts/colorguard \
		$(CG_LIBCONFIG_CFLAGS) -o $@ $< $(CHAN_KEEP_TEST_SRCS) $(CG_LIBCONFIG_LIBS)

ifneq ($(filter $(CG_TOOL),$(HOST_ALL)),)
HOST_TAP_TESTS += $(CHAN_KEEP_TESTS) selftests/chan/keeper/cli.sh
endif

# The channel benchmarks (selftests/chan/bench/): a host program on
# libcolorguard-chan, run by its script against a --no-color keeper.
# make bench-chan prints the table and writes it to build/bench/chan.txt;
# make bench runs it first, on the host, before its VM boots. Built with
# the host tools so that it keeps compiling; it reports, never asserts.
CHAN_BENCH := $(CHAN_OUT)/bench/chan-bench
CHAN_BENCH_SRCS := $(wildcard selftests/chan/bench/*.c)
$(CHAN_BENCH): $(CHAN_BENCH_SRCS) selftests/chan/bench/bench.h $(CHAN_LIB)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -pthread -o $@ $(CHAN_BENCH_SRCS) $(CHAN_LIB)
HOST_ALL += $(CHAN_BENCH)

.PHONY: bench-chan
bench-chan: $(CHAN_BENCH) $(CG_TOOL)
	@mkdir -p $(BUILD)/bench
	@scripts/provenance "make bench-chan" > $(BUILD)/bench/chan-provenance.txt
	@selftests/chan/bench/run $(CHAN_BENCH) $(CG_TOOL) $(BUILD)/bench/chan.txt
