// SPDX-License-Identifier: GPL-2.0
/* `compile` and `decode`: the cell-colors blob, written and read by hv-color. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system_int.h"

#define CG_MAX_BLOB_BYTES	(16u << 20)

int cg_compile(const struct cg_system *sys, const char *path)
{
	char tmp[PATH_MAX];
	size_t len, done = 0;
	void *blob;
	int fd;

	if (cg_hv_sys_blob(sys->hv, &blob, &len)) {
		fprintf(stderr, "colorguard: compile: hv-color could not write the blob\n");
		return -1;
	}
	/* Write a neighbour and rename it: never a half-written blob. */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    (int)sizeof(tmp)) {
		fprintf(stderr, "colorguard: compile: %s: name too long\n", path);
		free(blob);
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		goto fail;
	while (done < len) {
		ssize_t n = write(fd, (const char *)blob + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			goto fail_unlink;
		}
		done += n;
	}
	if (fsync(fd) || close(fd) || rename(tmp, path))
		goto fail_unlink;
	free(blob);
	return 0;
fail_unlink:
	fprintf(stderr, "colorguard: compile: %s: %s\n", path, strerror(errno));
	unlink(tmp);
	free(blob);
	return -1;
fail:
	fprintf(stderr, "colorguard: compile: %s: %s\n", path, strerror(errno));
	free(blob);
	return -1;
}

int cg_decode(FILE *out, const char *path)
{
	char why[256];
	struct stat st;
	size_t len = 0;
	char *buf;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "colorguard: decode: %s: %s\n", path,
			fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	buf = malloc(CG_MAX_BLOB_BYTES + 1);
	if (!buf) {
		close(fd);
		fprintf(stderr, "colorguard: out of memory\n");
		return -1;
	}
	while (len <= CG_MAX_BLOB_BYTES) {
		ssize_t n = read(fd, buf + len, CG_MAX_BLOB_BYTES + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
	}
	close(fd);
	if (len > CG_MAX_BLOB_BYTES) {
		fprintf(stderr, "colorguard: decode: %s: larger than %u bytes\n",
			path, CG_MAX_BLOB_BYTES);
		free(buf);
		return -1;
	}
	ret = cg_hv_blob_show(out, buf, len, why, sizeof(why));
	if (ret)
		fprintf(stderr, "colorguard: decode: %s: %s\n", path, why);
	free(buf);
	return ret;
}
