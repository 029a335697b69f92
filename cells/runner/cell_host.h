/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cell runner's root-Linux side: taking a cell's CPUs from root Linux
 * while the cell exists, without offlining them (KVM needs them online),
 * and giving everything back afterwards.
 *
 * A claim, in this order:
 *   0. the user tasks of root Linux pinned to some of its CPUs, a cell
 *      CPU among them, noted (cell_pin.h): while the cell exists they
 *      run on their own CPUs minus the cell's, afterwards on their own
 *      CPUs again, on kernels before 6.2 too;
 *   1. a cgroup v2 cpuset partition "colorguard-<cell>" holding exactly
 *      the cell's CPUs, of type "isolated" (no load balancing, no root
 *      task can run there; a kernel that refuses "isolated" gets a
 *      "root" partition, which still keeps root's tasks off; one without
 *      partitions is refused);
 *   2. every movable IRQ's affinity (/proc/irq/N/smp_affinity_list) and
 *      the default affinity for new IRQs moved off those CPUs;
 *   3. memguard (when loaded): a critical cell's CPUs marked critical, a
 *      normal cell's CPUs given the config's read_mbps/write_mbps
 *      (unlimited when absent), written in MB/s as `colorguard apply`
 *      does, so memguard makes hv-color's one conversion.
 * What was there before each change is written to a record file as the
 * claim goes, so that the claim can be undone from the file alone by
 * another process (a supervisor that died). A claim that fails part way
 * undoes what it did. Nothing is changed when a check refuses.
 *
 * Every call that can fail writes a one-line reason (no newline) into
 * why[why_len] and returns a negative errno.
 */
#ifndef COLORGUARD_CELL_HOST_H
#define COLORGUARD_CELL_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct cg_cell;
struct cg_config;
struct cell_host;

/* Where the runner keeps one directory per cell (supervisor state). */
#define CELL_RUN_DIR		"/run/colorguard"
/* Prefix of the cpuset partition of a cell, under the cgroup2 root. */
#define CELL_CGROUP_PREFIX	"colorguard-"

/*
 * Check that cell `cell` of the validated config `cfg` can be claimed on
 * the running system, changing nothing: not the root cell; its CPUs
 * online, root Linux's (not another partition's) and not all of root's;
 * its colors known to the running mm-color and disjoint from its
 * root_colors; its memory regions (sizes, whole pages) no more than the
 * free pages of its colors in mm-color's pool.
 */
int cell_host_check(const struct cg_config *cfg, const struct cg_cell *cell,
		    char *why, size_t why_len);

/*
 * Check, then claim (see above). record: file that gets the old state as
 * the claim proceeds (created 0600; NULL: none). *out holds the claim.
 */
int cell_host_claim(const struct cg_config *cfg, const struct cg_cell *cell,
		    const char *record, struct cell_host **out,
		    char *why, size_t why_len);

/* Move process pid (all its threads) into the cell's partition. */
int cell_host_enter(struct cell_host *h, pid_t pid, char *why,
		    size_t why_len);

/*
 * Give everything back as recorded and free h: memguard settings, IRQ
 * affinities, the partition's tasks moved to the cgroup root, the
 * partition removed, pinned root tasks' own CPUs. Goes on past failures; returns the first one.
 */
int cell_host_release(struct cell_host *h, char *why, size_t why_len);

/* Undo a claim from its record file alone (e.g. of a dead supervisor). */
int cell_host_release_record(const char *record, char *why, size_t why_len);

/* One line: partition type, IRQs moved and unmovable, memguard action. */
void cell_host_summary(const struct cell_host *h, char *buf, size_t len);

#endif
