// SPDX-License-Identifier: GPL-2.0
/*
 * IRQ affinities: every movable IRQ and the default affinity for new IRQs
 * moved off the cell's CPUs, and moved back.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
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

int host_claim_irqs(struct cell_host *h, char *why, size_t why_len)
{
	struct hvc_mask root, old, want;
	char path[PATH_MAX], buf[VAL_MAX], list[VAL_MAX];
	struct dirent *e;
	DIR *d;
	int ret;

	if (host_root_cpus(&root)) {
		cell_why(why, why_len, "cannot read root Linux's CPUs");
		return -EIO;
	}
	/* New IRQs: the default affinity, a hex mask. */
	if (!host_read_line(IRQ_DIR "/default_smp_affinity", buf, sizeof(buf)) &&
	    !parse_hexmask(buf, &old) && hvc_mask_intersects(&old, &h->cpus)) {
		h->old_default = strdup(buf);
		if (!h->old_default)
			return -ENOMEM;
		hvc_mask_and(&want, &old, &root);
		if (hvc_mask_empty(&want))
			hvc_mask_copy(&want, &root);
		fmt_hexmask(&want, list, sizeof(list));
		if (host_write_val(IRQ_DIR "/default_smp_affinity", list)) {
			free(h->old_default);
			h->old_default = NULL;
		}
		host_record_write(h);
	}
	d = opendir(IRQ_DIR);
	if (!d) {
		cell_why(why, why_len, "%s: %s", IRQ_DIR, strerror(errno));
		return -errno;
	}
	while ((e = readdir(d))) {
		struct host_irq *t;
		unsigned int irq;
		char *end;

		irq = (unsigned int)strtoul(e->d_name, &end, 10);
		if (!isdigit((unsigned char)e->d_name[0]) || *end)
			continue;
		snprintf(path, sizeof(path), IRQ_DIR "/%u/smp_affinity_list", irq);
		if (host_read_line(path, buf, sizeof(buf)) || host_parse_list(buf, &old) ||
		    !hvc_mask_intersects(&old, &h->cpus))
			continue;
		hvc_mask_and(&want, &old, &root);
		if (hvc_mask_empty(&want))
			hvc_mask_copy(&want, &root);
		host_fmt_list(&want, list, sizeof(list));
		/* Per-CPU and managed IRQs refuse (EIO): counted, left. */
		if (host_write_val(path, list)) {
			h->irqs_unmovable++;
			continue;
		}
		if (h->nr_irqs >= MAX_IRQS) {
			host_write_val(path, buf);
			ret = -E2BIG;
			cell_why(why, why_len, "more than %u IRQs to move", MAX_IRQS);
			closedir(d);
			return ret;
		}
		t = realloc(h->irqs, (h->nr_irqs + 1) * sizeof(*t));
		if (t) {
			h->irqs = t;
			t[h->nr_irqs].old = strdup(buf);
		}
		if (!t || !t[h->nr_irqs].old) {
			host_write_val(path, buf);
			closedir(d);
			return -ENOMEM;
		}
		t[h->nr_irqs++].irq = irq;
		host_record_write(h);
	}
	closedir(d);
	return 0;
}

void host_undo_irqs(struct cell_host *h, int *first, char *why,
		    size_t why_len)
{
	char path[PATH_MAX];
	unsigned int i;
	int ret;

	for (i = h->nr_irqs; i-- > 0;) {
		snprintf(path, sizeof(path), IRQ_DIR "/%u/smp_affinity_list",
			 h->irqs[i].irq);
		ret = host_write_val(path, h->irqs[i].old);
		/* An IRQ freed meanwhile has no directory left. */
		if (ret && ret != -ENOENT)
			host_undo_fail(first, why, why_len, ret, "%s: %s: %s",
				       path, h->irqs[i].old, strerror(-ret));
	}
	if (h->old_default) {
		ret = host_write_val(IRQ_DIR "/default_smp_affinity", h->old_default);
		if (ret)
			host_undo_fail(first, why, why_len, ret,
				       "%s/default_smp_affinity: %s", IRQ_DIR,
				       strerror(-ret));
	}
}
