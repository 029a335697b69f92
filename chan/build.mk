# SPDX-License-Identifier: GPL-2.0
# chan: the freestanding channel core (issue 28, cells that talk). Host
# programs link these files directly; an inmate library can too.
CHAN_SRCS := chan/copy.c chan/geom.c chan/open.c chan/queue.c chan/state.c chan/wait.c
CHAN_HDRS := include/colorguard/chan.h chan/chan_internal.h
