# SPDX-License-Identifier: GPL-2.0
# chanstream, the busy channel of chan-llc.sh: a static guest program on
# root Linux's channel library (chan/linux/ with the core), staged into
# the guest's /suites/interference/ with the folder's other programs.
$(GUEST)/interference/chanstream: selftests/interference/chanstream.c \
		$(CHAN_SRCS) $(CHAN_HDRS) $(CHAN_LINUX_SRCS) $(CHAN_LINUX_HDRS) \
		include/colorguard/llcsim.h
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $< $(CHAN_SRCS) $(CHAN_LINUX_SRCS)
