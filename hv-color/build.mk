# SPDX-License-Identifier: GPL-2.0
# hv-color: freestanding page-color core. Kbuild compiles these files into
# the modules (see mm-color/Kbuild); host programs link them directly.
HV_COLOR_SRCS := hv-color/mask.c hv-color/region.c hv-color/alloc.c \
	hv-color/blob.c hv-color/validate.c hv-color/error.c
HV_COLOR_HDRS := $(wildcard include/colorguard/*.h) hv-color/hvc_internal.h
