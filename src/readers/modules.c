/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The module that would drive an unbound device: its modalias looked up in
 * lib/modules/<release>/modules.alias.bin (and the built-in indexes) with
 * libkmod, as udev's kmod builtin and modprobe do. libkmod opens the index
 * files itself, so the directory is first resolved inside the sysroot
 * (every symlink on the way followed there) and each index it may open is
 * checked to be a regular file, not a link that could lead elsewhere.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libkmod.h>

#include "readers/readers.h"
#include "readers/sysfs-util.h"
#include "shared/macro.h"

#define MODULES_DIR "lib/modules"

/* What kmod_module_new_from_lookup() may open (libkmod.c index_files, libkmod-builtin.c). */
static const char *const index_files[] = {
	"modules.dep.bin",	     "modules.alias.bin",   "modules.symbols.bin",
	"modules.builtin.alias.bin", "modules.builtin.bin", "modules.builtin.modinfo",
};

static void kmod_quiet(void *data, int priority, const char *file, int line, const char *fn,
		       const char *format, va_list args)
{
}

static bool wants_module(const struct device *d)
{
	return !d->driver && d->modalias && !d->module;
}

/* 0 when every index present is a regular file reached without a link; else recorded. */
static int check_indexes(struct sysroot *sr, struct machine *m, const char *dir, const char *input,
			 bool *ret_ok)
{
	*ret_ok = false;
	for (size_t i = 0; i < ARRAY_SIZE(index_files); i++) {
		_cleanup_free_ char *path = path_join(dir, index_files[i]), *target = NULL;
		struct stat st;
		int r;

		if (!path)
			return -ENOMEM;
		r = sysroot_readlink(sr, path, &target);
		if (r == -ENOMEM)
			return r;
		if (r == 0)
			return machine_add_input(
				m, input, INPUT_INVALID, ELOOP,
				"an index is a symlink: refused, libkmod would follow it");
		r = sysroot_stat(sr, path, &st);
		if (r == 0 && !S_ISREG(st.st_mode)) /* a FIFO would block libkmod's read */
			return machine_add_input(m, input, INPUT_INVALID, EINVAL,
						 "an index is not a regular file: refused");
	}
	*ret_ok = true;
	return 0;
}

/* Limits of the lookup child: libkmod trusts its index files, a snapshot's may be crafted. */
#define LOOKUP_SECONDS 3

/* Look up every unbound device's modalias; in the child, results go to out. */
static int lookup_all(struct machine *m, const char *host_dir, FILE *out)
{
	static const char *const no_config[] = { NULL };
	struct kmod_ctx *ctx;
	int r = 0;

	/* no modprobe.d: the host's says nothing about a snapshot (its aliases are rare anyway) */
	ctx = kmod_new(host_dir, no_config);
	if (!ctx)
		return -ENOMEM;
	kmod_set_log_fn(ctx, kmod_quiet, NULL);
	for (size_t i = 0; r >= 0 && i < m->n_devices; i++) {
		struct device *d = &m->devices[i];
		struct kmod_list *list = NULL;

		if (!wants_module(d))
			continue;
		r = kmod_module_new_from_lookup(ctx, d->modalias, &list);
		if (r != -ENOMEM)
			r = 0; /* not found, or an index absent (-ENOSYS): no module */
		if (r == 0 && list) {
			struct kmod_module *mod = kmod_module_get_module(list);
			const char *name = kmod_module_get_name(mod);
			if (name && !strpbrk(name, "\t\n"))
				fprintf(out, "%zu\t%s\n", i, name);
			kmod_module_unref(mod);
		}
		kmod_module_unref_list(list);
	}
	kmod_unref(ctx);
	return r;
}

/* Apply "index\tmodule" lines from the child. */
static int apply_results(struct machine *m, char *buf)
{
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (!next)
			break; /* a cut line: the child died writing it */
		*next++ = '\0';
		char *tab = strchr(line, '\t'), *end;
		if (!tab)
			continue;
		*tab = '\0';
		unsigned long i = strtoul(line, &end, 10);
		if (*end || i >= m->n_devices || m->devices[i].module)
			continue;
		m->devices[i].module = strdup(tab + 1);
		if (!m->devices[i].module)
			return -ENOMEM;
		m->devices[i].module_source = "modalias";
	}
	return 0;
}

/*
 * libkmod follows the offsets in its index files without checking them: a
 * crafted modules.alias.bin makes it loop and allocate forever. So the
 * lookups run in a child with CPU, memory and wall-clock limits; a child
 * that does not finish cleanly leaves the input invalid. 1 on success,
 * 0 when the child failed, -errno.
 */
static int lookup_sandboxed(struct machine *m, const char *host_dir)
{
	int fds[2];
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int r = -errno;
		close(fds[0]);
		close(fds[1]);
		return r;
	}
	if (pid == 0) {
		struct rlimit cpu = { LOOKUP_SECONDS, LOOKUP_SECONDS };
		setrlimit(RLIMIT_CPU, &cpu);
#ifndef __SANITIZE_ADDRESS__ /* ASan reserves terabytes of address space */
		struct rlimit as = { 512ull << 20, 512ull << 20 };
		setrlimit(RLIMIT_AS, &as);
#endif
		close(fds[0]);
		FILE *out = fdopen(fds[1], "w");
		int r = out ? lookup_all(m, host_dir, out) : -ENOMEM;
		if (out && fclose(out) != 0)
			r = -EIO;
		_exit(r < 0 ? 1 : 0);
	}
	close(fds[1]);
	time_t deadline = time(NULL) + LOOKUP_SECONDS;
	bool timed_out = false;
	for (;;) {
		struct pollfd p = { .fd = fds[0], .events = POLLIN };
		int left = (int)(deadline - time(NULL));
		if (left <= 0 || poll(&p, 1, left * 1000) == 0) {
			timed_out = true;
			break;
		}
		if (len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap ? cap * 2 : 8192);
			if (!nb) {
				kill(pid, SIGKILL);
				waitpid(pid, NULL, 0);
				close(fds[0]);
				return -ENOMEM;
			}
			buf = nb;
			cap = cap ? cap * 2 : 8192;
		}
		ssize_t n = read(fds[0], buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fds[0]);
	if (timed_out)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return 0;
	if (buf) {
		buf[len] = '\0';
		int r = apply_results(m, buf);
		if (r < 0)
			return r;
	}
	return 1;
}

int read_modules(struct sysroot *sr, struct machine *m)
{
	_cleanup_free_ char *input = NULL, *dir = NULL, *host_dir = NULL;
	const char *release = m->release.value, *root = sysroot_path(sr);
	bool wanted = false, ok;
	struct stat st;
	int r;

	for (size_t i = 0; i < m->n_devices && !wanted; i++)
		wanted = wants_module(&m->devices[i]);
	if (!wanted)
		return 0; /* every device bound or without modalias: nothing to look up */
	if (!release)
		return machine_add_input(m, MODULES_DIR, INPUT_MISSING, 0,
					 "kernel release unknown");
	if (!*release || release[0] == '.' || strchr(release, '/'))
		return machine_add_input(m, MODULES_DIR, INPUT_INVALID, EINVAL,
					 "kernel release is not a directory name");
	input = path_join(MODULES_DIR, release);
	if (!input)
		return -ENOMEM;
	r = path_resolve_in_root(sr, input, &dir);
	if (r == 0)
		r = sysroot_stat(sr, dir, &st);
	if (r == 0 && !S_ISDIR(st.st_mode))
		r = -ENOTDIR;
	if (r == -ENOMEM)
		return r;
	if (r < 0) /* no modules installed (containers, minimal VMs): recorded */
		return machine_add_input_errno(m, input, r);
	r = check_indexes(sr, m, dir, input, &ok);
	if (r < 0 || !ok)
		return r;

	/* dir holds no link now: the sysroot's path and dir name the same directory */
	size_t rlen = strlen(root);
	while (rlen > 1 && root[rlen - 1] == '/')
		rlen--;
	bool slash = rlen > 0 && root[rlen - 1] == '/';
	if (asprintf(&host_dir, "%.*s%s%s", (int)rlen, root, slash ? "" : "/", dir) < 0)
		return -ENOMEM;
	r = lookup_sandboxed(m, host_dir);
	if (r < 0)
		return r;
	if (r == 0)
		return machine_add_input(m, input, INPUT_INVALID, EBADMSG,
					 "libkmod could not look the modaliases up (a malformed "
					 "index?): no module names");
	return machine_add_input(m, input, INPUT_OK, 0, NULL);
}
