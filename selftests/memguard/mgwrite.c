// SPDX-License-Identifier: GPL-2.0
/*
 * mgwrite [-u UID] FILE STRING: write STRING to FILE in one write(2),
 * optionally as another user, and print "ok" or the errno's name, so shell
 * tests can check which error a rejected write returned.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct {
	int err;
	const char *name;
} names[] = {
	{ EINVAL, "EINVAL" }, { ERANGE, "ERANGE" }, { ENODEV, "ENODEV" },
	{ EACCES, "EACCES" }, { EPERM, "EPERM" }, { EBUSY, "EBUSY" },
	{ ENOENT, "ENOENT" }, { EOPNOTSUPP, "EOPNOTSUPP" }, { ENOMEM, "ENOMEM" },
	{ EIO, "EIO" }, { E2BIG, "E2BIG" }, { EFAULT, "EFAULT" },
};

static void print_errno(int err)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (names[i].err == err) {
			puts(names[i].name);
			return;
		}
	}
	printf("E%d\n", err);
}

int main(int argc, char **argv)
{
	const char *file, *text;
	int fd, arg = 1;
	ssize_t n;

	if (argc == 5 && !strcmp(argv[1], "-u")) {
		if (setgid(atoi(argv[2])) || setuid(atoi(argv[2]))) {
			perror("mgwrite: setuid");
			return 2;
		}
		arg = 3;
	} else if (argc != 3) {
		fprintf(stderr, "usage: mgwrite [-u UID] FILE STRING\n");
		return 2;
	}
	file = argv[arg];
	text = argv[arg + 1];
	fd = open(file, O_WRONLY);
	if (fd < 0) {
		print_errno(errno);
		return 1;
	}
	n = write(fd, text, strlen(text));
	if (n < 0) {
		print_errno(errno);
		close(fd);
		return 1;
	}
	close(fd);
	puts("ok");
	return 0;
}
