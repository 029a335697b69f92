#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# memguard's control-loop accuracy, in a deterministic boot (this folder's
# icount file: scripts/vm/run boots it with -icount shift=0,sleep=off).
# Guest time is then the instructions executed, so no host delay reaches
# the emulated PMU's overflow timer: what is measured is memguard's own
# loop. cycles as the event (the emulated cycle counter is the guest's
# virtual clock), the hog alone on CPU 1 and CPU 0 idle (under icount a
# busy CPU 0 would starve CPU 1 to its tick grid), a 1 ms period.
# C: the events CPU 1 counts in a busy period at full speed (mean of the
# busy periods of an unthrottled run). For budgets of 10/30/60 % of C, the
# share of wall time the hog runs, relative to its unthrottled run, must
# be within ACC_SLACK points of the budget. The critical-core check (CPU 0
# keeps its progress) is in vm-run, in the ordinary multi-threaded boot.
. ../lib/tap.sh

M=/sys/kernel/memguard
MOD=/modules/memguard.ko
T=/sys/kernel/tracing
[ -d $T/events ] || T=/sys/kernel/debug/tracing
PERIOD=1000
BUDGETS="10 30 60"
ACC_SLACK=2
SECS=${ACC_SECS:-0.5}

if [ "$CG_ARCH" != arm64 ]; then
	echo "TAP version 13"
	echo "1..0 # SKIP the deterministic budget event is arm64's emulated cycle counter"
	exit 0
fi
tap_plan $((3 + $(echo $BUDGETS | wc -w)))
rd() { cat "$M/$1" 2>/dev/null; }
# col CPU N: field N of CPU's line in the last spin output ($OUT)
col() { echo "$OUT" | awk -v c="cpu$1" -v n="$2" '$1 == c { print $n }'; }
# fields of CPU1's trace events NAME, one line each: FIELD...
trace_fields() {
	_ev=$1
	shift
	awk -v ev="$_ev: cpu=1 " -v want="$*" '
		index($0, ev) {
			for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			n = split(want, f, " ")
			line = v[f[1]]
			for (i = 2; i <= n; i++) line = line " " v[f[i]]
			print line
		}' $T/trace
}

[ -n "$CG_ICOUNT" ] || tap_diag "not a deterministic boot (no -icount): shares follow host delays"

if insmod $MOD read_event=cycles write_event=none period_us=$PERIOD critical=0 \
	budgets=1:events:100000000000; then
	tap_ok "memguard loads with cycles, period $PERIOD us, CPU 1 armed"
else
	tap_not_ok "memguard loads with cycles, period $PERIOD us, CPU 1 armed"
	tap_done
fi
echo 1 > $T/events/memguard/memguard_period/enable
echo 1 > $T/events/memguard/memguard_throttle/enable

# C from the busy periods of an unthrottled run: the median of the
# periods above half the largest (the first and last are partial, idle
# ones count little, a late boundary's period counts more).
echo > $T/trace
OUT=$(./spin -t $SECS 1)
U=$(col 1 4) UI=$(col 1 2)
C=$(trace_fields memguard_period read_used | sort -n | awk '
	{ a[NR] = $1 } END {
		for (i = 1; i <= NR; i++) if (a[i] * 2 >= a[NR]) b[++n] = a[i]
		print n ? b[int((n + 1) / 2)] : 0
	}')
NP=$(trace_fields memguard_period read_used | wc -l)
tap_diag "busy CPU 1: C = $C cycles per $PERIOD us period ($NP periods traced)," \
	"unthrottled time share $U ppm, $UI iterations/s"
tap_check "calibration: CPU 1 counts cycles in busy periods" test "${C:-0}" -gt 1000

tap_diag "| budget % | time share % | iterations % | events used % | throttled/periods | overflow-to-hold us mean/max | hist (<1,2,4..1024,more us) |"
for X in $BUDGETS; do
	B=$((C * X / 100))
	echo events:$B > $M/cpu1/read_budget
	echo 1 > $M/reset_stats
	echo > $T/trace
	OUT=$(./spin -t $SECS 1)
	SH=$(awk -v a="$(col 1 4)" -v u="$U" 'BEGIN { printf "%.2f", a * 100 / u }')
	IT=$(awk -v a="$(col 1 2)" -v u="$UI" 'BEGIN { printf "%.2f", a * 100 / u }')
	USED=$(trace_fields memguard_period read_used throttled | awk -v c="$C" '
		$2 == 1 { s += $1; n++ } END { printf "%.2f", n ? s * 100 / n / c : 0 }')
	NH=$(awk '{ for (i = 1; i <= NF; i++) n += $i } END { print n + 0 }' $M/cpu1/hold_delay_hist)
	MEAN=$(awk -v t="$(rd cpu1/hold_delay_ns_total)" -v n="$NH" 'BEGIN { printf "%.1f", n ? t / n / 1000 : 0 }')
	MAX=$(awk -v m="$(rd cpu1/hold_delay_ns_max)" 'BEGIN { printf "%.1f", m / 1000 }')
	tap_diag "| $X | $SH | $IT | $USED | $(rd cpu1/throttled_periods)/$(rd cpu1/periods) | $MEAN/$MAX | $(rd cpu1/hold_delay_hist) |"
	tap_check "budget $X% at $PERIOD us: CPU 1 runs $SH% of the time (within $ACC_SLACK points)" \
		awk -v s="$SH" -v x="$X" -v d="$ACC_SLACK" 'BEGIN { exit !(s >= x - d && s <= x + d) }'
done
WAKE=$(trace_fields memguard_throttle wake_ns delay_ns idle | awk '$3 == 0 {
		w += $1; d += $2; n++ } END { if (n) printf "%.1f/%.1f us over %d holds", w / n / 1000, d / n / 1000, n }')
tap_diag "overflow to holder thread / to idle entry, mean: $WAKE"
echo 0 > $T/events/memguard/enable
rmmod memguard
tap_check "memguard unloads" test ! -e $M
tap_done
