// SPDX-License-Identifier: GPL-2.0
/*
 * The lifecycle commands of a cell that outlives the command that made
 * it: create (forks the supervisor, cli_supervisor.c) or supervise (is
 * the supervisor, for a service manager), then load, start,
 * shutdown, stats and destroy as requests on its control socket
 * (cli_life.h); list walks /run/colorguard/, gc cleans up after the
 * owners that are gone.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cell_cli.h"
#include "cell_host.h"
#include "cell_state.h"
#include "cli_life.h"
#include "system_int.h"

/*
 * create and supervise, up to the supervisor: CONFIG loaded, the cell's
 * state directory made with us as its owner. NULL with *status the exit
 * status when that fails.
 */
static struct cg_system *new_cell(int argc, char **argv,
				  const struct cg_cell **cell, int *status)
{
	struct cg_system *sys;
	char why[600];

	*status = 2;
	if (argc != 3) {
		fprintf(stderr, "usage: colorguard cell %s CONFIG CELL\n", argv[0]);
		return NULL;
	}
	if (!cell_name_ok(argv[2])) {
		fprintf(stderr, "colorguard: cell %s: bad cell name\n", argv[0]);
		return NULL;
	}
	*status = 1;
	sys = cell_cli_load(argv[1], argv[2], cell);
	if (sys && cell_state_create((*cell)->name, why, sizeof(why))) {
		fprintf(stderr, "colorguard: cell %s: %s\n", argv[0], why);
		cg_system_free(sys);
		sys = NULL;
	}
	return sys;
}

int cell_cmd_create(int argc, char **argv)
{
	const struct cg_cell *cell;
	struct cg_system *sys;
	char why[600];
	int rep[2], status;
	ssize_t n;
	pid_t pid;

	sys = new_cell(argc, argv, &cell, &status);
	if (!sys)
		return status;
	if (pipe2(rep, O_CLOEXEC)) {
		perror("colorguard: cell create: pipe");
		cell_state_remove(cell->name);
		cg_system_free(sys);
		return 1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		perror("colorguard: cell create: fork");
		cell_state_remove(cell->name);
		cg_system_free(sys);
		return 1;
	}
	if (!pid) {
		close(rep[0]);
		setsid();
		_exit(cell_supervise(sys, cell, rep[1]));
	}
	close(rep[1]);
	n = read(rep[0], why, sizeof(why) - 1);
	close(rep[0]);
	why[n > 0 ? n : 0] = '\0';
	if (n <= 0 || why[0] != 'O') {
		fprintf(stderr, "colorguard: cell %s: %s\n", argv[2],
			n > 1 ? why + 1 : "the supervisor died while creating the cell");
		cg_system_free(sys);
		return 1;
	}
	printf("cell %s: created (supervisor %d); %s\n", argv[2], (int)pid,
	       why + 1);
	cg_system_free(sys);
	return 0;
}

/*
 * `colorguard cell supervise CONFIG CELL`: the supervisor in the
 * foreground, as a service's main process (colorguard-cell@.service,
 * Type=notify): READY=1 once the cell is made, exit when it is destroyed.
 */
int cell_cmd_supervise(int argc, char **argv)
{
	const struct cg_cell *cell;
	struct cg_system *sys;
	int status;

	sys = new_cell(argc, argv, &cell, &status);
	return sys ? cell_supervise(sys, cell, -1) : status;
}

/* Send one request to cell name; reply text (after the status line) in out. */
static int request(const char *name, const char *req, size_t req_len,
		   char *out, size_t len)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = (SHUTDOWN_MS / 1000) * 2 + 30 };
	char reply[REPLY_MAX + 1], why[512];
	ssize_t n;
	int s;

	if (!cell_name_ok(name)) {
		snprintf(out, len, "bad cell name");
		return -1;
	}
	if (!cell_state_live(name, NULL)) {
		cell_state_path(name, NULL, reply, sizeof(reply));
		if (!access(reply, F_OK)) {
			if (cell_state_clean(name, why, sizeof(why)))
				snprintf(out, len, "no cell %s: its supervisor is gone and cleaning its state failed: %s",
					 name, why);
			else
				snprintf(out, len, "no cell %s: its supervisor was gone; stale state cleaned",
					 name);
		} else {
			snprintf(out, len, "no cell %s", name);
		}
		return -1;
	}
	cell_state_path(name, "sock", a.sun_path, sizeof(a.sun_path));
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a))) {
		snprintf(out, len, "cell %s: %s: %s", name, a.sun_path,
			 strerror(errno));
		if (s >= 0)
			close(s);
		return -1;
	}
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(s, req, req_len, MSG_NOSIGNAL) != (ssize_t)req_len) {
		snprintf(out, len, "cell %s: send: %s", name, strerror(errno));
		close(s);
		return -1;
	}
	n = recv(s, reply, sizeof(reply) - 1, 0);
	close(s);
	if (n <= 0) {
		snprintf(out, len, "cell %s: no reply from the supervisor", name);
		return -1;
	}
	reply[n] = '\0';
	if (!strncmp(reply, "ok\n", 3)) {
		snprintf(out, len, "%.4000s", reply + 3);
		return 0;
	}
	snprintf(out, len, "%.4000s", !strncmp(reply, "error\n", 6) ? reply + 6 : reply);
	return -1;
}

static int simple(const char *what, const char *name, const char *req)
{
	char out[REPLY_MAX];

	if (request(name, req, strlen(req), out, sizeof(out))) {
		fprintf(stderr, "colorguard: cell %s: %s: %s\n", name, what, out);
		return 1;
	}
	printf("%s", out);
	return 0;
}

int cell_cmd_load(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "addr", required_argument, NULL, 'a' },
		{ "string", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	const char *addr = "0", *args = NULL;
	char req[REQ_MAX + 1], path[PATH_MAX];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "a:s:", opts, NULL)) != -1) {
		if (c == 'a')
			addr = optarg;
		else if (c == 's')
			args = optarg;
		else
			return 2;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "usage: colorguard cell load CELL IMAGE [-a ADDR] [-s STRING]\n");
		return 2;
	}
	if (!realpath(argv[optind + 1], path)) {
		fprintf(stderr, "colorguard: cell load: %s: %s\n",
			argv[optind + 1], strerror(errno));
		return 1;
	}
	if (strchr(addr, '\n') || strchr(path, '\n') ||
	    (args && strchr(args, '\n'))) {
		fprintf(stderr, "colorguard: cell load: no newline in the address, path or string\n");
		return 2;
	}
	if ((size_t)snprintf(req, sizeof(req), "load\n%s\n%s%s%s", addr, path,
			     args ? "\n" : "", args ? args : "") >= sizeof(req)) {
		fprintf(stderr, "colorguard: cell load: request too long\n");
		return 2;
	}
	return simple("load", argv[optind], req);
}

int cell_cmd_start(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: colorguard cell start CELL\n");
		return 2;
	}
	return simple("start", argv[1], "start");
}

int cell_cmd_shutdown(int argc, char **argv)
{
	bool force = argc == 3 && !strcmp(argv[2], "--force");

	if (argc != 2 && !force) {
		fprintf(stderr, "usage: colorguard cell shutdown CELL [--force]\n");
		return 2;
	}
	return simple("shutdown", argv[1], force ? "shutdown\nforce" : "shutdown");
}

int cell_cmd_destroy(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: colorguard cell destroy CELL\n");
		return 2;
	}
	return simple("destroy", argv[1], "destroy");
}

int cell_cmd_stats(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: colorguard cell stats CELL\n");
		return 2;
	}
	return simple("stats", argv[1], "stats");
}

/* One line per cell: NAME STATE CPUS; stale directories are cleaned. */
int cell_cmd_list(int argc, char **argv)
{
	char out[REPLY_MAX], why[512];
	struct dirent *e;
	int rc = 0;
	DIR *d;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: colorguard cell list\n");
		return 2;
	}
	d = opendir(CELL_RUN_DIR);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *st, *cpus;

		if (e->d_name[0] == '.' || !cell_name_ok(e->d_name))
			continue;
		if (!cell_state_live(e->d_name, NULL)) {
			if (cell_state_clean(e->d_name, why, sizeof(why))) {
				printf("%s stale (supervisor gone; cleaning failed: %s)\n",
				       e->d_name, why);
				rc = 1;
			} else {
				printf("%s stale (supervisor gone): cleaned\n",
				       e->d_name);
			}
			continue;
		}
		if (request(e->d_name, "stats", 5, out, sizeof(out))) {
			printf("%s ? (%s)\n", e->d_name, out);
			rc = 1;
			continue;
		}
		st = strstr(out, "state ");
		cpus = strstr(out, "cpus ");
		if (st)
			st[strcspn(st, "\n")] = '\0';
		if (cpus)
			cpus[strcspn(cpus, "\n")] = '\0';
		printf("%s %s %s\n", e->d_name, st ? st + 6 : "?",
		       cpus ? cpus + 5 : "?");
	}
	closedir(d);
	return rc;
}

/*
 * gc: every cell directory whose owner (supervisor, `cell run`, `cell
 * exec`) is gone gets its journal replayed and is removed; one line per
 * cell cleaned. Run by colorguard.service and each cell's unit, so that
 * root Linux gets its CPUs back without waiting for a command.
 */
int cell_cmd_gc(int argc, char **argv)
{
	char why[512];
	struct dirent *e;
	int rc = 0;
	DIR *d;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: colorguard cell gc\n");
		return 2;
	}
	d = opendir(CELL_RUN_DIR);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !cell_name_ok(e->d_name) ||
		    cell_state_live(e->d_name, NULL))
			continue;
		/* Checked again under the state lock: it may be a new owner's. */
		switch (cell_state_clean(e->d_name, why, sizeof(why))) {
		case 0:
			printf("cell %s: owner gone, claim given back\n",
			       e->d_name);
			break;
		case -EBUSY:
			break;
		default:
			fprintf(stderr, "colorguard: cell %s: owner gone, giving its claim back failed: %s\n",
				e->d_name, why);
			rc = 1;
		}
	}
	closedir(d);
	return rc;
}
