/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The module that would drive an unbound device: its modalias looked up in
 * lib/modules/<release>/modules.alias.bin (and the built-in indexes) with
 * libkmod, as udev's kmod builtin and modprobe do. libkmod opens its files
 * by path, so it never sees the sysroot: each file it may open is read
 * through the sysroot layer (symlinks followed inside the root, regular
 * files only, size-capped) and copied into a private directory, and the
 * lookups run in a child confined to that directory (src/shared/sandbox.c), with
 * no modprobe.d at all. libkmod's own absolute paths (/proc/cmdline for
 * modprobe.blacklist= and module options, /sys/module/compression from
 * kmod 32) then name nothing in the chroot or are refused by Landlock; where
 * neither is possible (an unprivileged user without user namespaces on a
 * kernel before 5.13) they are still opened, and cannot change a result:
 * blacklists, options and the compression of .ko files play no part in
 * sym_kmod_module_new_from_lookup().
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libkmod.h>

#include "readers/readers.h"
#include "shared/sandbox.h"
#include "shared/errno-util.h"
#include "shared/dlopen-lib.h"
#include "shared/macro.h"
#include "shared/path.h"

#define MODULES_DIR "lib/modules"

/*
 * What sym_kmod_new() and sym_kmod_module_new_from_lookup() open in the directory
 * (kmod 30-34: libkmod-config.c kmod_config_new parses modules.softdep and,
 * from 33, modules.weakdep as configuration, aliases included; libkmod.c
 * index_files). Not modules.symbols.bin, consulted only for "symbol:"
 * names, which no modalias is, nor modules.builtin.modinfo (modinfo only).
 */
static const char *const kmod_files[] = {
	"modules.softdep",
	"modules.weakdep",
	"modules.dep.bin",
	"modules.alias.bin",
	"modules.builtin.alias.bin",
	"modules.builtin.bin",
};

/* Debian's 6.1 modules.alias.bin is 1.3 MiB; a generous cap per file. */
#define KMOD_FILE_MAX (32u << 20)

static void kmod_quiet(void *data, int priority, const char *file, int line, const char *fn,
		       const char *format, va_list args)
{
}

static bool wants_module(const struct device *d)
{
	return !d->driver && d->modalias && !d->module;
}

/*
 * Copy every file of kmod_files present in dir into sb. 1 when all could
 * be read (absent ones are fine: libkmod does without), 0 when one could
 * not (recorded under its path), -ENOMEM.
 */
static int copy_files(struct sysroot *sr, struct machine *m, const char *dir, struct sandbox *sb)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *d = NULL;

	if (sysroot_dir_new(sr, &d, "%s", dir) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < ARRAY_SIZE(kmod_files); i++) {
		_cleanup_free_ char *buf = NULL;
		size_t len;
		int r;

		r = sysroot_dir_read_file(d, kmod_files[i], KMOD_FILE_MAX, &buf, &len);
		if (r == -ENOENT)
			continue; /* also a link that leads out of the root: it names nothing here */
		if (r == -ENOMEM)
			return r;
		if (r < 0) {
			_cleanup_free_ char *path = path_join(dir, kmod_files[i]);
			char detail[160];
			if (!path)
				return -ENOMEM;
			snprintf(detail, sizeof(detail), "%s: no module names looked up",
				 errno_describe(r));
			r = machine_add_input(m, path, input_status_from_errno(r), r, detail);
			return r < 0 ? r : 0;
		}
		r = sandbox_add_file(sb, kmod_files[i], buf, len);
		if (r < 0)
			return r == -ENOMEM ? r : machine_add_input(
				m, dir, INPUT_INVALID, r,
				"cannot copy the indexes for libkmod: no module names");
	}
	return 1;
}

/* libkmod, for a lookup only: loaded then, before the lookup child starts. */
#define KMOD_SYMBOLS(X) \
	X(kmod_new) \
	X(kmod_unref) \
	X(kmod_set_log_fn) \
	X(kmod_module_new_from_lookup) \
	X(kmod_module_get_module) \
	X(kmod_module_get_name) \
	X(kmod_module_unref) \
	X(kmod_module_unref_list)
DLOPEN_LIBRARY(kmod_load, "libkmod.so.2", KMOD_SYMBOLS)

/* Limits of the lookup child: libkmod trusts its index files, a snapshot's may be crafted. */
static const struct sandbox_limits lookup_limits = {
	.seconds = 3,
	.memory = 512u << 20,
	.max_output = 16u << 20,
};

/* In the child: look up every unbound device's modalias, "index\tmodule" lines to out. */
static int lookup_all(const char *dir, FILE *out, void *data)
{
	static const char *const no_config[] = { NULL }; /* an empty vector: no modprobe.d read */
	struct machine *m = data;
	struct kmod_ctx *ctx;
	int r = 0;

	unsetenv("KMOD_LOG"); /* sym_kmod_new() logs to stderr before sym_kmod_set_log_fn() can stop it */
	ctx = sym_kmod_new(dir, no_config);
	if (!ctx)
		return -ENOMEM;
	sym_kmod_set_log_fn(ctx, kmod_quiet, NULL);
	for (size_t i = 0; r >= 0 && i < m->n_devices; i++) {
		struct device *d = &m->devices[i];
		struct kmod_list *list = NULL;

		if (!wants_module(d))
			continue;
		r = sym_kmod_module_new_from_lookup(ctx, d->modalias, &list);
		if (r != -ENOMEM)
			r = 0; /* not found, or an index absent (-ENOSYS): no module */
		if (r == 0 && list) {
			struct kmod_module *mod = sym_kmod_module_get_module(list);
			const char *name = sym_kmod_module_get_name(mod);
			if (name && !strpbrk(name, "\t\n"))
				fprintf(out, "%zu\t%s\n", i, name);
			sym_kmod_module_unref(mod);
		}
		sym_kmod_module_unref_list(list);
	}
	sym_kmod_unref(ctx);
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

int read_modules(struct sysroot *sr, struct machine *m)
{
	_cleanup_free_ char *input = NULL, *out = NULL;
	_cleanup_(sandbox_freep) struct sandbox *sb = NULL;
	const char *release = m->release.value;
	bool wanted = false;
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
	r = sysroot_stat(sr, input, &st);
	if (r == 0 && !S_ISDIR(st.st_mode))
		r = -ENOTDIR;
	if (r == -ENOMEM)
		return r;
	if (r < 0) /* no modules installed (containers, minimal VMs): recorded */
		return machine_add_input_errno(m, input, r);

	_cleanup_free_ char *why = NULL;
	if (kmod_load(&why) < 0)
		return machine_add_input(m, input, INPUT_MISSING, ELIBACC,
					 why ? why : "cannot load libkmod.so.2: no module names");
	r = sandbox_new(&sb);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return machine_add_input(m, input, INPUT_INVALID, r,
					 "no private directory for libkmod in $TMPDIR: no module names");
	r = copy_files(sr, m, input, sb);
	if (r <= 0)
		return r; /* a file could not be read (recorded), or -ENOMEM */
	r = sandbox_run(sb, &lookup_limits, lookup_all, m, &out, NULL);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return machine_add_input(m, input, INPUT_INVALID, r,
					 "cannot run libkmod: no module names");
	if (r == 0)
		return machine_add_input(m, input, INPUT_INVALID, EBADMSG,
					 "libkmod could not look the modaliases up (a malformed "
					 "index?): no module names");
	r = apply_results(m, out);
	if (r < 0)
		return r;
	return machine_add_input(m, input, INPUT_OK, 0, NULL);
}
