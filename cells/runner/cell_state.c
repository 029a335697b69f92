// SPDX-License-Identifier: GPL-2.0
/* The per-cell state directories under /run/colorguard. See cell_state.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cell_host.h"
#include "cell_state.h"
#include "colorguard.h"

/* The journal is not among them: only its replay removes it. */
static const char *const state_files[] = { "owner", "sock", "log", "log.1",
					   NULL };

int cell_name_ok(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n > CG_NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_-.", name[i]))
			return 0;
	return 1;
}

void cell_state_path(const char *name, const char *file, char *buf,
		     size_t len)
{
	if (file)
		snprintf(buf, len, "%s/%s/%s", CELL_RUN_DIR, name, file);
	else
		snprintf(buf, len, "%s/%s", CELL_RUN_DIR, name);
}

/* Field 22 of /proc/PID/stat: start time in clock ticks since boot. */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	int i, fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* The command name may hold spaces and parentheses: skip past it. */
	p = strrchr(buf, ')');
	if (!p)
		return 0;
	for (i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (p)
		t = strtoull(p + 1, NULL, 10);
	return t;
}

int cell_state_set_owner(const char *name, pid_t pid)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	FILE *f;
	int ret = 0;

	cell_state_path(name, "owner", path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "we");
	if (!f)
		return -errno;
	fprintf(f, "%d %llu\n", (int)pid, start_time(pid));
	if (fclose(f))
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	return ret;
}

void cell_state_disown(const char *name)
{
	char path[PATH_MAX];

	cell_state_path(name, "owner", path, sizeof(path));
	unlink(path);
}

/* A zombie is as dead as a gone process (nobody may have reaped it). */
static int zombie(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return !p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X';
}

int cell_state_live(const char *name, pid_t *owner)
{
	char path[PATH_MAX];
	unsigned long long t;
	FILE *f;
	int pid, ok;

	cell_state_path(name, "owner", path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return 0;
	ok = fscanf(f, "%d %llu", &pid, &t) == 2 && pid > 0;
	fclose(f);
	if (!ok)
		return 0;
	if (kill(pid, 0) && errno == ESRCH)
		return 0;
	if (start_time(pid) != t || zombie(pid))
		return 0;
	if (owner)
		*owner = pid;
	return 1;
}

void cell_state_remove(const char *name)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; state_files[i]; i++) {
		cell_state_path(name, state_files[i], path, sizeof(path));
		unlink(path);
	}
	cell_state_path(name, "owner.new", path, sizeof(path));
	unlink(path);
	cell_state_path(name, NULL, path, sizeof(path));
	rmdir(path);
}

int cell_node_remove(const char *name)
{
	char cmd[CG_NAME_MAX + 16];
	int fd, ret = 0;
	size_t len;

	len = (size_t)snprintf(cmd, sizeof(cmd), "remove %s\n", name);
	fd = open("/sys/kernel/mm/color/devices", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, cmd, len) != (ssize_t)len)
		ret = -errno;
	close(fd);
	return ret;
}

static int clean_locked(const char *name, char *why, size_t why_len)
{
	char path[PATH_MAX];
	int ret;

	if (cell_state_live(name, NULL)) {
		snprintf(why, why_len, "cell %s exists (its supervisor runs)",
			 name);
		return -EBUSY;
	}
	cell_state_path(name, "journal", path, sizeof(path));
	ret = cell_host_release_journal(path, why, why_len);
	if (!ret) {
		cell_node_remove(name);
		cell_state_remove(name);
	}
	return ret;
}

/* The lock of the state directories: made, cleaned, one at a time. */
static int lock_state(char *why, size_t why_len)
{
	int fd, ret;

	/* A minimal system (an initramfs) may have no /run yet. */
	mkdir("/run", 0755);
	if (mkdir(CELL_RUN_DIR, 0700) && errno != EEXIST) {
		ret = -errno;
		snprintf(why, why_len, "mkdir %s: %s", CELL_RUN_DIR,
			 strerror(errno));
		return ret;
	}
	fd = open(CELL_RUN_DIR "/.state.lock", O_RDWR | O_CREAT | O_CLOEXEC,
		  0600);
	if (fd < 0 || flock(fd, LOCK_EX)) {
		ret = -errno;
		snprintf(why, why_len, "cannot lock %s/.state.lock: %s",
			 CELL_RUN_DIR, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	return fd;
}

/* @fn under the state lock. */
static int with_state_lock(int (*fn)(const char *, char *, size_t),
			   const char *name, char *why, size_t why_len)
{
	int fd = lock_state(why, why_len), ret;

	if (fd < 0)
		return fd;
	ret = fn(name, why, why_len);
	close(fd);
	return ret;
}

int cell_state_clean(const char *name, char *why, size_t why_len)
{
	return with_state_lock(clean_locked, name, why, why_len);
}

static int create_locked(const char *name, char *why, size_t why_len);

/* Two creates of one cell: the second must not take the first for stale. */
int cell_state_create(const char *name, char *why, size_t why_len)
{
	return with_state_lock(create_locked, name, why, why_len);
}

static int create_locked(const char *name, char *why, size_t why_len)
{
	char path[PATH_MAX];
	int ret;

	if (!cell_name_ok(name)) {
		snprintf(why, why_len, "bad cell name");
		return -EINVAL;
	}
	if (mkdir(CELL_RUN_DIR, 0700) && errno != EEXIST) {
		ret = -errno;
		snprintf(why, why_len, "mkdir %s: %s", CELL_RUN_DIR,
			 strerror(errno));
		return ret;
	}
	cell_state_path(name, NULL, path, sizeof(path));
	if (mkdir(path, 0700)) {
		if (errno != EEXIST) {
			ret = -errno;
			snprintf(why, why_len, "mkdir %s: %s", path,
				 strerror(errno));
			return ret;
		}
		if (cell_state_live(name, NULL)) {
			snprintf(why, why_len, "cell %s exists", name);
			return -EEXIST;
		}
		/* A dead owner's leftovers: give its claim back first. */
		ret = clean_locked(name, why, why_len);
		if (ret)
			return ret;
		if (mkdir(path, 0700)) {
			ret = -errno;
			snprintf(why, why_len, "mkdir %s: %s", path,
				 strerror(errno));
			return ret;
		}
	}
	ret = cell_state_set_owner(name, getpid());
	if (ret) {
		snprintf(why, why_len, "%s: %s", path, strerror(-ret));
		cell_state_remove(name);
	}
	return ret;
}
