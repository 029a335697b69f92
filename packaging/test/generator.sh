# SPDX-License-Identifier: GPL-2.0
# The generator check both packaging tests share (sourced; needs tap.sh):
# the packaged colorguard-generator, run by the packaged tool, makes
# multi-user.target want the unit of each autostart cell of a config, and
# none for a config with problems.
#
#   gen_test RUN DIR   one TAP point; RUN DIR runs the generator on
#                      DIR/system.cfg with DIR/out as its three output
#                      folders (DIR is scratch space, removed afterwards)

gen_cfg='llc = { size = "1M"; ways = 16; line_size = 64; };
cells = (
  { name = "linux"; type = "root"; cpus = "0"; colors = "0-7";
    memory = ( { phys = 0x0; size = 0x40000000; } ); },
  { name = "rt"; type = "critical"; cpus = "1"; colors = "8-11"; autostart = true;
    memory = ( { phys = 0x40000000; size = 0x400000; virt = 0x0; } ); },
  { name = "io"; type = "normal"; cpus = "2"; colors = "12-15"; autostart = false;
    memory = ( { phys = 0x50000000; size = 0x400000; virt = 0x0; } ); } );'

# gen_units RUN DIR CONFIG-TEXT: the units the generator makes wanted
gen_units() {
	local run=$1 d=$2 l
	rm -rf "$d" && mkdir -p "$d/out"
	printf '%s\n' "$3" > "$d/system.cfg"
	"$run" "$d" || echo "exit $?"
	for l in "$d"/out/multi-user.target.wants/*; do
		[ -L "$l" ] && echo "${l##*/} -> $(readlink "$l")"
	done
}

gen_test() {
	local run=$1 d=$2 got bad
	local want="colorguard-cell@rt.service -> /lib/systemd/system/colorguard-cell@.service"

	got=$(gen_units "$run" "$d" "$gen_cfg")
	bad=$(gen_units "$run" "$d" "${gen_cfg/colors = \"12-15\"/colors = \"8-15\"}")
	rm -rf "$d"
	if [ "$got" = "$want" ] && [ -z "$bad" ]; then
		tap_ok "colorguard-generator: the autostart cell's unit wanted ($got), none for a config with problems"
	else
		printf '# got: %s\n# with problems: %s\n' "$got" "$bad"
		tap_not_ok "colorguard-generator: autostart cells"
	fi
}
