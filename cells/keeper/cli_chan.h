/* SPDX-License-Identifier: GPL-2.0 */
/* `colorguard chan ...`: the commands (cli_chan.c, cli_rw.c). */
#ifndef COLORGUARD_CLI_CHAN_H
#define COLORGUARD_CLI_CHAN_H

#include <stdio.h>

#define CHAN_EXIT_FAILED	1
#define CHAN_EXIT_USAGE		2

/**
 * cg_chan_main() - `colorguard chan SUBCOMMAND ...` (scripts/colorguard/main.c)
 * @argc: arguments from "chan" on
 * @argv: the arguments
 *
 * Return: the exit status.
 */
int cg_chan_main(int argc, char **argv);

/* Print @msg and the usage, return CHAN_EXIT_USAGE. */
int chan_usage_error(const char *msg);
/* The usage text, to @f. */
void chan_usage(FILE *f);

/* cli_rw.c: `chan cat` and `chan send`, from "cat" or "send" on. */
int chan_cmd_cat(int argc, char **argv);
int chan_cmd_send(int argc, char **argv);

#endif
