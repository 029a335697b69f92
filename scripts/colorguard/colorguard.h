/* SPDX-License-Identifier: GPL-2.0 */
/*
 * colorguard config tool: the system model read from a config file, and
 * the helpers shared by the subcommands. Color math, list syntax, blob
 * format and system rules all come from hv-color.
 */
#ifndef COLORGUARD_TOOL_H
#define COLORGUARD_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <colorguard/limits.h>

/* Bounds on untrusted input. */
#define CG_MAX_CONFIG_BYTES	(1u << 20)
#define CG_MAX_CELLS		32
#define CG_MAX_REGIONS		16
#define CG_NAME_MAX		31
#define CG_LIST_MAX		4096
#define CG_MAX_CHANNELS		16
#define CG_MAX_CHAN_REFS	16	/* channels one cell takes part in */
#define CG_CHAN_RECORD_MAX	(1u << 30)	/* max_record, bytes */

#ifndef ARRAY_SIZE	/* kselftest.h has one too */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define CG_LABEL_MAX		(CG_NAME_MAX * 4 + 16)

/* Where messages go and how many there were. */
struct cg_diag {
	const char *file;	/* shown as the message prefix */
	FILE *out;		/* NULL: count only */
	unsigned int errors;
};

void cg_err(struct cg_diag *d, unsigned int line, const char *cell,
	    const char *field, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

int cg_parse_u64(const char *s, uint64_t *out, const char **why);
int cg_guard_text(struct cg_diag *d, const char *text, size_t len);

/* A value read from the config and the line it came from (0: absent). */
struct cg_u64 {
	uint64_t v;
	unsigned int line;
};

struct cg_str {
	char s[CG_LIST_MAX + 1];
	unsigned int line;
};

struct cg_region {
	struct cg_u64 phys;	/* host physical base */
	struct cg_u64 virt;	/* address the cell sees */
	struct cg_u64 size;	/* bytes the cell gets */
	struct cg_u64 span;	/* host bytes reserved (default: what size needs) */
	bool colored;
	unsigned int colored_line;
	unsigned int line;
};

enum cg_chan_role {
	CG_CHAN_READER,
	CG_CHAN_WRITER,
};

/*
 * A cell's part in a channel (its `channels` list): the role and, for a
 * cell other than the root, the guest address of its window
 * (channels.h); for root Linux as a reader, how many reader slots its
 * processes take.
 */
struct cg_chan_ref {
	char name[CG_NAME_MAX + 1];
	enum cg_chan_role role;
	struct cg_u64 address;
	struct cg_u64 readers;	/* root Linux: reader slots its processes take */
	unsigned int line;
	int chan;		/* index in cfg->channels, -1: unknown (system.c) */
};

enum cg_chan_kind {
	CG_CHAN_QUEUE,
	CG_CHAN_STATE,
};

/* A channel of the config's `channels` list (include/colorguard/chan.h). */
struct cg_channel {
	char name[CG_NAME_MAX + 1];
	unsigned int name_line;
	enum cg_chan_kind kind;
	struct cg_u64 size;		/* queue: ring bytes, a power of two */
	struct cg_u64 max_record;	/* largest record or value */
	struct cg_str colors;		/* comm colors of its pages */
	char reliable[CG_NAME_MAX + 1];	/* the reader with backpressure, or "" */
	unsigned int reliable_line;
	bool doorbell;
	unsigned int doorbell_line;
	unsigned int line;
};

enum cg_cell_type {
	CG_CELL_ROOT,
	CG_CELL_CRITICAL,
	CG_CELL_NORMAL,
};

struct cg_cell {
	char name[CG_NAME_MAX + 1];
	char label[CG_LABEL_MAX];	/* `cell "name"` or `cells[i]` */
	unsigned int name_line;
	enum cg_cell_type type;
	unsigned int type_line;
	struct cg_str cpus;
	struct cg_str colors;
	struct cg_u64 read_mbps;
	struct cg_u64 write_mbps;
	unsigned int nr_regions;
	struct cg_region regions[CG_MAX_REGIONS];
	unsigned int memory_line;
	/* For the cell runner (colorguard cell run, cells/runner/). */
	struct cg_str image;		/* inmate image path, optional */
	struct cg_str args;		/* argument string for the inmate */
	struct cg_u64 comm;		/* guest address of the comm page */
	struct cg_u64 console;		/* guest address of the console register */
	bool autostart;			/* started at boot (colorguard-generator) */
	unsigned int autostart_line;
	bool bwlock;			/* may take memguard's bandwidth lock */
	unsigned int bwlock_line;
	/* Its limits on the lock (limits.h: CG_CELL_BWLOCK_*). */
	struct cg_u64 bwlock_max_hold_ms;	/* longest hold */
	struct cg_u64 bwlock_min_gap_ms;	/* a release to the next acquisition */
	struct cg_u64 bwlock_min_level;		/* lowest per mille */
	struct cg_u64 exit_rate;	/* exits a second before it fails */
	struct cg_u64 vcpu_priority;	/* SCHED_FIFO priority; 0 line: none */
	bool console_output;		/* false: the console is off */
	unsigned int console_output_line;	/* 0: not given (on) */
	unsigned int nr_chan_refs;
	struct cg_chan_ref chan_refs[CG_MAX_CHAN_REFS];
	unsigned int line;
};

/* A cell's limits on the bandwidth lock: the config's, else the default. */
static inline uint64_t cg_cell_bwlock_hold_ms(const struct cg_cell *cell)
{
	return cell->bwlock_max_hold_ms.line ? cell->bwlock_max_hold_ms.v :
	       CG_CELL_BWLOCK_HOLD_MS_DEFAULT;
}

static inline uint64_t cg_cell_bwlock_gap_ms(const struct cg_cell *cell)
{
	return cell->bwlock_min_gap_ms.line ? cell->bwlock_min_gap_ms.v :
	       CG_CELL_BWLOCK_GAP_MS_DEFAULT;
}

static inline uint64_t cg_cell_bwlock_level(const struct cg_cell *cell)
{
	return cell->bwlock_min_level.line ? cell->bwlock_min_level.v :
	       CG_CELL_BWLOCK_LEVEL_DEFAULT;
}

/* A cell's exit_rate: exits a second it may cause. */
#define CG_EXIT_RATE_MIN	100
#define CG_EXIT_RATE_MAX	10000000

/* A cell's vcpu_priority: SCHED_FIFO's range (sched_get_priority_max). */
#define CG_VCPU_PRIORITY_MIN	1
#define CG_VCPU_PRIORITY_MAX	99

/* Longest `args` (the comm region's args field, with its NUL). */
#define CG_ARGS_MAX		767

struct cg_llc {
	struct cg_u64 size;
	struct cg_u64 ways;
	struct cg_u64 line_size;
	struct cg_u64 sets;
	struct cg_u64 way_size;
	struct cg_u64 pages_per_color;
	unsigned int line;	/* 0: no llc group, geometry from sysfs */
};

/*
 * `cma`: what a narrowing of the root cell's colors does with the free
 * pages of CMA areas and ZONE_MOVABLE (mm-color's drain_movable).
 */
enum cg_cma {
	CG_CMA_UNSET,		/* not in the config: cg_cma_mode() decides */
	CG_CMA_QUARANTINE,	/* foreign ones quarantined too: drain_movable 1 */
	CG_CMA_KEEP,		/* left to Linux, any color: drain_movable 0 */
	CG_CMA_NR
};

struct cg_config {
	struct cg_llc llc;
	struct cg_str hv_colors;
	struct cg_u64 period_us;
	enum cg_cma cma;
	unsigned int cma_line;
	unsigned int nr_cells;
	unsigned int cells_line;
	struct cg_cell cells[CG_MAX_CELLS];
	unsigned int nr_channels;
	unsigned int channels_line;
	struct cg_channel channels[CG_MAX_CHANNELS];
};

/* The config's word for a cma mode ("quarantine", "keep"). */
const char *cg_cma_name(enum cg_cma mode);
/*
 * The cma mode in effect: the config's, else quarantine when a critical
 * cell exists and keep when none does.
 */
enum cg_cma cg_cma_mode(const struct cg_config *cfg);

/*
 * Parse config text (len bytes, text[len] must be NUL) into *cfg. Every
 * problem is reported through d; returns 0 when there was none.
 */
int cg_config_parse(struct cg_diag *d, const char *text, size_t len,
		    struct cg_config *cfg);
/* Read a file (bounded) and parse it. */
int cg_config_load(struct cg_diag *d, const char *path, struct cg_config *cfg);

#endif
