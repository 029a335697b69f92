/* SPDX-License-Identifier: GPL-2.0 */
/* `colorguard cell ...` subcommands of the host side (cli_host.c). */
#ifndef COLORGUARD_CELL_CLI_H
#define COLORGUARD_CELL_CLI_H

struct cg_cell;
struct cg_system;

/*
 * Load and validate CONFIG (every problem on stderr) and find cell NAME;
 * NULL when either fails.
 */
struct cg_system *cell_cli_load(const char *path, const char *name,
				const struct cg_cell **cell);

/* argv[0] is the subcommand's name. Exit status: 0, 1 failure, 2 usage. */
int cell_cmd_exec(int argc, char **argv);
/* cli_life.c: the lifecycle commands (the supervisor: cli_supervisor.c). */
int cell_cmd_create(int argc, char **argv);
int cell_cmd_supervise(int argc, char **argv);
int cell_cmd_load(int argc, char **argv);
int cell_cmd_start(int argc, char **argv);
int cell_cmd_shutdown(int argc, char **argv);
int cell_cmd_destroy(int argc, char **argv);
int cell_cmd_list(int argc, char **argv);
int cell_cmd_stats(int argc, char **argv);
int cell_cmd_gc(int argc, char **argv);

#endif
