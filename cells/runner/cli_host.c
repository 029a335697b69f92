// SPDX-License-Identifier: GPL-2.0
/*
 * `colorguard cell exec CONFIG CELL -- COMMAND [ARGS]`: take the cell's
 * CPUs from root Linux (cell_host.h), run COMMAND inside the cell's cpuset
 * partition, give everything back when it ends. A cell of Linux processes
 * instead of a KVM guest: the same host claim without a VM, for a
 * workload that runs as a process and for testing the claim.
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

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

int cell_cmd_exec(int argc, char **argv)
{
	const char *config, *name;
	char why[512], journal[PATH_MAX];
	const struct cg_cell *cell;
	struct cell_host *h = NULL;
	struct cg_system *sys;
	struct sigaction sa;
	int go[2], status = 0, ret;
	pid_t child;
	char c = 0;

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
	ret = cell_state_create(name, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "colorguard: cell exec: %s\n", why);
		cg_system_free(sys);
		return 1;
	}
	cell_state_path(name, "journal", journal, sizeof(journal));
	ret = cell_host_claim(&sys->cfg, cell, journal, &h, why, sizeof(why));
	cg_system_free(sys);
	if (ret) {
		fprintf(stderr, "colorguard: cell exec: %s\n", why);
		cell_state_remove(name);
		return 1;
	}
	cell_host_summary(h, why, sizeof(why));
	fprintf(stderr, "colorguard: cell %s: %s\n", name, why);

	/* The child waits until it is in the partition, then runs COMMAND. */
	if (pipe2(go, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}
	child = fork();
	if (child < 0) {
		ret = -errno;
		close(go[0]);
		close(go[1]);
		goto out;
	}
	if (!child) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1 || c != 'g')
			_exit(126);
		execvp(argv[4], argv + 4);
		fprintf(stderr, "colorguard: cell exec: %s: %s\n", argv[4],
			strerror(errno));
		_exit(127);
	}
	close(go[0]);
	ret = cell_host_enter(h, child, why, sizeof(why));
	c = ret ? 'x' : 'g';
	if (write(go[1], &c, 1) != 1 && !ret)
		ret = -EIO;
	close(go[1]);
	if (ret)
		fprintf(stderr, "colorguard: cell exec: %s\n", why);

	/* Signals go to COMMAND; we stay to give the CPUs back. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	while (waitpid(child, &status, 0) < 0) {
		if (errno != EINTR)
			break;
		if (got_signal)
			kill(child, got_signal);
		got_signal = 0;
	}
out:
	if (cell_host_release(h, why, sizeof(why))) {
		fprintf(stderr, "colorguard: cell %s: release: %s (journal kept in %s)\n",
			name, why, journal);
		return 1;
	}
	cell_state_remove(name);
	fprintf(stderr, "colorguard: cell %s: released\n", name);
	if (ret)
		return 1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
