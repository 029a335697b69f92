// SPDX-License-Identifier: GPL-2.0
/*
 * memguard settings of the cell's CPUs: a critical cell's marked
 * critical, a normal cell's given its budgets; and the old ones restored
 * where they are still the claim's. Journal line: "memguard CPU FILE OLD
 * NEW", one a file (critical, read_budget, write_budget), the values as
 * memguard prints them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <colorguard/hv_color.h>

#include "cell_host_int.h"
#include "cell_why.h"
#include "colorguard.h"

#define MG_DIR		"/sys/kernel/memguard"

static const char *const mg_files[] = { "critical", "read_budget",
					"write_budget" };

/* One file of CPU cpu: its line with the old value, then the write. */
static int claim_file(struct cell_host *h, unsigned int cpu, const char *file,
		      const char *val, char *why, size_t why_len)
{
	char path[PATH_MAX], old[MG_VAL_MAX], status[256] = "";
	int ret;

	snprintf(path, sizeof(path), MG_DIR "/cpu%u/%s", cpu, file);
	ret = host_read_line(path, old, sizeof(old));
	if (ret) {
		cell_why(why, why_len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = host_journal_add(h, why, why_len, "memguard %u %s %s %s", cpu,
			       file, old, val);
	if (ret)
		return ret;
	ret = host_write_val(path, val);
	if (ret) {
		host_read_line(MG_DIR "/last_cmd_status", status, sizeof(status));
		cell_why(why, why_len, "%s: %s (%s)", path, strerror(-ret), status);
		return ret;
	}
	h->mg_steps++;
	host_journal_point();
	return 0;
}

int host_claim_memguard(struct cell_host *h, const struct cg_cell *cell,
			char *why, size_t why_len)
{
	char r[24], w[24];
	struct stat st;
	unsigned int c;
	int ret = 0;

	if (stat(MG_DIR, &st)) {
		h->mg_absent = true;
		return 0;
	}
	h->mg_critical = cell->type == CG_CELL_CRITICAL;
	if (cell->read_mbps.line)
		snprintf(r, sizeof(r), "%llu", (unsigned long long)cell->read_mbps.v);
	else
		snprintf(r, sizeof(r), "unlimited");
	if (cell->write_mbps.line)
		snprintf(w, sizeof(w), "%llu", (unsigned long long)cell->write_mbps.v);
	else
		snprintf(w, sizeof(w), "unlimited");
	for (c = hvc_mask_next(&h->cpus, 0); !ret && c < HVC_MAX_CPUS;
	     c = hvc_mask_next(&h->cpus, c + 1)) {
		if (h->mg_critical) {
			ret = claim_file(h, c, "critical", "1", why, why_len);
			continue;
		}
		ret = claim_file(h, c, "read_budget", r, why, why_len);
		if (!ret)
			ret = claim_file(h, c, "write_budget", w, why, why_len);
	}
	return ret;
}

/* memguard's values: "1", "unlimited", "events:N", MB/s. */
static bool value_ok(const char *s)
{
	if (!*s || strlen(s) >= MG_VAL_MAX)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == ':'))
			return false;
	return true;
}

static int parse_memguard(struct host_entry *e, char *const *args)
{
	unsigned long cpu;
	unsigned int i;
	char *end;

	cpu = strtoul(args[0], &end, 10);
	if (args[0][0] < '0' || args[0][0] > '9' || *end || cpu >= HVC_MAX_CPUS ||
	    !value_ok(args[2]) || !value_ok(args[3]))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(mg_files); i++)
		if (!strcmp(args[1], mg_files[i]))
			break;
	if (i == ARRAY_SIZE(mg_files))
		return -EINVAL;
	e->mg.cpu = (unsigned int)cpu;
	snprintf(e->mg.file, sizeof(e->mg.file), "%s", mg_files[i]);
	snprintf(e->mg.old, sizeof(e->mg.old), "%s", args[2]);
	snprintf(e->mg.new, sizeof(e->mg.new), "%s", args[3]);
	return 0;
}

/*
 * A value that is no longer the claim's was set since (`colorguard
 * apply`, an admin): it stays. memguard unloaded meanwhile: nothing left.
 */
static int undo_memguard(struct cell_host *h, const struct host_entry *e,
			 struct host_undo *u)
{
	char path[PATH_MAX], cur[MG_VAL_MAX];
	int ret;

	snprintf(path, sizeof(path), MG_DIR "/cpu%u/%s", e->mg.cpu, e->mg.file);
	ret = host_read_line(path, cur, sizeof(cur));
	if (ret == -ENOENT || (!ret && !strcmp(cur, e->mg.old)))
		return 0;
	if (!ret && strcmp(cur, e->mg.new)) {
		host_conflict(h, "%s changed meanwhile (%s, the claim left %s): left as it is",
			      path, cur, e->mg.new);
		return 0;
	}
	if (!ret)
		ret = host_write_val(path, e->mg.old);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		host_undo_fail(u, ret, "%s: %s: %s", path, e->mg.old,
			       strerror(-ret));
	return ret;
}

const struct host_kind host_kind_memguard = {
	.name = "memguard", .nr_args = 4, .parse = parse_memguard,
	.undo = undo_memguard,
};
