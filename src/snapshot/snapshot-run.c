/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "shared/macro.h"
#include "shared/path.h"
#include "shared/tmp-dir.h"
#include "snapshot/file-kind.h"
#include "snapshot/snapshot-run.h"
#include "sysroot/sysroot.h"

#define CAPTURE_SUBDIR "capture"
#define ARCHIVE_TMP "archive.tmp"

static int failed(const char *opt, const char *arg, const char *what, int r)
{
	fprintf(stderr, "%s: %s %s: %s\n", program_invocation_short_name, opt, arg,
		what ? what : strerror(-r));
	return r;
}

/* The directory an unpacked archive's snapshot is in: its top, or the one directory there. */
static int snapshot_root(const char *dir, char **ret)
{
	static const char *const marks[] = SYSROOT_SNAPSHOT_MARKS;
	_cleanup_close_ int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
		if (fstatat(fd, marks[i], &st, AT_SYMLINK_NOFOLLOW) == 0)
			return (*ret = strdup(dir)) ? 0 : -ENOMEM;
	/* tar's habit: everything under one directory named after the archive */
	DIR *d = fdopendir(TAKE_FD(fd));
	struct dirent *de;
	_cleanup_free_ char *only = NULL;
	int n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			n++;
			if (n == 1 && de->d_type == DT_DIR)
				only = strdup(de->d_name);
		}
	closedir(d);
	if (n == 1 && only)
		return (*ret = path_join(dir, only)) ? 0 : -ENOMEM;
	return (*ret = strdup(dir)) ? 0 : -ENOMEM;
}

/* --capture FILE.tar.gz: refused when FILE exists, as a capture directory is when not empty. */
static int check_capture_file(const char *file)
{
	struct stat st;

	if (lstat(file, &st) == 0)
		return failed("--capture", file,
			      S_ISLNK(st.st_mode) ? "is a symbolic link: name a new file"
						  : "exists: name a new file", -EEXIST);
	if (errno != ENOENT)
		return failed("--capture", file, NULL, -errno);
	return 0;
}

/*
 * --sysroot FILE that is no archive but one of this tool's reports or other
 * text: say what it is and which option takes it, not libarchive's "not a
 * tar archive". Binary files are left to libarchive's words.
 */
static int check_sysroot_file(const char *sysroot)
{
	_cleanup_close_ int fd = open(sysroot, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	enum file_kind k;
	char why[192];

	if (fd < 0 || file_kind_sniff(fd, &k) < 0 || k == FILE_KIND_ARCHIVE || k == FILE_KIND_UNKNOWN)
		return 0; /* snapshot_unpack() says what is wrong, if anything */
	snprintf(why, sizeof(why), "%s%s: %s--sysroot takes a snapshot directory or archive",
		 file_kind_to_string(k), k == FILE_KIND_REPORT ? "" : ", not a snapshot",
		 k == FILE_KIND_REPORT ? "--diff takes reports, " : "");
	return failed("--sysroot", sysroot, why, -EINVAL);
}

int snapshot_run_begin(struct snapshot_run *run, const char *sysroot, const char *capture,
		       const struct snapshot_limits *lim)
{
	struct stat st;
	bool unpack = stat(sysroot, &st) == 0 && S_ISREG(st.st_mode);
	const char *dir = NULL;
	int r;

	*run = (struct snapshot_run){ .sysroot_dir = sysroot, .capture_dir = capture };
	run->capture_kind = capture ? snapshot_archive_kind(capture) : SNAPSHOT_DIR;
	if (run->capture_kind == SNAPSHOT_UNWRITTEN)
		return failed("--capture", capture,
			      "names an archive this tool does not write: use NAME.tar.gz, NAME.tgz, "
			      "NAME.tar or a directory", -EINVAL);
	if (run->capture_kind == SNAPSHOT_SLASHED)
		return failed("--capture", capture,
			      "an archive's name with a trailing '/': name the file without it, or a "
			      "directory without an archive's suffix", -EINVAL);
	if (unpack) {
		r = check_sysroot_file(sysroot);
		if (r < 0)
			return r;
	}
	if (!unpack && run->capture_kind == SNAPSHOT_DIR)
		return 0;

	if (run->capture_kind != SNAPSHOT_DIR) {
		r = check_capture_file(capture);
		if (r < 0)
			return r;
		_cleanup_free_ char *copy = strdup(capture);
		if (!copy)
			return failed("--capture", capture, NULL, -ENOMEM);
		/* beside FILE: the rename at the end stays on one filesystem */
		r = scratch_make(&run->scratch, dirname(copy), ".dmamask-audit-capture", &dir);
		if (r < 0)
			return failed("--capture", capture, NULL, r);
		if (!(run->capture_buf = path_join(dir, CAPTURE_SUBDIR)) ||
		    !(run->archive_tmp = path_join(dir, ARCHIVE_TMP))) {
			scratch_remove(&run->scratch);
			return failed("--capture", capture, NULL, -ENOMEM);
		}
		run->capture_dir = run->capture_buf;
		run->capture_file = capture;
	}
	if (unpack) {
		r = scratch_make(&run->scratch, tmp_dir(), "dmamask-audit-sysroot", &dir);
		if (r < 0) {
			scratch_remove(&run->scratch);
			return failed("--sysroot", sysroot, "cannot make a directory to unpack it in", r);
		}
	}
	r = scratch_supervise(&run->scratch);
	if (r < 0)
		return failed(unpack ? "--sysroot" : "--capture", unpack ? sysroot : capture, NULL, r);

	/* the child from here on */
	if (unpack) {
		_cleanup_free_ char *why = NULL;
		r = snapshot_unpack(sysroot, dir, lim, &why);
		if (r < 0)
			return failed("--sysroot", sysroot, why, r);
		r = snapshot_root(dir, &run->sysroot_buf);
		if (r < 0)
			return failed("--sysroot", sysroot, NULL, r);
		run->sysroot_dir = run->sysroot_buf;
	}
	return 0;
}

int snapshot_run_pack(struct snapshot_run *run)
{
	if (run->capture_kind == SNAPSHOT_DIR)
		return 0;

	const char *file = run->capture_file;
	const char *tmp = run->archive_tmp;
	_cleanup_free_ char *top = snapshot_archive_top(file), *why = NULL;
	_cleanup_close_ int dfd = open(run->capture_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int r;

	if (!top)
		return failed("--capture", file, NULL, -ENOMEM);
	if (dfd < 0)
		return failed("--capture", file, NULL, -errno);
	/* the kernel log and addresses a normal user may not read: the owner's only */
	_cleanup_close_ int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return failed("--capture", file, NULL, -errno);
	r = snapshot_pack(dfd, top, run->capture_kind, (int64_t)time(NULL), fd, &why);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (r == 0 && close(TAKE_FD(fd)) < 0)
		r = -errno;
	if (r < 0)
		return failed("--capture", file, why, r);
	/* never over a file that appeared meanwhile; link+unlink where renameat2 flags are not known */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, file, RENAME_NOREPLACE) < 0) {
		r = -errno;
		if (r == -EINVAL && link(tmp, file) == 0)
			r = 0;
		if (r < 0)
			return failed("--capture", file, r == -EEXIST ? "exists: name a new file" : NULL, r);
	}
	return 0;
}

void snapshot_run_done(struct snapshot_run *run)
{
	scratch_forget(&run->scratch);
	free(run->sysroot_buf);
	free(run->capture_buf);
	free(run->archive_tmp);
	run->sysroot_buf = run->capture_buf = run->archive_tmp = NULL;
}
