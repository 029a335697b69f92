#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Planted failure: an in-guest test point that fails.
. ../../lib/tap.sh
tap_plan 2
tap_ok "a passing point"
tap_check "a planted failing point" false
tap_done
