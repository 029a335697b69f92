// SPDX-License-Identifier: GPL-2.0
/*
 * `colorguard cell exec CONFIG CELL -- COMMAND [ARGS]`: take the cell's
 * CPUs from root Linux (cell_host.h), run COMMAND inside the cell's cpuset
 * partition, give everything back when it ends, also when it is stopped
 * by SIGINT, SIGTERM or SIGHUP (passed on to COMMAND). A cell of Linux
 * processes instead of a KVM guest: the same host claim without a VM,
 * for a workload that runs as a process and for testing the claim.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cell_cli.h"
#include "cell_host.h"
#include "cell_state.h"
#include "cell_stop.h"
#include "system_int.h"

struct cg_system *cell_cli_load(const char *path, const char *name,
				const struct cg_cell **cell)
{
	struct cg_system *sys = cg_system_load(path);
	unsigned int i;

	*cell = NULL;
	if (!sys) {
		fprintf(stderr, "colorguard: cell: %s does not validate\n", path);
		return NULL;
	}
	for (i = 0; i < sys->cfg.nr_cells; i++)
		if (!strcmp(sys->cfg.cells[i].name, name))
			*cell = &sys->cfg.cells[i];
	if (!*cell) {
		fprintf(stderr, "colorguard: cell: %s has no cell %s\n", path,
			name);
		cg_system_free(sys);
		return NULL;
	}
	return sys;
}

/*
 * Wait for the command, passing each stop signal on to it; we stay to give
 * the CPUs back. SIGCHLD is blocked with the stop signals, so that a
 * signal and the command's end cannot pass each other unseen.
 */
static int wait_command(pid_t child, int *status)
{
	sigset_t set;
	int sig;

	cell_stop_set(&set);
	sigaddset(&set, SIGCHLD);
	for (;;) {
		pid_t p = waitpid(child, status, WNOHANG);

		if (p == child)
			return 0;
		if (p < 0 && errno != EINTR)
			return -errno;
		sig = sigwaitinfo(&set, NULL);
		if (sig > 0 && sig != SIGCHLD)
			kill(child, sig);
	}
}

/* Fork COMMAND, held until it is in the cell's partition; 0 or -errno. */
static int start_command(struct cell_host *h, char **argv,
			 const sigset_t *mask, pid_t *child, char *why,
			 size_t why_len)
{
	int go[2], ret;
	char c = 0;

	if (pipe2(go, O_CLOEXEC)) {
		ret = -errno;
		snprintf(why, why_len, "pipe: %s", strerror(errno));
		return ret;
	}
	*child = fork();
	if (*child < 0) {
		ret = -errno;
		snprintf(why, why_len, "fork: %s", strerror(errno));
		close(go[0]);
		close(go[1]);
		return ret;
	}
	if (!*child) {
		close(go[1]);
		/* COMMAND gets the signals as the shell gave them to us. */
		sigprocmask(SIG_SETMASK, mask, NULL);
		if (read(go[0], &c, 1) != 1 || c != 'g')
			_exit(126);
		execvp(argv[0], argv);
		fprintf(stderr, "colorguard: cell exec: %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(go[0]);
	ret = cell_host_enter(h, *child, why, why_len);
	c = ret ? 'x' : 'g';
	if (write(go[1], &c, 1) != 1 && !ret)
		ret = -EIO;
	close(go[1]);
	return ret;
}

int cell_cmd_exec(int argc, char **argv)
{
	const char *config, *name;
	char why[512], journal[PATH_MAX], sname[24];
	const struct cg_cell *cell;
	struct cell_host *h = NULL;
	struct cg_system *sys;
	int status = 0, ret, sig;
	sigset_t mask, chld;
	pid_t child = -1;

	if (argc < 5 || strcmp(argv[3], "--")) {
		fprintf(stderr, "usage: colorguard cell exec CONFIG CELL -- COMMAND [ARGS]\n");
		return 2;
	}
	config = argv[1];
	name = argv[2];
	if (!cell_name_ok(name)) {
		fprintf(stderr, "colorguard: cell exec: bad cell name\n");
		return 2;
	}
	sys = cell_cli_load(config, name, &cell);
	if (!sys)
		return 1;
	/* From here until all is given back, a stop signal waits its turn. */
	cell_stop_block(&mask);
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	ret = cell_state_create(name, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "colorguard: cell exec: %s\n", why);
		cg_system_free(sys);
		return 1;
	}
	cell_state_path(name, "journal", journal, sizeof(journal));
	ret = cell_host_claim(&sys->cfg, cell, 0, journal, &h, why, sizeof(why));
	cg_system_free(sys);
	if (ret) {
		fprintf(stderr, "colorguard: cell exec: %s\n", why);
		cell_state_remove(name);
		return 1;
	}
	cell_host_summary(h, why, sizeof(why));
	fprintf(stderr, "colorguard: cell %s: %s\n", name, why);

	/* A stop signal during the claim: COMMAND is not started at all. */
	sig = cell_stop_take();
	if (sig) {
		fprintf(stderr, "colorguard: cell %s: %s before the command started\n",
			name, cell_stop_name(sig, sname, sizeof(sname)));
		ret = -EINTR;
	} else {
		ret = start_command(h, argv + 4, &mask, &child, why, sizeof(why));
		if (ret)
			fprintf(stderr, "colorguard: cell exec: %s\n", why);
	}
	if (child > 0 && wait_command(child, &status))
		ret = -ECHILD;
	if (cell_host_release(h, why, sizeof(why))) {
		fprintf(stderr, "colorguard: cell %s: release: %s (journal kept in %s for colorguard cell gc)\n",
			name, why, journal);
		cell_state_remove(name);
		return 1;
	}
	cell_state_remove(name);
	fprintf(stderr, "colorguard: cell %s: released\n", name);
	if (sig)
		return 128 + sig;
	if (ret)
		return 1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
