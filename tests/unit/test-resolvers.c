/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * openat2(RESOLVE_IN_ROOT) and the hand-written walk must give one answer
 * for every path: a tree thousands of directories deep behind a few links,
 * and a property test over generated trees of links, "..", loops and files.
 * Skipped where the kernel has no openat2 (nothing to compare with).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "sysroot/sysroot.h"

struct pair {
	char root[64];
	struct sysroot *o2, *walk;
};

static bool kernel_has_openat2(void)
{
#ifdef SYS_openat2
	struct {
		uint64_t flags, mode, resolve;
	} how = { .flags = O_PATH | O_CLOEXEC };
	long fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));
	if (fd >= 0)
		close((int)fd);
	return fd >= 0;
#else
	return false;
#endif
}

static void pair_open(struct pair *p)
{
	assert_int_equal(sysroot_open(p->root, 0, &p->o2), 0);
	assert_int_equal(sysroot_open(p->root, SYSROOT_NO_OPENAT2, &p->walk), 0);
	assert_string_equal(sysroot_resolver(p->o2), "openat2");
	assert_string_equal(sysroot_resolver(p->walk), "walk");
}

static int setup(void **state)
{
	struct pair *p = calloc(1, sizeof(*p));

	if (!p)
		return -1;
	strcpy(p->root, "/tmp/dmamask-resolvers-XXXXXX");
	if (!mkdtemp(p->root)) {
		free(p);
		return -1;
	}
	*state = p;
	return 0;
}

static int teardown(void **state)
{
	struct pair *p = *state;
	char cmd[128];

	sysroot_free(p->o2);
	sysroot_free(p->walk);
	/* rm walks any depth (fts); nftw gives up past PATH_MAX */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p->root);
	if (system(cmd) != 0)
		return -1;
	free(p);
	return 0;
}

/* Both resolvers read path alike: the same error, or the same bytes. */
static void assert_same_read(struct pair *p, const char *path)
{
	char *a = NULL, *b = NULL;
	size_t la = 0, lb = 0;
	int ra = sysroot_read_file(p->o2, path, 4096, &a, &la);
	int rb = sysroot_read_file(p->walk, path, 4096, &b, &lb);

	if (ra != rb)
		fail_msg("%s: openat2 %d, walk %d", path, ra, rb);
	if (ra == 0 && (la != lb || memcmp(a, b, la) != 0))
		fail_msg("%s: different contents", path);
	free(a);
	free(b);

	struct stat sa, sb;
	ra = sysroot_stat(p->o2, path, &sa);
	rb = sysroot_stat(p->walk, path, &sb);
	if (ra != rb || (ra == 0 && (sa.st_ino != sb.st_ino || sa.st_dev != sb.st_dev)))
		fail_msg("%s: stat openat2 %d, walk %d (or another inode)", path, ra, rb);
	ra = sysroot_readlink(p->o2, path, &a);
	rb = sysroot_readlink(p->walk, path, &b);
	if (ra != rb || (ra == 0 && strcmp(a, b) != 0))
		fail_msg("%s: readlink openat2 %d, walk %d", path, ra, rb);
	if (ra == 0) {
		free(a);
		free(b);
	}
}

/* n levels of "a" below dirfd; returns the deepest directory's fd (dirfd closed). */
static int descend(int dirfd, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		assert_true(mkdirat(dirfd, "a", 0755) == 0 || errno == EEXIST);
		int next = openat(dirfd, "a", O_DIRECTORY | O_CLOEXEC);
		assert_true(next >= 0);
		close(dirfd);
		dirfd = next;
	}
	return dirfd;
}

/* "a/a/.../a", n times. */
static char *chain(unsigned n)
{
	char *s = malloc(2 * n + 1);
	assert_non_null(s);
	for (unsigned i = 0; i < n; i++)
		memcpy(s + 2 * i, i + 1 < n ? "a/" : "a", 2);
	s[2 * n - 1] = '\0';
	return s;
}

/*
 * 3,000 directories deep: three links of 1,000 levels each reach a file whose
 * real path is 6,000 bytes long. openat2 reads it; so must the walk, and
 * ".." back up 100 levels (past the walk's open directories) must land alike.
 */
static void test_deeper_than_path_max(void **state)
{
	struct pair *p = *state;
	int fd = open(p->root, O_DIRECTORY | O_CLOEXEC);
	char *c = chain(1000);

	assert_true(fd >= 0);
	assert_int_equal(symlinkat(c, fd, "l0"), 0);
	for (int hop = 1; hop <= 3; hop++) {
		fd = descend(fd, 1000);
		if (hop == 3)
			break;
		char name[8];
		snprintf(name, sizeof(name), "l%d", hop);
		assert_int_equal(symlinkat(c, fd, name), 0);
		if (hop == 2) {
			/* a file 100 levels above the deepest directory, for the ".." walk */
			int up = descend(dup(fd), 900);
			int w = openat(up, "mark", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			assert_true(w >= 0 && write(w, "900\n", 4) == 4);
			close(w);
			close(up);
		}
	}
	int w = openat(fd, "dma_mask_bits", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	assert_true(w >= 0 && write(w, "32\n", 3) == 3);
	close(w);
	close(fd);
	free(c);
	pair_open(p);

	char *buf = NULL;
	size_t len;
	assert_int_equal(sysroot_read_file(p->o2, "l0/l1/l2/dma_mask_bits", 64, &buf, &len), 0);
	assert_string_equal(buf, "32\n");
	free(buf);
	assert_same_read(p, "l0/l1/l2/dma_mask_bits");

	char up[16 + 3 * 100 + 8] = "l0/l1/l2/";
	for (int i = 0; i < 100; i++)
		strcat(up, "../");
	strcat(up, "mark");
	assert_int_equal(sysroot_read_file(p->walk, up, 64, &buf, &len), 0);
	assert_string_equal(buf, "900\n");
	free(buf);
	assert_same_read(p, up);
	assert_same_read(p, "l0/l1/l2/../../nothing");
}

/* A small random tree: directories, files, and links of every kind. */
static const char *const names[] = { "a", "b", "c" };
static const char *const targets[] = {
	"a", "b/c", "..", "../..", "../../../..", "/", "/a", "/a/b", "a/../b", "c/.",
	"/b/../c", "nothing", "a/", "../a/b/c", "b", ".", "/c/a/../../b",
};

static unsigned rnd(unsigned *seed, unsigned n)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) % n;
}

static void grow(int dirfd, unsigned depth, unsigned *seed)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		unsigned kind = rnd(seed, depth < 4 ? 5 : 3);
		if (kind == 0) {
			continue; /* absent */
		} else if (kind == 1) {
			int w = openat(dirfd, names[i], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			assert_true(w >= 0);
			dprintf(w, "%s at %u\n", names[i], depth);
			close(w);
		} else if (kind == 2) {
			assert_int_equal(symlinkat(targets[rnd(seed, sizeof(targets) / sizeof(targets[0]))],
						   dirfd, names[i]), 0);
		} else {
			assert_int_equal(mkdirat(dirfd, names[i], 0755), 0);
			int sub = openat(dirfd, names[i], O_DIRECTORY | O_CLOEXEC);
			assert_true(sub >= 0);
			grow(sub, depth + 1, seed);
			close(sub);
		}
	}
}

/* Every path of up to four components over a, b, c, "..", "." and "" (a trailing slash). */
static void test_generated_trees(void **state)
{
	static const char *const comps[] = { "a", "b", "c", "..", ".", "" };
	const size_t nc = sizeof(comps) / sizeof(comps[0]);
	struct pair *p = *state;
	unsigned compared = 0;

	for (unsigned tree = 0; tree < 12; tree++) {
		char dir[96];
		unsigned seed = 0x5eed + tree;
		snprintf(dir, sizeof(dir), "%s/t%u", p->root, tree);
		assert_int_equal(mkdir(dir, 0755), 0);
		int fd = open(dir, O_DIRECTORY | O_CLOEXEC);
		assert_true(fd >= 0);
		grow(fd, 0, &seed);
		close(fd);
		struct pair t = { 0 };
		strcpy(t.root, dir);
		pair_open(&t);
		for (size_t n = 1; n <= 4; n++) {
			size_t total = 1;
			for (size_t k = 0; k < n; k++)
				total *= nc;
			for (size_t i = 0; i < total; i++) {
				char path[64] = "";
				size_t v = i;
				for (size_t k = 0; k < n; k++, v /= nc) {
					if (k)
						strcat(path, "/");
					strcat(path, comps[v % nc]);
				}
				if (!*path)
					continue;
				assert_same_read(&t, path);
				compared++;
			}
		}
		sysroot_free(t.o2);
		sysroot_free(t.walk);
	}
	print_message("compared %u paths in 12 generated trees\n", compared);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_deeper_than_path_max, setup, teardown),
		cmocka_unit_test_setup_teardown(test_generated_trees, setup, teardown),
	};
	if (!kernel_has_openat2()) {
		printf("1..0 # SKIP no openat2 in this kernel: nothing to compare the walk with\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
