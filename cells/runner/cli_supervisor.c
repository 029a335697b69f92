// SPDX-License-Identifier: GPL-2.0
/*
 * The supervisor of a cell: the process `colorguard cell create` forks, or
 * `colorguard cell supervise` in the foreground (a service's main
 * process). It claims the host side (cell_host.h), spawns the VM process
 * that owns the KVM VM (cell_vmproc.h) and serves the commands on the
 * control socket (cli_life.h) until the cell is destroyed, it is told to
 * stop or the VM process ends; then it gives the host side back.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
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
#include "cell_vmproc.h"
#include "cli_life.h"
#include "system_int.h"
#include "unit_notify.h"

static volatile sig_atomic_t sv_stop;

static void sv_on_term(int sig)
{
	(void)sig;
	sv_stop = 1;
}

struct sv {
	const char *name;
	struct cell_host *host;
	struct cell_vmproc vp;
	bool vm_alive;		/* vp not reaped yet */
	bool destroyed;
	bool node;		/* /dev/mm-color-<cell> made */
	int journal;		/* in the foreground: the service's stderr */
	char log[PATH_MAX];
};

/* The VM process's answer to a request, and to destroy (a shutdown waits). */
#define REQUEST_MS	(2 * SHUTDOWN_MS + 10000)
#define DESTROY_MS	10000

/*
 * A line of the supervisor's own: to the cell's log, opened anew each
 * time (the VM process rotates it), and in the foreground also to the
 * service's journal.
 */
static void __attribute__((format(printf, 2, 3)))
sv_say(struct sv *s, const char *fmt, ...)
{
	va_list ap;
	int fd;

	fd = open(s->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd >= 0) {
		va_start(ap, fmt);
		vdprintf(fd, fmt, ap);
		va_end(ap);
		close(fd);
	}
	if (s->journal >= 0) {
		va_start(ap, fmt);
		vdprintf(s->journal, fmt, ap);
		va_end(ap);
	}
}

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
	sv_say(s, "cell %s: /dev/mm-color-%s %s\n", cell->name, cell->name,
	       s->node ? "made" : "not made (mm-color without devices, or refused)");
}

/* The host side given back once the VM process is gone; 0 or -errno. */
static int sv_release(struct sv *s, char *why, size_t len)
{
	int ret;

	if (s->node) {
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "remove %s\n", s->name);
		/* Busy while a VMM still maps it: the node then stays. */
		if (mmc_devices(cmd))
			sv_say(s, "cell %s: /dev/mm-color-%s still in use, left in place\n",
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

/* The VM process is gone or going: reaped, and how it ended said. */
static void sv_vm_gone(struct sv *s, int kill_it)
{
	char how[64];

	if (!s->vm_alive)
		return;
	s->vm_alive = false;
	if (cell_vmproc_end(&s->vp, kill_it, how, sizeof(how)) || kill_it)
		sv_say(s, "cell %s: the VM process %s\n", s->name, how);
}

static int sv_destroy(struct sv *s, char *why, size_t len)
{
	char reply[64];

	if (s->vm_alive &&
	    cell_vmproc_request(&s->vp, "destroy", 7, reply, sizeof(reply),
				DESTROY_MS) < 0)
		sv_vm_gone(s, 1);
	sv_vm_gone(s, 0);
	return sv_release(s, why, len);
}

/*
 * One request (n bytes, no NUL): "destroy" here, the rest answered by the
 * VM process. The reply, "ok\n" or "error\n" and text, in out.
 */
static void sv_handle(struct sv *s, char *req, size_t n, char *out, size_t len)
{
	char why[512];
	ssize_t got;

	if (n == 7 && !memcmp(req, "destroy", 7)) {
		if (sv_destroy(s, why, sizeof(why)))
			snprintf(out, len, "error\ndestroyed, but giving back the host side failed: %s",
				 why);
		else
			snprintf(out, len, "ok\ndestroyed\n");
		return;
	}
	got = cell_vmproc_request(&s->vp, req, n, out, len, REQUEST_MS);
	if (got >= 0)
		return;
	sv_vm_gone(s, got == -ETIMEDOUT);
	snprintf(out, len, "error\nthe VM process is gone (%s); the cell is destroyed",
		 strerror((int)-got));
}

static void sv_serve_one(struct sv *s, int lsock)
{
	char req[REQ_MAX + 1], reply[REPLY_MAX];
	struct timeval tv = { .tv_sec = 2 };
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	ssize_t n;
	int c;

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
		snprintf(reply, sizeof(reply), "error\nrequest longer than %d bytes",
			 REQ_MAX);
	} else if (memchr(req, '\0', (size_t)n)) {
		snprintf(reply, sizeof(reply), "error\nrequest holds a NUL byte");
	} else {
		if (req[n - 1] == '\n')
			n--;
		sv_handle(s, req, (size_t)n, reply, sizeof(reply));
	}
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

/* The outcome of the creation, to the create command or the service manager. */
static void sv_report(struct sv *s, int report, bool ok, const char *why)
{
	char msg[600];

	if (report >= 0) {
		snprintf(msg, sizeof(msg), "%c%s", ok ? 'O' : 'E', why);
		if (write(report, msg, strlen(msg)) < 0 && ok)
			sv_say(s, "cell %s: the create command is gone\n", s->name);
		close(report);
		return;
	}
	if (!ok) {
		sv_say(s, "cell %s: %s\n", s->name, why);
		return;
	}
	snprintf(msg, sizeof(msg), "READY=1\nSTATUS=created: %.500s", why);
	if (unit_notify(msg) < 0)
		sv_say(s, "cell %s: cannot tell the service manager it is ready\n",
		       s->name);
}

/* Runs in the supervisor: see cli_life.h. */
int cell_supervise(struct cg_system *sys, const struct cg_cell *cell,
		   int report)
{
	char why[512], path[PATH_MAX], name[CG_NAME_MAX + 1];
	struct sv s = { .name = name, .journal = -1 };
	struct sigaction sa;
	sigset_t serving;
	int lsock = -1, ret, fd;

	/*
	 * A stop signal during the claim or the VM's creation waits until
	 * they are whole (the VM process and its vCPU threads inherit the
	 * block), then destroys the cell. A create command gone meanwhile
	 * must not kill us with SIGPIPE on the report.
	 */
	cell_stop_block(&serving);
	signal(SIGPIPE, SIG_IGN);
	/* sys (and cell in it) is freed once the cell is made. */
	snprintf(name, sizeof(name), "%s", cell->name);
	cell_state_set_owner(name, getpid());
	cell_state_path(name, "log", s.log, sizeof(s.log));
	/* In the foreground the service manager's stderr is the journal. */
	if (report < 0)
		s.journal = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	fd = open(s.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
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

	cell_state_path(cell->name, "journal", path, sizeof(path));
	ret = cell_host_claim(&sys->cfg, cell, 0, path, &s.host, why, sizeof(why));
	if (!ret) {
		ret = cell_vmproc_spawn(&sys->cfg, cell, s.host, stdout, &s.vp,
					why, sizeof(why));
		s.vm_alive = !ret;
	}
	if (!ret) {
		lsock = sv_listen(cell->name, why, sizeof(why));
		if (lsock < 0)
			ret = -EIO;
	}
	if (ret) {
		sv_vm_gone(&s, 1);
		/* Not given back: the journal keeps the directory for gc. */
		cell_host_release(s.host, NULL, 0);
		cell_state_remove(cell->name);
		sv_report(&s, report, false, why);
		return 1;
	}
	sv_node_add(&s, cell);
	cell_host_summary(s.host, why, sizeof(why));
	sv_say(&s, "cell %s: created (VM process %d); %s\n", cell->name,
	       (int)s.vp.pid, why);
	sv_report(&s, report, true, why);
	cg_system_free(sys);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sv_on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* No terminal to lose (setsid, or a service): a SIGHUP is nobody's stop. */
	signal(SIGHUP, SIG_IGN);
	/*
	 * The stop signals are let in only while waiting: no lost wakeup,
	 * and no timeout either: a request, a signal or the end of the VM
	 * process wakes us (it never writes unasked: readable is its end).
	 */
	while (!s.destroyed && !sv_stop && s.vm_alive) {
		struct pollfd p[2] = {
			{ .fd = lsock, .events = POLLIN },
			{ .fd = s.vp.sock, .events = POLLIN },
		};

		if (ppoll(p, 2, NULL, &serving) <= 0)
			continue;
		if (p[1].revents)
			sv_vm_gone(&s, 1);
		else if (p[0].revents)
			sv_serve_one(&s, lsock);
	}
	close(lsock);
	if (s.destroyed)
		return 0;
	ret = s.vm_alive ? 0 : 1;
	if (sv_destroy(&s, why, sizeof(why))) {
		sv_say(&s, "cell %s: release: %s\n", name, why);
		ret = 1;
	}
	return ret;
}
