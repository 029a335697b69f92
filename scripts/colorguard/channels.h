/* SPDX-License-Identifier: GPL-2.0 */
/* A config's channels as the protocol core sees them (channels.c). */
#ifndef COLORGUARD_CHANNELS_H
#define COLORGUARD_CHANNELS_H

#include <colorguard/chan.h>

#include "colorguard.h"

/* cg_chan_find() - the index of channel @name in cfg->channels, or -1 */
int cg_chan_find(const struct cg_config *cfg, const char *name);

/*
 * cg_chan_geom() - the geometry of channel @ch, from the config alone
 * @cfg: the config
 * @ch:  index in cfg->channels
 * @g:   filled in: the control block then the ring or slots in the
 *	writer's region (whole pages), one feedback page per reader,
 *	readers numbered in the order of the cells list
 */
void cg_chan_geom(const struct cg_config *cfg, unsigned int ch, struct chan_geom *g);

/*
 * A cell's window of a channel, from its guest address on: the writer's
 * region (read-only for a reader), the runner's peers page (read-only),
 * then feedback pages: a reader's own (writable), or for the writer of a
 * channel with flags each reader's in reader order (read-only).
 *
 * cg_chan_window() - bytes the window of a cell in @role takes
 */
uint64_t cg_chan_window(const struct cg_config *cfg, unsigned int ch,
			enum cg_chan_role role);

/*
 * cg_chan_first_reader() - the index of @cell's first reader slot in
 * channel @ch (root Linux may take several, cg_chan_ref.readers), or -1
 * when it does not read it
 */
int cg_chan_first_reader(const struct cg_config *cfg, unsigned int ch,
			 const struct cg_cell *cell);

#endif
