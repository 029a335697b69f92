// SPDX-License-Identifier: GPL-2.0
/*
 * `colorguard status`: one screen of the live system (mm-color's geometry,
 * root colors, quarantine and pool; memguard's bandwidth lock; per cell of
 * the config its CPUs, colors and free pages; per CPU memguard's mode
 * (regulate or monitor), budget, use and throttled share), then every
 * difference between the live system and what `colorguard apply` would
 * have written for the config, one
 * "mismatch: ..." line each. A warning line says how many free pages of
 * foreign colors root Linux can still get from CMA areas and
 * ZONE_MOVABLE (mm-color's foreign_movable_free_pages). The comparison follows the files of
 * Documentation/ABI/testing/: lists are compared as sets, budgets as the
 * text memguard shows (MB/s as a number, or "unlimited").
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "system_int.h"

#define MMC	"kernel/mm/color"
#define MG	"kernel/memguard"
#define VAL_MAX	(CG_LIST_MAX * 2)

struct status {
	FILE *out;
	const char *sysroot;
	const struct cg_system *sys;	/* NULL: nothing to compare */
	unsigned int mismatches;
	int global_bad;			/* a mismatch of no one cell */
	char (*mm)[VAL_MAX];		/* queued mismatch lines */
	unsigned int mm_max;
	int cell_bad[CG_MAX_CELLS];
	char warning[VAL_MAX];		/* the exposure line, if any */
};

/* The first line of a sysfs file, without its newline; -1 if unreadable. */
static int rd(const struct status *st, const char *dir, const char *file,
	      char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", st->sysroot, dir, file);
	f = fopen(path, "re");
	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int rd_u64(const struct status *st, const char *dir, const char *file,
		  unsigned long long *v)
{
	char buf[64], *end;

	if (rd(st, dir, file, buf, sizeof(buf)) || !buf[0])
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return errno || *end ? -1 : 0;
}

static int exists(const struct status *st, const char *dir)
{
	char buf[8];

	return !rd(st, dir, "last_cmd_status", buf, sizeof(buf));
}

static void mismatch(struct status *st, int cell, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void mismatch(struct status *st, int cell, const char *fmt, ...)
{
	va_list ap;

	if (cell >= 0)
		st->cell_bad[cell] = 1;
	else
		st->global_bad = 1;
	if (st->mismatches < st->mm_max) {
		va_start(ap, fmt);
		vsnprintf(st->mm[st->mismatches], VAL_MAX, fmt, ap);
		va_end(ap);
	}
	st->mismatches++;
}

/* A list in canonical form (as hv-color formats it); -1 if not a list. */
static int canon(const char *s, unsigned int nbits, char *buf, size_t len)
{
	struct hvc_mask *m = calloc(1, sizeof(struct hvc_mask));
	char why[128];
	int ret = -1;

	if (m && !cg_hv_mask_parse(m, s, nbits, why, sizeof(why)) &&
	    hvc_mask_format(m, buf, len) >= 0)
		ret = 0;
	free(m);
	return ret;
}

/* Expand a canonical list ("0-2,5") into set[0..n). */
static void expand(const char *s, unsigned char *set, unsigned int n)
{
	memset(set, 0, n);
	while (*s) {
		char *end;
		unsigned long a = strtoul(s, &end, 10), b = a;

		if (end == s)
			return;
		if (*end == '-')
			b = strtoul(end + 1, &end, 10);
		for (; a <= b && a < n; a++)
			set[a] = 1;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return;
	}
}

/* Compare a live list with the config's; name says what it is. */
static void cmp_list(struct status *st, int cell, const char *name,
		     const char *live, const char *want, unsigned int nbits)
{
	char c[VAL_MAX];

	if (canon(live, nbits, c, sizeof(c)))
		snprintf(c, sizeof(c), "%s", live);
	if (strcmp(c, want))
		mismatch(st, cell, "%s is '%s', config says '%s'", name, c, want);
}

static void cmp_num(struct status *st, const char *dir, const char *file,
		    unsigned long long want)
{
	unsigned long long v;

	if (rd_u64(st, dir, file, &v))
		mismatch(st, -1, "/sys/%s/%s unreadable, config says %llu",
			 dir, file, want);
	else if (v != want)
		mismatch(st, -1, "/sys/%s/%s is %llu, config says %llu", dir,
			 file, v, want);
}

static const char *type_name(enum cg_cell_type t)
{
	return t == CG_CELL_ROOT ? "root" :
	       t == CG_CELL_CRITICAL ? "critical" : "normal";
}

/*
 * Free pages of CMA areas and ZONE_MOVABLE: with drain_movable 0 a
 * narrowing leaves them to Linux, whatever their color, and movable
 * allocations (process memory, page cache) take them. The count of those
 * of foreign colors is a warning line; a drain_movable other than the
 * config's cma mode is a mismatch.
 */
static void show_movable(struct status *st)
{
	unsigned long long dm, exposed, want;
	int have_dm = !rd_u64(st, MMC, "drain_movable", &dm);
	int have_exp = !rd_u64(st, MMC, "foreign_movable_free_pages", &exposed);
	enum cg_cma mode;

	fprintf(st->out, "            CMA and ZONE_MOVABLE: drain_movable %s, ",
		!have_dm ? "?" : dm ? "1 (quarantined)" : "0 (kept by Linux)");
	if (have_exp)
		fprintf(st->out, "%llu free pages of foreign colors\n", exposed);
	else
		fprintf(st->out, "free pages of foreign colors unknown (foreign_movable_free_pages unreadable)\n");
	if (have_exp && exposed)
		snprintf(st->warning, sizeof(st->warning),
			 "warning: root Linux can still get %llu free pages of foreign colors (%llu KiB) in CMA areas and ZONE_MOVABLE; %s",
			 exposed, exposed * (unsigned long long)getpagesize() / 1024,
			 have_dm && !dm ?
			 "drain_movable is 0 (cma = \"keep\")" :
			 "freed there since the last drain (colorguard apply drains again)");
	if (!st->sys)
		return;
	mode = cg_cma_mode(&st->sys->cfg);
	want = mode == CG_CMA_QUARANTINE;
	if (!have_dm)
		mismatch(st, -1, "/sys/" MMC "/drain_movable unreadable, config says %llu (cma = \"%s\")",
			 want, cg_cma_name(mode));
	else if (dm != want)
		mismatch(st, -1, "/sys/" MMC "/drain_movable is %llu, config says %llu (cma = \"%s\")",
			 dm, want, cg_cma_name(mode));
}

static void show_mm_color(struct status *st)
{
	const struct cg_system *sys = st->sys;
	unsigned long long nr = 0, way = 0, line = 0, q = 0, fu = 0, pool = 0;
	unsigned long long fr = 0, used = 0, parked = 0;
	char src[64], rc[VAL_MAX], want[VAL_MAX];

	if (!exists(st, MMC)) {
		fprintf(st->out, "mm-color    not loaded (modprobe mm_color)\n");
		mismatch(st, -1, "mm_color is not loaded");
		return;
	}
	rd_u64(st, MMC, "nr_colors", &nr);
	rd_u64(st, MMC, "way_size", &way);
	rd_u64(st, MMC, "line_size", &line);
	rd(st, MMC, "geometry_source", src, sizeof(src));
	rd(st, MMC, "root_colors", rc, sizeof(rc));
	rd_u64(st, MMC, "quarantined_pages", &q);
	rd_u64(st, MMC, "foreign_in_use_pages", &fu);
	rd_u64(st, MMC, "pool_pages", &pool);
	rd_u64(st, MMC, "free_pages", &fr);
	rd_u64(st, MMC, "used_pages", &used);
	rd_u64(st, MMC, "parked_pages", &parked);
	fprintf(st->out, "mm-color    %llu colors, way %llu B, line %llu B (geometry: %s)\n",
		nr, way, line, src[0] ? src : "?");
	fprintf(st->out, "            root colors %s; quarantine %llu pages; foreign pages in use by root Linux ~%llu\n",
		rc[0] ? rc : "?", q, fu);
	fprintf(st->out, "            pool %llu pages, free %llu, /dev/mm-color in use %llu (%llu parked)\n",
		pool, fr, used, parked);
	show_movable(st);
	if (!sys)
		return;
	cmp_num(st, MMC, "line_size", sys->line_size);
	cmp_num(st, MMC, "way_size", sys->geom.way_size);
	for (unsigned int i = 0; i < sys->cfg.nr_cells; i++) {
		if (sys->cfg.cells[i].type != CG_CELL_ROOT)
			continue;
		hvc_mask_format(sys->cells[i].colors, want, sizeof(want));
		cmp_list(st, (int)i, "/sys/" MMC "/root_colors", rc, want,
			 sys->geom.nr_colors ? sys->geom.nr_colors : 1);
	}
}

/* Budget text memguard shows for a config value. */
static void budget_want(const struct cg_u64 *b, char *buf, size_t len)
{
	if (b->line)
		snprintf(buf, len, "%llu", (unsigned long long)b->v);
	else
		snprintf(buf, len, "unlimited");
}

/* The bandwidth lock of /dev/memguard, when the module has one. */
static void show_bwlock(struct status *st)
{
	unsigned long long holders = 0, files = 0, permille = 0;
	char mbps[32];

	if (rd_u64(st, MG "/bwlock", "holders", &holders))
		return;
	if (!holders) {
		fprintf(st->out, "            bandwidth lock free\n");
		return;
	}
	rd_u64(st, MG "/bwlock", "holder_files", &files);
	rd_u64(st, MG "/bwlock", "level_permille", &permille);
	rd(st, MG "/bwlock", "level_mbps", mbps, sizeof(mbps));
	fprintf(st->out, "            bandwidth lock held: %llu acquisitions by %llu files, budgets at %llu per mille",
		holders, files, permille);
	if (mbps[0] && strcmp(mbps, "unlimited"))
		fprintf(st->out, ", at most %s MB/s", mbps);
	fprintf(st->out, "\n");
}

static void show_memguard(struct status *st)
{
	const struct cg_system *sys = st->sys;
	static unsigned char crit[CG_MAX_CPUS], member[CG_MAX_CELLS][CG_MAX_CPUS];
	char status[256], buf[VAL_MAX], want[VAL_MAX], dir[64];
	unsigned long long en = 0, period = 0, line = 0, mon = 0;
	unsigned int c, i, ncells = sys ? sys->cfg.nr_cells : 0;
	int any = 0;

	if (!exists(st, MG)) {
		fprintf(st->out, "memguard    not loaded (modprobe memguard)\n");
		mismatch(st, -1, "memguard is not loaded");
		return;
	}
	rd(st, MG, "status", status, sizeof(status));
	rd_u64(st, MG, "enable", &en);
	rd_u64(st, MG, "period_us", &period);
	rd_u64(st, MG, "line_size", &line);
	rd_u64(st, MG, "monitor", &mon);
	fprintf(st->out, "memguard    %s\n            period %llu us, line %llu B\n",
		status[0] ? status : "?", period, line);
	show_bwlock(st);

	memset(crit, 0, sizeof(crit));
	for (i = 0; i < ncells; i++) {
		hvc_mask_format(sys->cells[i].cpus, buf, sizeof(buf));
		expand(buf, member[i], CG_MAX_CPUS);
		if (sys->cfg.cells[i].type == CG_CELL_CRITICAL)
			for (c = 0; c < CG_MAX_CPUS; c++)
				crit[c] |= member[i][c];
	}
	if (sys) {
		if (en != 1)
			mismatch(st, -1, "/sys/" MG "/enable is %llu, apply sets 1", en);
		cmp_num(st, MG, "period_us", sys->cfg.period_us.v);
		cmp_num(st, MG, "line_size", sys->line_size);
	}

	fprintf(st->out, "\n%-4s %-12s %-4s %-5s %-8s %-10s %-10s %-21s %-21s %s\n",
		"CPU", "cell", "crit", "armed", "mode", "read MB/s", "write MB/s",
		"read used/budget", "write used/budget", "throttled");
	for (c = 0; c < CG_MAX_CPUS; c++) {
		unsigned long long cr = 0, armed = 0, periods = 0, thr = 0;
		unsigned long long ru = 0, wu = 0;
		char rb[32], wb[32], rbe[32], wbe[32], ruse[48], wuse[48];
		const char *cell = "-";
		int ci = -1;

		snprintf(dir, sizeof(dir), MG "/cpu%u", c);
		if (rd(st, dir, "critical", buf, sizeof(buf))) {
			for (i = 0; i < ncells; i++)
				if (member[i][c])
					mismatch(st, (int)i, "CPU %u of cell \"%s\" has no /sys/%s (offline or absent)",
						 c, sys->cfg.cells[i].name, dir);
			continue;
		}
		any = 1;
		cr = strtoull(buf, NULL, 10);
		rd_u64(st, dir, "armed", &armed);
		rd_u64(st, dir, "periods", &periods);
		rd_u64(st, dir, "throttled_periods", &thr);
		rd_u64(st, dir, "read_used_avg", &ru);
		rd_u64(st, dir, "write_used_avg", &wu);
		rd(st, dir, "read_budget", rb, sizeof(rb));
		rd(st, dir, "write_budget", wb, sizeof(wb));
		rd(st, dir, "read_budget_events", rbe, sizeof(rbe));
		rd(st, dir, "write_budget_events", wbe, sizeof(wbe));
		for (i = 0; i < ncells; i++)
			if (member[i][c]) {
				ci = (int)i;
				cell = sys->cfg.cells[i].name;
			}
		snprintf(ruse, sizeof(ruse), "%llu/%s", ru, rbe);
		snprintf(wuse, sizeof(wuse), "%llu/%s", wu, wbe);
		fprintf(st->out, "%-4u %-12s %-4llu %-5llu %-8s %-10s %-10s %-21s %-21s ",
			c, cell, cr, armed,
			!armed ? "-" : mon ? "monitor" : "regulate",
			rb, wb, ruse, wuse);
		if (periods)
			fprintf(st->out, "%.1f%% of %llu periods\n",
				100.0 * (double)thr / (double)periods, periods);
		else
			fprintf(st->out, "-\n");
		if (ci < 0)
			continue;
		if (cr != crit[c])
			mismatch(st, ci, "CPU %u (cell \"%s\"): critical is %llu, config says %u",
				 c, cell, cr, crit[c]);
		if (crit[c])
			continue;
		budget_want(&sys->cfg.cells[ci].read_mbps, want, sizeof(want));
		if (strcmp(rb, want))
			mismatch(st, ci, "CPU %u (cell \"%s\"): read budget is %s, config says %s",
				 c, cell, rb, want);
		budget_want(&sys->cfg.cells[ci].write_mbps, want, sizeof(want));
		if (strcmp(wb, want))
			mismatch(st, ci, "CPU %u (cell \"%s\"): write budget is %s, config says %s",
				 c, cell, wb, want);
	}
	if (!any)
		fprintf(st->out, "(no CPU directories)\n");
}

static void show_cells(struct status *st)
{
	const struct cg_system *sys = st->sys;
	static unsigned char colors[CG_MAX_CPUS * 64];
	char cpus[VAL_MAX], cols[VAL_MAX], file[32];
	unsigned int i, c, n = sizeof(colors);

	fprintf(st->out, "\n%-12s %-8s %-10s %-16s %-14s %s\n", "cell", "type",
		"CPUs", "colors", "free pages", "state");
	for (i = 0; i < sys->cfg.nr_cells; i++) {
		const struct cg_cell *cell = &sys->cfg.cells[i];
		unsigned long long free = 0, v;
		int have = 1;

		hvc_mask_format(sys->cells[i].cpus, cpus, sizeof(cpus));
		hvc_mask_format(sys->cells[i].colors, cols, sizeof(cols));
		expand(cols, colors, n);
		for (c = 0; c < n && c < sys->geom.nr_colors; c++) {
			if (!colors[c])
				continue;
			snprintf(file, sizeof(file), "free/%u", c);
			if (rd_u64(st, MMC, file, &v))
				have = 0;
			else
				free += v;
		}
		fprintf(st->out, "%-12s %-8s %-10s %-16s ", cell->name,
			type_name(cell->type), cpus, cols);
		if (have)
			fprintf(st->out, "%-14llu ", free);
		else
			fprintf(st->out, "%-14s ", "-");
		fprintf(st->out, "%s\n", st->cell_bad[i] || st->global_bad ?
			"differs" : "as configured");
	}
}

/**
 * cg_status() - print the live system and its mismatches with a config
 * @out: where to print
 * @sys: the resolved config, or NULL to show the live system alone
 * @config: the config's path, for the header line
 * @sysroot: "/sys" or a fake tree
 *
 * Return: the number of mismatches (0 when the live system is what
 * `colorguard apply` makes of @sys), or -1 when out of memory.
 */
int cg_status(FILE *out, const struct cg_system *sys, const char *config,
	      const char *sysroot)
{
	struct status st = { .out = out, .sysroot = sysroot, .sys = sys,
			     .mm_max = 256 };
	FILE *mem;
	char *body = NULL;
	size_t body_len = 0;
	unsigned int i;

	st.mm = calloc(st.mm_max, sizeof(*st.mm));
	if (!st.mm)
		return -1;
	/* The cell table's state needs the comparisons, which come later. */
	mem = open_memstream(&body, &body_len);
	if (!mem) {
		free(st.mm);
		return -1;
	}
	st.out = mem;
	show_mm_color(&st);
	show_memguard(&st);
	fclose(mem);

	fprintf(out, "config      %s\n", sys ? config : "none (live system only)");
	fputs(body, out);
	free(body);
	st.out = out;
	if (sys)
		show_cells(&st);
	fprintf(out, "\n");
	if (st.warning[0])
		fprintf(out, "%s\n", st.warning);
	for (i = 0; i < st.mismatches && i < st.mm_max; i++)
		fprintf(out, "mismatch: %s\n", st.mm[i]);
	if (st.mismatches > st.mm_max)
		fprintf(out, "mismatch: ... %u more\n", st.mismatches - st.mm_max);
	if (sys && !st.mismatches)
		fprintf(out, "no mismatch: the live system is what `colorguard apply %s` sets\n",
			config);
	free(st.mm);
	return (int)st.mismatches;
}
