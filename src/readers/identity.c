/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Who the machine is: architecture, kernel release, page size. A snapshot's
 * MANIFEST says so directly, and proc/sys/kernel/{arch,osrelease} (arch: the
 * utsname machine, a sysctl only since about 6.1: Debian's 5.10 has none, its
 * 6.1 has it; a live audit then asks uname(2) for the same field) check it:
 * where they differ the file is used and the contradiction kept. The page
 * size: --page-size, the MANIFEST, the running process when live (no proc or
 * sys file a capture keeps tells it).
 */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "readers/readers.h"
#include "shared/errno-util.h"
#include "shared/macro.h"
#include "shared/text.h"

#define SMALL_FILE_MAX 4096

static void manifest_free(struct manifest_entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}

int manifest_parse(const char *buf, size_t len, struct manifest_entry **ret, size_t *ret_n,
		   struct parse_error *ret_err)
{
	struct manifest_entry *v = NULL;
	size_t n = 0, cap = 0;
	struct line_iter it;
	struct line l;
	int r = 0;

	if (text_has_nul(buf, len))
		return parse_fail(ret_err, 0, "binary content (NUL byte)");
	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		if (l.len == 0 || l.s[0] == '#')
			continue;
		const char *eq = memchr(l.s, '=', l.len);
		if (!eq || eq == l.s) {
			r = parse_fail(ret_err, l.no, "expected key=value");
			break;
		}
		if (n == cap) {
			/* a capture's MANIFEST can hold 100,000 error lines */
			size_t ncap = cap ? cap * 2 : 16;
			struct manifest_entry *nv = realloc(v, ncap * sizeof(*nv));
			if (!nv) {
				r = -ENOMEM;
				break;
			}
			v = nv;
			cap = ncap;
		}
		v[n].key = strndup(l.s, (size_t)(eq - l.s));
		v[n].value = strndup(eq + 1, (size_t)(l.s + l.len - eq - 1));
		n++;
		if (!v[n - 1].key || !v[n - 1].value) {
			r = -ENOMEM;
			break;
		}
	}
	if (r < 0) {
		manifest_free(v, n);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

bool manifest_complete(const struct manifest_entry *v, size_t n, const char **ret_why)
{
	const char *why = NULL, *reason = NULL;
	bool versioned = false, said = false, complete = true;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(v[i].key, "manifest_version") == 0) {
			versioned = true;
		} else if (strcmp(v[i].key, "incomplete_reason") == 0) {
			reason = v[i].value;
		} else if (strcmp(v[i].key, "complete") == 0) {
			said = true;
			if (strcmp(v[i].value, "1") != 0) {
				complete = false;
				why = "MANIFEST says complete=0";
			}
		}
	}
	if (!said && versioned) {
		complete = false;
		why = "MANIFEST has manifest_version but no complete=1: it was cut short";
	}
	if (!complete)
		*ret_why = reason && *reason ? reason : why;
	return complete;
}

/* The capture that wrote MANIFEST did not finish: the audit says so (snapshot-incomplete). */
static int set_incomplete(struct machine *m, const char *why)
{
	m->snapshot_incomplete = true;
	free(m->snapshot_incomplete_why);
	m->snapshot_incomplete_why = strdup(why);
	return m->snapshot_incomplete_why ? 0 : -ENOMEM;
}

/* A one-line proc/sys file such as proc/sys/kernel/arch. */
static int read_one_line(struct sysroot *sr, struct machine *m, const char *path, char **ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = sysroot_read_file(sr, path, SMALL_FILE_MAX, &buf, &len);

	if (r < 0)
		return r == -ENOMEM ? r : machine_add_input_errno(m, path, r);
	while (len > 0 && buf[len - 1] == '\n')
		buf[--len] = '\0';
	if (len == 0 || text_has_nul(buf, len) || memchr(buf, '\n', len) || strchr(buf, ' '))
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG, "expected one word");
	*ret = TAKE_PTR(buf);
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}

static int read_manifest(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "MANIFEST";
	_cleanup_free_ char *buf = NULL;
	struct parse_error e = { 0 };
	size_t len;
	int r;

	r = sysroot_read_file(sr, path, MANIFEST_MAX, &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		if (machine_add_input_errno(m, path, r) < 0)
			return -ENOMEM;
		/* none: a hand-made tree, taken as complete; one that cannot be read (too big,
		 * a FIFO, a directory, a link to nothing) may say complete=0: nothing says the
		 * capture finished */
		_cleanup_free_ char *target = NULL;
		if ((r == -ENOENT || r == -ENOTDIR) && sysroot_readlink(sr, path, &target) < 0)
			return 0;
		char why[128];
		snprintf(why, sizeof(why), "MANIFEST cannot be read (%s): nothing says the capture finished",
			 errno_describe(r));
		return set_incomplete(m, why);
	}
	r = manifest_parse(buf, len, &m->manifest, &m->n_manifest, &e);
	if (r < 0) {
		/* the first line of a capture that ends MANIFEST with complete=: a damaged one */
		if (r == -EBADMSG && strncmp(buf, "manifest_version=", 17) == 0 &&
		    set_incomplete(m, "MANIFEST is damaged (not key=value lines)") < 0)
			return -ENOMEM;
		return record_parse_result(m, path, r, &e);
	}
	const char *why;
	if (!manifest_complete(m->manifest, m->n_manifest, &why) && set_incomplete(m, why) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < m->n_manifest; i++) {
		const char *k = m->manifest[i].key;
		if (strncmp(k, "error.", 6) != 0)
			continue;
		const char *v = m->manifest[i].value;
		int err = errno_from_name(v);
		/* "13": a hand-written number is an errno too */
		if (!err && *v && strspn(v, "0123456789") == strlen(v) && strlen(v) < 5)
			err = atoi(v);
		/* a failed read it cannot replay would read as absent: not complete */
		if (!(err > 0 && err < ERRNO_MAX)) {
			_cleanup_free_ char *bad = NULL;
			if (asprintf(&bad, "MANIFEST line %s holds no errno (\"%.32s\"): that read cannot "
				     "be replayed", k, v) < 0 || set_incomplete(m, bad) < 0)
				return -ENOMEM;
			continue;
		}
		if (sysroot_add_recorded_error(sr, k + 6, err) < 0)
			return -ENOMEM;
	}
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}

/* "MAJOR.MINOR." at p, MAJOR.MINOR those of release ("5.10" of "5.10.0-32-amd64"). */
static bool same_series(const char *p, const char *end, const char *release)
{
	const char *dot = strchr(release, '.');
	const char *dot2 = dot ? strchr(dot + 1, '.') : NULL;

	if (!dot2)
		return false;
	size_t n = (size_t)(dot2 - release) + 1; /* "5.10." */
	return (size_t)(end - p) > n && memcmp(p, release, n) == 0 && p[n] >= '0' && p[n] <= '9';
}

/* The "MAJOR.MINOR.PATCH" at p, its length; 0 when p holds none. */
static size_t version_span(const char *p, const char *end)
{
	const char *q = p;
	int dots = 0;

	while (q < end && ((*q >= '0' && *q <= '9') || (*q == '.' && q > p && q[-1] != '.'))) {
		dots += *q == '.';
		q++;
	}
	while (q > p && q[-1] == '.') {
		q--;
		dots--;
	}
	return dots == 2 ? (size_t)(q - p) : 0;
}

int stable_release_parse(const char *buf, size_t len, const char *release, char **ret)
{
	static const char debian[] = "Debian ";
	const size_t dl = sizeof(debian) - 1;
	const char *end = buf + len;

	if (text_has_nul(buf, len))
		return -EBADMSG;
	if (!release)
		return -ENOENT;
	/* candidates: after "Debian " (its proc/version), and the last word
	 * (Ubuntu's version_signature; its "Ubuntu 5.15.0-91..." is the ABI again) */
	for (const char *p = buf; p < end; p++) {
		bool after_word = p - buf >= (ptrdiff_t)dl && memcmp(p - dl, debian, dl) == 0;
		const char *q = p;
		while (q < end && *q != ' ' && *q != '\n')
			q++;
		bool last_word = (p == buf || p[-1] == ' ') && (q == end || (q + 1 == end && *q == '\n'));
		size_t n = version_span(p, end);
		if (!(after_word || last_word) || !n || !same_series(p, end, release))
			continue;
		if (p + n < end && p[n] != '-' && p[n] != ' ' && p[n] != '\n' && p[n] != '+' && p[n] != '~')
			continue;
		*ret = strndup(p, n);
		return *ret ? 0 : -ENOMEM;
	}
	return -ENOENT;
}

/*
 * A release whose patch level is 0 followed by "-N" is a distribution's ABI
 * name ("5.10.0-32-amd64", "5.15.0-91-generic"); the stable release behind
 * it decides backported rules (fcf044891c84 in 5.10.69, 82806744fd7d in
 * 5.10.147). Read only then: other kernels name their release themselves.
 */
bool release_is_abi_name(const char *rel)
{
	const char *p = rel;

	for (int dots = 0; p && *p; p++) {
		if (*p == '.' && ++dots == 2)
			return p[1] == '0' && p[2] == '-' && p[3] >= '0' && p[3] <= '9';
		if (*p != '.' && (*p < '0' || *p > '9'))
			return false;
	}
	return false;
}

static int read_stable_release(struct sysroot *sr, struct machine *m)
{
	static const char *const paths[] = { "proc/version", "proc/version_signature" };

	if (!release_is_abi_name(m->release.value))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		_cleanup_free_ char *buf = NULL;
		size_t len;
		int r = read_input(sr, m, paths[i], SMALL_FILE_MAX, &buf, &len);
		if (r <= 0) {
			if (r < 0)
				return r;
			continue;
		}
		r = stable_release_parse(buf, len, m->release.value, &m->stable_release.value);
		if (r == -ENOMEM)
			return r;
		if (r == -EBADMSG ? machine_add_input(m, paths[i], INPUT_INVALID, EBADMSG, "binary content (NUL byte)") < 0
				  : machine_add_input(m, paths[i], INPUT_OK, 0, NULL) < 0)
			return -ENOMEM;
		if (r == 0) {
			m->stable_release.prov = PROV_READ;
			m->stable_release.source = paths[i];
			return 0;
		}
	}
	return 0;
}

static bool page_size_valid(uint64_t v)
{
	return v >= 4096 && v <= (1u << 18) && (v & (v - 1)) == 0;
}

/* The MANIFEST's value of key; NULL when absent, empty or "unknown" (what a capture writes when it learnt none). */
static const char *manifest_word(const struct machine *m, const char *key)
{
	const char *v = machine_manifest_get(m, key);

	return v && *v && strcmp(v, "unknown") != 0 ? v : NULL;
}

static int set_from_manifest(struct machine *m, struct sourced_str *s, const char *key)
{
	const char *v = manifest_word(m, key);
	if (!v)
		return 0;
	s->value = strdup(v);
	if (!s->value)
		return -ENOMEM;
	s->prov = PROV_READ;
	s->source = "MANIFEST";
	return 1;
}

static int add_conflict(struct machine *m, const char *key, const char *path, const char *manifest,
			const char *file)
{
	struct identity_conflict *c;

	assert(m->n_identity_conflicts < IDENTITY_CONFLICTS_MAX);
	c = &m->identity_conflicts[m->n_identity_conflicts];
	*c = (struct identity_conflict){ .key = key, .path = path };
	c->manifest = strdup(manifest);
	c->file = strdup(file);
	m->n_identity_conflicts++; /* freed by machine_done() whichever strdup failed */
	return c->manifest && c->file ? 0 : -ENOMEM;
}

/* One word of the machine's identity: the MANIFEST's key, else the file. 0 or -ENOMEM. */
static int identity_word(struct sysroot *sr, struct machine *m, struct sourced_str *s,
			 const char *key, const char *path)
{
	int r = set_from_manifest(m, s, key);

	if (r != 0)
		return r < 0 ? r : 0;
	r = read_one_line(sr, m, path, &s->value);
	if (r < 0)
		return r;
	if (s->value) {
		s->prov = PROV_READ;
		s->source = path;
	}
	return 0;
}

/*
 * arch and kernel_release: a snapshot's MANIFEST says them, and the tree's
 * proc/sys/kernel file is the kernel's own word (utsname()->machine and
 * ->release, kernel/utsname_sysctl.c). Both are read; when they differ the
 * file wins (a MANIFEST is a capture's summary, and a 32-bit process under
 * linux32 is told i686 by uname(2) where kernel.arch says x86_64) and the
 * contradiction is kept for the snapshot-inconsistent finding. 0 or -ENOMEM.
 */
static int checked_identity_word(struct sysroot *sr, struct machine *m, struct sourced_str *s,
				 const char *key, const char *path)
{
	const char *said = m->live ? NULL : manifest_word(m, key);
	int r;

	if (!said)
		return identity_word(sr, m, s, key, path);
	r = read_one_line(sr, m, path, &s->value);
	if (r < 0)
		return r;
	if (s->value && strcmp(s->value, said) != 0) {
		s->prov = PROV_READ;
		s->source = path;
		return add_conflict(m, key, path, said, s->value);
	}
	free(s->value); /* the same word, or no file (kernel.arch exists only since about 6.1) */
	s->value = NULL;
	return set_from_manifest(m, s, key) < 0 ? -ENOMEM : 0;
}

int read_identity(struct sysroot *sr, struct machine *m, unsigned page_size_option)
{
	int r;

	m->live = sysroot_is_live(sr);
	if (!m->live) {
		r = read_manifest(sr, m);
		if (r < 0)
			return r;
	}

	r = checked_identity_word(sr, m, &m->arch, "arch", "proc/sys/kernel/arch");
	if (r < 0)
		return r;
	struct utsname u;
	if (!m->arch.value && m->live && uname(&u) == 0 && u.machine[0]) {
		/* the kernel's utsname()->machine, as kernel.arch shows it (a 32-bit
		 * process under linux32 would be told i686 or armv8l) */
		if (!(m->arch.value = strdup(u.machine)))
			return -ENOMEM;
		m->arch.prov = PROV_READ;
		m->arch.source = "uname(2)";
	}
	m->arch_info = arch_lookup(m->arch.value);
	r = checked_identity_word(sr, m, &m->release, "kernel_release", "proc/sys/kernel/osrelease");
	if (r < 0)
		return r;
	r = read_stable_release(sr, m);
	if (r < 0)
		return r;
	/* who sent the snapshot, and when: a fleet's reports are keyed on them */
	r = identity_word(sr, m, &m->hostname, "hostname", "proc/sys/kernel/hostname");
	if (r < 0)
		return r;
	const char *at = machine_manifest_get(m, "captured_at");
	if (at && *at && !(m->captured_at = strdup(at)))
		return -ENOMEM;

	const char *ps = machine_manifest_get(m, "page_size");
	uint64_t v;
	if (page_size_option) {
		m->page_size = page_size_option;
		m->page_size_prov = PROV_USER;
		m->page_size_source = "--page-size";
	} else if (ps && parse_u64(ps, strlen(ps), 10, &v) == 0 && page_size_valid(v)) {
		m->page_size = (unsigned)v;
		m->page_size_prov = PROV_READ;
		m->page_size_source = "MANIFEST";
	} else if (m->live) {
		m->page_size = (unsigned)sysconf(_SC_PAGESIZE);
		m->page_size_prov = PROV_READ;
		m->page_size_source = "sysconf(_SC_PAGESIZE)";
	} else {
		m->page_size = 4096;
		m->page_size_prov = PROV_ASSUMED;
		m->page_size_source = ps ? "default (MANIFEST page_size invalid)" : "default";
	}
	return 0;
}
