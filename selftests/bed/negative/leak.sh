#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Planted bug: passes its own test but leaves a leak for the debug kernel to find.
. ../../lib/tap.sh
tap_plan 1
tap_check "load the test module with a planted leak" \
	sh -c 'insmod /modules/cg_bed_test.ko plant=leak && rmmod cg_bed_test'
tap_done
