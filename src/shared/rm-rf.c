/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shared/rm-rf.h"

/* The kernel's record (getdents64(2)): readdir() would want a malloc'd DIR per level. */
struct dirent64_raw {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

enum scan { SCAN_EMPTY, SCAN_AGAIN, SCAN_DESCEND, SCAN_STUCK };

/*
 * One pass over fd: unlink files and links, rmdir empty directories. A
 * non-empty directory stops the pass with its name in sub (SCAN_DESCEND).
 */
static enum scan scan(int fd, dev_t dev, char sub[NAME_MAX + 1], int *err)
{
	char buf[4096] __attribute__((aligned(8)));
	bool removed = false, left = false;

	if (lseek(fd, 0, SEEK_SET) < 0) {
		*err = -errno;
		return SCAN_STUCK;
	}
	for (;;) {
		long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		if (n < 0) {
			*err = -errno;
			return SCAN_STUCK;
		}
		if (n == 0)
			break;
		for (long off = 0; off < n;) {
			/* the kernel aligns each record to 8 bytes, and buf is */
			struct dirent64_raw *de = (struct dirent64_raw *)(void *)(buf + off);
			off += de->d_reclen;
			const char *nm = de->d_name;
			if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
				continue;
			struct stat st;
			if (fstatat(fd, nm, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				if (errno != ENOENT && !*err)
					*err = -errno;
				continue;
			}
			if (!S_ISDIR(st.st_mode)) {
				if (unlinkat(fd, nm, 0) == 0)
					removed = true;
				else if (errno != ENOENT) {
					left = true;
					if (!*err)
						*err = -errno;
				}
				continue;
			}
			if (unlinkat(fd, nm, AT_REMOVEDIR) == 0) {
				removed = true;
				continue;
			}
			if ((errno == ENOTEMPTY || errno == EEXIST) && st.st_dev == dev &&
			    strlen(nm) <= NAME_MAX) {
				strcpy(sub, nm);
				return SCAN_DESCEND;
			}
			left = true;
			if (!*err)
				*err = -errno;
		}
	}
	/* entries removed while reading may have hidden others: look again */
	return left ? (removed ? SCAN_AGAIN : SCAN_STUCK) : removed ? SCAN_AGAIN : SCAN_EMPTY;
}

int rm_rf_at(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	unsigned long depth = 0;
	char sub[NAME_MAX + 1];
	struct stat st;
	int err = 0;

	if (fd < 0)
		return errno == ENOTDIR && unlinkat(dfd, name, 0) == 0 ? 0 : -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	for (;;) {
		enum scan s = scan(fd, st.st_dev, sub, &err);
		if (s == SCAN_AGAIN)
			continue;
		if (s == SCAN_DESCEND) {
			int nfd = openat(fd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (nfd >= 0) {
				close(fd);
				fd = nfd;
				depth++;
				continue;
			}
			if (!err)
				err = -errno;
			s = SCAN_STUCK;
		}
		if (s == SCAN_STUCK && depth == 0)
			break;
		if (depth == 0) {
			close(fd);
			fd = -1;
			break;
		}
		/* empty (or stuck) here: back up; the parent's next pass removes or skips it */
		int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = up;
		depth--;
		if (fd < 0)
			return err ? err : -errno;
		if (s == SCAN_STUCK)
			break; /* a directory that cannot be emptied: stop rather than loop */
	}
	if (fd >= 0)
		close(fd);
	if (err)
		return err;
	return unlinkat(dfd, name, AT_REMOVEDIR) < 0 ? -errno : 0;
}
