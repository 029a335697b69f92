/* SPDX-License-Identifier: GPL-2.0 */
/* A config's channels as the protocol core sees them (channels.c). */
#ifndef COLORGUARD_CHANNELS_H
#define COLORGUARD_CHANNELS_H

#include <colorguard/chan.h>

#include "colorguard.h"

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
 * cg_chan_window() - bytes a cell's window of channel @ch takes: the
 * writer's region, and for a reader its own feedback page after it
 */
uint64_t cg_chan_window(const struct cg_config *cfg, unsigned int ch,
			enum cg_chan_role role);

#endif
