#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# rt.sh booted under the shared-LLC model (this folder's llc-model file
# names this script, not rt.sh): make rt-report's second boot.
exec sh ./rt.sh "$@"
