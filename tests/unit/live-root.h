/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whether "/" can be the live machine here. qemu-user's -L prefix (tools/cross
 * runs a foreign build's unit tests so) remaps open("/") into the foreign root
 * but not stat("/"): a sysroot of "/" is then not live, by the tool's own
 * test, and the live assertions say so instead of failing.
 */
#pragma once

#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

static inline bool root_remapped(void)
{
	struct stat a, b;
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	bool remapped = fd >= 0 && fstat(fd, &a) == 0 && stat("/", &b) == 0 &&
			(a.st_dev != b.st_dev || a.st_ino != b.st_ino);

	if (fd >= 0)
		close(fd);
	return remapped;
}
