# SPDX-License-Identifier: GPL-2.0
# Sourced by vm-run (its helpers, $CG, $M, $PIN): the claim's journal.
#  - Its lines: one per step, numbered, old and new value, before the step.
#  - Crash safety: the owner of a claim killed (SIGKILL) at every point of
#    the claim and of its release in turn (CG_TEST_KILL_AFTER_STEP, see
#    cells/runner/cell_host.h), then `colorguard cell gc`: cpuset, every
#    IRQ's affinity, default_smp_affinity, memguard and pinned tasks
#    exactly as before.
#  - Stop signals: SIGTERM raised at every point (no gc needed), and
#    SIGINT, SIGTERM, SIGHUP to `cell exec` while its command runs.
#  - Which points: every one in make check-full (CG_THOROUGH); in make
#    check, whose two every-suite boots (x86_64 and arm64) both run this
#    suite, each takes every other point, x86_64 the odd ones and arm64
#    the even ones (each kill loop costs a minute under TCG in full).
#  - Compare-and-restore: values changed between claim and release (an
#    IRQ mask and default_smp_affinity widened, `colorguard apply` of
#    other budgets) keep their new value; only CPU 1 is given back. The
#    guest's two CPUs hold one cell; two cells released out of order are
#    in the host test selftests/cells/host/test_journal.c.
#  - A corrupt journal: one line, nothing touched; an unwritable one
#    stops the claim.

J=/run/colorguard/rt/journal
IRQ=${PIN#/proc/irq/}
IRQ=${IRQ%%/*}
# Two root tasks: one pinned to the cell's CPU alone (the claim journals
# it), one to every CPU (the kernel's business).
taskset -c 1 sleep 100000 &
PINA=$!
taskset -c 0-1 sleep 100000 &
PINB=$!
PINNED="$PINA $PINB"
sleep 0.2
BASE=$(snapshot)

# diff_base WHAT: the first lines of a difference to BASE, as diagnostics.
diff_base() {
	echo "$BASE" > before.txt
	snapshot > after.txt
	tap_diag "$1 differs:"
	diff before.txt after.txt | head -n 8 | sed 's/^/#   /'
}

### The journal's lines

$CG cell exec rt.cfg rt -- cat $J > journal.copy 2> exec.err
sed 's/^/# /' journal.copy | head -n 12
tap_diag "... $(wc -l < journal.copy) lines"
ok=1
head -n 1 journal.copy | grep -qx 'colorguard-journal 1 rt 1' || ok=0
awk 'NR > 1 && $1 != NR - 1 { bad = 1 } END { exit bad }' journal.copy || ok=0
for l in "pin $PINA [0-9]* 1 -" "partition 1" "irq $IRQ 1 0" \
	 "memguard 1 critical 0 1" "enter /"; do
	grep -qx "[0-9]* $l" journal.copy || { tap_diag "no line '$l'"; ok=0; }
done
# In the order of the claim: tasks noted, cgroup2 (mounted, cpuset on:
# the guest has no cgroup2 until a claim), partition, IRQs, memguard,
# then the command's move into the partition (the cgroup it left).
order=$(awk 'NR > 1 { print $2 }' journal.copy | uniq | tr '\n' ' ')
case "$order" in
pin\ *partition\ irq*\ memguard\ claimed\ enter\ ) ;;
*) tap_diag "order: $order"; ok=0 ;;
esac
tap_check "journal: a numbered line per step with old and new value, in claim order ($(wc -l < journal.copy) lines)" \
	test $ok = 1 -a "$(snapshot)" = "$BASE"

# mine N: whether this boot kills at point N (see the top)
mine() {
	[ "$CG_THOROUGH" = 1 ] && return 0
	[ "$CG_ARCH" = arm64 ] && [ $(($1 % 2)) = 0 ] && return 0
	[ "$CG_ARCH" != arm64 ] && [ $(($1 % 2)) = 1 ]
}
if [ "$CG_THOROUGH" = 1 ]; then
	WHICH="each of"
elif [ "$CG_ARCH" = arm64 ]; then
	WHICH="every even one of"
else
	WHICH="every odd one of"
fi

### SIGKILL at every point of a claim and of its release, then cell gc

n=1
cbad= rbad= gbad= claim_pts=0 rel_pts=0
while [ $n -le 1000 ]; do
	mine $n || { n=$((n + 1)); continue; }
	CG_TEST_KILL_AFTER_STEP=$n $CG cell exec rt.cfg rt -- true \
		> kill.out 2>&1
	rc=$?
	[ $rc = 137 ] || break
	if grep -q ' claimed$' $J 2>/dev/null; then
		phase=r
		rel_pts=$((rel_pts + 1))
	else
		phase=c
		claim_pts=$((claim_pts + 1))
	fi
	last=$(tail -n 1 $J 2>/dev/null)
	$CG cell gc > gc.out 2>&1
	grc=$?
	grep -qx 'cell rt: owner gone, claim given back' gc.out || grc=x$grc
	[ "$grc" = 0 ] || gbad="$gbad $n:$grc"
	if [ "$(snapshot)" != "$BASE" ]; then
		[ -n "$cbad$rbad" ] || diff_base "after point $n ($last) and gc"
		[ $phase = c ] && cbad="$cbad $n" || rbad="$rbad $n"
		# Start the next point from a clean state all the same.
		$CG cell gc > /dev/null 2>&1
	fi
	n=$((n + 1))
done
KILL_POINTS=$((n - 1))
tap_diag "a run with no point to be killed at: status $rc"
tap_check "SIGKILL after $WHICH the points of a claim ($claim_pts), then cell gc: everything as before${cbad:+ (not after:$cbad)}" \
	test $claim_pts -gt 0 -a -z "$cbad"
tap_check "SIGKILL after $WHICH the points of a release ($rel_pts), then cell gc: everything as before${rbad:+ (not after:$rbad)}" \
	test $rel_pts -gt 0 -a -z "$rbad"
tap_check "cell gc after each kill: status 0, 'cell rt: owner gone, claim given back'${gbad:+ (not at:$gbad)}" \
	test -z "$gbad" -a $rc = 0

### SIGTERM at every point: the claim or release goes on, then all is back

n=1
tbad= term_pts=0
while [ $n -le $KILL_POINTS ]; do
	mine $n || { n=$((n + 1)); continue; }
	term_pts=$((term_pts + 1))
	CG_TEST_KILL_AFTER_STEP=$n CG_TEST_KILL_SIGNAL=15 \
		$CG cell exec rt.cfg rt -- true > term.out 2>&1
	rc=$?
	if [ "$(snapshot)" != "$BASE" ]; then
		[ -n "$tbad" ] || diff_base "after SIGTERM at point $n (status $rc)"
		tbad="$tbad $n"
		$CG cell gc > /dev/null 2>&1
	fi
	n=$((n + 1))
done
tap_check "SIGTERM at $WHICH the points ($term_pts): no gc needed, everything as before${tbad:+ (not after:$tbad)}" \
	test $term_pts -gt 0 -a -z "$tbad"

# A stop signal while the command runs: passed on to it, then released.
# cell exec runs in the foreground (a background job ignores SIGINT); a
# helper signals it once its command runs.
sbad=
for s in INT:130 TERM:143 HUP:129; do
	want=${s#*:}
	s=${s%:*}
	rm -f cell.pid cell.stop
	( i=0
	  while [ ! -s cell.pid ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	  done
	  kill -$s "$(awk '{ sub(/.*\) /, ""); print $2 }' \
		/proc/"$(cat cell.pid)"/stat)" ) &
	$CG cell exec rt.cfg rt -- sh -c \
		'echo $$ > cell.pid.new && mv cell.pid.new cell.pid; while [ ! -e cell.stop ]; do sleep 0.1; done' \
		2> exec.err
	rc=$?
	wait $!
	if [ $rc != $want ] || [ "$(snapshot)" != "$BASE" ]; then
		sed 's/^/#   /' exec.err
		sbad="$sbad $s:$rc"
		touch cell.stop
		$CG cell gc > /dev/null 2>&1
	fi
done
rm -f cell.stop
tap_check "SIGINT, SIGTERM, SIGHUP to cell exec: its command ends by it, everything as before${sbad:+ (not:$sbad)}" \
	test -z "$sbad"

### Compare-and-restore: what changed since the claim keeps its new value

OLD_DEFAULT=$(rd /proc/irq/default_smp_affinity)
# What `colorguard apply` of applied.cfg sets everywhere else, first.
$CG apply applied.cfg > apply.out 2>&1 || sed 's/^/# /' apply.out
echo 1 > "$PIN"
echo 2 > /proc/irq/default_smp_affinity
echo events:12345 > $M/cpu1/read_budget
echo 77 > $M/cpu1/write_budget
BASE=$(snapshot)
start_cell norm.cfg nrm
# Meanwhile an admin widens an IRQ and the default affinity, and
# `colorguard apply` gives CPU 1 other budgets (300 and 200 MB/s).
echo 0-1 > "$PIN"
echo 3 > /proc/irq/default_smp_affinity
$CG apply applied.cfg > apply.out 2>&1 || sed 's/^/# /' apply.out
stop_cell
sed 's/^/# /' exec.err
tap_check "an IRQ widened to 0-1 and default_smp_affinity to 3 during the claim: kept ($(rd "$PIN"), $(rd /proc/irq/default_smp_affinity)), not put back to CPU 1 alone" \
	test "$(rd "$PIN")" = 0-1 -a "$(rd /proc/irq/default_smp_affinity)" = 3
tap_check "colorguard apply's budgets for CPU 1 during the claim survive its release ($(rd $M/cpu1/read_budget) $(rd $M/cpu1/write_budget), want 300 200)" \
	test "$(rd $M/cpu1/read_budget) $(rd $M/cpu1/write_budget)" = "300 200"
want=$(echo "$BASE" | sed -e "s|^$PIN: .*|$PIN: 0-1|" \
	-e "s|^default irq: .*|default irq: 3|" \
	-e "s|^$M/cpu1/read_budget: .*|$M/cpu1/read_budget: 300|" \
	-e "s|^$M/cpu1/write_budget: .*|$M/cpu1/write_budget: 200|")
tap_check "everything else as before; one line on stderr per value changed meanwhile ($(grep -c 'changed meanwhile' exec.err) of 4)" \
	test "$(snapshot)" = "$want" -a "$(grep -c 'changed meanwhile' exec.err)" = 4
echo 1 > "$PIN"
echo "$OLD_DEFAULT" > /proc/irq/default_smp_affinity
BASE=$(snapshot)

### A corrupt journal: refused with one line, nothing touched; repaired, given back

start_cell rt.cfg rt
kill -9 $EXEC
wait $EXEC 2>/dev/null
touch cell.stop
cp $J journal.good
echo "9999 irq 1 0-1 \$(reboot)" >> $J
DURING=$(snapshot)
$CG cell gc > gc.out 2>&1
rc=$?
sed 's/^/# /' gc.out
tap_check "cell gc of a corrupt journal: status 1, one line naming the line, nothing touched" \
	test $rc = 1 -a "$(wc -l < gc.out)" = 1 -a "$(snapshot)" = "$DURING" && \
	grep -q "journal:$(($(wc -l < journal.good) + 1)): not a journal line" gc.out
cp journal.good $J
$CG cell gc > gc.out 2>&1
rc=$?
rm -f cell.stop
tap_check "the journal repaired: cell gc gives everything back (status $rc)" \
	test $rc = 0 -a "$(snapshot)" = "$BASE"

### A journal that cannot be written stops the claim

# Past half of a claim's journal, its writes fail (EFBIG); stderr goes
# through a pipe, which no file size limit holds.
size=$(wc -c < journal.copy)
{ ./fsize $((size / 2)) $CG cell exec rt.cfg rt -- true; echo "status $?"; } \
	2>&1 | cat > full.out
rc=$(sed -n 's/^status //p' full.out)
sed 's/^/# /' full.out
tap_check "journal writes failing past $((size / 2)) of $size bytes: claim refused with the reason, everything as before (status $rc)" \
	test "$rc" = 1 -a "$(snapshot)" = "$BASE" && \
	grep -q "cannot write the claim's journal .*: File too large" full.out

kill $PINA $PINB
wait $PINA $PINB 2>/dev/null
PINNED=
BASE=$(snapshot)
