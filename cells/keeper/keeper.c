// SPDX-License-Identifier: GPL-2.0
/*
 * `colorguard chan keep CONFIG`: check the config as the cell commands
 * do, make every channel's memory once, listen, tell the service manager
 * (READY=1) and serve until SIGTERM or SIGINT, then remove the socket.
 * The memory lives as long as the keeper: cells and programs that stop
 * and come back find the same channel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <colorguard/mm_color.h>

#include "channels.h"
#include "keeper.h"
#include "system.h"
#include "system_int.h"
#include "unit_notify.h"

#define MMC_DEV		"/dev/mm-color"

static void chan_init(struct keep_chan *ch)
{
	unsigned int i;

	memset(ch, 0, sizeof(*ch));
	ch->region_rw = -1;
	ch->region_ro = -1;
	ch->peers_rw = -1;
	ch->peers_ro = -1;
	for (i = 0; i < CHAN_MAX_READERS; i++) {
		ch->fb_rw[i] = -1;
		ch->fb_ro[i] = -1;
		ch->doorbell[i] = -1;
	}
}

/* Who writes channel @idx and whose each reader slot is. */
static void chan_roles(const struct cg_config *cfg, unsigned int idx,
		       struct keep_chan *ch)
{
	unsigned int i, j, s;

	for (i = 0; i < cfg->nr_cells; i++) {
		const struct cg_cell *cell = &cfg->cells[i];

		for (j = 0; j < cell->nr_chan_refs; j++) {
			const struct cg_chan_ref *r = &cell->chan_refs[j];
			int first;

			if (r->chan != (int)idx)
				continue;
			if (r->role == CG_CHAN_WRITER) {
				ch->writer_cell = i;
				continue;
			}
			first = cg_chan_first_reader(cfg, idx, cell);
			for (s = 0; first >= 0 && s < r->readers.v; s++) {
				ch->reader_cell[first + s] = i;
				ch->reader_slot[first + s] = s;
			}
		}
	}
}

/* mm-color's colors must be the config's: same count. */
static int open_mmc(const struct cg_system *sys, char *why, size_t len)
{
	struct mm_color_info info;
	int fd = open(MMC_DEV, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		snprintf(why, len, "%s: %s (load mm_color, or --no-color for a control run)",
			 MMC_DEV, strerror(errno));
		return -1;
	}
	if (ioctl(fd, MM_COLOR_GET_INFO, &info)) {
		snprintf(why, len, "%s: %s", MMC_DEV, strerror(errno));
		close(fd);
		return -1;
	}
	if (info.nr_colors != sys->geom.nr_colors) {
		snprintf(why, len, "mm-color has %u colors, the config %u: write the config's geometry first (colorguard apply)",
			 info.nr_colors, sys->geom.nr_colors);
		close(fd);
		return -1;
	}
	return fd;
}

static int make_channels(struct keeper *k, const struct cg_system *sys,
			 char *why, size_t len)
{
	const struct cg_config *cfg = k->cfg;
	int mmc_fd = -1, ret = 0;
	unsigned int i;

	if (!k->no_color) {
		mmc_fd = open_mmc(sys, why, len);
		if (mmc_fd < 0)
			return -1;
	}
	for (i = 0; i < cfg->nr_channels && !ret; i++) {
		struct keep_chan *ch = &k->chans[i];

		chan_init(ch);
		k->nr_chans = i + 1;
		ch->cfg = &cfg->channels[i];
		cg_chan_geom(cfg, i, &ch->geom);
		chan_roles(cfg, i, ch);
		ret = keep_mem_create(k, ch, mmc_fd, why, len);
		if (!ret)
			keep_peers_init(ch);
	}
	/* The objects hold their frames; the device file is done with. */
	if (mmc_fd >= 0)
		close(mmc_fd);
	return ret;
}

static void unmake(struct keeper *k)
{
	unsigned int i;

	keep_unlisten(k);
	for (i = 0; i < KEEP_MAX_CONNS; i++)
		if (k->conns[i].fd >= 0)
			close(k->conns[i].fd);
	for (i = 0; i < k->nr_chans; i++)
		keep_mem_free(&k->chans[i]);
}

/* SIGTERM and SIGINT come through a descriptor the loop polls. */
static int stop_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL))
		return -1;
	/* Clients that vanish mid-reply must not kill the keeper. */
	signal(SIGPIPE, SIG_IGN);
	return signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
}

int keeper_run(const struct keep_opts *o)
{
	struct cg_system *sys;
	struct keeper *k;
	char why[512], status[256];
	int sig_fd, ret = 1;
	unsigned int i;

	sys = cg_system_load(o->config);
	if (!sys) {
		fprintf(stderr, "colorguard chan keep: %s has problems (above): nothing kept\n",
			o->config);
		return 1;
	}
	k = calloc(1, sizeof(*k));
	if (!k) {
		cg_system_free(sys);
		return 1;
	}
	k->cfg = &sys->cfg;
	k->no_color = o->no_color;
	k->uid = geteuid();
	k->sock_path = o->sock_path ? o->sock_path : CHAN_KEEP_SOCK;
	k->listen_fd = -1;
	k->root_cell = -1;
	for (i = 0; i < KEEP_MAX_CONNS; i++)
		k->conns[i].fd = -1;
	for (i = 0; i < k->cfg->nr_cells; i++)
		if (k->cfg->cells[i].type == CG_CELL_ROOT)
			k->root_cell = i;

	sig_fd = stop_signals();
	if (sig_fd < 0) {
		fprintf(stderr, "colorguard chan keep: signals: %s\n", strerror(errno));
		goto out;
	}
	if (!k->cfg->nr_channels) {
		fprintf(stderr, "colorguard chan keep: %s has no channels: nothing to keep\n",
			o->config);
		goto out_sig;
	}
	if (make_channels(k, sys, why, sizeof(why)) || keep_listen(k, why, sizeof(why))) {
		fprintf(stderr, "colorguard chan keep: %s\n", why);
		goto out_unmake;
	}
	printf("colorguard chan keep: %u channels of %s in %s memory, socket %s\n",
	       k->nr_chans, o->config, k->no_color ? "memfd (--no-color)" : "colored",
	       k->sock_path);
	fflush(stdout);
	snprintf(status, sizeof(status), "READY=1\nSTATUS=%u channels, socket %s",
		 k->nr_chans, k->sock_path);
	if (unit_notify(status) < 0)
		fprintf(stderr, "colorguard chan keep: cannot notify the service manager\n");
	ret = keep_serve(k, sig_fd);
	if (ret)
		fprintf(stderr, "colorguard chan keep: poll: %s\n", strerror(-ret));
	ret = ret ? 1 : 0;
out_unmake:
	unmake(k);
out_sig:
	close(sig_fd);
out:
	free(k);
	cg_system_free(sys);
	return ret;
}
