# SPDX-License-Identifier: GPL-2.0
# Test points of selftests/colorguard/run after the bad/ configs; sourced.

# expect_out DESC FILE: stdout of the last run equals FILE's contents.
expect_out() {
	if [ "$rc" -eq 0 ] && diff -u "$2" "$tmp/out" > "$tmp/diff"; then
		tap_ok "$1"
	else
		show_failure
		sed 's/^/#   /' "$tmp/diff"
		tap_not_ok "$1"
	fi
}

# expect_err DESC STATUS LINE: status and one exact stderr line.
expect_err() {
	if [ "$rc" -eq "$2" ] && grep -qxF -- "$3" "$tmp/err"; then
		tap_ok "$1"
	else
		tap_diag "wanted status $2 and: $3"
		show_failure
		tap_not_ok "$1"
	fi
}

## Usage

run --help
if [ "$rc" -eq 0 ] && grep -q '^usage: colorguard COMMAND' "$tmp/out" &&
   grep -q 'compile CONFIG -o BLOB' "$tmp/out"; then
	tap_ok "--help prints the usage on stdout"
else
	show_failure; tap_not_ok "--help prints the usage on stdout"
fi
run
tap_check "no command: usage on stderr, status 2" \
	test "$rc" -eq 2 -a -s "$tmp/err" -a ! -s "$tmp/out"
run frobnicate
expect_err "unknown command: status 2" 2 "colorguard: unknown command frobnicate"
run compile "$examples/board4.cfg"
expect_err "compile without -o: status 2" 2 "colorguard: compile: needs -o BLOB"
run check
expect_err "check without CONFIG: status 2" 2 "colorguard: check: needs exactly one CONFIG"
run check "$tmp/does-not-exist.cfg"
expect_err "check of a missing file" 1 "$tmp/does-not-exist.cfg: No such file or directory"
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' '#' > "$tmp/huge.cfg"
run check "$tmp/huge.cfg"
expect_err "check of a file over 1 MiB" 1 "$tmp/huge.cfg: larger than 1048576 bytes"
printf 'cells = ();\0\n' > "$tmp/nul.cfg"
run check "$tmp/nul.cfg"
expect_err "check of a file with a NUL byte" 1 "$tmp/nul.cfg: contains a NUL byte"

## Examples are clean

for f in "$examples"/*.cfg; do
	run check "$f"
	if [ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]; then
		tap_ok "check accepts examples/$(basename "$f")"
	else
		show_failure; tap_not_ok "check accepts examples/$(basename "$f")"
	fi
done

## geometry on fake cacheinfo trees

# mkcache ROOT CPU INDEX LEVEL TYPE SIZE WAYS LINE SETS SHARED ("-": no file)
mkcache() {
	local d=$1/devices/system/cpu/cpu$2/cache/index$3 f v
	mkdir -p "$d"
	shift 3
	for f in level type size ways_of_associativity coherency_line_size \
		 number_of_sets shared_cpu_list; do
		v=$1
		shift
		[ "$v" = - ] || echo "$v" > "$d/$f"
	done
}

# x86-like: private L1/L2 per core, one 8 MiB 16-way L3 for CPUs 0-3.
x86=$tmp/sys-x86
for c in 0 1 2 3; do
	mkcache "$x86" $c 0 1 Data 32K 8 64 64 $c
	mkcache "$x86" $c 1 1 Instruction 32K 8 64 64 $c
	mkcache "$x86" $c 2 2 Unified 1024K 16 64 1024 $c
	mkcache "$x86" $c 3 3 Unified 8192K 16 64 8192 0-3
done
# way size 64 * 8192 = 512 KiB; 512 KiB / 4 KiB = 128 colors.
cat > "$tmp/want" <<WANT
llc:        L3 Unified, 8M, shared by CPUs 0-3 (1 instance)
source:     $x86/devices/system/cpu/cpu0/cache/index3
line size:  64
sets:       8192
ways:       16
way size:   512K
page size:  4K
colors:     128
config:     llc = { size = "8M"; ways = 16; line_size = 64; };
WANT
COLORGUARD_SYSFS=$x86 run geometry
expect_out "geometry: x86-like tree picks the L3" "$tmp/want"

# arm64-like (Cortex-A53 cluster pair): no L3, a 1 MiB 16-way L2 per
# cluster of 4 CPUs. way size 64 * 1024 = 64 KiB -> 16 colors.
arm=$tmp/sys-arm
for c in 0 1 2 3 4 5 6 7; do
	cl=0-3
	[ $c -ge 4 ] && cl=4-7
	mkcache "$arm" $c 0 1 Data 32K 4 64 128 $c
	mkcache "$arm" $c 1 1 Instruction 32K 2 64 256 $c
	mkcache "$arm" $c 2 2 Unified 1024K 16 64 1024 $cl
done
cat > "$tmp/want" <<WANT
llc:        L2 Unified, 1M, shared by CPUs 0-3 (2 instances)
source:     $arm/devices/system/cpu/cpu0/cache/index2
line size:  64
sets:       1024
ways:       16
way size:   64K
page size:  4K
colors:     16
config:     llc = { size = "1M"; ways = 16; line_size = 64; };
WANT
COLORGUARD_SYSFS=$arm run geometry
expect_out "geometry: arm64-like tree without L3 picks the L2" "$tmp/want"

# --ways overrides what sysfs says: 8M / 8 ways = 1 MiB per way, 256 colors.
COLORGUARD_SYSFS=$x86 run geometry --ways 8
if [ "$rc" -eq 0 ] && grep -qx 'way size:   1M' "$tmp/out" &&
   grep -qx 'colors:     256' "$tmp/out" && grep -qx 'sets:       16384' "$tmp/out"; then
	tap_ok "geometry --ways overrides sysfs"
else
	show_failure; cat "$tmp/out" | sed 's/^/#   /'; tap_not_ok "geometry --ways overrides sysfs"
fi

# Everything on the command line: no sysfs needed at all.
# 2M / 16 ways = 128 KiB, 32 colors.
COLORGUARD_SYSFS=$tmp/nothing-here run geometry --llc-size 2M --ways 16 --line 64
if [ "$rc" -eq 0 ] && grep -qx 'source:     command line' "$tmp/out" &&
   grep -qx 'way size:   128K' "$tmp/out" && grep -qx 'colors:     32' "$tmp/out"; then
	tap_ok "geometry from the command line only"
else
	show_failure; tap_not_ok "geometry from the command line only"
fi

# number_of_sets missing: derived as size / (ways * line) = 8192.
nosets=$tmp/sys-nosets
mkcache "$nosets" 0 0 3 Unified 8192K 16 64 - 0
COLORGUARD_SYSFS=$nosets run geometry
if [ "$rc" -eq 0 ] && grep -qx 'sets:       8192' "$tmp/out" &&
   grep -qx 'colors:     128' "$tmp/out"; then
	tap_ok "geometry derives missing number_of_sets"
else
	show_failure; tap_not_ok "geometry derives missing number_of_sets"
fi

# Neither ways nor sets: the way size cannot be known.
noways=$tmp/sys-noways
mkcache "$noways" 0 0 2 Unified 1024K - 64 - 0
COLORGUARD_SYSFS=$noways run geometry
expect_err "geometry without ways_of_associativity fails" 1 \
	"colorguard: geometry: $noways/devices/system/cpu/cpu0/cache/index0: no ways_of_associativity (use --ways)"

# No cache directories at all (some VMs).
mkdir -p "$tmp/sys-empty/devices/system/cpu/cpu0"
COLORGUARD_SYSFS=$tmp/sys-empty run geometry
expect_err "geometry with no cacheinfo fails" 1 \
	"colorguard: geometry: $tmp/sys-empty/devices/system/cpu/cpu*/cache: no unified cache described"

# Garbage in a value.
junk=$tmp/sys-junk
mkcache "$junk" 0 0 2 Unified 1024Q 16 64 1024 0
COLORGUARD_SYSFS=$junk run geometry
expect_err "geometry with a malformed size fails" 1 \
	"colorguard: geometry: $junk/devices/system/cpu/cpu0/cache/index0/size: \"1024Q\": trailing characters after number (units: K, M, G, T)"

# Inconsistent figures: 16 ways * 1024 sets * 64 = 1 MiB, not 3 MiB.
odd=$tmp/sys-odd
mkcache "$odd" 0 0 2 Unified 3072K 16 64 1024 0
COLORGUARD_SYSFS=$odd run geometry
expect_err "geometry with inconsistent figures fails" 1 \
	"colorguard: geometry: $odd/devices/system/cpu/cpu0/cache/index0: size 3M is not ways 16 x sets 1024 x line 64"

# A way size that is no power of two is hv-color's to reject.
COLORGUARD_SYSFS=$tmp/nothing-here run geometry --llc-size 3M --ways 16 --line 64
tap_check "geometry rejects a 192 KiB way (not a power of two)" \
	test "$rc" -eq 1 -a -s "$tmp/err"

run geometry --ways 0
expect_err "geometry --ways 0 is a usage error" 2 "colorguard: --ways 0: out of range"

## plan: figures of examples/board4.cfg, computed by hand
# LLC 2M, 16 ways, 64 B lines: way 128K, 32 colors of 4K.
# linux: colors 8-23 = 16 of 32 = 50.0%, 2M * 16/32 = 1M of LLC.
#   read 1000 MB/s: 1000 * 2^20 B/s * 1000 us / 10^6 / 64 B = 16384 events
#   write 500 MB/s: 8192 events
#   memory[0]: 1G of span at 16/32 -> 512M; one run of colors, so one
#   extent per way block: 1G / 128K = 8192 extents
# rt: colors 24-31 = 8 of 32 = 25.0%, 512K of LLC; 64M needs
#   64M * 32/8 = 256M of span -> 256M / 128K = 2048 extents
# gui: colors 4-7 = 4 of 32 = 12.5%, 256K; 400 MB/s -> 6553.6 -> 6553,
#   200 MB/s -> 3276.8 -> 3276 events; 128M needs 1G of span, 8192 extents
# hypervisor: colors 0-3 = 4 of 32 = 12.5%, 256K.
run plan "$examples/board4.cfg"
plan_ok=1
for want in \
	'llc         2M, 16 ways, 64 B lines, way 128K, 32 colors of 4K (from config)' \
	'hypervisor  colors 0-3 (4 of 32, 12.5% of the LLC, 256K)' \
	'cell "linux" (root), CPUs 0-1' \
	'  colors      8-23 (16 of 32, 50.0% of the LLC, 1M)' \
	'  read        1000 MB/s per CPU = 16384 events of 64 B per 1000 us' \
	'  write       500 MB/s per CPU = 8192 events of 64 B per 1000 us' \
	'  memory[0]   colored, cell 0x80000000 +512M, host 0x80000000 +1G, 8192 extents' \
	'cell "rt" (critical), CPUs 2' \
	'  colors      24-31 (8 of 32, 25.0% of the LLC, 512K)' \
	'  bandwidth   critical: never throttled' \
	'  memory[0]   colored, cell 0x0 +64M, host 0x100000000 +256M, 2048 extents' \
	'  colors      4-7 (4 of 32, 12.5% of the LLC, 256K)' \
	'  read        400 MB/s per CPU = 6553 events of 64 B per 1000 us' \
	'  write       200 MB/s per CPU = 3276 events of 64 B per 1000 us' \
	'  memory[0]   colored, cell 0x0 +128M, host 0x120000000 +1G, 8192 extents'; do
	grep -qxF -- "$want" "$tmp/out" && continue
	tap_diag "plan lacks: $want"
	plan_ok=0
done
if [ "$rc" -eq 0 ] && [ $plan_ok = 1 ]; then
	tap_ok "plan figures match hand-computed values"
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "plan figures match hand-computed values"
fi

# Another period: 1000 MB/s at 250 us = 4096 events, 400 MB/s = 1638.4 -> 1638.
sed 's/period_us = 1000;/period_us = 250;/' "$examples/board4.cfg" > "$tmp/p250.cfg"
run plan "$tmp/p250.cfg"
if [ "$rc" -eq 0 ] &&
   grep -qxF '  read        1000 MB/s per CPU = 4096 events of 64 B per 250 us' "$tmp/out" &&
   grep -qxF '  read        400 MB/s per CPU = 1638 events of 64 B per 250 us' "$tmp/out"; then
	tap_ok "plan converts budgets with the period"
else
	show_failure; tap_not_ok "plan converts budgets with the period"
fi

## apply --dry-run prints exactly the writes, in order
cat > "$tmp/want" <<WANT
echo 64 > /fake/kernel/mm/color/line_size
echo 131072 > /fake/kernel/mm/color/way_size
echo 0 > /fakeproc/sys/vm/compaction_proactiveness
echo 1 > /fake/kernel/mm/color/drain_movable
echo 8-23 > /fake/kernel/mm/color/root_colors
echo 1000 > /fake/kernel/memguard/period_us
echo 64 > /fake/kernel/memguard/line_size
echo 2 > /fake/kernel/memguard/critical
echo '0-1:1000,500 3:400,200' > /fake/kernel/memguard/budgets
echo 1 > /fake/kernel/memguard/enable
WANT
COLORGUARD_SYSFS=/fake COLORGUARD_PROCFS=/fakeproc run apply --dry-run "$examples/board4.cfg"
expect_out "apply --dry-run board4.cfg" "$tmp/want"

# vm2: 1M / 16 ways = 64K way; root colors 0-7; CPU 1 critical.
cat > "$tmp/want" <<WANT
echo 64 > /sys/kernel/mm/color/line_size
echo 65536 > /sys/kernel/mm/color/way_size
echo 0 > /proc/sys/vm/compaction_proactiveness
echo 1 > /sys/kernel/mm/color/drain_movable
echo 0-7 > /sys/kernel/mm/color/root_colors
echo 1000 > /sys/kernel/memguard/period_us
echo 64 > /sys/kernel/memguard/line_size
echo 1 > /sys/kernel/memguard/critical
echo 0:100,50 > /sys/kernel/memguard/budgets
echo 1 > /sys/kernel/memguard/enable
WANT
COLORGUARD_SYSFS= COLORGUARD_PROCFS= run apply --dry-run "$examples/vm2.cfg"
expect_out "apply --dry-run vm2.cfg" "$tmp/want"

## apply on a fake sysfs tree writes those values
fake=$tmp/fake-sys
mkdir -p "$fake/kernel/mm/color" "$fake/kernel/memguard"
for f in line_size way_size root_colors drain_movable last_cmd_status; do
	echo 0 > "$fake/kernel/mm/color/$f"
done
for f in period_us line_size critical budgets enable last_cmd_status; do
	echo 0 > "$fake/kernel/memguard/$f"
done
# The sysctls go to a fake /proc too: never to the build machine's.
fakeproc=$tmp/fake-proc
mkdir -p "$fakeproc/sys/vm"
echo 20 > "$fakeproc/sys/vm/compaction_proactiveness"
export COLORGUARD_PROCFS=$fakeproc
COLORGUARD_SYSFS=$fake run apply "$examples/board4.cfg"
got=$(cd "$fake/kernel" && for f in mm/color/line_size mm/color/way_size \
	mm/color/drain_movable mm/color/root_colors memguard/period_us memguard/line_size \
	memguard/critical memguard/budgets memguard/enable; do
	printf '%s=%s\n' "$f" "$(cat "$f")"; done)
got="$got
proactiveness=$(cat "$fakeproc/sys/vm/compaction_proactiveness")"
want='mm/color/line_size=64
mm/color/way_size=131072
mm/color/drain_movable=1
mm/color/root_colors=8-23
memguard/period_us=1000
memguard/line_size=64
memguard/critical=2
memguard/budgets=0-1:1000,500 3:400,200
memguard/enable=1
proactiveness=0'
if [ "$rc" -eq 0 ] && [ "$got" = "$want" ]; then
	tap_ok "apply writes the values into sysfs, proactive compaction off"
else
	show_failure; tap_diag "got: $got"
	tap_not_ok "apply writes the values into sysfs, proactive compaction off"
fi

## cma: the config decides drain_movable; quarantine with a critical cell
# by default, keep without one; plan says which and why.
cma_case() {	# cma_case DESC CONFIG WANT_DRAIN_MOVABLE WANT_PLAN_LINE
	COLORGUARD_SYSFS=/fake run apply --dry-run "$2"
	if [ "$rc" -eq 0 ] && grep -qxF "echo $3 > /fake/kernel/mm/color/drain_movable" "$tmp/out" &&
	   [ "$(grep -n drain_movable "$tmp/out" | cut -d: -f1)" -lt \
	     "$(grep -n root_colors "$tmp/out" | cut -d: -f1)" ]; then
		run plan "$2"
		if [ "$rc" -eq 0 ] && grep -qxF -- "$4" "$tmp/out"; then
			tap_ok "$1"
			return
		fi
	fi
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "$1"
}
cma_case "cma default with a critical cell: drain_movable 1 before root_colors, plan says so" \
	"$examples/board4.cfg" 1 \
	"cma         quarantine (default: a critical cell): free pages of CMA areas and ZONE_MOVABLE of the other cells' colors are quarantined too"
{ echo 'cma = "keep";'; cat "$examples/board4.cfg"; } > "$tmp/keep.cfg"
cma_case 'cma = "keep" with a critical cell: drain_movable 0, plan says so' \
	"$tmp/keep.cfg" 0 \
	"cma         keep: free pages of CMA areas and ZONE_MOVABLE stay with root Linux, whatever their color"
sed 's/type = "critical"/type = "normal"/' "$examples/board4.cfg" > "$tmp/nocrit.cfg"
cma_case "cma default without a critical cell: drain_movable 0" "$tmp/nocrit.cfg" 0 \
	"cma         keep (default: no critical cell): free pages of CMA areas and ZONE_MOVABLE stay with root Linux, whatever their color"
{ echo 'cma = "quarantine";'; cat "$tmp/nocrit.cfg"; } > "$tmp/quar.cfg"
cma_case 'cma = "quarantine" without a critical cell: drain_movable 1' "$tmp/quar.cfg" 1 \
	"cma         quarantine: free pages of CMA areas and ZONE_MOVABLE of the other cells' colors are quarantined too"

# A kernel without compaction has no such sysctl: apply goes on.
rm "$fakeproc/sys/vm/compaction_proactiveness"
COLORGUARD_SYSFS=$fake run apply "$examples/board4.cfg"
tap_check "apply without vm.compaction_proactiveness (no CONFIG_COMPACTION)" \
	test "$rc" -eq 0 -a ! -e "$fakeproc/sys/vm/compaction_proactiveness"

# A missing knob (module not loaded) stops apply with the path named.
rm "$fake/kernel/memguard/period_us"
COLORGUARD_SYSFS=$fake run apply "$examples/board4.cfg"
expect_err "apply fails on a missing sysfs file" 1 \
	"colorguard: apply: $fake/kernel/memguard/period_us: No such file or directory"

run apply --dry-run "$here/bad/cpu-overlap.cfg"
tap_check "apply refuses a config with problems, writes nothing" \
	test "$rc" -eq 1 -a ! -s "$tmp/out"

## compile -> blob -> hv-color's parser
run compile "$examples/board4.cfg" -o "$tmp/board4.blob"
tap_check "compile board4.cfg" test "$rc" -eq 0 -a -s "$tmp/board4.blob"
run decode "$tmp/board4.blob"
dec_ok=1
for want in 'cell "linux" root cpus 0-1 colors 8-23 read 1000 write 500' \
	    'cell "rt" critical cpus 2 colors 24-31' \
	    'cell "gui" normal cpus 3 colors 4-7 read 400 write 200'; do
	grep -qF -- "$want" "$tmp/out" && continue
	tap_diag "decode lacks: $want"
	dec_ok=0
done
if [ "$rc" -eq 0 ] && [ $dec_ok = 1 ]; then
	tap_ok "hv-color parses the compiled blob back"
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "hv-color parses the compiled blob back"
fi
size=$(stat -c %s "$tmp/board4.blob")
head -c $((size - 1)) "$tmp/board4.blob" > "$tmp/short.blob"
run decode "$tmp/short.blob"
tap_check "decode refuses a truncated blob" test "$rc" -eq 1 -a -s "$tmp/err"
{ cat "$tmp/board4.blob"; printf 'x'; } > "$tmp/long.blob"
run decode "$tmp/long.blob"
tap_check "decode refuses trailing garbage" test "$rc" -eq 1 -a -s "$tmp/err"
run decode "$tmp/board4.blob"
tap_check "decode names the blob's revision" grep -q '^blob: revision 1, ' "$tmp/out"
# The same blob as revision 2 (bytes 4-5, little-endian): refused as such.
{ head -c 4 "$tmp/board4.blob"; printf '\002\000'; tail -c +7 "$tmp/board4.blob"; } \
	> "$tmp/rev2.blob"
run decode "$tmp/rev2.blob"
expect_err "decode refuses a blob of another revision" 1 \
	"colorguard: decode: $tmp/rev2.blob: header.version: unsupported revision: this parser reads revision 1 at byte 4 (this blob: revision 2)"
run compile "$here/bad/overlapping-colors.cfg" -o "$tmp/bad.blob"
tap_check "compile refuses a config with problems, writes nothing" \
	test "$rc" -eq 1 -a ! -e "$tmp/bad.blob"

# --root-only: only the root cell's CPUs, no critical CPU.
COLORGUARD_SYSFS=/fake run apply --dry-run --root-only "$examples/board4.cfg"
if [ "$rc" -eq 0 ] && grep -qxF "echo '' > /fake/kernel/memguard/critical" "$tmp/out" &&
   grep -qxF 'echo 0-1:1000,500 > /fake/kernel/memguard/budgets' "$tmp/out"; then
	tap_ok "apply --root-only leaves the other cells' CPUs alone"
else
	show_failure; sed 's/^/#   /' "$tmp/out"; tap_not_ok "apply --root-only leaves the other cells' CPUs alone"
fi

## plan shows what the cell gets, not what the span could hold
# 129 pages at 8 of 32 colors: 17 way blocks of 128K (2176K of span),
# room for 136 pages (544K); the cell gets 129 pages = 516K.
cat > "$tmp/odd.cfg" <<'CFG'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "516K"; } ); } );
CFG
run plan "$tmp/odd.cfg"
want='  memory[0]   colored, cell 0x80000000 +516K, host 0x80000000 +2176K (room for 544K), 17 extents'
if [ "$rc" -eq 0 ] && grep -qxF -- "$want" "$tmp/out"; then
	tap_ok "plan: 129 pages print as the cell's 516K, the span's room apart"
else
	show_failure; tap_diag "wanted: $want"; sed 's/^/#   /' "$tmp/out"
	tap_not_ok "plan: 129 pages print as the cell's 516K, the span's room apart"
fi

## uncolored = every color: page granularity, as hv_color.h says
# 5 pages at a base that is page aligned but not way aligned (128K ways).
cat > "$tmp/uncolored.cfg" <<'CFG'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; },
		{ phys = "0x90003000"; virt = "0x10000000"; size = "20K"; colored = false; } ); } );
CFG
run check "$tmp/uncolored.cfg"
tap_check "check accepts a 5-page uncolored region at a page-aligned base (status $rc)" \
	test "$rc" -eq 0 -a ! -s "$tmp/err"
[ "$rc" -eq 0 ] || show_failure
run plan "$tmp/uncolored.cfg"
want='  memory[1]   uncolored, cell 0x10000000 +20K, host 0x90003000 +20K, 1 extent'
if [ "$rc" -eq 0 ] && grep -qxF -- "$want" "$tmp/out"; then
	tap_ok "plan: the uncolored region is its 20K, one extent"
else
	show_failure; tap_diag "wanted: $want"; sed 's/^/#   /' "$tmp/out"
	tap_not_ok "plan: the uncolored region is its 20K, one extent"
fi
run compile "$tmp/uncolored.cfg" -o "$tmp/uncolored.blob"
[ "$rc" -eq 0 ] && run decode "$tmp/uncolored.blob"
if [ "$rc" -eq 0 ] && grep -qxF '  uncolored cell 0x10000000 +20K host 0x90003000 +20K' "$tmp/out"; then
	tap_ok "compile and hv-color's blob parser agree on the 20K uncolored region"
else
	show_failure; sed 's/^/#   /' "$tmp/out"
	tap_not_ok "compile and hv-color's blob parser agree on the 20K uncolored region"
fi
sed 's/size = "20K"; colored/size = "20K"; span = "128K"; colored/' "$tmp/uncolored.cfg" > "$tmp/uncolored-span.cfg"
run check "$tmp/uncolored-span.cfg"
expect_err "an uncolored region's span is its size, nothing more" 1 \
	"$tmp/uncolored-span.cfg:4: cell \"a\": memory[1].span: uncolored region: must equal cell_size"

## apply writes every value with a newline, an empty list as a lone "\n"
# A zero-length write never reaches a sysfs store handler: the critical
# CPUs of an earlier apply would stay critical. The fake tree shows the
# bytes written (apply truncates, a no-op on sysfs).
printf '2\n' > "$fake/kernel/memguard/critical"
touch "$fake/kernel/memguard/period_us"
COLORGUARD_SYSFS=$fake run apply --root-only "$examples/board4.cfg"
got=$(od -An -c "$fake/kernel/memguard/critical" | tr -s ' ')
if [ "$rc" -eq 0 ] && [ "$got" = ' \n' ] &&
   [ "$(cat "$fake/kernel/memguard/budgets")" = "0-1:1000,500" ] &&
   [ "$(od -An -c "$fake/kernel/mm/color/root_colors" | tr -s ' ')" = ' 8 - 2 3 \n' ]; then
	tap_ok "apply --root-only writes the empty critical list as \"\\n\", values end in a newline"
else
	show_failure; tap_diag "critical holds:$got"
	tap_not_ok "apply --root-only writes the empty critical list as \"\\n\", values end in a newline"
fi
