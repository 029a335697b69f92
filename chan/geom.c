// SPDX-License-Identifier: GPL-2.0
/*
 * Geometry validation. The geometry comes from the config and reaches
 * each side privately; this is the one place that decides it is safe,
 * so that the data paths can trust it without checking again.
 */
#include "chan_internal.h"

static const char *const geom_str[CHAN_GEOM_NR] = {
	[CHAN_GEOM_OK] = "ok",
	[CHAN_GEOM_KIND] = "unknown kind",
	[CHAN_GEOM_FLAGS] = "unknown flag, or reliable on a state channel",
	[CHAN_GEOM_SPARE] = "spare field not 0",
	[CHAN_GEOM_RING_POW2] = "ring size not a power of two",
	[CHAN_GEOM_RING_RANGE] = "ring size out of range (0 for a state channel)",
	[CHAN_GEOM_RECORD_ZERO] = "max_record is 0",
	[CHAN_GEOM_RECORD_LARGE] = "a record of max_record bytes takes more than half the ring",
	[CHAN_GEOM_READERS] = "too many readers, or none where flags need them",
	[CHAN_GEOM_RELIABLE] = "reliable_reader is not a reader",
	[CHAN_GEOM_ALIGN] = "offset not 64-byte aligned",
	[CHAN_GEOM_REGION] = "block outside its region, or region too large",
	[CHAN_GEOM_OVERLAP] = "control block and data overlap",
};

static const char *const broken_str[CHAN_BROKEN_NR] = {
	[CHAN_BROKEN_NONE] = "not broken",
	[CHAN_BROKEN_HEAD_BACK] = "head went backwards",
	[CHAN_BROKEN_HEAD_ALIGN] = "head not aligned",
	[CHAN_BROKEN_TAIL] = "tail out of range",
	[CHAN_BROKEN_REC_LEN] = "record length out of range",
	[CHAN_BROKEN_REC_HEAD] = "record ends past head",
	[CHAN_BROKEN_REC_SEQ] = "record number out of order",
	[CHAN_BROKEN_REC_SPARE] = "record spare field not 0",
	[CHAN_BROKEN_SKIP] = "misplaced skip record",
	[CHAN_BROKEN_GEN_BACK] = "state generation went backwards",
	[CHAN_BROKEN_SLOT] = "state slot invalid",
};

const char *chan_geom_str(enum chan_geom_err e)
{
	return (unsigned int)e < CHAN_GEOM_NR ? geom_str[e] : "unknown";
}

const char *chan_broken_str(enum chan_broken b)
{
	return (unsigned int)b < CHAN_BROKEN_NR ? broken_str[b] : "unknown";
}

/* [off, off + size) lies in a region of @region bytes; all below 2^40. */
static int block_in(chan_u64 off, chan_u64 size, chan_u64 region)
{
	return off <= region && size <= region - off;
}

static enum chan_geom_err check_kind(const struct chan_geom *g, chan_u64 *data_size)
{
	if (g->kind != CHAN_KIND_QUEUE && g->kind != CHAN_KIND_STATE)
		return CHAN_GEOM_KIND;
	if ((g->flags & ~CHAN_F_ALL) ||
	    (g->kind == CHAN_KIND_STATE && (g->flags & CHAN_F_RELIABLE)))
		return CHAN_GEOM_FLAGS;
	if (g->spare)
		return CHAN_GEOM_SPARE;
	if (!g->max_record)
		return CHAN_GEOM_RECORD_ZERO;
	if (g->kind == CHAN_KIND_STATE) {
		if (g->ring_size)
			return CHAN_GEOM_RING_RANGE;
		*data_size = 2 * CHAN_SLOT_SIZE(g->max_record);
		return CHAN_GEOM_OK;
	}
	if (g->ring_size < CHAN_RING_MIN || g->ring_size > CHAN_RING_MAX)
		return CHAN_GEOM_RING_RANGE;
	if (g->ring_size & (g->ring_size - 1))
		return CHAN_GEOM_RING_POW2;
	if (CHAN_REC_SIZE(g->max_record) > g->ring_size / 2)
		return CHAN_GEOM_RECORD_LARGE;
	*data_size = g->ring_size;
	return CHAN_GEOM_OK;
}

enum chan_geom_err chan_geom_check(const struct chan_geom *g)
{
	chan_u64 data_size = 0;
	enum chan_geom_err e = check_kind(g, &data_size);

	if (e)
		return e;
	if (g->nr_readers > CHAN_MAX_READERS || (g->flags && !g->nr_readers))
		return CHAN_GEOM_READERS;
	if ((g->flags & CHAN_F_RELIABLE) && g->reliable_reader >= g->nr_readers)
		return CHAN_GEOM_RELIABLE;
	if ((g->ctrl_off | g->data_off | g->feedback_off) & (CHAN_REGION_ALIGN - 1))
		return CHAN_GEOM_ALIGN;
	if (g->writer_size > CHAN_REGION_MAX || g->feedback_size > CHAN_REGION_MAX ||
	    !block_in(g->ctrl_off, CHAN_CTRL_SIZE, g->writer_size) ||
	    !block_in(g->data_off, data_size, g->writer_size) ||
	    !block_in(g->feedback_off, CHAN_FB_SIZE, g->feedback_size))
		return CHAN_GEOM_REGION;
	if (g->ctrl_off < g->data_off + data_size && g->data_off < g->ctrl_off + CHAN_CTRL_SIZE)
		return CHAN_GEOM_OVERLAP;
	return CHAN_GEOM_OK;
}
