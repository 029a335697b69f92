// SPDX-License-Identifier: GPL-2.0
/*
 * The config reader's channels: the global `channels` list (what each
 * channel is) and each cell's `channels` list (its part in them). Only the
 * shape is checked here; who writes, the geometry, the colors and the
 * addresses are checked against the whole system in channels.c.
 */
#include <libconfig.h>
#include <stdio.h>
#include <string.h>

#include <colorguard/chan.h>

#include "colorguard.h"
#include "config_int.h"

static const char *const channel_keys[] = {
	"name", "kind", "size", "max_record", "colors", "reliable", "doorbell",
	NULL
};

static void read_channel(struct cfg_ctx *c, const config_setting_t *s,
			 unsigned int idx, struct cg_channel *ch)
{
	const config_setting_t *v;
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "channels[%u]", idx);
	ch->line = cfg_line(s);
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		snprintf(c->field, sizeof(c->field), "%s", prefix);
		cfg_wrong_type(c, s, "a group { }");
		return;
	}
	cfg_check_keys(c, s, prefix, channel_keys);
	cfg_get_name(c, s, prefix, "name", ch->name, &ch->name_line);
	if (!config_setting_get_member(s, "name"))
		cfg_missing(c, ch->line, prefix, "name");

	v = config_setting_get_member(s, "kind");
	cfg_field(c, prefix, "kind");
	if (!v)
		cg_err(c->d, ch->line, NULL, c->field, "missing (queue or state)");
	else if (config_setting_type(v) != CONFIG_TYPE_STRING)
		cfg_wrong_type(c, v, "a string");
	else if (!strcmp(config_setting_get_string(v), "queue"))
		ch->kind = CG_CHAN_QUEUE;
	else if (!strcmp(config_setting_get_string(v), "state"))
		ch->kind = CG_CHAN_STATE;
	else
		cg_err(c->d, cfg_line(v), NULL, c->field, "must be queue or state");

	/* chan_geom_check() (channels.c) says which sizes fit together. */
	cfg_get_u64(c, s, prefix, "size", CHAN_RING_MIN, CHAN_RING_MAX, &ch->size);
	if (ch->kind == CG_CHAN_QUEUE && !config_setting_get_member(s, "size"))
		cfg_missing(c, ch->line, prefix, "size");
	if (ch->kind == CG_CHAN_STATE && ch->size.line)
		cg_err(c->d, ch->size.line, NULL, c->field,
		       "a state channel holds two copies of one value: max_record sizes it");
	cfg_get_u64(c, s, prefix, "max_record", 1, CG_CHAN_RECORD_MAX,
		    &ch->max_record);
	if (!config_setting_get_member(s, "max_record"))
		cfg_missing(c, ch->line, prefix, "max_record");
	cfg_get_str(c, s, prefix, "colors", &ch->colors);
	if (!config_setting_get_member(s, "colors"))
		cfg_missing(c, ch->line, prefix, "colors");
	cfg_get_name(c, s, prefix, "reliable", ch->reliable, &ch->reliable_line);
	if (ch->reliable_line && ch->kind == CG_CHAN_STATE)
		cg_err(c->d, ch->reliable_line, NULL, c->field,
		       "a state channel keeps only the latest value: nothing to hold back");
	cfg_get_bool(c, s, prefix, "doorbell", &ch->doorbell, &ch->doorbell_line);
}

/* The channels list: every channel, and no two of the same name. */
void cfg_read_channels(struct cfg_ctx *c, const config_setting_t *root,
		       struct cg_config *cfg)
{
	const config_setting_t *list;
	unsigned int i, j, n;

	list = cfg_get_list(c, root, "channels", CG_MAX_CHANNELS, "channels", &n);
	if (!list)
		return;
	cfg->channels_line = cfg_line(list);
	for (i = 0; i < n; i++)
		read_channel(c, config_setting_get_elem(list, i), i,
			     &cfg->channels[i]);
	cfg->nr_channels = n;
	for (i = 0; i < n; i++) {
		const struct cg_channel *a = &cfg->channels[i];

		for (j = 0; a->name[0] && j < i; j++) {
			if (strcmp(a->name, cfg->channels[j].name))
				continue;
			snprintf(c->field, sizeof(c->field), "channels[%u].name", i);
			cg_err(c->d, a->name_line, NULL, c->field,
			       "same name as the channel on line %u",
			       cfg->channels[j].name_line);
			break;
		}
	}
}

static const char *const ref_keys[] = { "name", "role", "address", "readers", NULL };

static void read_ref(struct cfg_ctx *c, const config_setting_t *s,
		     unsigned int idx, const struct cg_cell *cell,
		     struct cg_chan_ref *ref)
{
	const config_setting_t *v;
	unsigned int name_line = 0;
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "channels[%u]", idx);
	ref->line = cfg_line(s);
	ref->chan = -1;
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		snprintf(c->field, sizeof(c->field), "%s", prefix);
		cfg_wrong_type(c, s, "a group { }");
		return;
	}
	cfg_check_keys(c, s, prefix, ref_keys);
	cfg_get_name(c, s, prefix, "name", ref->name, &name_line);
	if (!config_setting_get_member(s, "name"))
		cfg_missing(c, ref->line, prefix, "name");

	v = config_setting_get_member(s, "role");
	cfg_field(c, prefix, "role");
	if (!v)
		cg_err(c->d, ref->line, c->label, c->field, "missing (writer or reader)");
	else if (config_setting_type(v) != CONFIG_TYPE_STRING)
		cfg_wrong_type(c, v, "a string");
	else if (!strcmp(config_setting_get_string(v), "writer"))
		ref->role = CG_CHAN_WRITER;
	else if (!strcmp(config_setting_get_string(v), "reader"))
		ref->role = CG_CHAN_READER;
	else
		cg_err(c->d, cfg_line(v), c->label, c->field, "must be writer or reader");

	/* Page-aligned guest addresses below 2^48, as comm's. */
	cfg_get_u64(c, s, prefix, "address", 0, (1ull << 48) - 4096, &ref->address);
	if (ref->address.line && (ref->address.v & 4095))
		cg_err(c->d, ref->address.line, c->label, c->field,
		       "0x%llx is not page aligned",
		       (unsigned long long)ref->address.v);
	if (cell->type == CG_CELL_ROOT && ref->address.line)
		cg_err(c->d, ref->address.line, c->label, c->field,
		       "the root cell is root Linux itself: its processes map the channel");
	if (cell->type != CG_CELL_ROOT && !config_setting_get_member(s, "address"))
		cfg_missing(c, ref->line, prefix, "address");
	/* Several root processes may read one channel, each in a slot. */
	cfg_get_u64(c, s, prefix, "readers", 1, CHAN_MAX_READERS, &ref->readers);
	if (!ref->readers.line)
		ref->readers.v = 1;
	else if (ref->role != CG_CHAN_READER)
		cg_err(c->d, ref->readers.line, c->label, c->field,
		       "a writer takes no reader slots: a channel has one writer");
	else if (cell->type != CG_CELL_ROOT)
		cg_err(c->d, ref->readers.line, c->label, c->field,
		       "only root Linux reads in several slots; a cell reads once");
}

/* A cell's channels list: its part in channels of the global list. */
void cfg_read_cell_channels(struct cfg_ctx *c, const config_setting_t *s,
			    struct cg_cell *cell)
{
	const config_setting_t *list;
	unsigned int i, j, n;

	list = cfg_get_list(c, s, "channels", CG_MAX_CHAN_REFS, "channels", &n);
	if (!list)
		return;
	for (i = 0; i < n; i++)
		read_ref(c, config_setting_get_elem(list, i), i, cell,
			 &cell->chan_refs[i]);
	cell->nr_chan_refs = n;
	for (i = 0; i < n; i++) {
		const struct cg_chan_ref *a = &cell->chan_refs[i];

		for (j = 0; a->name[0] && j < i; j++) {
			if (strcmp(a->name, cell->chan_refs[j].name))
				continue;
			snprintf(c->field, sizeof(c->field), "channels[%u].name", i);
			cg_err(c->d, a->line, c->label, c->field,
			       "channel \"%s\" already named on line %u", a->name,
			       cell->chan_refs[j].line);
			break;
		}
	}
}
