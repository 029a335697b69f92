# SPDX-License-Identifier: GPL-2.0
# Sourced by run: `colorguard status` on fake sysfs trees shaped as the two
# modules show themselves (Documentation/ABI/testing/) after
# `colorguard apply examples/board4.cfg`: 32 colors of a 128 KiB way,
# root colors 8-23, CPU 2 critical, budgets 1000/500 MB/s on CPUs 0-1 and
# 400/200 on CPU 3. status must show the live figures, find no mismatch
# there, and name each difference planted afterwards, one line each.

st_tree() {	# st_tree DIR: the live state after apply board4.cfg
	local d=$1 c
	rm -rf "$d"
	mkdir -p "$d/kernel/mm/color/free" "$d/kernel/memguard"
	(cd "$d/kernel/mm/color" &&
	 echo 32 > nr_colors && echo 131072 > way_size && echo 64 > line_size &&
	 echo sysfs > geometry_source && echo 8-23 > root_colors &&
	 echo 5000 > quarantined_pages && echo 12 > foreign_in_use_pages &&
	 echo 256 > pool_pages && echo 200 > free_pages && echo 56 > used_pages &&
	 echo 0 > parked_pages && echo 1 > drain_movable &&
	 echo 0 > foreign_movable_free_pages && echo ok > last_cmd_status)
	for c in $(seq 0 31); do echo $((c + 1)) > "$d/kernel/mm/color/free/$c"; done
	(cd "$d/kernel/memguard" &&
	 echo "enabled: regulating CPUs 0-1,3" > status && echo 1 > enable &&
	 echo 1000 > period_us && echo 64 > line_size && echo 2 > critical &&
	 echo '0-1:1000,500 2:unlimited,unlimited 3:400,200' > budgets &&
	 echo 0 > monitor && echo ok > last_cmd_status)
	mkdir -p "$d/kernel/memguard/bwlock"
	(cd "$d/kernel/memguard/bwlock" &&
	 echo free > state && echo 0 > holders && echo 0 > holder_files &&
	 echo 1000 > level_permille && echo unlimited > level_mbps)
	for c in 0 1 2 3; do
		mkdir -p "$d/kernel/memguard/cpu$c"
		(cd "$d/kernel/memguard/cpu$c" &&
		 echo 0 > critical && echo 1 > armed && echo 400 > periods &&
		 echo 100 > throttled_periods && echo 9000 > read_used_avg &&
		 echo 4000 > write_used_avg && echo 1000 > read_budget &&
		 echo 500 > write_budget && echo 16384 > read_budget_events &&
		 echo 8192 > write_budget_events)
	done
	(cd "$d/kernel/memguard/cpu2" && echo 1 > critical && echo 0 > armed &&
	 echo 0 > periods && echo 0 > throttled_periods &&
	 echo 0 > read_used_avg && echo 0 > write_used_avg &&
	 echo unlimited > read_budget && echo unlimited > write_budget &&
	 echo unlimited > read_budget_events && echo unlimited > write_budget_events)
	(cd "$d/kernel/memguard/cpu3" && echo 400 > read_budget &&
	 echo 200 > write_budget && echo 6553 > read_budget_events &&
	 echo 3276 > write_budget_events)
}
st=$tmp/status-sys
b4=$examples/board4.cfg

## The state apply leaves: the figures, no mismatch
st_tree "$st"
COLORGUARD_SYSFS=$st run status "$b4"
# rt owns colors 24-31, whose free/<c> files hold 25..32: 228 pages.
if [ "$rc" -eq 0 ] &&
   grep -qxF "config      $b4" "$tmp/out" &&
   grep -qxF 'mm-color    32 colors, way 131072 B, line 64 B (geometry: sysfs)' "$tmp/out" &&
   grep -qxF '            root colors 8-23; quarantine 5000 pages; foreign pages in use by root Linux ~12' "$tmp/out" &&
   grep -qxF '            pool 256 pages, free 200, /dev/mm-color in use 56 (0 parked)' "$tmp/out" &&
   grep -qxF '            CMA and ZONE_MOVABLE: drain_movable 1 (quarantined), 0 free pages of foreign colors' "$tmp/out" &&
   ! grep -q '^warning' "$tmp/out" &&
   grep -qxF 'memguard    enabled: regulating CPUs 0-1,3' "$tmp/out" &&
   grep -qxF '            bandwidth lock free' "$tmp/out" &&
   grep -qE '^0 +linux +0 +1 +regulate +1000 +500 +9000/16384 +4000/8192 +25\.0% of 400 periods$' "$tmp/out" &&
   grep -qE '^2 +rt +1 +0 +- +unlimited +unlimited +0/unlimited +0/unlimited +-$' "$tmp/out" &&
   grep -qE '^3 +gui +0 +1 +regulate +400 +200 +9000/6553 ' "$tmp/out" &&
   grep -qE '^rt +critical +2 +24-31 +228 +as configured$' "$tmp/out" &&
   grep -qE '^linux +root +0-1 +8-23 +[0-9]+ +as configured$' "$tmp/out" &&
   grep -qx "no mismatch: the live system is what \`colorguard apply $b4\` sets" "$tmp/out" &&
   ! grep -q '^mismatch' "$tmp/out"; then
	tap_ok "status: live figures of mm-color, memguard, cells and CPUs; no mismatch after apply"
else
	show_failure; sed 's/^/#   /' "$tmp/out"
	tap_not_ok "status: live figures, no mismatch after apply"
fi

# The same sets in another spelling are no mismatch.
echo 8-15,16-23 > "$st/kernel/mm/color/root_colors"
COLORGUARD_SYSFS=$st run status "$b4"
if [ "$rc" -eq 0 ] && ! grep -q '^mismatch' "$tmp/out"; then
	tap_ok "status: lists compare as sets (8-15,16-23 is 8-23)"
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "status: lists compare as sets"
fi

## CMA: exposure is a warning; drain_movable against the config's cma
st_tree "$st"
echo 0 > "$st/kernel/mm/color/drain_movable"
echo 8192 > "$st/kernel/mm/color/foreign_movable_free_pages"
COLORGUARD_SYSFS=$st run status "$b4"
pk=$(($(getconf PAGESIZE) / 1024 * 8192))
warn="warning: root Linux can still get 8192 free pages of foreign colors ($pk KiB) in CMA areas and ZONE_MOVABLE; drain_movable is 0 (cma = \"keep\")"
if [ "$rc" -eq 1 ] &&
   grep -qxF '            CMA and ZONE_MOVABLE: drain_movable 0 (kept by Linux), 8192 free pages of foreign colors' "$tmp/out" &&
   grep -qxF -- "$warn" "$tmp/out" &&
   [ "$(grep '^mismatch' "$tmp/out")" = 'mismatch: /sys/kernel/mm/color/drain_movable is 0, config says 1 (cma = "quarantine")' ]; then
	tap_ok "status: foreign free pages of CMA as a warning, drain_movable 0 against a critical cell's default a mismatch"
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "status: CMA exposure and drain_movable mismatch"
fi
{ echo 'cma = "keep";'; cat "$b4"; } > "$tmp/b4-keep.cfg"
COLORGUARD_SYSFS=$st run status "$tmp/b4-keep.cfg"
if [ "$rc" -eq 0 ] && grep -qxF -- "$warn" "$tmp/out" && ! grep -q '^mismatch' "$tmp/out"; then
	tap_ok 'status: cma = "keep" as configured: the warning, no mismatch, exit 0'
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok 'status: cma = "keep" as configured'
fi
COLORGUARD_SYSFS=$st run status
tap_check "status without a config: the warning, exit $rc" \
	test "$rc" -eq 0 -a -n "$(grep -xF -- "$warn" "$tmp/out")"
# Pages freed into CMA after a quarantining drain; an older module.
echo 1 > "$st/kernel/mm/color/drain_movable"
echo 3 > "$st/kernel/mm/color/foreign_movable_free_pages"
COLORGUARD_SYSFS=$st run status "$b4"
tap_check "status: drain_movable 1 with 3 foreign pages freed since: warning to drain again, exit $rc" \
	test "$rc" -eq 0 -a -n "$(grep -x 'warning: root Linux can still get 3 free pages .*; freed there since the last drain (colorguard apply drains again)' "$tmp/out")"
rm "$st/kernel/mm/color/drain_movable" "$st/kernel/mm/color/foreign_movable_free_pages"
COLORGUARD_SYSFS=$st run status "$b4"
tap_check "status: no drain_movable file is a mismatch, exit $rc" \
	test "$rc" -eq 1 -a -n "$(grep -xF 'mismatch: /sys/kernel/mm/color/drain_movable unreadable, config says 1 (cma = "quarantine")' "$tmp/out")"

## Monitor mode and a held bandwidth lock are shown, and are no mismatch
st_tree "$st"
echo 1 > "$st/kernel/memguard/monitor"
echo "enabled: monitoring CPUs 0-3 (monitor mode: no CPU is held)" > "$st/kernel/memguard/status"
(cd "$st/kernel/memguard/bwlock" && echo held > state && echo 3 > holders &&
 echo 2 > holder_files && echo 250 > level_permille && echo 400 > level_mbps)
COLORGUARD_SYSFS=$st run status "$b4"
if [ "$rc" -eq 0 ] &&
   grep -qxF 'memguard    enabled: monitoring CPUs 0-3 (monitor mode: no CPU is held)' "$tmp/out" &&
   grep -qxF '            bandwidth lock held: 3 acquisitions by 2 files, budgets at 250 per mille, at most 400 MB/s' "$tmp/out" &&
   grep -qE '^0 +linux +0 +1 +monitor +1000 ' "$tmp/out" &&
   grep -qE '^2 +rt +1 +0 +- +unlimited ' "$tmp/out"; then
	tap_ok "status: monitor mode in the mode column, the bandwidth lock's holders and level"
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "status: monitor mode and the bandwidth lock"
fi

## Every planted difference is named, and only those
st_tree "$st"
echo 8-22 > "$st/kernel/mm/color/root_colors"
echo 0 > "$st/kernel/memguard/cpu2/critical"
echo 300 > "$st/kernel/memguard/cpu3/read_budget"
echo unlimited > "$st/kernel/memguard/cpu1/write_budget"
echo 2000 > "$st/kernel/memguard/period_us"
echo 0 > "$st/kernel/memguard/enable"
COLORGUARD_SYSFS=$st run status "$b4"
cat > "$tmp/want" <<WANT
mismatch: /sys/kernel/mm/color/root_colors is '8-22', config says '8-23'
mismatch: /sys/kernel/memguard/enable is 0, apply sets 1
mismatch: /sys/kernel/memguard/period_us is 2000, config says 1000
mismatch: CPU 1 (cell "linux"): write budget is unlimited, config says 500
mismatch: CPU 2 (cell "rt"): critical is 0, config says 1
mismatch: CPU 3 (cell "gui"): read budget is 300, config says 400
WANT
if [ "$rc" -eq 1 ] && diff -u "$tmp/want" <(grep '^mismatch' "$tmp/out") > "$tmp/diff" &&
   grep -qE '^rt +critical .* differs$' "$tmp/out"; then
	tap_ok "status: six planted differences, six mismatch lines, exit 1"
else
	show_failure; sed 's/^/#   /' "$tmp/diff" "$tmp/out"
	tap_not_ok "status: planted differences named"
fi

# A CPU of the config that memguard does not have (offline), a module
# that is not loaded.
st_tree "$st"
rm -r "$st/kernel/memguard/cpu3"
COLORGUARD_SYSFS=$st run status "$b4"
if [ "$rc" -eq 1 ] &&
   grep -qxF 'mismatch: CPU 3 of cell "gui" has no /sys/kernel/memguard/cpu3 (offline or absent)' "$tmp/out" &&
   [ "$(grep -c '^mismatch' "$tmp/out")" -eq 1 ]; then
	tap_ok "status: a configured CPU memguard does not have is a mismatch"
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "status: missing CPU is a mismatch"
fi
rm -r "$st/kernel/memguard"
COLORGUARD_SYSFS=$st run status "$b4"
if [ "$rc" -eq 1 ] && grep -qxF 'memguard    not loaded (modprobe memguard)' "$tmp/out" &&
   grep -qxF 'mismatch: memguard is not loaded' "$tmp/out"; then
	tap_ok "status: a module not loaded is a mismatch"
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "status: module not loaded"
fi

# A config with problems: its lines on stderr, the live system, exit 1.
st_tree "$st"
COLORGUARD_SYSFS=$st run status "$here/bad/$(ls "$here/bad" | head -n1)"
if [ "$rc" -eq 1 ] && [ -s "$tmp/err" ] && grep -q '^mm-color    32 colors' "$tmp/out" &&
   grep -q '^mismatch: .* has problems (listed above); nothing compared$' "$tmp/out"; then
	tap_ok "status: a config with problems is reported, the live system still shown"
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "status: config with problems"
fi
run status a b
expect_err "status takes at most one CONFIG" 2 "colorguard: status: takes at most one CONFIG"
