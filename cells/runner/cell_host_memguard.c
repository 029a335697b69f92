// SPDX-License-Identifier: GPL-2.0
/*
 * memguard settings of the cell's CPUs: a critical cell's marked
 * critical, a normal cell's given its budgets; and the old ones restored.
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

int host_claim_memguard(struct cell_host *h, const struct cg_cell *cell,
			char *why, size_t why_len)
{
	bool critical = cell->type == CG_CELL_CRITICAL;
	char path[PATH_MAX], r[24], w[24];
	unsigned int c;
	struct stat st;
	int ret;

	if (stat(MG_DIR, &st)) {
		h->mg_absent = true;
		return 0;
	}
	h->mg = calloc(hvc_mask_weight(&h->cpus), sizeof(*h->mg));
	if (!h->mg)
		return -ENOMEM;
	if (cell->read_mbps.line)
		snprintf(r, sizeof(r), "%llu", (unsigned long long)cell->read_mbps.v);
	else
		snprintf(r, sizeof(r), "unlimited");
	if (cell->write_mbps.line)
		snprintf(w, sizeof(w), "%llu", (unsigned long long)cell->write_mbps.v);
	else
		snprintf(w, sizeof(w), "unlimited");
	for (c = hvc_mask_next(&h->cpus, 0); c < HVC_MAX_CPUS;
	     c = hvc_mask_next(&h->cpus, c + 1)) {
		struct host_mg *m = &h->mg[h->nr_mg];

		m->cpu = c;
		m->critical = critical;
		if (critical) {
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/critical", c);
			ret = host_read_line(path, m->old_crit, sizeof(m->old_crit));
			if (!ret) {
				h->nr_mg++;
				host_record_write(h);
				ret = host_write_val(path, "1");
			}
		} else {
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/read_budget", c);
			ret = host_read_line(path, m->old_read, sizeof(m->old_read));
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/write_budget", c);
			if (!ret)
				ret = host_read_line(path, m->old_write, sizeof(m->old_write));
			if (!ret) {
				h->nr_mg++;
				host_record_write(h);
				snprintf(path, sizeof(path), MG_DIR "/cpu%u/read_budget", c);
				ret = host_write_val(path, r);
			}
			if (!ret) {
				snprintf(path, sizeof(path), MG_DIR "/cpu%u/write_budget", c);
				ret = host_write_val(path, w);
			}
		}
		if (ret) {
			char status[256] = "";

			host_read_line(MG_DIR "/last_cmd_status", status, sizeof(status));
			cell_why(why, why_len, "%s: %s (%s)", path, strerror(-ret), status);
			return ret;
		}
	}
	return 0;
}

void host_undo_memguard(struct cell_host *h, int *first, char *why,
			size_t why_len)
{
	char path[PATH_MAX];
	unsigned int i;
	int ret;

	for (i = h->nr_mg; i-- > 0;) {
		const struct host_mg *m = &h->mg[i];

		if (m->critical) {
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/critical", m->cpu);
			ret = host_write_val(path, m->old_crit);
		} else {
			snprintf(path, sizeof(path), MG_DIR "/cpu%u/read_budget", m->cpu);
			ret = host_write_val(path, m->old_read);
			if (!ret) {
				snprintf(path, sizeof(path),
					 MG_DIR "/cpu%u/write_budget", m->cpu);
				ret = host_write_val(path, m->old_write);
			}
		}
		/* memguard unloaded meanwhile: nothing left to restore. */
		if (ret && ret != -ENOENT)
			host_undo_fail(first, why, why_len, ret, "%s: %s", path, strerror(-ret));
	}
	h->nr_mg = 0;
}
