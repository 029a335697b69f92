/* SPDX-License-Identifier: GPL-2.0 */
#ifndef COLORGUARD_CACHEINFO_H
#define COLORGUARD_CACHEINFO_H

#include <limits.h>
#include <stdint.h>

#include "colorguard.h"

/* What sysfs says about the LLC; a 0 field was not reported. */
struct cg_cacheinfo {
	unsigned int level;
	uint64_t size;
	uint64_t ways;
	uint64_t line_size;
	uint64_t sets;
	unsigned int nr_instances;
	char shared_cpus[CG_LIST_MAX + 1];
	char dir[PATH_MAX];
	char error[PATH_MAX + 128];
};

/* root is "/sys" normally; returns 0 or -1 with ci->error set. */
int cg_cacheinfo_read(const char *root, struct cg_cacheinfo *ci);

#endif
