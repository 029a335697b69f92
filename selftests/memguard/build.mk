# SPDX-License-Identifier: GPL-2.0
# memguard's host test: memguard/parse.c (budgets, budget lists, event
# names, the numeric ranges) built for the host against
# selftests/memguard/host/host_shim.h, with ASan and UBSan. The rest of
# memguard is tested in the VM (vm-run).
MG_HOST_OUT := $(BUILD)/host/memguard
MG_PARSE_TEST := $(MG_HOST_OUT)/test_parse
MG_PARSE_CFLAGS := $(HOST_CFLAGS) -isystem $(KSFT_INC) -Iselftests/memguard/host \
	-Imemguard -fsanitize=address,undefined -fno-sanitize-recover=all

$(MG_PARSE_TEST): selftests/memguard/host/test_parse.c memguard/parse.c \
		memguard/parse.h selftests/memguard/host/host_shim.h \
		include/colorguard/limits.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(MG_PARSE_CFLAGS) -o $@ $< memguard/parse.c

HOST_TAP_TESTS += $(MG_PARSE_TEST)
