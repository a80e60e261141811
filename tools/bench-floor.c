/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The floors tools/bench measures dmamask-audit against: programs that only
 * open and read files, with no parsing, no analysis and no output.
 *
 *   bench-floor needs ROOT   the files an audit cannot do without: proc/iomem,
 *                            zoneinfo, meminfo, cmdline, cpuinfo, dev/kmsg; per
 *                            PCI function uevent, dma_mask_bits,
 *                            consistent_dma_mask_bits, numa_node; per disk its
 *                            four queue limits
 *   bench-floor list ROOT    every path on standard input ("read P", "readlink
 *                            P", "list P", as DMAMASK_DEBUG=sysroot traces them),
 *                            each directory opened once for its run of names
 *   bench-floor              nothing: what starting a libc program costs
 *   bench-floor run OUT CMD  run CMD and write "WALL CPU MAXRSS_KIB STATUS" into
 *                            OUT: a small parent, so CMD's peak RSS is its own
 *
 * Exit status 0; the number of files read on standard error with -v.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static unsigned long n_read;

static void slurp(int dfd, const char *name)
{
	char buf[65536];
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	n_read++;
}

static void each_entry(int root, const char *dir, void (*fn)(int, const char *))
{
	int fd = openat(root, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			fn(dirfd(d), de->d_name);
	closedir(d);
}

static void pci_function(int bus, const char *name)
{
	static const char *const attrs[] = { "uevent", "dma_mask_bits", "consistent_dma_mask_bits",
					     "numa_node" };
	int fd = openat(bus, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		slurp(fd, attrs[i]);
	close(fd);
}

static void disk(int cls, const char *name)
{
	static const char *const limits[] = { "max_sectors_kb", "max_hw_sectors_kb", "max_segments",
					      "max_segment_size" };
	char q[512];
	snprintf(q, sizeof(q), "%s/queue", name);
	int fd = openat(cls, q, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		slurp(fd, limits[i]);
	close(fd);
}

static void needs(int root)
{
	static const char *const files[] = { "proc/iomem", "proc/zoneinfo", "proc/meminfo",
					     "proc/cmdline", "proc/cpuinfo", "dev/kmsg" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		slurp(root, files[i]);
	each_entry(root, "sys/bus/pci/devices", pci_function);
	each_entry(root, "sys/class/block", disk);
}

/* One directory fd for each run of paths in the same directory, as the tool's handles do. */
static void list(int root)
{
	char *line = NULL, dir[4096] = "", *buf = NULL;
	size_t cap = 0;
	int dfd = -1;

	while (getline(&line, &cap, stdin) > 0) {
		line[strcspn(line, "\n")] = '\0';
		char *path = strchr(line, ' ');
		if (!path)
			continue;
		*path++ = '\0';
		char *slash = strrchr(path, '/');
		const char *leaf = slash ? slash + 1 : path;
		if (slash)
			*slash = '\0';
		const char *d = slash ? path : ".";
		if (dfd < 0 || strcmp(d, dir) != 0) {
			if (dfd >= 0)
				close(dfd);
			snprintf(dir, sizeof(dir), "%s", d);
			dfd = openat(root, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (dfd < 0)
				continue;
		}
		if (strcmp(line, "read") == 0 || strcmp(line, "read-records") == 0) {
			slurp(dfd, leaf);
		} else if (strcmp(line, "readlink") == 0) {
			char t[4096];
			if (readlinkat(dfd, leaf, t, sizeof(t)) >= 0)
				n_read++;
		} else if (strcmp(line, "list") == 0) {
			int fd = openat(dfd, leaf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd >= 0) {
				if (!buf)
					buf = malloc(65536);
				while (buf && syscall(SYS_getdents64, fd, buf, 65536) > 0)
					;
				close(fd);
				n_read++;
			}
		}
	}
	if (dfd >= 0)
		close(dfd);
	free(buf);
	free(line);
}

static int run(const char *out, char **cmd)
{
	struct timespec t0, t1;
	struct rusage ru;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid_t pid = fork();
	if (pid == 0) {
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	FILE *f = fopen(out, "w");
	if (!f)
		return 2;
	fprintf(f, "%.6f %.6f %ld %d\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
		(double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
		ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return fclose(f) == 0 ? 0 : 2;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && strcmp(argv[1], "run") == 0)
		return run(argv[2], argv + 3);
	if (argc < 3)
		return 0;
	int root = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		perror(argv[2]);
		return 2;
	}
	if (strcmp(argv[1], "needs") == 0)
		needs(root);
	else if (strcmp(argv[1], "list") == 0)
		list(root);
	else
		return 2;
	if (argc > 3 && strcmp(argv[3], "-v") == 0)
		fprintf(stderr, "%lu files read\n", n_read);
	close(root);
	return 0;
}
