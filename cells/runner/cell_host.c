// SPDX-License-Identifier: GPL-2.0
/*
 * A claim of the host side as a whole: the resources in order under the
 * host lock, each step journaled before it is taken; giving back is the
 * journal's replay, the same for a release, a claim that fails part way
 * and `colorguard cell gc`. See cell_host.h.
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
#include "cell_why.h"

#define LOCK_FILE	CELL_RUN_DIR "/.host.lock"

static struct cell_host *host_alloc(void)
{
	struct cell_host *h = calloc(1, sizeof(*h));

	if (h)
		h->journal_fd = -1;
	return h;
}

static void host_free(struct cell_host *h)
{
	if (!h)
		return;
	host_journal_close(h, false);
	free(h->steps);
	free(h);
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

/* The steps in order; the first that fails stops the claim. */
static int claim_steps(struct cell_host *h, const struct cg_cell *cell,
		       char *why, size_t why_len)
{
	int ret;

	/* Noted before the partition changes them (cell_pin.h). */
	ret = host_claim_pins(h, why, why_len);
	if (!ret)
		ret = host_claim_partition(h, why, why_len);
	if (!ret)
		host_narrow_pins(h);
	if (!ret)
		ret = host_claim_irqs(h, why, why_len);
	if (!ret)
		ret = host_claim_memguard(h, cell, why, why_len);
	if (!ret)
		ret = host_journal_add(h, why, why_len, "claimed");
	return ret;
}

/* Replay under the lock; the journal goes only once all is given back. */
static int give_back(struct cell_host *h, char *why, size_t why_len)
{
	int ret = host_journal_replay(h, why, why_len);

	host_journal_close(h, !ret);
	return ret;
}

int cell_host_claim(const struct cg_config *cfg, const struct cg_cell *cell,
		    unsigned int flags, const char *journal,
		    struct cell_host **out, char *why, size_t why_len)
{
	char undo_why[256];
	struct cell_host *h;
	int lock, ret;

	*out = NULL;
	/* One claim at a time: two cells must not both see a CPU free. */
	lock = lock_host();
	if (lock < 0) {
		cell_why(why, why_len, "cannot lock %s: %s", LOCK_FILE, strerror(errno));
		return -EIO;
	}
	ret = cell_host_check(cfg, cell, flags, why, why_len);
	if (ret) {
		unlock_host(lock);
		return ret;
	}
	h = host_alloc();
	if (!h) {
		unlock_host(lock);
		cell_why(why, why_len, "out of memory");
		return -ENOMEM;
	}
	snprintf(h->name, sizeof(h->name), "%s", cell->name);
	host_parse_list(cell->cpus.s, &h->cpus);
	ret = host_journal_create(h, journal);
	if (ret) {
		cell_why(why, why_len, "cannot make the claim's journal %s: %s",
			 journal, strerror(-ret));
		host_free(h);
		unlock_host(lock);
		return ret;
	}
	ret = claim_steps(h, cell, why, why_len);
	if (ret) {
		size_t n = strlen(why ? why : "");

		/* A journal left behind is replayed by `colorguard cell gc`. */
		if (give_back(h, undo_why, sizeof(undo_why)) && why &&
		    n < why_len)
			snprintf(why + n, why_len - n,
				 "; giving back failed too: %s (journal kept in %s)",
				 undo_why, h->journal);
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
	ret = give_back(h, why, why_len);
	unlock_host(lock);
	host_free(h);
	return ret;
}

int cell_host_release_journal(const char *journal, char *why, size_t why_len)
{
	struct cell_host *h = host_alloc();
	int lock, ret;

	if (!h) {
		cell_why(why, why_len, "out of memory");
		return -ENOMEM;
	}
	/* Read under the lock: another gc may be giving it back right now. */
	lock = lock_host();
	ret = host_journal_load(h, journal, why, why_len);
	if (!ret)
		ret = give_back(h, why, why_len);
	else if (access(journal, F_OK) && errno == ENOENT)
		ret = 0;
	unlock_host(lock);
	host_free(h);
	return ret;
}

void cell_host_summary(const struct cell_host *h, char *buf, size_t len)
{
	char cpus[VAL_MAX];

	host_fmt_list(&h->cpus, cpus, sizeof(cpus));
	snprintf(buf, len, "CPUs %s in a cpuset %s partition; %u IRQs moved, %u unmovable; memguard: %s; %u pinned root tasks kept on their own CPUs",
		 cpus, h->partition[0] ? h->partition : "?", h->irqs_moved,
		 h->irqs_unmovable,
		 h->mg_absent ? "not loaded" :
		 !h->mg_steps ? "nothing changed" :
		 h->mg_critical ? "CPUs critical" : "budgets set",
		 h->nr_pins);
}
