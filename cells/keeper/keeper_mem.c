// SPDX-License-Identifier: GPL-2.0
/*
 * A channel's memory, made once when the keeper starts: the writer's
 * region, one feedback page per reader and the peers page, each an
 * mm-color shared object in the channel's comm colors with a read-only
 * fd beside the read-write one (MM_COLOR_OBJ_READONLY). With --no-color
 * each is a memfd sealed against shrinking and growing, whose read-only
 * fd is a reopen of it with O_RDONLY: a MAP_SHARED PROT_WRITE mapping of
 * that fails with EACCES as an mm-color read-only fd's does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <colorguard/mm_color.h>

#include "keeper.h"

#define PAGE		4096ull

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int mmc_object(int mmc_fd, uint64_t size, int *rw, int *ro)
{
	struct mm_color_obj_create create = { .size = size };
	struct mm_color_obj_readonly readonly = { 0 };

	*rw = ioctl(mmc_fd, MM_COLOR_OBJ_CREATE, &create);
	if (*rw < 0)
		return -errno;
	*ro = ioctl(*rw, MM_COLOR_OBJ_READONLY, &readonly);
	if (*ro < 0)
		return -errno;
	return 0;
}

static int memfd_object(const char *name, uint64_t size, int *rw, int *ro)
{
	char path[64];

	*rw = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (*rw < 0)
		return -errno;
	if (ftruncate(*rw, size) ||
	    fcntl(*rw, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL))
		return -errno;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", *rw);
	*ro = open(path, O_RDONLY | O_CLOEXEC);
	if (*ro < 0)
		return -errno;
	/*
	 * A memfd is made 0777: a holder of the read-only fd of another
	 * uid could reopen it read-write through /proc. Only root can now.
	 */
	if (fchmod(*rw, 0400))
		return -errno;
	return 0;
}

static int object(struct keeper *k, struct keep_chan *ch, int mmc_fd,
		  const char *what, uint64_t size, int *rw, int *ro,
		  char *why, size_t len)
{
	char name[64];
	int ret;

	snprintf(name, sizeof(name), "cg-chan:%s:%s", ch->cfg->name, what);
	if (k->no_color)
		ret = memfd_object(name, size, rw, ro);
	else
		ret = mmc_object(mmc_fd, size, rw, ro);
	if (ret)
		snprintf(why, len, "channel \"%s\": its %s (%llu bytes) as %s: %s",
			 ch->cfg->name, what, (unsigned long long)size,
			 k->no_color ? "a memfd" : "an mm-color object",
			 strerror(-ret));
	return ret;
}

static const void *map_ro(int fd, uint64_t size)
{
	void *p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* mm-color makes objects of the file's current mask: the channel's colors. */
static int set_colors(int mmc_fd, const struct cg_channel *c, char *why, size_t len)
{
	struct mm_color_list list = {
		.addr = (uintptr_t)c->colors.s,
		.len = strlen(c->colors.s),
	};

	if (ioctl(mmc_fd, MM_COLOR_SET_LIST, &list)) {
		snprintf(why, len, "channel \"%s\": colors %s on /dev/mm-color: %s",
			 c->name, c->colors.s, strerror(errno));
		return -errno;
	}
	return 0;
}

int keep_mem_create(struct keeper *k, struct keep_chan *ch, int mmc_fd,
		    char *why, size_t len)
{
	const struct chan_geom *g = &ch->geom;
	unsigned int i;
	char what[32];
	int ret;

	if (!k->no_color) {
		ret = set_colors(mmc_fd, ch->cfg, why, len);
		if (ret)
			return ret;
	}
	ret = object(k, ch, mmc_fd, "region", g->writer_size, &ch->region_rw,
		     &ch->region_ro, why, len);
	if (!ret)
		ret = object(k, ch, mmc_fd, "peers page", CHAN_PEERS_SIZE,
			     &ch->peers_rw, &ch->peers_ro, why, len);
	for (i = 0; !ret && i < g->nr_readers; i++) {
		snprintf(what, sizeof(what), "feedback %u", i);
		ret = object(k, ch, mmc_fd, what, g->feedback_size,
			     &ch->fb_rw[i], &ch->fb_ro[i], why, len);
	}
	for (i = 0; !ret && (g->flags & CHAN_F_DOORBELL) && i < g->nr_readers; i++) {
		/* Shared by both ends: the writer must never block on it. */
		ch->doorbell[i] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (ch->doorbell[i] < 0) {
			ret = -errno;
			snprintf(why, len, "channel \"%s\": eventfd: %s",
				 ch->cfg->name, strerror(errno));
		}
	}
	if (ret)
		return ret;

	ch->peers = mmap(NULL, CHAN_PEERS_SIZE, PROT_READ | PROT_WRITE,
			 MAP_SHARED, ch->peers_rw, 0);
	if (ch->peers == MAP_FAILED) {
		ch->peers = NULL;
		ret = -errno;
	}
	ch->region = map_ro(ch->region_ro, g->writer_size);
	if (!ch->region)
		ret = -errno;
	for (i = 0; !ret && i < g->nr_readers; i++) {
		ch->fb[i] = map_ro(ch->fb_ro[i], g->feedback_size);
		if (!ch->fb[i])
			ret = -errno;
	}
	if (ret)
		snprintf(why, len, "channel \"%s\": mapping its memory: %s",
			 ch->cfg->name, strerror(-ret));
	return ret;
}

void keep_mem_free(struct keep_chan *ch)
{
	const struct chan_geom *g = &ch->geom;
	unsigned int i;

	if (ch->peers)
		munmap(ch->peers, CHAN_PEERS_SIZE);
	if (ch->region)
		munmap((void *)ch->region, g->writer_size);
	ch->peers = NULL;
	ch->region = NULL;
	close_fd(&ch->region_rw);
	close_fd(&ch->region_ro);
	close_fd(&ch->peers_rw);
	close_fd(&ch->peers_ro);
	for (i = 0; i < CHAN_MAX_READERS; i++) {
		if (ch->fb[i])
			munmap((void *)ch->fb[i], g->feedback_size);
		ch->fb[i] = NULL;
		close_fd(&ch->fb_rw[i]);
		close_fd(&ch->fb_ro[i]);
		close_fd(&ch->doorbell[i]);
	}
}

/*
 * Before a writer attaches, its region says "empty" (head and tail 0):
 * a reader that sees the writer's attaches change and re-opens then
 * never reads a former writer's records as the new one's.
 */
int keep_mem_reset_ctrl(struct keep_chan *ch)
{
	uint64_t off = ch->geom.ctrl_off & ~(PAGE - 1);
	uint64_t *ctrl;
	unsigned int i;
	void *p;

	p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ch->region_rw, off);
	if (p == MAP_FAILED)
		return -errno;
	ctrl = (uint64_t *)((char *)p + (ch->geom.ctrl_off - off));
	for (i = 0; i < CHAN_CTRL_SIZE / sizeof(*ctrl); i++)
		__atomic_store_n(&ctrl[i], 0, __ATOMIC_RELAXED);
	/* The reset before the attach that the peers page publishes. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	munmap(p, PAGE);
	return 0;
}
