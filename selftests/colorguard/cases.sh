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
