// SPDX-License-Identifier: GPL-2.0
/*
 * colorguard: check, plan, compile and apply a system config (cells, CPUs,
 * cache colors, memory, bandwidth budgets). See README.md.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cacheinfo.h"
#include "cli_chan.h"
#include "colorguard.h"
#include "system.h"

/* cells/runner/cli.c */
int cg_cell_main(int argc, char **argv);

#define EXIT_PROBLEMS	1
#define EXIT_USAGE	2
#define CG_SYSTEM_CFG	"/etc/colorguard/system.cfg"

static const char usage_text[] =
"usage: colorguard COMMAND [OPTIONS]\n"
"\n"
"Commands:\n"
"  geometry [--llc-size SIZE] [--ways N] [--line BYTES]\n"
"                       show the last-level cache from sysfs cacheinfo, its\n"
"                       colors and way size; options override what sysfs says\n"
"  check CONFIG         report every problem of a system config; exit 0 only\n"
"                       when there is none\n"
"  plan CONFIG          per cell: colors, share of the LLC, extents per\n"
"                       memory region, budgets in MB/s and events per period\n"
"  compile CONFIG -o BLOB\n"
"                       write the binary cell-colors blob for the hypervisor\n"
"  decode BLOB          parse and validate a blob, print what it holds\n"
"  apply CONFIG [--dry-run] [--root-only]\n"
"                       configure mm-color and memguard of the running root\n"
"                       Linux through sysfs; --dry-run prints the writes;\n"
"                       --root-only regulates only the root cell's CPUs\n"
"  status [CONFIG]      the live system (mm-color, memguard, per cell and per\n"
"                       CPU) and every mismatch with CONFIG (default\n"
"                       " CG_SYSTEM_CFG "); exit 1 on any\n"
"  cell run CONFIG CELL [IMAGE] [OPTIONS]\n"
"                       run a cell as a KVM VM on colored memory in the\n"
"                       foreground ('colorguard cell --help')\n"
"  cell create CONFIG CELL | load CELL IMAGE [-a ADDR] [-s STRING] |\n"
"       start CELL | shutdown CELL [--force] | destroy CELL | list |\n"
"       stats CELL\n"
"                       a cell that outlives the command: a supervisor per\n"
"                       cell, state and control socket in /run/colorguard/\n"
"  cell supervise CONFIG CELL\n"
"                       create's supervisor in the foreground, for a\n"
"                       service manager (sd_notify READY=1 once created)\n"
"  cell exec CONFIG CELL -- COMMAND [ARGS]\n"
"                       take the cell's CPUs from root Linux (cpuset\n"
"                       partition, IRQ affinity, memguard), run COMMAND in\n"
"                       them, give everything back when it ends\n"
"  cell gc              give back the claims of cells whose owner is gone\n"
"                       (replays their journals in /run/colorguard/)\n"
"  chan keep CONFIG [--socket PATH] [--no-color]\n"
"                       make every channel's memory once and hand it out\n"
"                       on the keeper's socket, in the foreground\n"
"  chan ls | stat [NAME] | cat NAME --cell CELL | send NAME --cell CELL\n"
"                       channels from root Linux ('colorguard chan --help')\n"
"  help                 this text\n"
"\n"
"SIZE takes a K, M, G or T suffix (powers of 1024) or 0x hex.\n"
"Environment: COLORGUARD_SYSFS=DIR reads and writes DIR instead of /sys,\n"
"COLORGUARD_PROCFS=DIR writes sysctls below DIR instead of /proc.\n"
"Exit status: 0 success, 1 problems found or failure, 2 usage error.\n";

static void usage(FILE *f)
{
	fputs(usage_text, f);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "colorguard: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'colorguard --help'.\n");
	return EXIT_USAGE;
}

static int parse_size_opt(const char *name, const char *arg, uint64_t max,
			  uint64_t *out)
{
	const char *why;

	if (cg_parse_u64(arg, out, &why) || *out == 0 || *out > max) {
		fprintf(stderr, "colorguard: --%s %s: %s\n", name, arg,
			*out == 0 || *out > max ? "out of range" : why);
		return -1;
	}
	return 0;
}

static int cmd_geometry(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "llc-size", required_argument, NULL, 's' },
		{ "ways", required_argument, NULL, 'w' },
		{ "line", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cg_llc_input in = { 0 };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_size_opt("llc-size", optarg, 1ull << 40, &in.size))
				return EXIT_USAGE;
			break;
		case 'w':
			if (parse_size_opt("ways", optarg, 1024, &in.ways))
				return EXIT_USAGE;
			break;
		case 'l':
			if (parse_size_opt("line", optarg, 4096, &in.line_size))
				return EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return usage_error("%s: bad option", "geometry");
		}
	}
	if (optind != argc)
		return usage_error("geometry: unexpected argument %s",
				   argv[optind]);
	return cg_geometry_show(stdout, cg_sysfs_root(), &in) ? EXIT_PROBLEMS : 0;
}

static int config_command(const char *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "root-only", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *out = NULL, *config;
	struct cg_system *sys;
	int c, dry_run = 0, root_only = 0, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:nh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (strcmp(cmd, "compile"))
				return usage_error("%s: -o is for compile", cmd);
			out = optarg;
			break;
		case 'n':
			if (strcmp(cmd, "apply"))
				return usage_error("%s: --dry-run is for apply",
						   cmd);
			dry_run = 1;
			break;
		case 'r':
			if (strcmp(cmd, "apply"))
				return usage_error("%s: --root-only is for apply",
						   cmd);
			root_only = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return usage_error("%s: bad option", cmd);
		}
	}
	if (optind + 1 != argc)
		return usage_error("%s: needs exactly one CONFIG", cmd);
	config = argv[optind];
	if (!strcmp(cmd, "compile") && !out)
		return usage_error("%s: needs -o BLOB", cmd);

	sys = cg_system_load(config);
	if (!sys)
		return EXIT_PROBLEMS;
	ret = 0;
	if (!strcmp(cmd, "plan"))
		cg_plan_print(stdout, sys);
	else if (!strcmp(cmd, "compile"))
		ret = cg_compile(sys, out);
	else if (!strcmp(cmd, "apply"))
		ret = cg_apply(sys, cg_sysfs_root(), dry_run ? stdout : NULL,
			       root_only);
	cg_system_free(sys);
	return ret ? EXIT_PROBLEMS : 0;
}

static int cmd_decode(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc != 2)
		return usage_error("%s: needs exactly one BLOB", "decode");
	return cg_decode(stdout, argv[1]) ? EXIT_PROBLEMS : 0;
}

/*
 * status [CONFIG]: the default config is compared only when it exists; a
 * config with problems is reported and the live system shown anyway.
 */
static int cmd_status(int argc, char **argv)
{
	const char *config = CG_SYSTEM_CFG;
	struct cg_system *sys = NULL;
	int n, broken = 0;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		usage(stdout);
		return 0;
	}
	if (argc > 2)
		return usage_error("%s: takes at most one CONFIG", "status");
	if (argc == 2 && argv[1][0] == '-')
		return usage_error("status: bad option %s", argv[1]);
	if (argc == 2)
		config = argv[1];
	if (argc == 2 || !access(config, F_OK)) {
		sys = cg_system_load(config);
		broken = !sys;
	}
	n = cg_status(stdout, sys, config, cg_sysfs_root());
	cg_system_free(sys);
	if (n < 0) {
		fprintf(stderr, "colorguard: out of memory\n");
		return EXIT_PROBLEMS;
	}
	if (broken)
		printf("mismatch: %s has problems (listed above); nothing compared\n",
		       config);
	return n || broken ? EXIT_PROBLEMS : 0;
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "geometry"))
		return cmd_geometry(argc - 1, argv + 1);
	if (!strcmp(cmd, "decode"))
		return cmd_decode(argc - 1, argv + 1);
	if (!strcmp(cmd, "status"))
		return cmd_status(argc - 1, argv + 1);
	if (!strcmp(cmd, "cell"))
		return cg_cell_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "chan"))
		return cg_chan_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "check") || !strcmp(cmd, "plan") ||
	    !strcmp(cmd, "compile") || !strcmp(cmd, "apply"))
		return config_command(cmd, argc - 1, argv + 1);
	return usage_error("unknown command %s", cmd);
}
