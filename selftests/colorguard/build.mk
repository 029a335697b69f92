# SPDX-License-Identifier: GPL-2.0
# Host TAP tests of the colorguard tool; they need the tool, which needs
# hv-color (see scripts/colorguard/build.mk).
ifneq ($(filter $(CG_TOOL),$(HOST_ALL)),)
HOST_TAP_TESTS += selftests/colorguard/run
endif
