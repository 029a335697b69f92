# SPDX-License-Identifier: GPL-2.0
HOST_TAP_TESTS += selftests/bed/host-stall
