# SPDX-License-Identifier: GPL-2.0
# A corpus of malformed configs for selftests/colorguard/run (sourced):
# every input must be refused by check, compile and apply alike, with exit
# status 1, one line per reason naming the file and the line, nothing on
# stdout, no blob written and no file of a fake sysfs tree changed. The
# configs under bad/ go through the same checks in run, which counts both
# in malformed_total.

# refused FILE WANT: check, compile and apply all refuse FILE; WANT is the
# text after the file name of one line of check's stderr. Sets refused_why.
refused() {
	local f=$1 want=$2 ok=1 line
	refused_why=
	run check "$f"
	[ "$rc" -eq 1 ] && [ ! -s "$tmp/out" ] || ok=0
	if [ -n "$want" ] && ! grep -qxF -- "$f$want" "$tmp/err"; then
		tap_diag "missing: $f$want"
		ok=0
	fi
	# one line per reason, each naming the file
	while IFS= read -r line; do
		case $line in
		"$f:"*) ;;
		*) tap_diag "not a one-line reason: $line"; ok=0 ;;
		esac
	done < "$tmp/err"
	[ -s "$tmp/err" ] || ok=0
	refused_why=$(head -n 1 "$tmp/err")
	refused_why=${refused_why#"$f"}
	[ $ok = 1 ] || show_failure
	refused_elsewhere "$f" || ok=0
	[ $ok = 1 ]
}

# mal NAME WANT < CONFIG: one test point.
mal() {
	local f=$tmp/malformed/$1.cfg
	mkdir -p "$tmp/malformed"
	cat > "$f"
	if refused "$f" "$2"; then
		tap_ok "malformed $1 refused: ${refused_why#:}"
	else
		tap_not_ok "malformed $1 refused"
	fi
}

mal above-pa-limit ':3: cell "a": memory[0].virt: region ends above the 52-bit physical limit' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0xfffffffffff00000"; size = "64M"; colored = false; } ); } );
EOF
mal cell-integer ':2: cells[0]: expected a group { }, got an integer' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( 5 );
EOF
mal cell-ranges-overlap ':4: cell "a": memory[1].virt: overlaps another region of the cell' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; },
		{ phys = "0xa0000000"; virt = "0x80000000"; size = "64M"; } ); } );
EOF
mal cells-empty ':2: cells: no cells' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( );
EOF
mal cells-group ':2: cells: expected a list ( ), got a group { }' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = { a = 1; };
EOF
mal colored-string ':3: cell "a": memory[0].colored: expected true or false, got a string' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; colored = "yes"; } ); } );
EOF
mal colors-empty ':2: cell "a": colors: no colors' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal colors-integer ':2: cell "a": colors: expected a string, got an integer' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = 7;
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal colors-negative ':2: cell "a": colors: "-1" at position 0: expected a decimal number' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "-1";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal colors-overflow ':2: cell "a": colors: "0-99999999999999999999" at position 2: number too large' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-99999999999999999999";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal colors-reversed ':2: cell "a": colors: "7-3" at position 0: range start above its end' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "7-3";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal colors-word ':2: cell "a": colors: "red" at position 0: expected a decimal number' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "red";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal cpu-shared ':4: cell "b": cpus: shares CPUs with another cell (cell "a")' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); },
	{ name = "b"; type = "normal"; cpus = "0"; colors = "8-15";
	memory = ( { phys = "0x90000000"; size = "64M"; } ); } );
EOF
mal cpus-empty ':2: cell "a": cpus: no CPUs' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = ""; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal cpus-too-high ':2: cell "a": cpus: "1024" at position 0: bit beyond the mask width (0-1023)' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "1024"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal critical-vs-normal-colors ':6: cell "gui": colors: shares colors with another cell (cell "rt")' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); },
	{ name = "rt"; type = "critical"; cpus = "1"; colors = "12-15";
	memory = ( { phys = "0x90000000"; size = "64M"; } ); },
	{ name = "gui"; type = "normal"; cpus = "2"; colors = "14-17";
	memory = ( { phys = "0xa0000000"; size = "64M"; } ); } );
EOF
mal duplicate-key ':1: duplicate setting name' <<'EOF'
llc = { size = "2M"; size = "4M"; ways = 16; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal empty-file ': cells: missing' <<'EOF'
EOF
mal float-exponent ':1: llc.ways: expected an integer or a string like "64M", got a floating-point number' <<'EOF'
llc = { size = "2M"; ways = 1e1; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal garbage ':1: syntax error' <<'EOF'
{{{ ]]] ;;;
EOF
mal hex-overflow ':1: number 0x1ffffffff out of range (write large values as strings, e.g. "0x80000000" or "2G")' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 0x1ffffffff; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal line-not-pow2 ':1: llc: size 2M is not a multiple of ways 16 x line 48' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 48; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal llc-integer ':1: llc: expected a group { }, got an integer' <<'EOF'
llc = 5;
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal llc-size-zero ':1: llc.size: 0 out of range (1 to 1099511627776)' <<'EOF'
llc = { size = "0"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal llc-string ':1: llc: expected a group { }, got a string' <<'EOF'
llc = "2M";
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal llc-ways-zero ':1: llc.ways: 0 out of range (1 to 1024)' <<'EOF'
llc = { size = "2M"; ways = 0; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal mbps-bool ':2: cell "a": write_mbps: expected an integer or a string like "64M", got a boolean' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7"; write_mbps = true;
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal mbps-int64-overflow ':2: number 9223372036854775808 out of range (write large values as strings, e.g. "0x80000000" or "2G")' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7"; read_mbps = 9223372036854775808;
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal mbps-word ':2: cell "a": read_mbps: not a number' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7"; read_mbps = "fast";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal mbps-zero ':2: cell "a": read_mbps: 0 out of range (1 to 1000000)' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7"; read_mbps = 0;
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal memguard-integer ':2: memguard: expected a group { }, got an integer' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
memguard = 1000;
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal memory-array ':3: cell "a": memory: expected a list ( ), got an array [ ]' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = [ "0x80000000" ]; } );
EOF
mal memory-empty ':3: cell "a": memory: needs at least one region' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( ); } );
EOF
mal memory-string ':3: cell "a": memory: expected a list ( ), got a string' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = "64M"; } );
EOF
mal name-empty ':2: cells[0]: name: must be 1 to 31 characters of A-Z a-z 0-9 _ - .' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = ""; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal name-integer ':2: cells[0]: name: expected a string, got an integer' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = 5; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal name-too-long ':2: cells[0]: name: must be 1 to 31 characters of A-Z a-z 0-9 _ - .' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "abcdefghijklmnopqrstuvwxyz012345"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal nul-in-colors ':2: \x00 (a NUL byte) in a string is not allowed' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "1\x00 2";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal nul-in-name ':2: \x00 (a NUL byte) in a string is not allowed' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a\x00b"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal nul-upper-x ':2: \x00 (a NUL byte) in a string is not allowed' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0\X00"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal only-comment ': cells: missing' <<'EOF'
# nothing but a comment
EOF
mal period-too-short ':2: memguard.period_us: 99 out of range (100 to 1000000)' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
memguard = { period_us = 99; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal ppc-zero ':1: llc.pages_per_color: 0 out of range (1 to 1024)' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; pages_per_color = 0; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal region-size-not-pages ':3: cell "a": memory[0]: size 1000 is not a multiple of the page size (4K)' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "1000"; } ); } );
EOF
mal region-size-zero ':3: cell "a": memory[0].size: 0 out of range (1 to 18446744073709551615)' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "0"; } ); } );
EOF
mal region-unknown-key ':3: cell "a": memory[0].base: unknown key' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; base = "0"; } ); } );
EOF
mal size-bad-unit ':3: cell "a": memory[0].size: trailing characters after number (units: K, M, G, T)' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64MiBB"; } ); } );
EOF
mal span-not-blocks ':3: cell "a": memory[0]: span 300K is not a whole number of way blocks (128K)' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; span = "300K"; } ); } );
EOF
mal span-too-small ':3: cell "a": memory[0].span: too small for cell_size with these colors' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; span = "128M"; } ); } );
EOF
mal top-unknown-key ':2: colour: unknown key' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
colour = "0-3";
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal two-roots ':4: cell "b": type: more than one root cell' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); },
	{ name = "b"; type = "root"; cpus = "1"; colors = "8-15";
	memory = ( { phys = "0x90000000"; size = "64M"; } ); } );
EOF
mal two-strings ':2: cell "a": type: must be root, critical or normal' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root" "x"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal type-integer ':2: cell "a": type: expected a string, got an integer' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = 1; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal uncolored-not-page-aligned ':3: cell "a": memory[0].virt: not page aligned' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000800"; size = "64M"; colored = false; } ); } );
EOF
mal uncolored-overlaps-colored ':5: cell "b": memory[0].phys: host memory shared with another cell (cell "a")' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); },
	{ name = "b"; type = "normal"; cpus = "1"; colors = "8-15";
	memory = ( { phys = "0x80001000"; size = "16M"; colored = false; } ); } );
EOF
mal uncolored-span-not-size ':3: cell "a": memory[0].span: uncolored region: must equal cell_size' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "20K"; span = "24K"; colored = false; } ); } );
EOF
mal unterminated-comment ':2: unterminated comment' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
/* never closed
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal unterminated-string ':2: unterminated string' <<'EOF'
llc = { size = "2M"; ways = 16; line_size = 64; };
cells = ( { name = "a;
EOF
mal way-below-page ':1: llc: way size 2048: hv-color needs a power of two that gives 2 to 1024 colors of 1 x 4K (Invalid argument)' <<'EOF'
llc = { way_size = "2K"; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal way-size-not-pow2 ':1: llc: way size 102400: hv-color needs a power of two that gives 2 to 1024 colors of 1 x 4K (Invalid argument)' <<'EOF'
llc = { way_size = "100K"; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF
mal ways-uneven ':1: llc: size 2M is not a multiple of ways 3 x line 64' <<'EOF'
llc = { size = "2M"; ways = 3; line_size = 64; };
cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "0-7";
	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );
EOF

# Generated: 33 cells (at most 32), a list of 5000 characters (at most 4096).
{
	echo 'llc = { size = "2M"; ways = 16; line_size = 64; };'
	echo 'cells = ('
	for i in $(seq 0 32); do
		printf '\t{ name = "c%d"; type = "%s"; cpus = "%d"; colors = "%d";\n' \
			$i "$([ $i = 0 ] && echo root || echo normal)" $i $((i % 32))
		printf '\t  memory = ( { phys = "%#x"; size = "1M"; colored = false; } ); }%s\n' \
			$((0x80000000 + i * 0x100000)) "$([ $i = 32 ] || echo ,)"
	done
	echo ');'
} > "$tmp/gen.cfg"
mal too-many-cells ':2: cells: 33 cells, at most 32' < "$tmp/gen.cfg"
{
	echo 'llc = { size = "2M"; ways = 16; line_size = 64; };'
	printf 'cells = ( { name = "a"; type = "root"; cpus = "0"; colors = "%s";\n' \
		"$(head -c 5000 /dev/zero | tr '\0' 0)"
	echo '	memory = ( { phys = "0x80000000"; size = "64M"; } ); } );'
} > "$tmp/gen.cfg"
mal list-too-long ':2: cell "a": colors: longer than 4096 characters' < "$tmp/gen.cfg"

# Valid, but one sysfs write could not take it: eight cells of 128 CPUs
# each, every eighth CPU, make a budgets value of over 4 KiB. apply must
# refuse it before it writes anything (check and compile accept it).
f=$tmp/malformed/budgets-too-long.cfg
{
	echo 'llc = { size = "2M"; ways = 16; line_size = 64; };'
	echo 'cells = ('
	for i in 0 1 2 3 4 5 6 7; do
		printf '\t{ name = "c%d"; type = "%s"; cpus = "%s"; colors = "%d-%d"; read_mbps = 100;\n' \
			$i "$([ $i = 0 ] && echo root || echo normal)" \
			"$(seq -s, $i 8 1023)" $((i * 4)) $((i * 4 + 3))
		printf '\t  memory = ( { phys = "%#x"; size = "1M"; } ); }%s\n' \
			$((0x80000000 + i * 0x10000000)) "$([ $i = 7 ] || echo ,)"
	done
	echo ');'
} > "$f"
run check "$f"
check_rc=$rc
COLORGUARD_SYSFS=$mal_sys run apply --dry-run "$f"
dry_rc=$rc dry_out=$(wc -c < "$tmp/out")
mal_sys_reset
COLORGUARD_SYSFS=$mal_sys run apply "$f"
if [ "$check_rc" -eq 0 ] && [ "$dry_rc" -eq 1 ] && [ "$dry_out" -eq 0 ] && [ "$rc" -eq 1 ] &&
   [ "$(mal_sys_state)" = "$mal_sys_clean" ] &&
   grep -q "^colorguard: apply: $mal_sys/kernel/memguard/budgets: value of [0-9]* bytes is longer than one sysfs write takes" "$tmp/err"; then
	tap_ok "malformed budgets-too-long refused by apply before any write: $(sed "s|$mal_sys|SYSFS|" "$tmp/err")"
else
	show_failure
	tap_not_ok "malformed budgets-too-long refused by apply before any write (check $check_rc, dry-run $dry_rc)"
fi
malformed_total=$((malformed_total + 1))
