// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/memguard/bwlock/: the bandwidth lock's state (bwlock.c),
 * read only. Its maximum hold time is a file of the folder above
 * (sysfs_global.c), written like the other settings.
 */
#include <linux/mutex.h>

#include "sysfs.h"

/*
 * bwlock/: the bandwidth lock's state, read under mg_config_lock; a
 * file's stat field says which figure it shows.
 */
enum {
	MG_BW_STATE, MG_BW_HOLDERS, MG_BW_FILES, MG_BW_PERMILLE, MG_BW_MBPS,
	MG_BW_HELD_NS, MG_BW_ACQUISITIONS, MG_BW_FORCED
};

static ssize_t mg_bwlock_show(const struct mg_file *file, unsigned int unused,
			      char *buf)
{
	struct mg_bwlock_state st;

	mutex_lock(&mg_config_lock);
	mg_bwlock_state(&st);
	mutex_unlock(&mg_config_lock);
	switch (file->stat) {
	case MG_BW_STATE:
		return sysfs_emit(buf, "%s\n", st.holders ? "held" : "free");
	case MG_BW_HOLDERS:
		return sysfs_emit(buf, "%u\n", st.holders);
	case MG_BW_FILES:
		return sysfs_emit(buf, "%u\n", st.files);
	case MG_BW_PERMILLE:
		return sysfs_emit(buf, "%u\n", st.permille);
	case MG_BW_MBPS:
		if (!st.mbps)
			return sysfs_emit(buf, "unlimited\n");
		return sysfs_emit(buf, "%llu\n", st.mbps);
	case MG_BW_HELD_NS:
		return sysfs_emit(buf, "%llu\n", st.held_ns);
	case MG_BW_FORCED:
		return sysfs_emit(buf, "%llu\n", st.forced_releases);
	default:
		return sysfs_emit(buf, "%llu\n", st.acquisitions);
	}
}

#define MG_BWLOCK_FILE(_name, _which)					\
	static struct mg_file mg_bw_##_name = {				\
		.attr = { .name = #_name, .mode = 0444 },		\
		.show = mg_bwlock_show,					\
		.stat = _which,						\
	}

MG_BWLOCK_FILE(state, MG_BW_STATE);
MG_BWLOCK_FILE(holders, MG_BW_HOLDERS);
MG_BWLOCK_FILE(holder_files, MG_BW_FILES);
MG_BWLOCK_FILE(level_permille, MG_BW_PERMILLE);
MG_BWLOCK_FILE(level_mbps, MG_BW_MBPS);
MG_BWLOCK_FILE(held_ns, MG_BW_HELD_NS);
MG_BWLOCK_FILE(acquisitions, MG_BW_ACQUISITIONS);
MG_BWLOCK_FILE(forced_releases, MG_BW_FORCED);

static struct attribute *mg_bwlock_attrs[] = {
	&mg_bw_state.attr,
	&mg_bw_holders.attr,
	&mg_bw_holder_files.attr,
	&mg_bw_level_permille.attr,
	&mg_bw_level_mbps.attr,
	&mg_bw_held_ns.attr,
	&mg_bw_acquisitions.attr,
	&mg_bw_forced_releases.attr,
	NULL,
};

const struct attribute_group mg_bwlock_group = {
	.name = "bwlock",
	.attrs = mg_bwlock_attrs,
};
