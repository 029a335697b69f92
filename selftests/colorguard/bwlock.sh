# SPDX-License-Identifier: GPL-2.0
# Sourced by run after cases.sh: the keys of a cell's bandwidth lock,
# bwlock and its limits (bwlock_max_hold_ms, bwlock_min_gap_ms,
# bwlock_min_level), as check accepts them and plan shows them; the
# refusals are bad/cell-bwlock*.cfg.

## bwlock: a cell's permission to take memguard's bandwidth lock
# Default off: plan names it only for the cell that has it.
cat > "$tmp/bwlock.cfg" <<'CFG'
llc = { size = "1M"; ways = 16; line_size = 64; };
cells = (
	{ name = "rt"; type = "critical"; cpus = "0"; colors = "8-15"; bwlock = true;
	  memory = ( { phys = "0x30000000"; virt = "0"; size = "4M"; } ); },
	{ name = "nrt"; type = "normal"; cpus = "2"; colors = "4-7"; bwlock = false;
	  memory = ( { phys = "0x40000000"; virt = "0"; size = "4M"; } ); },
	{ name = "linux"; type = "root"; cpus = "1"; colors = "0-3";
	  memory = ( { phys = "0x0"; size = "128M"; span = "512M"; } ); }
);
CFG
run check "$tmp/bwlock.cfg"
tap_check "check accepts bwlock = true and bwlock = false (status $rc)" \
	test "$rc" -eq 0 -a ! -s "$tmp/err"
[ "$rc" -eq 0 ] || show_failure
run plan "$tmp/bwlock.cfg"
want='  bwlock      allowed (register at console + 0x8)'
if [ "$rc" -eq 0 ] && [ "$(grep -cxF -- "$want" "$tmp/out")" = 1 ] &&
   awk '/^cell "?rt/ { on = 1 } /^cell "?nrt/ { on = 0 } on' "$tmp/out" |
	grep -qxF -- "$want"; then
	tap_ok "plan: bwlock allowed for rt only, the register at console + 8"
else
	show_failure; tap_diag "wanted once, under rt: $want"; sed 's/^/#   /' "$tmp/out"
	tap_not_ok "plan: bwlock allowed for rt only, the register at console + 8"
fi

## bwlock limits: what bwlock = true grants, per cell
# Without keys the defaults (limits.h) apply; each key is taken as given.
cat > "$tmp/bwlimits.cfg" <<'CFG'
llc = { size = "1M"; ways = 16; line_size = 64; };
cells = (
	{ name = "rt"; type = "critical"; cpus = "0"; colors = "8-15"; bwlock = true;
	  memory = ( { phys = "0x30000000"; virt = "0"; size = "4M"; } ); },
	{ name = "nrt"; type = "normal"; cpus = "2"; colors = "4-7"; bwlock = true;
	  bwlock_max_hold_ms = 3600000; bwlock_min_gap_ms = 0; bwlock_min_level = 1;
	  memory = ( { phys = "0x40000000"; virt = "0"; size = "4M"; } ); },
	{ name = "linux"; type = "root"; cpus = "1"; colors = "0-3";
	  memory = ( { phys = "0x0"; size = "128M"; span = "512M"; } ); }
);
CFG
run check "$tmp/bwlimits.cfg"
tap_check "check accepts bwlock_max_hold_ms, bwlock_min_gap_ms and bwlock_min_level at their bounds beside bwlock = true (status $rc)" \
	test "$rc" -eq 0 -a ! -s "$tmp/err"
[ "$rc" -eq 0 ] || show_failure
run plan "$tmp/bwlimits.cfg"
rt_lim=$(awk '/^cell "?rt/ { on = 1 } /^cell "?nrt/ { on = 0 } on' "$tmp/out" | grep 'holds of')
nrt_lim=$(awk '/^cell "?nrt/ { on = 1 } /^cell "?linux/ { on = 0 } on' "$tmp/out" | grep 'holds of')
want_rt='              holds of at most 100 ms, 100 ms apart, at 100 per mille or more'
want_nrt='              holds of at most 3600000 ms, 0 ms apart, at 1 per mille or more'
if [ "$rc" -eq 0 ] && [ "$rt_lim" = "$want_rt" ] && [ "$nrt_lim" = "$want_nrt" ]; then
	tap_ok "plan: the defaults for rt (100 ms, 100 ms apart, 100 per mille), the config's for nrt"
else
	show_failure; tap_diag "rt: $rt_lim"; tap_diag "nrt: $nrt_lim"
	tap_not_ok "plan: the defaults for rt (100 ms, 100 ms apart, 100 per mille), the config's for nrt"
fi
