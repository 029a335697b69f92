# SPDX-License-Identifier: GPL-2.0
# chan: the freestanding channel core (issue 28, cells that talk). Host
# programs link these files directly; an inmate library can too.
CHAN_SRCS := chan/copy.c chan/geom.c chan/open.c chan/queue.c chan/state.c chan/wait.c
CHAN_HDRS := include/colorguard/chan.h chan/chan_internal.h

# Root Linux's channel library (chan/linux/): an end opened through the
# keeper, with the core. The tool links the sources; user programs can
# link the static library, libcolorguard-chan.a (with -I include).
CHAN_LINUX_SRCS := $(wildcard chan/linux/*.c)
CHAN_LINUX_HDRS := $(wildcard chan/linux/*.h) include/colorguard/chan_linux.h \
	include/colorguard/chan_keep.h
CHAN_LIB := $(BUILD)/host/lib/libcolorguard-chan.a
CHAN_LIB_OBJS := $(patsubst %.c,$(BUILD)/host/lib/obj/%.o,$(CHAN_SRCS) $(CHAN_LINUX_SRCS))

$(BUILD)/host/lib/obj/%.o: %.c $(CHAN_HDRS) $(CHAN_LINUX_HDRS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(HOST_CFLAGS) -c -o $@ $<
$(CHAN_LIB): $(CHAN_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^
HOST_ALL += $(CHAN_LIB)
