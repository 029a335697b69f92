#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Comm colors under the shared-LLC model (make chan-llc-report; this
# folder's llc-model file boots it with scripts/llcsim/): is a busy
# channel an interference path into the critical cell? chan-llc.cfg
# applied (root Linux on colors 0-5, the channel "bulk" on comm colors
# 6-7, the critical cell on 8-15), critbench's chase over 256 KiB of
# colors 8-15 on CPU 0, measured:
#   solo  alone;
#   comm  next to a busy channel on CPU 1: a writer and a reader process
#         streaming 4 KiB records through its 512 KiB ring, whose pages
#         the keeper makes in the channel's colors 6-7;
#   crit  the same, the ring's pages in the critical colors 8-15. The
#         config check refuses a channel in a cell's colors, so the keeper
#         runs with --no-color and root Linux is narrowed to 8-15 while
#         the writer first fills the ring, then set back to 0-5;
#   root  --no-color with root Linux on 0-5, as colorguard apply leaves
#         it: a memfd then has root Linux's colors.
# (A memfd filled while root Linux may use every color was tried as a
# control of pages of every color: the allocator gave it root Linux's
# recent pages, mostly of colors 4-5, compacted memory or not.)
# The reader and the writer share CPU 1 and yield it to each other when
# the ring is empty or full. Each critbench run is model window 31-34 (in
# the order above; five runs each), each reader's span from its first
# record to its stop window 42-44; the reader reports its records and the
# colors of the ring's pages (pagemap). host-check makes the table
# (chan-llc-report); figures are reported, not asserted: the points check
# that every configuration ran, that the channel delivered its records in
# order, and that the ring's pages were where the configuration says.
. ../lib/tap.sh

M=/sys/kernel/memguard
C=/sys/kernel/mm/color
CFG=./chan-llc.cfg
SOCK=/tmp/chan-llc.sock
ROOT_COLORS=0-5
CRIT_COLORS=8-15
CHASE="--mode chase --size 256K --ops 300K"
# Runs per configuration, each its own window: the model boot is
# multi-threaded (make chan-llc-report says why), so runs differ.
REPEAT=5
tap_plan 11
rd() { cat "$1" 2>/dev/null; }

if [ "$CG_LLC" != 1 ]; then
	for i in $(seq 11); do tap_skip "scenario point $i" "booted without the LLC model"; done
	exit 0
fi
tap_check "mm_color.ko and memguard.ko load" \
	sh -c "insmod /modules/mm_color.ko && insmod /modules/memguard.ko"
# colorguard apply narrows root Linux to 0-5; memguard stays off, as
# only the LLC path is compared here.
./colorguard apply $CFG > apply.out 2>&1 || sed 's/^/# /' apply.out
echo 0 > $M/enable
tap_check "root Linux on colors $(rd $C/root_colors) of $(rd $C/nr_colors), $(rd $C/quarantined_pages) pages quarantined" \
	test "$(rd $C/root_colors)" = $ROOT_COLORS

# wait_for COMMAND...: until it succeeds, at most 3000 tries. Short
# sleeps: under -icount a sleep next to the busy CPU 1 costs its guest
# time in instructions.
wait_for() {
	_n=0
	until "$@"; do
		_n=$((_n + 1))
		[ $_n -lt 3000 ] || return 1
		sleep 0.01
	done
}

# chan_start NAME ID KEEP_OPTION FILL_COLORS: the keeper, then the reader
# (window 10 + ID) and the writer on CPU 1; root Linux has FILL_COLORS,
# if given, while the writer first fills the ring.
chan_start() {
	rm -f $SOCK
	./colorguard chan keep $CFG --socket $SOCK $3 > keep-$1.out 2>&1 &
	KEEPER=$!
	wait_for test -S $SOCK || sed 's/^/# /' keep-$1.out
	./chanstream read --cell linux --channel bulk --socket $SOCK --cpu 1 \
		--llc-window $(($2 + 10)) > read-$1.out 2>&1 &
	READER=$!
	wait_for grep -q '^ready' read-$1.out
	[ -n "$4" ] && echo $4 > $C/root_colors
	./chanstream write --cell rt --channel bulk --socket $SOCK --cpu 1 \
		> write-$1.out 2>&1 &
	WRITER=$!
	wait_for grep -q '^chanstream filled' write-$1.out
	[ -n "$4" ] && echo $ROOT_COLORS > $C/root_colors
}

# chan_stop NAME: the reader first, so that its window closes while the
# writer still streams; then the writer and the keeper.
chan_stop() {
	kill $READER 2>/dev/null
	wait $READER
	READER_RC=$?
	kill $WRITER 2>/dev/null
	wait $WRITER
	kill $KEEPER 2>/dev/null
	wait $KEEPER
	for f in read write keep; do
		grep -v -e '^ready$' -e '^chanstream filled$' $f-$1.out | sed "s/^/# $1: /"
	done
}

# pages_in NAME LIST SHARE: of the ring's pages (the reader's pagemap
# line), more than SHARE percent in the colors LIST (a-b)
pages_in() {
	sed -n 's/^chanstream pages=.* present=\([0-9]*\) per_color=\(.*\)/\1 \2/p' read-$1.out |
		awk -v lo="${2%-*}" -v hi="${2#*-}" -v share="$3" '{
			n = split($2, c, ",")
			for (i = 1; i <= n; i++) if (i - 1 >= lo && i - 1 <= hi) in_list += c[i]
			exit !($1 > 0 && 100 * in_list > share * $1)
		} END { if (NR == 0) exit 1 }'
}

# config NAME ID [KEEP_OPTION FILL_COLORS]: critbench (window ID), next
# to the busy channel unless NAME is solo
config() {
	[ "$1" = solo ] || chan_start "$@"
	./critbench $CHASE --repeat $REPEAT --cpu 0 --colors $CRIT_COLORS --llc-window $2 \
		> crit-$1.out 2>&1
	_rc=$?
	tap_diag "$1: $(grep -c '^critbench mode=' crit-$1.out) critbench runs, status $_rc"
	[ "$1" = solo ] || chan_stop "$1"
	tap_check "$1: critbench ran on CPU 0 (window $2)" test $_rc -eq 0
	[ "$1" = solo ] && return
	# The channel ran: records in order, none lost (a reliable reader).
	_r=$(grep '^chanstream read' read-$1.out)
	_recs=$(echo "$_r" | sed -n 's/.* records=\([0-9]*\).*/\1/p')
	tap_check "$1: the reader took ${_recs:-no} records, in order, none lost" \
		test "$READER_RC" = 0 -a "${_recs:-0}" -gt 0 -a -n "$(echo "$_r" | grep ' lost=0 .*out_of_order=0 broken=0')"
}

config solo 31
config comm 32 "" ""
# mm-color objects: every page in the channel's colors
tap_check "comm: the ring's pages all in the comm colors 6-7" pages_in comm 6-7 99
config crit 33 --no-color $CRIT_COLORS
# A narrowing leaves a few pages of other colors free (per-CPU lists,
# the reserve), which a memfd may get: most pages, not all.
tap_check "crit: most of the ring's pages in the critical colors $CRIT_COLORS" \
	pages_in crit $CRIT_COLORS 75
config root 34 --no-color ""
tap_diag "root Linux back on colors $(rd $C/root_colors)"
rmmod memguard
rmmod mm_color
tap_done
