#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Planted hang: the guest never reaches its verdict.
. ../../lib/tap.sh
tap_plan 1
while :; do sleep 60; done
