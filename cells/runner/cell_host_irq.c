// SPDX-License-Identifier: GPL-2.0
/*
 * IRQ affinities: every movable IRQ and the default affinity for new IRQs
 * moved off the cell's CPUs, and moved back. Journal lines: "irqdefault
 * OLD NEW" (hex masks as /proc/irq/default_smp_affinity prints them),
 * "irq IRQ OLD NEW" (lists).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <colorguard/hv_color.h>

#include "cell_host_int.h"
#include "cell_why.h"

#define IRQ_DIR		"/proc/irq"

/*
 * The hex mask of /proc/irq/default_smp_affinity: 32-bit groups separated
 * by commas, most significant first.
 */
static int parse_hexmask(const char *s, struct hvc_mask *m)
{
	size_t n = strlen(s);
	unsigned int bit = 0;

	hvc_mask_zero(m);
	while (n--) {
		int c = (unsigned char)s[n], v, i;

		if (c == ',')
			continue;
		if (!isxdigit(c))
			return -EINVAL;
		v = isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
		for (i = 0; i < 4; i++, v >>= 1)
			if (v & 1)
				hvc_mask_set(m, bit + i);
		bit += 4;
		if (bit > HVC_MAX_CPUS)
			return -ERANGE;
	}
	return 0;
}

static void fmt_hexmask(const struct hvc_mask *m, char *buf, size_t len)
{
	unsigned int last = 0, c, w, words;
	size_t used = 0;

	for (c = hvc_mask_next(m, 0); c < HVC_MAX_CPUS;
	     c = hvc_mask_next(m, c + 1))
		last = c;
	words = last / 32 + 1;
	buf[0] = '\0';
	for (w = words; w-- > 0 && used < len;) {
		unsigned int v = 0, b;

		for (b = 0; b < 32; b++)
			if (hvc_mask_test(m, w * 32 + b))
				v |= 1u << b;
		used += (size_t)snprintf(buf + used, len - used, "%08x%s", v,
					 w ? "," : "");
	}
}

/* The CPUs an IRQ on old may use while the cell exists. */
static void off_cell(const struct hvc_mask *old, const struct hvc_mask *root,
		     struct hvc_mask *want)
{
	hvc_mask_and(want, old, root);
	/* Only on the cell's CPUs: anywhere root runs. */
	if (hvc_mask_empty(want))
		hvc_mask_copy(want, root);
}

static int claim_default(struct cell_host *h, const struct hvc_mask *root,
			 char *why, size_t why_len)
{
	char buf[VAL_MAX], list[VAL_MAX];
	struct hvc_mask old, want;
	int ret;

	if (host_read_line(IRQ_DIR "/default_smp_affinity", buf, sizeof(buf)) ||
	    parse_hexmask(buf, &old) || !hvc_mask_intersects(&old, &h->cpus))
		return 0;
	off_cell(&old, root, &want);
	fmt_hexmask(&want, list, sizeof(list));
	ret = host_journal_add(h, why, why_len, "irqdefault %s %s", buf, list);
	if (ret)
		return ret;
	/* Refused: new IRQs may start on the cell's CPUs, as they may today. */
	if (!host_write_val(IRQ_DIR "/default_smp_affinity", list))
		host_journal_point();
	return 0;
}

/* One IRQ: its line, then the move; unmovable ones are counted, left. */
static int claim_irq(struct cell_host *h, unsigned int irq,
		     const struct hvc_mask *root, char *why, size_t why_len)
{
	char path[PATH_MAX], buf[VAL_MAX], list[VAL_MAX];
	struct hvc_mask old, want;
	int ret;

	snprintf(path, sizeof(path), IRQ_DIR "/%u/smp_affinity_list", irq);
	if (host_read_line(path, buf, sizeof(buf)) || host_parse_list(buf, &old) ||
	    !hvc_mask_intersects(&old, &h->cpus))
		return 0;
	if (h->irqs_moved + h->irqs_unmovable >= MAX_IRQS) {
		cell_why(why, why_len, "more than %u IRQs to move", MAX_IRQS);
		return -E2BIG;
	}
	off_cell(&old, root, &want);
	host_fmt_list(&want, list, sizeof(list));
	ret = host_journal_add(h, why, why_len, "irq %u %s %s", irq, buf, list);
	if (ret)
		return ret;
	/* Per-CPU and managed IRQs refuse (EIO): the replay finds them old. */
	if (host_write_val(path, list)) {
		h->irqs_unmovable++;
		return 0;
	}
	h->irqs_moved++;
	host_journal_point();
	return 0;
}

int host_claim_irqs(struct cell_host *h, char *why, size_t why_len)
{
	struct hvc_mask root;
	struct dirent *e;
	DIR *d;
	int ret;

	if (host_root_cpus(&root)) {
		cell_why(why, why_len, "cannot read root Linux's CPUs");
		return -EIO;
	}
	/* New IRQs: the default affinity, a hex mask. */
	ret = claim_default(h, &root, why, why_len);
	if (ret)
		return ret;
	d = opendir(IRQ_DIR);
	if (!d) {
		ret = -errno;
		cell_why(why, why_len, "%s: %s", IRQ_DIR, strerror(errno));
		return ret;
	}
	while (!ret && (e = readdir(d))) {
		unsigned long irq;
		char *end;

		irq = strtoul(e->d_name, &end, 10);
		if (isdigit((unsigned char)e->d_name[0]) && !*end && irq < UINT_MAX)
			ret = claim_irq(h, (unsigned int)irq, &root, why, why_len);
	}
	closedir(d);
	return ret;
}

/* ---- the journal's lines: "irqdefault OLD NEW", "irq IRQ OLD NEW" ---- */

static int parse_irqdefault(struct host_entry *e, char *const *args)
{
	e->irq.irq = UINT_MAX;
	return parse_hexmask(args[0], &e->irq.old) ||
		parse_hexmask(args[1], &e->irq.new) ? -EINVAL : 0;
}

static int parse_irq(struct host_entry *e, char *const *args)
{
	unsigned long irq;
	char *end;

	irq = strtoul(args[0], &end, 10);
	if (!isdigit((unsigned char)args[0][0]) || *end || irq >= UINT_MAX ||
	    host_parse_list(args[1], &e->irq.old) ||
	    host_parse_list(args[2], &e->irq.new))
		return -EINVAL;
	e->irq.irq = (unsigned int)irq;
	return 0;
}

/* Compare-and-restore of one affinity file, a list or a hex mask. */
static int undo_affinity(struct cell_host *h, const struct host_entry *e,
			 struct host_undo *u)
{
	bool hex = e->irq.irq == UINT_MAX;
	char path[PATH_MAX], buf[VAL_MAX], val[VAL_MAX], wrote[VAL_MAX];
	struct hvc_mask cur, out;
	int ret;

	if (hex)
		snprintf(path, sizeof(path), IRQ_DIR "/default_smp_affinity");
	else
		snprintf(path, sizeof(path), IRQ_DIR "/%u/smp_affinity_list",
			 e->irq.irq);
	ret = host_read_line(path, buf, sizeof(buf));
	/* An IRQ freed meanwhile has no directory left. */
	if (ret == -ENOENT)
		return 0;
	if (!ret && (hex ? parse_hexmask(buf, &cur) : host_parse_list(buf, &cur)))
		ret = -EINVAL;
	if (ret) {
		host_undo_fail(u, ret, "%s: cannot read it back: %s", path,
			       strerror(-ret));
		return ret;
	}
	switch (host_give_back(&e->irq.old, &e->irq.new, &cur, &h->cpus, &out)) {
	case HOST_GB_NOTHING:
		return 0;
	case HOST_GB_CONFLICT:
		host_fmt_list(&e->irq.new, wrote, sizeof(wrote));
		host_fmt_list(&cur, val, sizeof(val));
		host_conflict(h, "%s changed meanwhile (CPUs %s, the claim left %s): only the cell's CPUs given back",
			      path, val, wrote);
		if (hvc_mask_equal(&out, &cur))
			return 0;
		break;
	case HOST_GB_RESTORE:
		break;
	}
	if (hex)
		fmt_hexmask(&out, val, sizeof(val));
	else
		host_fmt_list(&out, val, sizeof(val));
	ret = host_write_val(path, val);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		host_undo_fail(u, ret, "%s: %s: %s", path, val, strerror(-ret));
	return ret;
}

const struct host_kind host_kind_irqdefault = {
	.name = "irqdefault", .nr_args = 2, .parse = parse_irqdefault,
	.undo = undo_affinity,
};

const struct host_kind host_kind_irq = {
	.name = "irq", .nr_args = 3, .parse = parse_irq, .undo = undo_affinity,
};
