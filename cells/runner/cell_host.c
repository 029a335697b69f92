// SPDX-License-Identifier: GPL-2.0
/*
 * A claim of the host side as a whole: the parts in order under the host
 * lock, their undo in reverse order, the record's life. See cell_host.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <colorguard/hv_color.h>

#include "cell_host.h"
#include "cell_host_int.h"
#include "cell_pin.h"
#include "cell_why.h"

#define LOCK_FILE	CELL_RUN_DIR "/.host.lock"

static void host_free(struct cell_host *h)
{
	unsigned int i;

	if (!h)
		return;
	for (i = 0; i < h->nr_irqs; i++)
		free(h->irqs[i].old);
	free(h->irqs);
	free(h->mg);
	free(h->pins);
	free(h->old_default);
	free(h);
}

/* Root tasks pinned to a cell CPU, noted before the partition changes them. */
static int claim_pins(struct cell_host *h, char *why, size_t why_len)
{
	struct hvc_mask root;
	int ret;

	ret = host_root_cpus(&root);
	if (ret) {
		cell_why(why, why_len, "cannot read root Linux's CPUs: %s",
			 strerror(-ret));
		return ret;
	}
	ret = cell_pin_snapshot(&h->cpus, &root, &h->pins, &h->nr_pins, why,
				why_len);
	if (ret)
		return ret;
	ret = host_record_write(h);
	if (ret)
		cell_why(why, why_len, "%s: %s", h->record, strerror(-ret));
	return ret;
}

/* ---- giving back ---- */

static int undo(struct cell_host *h, char *why, size_t why_len)
{
	int first = 0;

	host_undo_memguard(h, &first, why, why_len);
	host_undo_irqs(h, &first, why, why_len);
	host_undo_partition(h, &first, why, why_len);
	/* After the partition: root's CPUs include the cell's again. */
	if (h->nr_pins) {
		unsigned int left = cell_pin_restore(h->pins, h->nr_pins);

		if (left)
			host_undo_fail(&first, why, why_len, -EIO,
				       "%u root tasks did not get their CPU pinning back",
				       left);
		h->nr_pins = 0;
	}
	host_undo_cgroup_root(h);
	return first;
}

static int lock_host(void)
{
	int fd;

	mkdir("/run", 0755);
	mkdir(CELL_RUN_DIR, 0700);
	fd = open(LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0 && flock(fd, LOCK_EX)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

static void unlock_host(int fd)
{
	if (fd >= 0)
		close(fd);
}

int cell_host_claim(const struct cg_config *cfg, const struct cg_cell *cell,
		    const char *record, struct cell_host **out,
		    char *why, size_t why_len)
{
	struct cell_host *h;
	int lock, ret;

	*out = NULL;
	/* One claim at a time: two cells must not both see a CPU free. */
	lock = lock_host();
	if (lock < 0) {
		cell_why(why, why_len, "cannot lock %s: %s", LOCK_FILE, strerror(errno));
		return -EIO;
	}
	ret = cell_host_check(cfg, cell, why, why_len);
	if (ret) {
		unlock_host(lock);
		return ret;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		unlock_host(lock);
		cell_why(why, why_len, "out of memory");
		return -ENOMEM;
	}
	snprintf(h->name, sizeof(h->name), "%s", cell->name);
	host_parse_list(cell->cpus.s, &h->cpus);
	if (record)
		snprintf(h->record, sizeof(h->record), "%s", record);
	ret = host_record_write(h);
	if (ret)
		cell_why(why, why_len, "%s: %s", record, strerror(-ret));
	if (!ret)
		ret = claim_pins(h, why, why_len);
	if (!ret)
		ret = host_claim_partition(h, why, why_len);
	if (!ret)
		cell_pin_narrow(h->pins, h->nr_pins, &h->cpus);
	if (!ret)
		ret = host_claim_irqs(h, why, why_len);
	if (!ret)
		ret = host_claim_memguard(h, cell, why, why_len);
	if (!ret)
		ret = host_record_write(h);
	if (ret) {
		undo(h, NULL, 0);
		if (h->record[0])
			unlink(h->record);
		host_free(h);
		unlock_host(lock);
		return ret;
	}
	unlock_host(lock);
	*out = h;
	return 0;
}

int cell_host_release(struct cell_host *h, char *why, size_t why_len)
{
	int lock, ret;

	if (!h)
		return 0;
	lock = lock_host();
	ret = undo(h, why, why_len);
	if (!ret && h->record[0])
		unlink(h->record);
	unlock_host(lock);
	host_free(h);
	return ret;
}

int cell_host_release_record(const char *record, char *why, size_t why_len)
{
	struct cell_host *h = calloc(1, sizeof(*h));
	int ret;

	if (!h) {
		cell_why(why, why_len, "out of memory");
		return -ENOMEM;
	}
	ret = host_record_read(record, h, why, why_len);
	if (ret) {
		host_free(h);
		return ret;
	}
	return cell_host_release(h, why, why_len);
}

void cell_host_summary(const struct cell_host *h, char *buf, size_t len)
{
	char cpus[VAL_MAX];

	host_fmt_list(&h->cpus, cpus, sizeof(cpus));
	snprintf(buf, len, "CPUs %s in a cpuset %s partition; %u IRQs moved, %u unmovable; memguard: %s; %u pinned root tasks kept on their own CPUs",
		 cpus, h->partition[0] ? h->partition : "?", h->nr_irqs,
		 h->irqs_unmovable,
		 h->mg_absent ? "not loaded" :
		 !h->nr_mg ? "nothing changed" :
		 h->mg[0].critical ? "CPUs critical" : "budgets set",
		 h->nr_pins);
}
