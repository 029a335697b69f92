// SPDX-License-Identifier: GPL-2.0
/*
 * The race test's driver (selftests/cells/hostile.sh): one cell VM of
 * CONFIG, then IMAGE loaded and run ROUNDS times in this one process
 * through the runner's API (cell_vm.h), so that a race an inmate wins
 * only now and then gets hundreds of chances in seconds rather than one
 * per `colorguard cell run`. No host claim: the cell's CPUs keep root's
 * tasks, which is enough for a test of the runner.
 *
 * usage: race_runner CONFIG CELL IMAGE ARGS ROUNDS
 * Prints one line per distinct failure reason with its count; exit 0 if
 * every round ended failed or shut down, 1 if one did not (a hang).
 * A runner that crashes takes this process with it (a signal).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell_vm.h"
#include "colorguard.h"

#define REASONS	8

int main(int argc, char **argv)
{
	static struct cg_config cfg;
	struct cg_diag d = { .out = stderr };
	char why[256], seen[REASONS][128];
	unsigned int counts[REASONS] = { 0 }, nr = 0, i, k, rounds;
	const struct cg_cell *cell = NULL;
	struct cell_stats st;
	struct cell_vm *vm;
	int ret = 0;

	if (argc != 6) {
		fprintf(stderr, "usage: race_runner CONFIG CELL IMAGE ARGS ROUNDS\n");
		return 2;
	}
	d.file = argv[1];
	rounds = strtoul(argv[5], NULL, 0);
	if (cg_config_load(&d, argv[1], &cfg))
		return 2;
	for (i = 0; i < cfg.nr_cells; i++)
		if (!strcmp(cfg.cells[i].name, argv[2]))
			cell = &cfg.cells[i];
	if (!cell || cell_vm_create(&cfg, cell, &vm, why, sizeof(why))) {
		fprintf(stderr, "race_runner: cell %s: %s\n", argv[2],
			cell ? why : "not in the config");
		return 2;
	}
	for (i = 0; i < rounds; i++) {
		if (cell_vm_load(vm, argv[3], 0, argv[4], why, sizeof(why)) ||
		    cell_vm_start(vm, why, sizeof(why))) {
			fprintf(stderr, "race_runner: round %u: %s\n", i, why);
			ret = 1;
			break;
		}
		if (cell_vm_wait(vm, 10000)) {
			printf("round %u: still running after 10 s\n", i);
			cell_vm_fail(vm, "race_runner: hang");
			ret = 1;
			break;
		}
		cell_vm_stats(vm, &st);
		if (st.state != CELL_FAILED)
			snprintf(st.failure, sizeof(st.failure), "(%s)",
				 cell_state_name(st.state));
		for (k = 0; k < nr && strcmp(seen[k], st.failure); k++)
			;
		if (k == nr && nr < REASONS)
			snprintf(seen[nr++], sizeof(seen[0]), "%s", st.failure);
		if (k < nr)
			counts[k]++;
	}
	printf("%u rounds\n", i);
	for (k = 0; k < nr; k++)
		printf("%u x %s\n", counts[k], seen[k]);
	cell_vm_destroy(vm);
	return ret;
}
