// SPDX-License-Identifier: GPL-2.0
/*
 * The record of a claim: the old state, one change per line, rewritten
 * after every step, and read back to undo a claim from the file alone.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <colorguard/hv_color.h>

#include "cell_host.h"
#include "cell_host_int.h"
#include "cell_pin.h"
#include "cell_why.h"

#define MAX_RECORD	(1u << 20)

int host_record_write(const struct cell_host *h)
{
	char tmp[PATH_MAX + 8], cpus[VAL_MAX];
	unsigned int i;
	FILE *f;
	int fd, ret = 0;

	if (!h->record[0])
		return 0;
	snprintf(tmp, sizeof(tmp), "%s.tmp", h->record);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	host_fmt_list(&h->cpus, cpus, sizeof(cpus));
	fprintf(f, "name %s\ncpus %s\nmounted %d\nenabled_cpuset %d\n",
		h->name, cpus, h->mounted, h->enabled_cpuset);
	if (h->cgroup[0])
		fprintf(f, "cgroup %s\n", h->cgroup);
	if (h->old_default)
		fprintf(f, "irqdefault %s\n", h->old_default);
	for (i = 0; i < h->nr_irqs; i++)
		fprintf(f, "irq %u %s\n", h->irqs[i].irq, h->irqs[i].old);
	for (i = 0; i < h->nr_mg; i++) {
		const struct host_mg *m = &h->mg[i];

		if (m->critical)
			fprintf(f, "mgcrit %u %s\n", m->cpu, m->old_crit);
		else
			fprintf(f, "mgbudget %u %s %s\n", m->cpu, m->old_read,
				m->old_write);
	}
	for (i = 0; i < h->nr_pins; i++) {
		char list[VAL_MAX];

		host_fmt_list(&h->pins[i].cpus, list, sizeof(list));
		fprintf(f, "pin %s %d %llu\n", list, (int)h->pins[i].tid,
			h->pins[i].start);
	}
	if (fflush(f) || fsync(fd))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, h->record))
		ret = -errno;
	return ret;
}

static bool token_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr(",-:_.", *s))
			return false;
	return true;
}

/* A "pin LIST TID START" line of the record. */
static int record_pin(struct cell_host *h, const char *list, const char *tid,
		      const char *start)
{
	struct cell_pin *t, p;
	char *end;
	long v;

	errno = 0;
	v = strtol(tid, &end, 10);
	if (errno || *end || v <= 0 || v > INT32_MAX)
		return -EINVAL;
	p.tid = (pid_t)v;
	p.start = strtoull(start, &end, 10);
	if (errno || *end || !isdigit((unsigned char)start[0]) ||
	    host_parse_list(list, &p.cpus))
		return -EINVAL;
	t = realloc(h->pins, (h->nr_pins + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	h->pins = t;
	t[h->nr_pins++] = p;
	return 0;
}

/* Parse a record back (written by us, into a root-only dir; still checked). */
int host_record_read(const char *path, struct cell_host *h, char *why,
		     size_t why_len)
{
	char line[VAL_MAX + 64];
	unsigned int lineno = 0;
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f) {
		ret = -errno;
		cell_why(why, why_len, "%s: %s", path, strerror(errno));
		return ret;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		char key[16], a[VAL_MAX], b[40], c[40];
		unsigned int v;
		int n;

		lineno++;
		line[strcspn(line, "\n")] = '\0';
		a[0] = '\0';
		b[0] = '\0';
		c[0] = '\0';
		/* Fields a line lacks stay empty; n says how many it has. */
		n = sscanf(line, "%15s %4199s %39s %39s", key, a, b, c);
		if (n >= 2 && !strcmp(key, "name") && token_ok(a, CG_NAME_MAX)) {
			snprintf(h->name, sizeof(h->name), "%s", a);
		} else if (n >= 2 && !strcmp(key, "cpus") &&
			   !host_parse_list(a, &h->cpus)) {
		} else if (n >= 2 && !strcmp(key, "mounted")) {
			h->mounted = !strcmp(a, "1");
		} else if (n >= 2 && !strcmp(key, "enabled_cpuset")) {
			h->enabled_cpuset = !strcmp(a, "1");
		} else if (n >= 2 && !strcmp(key, "cgroup") &&
			   !strncmp(a, CG_ROOT "/" CELL_CGROUP_PREFIX,
				    strlen(CG_ROOT "/" CELL_CGROUP_PREFIX)) &&
			   !strstr(a, "/..") &&
			   !strchr(a + strlen(CG_ROOT "/"), '/')) {
			snprintf(h->cgroup, sizeof(h->cgroup), "%.127s", a);
		} else if (n >= 2 && !strcmp(key, "irqdefault") &&
			   token_ok(a, VAL_MAX - 1)) {
			free(h->old_default);
			h->old_default = strdup(a);
			if (!h->old_default)
				ret = -ENOMEM;
		} else if (n >= 3 && !strcmp(key, "irq") &&
			   sscanf(a, "%u", &v) == 1 && token_ok(b, 39) &&
			   h->nr_irqs < MAX_IRQS) {
			struct host_irq *t = realloc(h->irqs, (h->nr_irqs + 1) *
						     sizeof(*t));

			if (!t) {
				ret = -ENOMEM;
				break;
			}
			h->irqs = t;
			t[h->nr_irqs].irq = v;
			t[h->nr_irqs].old = strdup(b);
			if (!t[h->nr_irqs].old)
				ret = -ENOMEM;
			else
				h->nr_irqs++;
		} else if (n == 4 && !strcmp(key, "pin") &&
			   h->nr_pins < CELL_PIN_MAX &&
			   !record_pin(h, a, b, c)) {
		} else if (n >= 3 && (!strcmp(key, "mgcrit") ||
				      (n == 4 && !strcmp(key, "mgbudget"))) &&
			   sscanf(a, "%u", &v) == 1 && v < HVC_MAX_CPUS &&
			   token_ok(b, 31) && (n == 3 || token_ok(c, 31)) &&
			   h->nr_mg < HVC_MAX_CPUS) {
			struct host_mg *t = realloc(h->mg, (h->nr_mg + 1) *
						    sizeof(*t));

			if (!t) {
				ret = -ENOMEM;
				break;
			}
			h->mg = t;
			memset(&t[h->nr_mg], 0, sizeof(*t));
			t[h->nr_mg].cpu = v;
			t[h->nr_mg].critical = !strcmp(key, "mgcrit");
			snprintf(t[h->nr_mg].old_crit, sizeof(t->old_crit), "%s", b);
			snprintf(t[h->nr_mg].old_read, sizeof(t->old_read), "%s", b);
			snprintf(t[h->nr_mg].old_write, sizeof(t->old_write), "%s", c);
			h->nr_mg++;
		} else {
			cell_why(why, why_len, "%s:%u: not a record line", path, lineno);
			ret = -EINVAL;
		}
	}
	fclose(f);
	if (!ret)
		snprintf(h->record, sizeof(h->record), "%s", path);
	return ret;
}
