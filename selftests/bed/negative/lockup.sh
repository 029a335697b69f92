#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Planted soft lockup: the test module spins with preemption off at load;
# the guest must panic with the stuck CPU's stack instead of hanging.
. ../../lib/tap.sh
tap_plan 1
tap_check "load the test module with a planted soft lockup" \
	sh -c 'insmod /modules/cg_bed_test.ko plant=lockup && rmmod cg_bed_test'
tap_done
