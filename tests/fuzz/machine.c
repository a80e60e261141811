/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A whole machine: the input is a tree, written into a private directory,
 * audited as `dmamask-audit --sysroot DIR` would (every reader, the
 * analysis, the three renderers). The JSON must parse, whatever the tree.
 *
 * The tree is lines of text (seeds.py writes seeds from tests/machines):
 *   "== PATH" then the file's bytes and one '\n', up to the next header line;
 *   "-> PATH TARGET" a symlink; "// PATH" a directory.
 * PATH is kept inside the directory ("..", "." and empty components are
 * dropped); symlinks are made last, and nothing is made below a component
 * that is not a real directory, so nothing is written through a link.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <json-c/json.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/report.h"
#include "fuzz.h"
#include "readers/readers.h"
#include "render/render.h"

#define ENTRIES_MAX 4096
#define DEPTH_MAX 64

static char root[PATH_MAX];

enum kind { FILE_ENTRY, LINK_ENTRY, DIR_ENTRY };

struct entry {
	enum kind kind;
	char *path;          /* sanitised, relative */
	const char *data;    /* file content or link target, in the input */
	size_t len;
};

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

/* "a//./../b/c" -> "a/b/c"; NULL when nothing is left or it is too deep. */
static char *clean_path(const char *s, size_t len)
{
	char *out = malloc(len + 1);
	size_t o = 0, depth = 0;

	if (!out)
		abort();
	for (size_t i = 0; i < len;) {
		size_t n = 0;
		while (i + n < len && s[i + n] != '/')
			n++;
		bool skip = n == 0 || (n == 1 && s[i] == '.') || (n == 2 && s[i] == '.' && s[i + 1] == '.') ||
			    n > NAME_MAX || memchr(s + i, '\0', n);
		if (!skip) {
			if (o)
				out[o++] = '/';
			memcpy(out + o, s + i, n);
			o += n;
			depth++;
		}
		i += n + 1;
	}
	out[o] = '\0';
	if (o == 0 || depth > DEPTH_MAX) {
		free(out);
		return NULL;
	}
	return out;
}

/*
 * mkdir -p of path's parents (dir_too: and path itself), relative to the
 * root. false when one of them exists and is not a directory, a symlink
 * above all: nothing is ever made through a link the input planted.
 */
static bool make_parents(int dfd, char *path, bool dir_too)
{
	struct stat st;
	bool ok = true;

	for (char *c = path; ok; c++) {
		c = strchr(c, '/');
		if (!c && !dir_too)
			break;
		if (c)
			*c = '\0';
		if (fstatat(dfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
			ok = S_ISDIR(st.st_mode);
		else
			ok = mkdirat(dfd, path, 0755) == 0;
		if (!c)
			break;
		*c = '/';
	}
	return ok;
}

/* A file's bytes end before the '\n' that separates them from the next header. */
static void close_file(struct entry *f)
{
	if (f && f->len && f->data[f->len - 1] == '\n')
		f->len--;
}

static size_t parse_tree(const char *s, size_t len, struct entry *v)
{
	size_t n = 0;
	struct entry *open_file = NULL;

	for (size_t i = 0; i < len && n < ENTRIES_MAX;) {
		const char *nl = memchr(s + i, '\n', len - i);
		size_t llen = nl ? (size_t)(nl - (s + i)) : len - i;
		const char *l = s + i;
		size_t next = nl ? i + llen + 1 : len;
		bool header = llen >= 3 && (memcmp(l, "== ", 3) == 0 || memcmp(l, "-> ", 3) == 0 ||
					    memcmp(l, "// ", 3) == 0);
		if (!header) {
			if (open_file)
				open_file->len = next - (size_t)(open_file->data - s);
			i = next;
			continue;
		}
		close_file(open_file);
		open_file = NULL;
		struct entry e = { 0 };
		const char *p = l + 3, *lend = l + llen;
		if (l[0] == '-') {
			const char *sp = memchr(p, ' ', (size_t)(lend - p));
			if (!sp) {
				i = next;
				continue;
			}
			e.kind = LINK_ENTRY;
			e.path = clean_path(p, (size_t)(sp - p));
			e.data = sp + 1;
			e.len = (size_t)(lend - sp - 1);
		} else {
			e.kind = l[0] == '=' ? FILE_ENTRY : DIR_ENTRY;
			e.path = clean_path(p, (size_t)(lend - p));
			e.data = s + next;
			e.len = 0;
		}
		if (e.path) {
			v[n] = e;
			if (e.kind == FILE_ENTRY)
				open_file = &v[n];
			n++;
		}
		i = next;
	}
	close_file(open_file);
	return n;
}

static void write_tree(int dfd, struct entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (v[i].kind == DIR_ENTRY) {
			make_parents(dfd, v[i].path, true);
		} else if (v[i].kind == FILE_ENTRY) {
			if (!make_parents(dfd, v[i].path, false))
				continue;
			int fd = openat(dfd, v[i].path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
			if (fd < 0)
				continue;
			if (v[i].len && write(fd, v[i].data, v[i].len) < 0)
				abort();
			close(fd);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (v[i].kind != LINK_ENTRY)
			continue;
		char *target = strndup(v[i].data, v[i].len);
		if (!target)
			abort();
		if (make_parents(dfd, v[i].path, false) && !memchr(v[i].data, '\0', v[i].len))
			symlinkat(target, dfd, v[i].path);
		free(target);
	}
}

/*
 * libkmod, in the tool's sandbox child, asks for 2^64 bytes on some corrupt
 * indexes: glibc's malloc returns NULL, ASan by default aborts.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}

static void remove_root(void)
{
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	(void)argc, (void)argv;
	snprintf(root, sizeof(root), "%s/dmamask-fuzz-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(root))
		abort();
	atexit(remove_root);
	return 0;
}

static void audit(const char *dir, unsigned flags)
{
	struct sysroot *sr = NULL;
	struct machine m;
	struct report rep;
	char *json = NULL, *text = NULL;
	size_t json_len = 0, text_len = 0;

	if (sysroot_open(dir, flags, &sr) < 0)
		return;
	machine_init(&m);
	m.sysroot = strdup(dir);
	if (read_machine(sr, &m, 0) == 0 && report_build_with(&m, &(const struct report_options){ .fail_on = SEVERITY_WARNING }, &rep) == 0) {
		/* no wrapped page arithmetic (issue 8: RAM up to 2^64-1 was all highmem) */
		const struct layout *l = &rep.layout;
		fuzz_assert(l->lowmem.highmem_bytes <= l->ram_bytes);
		fuzz_assert(l->source != LAYOUT_SOURCE_IOMEM || l->lowmem.end_pfn < l->end_pfn ||
			    l->lowmem.highmem_bytes == 0);
		FILE *f = open_memstream(&json, &json_len);
		fuzz_assert(f && render_json(f, &m, &rep, NULL) == 0);
		fclose(f);
		json_object *o = json_tokener_parse(json);
		fuzz_assert(o); /* valid JSON, whatever the tree holds */
		json_object_put(o);
		struct render_options ro = { .color = 0 };
		f = open_memstream(&text, &text_len);
		fuzz_assert(f && render_text(f, &m, &rep, &ro) == 0);
		fuzz_assert(render_prometheus(f, &m, &rep) == 0);
		fclose(f);
		report_done(&rep);
	}
	free(json);
	free(text);
	machine_done(&m);
	sysroot_free(sr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct entry *v = calloc(ENTRIES_MAX, sizeof(*v));
	int dfd;

	if (!v)
		abort();
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		abort();
	size_t n = parse_tree((const char *)data, size, v);
	write_tree(dfd, v, n);
	close(dfd);
	/* both resolvers: the hand-written walk is what kernels before 5.6 get */
	audit(root, size % 2 ? SYSROOT_NO_OPENAT2 : 0);
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
	return 0;
}
