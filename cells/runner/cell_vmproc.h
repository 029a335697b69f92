/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cell's VM process: the child of its supervisor (cli_supervisor.c) that
 * owns the KVM VM. cgroup v2 moves a thread only within its process's
 * threaded domain, and a cpuset partition must hang below the cgroup
 * root, so the process whose vCPU threads go into the partition has to
 * live in the root's domain. That is this process; the supervisor stays
 * where it was started (a systemd unit's cgroup), keeps the claim of the
 * host side and the control socket, and forwards the cell's requests
 * here. The VM process dies with the supervisor (PR_SET_PDEATHSIG), so a
 * cell never runs unsupervised.
 *
 * Over a SOCK_SEQPACKET pair: first the outcome of the VM's creation
 * ("O" or "E" and a reason), then one reply ("ok\n" or "error\n" and
 * text, as on the control socket) to each request (cli_life.h's lines:
 * load, start, shutdown, stats, destroy). "destroy" ends the VM and the
 * process.
 */
#ifndef COLORGUARD_CELL_VMPROC_H
#define COLORGUARD_CELL_VMPROC_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct cg_cell;
struct cg_config;
struct cell_host;

struct cell_vmproc {
	pid_t pid;
	int sock;		/* the supervisor's end of the pair */
};

/*
 * Fork the VM process of cell (its host side claimed in host), which moves
 * itself to the cgroup root, its vCPU threads into the partition, creates
 * the VM with its console on console, and watches the partition. Waits
 * for the outcome: 0 with *vp set, or -errno and why (the process is then
 * reaped).
 */
int cell_vmproc_spawn(const struct cg_config *cfg, const struct cg_cell *cell,
		      struct cell_host *host, FILE *console,
		      struct cell_vmproc *vp, char *why, size_t why_len);

/*
 * One request (len bytes, no NUL) and its reply, NUL-terminated, in reply:
 * its length, or -errno when the VM process is gone or does not answer
 * within timeout_ms (it is then killed).
 */
ssize_t cell_vmproc_request(struct cell_vmproc *vp, const char *req,
			    size_t len, char *reply, size_t reply_len,
			    unsigned int timeout_ms);

/*
 * Reap the VM process, killed first if kill_it (else it must be ending);
 * how it ended in why ("exited 0", "killed by signal 11"). 0 if it exited
 * with status 0.
 */
int cell_vmproc_end(struct cell_vmproc *vp, int kill_it, char *why,
		    size_t why_len);

#endif
