/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control socket of a cell's supervisor, shared by the supervisor
 * (cli_supervisor.c) and the lifecycle commands (cli_life.c). The commands
 * call the supervisor's file (cell_supervise()), never the other way round.
 *
 * `colorguard cell create CONFIG CELL` forks a supervisor process
 * (`colorguard cell supervise CONFIG CELL` is one, in the foreground) that
 * claims the host side (cell_host.h), has its VM process create the KVM
 * VM (cell_vmproc.h) and then serves the other commands on a control socket,
 * /run/colorguard/<cell>/sock: load, start, shutdown, stats, destroy.
 * `list` walks /run/colorguard/. The socket is root's (directory 0700,
 * socket 0600) and the supervisor checks the peer's uid (SO_PEERCRED);
 * every request is one SOCK_SEQPACKET message of at most REQ_MAX bytes,
 * lines of text without NUL, checked whole before anything is done.
 * Replies: "ok\n" or "error\n" followed by text.
 */
#ifndef COLORGUARD_CLI_LIFE_H
#define COLORGUARD_CLI_LIFE_H

#include <limits.h>

#include <colorguard/cell_comm.h>

struct cg_cell;
struct cg_system;

/* A request's bytes at most, a reply's, and the wait for a shutdown. */
#define REQ_MAX		(PATH_MAX + CELL_COMM_ARGS_MAX + 64)
#define REPLY_MAX	4096
#define SHUTDOWN_MS	5000

/*
 * The supervisor's life, in the child of `cell create` or in `cell
 * supervise`: claim, spawn the VM process (cell_vmproc.h), serve, give
 * back. The outcome of the creation ("O" or "E" and a reason) goes to fd
 * report, or with report -1 to the service manager (READY=1) and the
 * journal; sys is freed once the cell is made. Returns the exit status:
 * 1 when the cell could not be made, the VM process died or the host side
 * could not be given back.
 */
int cell_supervise(struct cg_system *sys, const struct cg_cell *cell,
		   int report);

#endif
