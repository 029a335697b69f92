// SPDX-License-Identifier: GPL-2.0
/*
 * Root tasks pinned to a cell CPU (cell_pin.h): noted before the
 * partition is made, kept on their own CPUs minus the cell's while it
 * exists, given their own CPUs back after it is gone. Journal line:
 * "pin TID START OWN NARROWED" (NARROWED "-": pinned to cell CPUs only,
 * the kernel moves it and the claim writes nothing).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <colorguard/hv_color.h>

#include "cell_host_int.h"
#include "cell_pin.h"
#include "cell_why.h"

static void narrowed_of(const struct hvc_mask *own, const struct hvc_mask *cell,
			struct hvc_mask *out)
{
	unsigned int c;

	hvc_mask_zero(out);
	for (c = hvc_mask_next(own, 0); c < HVC_MAX_CPUS;
	     c = hvc_mask_next(own, c + 1))
		if (!hvc_mask_test(cell, c))
			hvc_mask_set(out, c);
}

int host_claim_pins(struct cell_host *h, char *why, size_t why_len)
{
	char own[VAL_MAX], narrowed[VAL_MAX];
	struct cell_pin *pins = NULL;
	struct hvc_mask root, m;
	unsigned int i, nr = 0;
	int ret;

	ret = host_root_cpus(&root);
	if (ret) {
		cell_why(why, why_len, "cannot read root Linux's CPUs: %s",
			 strerror(-ret));
		return ret;
	}
	ret = cell_pin_snapshot(&h->cpus, &root, &pins, &nr, why, why_len);
	for (i = 0; !ret && i < nr; i++) {
		narrowed_of(&pins[i].cpus, &h->cpus, &m);
		host_fmt_list(&pins[i].cpus, own, sizeof(own));
		host_fmt_jlist(&m, narrowed, sizeof(narrowed));
		ret = host_journal_add(h, why, why_len, "pin %d %llu %s %s",
				       (int)pins[i].tid, pins[i].start, own,
				       narrowed);
		if (!ret)
			h->nr_pins++;
	}
	free(pins);
	return ret;
}

void host_narrow_pins(struct cell_host *h)
{
	unsigned int i;

	for (i = 0; i < h->nr_steps; i++) {
		const struct host_entry *e = &h->steps[i];

		/* Pinned to cell CPUs only: the kernel moved it to root's. */
		if (e->kind != &host_kind_pin || hvc_mask_empty(&e->pin.narrowed) ||
		    !cell_pin_alive(&e->pin.task))
			continue;
		cell_pin_set(e->pin.task.tid, &e->pin.narrowed);
		host_journal_point();
	}
}

static int parse_pin(struct host_entry *e, char *const *args)
{
	char *end;
	long tid;

	errno = 0;
	tid = strtol(args[0], &end, 10);
	if (errno || *end || tid <= 0 || tid > INT32_MAX)
		return -EINVAL;
	e->pin.task.tid = (pid_t)tid;
	e->pin.task.start = strtoull(args[1], &end, 10);
	if (errno || *end || args[1][0] < '0' || args[1][0] > '9' ||
	    host_parse_list(args[2], &e->pin.task.cpus) ||
	    hvc_mask_empty(&e->pin.task.cpus) ||
	    host_parse_jlist(args[3], &e->pin.narrowed))
		return -EINVAL;
	return 0;
}

static int undo_pin(struct cell_host *h, const struct host_entry *e,
		    struct host_undo *u)
{
	const struct hvc_mask *own = &e->pin.task.cpus;
	struct hvc_mask cur, root, out;
	char a[VAL_MAX], b[VAL_MAX];
	int ret;

	/* Gone, or its id now names another task: nothing to give back. */
	if (!cell_pin_alive(&e->pin.task) || cell_pin_get(e->pin.task.tid, &cur))
		return 0;
	/*
	 * Before 6.2 the partition's removal set every root task to all of
	 * root's CPUs: that is the kernel's doing, not a choice to keep.
	 */
	if (!host_root_cpus(&root) && hvc_mask_equal(&cur, &root) &&
	    !hvc_mask_equal(&cur, own))
		hvc_mask_copy(&cur, &e->pin.narrowed);
	switch (host_give_back(own, &e->pin.narrowed, &cur, &h->cpus, &out)) {
	case HOST_GB_NOTHING:
		return 0;
	case HOST_GB_CONFLICT:
		host_fmt_list(&cur, a, sizeof(a));
		host_fmt_jlist(&e->pin.narrowed, b, sizeof(b));
		host_conflict(h, "task %d: CPU affinity changed meanwhile (%s, the claim left %s): only the cell's CPUs given back",
			      (int)e->pin.task.tid, a, b);
		if (hvc_mask_equal(&out, &cur))
			return 0;
		break;
	case HOST_GB_RESTORE:
		break;
	}
	ret = cell_pin_set(e->pin.task.tid, &out);
	/* ESRCH: it exited between the check and the call. */
	if (ret && ret != -ESRCH) {
		host_fmt_list(&out, a, sizeof(a));
		host_undo_fail(u, ret, "task %d: CPU affinity %s: %s",
			       (int)e->pin.task.tid, a, strerror(-ret));
		return ret;
	}
	return 0;
}

const struct host_kind host_kind_pin = {
	.name = "pin", .nr_args = 4, .parse = parse_pin, .undo = undo_pin,
};
