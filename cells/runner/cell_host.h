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
 *      partitions is refused); only the runner's vCPU threads enter it
      (cell_host_enter_threads()), `cell exec`'s command whole;
 *   2. every movable IRQ's affinity (/proc/irq/N/smp_affinity_list) and
 *      the default affinity for new IRQs moved off those CPUs;
 *   3. memguard (when loaded): a critical cell's CPUs marked critical, a
 *      normal cell's CPUs given the config's read_mbps/write_mbps
 *      (unlimited when absent), written in MB/s as `colorguard apply`
 *      does, so memguard makes hv-color's one conversion.
 * Every step is first written to the claim's journal with the value it
 * finds and the value it writes, and synced; only then is it taken. A
 * journal that cannot be written stops the claim, which then gives back
 * what it took. Giving back is always the journal's replay, last step
 * first, by the claiming process (release, or a claim that failed part
 * way) or by `colorguard cell gc` from the file alone (an owner that
 * died): compare-and-restore, a value is restored only where it still is
 * what the claim wrote; one changed since (`colorguard apply`, an admin,
 * a cell claimed later) keeps its new value, with only this cell's CPUs
 * given back into a CPU set, and one line on stderr says so. So two
 * cells released in any order never put an IRQ on each other's CPUs.
 * Replaying twice is harmless: a step already given back finds its old
 * value. Nothing is changed when a check refuses.
 *
 * The journal, text, one line each:
 *   colorguard-journal 1 CELL CPUS          the header
 *   SEQ pin TID START OWN NARROWED          a pinned root task (cell_pin.h)
 *   SEQ mount                               cgroup2 mounted on /sys/fs/cgroup
 *   SEQ controller cpuset                   +cpuset in its subtree_control
 *   SEQ partition CPUS                      colorguard-CELL made
 *   SEQ irqdefault OLD NEW                  default_smp_affinity (hex)
 *   SEQ irq IRQ OLD NEW                     an IRQ's smp_affinity_list
 *   SEQ memguard CPU FILE OLD NEW           critical, read_ or write_budget
 *   SEQ claimed                             every step taken
 *   SEQ undone SEQ2                         step SEQ2 given back
 * SEQ counts the lines from 1; a last line cut short was never acted on.
 *
 * Test hook (selftests/cellhost): with CG_TEST_KILL_AFTER_STEP=N in the
 * environment the process raises CG_TEST_KILL_SIGNAL (a number; default
 * SIGKILL) at the N-th point of its journal. A claim's step has two
 * points, its line synced and then its change made; a release's step
 * two, its change given back and then its "undone" line synced.
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
 * free pages of its colors in mm-color's pool. With CELL_HOST_NO_COLOR in
 * flags the cell's RAM is anonymous memory of every color (cell run
 * --no-color, the unprotected control run): its colors and the pool are
 * not checked.
 */
#define CELL_HOST_NO_COLOR	0x1u
int cell_host_check(const struct cg_config *cfg, const struct cg_cell *cell,
		    unsigned int flags, char *why, size_t why_len);

/*
 * Check with flags, then claim (see above). journal: the journal's file, made 0600
 * (one that exists is refused: a claim not given back). *out holds the
 * claim.
 */
int cell_host_claim(const struct cg_config *cfg, const struct cg_cell *cell,
		    unsigned int flags, const char *journal,
		    struct cell_host **out, char *why, size_t why_len);

/* Move process pid (all its threads) into the cell's partition. */
int cell_host_enter(struct cell_host *h, pid_t pid, char *why,
		    size_t why_len);

/*
 * Let the calling process's vCPU threads alone into the partition: the
 * partition made a threaded cgroup, the process moved to the cgroup root
 * (its threaded domain), where it and every other thread of it run on
 * root Linux's CPUs. threads[len]: the partition's cgroup.threads, to
 * which each vCPU thread writes its own TID. Not with cell_host_enter().
 */
int cell_host_enter_threads(struct cell_host *h, char *threads, size_t len,
			    char *why, size_t why_len);

/*
 * The partition's state file (cpuset.cpus.partition), opened for poll():
 * the kernel raises POLLPRI when the partition changes state. -errno.
 */
int cell_host_partition_open(const struct cell_host *h);

/*
 * 0 while the cell's CPUs are online and its partition valid; else
 * -ENXIO with why naming the offline CPUs or the kernel's words for the
 * partition (its CPUs taken by a change to another cpuset).
 */
int cell_host_partition_check(const struct cell_host *h, char *why,
			      size_t why_len);

/*
 * Give everything back by the journal's replay and free h: memguard
 * settings, IRQ affinities, the partition's tasks moved to the cgroup
 * root, the partition removed, pinned root tasks' own CPUs. Goes on past
 * failures and returns the first one; the journal is removed only when
 * there was none, else kept for the next replay.
 */
int cell_host_release(struct cell_host *h, char *why, size_t why_len);

/*
 * Give a claim back from its journal alone (an owner that died); none
 * there is 0. A journal that does not parse is refused whole (why: its
 * line).
 */
int cell_host_release_journal(const char *journal, char *why,
			      size_t why_len);

/* One line: partition type, IRQs moved and unmovable, memguard action. */
void cell_host_summary(const struct cell_host *h, char *buf, size_t len);

#endif
