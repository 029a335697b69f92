// SPDX-License-Identifier: GPL-2.0
/*
 * fsize BYTES COMMAND [ARGS]: run COMMAND with its file size limit
 * (RLIMIT_FSIZE) at BYTES and SIGXFSZ ignored, so that a write past
 * BYTES fails with EFBIG: a journal that cannot be written any more,
 * at byte granularity (the shell's ulimit -f counts 512-byte blocks).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rlimit rl;
	char *end;

	if (argc < 3) {
		fprintf(stderr, "usage: fsize BYTES COMMAND [ARGS]\n");
		return 2;
	}
	rl.rlim_cur = strtoull(argv[1], &end, 10);
	rl.rlim_max = rl.rlim_cur;
	if (*end || !argv[1][0]) {
		fprintf(stderr, "fsize: %s: not a number of bytes\n", argv[1]);
		return 2;
	}
	if (setrlimit(RLIMIT_FSIZE, &rl) || signal(SIGXFSZ, SIG_IGN) == SIG_ERR) {
		perror("fsize");
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "fsize: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
