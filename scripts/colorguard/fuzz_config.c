// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: arbitrary bytes as a system config, through the
 * libconfig reader, the number guard and hv-color's system checks, then
 * plan and blob output when the config is clean. Messages go nowhere.
 */
#include <stdlib.h>
#include <string.h>

#include "colorguard.h"
#include "system.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
const char *__lsan_default_suppressions(void);

/*
 * libconfig 1.5 (Debian 12) does not free a string token when a syntax
 * error follows it; that is its bug, not ours, and bounded by the input.
 * Leaks with no libconfig frame still fail the run.
 */
const char *__lsan_default_suppressions(void)
{
	return "leak:libconfig.so\n";
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct cg_diag d = { .file = "fuzz", .out = NULL };
	static struct cg_config cfg;
	struct cg_system *sys;
	FILE *sink;
	char *text;

	if (size > CG_MAX_CONFIG_BYTES)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	/* No llc group: a path that cannot exist stands in for sysfs. */
	if (!cg_config_parse(&d, text, size, &cfg)) {
		sys = cg_system_build(&d, &cfg, "/nonexistent-colorguard-fuzz");
		if (sys) {
			sink = fopen("/dev/null", "w");
			if (sink) {
				cg_plan_print(sink, sys);
				cg_apply(sys, "/fuzz", sink, 0);
				cg_apply(sys, "/fuzz", sink, 1);
				fclose(sink);
			}
			cg_system_free(sys);
		}
	}
	free(text);
	return 0;
}
