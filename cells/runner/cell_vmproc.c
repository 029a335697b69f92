// SPDX-License-Identifier: GPL-2.0
/*
 * A cell's VM process (cell_vmproc.h): the VM's creation, its requests and
 * its end, in the supervisor's child; the spawn, the relay and the reaping
 * in the supervisor.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <colorguard/cell_comm.h>

#include "cell_host.h"
#include "cell_state.h"
#include "cell_vm.h"
#include "cell_vmproc.h"
#include "cell_watch.h"
#include "cli_life.h"
#include "system_int.h"

struct vp_cell {
	struct cell_vm *vm;
	struct cell_host *host;
	struct cell_watch *watch;
};

static void stats_text(struct cell_vm *vm, char *buf, size_t len)
{
	struct cell_stats st;
	char cpus[512] = "";
	unsigned int i;
	size_t used = 0, n;

	cell_vm_stats(vm, &st);
	for (i = 0; i < st.nr_cpus && i < 64; i++)
		used += (size_t)snprintf(cpus + used, sizeof(cpus) - used,
					 "%s%u", i ? "," : "", st.cpus[i]);
	n = snprintf(buf, len,
		     "state %s\ncpus %s\nexits mmio=%llu io=%llu hlt=%llu system_event=%llu intr=%llu other=%llu\nrun_ns %llu\nmem_bytes %llu\npages %llu in_colors %llu in_root %llu\nfailed_cpu %d\nfailure %s\n",
		     cell_state_name(st.state), cpus,
		     (unsigned long long)st.exits[CELL_EXIT_MMIO],
		     (unsigned long long)st.exits[CELL_EXIT_IO],
		     (unsigned long long)st.exits[CELL_EXIT_HLT],
		     (unsigned long long)st.exits[CELL_EXIT_SYSTEM_EVENT],
		     (unsigned long long)st.exits[CELL_EXIT_INTR],
		     (unsigned long long)st.exits[CELL_EXIT_OTHER],
		     (unsigned long long)st.run_ns,
		     (unsigned long long)st.mem_bytes,
		     (unsigned long long)st.pages_total,
		     (unsigned long long)st.pages_in_colors,
		     (unsigned long long)st.pages_in_root,
		     st.state == CELL_FAILED ? st.failed_cpu : -1,
		     st.state == CELL_FAILED ? st.failure : "-");
	if (n < len)
		snprintf(buf + n, len - n,
			 "bwlock %s requests=%u acquired=%u refused=%u level=%u held_ns=%llu forced=%u too_soon=%u too_low=%u\nbwlock_limits max_hold_ms=%u min_gap_ms=%u min_level=%u\nbwlock_refusal %s\n",
			 st.bwlock_allowed ? "allowed" : "not_allowed",
			 st.bwlock_requests, st.bwlock_acquired,
			 st.bwlock_refused, st.bwlock_level,
			 (unsigned long long)st.bwlock_held_ns,
			 st.bwlock_forced, st.bwlock_too_soon,
			 st.bwlock_too_low, st.bwlock_max_hold_ms,
			 st.bwlock_min_gap_ms, st.bwlock_min_level,
			 st.bwlock_reason[0] ? st.bwlock_reason : "-");
}

static void vp_destroy(struct vp_cell *c)
{
	cell_watch_stop(c->watch);
	c->watch = NULL;
	cell_vm_destroy(c->vm);
	c->vm = NULL;
}

/*
 * One request: argv-like lines in req (NUL-terminated, no other NUL).
 * Returns 0 (ok) or -1 (error) with the reply text in out; *end for
 * "destroy", whose VM is gone then.
 */
static int vp_handle(struct vp_cell *c, char *req, char *out, size_t len,
		     bool *end)
{
	char *lines[4] = { NULL }, *p = req, why[512] = "";
	unsigned int n = 0;
	uint64_t addr = 0;
	const char *e;
	int ret;

	while (n < 4) {
		lines[n++] = p;
		p = strchr(p, '\n');
		if (!p)
			break;
		*p++ = '\0';
	}
	if (n == 4 && strchr(lines[3], '\n')) {
		snprintf(out, len, "too many lines in the request");
		return -1;
	}
	if (!strcmp(lines[0], "stats") && n == 1) {
		stats_text(c->vm, out, len);
		return 0;
	}
	if (!strcmp(lines[0], "destroy") && n == 1) {
		vp_destroy(c);
		*end = true;
		snprintf(out, len, "destroyed\n");
		return 0;
	}
	if (!strcmp(lines[0], "load") && n >= 3) {
		if (cg_parse_u64(lines[1], &addr, &e)) {
			snprintf(out, len, "load: address %.40s: %s", lines[1], e);
			return -1;
		}
		if (lines[2][0] != '/' || strlen(lines[2]) >= PATH_MAX) {
			snprintf(out, len, "load: the image path must be absolute, shorter than %d bytes",
				 PATH_MAX);
			return -1;
		}
		if (n == 4 && strlen(lines[3]) >= CELL_COMM_ARGS_MAX) {
			snprintf(out, len, "load: argument string longer than %d bytes",
				 CELL_COMM_ARGS_MAX - 1);
			return -1;
		}
		ret = cell_vm_load(c->vm, lines[2], addr, n == 4 ? lines[3] : NULL,
				   why, sizeof(why));
	} else if (!strcmp(lines[0], "start") && n == 1) {
		ret = cell_host_partition_check(c->host, why, sizeof(why));
		if (!ret)
			ret = cell_vm_start(c->vm, why, sizeof(why));
	} else if (!strcmp(lines[0], "shutdown") &&
		   (n == 1 || (n == 2 && !strcmp(lines[1], "force")))) {
		ret = cell_vm_shutdown(c->vm, n == 2, SHUTDOWN_MS, why,
				       sizeof(why));
		if (ret == -EBUSY && !why[0])
			snprintf(why, sizeof(why), "the cell denied the shutdown request (running/locked); --force stops it");
		if (ret == -ETIMEDOUT && !why[0])
			snprintf(why, sizeof(why), "the cell did not answer in %d ms; --force stops it",
				 SHUTDOWN_MS);
	} else {
		snprintf(out, len, "unknown request %.20s", lines[0]);
		return -1;
	}
	if (ret) {
		snprintf(out, len, "%s", why[0] ? why : strerror(-ret));
		return -1;
	}
	stats_text(c->vm, out, len);
	return 0;
}

/* The VM process: create, report, serve; its exit status. */
static int vp_main(const struct cg_config *cfg, const struct cg_cell *cell,
		   struct cell_host *host, FILE *console, int sock)
{
	char why[512], log[PATH_MAX], threads[PATH_MAX];
	char req[REQ_MAX + 1], reply[REPLY_MAX], text[REPLY_MAX - 16];
	struct cell_vm_opts o = { .log_path = log, .vcpu_threads = threads,
				  .console = console };
	struct vp_cell c = { .host = host };
	bool end = false;
	ssize_t n;
	int ret;

	cell_state_path(cell->name, "log", log, sizeof(log));
	ret = cell_host_enter_threads(host, threads, sizeof(threads), why,
				      sizeof(why));
	if (!ret)
		ret = cell_vm_create_opts(cfg, cell, &o, &c.vm, why, sizeof(why));
	if (!ret)
		ret = cell_watch_start(host, c.vm, &c.watch, why, sizeof(why));
	if (ret) {
		if (c.vm)
			cell_vm_destroy(c.vm);
		snprintf(reply, sizeof(reply), "E%s", why);
		send(sock, reply, strlen(reply), MSG_NOSIGNAL);
		return 1;
	}
	if (send(sock, "O", 1, MSG_NOSIGNAL) != 1)
		end = true;
	while (!end) {
		n = recv(sock, req, sizeof(req) - 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		/* The supervisor is gone: so is the cell. */
		if (n <= 0)
			break;
		req[n] = '\0';
		ret = vp_handle(&c, req, text, sizeof(text), &end);
		snprintf(reply, sizeof(reply), "%s\n%s", ret ? "error" : "ok",
			 text);
		send(sock, reply, strlen(reply), MSG_NOSIGNAL);
	}
	if (c.vm)
		vp_destroy(&c);
	return 0;
}

int cell_vmproc_spawn(const struct cg_config *cfg, const struct cg_cell *cell,
		      struct cell_host *host, FILE *console,
		      struct cell_vmproc *vp, char *why, size_t why_len)
{
	pid_t parent = getpid();
	char msg[600], how[64];
	int sv[2], ret;
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		ret = -errno;
		snprintf(why, why_len, "socketpair: %s", strerror(errno));
		return ret;
	}
	fflush(NULL);
	vp->pid = fork();
	if (vp->pid < 0) {
		ret = -errno;
		snprintf(why, why_len, "fork: %s", strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return ret;
	}
	if (!vp->pid) {
		close(sv[0]);
		/* Never a VM without its supervisor. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(1);
		_exit(vp_main(cfg, cell, host, console, sv[1]));
	}
	close(sv[1]);
	vp->sock = sv[0];
	do {
		n = recv(vp->sock, msg, sizeof(msg) - 1, 0);
	} while (n < 0 && errno == EINTR);
	msg[n > 0 ? n : 0] = '\0';
	if (n > 0 && msg[0] == 'O')
		return 0;
	if (n > 1 && msg[0] == 'E') {
		snprintf(why, why_len, "%s", msg + 1);
		cell_vmproc_end(vp, 0, how, sizeof(how));
	} else {
		cell_vmproc_end(vp, 1, how, sizeof(how));
		snprintf(why, why_len, "the VM process ended before the VM was made (%s)",
			 how);
	}
	return -EIO;
}

ssize_t cell_vmproc_request(struct cell_vmproc *vp, const char *req,
			    size_t len, char *reply, size_t reply_len,
			    unsigned int timeout_ms)
{
	struct pollfd p = { .fd = vp->sock, .events = POLLIN };
	ssize_t n;
	int ret;

	if (send(vp->sock, req, len, MSG_NOSIGNAL) != (ssize_t)len)
		return -errno;
	do {
		ret = poll(&p, 1, (int)timeout_ms);
	} while (ret < 0 && errno == EINTR);
	if (!ret) {
		kill(vp->pid, SIGKILL);
		return -ETIMEDOUT;
	}
	n = recv(vp->sock, reply, reply_len - 1, 0);
	if (n <= 0)
		return n ? -errno : -EPIPE;
	reply[n] = '\0';
	return n;
}

int cell_vmproc_end(struct cell_vmproc *vp, int kill_it, char *why,
		    size_t why_len)
{
	int status = 0;
	pid_t p;

	if (vp->pid <= 0)
		return 0;
	if (kill_it)
		kill(vp->pid, SIGKILL);
	close(vp->sock);
	vp->sock = -1;
	do {
		p = waitpid(vp->pid, &status, 0);
	} while (p < 0 && errno == EINTR);
	vp->pid = 0;
	if (p < 0) {
		snprintf(why, why_len, "waitpid: %s", strerror(errno));
		return -ECHILD;
	}
	if (WIFSIGNALED(status)) {
		snprintf(why, why_len, "killed by signal %d", WTERMSIG(status));
		return -EINTR;
	}
	snprintf(why, why_len, "exited %d", WEXITSTATUS(status));
	return WEXITSTATUS(status) ? -EIO : 0;
}
