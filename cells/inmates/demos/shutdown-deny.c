// SPDX-License-Identifier: GPL-2.0
/*
 * shutdown-deny: refuses the first shutdown request (the cell becomes
 * running/locked), accepts the second and stops.
 */
#include "inmate.h"

int inmate_main(void)
{
	unsigned int requests = 0;

	iprintf("waiting for shutdown requests\n");
	for (;;) {
		if (!shutdown_requested())
			continue;
		requests++;
		result_set("requests", requests);
		if (requests == 1) {
			iprintf("shutdown request %u: denied\n", requests);
			shutdown_reply(0);
			continue;
		}
		iprintf("shutdown request %u: accepted\n", requests);
		shutdown_reply(1);
		return 0;
	}
}
