# SPDX-License-Identifier: GPL-2.0
# The LLC model's host test: its DRAM queueing term (scripts/llcsim/dram.c)
# against mean-value analysis of a closed system, with ASan and UBSan. The
# rest of the model is tested in the VM (vm-run, host-check, repeat).
LLC_HOST_OUT := $(BUILD)/host/llc-model
LLC_DRAM_TEST := $(LLC_HOST_OUT)/test_dram
LLC_DRAM_CFLAGS := $(HOST_CFLAGS) -isystem $(KSFT_INC) -Iscripts/llcsim \
	-fsanitize=address,undefined -fno-sanitize-recover=all

$(LLC_DRAM_TEST): selftests/llc-model/host/test_dram.c scripts/llcsim/dram.c \
		scripts/llcsim/dram.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(LLC_DRAM_CFLAGS) -o $@ $< scripts/llcsim/dram.c -lm

HOST_TAP_TESTS += $(LLC_DRAM_TEST)
