/* SPDX-License-Identifier: GPL-2.0 */
/* A config resolved against hv-color: geometry, masks, regions, checks. */
#ifndef COLORGUARD_SYSTEM_H
#define COLORGUARD_SYSTEM_H

#include <stdio.h>

#include "colorguard.h"

/* LLC figures given by hand (command line); 0 means "not given". */
struct cg_llc_input {
	uint64_t size;
	uint64_t ways;
	uint64_t line_size;
};

struct cg_system;

int cg_geometry_show(FILE *out, const char *sysroot,
		     const struct cg_llc_input *over);

/* NULL when there were problems (all reported through d). */
struct cg_system *cg_system_build(struct cg_diag *d,
				  const struct cg_config *cfg,
				  const char *sysroot);
void cg_system_free(struct cg_system *sys);
/* /sys, or $COLORGUARD_SYSFS (tests use fake trees). */
const char *cg_sysfs_root(void);
/* /proc, or $COLORGUARD_PROCFS: apply's sysctl writes. */
const char *cg_procfs_root(void);
/* Read, parse and resolve CONFIG; prints every problem. NULL on any. */
struct cg_system *cg_system_load(const char *path);

void cg_plan_print(FILE *out, const struct cg_system *sys);
int cg_compile(const struct cg_system *sys, const char *path);
int cg_decode(FILE *out, const char *path);
/*
 * With dry set, print the writes there instead of doing them; root_only
 * leaves the CPUs of the other cells alone.
 */
int cg_apply(const struct cg_system *sys, const char *sysroot, FILE *dry,
	     int root_only);
/*
 * Print the live system and every mismatch with sys (NULL: live only);
 * returns the number of mismatches, -1 when out of memory.
 */
int cg_status(FILE *out, const struct cg_system *sys, const char *config,
	      const char *sysroot);

#endif
