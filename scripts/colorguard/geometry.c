// SPDX-License-Identifier: GPL-2.0
/*
 * `colorguard geometry`: the LLC from sysfs cacheinfo and/or the command
 * line, turned into colors by hv-color.
 */
#include <stdlib.h>
#include <string.h>

#include "cacheinfo.h"
#include "hv.h"
#include "system.h"

void cg_size_str(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	int u = -1;

	while (u < 3 && v && !(v & 1023)) {
		v >>= 10;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)v, units[u]);
}

/*
 * Way size from size/ways/line/sets, whichever are known; sets is derived
 * when missing. Returns 0, or -1 with a reason in why.
 */
int cg_llc_way_size(uint64_t size, uint64_t ways, uint64_t line,
		    uint64_t *sets, uint64_t *way_size, char *why, size_t len)
{
	char s[32];

	if (!line) {
		snprintf(why, len, "no coherency_line_size (use --line)");
		return -1;
	}
	if (!ways) {
		snprintf(why, len, "no ways_of_associativity (use --ways)");
		return -1;
	}
	if (!*sets) {
		if (!size) {
			snprintf(why, len, "neither size nor number_of_sets (use --llc-size)");
			return -1;
		}
		if (size % (ways * line)) {
			cg_size_str(size, s, sizeof(s));
			snprintf(why, len, "size %s is not a multiple of ways %llu x line %llu",
				 s, (unsigned long long)ways,
				 (unsigned long long)line);
			return -1;
		}
		*sets = size / (ways * line);
	}
	/* ways <= 1024, line <= 4096, sets <= 2^32: no overflow. */
	if (size && size != ways * *sets * line) {
		cg_size_str(size, s, sizeof(s));
		snprintf(why, len, "size %s is not ways %llu x sets %llu x line %llu",
			 s, (unsigned long long)ways, (unsigned long long)*sets,
			 (unsigned long long)line);
		return -1;
	}
	*way_size = *sets * line;
	return 0;
}

int cg_geometry_show(FILE *out, const char *sysroot,
		     const struct cg_llc_input *over)
{
	struct cg_cacheinfo *ci = NULL;
	uint64_t size = 0, ways = 0, line = 0, sets = 0, way_size;
	char why[256], a[32], b[32];
	struct hvc_geometry g;
	int from_sysfs = !(over->size && over->ways && over->line_size);
	int ret = -1;

	if (from_sysfs) {
		ci = calloc(1, sizeof(*ci));
		if (!ci) {
			fprintf(stderr, "colorguard: out of memory\n");
			return -1;
		}
		if (cg_cacheinfo_read(sysroot, ci)) {
			fprintf(stderr, "colorguard: geometry: %s\n", ci->error);
			goto out;
		}
		size = ci->size;
		ways = ci->ways;
		line = ci->line_size;
		/* An override of any figure makes sysfs's set count moot. */
		if (!over->size && !over->ways && !over->line_size)
			sets = ci->sets;
	}
	if (over->size)
		size = over->size;
	if (over->ways)
		ways = over->ways;
	if (over->line_size)
		line = over->line_size;

	if (cg_llc_way_size(size, ways, line, &sets, &way_size, why,
			    sizeof(why))) {
		if (from_sysfs)
			fprintf(stderr, "colorguard: geometry: %s: %s\n",
				ci->dir, why);
		else
			fprintf(stderr, "colorguard: geometry: %s\n", why);
		goto out;
	}
	if (cg_hv_geometry(way_size, line, 1, &g, why, sizeof(why))) {
		fprintf(stderr, "colorguard: geometry: %s\n", why);
		goto out;
	}

	cg_size_str(size, a, sizeof(a));
	if (from_sysfs) {
		fprintf(out, "llc:        L%u Unified, %s, shared by CPUs %s (%u instance%s)\n",
			ci->level, a, ci->shared_cpus[0] ? ci->shared_cpus : "?",
			ci->nr_instances, ci->nr_instances == 1 ? "" : "s");
		fprintf(out, "source:     %s", ci->dir);
		if (over->size || over->ways || over->line_size)
			fprintf(out, " (overridden:%s%s%s)",
				over->size ? " --llc-size" : "",
				over->ways ? " --ways" : "",
				over->line_size ? " --line" : "");
		fputc('\n', out);
	} else {
		fprintf(out, "llc:        %s\n", a);
		fprintf(out, "source:     command line\n");
	}
	fprintf(out, "line size:  %llu\n", (unsigned long long)line);
	fprintf(out, "sets:       %llu\n", (unsigned long long)sets);
	fprintf(out, "ways:       %llu\n", (unsigned long long)ways);
	cg_size_str(g.way_size, b, sizeof(b));
	fprintf(out, "way size:   %s\n", b);
	cg_size_str(1ull << g.page_shift, b, sizeof(b));
	fprintf(out, "page size:  %s\n", b);
	fprintf(out, "colors:     %u\n", g.nr_colors);
	fprintf(out, "config:     llc = { size = \"%s\"; ways = %llu; line_size = %llu; };\n",
		a, (unsigned long long)ways, (unsigned long long)line);
	ret = 0;
out:
	free(ci);
	return ret;
}
