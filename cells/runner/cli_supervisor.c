// SPDX-License-Identifier: GPL-2.0
/*
 * The supervisor of a cell: the process `colorguard cell create` forks.
 * It claims the host side (cell_host.h), creates the KVM VM (cell_vm.h)
 * and serves the commands on the control socket (cli_life.h) until the
 * cell is destroyed or it is told to stop.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <colorguard/cell_comm.h>

#include "cell_host.h"
#include "cell_state.h"
#include "cell_stop.h"
#include "cell_vm.h"
#include "cell_watch.h"
#include "cli_life.h"
#include "system_int.h"

static volatile sig_atomic_t sv_stop;

static void sv_on_term(int sig)
{
	(void)sig;
	sv_stop = 1;
}

struct sv {
	const char *name;
	struct cell_vm *vm;
	struct cell_host *host;
	struct cell_watch *watch;
	bool destroyed;
	bool node;		/* /dev/mm-color-<cell> made */
};

#define MMC_DEVICES	"/sys/kernel/mm/color/devices"

/* One write of mm-color's devices file; 0 or -errno. */
static int mmc_devices(const char *cmd)
{
	int fd = open(MMC_DEVICES, O_WRONLY | O_CLOEXEC), ret = 0;
	size_t len = strlen(cmd);

	if (fd < 0)
		return -errno;
	if (write(fd, cmd, len) != (ssize_t)len)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * /dev/mm-color-<cell> for unmodified VMMs (QEMU's memory-backend-file):
 * the cell's colors, its memory regions' size rounded up to MiB.
 */
static void sv_node_add(struct sv *s, const struct cg_cell *cell)
{
	unsigned long long bytes = 0;
	char cmd[CG_LIST_MAX + 96];
	unsigned int i;

	for (i = 0; i < cell->nr_regions; i++)
		bytes += cell->regions[i].size.v;
	snprintf(cmd, sizeof(cmd), "add %s %s %llu\n", cell->name,
		 cell->colors.s, (bytes + (1ull << 20) - 1) >> 20);
	s->node = !mmc_devices(cmd);
	printf("cell %s: /dev/mm-color-%s %s\n", cell->name, cell->name,
	       s->node ? "made" : "not made (mm-color without devices, or refused)");
}

static void stats_text(struct sv *s, char *buf, size_t len)
{
	struct cell_stats st;
	char cpus[512] = "";
	unsigned int i;
	size_t used = 0, n;

	cell_vm_stats(s->vm, &st);
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

static int sv_destroy(struct sv *s, char *why, size_t len)
{
	int ret;

	cell_watch_stop(s->watch);
	s->watch = NULL;
	cell_vm_destroy(s->vm);
	s->vm = NULL;
	if (s->node) {
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "remove %s\n", s->name);
		/* Busy while a VMM still maps it: the node then stays. */
		if (mmc_devices(cmd))
			printf("cell %s: /dev/mm-color-%s still in use, left in place\n",
			       s->name, s->name);
		s->node = false;
	}
	ret = cell_host_release(s->host, why, len);
	s->host = NULL;
	s->destroyed = true;
	/* A failed release keeps the journal for colorguard cell gc. */
	if (!ret)
		cell_state_remove(s->name);
	else
		cell_state_disown(s->name);
	return ret;
}

/*
 * One request: argv-like lines in req (NUL-terminated, no other NUL).
 * Returns 0 (ok) or -1 (error) with the reply text in out.
 */
static int sv_handle(struct sv *s, char *req, char *out, size_t len)
{
	char *lines[4] = { NULL }, *p = req, why[512] = "";
	bool destroy = false;
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
		stats_text(s, out, len);
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
		ret = cell_vm_load(s->vm, lines[2], addr, n == 4 ? lines[3] : NULL,
				   why, sizeof(why));
	} else if (!strcmp(lines[0], "start") && n == 1) {
		ret = cell_host_partition_check(s->host, why, sizeof(why));
		if (!ret)
			ret = cell_vm_start(s->vm, why, sizeof(why));
	} else if (!strcmp(lines[0], "shutdown") &&
		   (n == 1 || (n == 2 && !strcmp(lines[1], "force")))) {
		ret = cell_vm_shutdown(s->vm, n == 2, SHUTDOWN_MS, why,
				       sizeof(why));
		if (ret == -EBUSY && !why[0])
			snprintf(why, sizeof(why), "the cell denied the shutdown request (running/locked); --force stops it");
		if (ret == -ETIMEDOUT && !why[0])
			snprintf(why, sizeof(why), "the cell did not answer in %d ms; --force stops it",
				 SHUTDOWN_MS);
	} else if (!strcmp(lines[0], "destroy") && n == 1) {
		destroy = true;
		ret = sv_destroy(s, why, sizeof(why));
	} else {
		snprintf(out, len, "unknown request %.20s", lines[0]);
		return -1;
	}
	if (ret && destroy) {
		snprintf(out, len, "destroyed, but giving back the host side failed: %s",
			 why);
		return -1;
	}
	if (ret) {
		snprintf(out, len, "%s", why[0] ? why : strerror(-ret));
		return -1;
	}
	if (destroy)
		snprintf(out, len, "destroyed\n");
	else
		stats_text(s, out, len);
	return 0;
}

static void sv_serve_one(struct sv *s, int lsock)
{
	char req[REQ_MAX + 1], reply[REPLY_MAX], text[REPLY_MAX - 16];
	struct timeval tv = { .tv_sec = 2 };
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	ssize_t n;
	int c, ok;

	c = accept4(lsock, NULL, NULL, SOCK_CLOEXEC);
	if (c < 0)
		return;
	setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &clen) ||
	    cred.uid != 0) {
		snprintf(reply, sizeof(reply), "error\nroot only\n");
		send(c, reply, strlen(reply), MSG_NOSIGNAL);
		close(c);
		return;
	}
	n = recv(c, req, sizeof(req), MSG_TRUNC);
	if (n <= 0) {
		close(c);
		return;
	}
	if ((size_t)n > REQ_MAX) {
		snprintf(text, sizeof(text), "request longer than %d bytes", REQ_MAX);
		ok = -1;
	} else if (memchr(req, '\0', (size_t)n)) {
		snprintf(text, sizeof(text), "request holds a NUL byte");
		ok = -1;
	} else {
		req[n] = '\0';
		if (n && req[n - 1] == '\n')
			req[n - 1] = '\0';
		ok = sv_handle(s, req, text, sizeof(text));
	}
	snprintf(reply, sizeof(reply), "%s\n%s", ok ? "error" : "ok", text);
	send(c, reply, strlen(reply), MSG_NOSIGNAL);
	close(c);
}

static int sv_listen(const char *name, char *why, size_t len)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int s;

	cell_state_path(name, "sock", a.sun_path, sizeof(a.sun_path));
	s = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (s < 0) {
		snprintf(why, len, "socket: %s", strerror(errno));
		return -1;
	}
	unlink(a.sun_path);
	/* 0600 from the start: no window in which others could connect. */
	umask(077);
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 8)) {
		snprintf(why, len, "%s: %s", a.sun_path, strerror(errno));
		close(s);
		return -1;
	}
	return s;
}

/* Runs in the supervisor; tells the create command through fd report. */
int cell_supervise(struct cg_system *sys, const struct cg_cell *cell,
		   int report)
{
	char why[512], path[PATH_MAX], msg[600], name[CG_NAME_MAX + 1];
	char log[PATH_MAX], threads[PATH_MAX];
	struct cell_vm_opts o = { .log_path = log, .vcpu_threads = threads };
	struct sv s = { .name = name };
	struct sigaction sa;
	sigset_t serving;
	int lsock = -1, ret, fd;

	/*
	 * A stop signal during the claim or the VM's creation waits until
	 * they are whole (the vCPU threads inherit the block), then destroys
	 * the cell. A create command gone meanwhile must not kill us with
	 * SIGPIPE on the report.
	 */
	cell_stop_block(&serving);
	signal(SIGPIPE, SIG_IGN);
	/* sys (and cell in it) is freed once the cell is made. */
	snprintf(name, sizeof(name), "%s", cell->name);
	cell_state_set_owner(name, getpid());
	cell_state_path(name, "log", log, sizeof(log));
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	o.console = stdout;

	cell_state_path(cell->name, "journal", path, sizeof(path));
	ret = cell_host_claim(&sys->cfg, cell, path, &s.host, why, sizeof(why));
	if (!ret)
		ret = cell_host_enter_threads(s.host, threads, sizeof(threads),
					      why, sizeof(why));
	if (!ret)
		ret = cell_vm_create_opts(&sys->cfg, cell, &o, &s.vm, why,
					  sizeof(why));
	if (!ret)
		ret = cell_watch_start(s.host, s.vm, &s.watch, why, sizeof(why));
	if (!ret) {
		lsock = sv_listen(cell->name, why, sizeof(why));
		if (lsock < 0)
			ret = -EIO;
	}
	if (ret) {
		cell_watch_stop(s.watch);
		if (s.vm)
			cell_vm_destroy(s.vm);
		/* Not given back: the journal keeps the directory for gc. */
		cell_host_release(s.host, NULL, 0);
		cell_state_remove(cell->name);
		snprintf(msg, sizeof(msg), "E%s", why);
		if (write(report, msg, strlen(msg)) < 0)
			ret = -EIO;
		close(report);
		return 1;
	}
	sv_node_add(&s, cell);
	cell_host_summary(s.host, why, sizeof(why));
	printf("cell %s: created; %s\n", cell->name, why);
	snprintf(msg, sizeof(msg), "O%s", why);
	if (write(report, msg, strlen(msg)) < 0)
		printf("cell %s: the create command is gone\n", cell->name);
	close(report);
	cg_system_free(sys);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sv_on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* No terminal to lose (setsid): a SIGHUP is nobody's stop. */
	signal(SIGHUP, SIG_IGN);
	/*
	 * The stop signals are let in only while waiting: no lost wakeup,
	 * and no timeout either: a request or a signal wakes us.
	 */
	while (!s.destroyed && !sv_stop) {
		struct pollfd p = { .fd = lsock, .events = POLLIN };

		if (ppoll(&p, 1, NULL, &serving) > 0)
			sv_serve_one(&s, lsock);
	}
	close(lsock);
	if (!s.destroyed && sv_destroy(&s, why, sizeof(why)))
		printf("cell %s: release: %s\n", name, why);
	return 0;
}
