/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --observe-probe: a user-space program cannot ask for a page at a physical
 * address, but it can see where its pages landed. /proc/self/pagemap gives
 * each virtual page's page frame number (fs/proc/task_mmu.c pagemap_read;
 * bits 0-54, bit 63 present; since 4.2 the PFN reads 0 without
 * CAP_SYS_ADMIN, Documentation/admin-guide/mm/pagemap.rst). So: allocate
 * anonymous memory, fault it in and lock it (mlock), keep the pages that lie
 * above the device's reach, and read the disk with O_DIRECT into them: the
 * block layer maps those very pages for DMA (iov_iter_extract_pages pins
 * them), and dma-direct bounces each one beyond the mask (kernel/dma/direct.h
 * dma_direct_map_phys -> swiotlb_map). Where the kernel puts a page is its
 * choice: when none of PROBE_ALLOC_MAX lands above the reach, the probe says
 * so and reads nothing. pagemap is this process's, not the audited system's:
 * it is read directly, never through the sysroot layer or into a snapshot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "observe/observe-probe.h"
#include "shared/macro.h"

#define PM_PFN_MASK ((UINT64_C(1) << 55) - 1)
#define PM_PRESENT (UINT64_C(1) << 63)
/* pages a read carries: 64 of 4 KiB is a 256 KiB I/O, within every queue's max_sectors_kb */
#define IOV_PAGES 64
#define CHUNK (16u << 20)

int probe_open(const char *disk, struct probe *ret, const char **ret_why)
{
	_cleanup_free_ char *path = NULL;
	struct stat st, fst;
	const char *name;
	int fd;

	*ret = (struct probe){ .fd = -1 };
	if (strchr(disk, '/'))
		path = strdup(disk);
	else if (asprintf(&path, "/dev/%s", disk) < 0)
		path = NULL;
	if (!path)
		return -ENOMEM;
	/* stat first: opening a character device (a tape, a serial line) can do something */
	if (stat(path, &st) < 0) {
		*ret_why = "no such disk (give a name in /dev, such as sda, or its path)";
		return -errno;
	}
	if (!S_ISBLK(st.st_mode)) {
		*ret_why = S_ISCHR(st.st_mode) ? "a character device, not a disk: refused"
		                               : "not a block device (a regular file or a directory): refused";
		return -EINVAL;
	}
	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*ret_why = errno == EINVAL ? "the disk does not take O_DIRECT reads"
					   : "cannot open the disk read-only (O_RDONLY|O_DIRECT)";
		return -errno;
	}
	/* the node opened is the one checked: a rename between stat and open is refused */
	if (fstat(fd, &fst) < 0 || !S_ISBLK(fst.st_mode) || fst.st_rdev != st.st_rdev) {
		close(fd);
		*ret_why = "the disk changed while it was opened: refused";
		return -ESTALE;
	}
	name = strrchr(path, '/') + 1;
	if (!(ret->disk = strdup(name))) {
		close(fd);
		return -ENOMEM;
	}
	ret->fd = fd;
	ret->path = TAKE_PTR(path);
	ret->bytes = PROBE_BYTES;
	ret->reach_end = UINT64_MAX;
	ret->alloc_max = PROBE_ALLOC_MAX;
	return 0;
}

void probe_close(struct probe *p)
{
	if (p->fd >= 0)
		close(p->fd);
	free(p->path);
	free(p->disk);
	*p = (struct probe){ .fd = -1 };
}

struct chunk {
	void *addr;
	size_t len;
};

/* The pages of [addr, addr + len) that lie above reach_end, appended to pages (up to want);
 * -EIO when pagemap cannot be read. */
static int pick_pages(int pagemap, void *addr, size_t len, size_t page, uint64_t reach_end,
		      void **pages, size_t *n, size_t want, bool *ret_pfn_zero)
{
	size_t count = len / page;
	uint64_t *e;

	if (reach_end == UINT64_MAX) {
		/* the device reaches all RAM: any page tests it, where it lies does not matter */
		for (size_t i = 0; i < count && *n < want; i++)
			pages[(*n)++] = (char *)addr + i * page;
		return 0;
	}
	if (!(e = malloc(count * sizeof(*e))))
		return -ENOMEM;
	off_t off = (off_t)((uintptr_t)addr / page * sizeof(*e));
	if (pread(pagemap, e, count * sizeof(*e), off) != (ssize_t)(count * sizeof(*e))) {
		free(e);
		return -EIO;
	}
	for (size_t i = 0; i < count && *n < want; i++) {
		uint64_t pfn = e[i] & PM_PFN_MASK;
		if (!(e[i] & PM_PRESENT))
			continue;
		if (pfn == 0) {
			*ret_pfn_zero = true; /* no CAP_SYS_ADMIN: every PFN reads 0 */
			continue;
		}
		if (pfn * page + (page - 1) > reach_end)
			pages[(*n)++] = (char *)addr + i * page;
	}
	free(e);
	return 0;
}

/* Read the disk from its start into pages, IOV_PAGES at a time. */
static void read_into(const struct probe *p, void **pages, size_t n, size_t page, struct probe_result *ret)
{
	struct iovec iov[IOV_PAGES];
	off_t off = 0;

	for (size_t i = 0; i < n;) {
		size_t k = 0;
		for (; k < IOV_PAGES && i + k < n; k++)
			iov[k] = (struct iovec){ .iov_base = pages[i + k], .iov_len = page };
		ssize_t r = preadv(p->fd, iov, (int)k, off);
		if (r < 0) {
			ret->why = errno == EIO ? "a read failed with EIO (a mapping the kernel could not make?)"
						: "a read failed";
			return;
		}
		if (r == 0) {
			ret->why = "the disk is smaller than the probe's read";
			return;
		}
		ret->bytes_read += (uint64_t)r;
		off += r;
		i += (size_t)r / page;
		if ((size_t)r % page)
			return; /* the disk's end */
	}
}

int probe_run(const struct probe *p, struct probe_result *ret)
{
	long ps = sysconf(_SC_PAGESIZE);
	size_t page = ps > 0 ? (size_t)ps : 4096, want = p->bytes / page, n = 0, n_chunks = 0;
	struct chunk chunks[PROBE_ALLOC_MAX / CHUNK];
	bool pfn_zero = false;
	void **pages;
	int pagemap, r = 0;

	*ret = (struct probe_result){ 0 };
	if (!(pages = calloc(want ? want : 1, sizeof(*pages))))
		return -ENOMEM;
	pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (pagemap < 0) {
		ret->why = "cannot read /proc/self/pagemap: where a buffer lies is unknown";
		free(pages);
		return 0;
	}
	while (n < want && n_chunks < ARRAY_SIZE(chunks) && ret->allocated_bytes + CHUNK <= p->alloc_max) {
		/* MAP_POPULATE faults every page in; mlock keeps it there (no swap-out) for the read */
		void *a = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
			       -1, 0);
		if (a == MAP_FAILED)
			break;
		chunks[n_chunks++] = (struct chunk){ a, CHUNK };
		ret->allocated_bytes += CHUNK;
		(void)mlock(a, CHUNK);
		r = pick_pages(pagemap, a, CHUNK, page, p->reach_end, pages, &n, want, &pfn_zero);
		if (r < 0 || pfn_zero)
			break;
	}
	close(pagemap);
	if (r == -ENOMEM)
		goto done;
	if (n_chunks == 0)
		ret->why = "cannot allocate memory for the probe's buffers: nothing read";
	else if (r == -EIO)
		ret->why = "cannot read /proc/self/pagemap: where a buffer lies is unknown, nothing read";
	else if (pfn_zero)
		ret->why = "/proc/self/pagemap shows no page frame numbers (CAP_SYS_ADMIN is needed): "
			   "where a buffer lies is unknown, nothing read";
	else if (n == 0)
		ret->why = "no page of the memory allocated lies above the device's reach: nothing read";
	if (!ret->why) {
		if (n < want)
			ret->why = "fewer pages above the device's reach than asked: read less";
		read_into(p, pages, n, page, ret);
		if (p->reach_end != UINT64_MAX)
			ret->above_reach_bytes = ret->bytes_read;
	}
	r = 0;
done:
	for (size_t i = 0; i < n_chunks; i++)
		munmap(chunks[i].addr, chunks[i].len);
	free(pages);
	return r;
}
