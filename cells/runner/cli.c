// SPDX-License-Identifier: GPL-2.0
/*
 * `colorguard cell ...`: the subcommand table and `cell run` (create,
 * load, start, wait, print results and stats, destroy, in the
 * foreground). The lifecycle commands of a cell that outlives the command
 * (create, load, start, shutdown, destroy, list, stats, gc) go in this
 * table.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell_cli.h"
#include "cell_host.h"
#include "cell_state.h"
#include "cell_stop.h"
#include "cell_vm.h"
#include "cell_watch.h"
#include "colorguard.h"
#include "guest_text.h"
#include "system.h"
#include "system_int.h"
#include "vm_int.h"

#define EXIT_PROBLEMS	1
#define EXIT_USAGE	2

static const char run_usage[] =
"usage: colorguard cell run CONFIG CELL [IMAGE] [-a ADDR] [-s ARGS]\n"
"                           [--timeout S] [--results] [--shutdown N]\n"
"                           [--no-color] [--check-colors LIST]\n"
"  Create the KVM cell CELL of CONFIG (guest RAM from /dev/mm-color in the\n"
"  cell's colors), load IMAGE (default: the cell's `image`, relative to the\n"
"  config's folder) at ADDR (default: memory[0]), start it with ARGS\n"
"  (default: the cell's `args`), wait until it stops, print its state,\n"
"  stats and (--results) results, destroy it.\n"
"  --timeout S     watchdog: a cell still running after S s fails (default 60)\n"
"  --shutdown N    once the inmate runs, send it N shutdown requests\n"
"  --no-color      control run: anonymous memory of every color instead of\n"
"                  /dev/mm-color (colors not checked against root's)\n"
"  --check-colors LIST  count pages in LIST instead of the cell's colors\n"
"SIGINT, SIGTERM and SIGHUP stop the cell; everything is given back.\n"
"Exit status: 0 the cell shut down, 1 refused or failed, 2 usage,\n"
"128+N stopped by signal N.\n";

static int usage_error(const char *msg)
{
	fprintf(stderr, "colorguard cell: %s\n%s", msg, run_usage);
	return EXIT_USAGE;
}

/* Parse and check the whole config; the cell named, or NULL. */
static const struct cg_cell *find_cell(const char *path, const char *name,
				       struct cg_config *cfg)
{
	struct cg_diag d = { .file = path, .out = stderr };
	struct cg_system *sys;
	unsigned int i;

	if (cg_config_load(&d, path, cfg))
		return NULL;
	sys = cg_system_build(&d, cfg, cg_sysfs_root());
	if (!sys || d.errors) {
		cg_system_free(sys);
		return NULL;
	}
	cg_system_free(sys);
	for (i = 0; i < cfg->nr_cells; i++)
		if (!strcmp(cfg->cells[i].name, name))
			return &cfg->cells[i];
	fprintf(stderr, "colorguard: %s: no cell \"%s\"\n", path, name);
	return NULL;
}

static void print_results(struct cell_vm *vm)
{
	struct cell_comm_results res;
	unsigned int i;

	/* The runner's copy, validated: the inmate cannot change it now. */
	cell_comm_get_results(vm, &res);
	for (i = 0; i < res.count; i++) {
		char name[CELL_TEXT_ESCAPED(CELL_COMM_NAME_MAX)];

		cell_text_escape(name, sizeof(name), res.r[i].name,
				 CELL_COMM_NAME_MAX);
		printf("result %s %llu\n", name[0] ? name : "?",
		       (unsigned long long)res.r[i].value);
	}
}

static void print_stats(const char *name, const struct cell_stats *st)
{
	printf("cell %s: run time %llu.%03llu ms, exits mmio=%llu io=%llu hlt=%llu system_event=%llu intr=%llu other=%llu\n",
	       name, (unsigned long long)(st->run_ns / 1000000),
	       (unsigned long long)(st->run_ns / 1000 % 1000),
	       (unsigned long long)st->exits[CELL_EXIT_MMIO],
	       (unsigned long long)st->exits[CELL_EXIT_IO],
	       (unsigned long long)st->exits[CELL_EXIT_HLT],
	       (unsigned long long)st->exits[CELL_EXIT_SYSTEM_EVENT],
	       (unsigned long long)st->exits[CELL_EXIT_INTR],
	       (unsigned long long)st->exits[CELL_EXIT_OTHER]);
}

/* The bandwidth lock's line: when the cell may use it or tried to. */
static void print_bwlock(const char *name, const struct cell_stats *st)
{
	if (!st->bwlock_allowed && !st->bwlock_requests)
		return;
	printf("cell %s: bandwidth lock %s, requests=%u acquired=%u refused=%u level=%u, held %llu.%03llu ms, forced=%u too_soon=%u too_low=%u%s%s\n",
	       name, st->bwlock_allowed ? "allowed" : "not allowed",
	       st->bwlock_requests, st->bwlock_acquired, st->bwlock_refused,
	       st->bwlock_level,
	       (unsigned long long)(st->bwlock_held_ns / 1000000),
	       (unsigned long long)(st->bwlock_held_ns / 1000 % 1000),
	       st->bwlock_forced, st->bwlock_too_soon, st->bwlock_too_low,
	       st->bwlock_reason[0] ? "; last: " : "", st->bwlock_reason);
}

/* Send n shutdown requests once the inmate has started. */
static void shutdown_requests(struct cell_vm *vm, const char *name,
			      unsigned int n, unsigned int timeout_s)
{
	unsigned int i, waited = 0;
	char why[256];

	while (cell_vm_inmate_state(vm) == CELL_INMATE_NONE &&
	       waited++ < timeout_s * 100) {
		if (!cell_vm_wait(vm, 10))
			return;
	}
	for (i = 1; i <= n; i++) {
		struct cell_stats st;
		int ret;

		why[0] = '\0';
		ret = cell_vm_shutdown(vm, false, 5000, why, sizeof(why));
		cell_vm_stats(vm, &st);
		printf("cell %s: shutdown request %u: %s, cell %s%s%s\n", name,
		       i, ret == 0 ? "accepted" : ret == -EBUSY ? "denied" :
		       "no answer", cell_state_name(st.state), why[0] ? ": " : "",
		       why);
		fflush(stdout);
		if (!ret)
			return;
	}
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "addr", required_argument, NULL, 'a' },
		{ "string", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "results", no_argument, NULL, 'r' },
		{ "shutdown", required_argument, NULL, 'S' },
		{ "no-color", no_argument, NULL, 'n' },
		{ "check-colors", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *args = NULL, *check = NULL, *image = NULL, *why_s;
	unsigned int timeout_s = 60, shutdowns = 0;
	struct cell_vm_opts o = { 0 };
	struct cg_config *cfg = NULL;
	const struct cg_cell *cell;
	char why[256], imgpath[4200];
	uint64_t addr = 0, v, total, in, in_root;
	int c, results = 0, ret, status = EXIT_PROBLEMS;
	struct cell_stats st;
	struct cell_vm *vm;
	struct cell_host *host = NULL;
	char journal[PATH_MAX], threads[PATH_MAX], sname[24];
	struct cell_watch *watch = NULL;
	bool have_state = false;
	int sig = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "a:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			if (cg_parse_u64(optarg, &addr, &why_s))
				return usage_error("-a: not an address");
			break;
		case 's':
			args = optarg;
			break;
		case 't':
			if (cg_parse_u64(optarg, &v, &why_s) || !v || v > 86400)
				return usage_error("--timeout: 1 to 86400 s");
			timeout_s = v;
			break;
		case 'r':
			results = 1;
			break;
		case 'S':
			if (cg_parse_u64(optarg, &v, &why_s) || !v || v > 100)
				return usage_error("--shutdown: 1 to 100 requests");
			shutdowns = v;
			break;
		case 'n':
			o.no_color = true;
			break;
		case 'c':
			check = optarg;
			break;
		case 'h':
			fputs(run_usage, stdout);
			return 0;
		default:
			return usage_error("run: bad option");
		}
	}
	if (argc - optind < 2 || argc - optind > 3)
		return usage_error("run: needs CONFIG CELL [IMAGE]");
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return EXIT_PROBLEMS;
	cell = find_cell(argv[optind], argv[optind + 1], cfg);
	if (!cell)
		goto out;
	if (argc - optind == 3) {
		image = argv[optind + 2];
	} else if (cell->image.line) {
		char dir[4096];

		snprintf(dir, sizeof(dir), "%s", argv[optind]);
		if (cell->image.s[0] == '/')
			snprintf(imgpath, sizeof(imgpath), "%s", cell->image.s);
		else
			snprintf(imgpath, sizeof(imgpath), "%s/%s", dirname(dir),
				 cell->image.s);
		image = imgpath;
	} else {
		fprintf(stderr, "colorguard: cell %s: no IMAGE given and no `image` in the config\n",
			cell->name);
		goto out;
	}
	if (!args && cell->args.line)
		args = cell->args.s;

	/*
	 * The host side first: state dir, CPUs, IRQs, memguard (cell_host.h).
	 * A stop signal waits until a step is whole, then ends the run.
	 */
	cell_stop_block(NULL);
	ret = cell_state_create(cell->name, why, sizeof(why));
	if (!ret) {
		have_state = true;
		cell_state_path(cell->name, "journal", journal, sizeof(journal));
		ret = cell_host_claim(cfg, cell,
				      o.no_color ? CELL_HOST_NO_COLOR : 0,
				      journal, &host, why, sizeof(why));
	}
	if (!ret)
		ret = cell_host_enter_threads(host, threads, sizeof(threads),
					      why, sizeof(why));
	if (ret) {
		fprintf(stderr, "colorguard: cell %s: %s\n", cell->name, why);
		goto out;
	}
	o.vcpu_threads = threads;
	sig = cell_stop_take();
	if (sig)
		goto out;
	ret = cell_vm_create_opts(cfg, cell, &o, &vm, why, sizeof(why));
	if (!ret) {
		ret = cell_watch_start(host, vm, &watch, why, sizeof(why));
		if (ret)
			cell_vm_destroy(vm);
	}
	if (ret) {
		fprintf(stderr, "colorguard: cell %s: %s\n", cell->name, why);
		goto out;
	}
	sig = cell_stop_take();
	if (sig) {
		cell_watch_stop(watch);
		cell_vm_destroy(vm);
		goto out;
	}
	cell_vm_stats(vm, &st);
	printf("cell %s: created in %llu.%03llu ms, %llu KiB of %s memory, vCPUs %u\n",
	       cell->name, (unsigned long long)(st.create_ns / 1000000),
	       (unsigned long long)(st.create_ns / 1000 % 1000),
	       (unsigned long long)((st.pages_total ? st.pages_total * 4096 :
				     st.mem_bytes) >> 10),
	       o.no_color ? "anonymous (--no-color)" : "colored",
	       st.nr_cpus);
	if (!cell_vm_check_colors(vm, check, &total, &in, &in_root, why,
				  sizeof(why)))
		printf("cell %s: pages %llu/%llu in colors %s, %llu in root colors\n",
		       cell->name, (unsigned long long)in,
		       (unsigned long long)total, check ? check : cell->colors.s,
		       (unsigned long long)in_root);
	else
		printf("cell %s: color check: %s\n", cell->name, why);
	ret = cell_vm_load(vm, image, addr, args, why, sizeof(why));
	if (!ret)
		ret = cell_host_partition_check(host, why, sizeof(why));
	if (!ret)
		ret = cell_vm_start(vm, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "colorguard: cell %s: %s\n", cell->name, why);
		cell_watch_stop(watch);
		cell_vm_destroy(vm);
		goto out;
	}
	fflush(stdout);
	if (shutdowns)
		shutdown_requests(vm, cell->name, shutdowns, timeout_s);
	if (cell_stop_wait(vm, timeout_s * 1000, &sig) == -ETIMEDOUT) {
		snprintf(why, sizeof(why), "watchdog: still running after %u s",
			 timeout_s);
		cell_vm_fail(vm, why);
	}
	cell_vm_stats(vm, &st);
	if (st.state == CELL_FAILED)
		printf("cell %s: failed on CPU %d: %s\n", cell->name,
		       st.failed_cpu, st.failure);
	else
		printf("cell %s: %s\n", cell->name, cell_state_name(st.state));
	print_stats(cell->name, &st);
	print_bwlock(cell->name, &st);
	if (results)
		print_results(vm);
	cell_watch_stop(watch);
	cell_vm_destroy(vm);
	status = st.state == CELL_SHUT_DOWN ? 0 : EXIT_PROBLEMS;
out:
	if (sig) {
		printf("cell %s: stopped by %s\n", cell->name,
		       cell_stop_name(sig, sname, sizeof(sname)));
		status = 128 + sig;
	}
	if (host && cell_host_release(host, why, sizeof(why))) {
		fprintf(stderr, "colorguard: cell %s: giving back the host side: %s (journal kept in %s for colorguard cell gc)\n",
			cell->name, why, journal);
		status = EXIT_PROBLEMS;
	}
	/* A journal not replayed keeps the directory, stale, for gc. */
	if (have_state)
		cell_state_remove(cell->name);
	free(cfg);
	fflush(stdout);
	return status;
}

/*
 * autostart CONFIG: the cells CONFIG marks `autostart = true`, a name a
 * line, for colorguard-generator at boot; nothing from a config with
 * problems (they go to stderr, exit 1).
 */
static int cmd_autostart(int argc, char **argv)
{
	struct cg_system *sys;
	unsigned int i;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: colorguard cell autostart CONFIG\n");
		return EXIT_USAGE;
	}
	sys = cg_system_load(argv[1]);
	if (!sys) {
		fprintf(stderr, "colorguard: cell autostart: %s does not validate\n",
			argv[1]);
		return EXIT_PROBLEMS;
	}
	for (i = 0; i < sys->cfg.nr_cells; i++)
		if (sys->cfg.cells[i].autostart)
			printf("%s\n", sys->cfg.cells[i].name);
	cg_system_free(sys);
	return fflush(stdout) ? EXIT_PROBLEMS : 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} cell_cmds[] = {
	{ "run", cmd_run },
	{ "autostart", cmd_autostart },
	/* cli_life.c, cli_host.c */
	{ "create", cell_cmd_create },
	{ "supervise", cell_cmd_supervise },
	{ "load", cell_cmd_load },
	{ "start", cell_cmd_start },
	{ "shutdown", cell_cmd_shutdown },
	{ "destroy", cell_cmd_destroy },
	{ "list", cell_cmd_list },
	{ "stats", cell_cmd_stats },
	{ "exec", cell_cmd_exec },
	{ "gc", cell_cmd_gc },
};

/**
 * cg_cell_main() - `colorguard cell SUBCOMMAND ...`
 * @argc: arguments from "cell" on
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int cg_cell_main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(run_usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	for (i = 0; i < ARRAY_SIZE(cell_cmds); i++)
		if (!strcmp(argv[1], cell_cmds[i].name))
			return cell_cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "colorguard cell: unknown subcommand %s\n", argv[1]);
	return EXIT_USAGE;
}
