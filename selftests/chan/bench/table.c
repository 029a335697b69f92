// SPDX-License-Identifier: GPL-2.0
/* The table's layout: a section a part, a row a measurement. */
#include <stdio.h>
#include <string.h>

#include "bench.h"

void table_section(const char *title, const char *header)
{
	char rule[96];
	size_t n = strlen(title);

	if (n >= sizeof(rule))
		n = sizeof(rule) - 1;
	memset(rule, '-', n);
	rule[n] = '\0';
	printf("\n%s\n%s\n", title, rule);
	if (header)
		printf("%s\n", header);
}

void table_lat_header(void)
{
	printf("%-28s %8s %8s %8s %8s %8s %8s  %s\n", "", "samples", "p50 us",
	       "p99 us", "p99.9 us", "max us", "mean us", "");
}

void table_lat_row(const char *what, struct samples *s, const char *extra)
{
	printf("%-28s %8zu %8.2f %8.2f %8.2f %8.2f %8.2f  %s\n", what, s->n,
	       samples_pct(s, 500) / 1e3, samples_pct(s, 990) / 1e3,
	       samples_pct(s, 999) / 1e3, samples_pct(s, 1000) / 1e3,
	       samples_mean(s) / 1e3, extra ? extra : "");
	fflush(stdout);
}
