/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udev database extras for the report (the names users know a device by):
 * ID_PATH, ID_VENDOR_FROM_DATABASE, ID_MODEL_FROM_DATABASE, ID_SERIAL and a
 * /dev/disk/by-path link. Live only, and the one documented exception to
 * the sysroot rule: libudev reads sysfs and run/udev/data itself. A snapshot
 * never gets the host's database. None of it changes a verdict.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libudev.h>

#include "readers/readers.h"
#include "readers/udev.h"
#include "shared/dlopen-lib.h"
#include "shared/macro.h"
#include "shared/path.h"
#include "shared/text.h"


/* libudev, live runs only: loaded then. */
#define UDEV_SYMBOLS(X) \
	X(udev_new) \
	X(udev_unref) \
	X(udev_device_unref) \
	X(udev_device_new_from_syspath) \
	X(udev_device_new_from_subsystem_sysname) \
	X(udev_device_get_property_value) \
	X(udev_device_get_devlinks_list_entry) \
	X(udev_list_entry_get_name) \
	X(udev_list_entry_get_next)
DLOPEN_LIBRARY(udev_dlopen, "libudev.so.1", UDEV_SYMBOLS)

/* 0, or the input recorded: no libudev here. */
static int udev_load(struct machine *m, const char *path)
{
	_cleanup_free_ char *why = NULL;
	int r = udev_dlopen(&why);
	if (r == 0)
		return 0;
	r = machine_add_input(m, path, INPUT_MISSING, ELIBACC, why ? why : "cannot load libudev.so.1");
	return r < 0 ? r : 1;
}

/* systemd src/libsystemd/sd-device/device-private.c: one file per device with properties */
#define UDEV_DB "run/udev/data"
#define BY_PATH "/dev/disk/by-path/"

static int udev_db_status(struct sysroot *sr)
{
	struct stat st;
	int r = sysroot_stat(sr, UDEV_DB, &st);

	return r == 0 && !S_ISDIR(st.st_mode) ? -ENOTDIR : r;
}

static int copy_prop(struct udev_device *dev, const char *key, char **field)
{
	const char *v = sym_udev_device_get_property_value(dev, key);

	if (!v || !*v)
		return 0;
	char *s = strdup(v);
	if (!s)
		return -ENOMEM;
	free(*field);
	*field = s;
	return 0;
}

/* The smallest by-path link: libudev lists devlinks in no fixed order. */
static int copy_by_path(struct udev_device *dev, char **field)
{
	struct udev_list_entry *e;
	const char *best = NULL;

	for (e = sym_udev_device_get_devlinks_list_entry(dev); e; e = sym_udev_list_entry_get_next(e))
	{
		const char *name = sym_udev_list_entry_get_name(e);
		if (strncmp(name, BY_PATH, sizeof(BY_PATH) - 1) == 0 &&
		    (!best || strcmp(name, best) < 0))
			best = name;
	}
	if (!best)
		return 0;
	char *s = strdup(best);
	if (!s)
		return -ENOMEM;
	free(*field);
	*field = s;
	return 0;
}

/* The keys, in the order of prop_field()'s members. */
static const char *const props[] = {
	"ID_PATH", "ID_VENDOR_FROM_DATABASE", "ID_MODEL_FROM_DATABASE", "ID_SERIAL",
	"DEVLINK_BY_PATH",
};

/* Member i of u (member pointers, not offsetof casts: -Wcast-align on arm). */
static char **prop_field(struct udev_props *u, size_t i)
{
	char **f[] = { &u->id_path, &u->vendor_db, &u->model_db, &u->serial, &u->by_path };
	_Static_assert(ARRAY_SIZE(f) == ARRAY_SIZE(props), "one member per key");
	return f[i];
}

int udev_props_format(const struct udev_props *u, char **ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
		const char *v = *prop_field((struct udev_props *)u, i);
		if (v && !strchr(v, '\n'))
			fprintf(f, "%s=%s\n", props[i], v);
	}
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	*ret = buf;
	return 0;
}

int udev_props_parse(const char *buf, size_t len, struct udev_props *u)
{
	struct line_iter it;
	struct line l;

	if (text_has_nul(buf, len))
		return -EBADMSG;
	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		const char *eq = memchr(l.s, '=', l.len);
		if (!eq || eq + 1 == l.s + l.len)
			continue;
		size_t klen = (size_t)(eq - l.s);
		for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
			char **field = prop_field(u, i);
			if (klen != strlen(props[i]) || memcmp(l.s, props[i], klen) != 0)
				continue;
			char *v = strndup(eq + 1, l.len - klen - 1);
			if (!v)
				return -ENOMEM;
			free(*field);
			*field = v;
		}
	}
	return 0;
}

/* A snapshot's udev properties file dir/name; absent is fine. */
static int read_props_file(struct sysroot_dir *dir, struct machine *m, const char *name,
			   struct udev_props **ret)
{
	_cleanup_free_ char *buf = NULL, *path = NULL;
	size_t len;
	int r = sysroot_dir_read_file(dir, name, 65536, &buf, &len);

	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT)
		return 0;
	if (r == 0) {
		struct udev_props u = { 0 };
		r = udev_props_parse(buf, len, &u);
		if (r == 0)
			r = udev_props_keep(ret, &u);
		udev_props_done(&u);
		if (r != -EBADMSG)
			return r;
	}
	if (!(path = path_join(sysroot_dir_path(dir), name)))
		return -ENOMEM;
	if (r == -EBADMSG)
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG, "binary content");
	return machine_add_input_errno(m, path, r);
}

/* The snapshot's directory of properties files, when it was captured with them. */
static int open_snapshot(struct sysroot *sr, const char *path, struct sysroot_dir **ret)
{
	struct stat st;
	int r = sysroot_stat(sr, path, &st);

	if (r == -ENOMEM)
		return r;
	if (r < 0 || !S_ISDIR(st.st_mode))
		return 0; /* captured without udev, or not a capture: nothing to add */
	r = sysroot_dir_new(sr, ret, "%s", path);
	return r < 0 ? r : 1;
}

static int read_udev_snapshot(struct sysroot *sr, struct machine *m)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
	int r = open_snapshot(sr, UDEV_SNAPSHOT, &dir);

	if (r <= 0)
		return r;
	for (size_t i = 0; i < m->n_devices; i++) {
		r = read_props_file(dir, m, m->devices[i].id, &m->devices[i].udev);
		if (r < 0)
			return r;
	}
	return machine_add_input(m, UDEV_SNAPSHOT, INPUT_OK, 0, NULL);
}

int read_udev(struct sysroot *sr, struct machine *m)
{
	struct udev *udev;
	int r;

	if (!sysroot_is_live(sr))
		return read_udev_snapshot(sr, m);
	r = udev_db_status(sr);
	if (r == -ENOMEM)
		return r;
	if (r < 0) /* no udevd (containers, this kind of VM): nothing to add */
		return machine_add_input_errno(m, UDEV_DB, r);
	r = udev_load(m, UDEV_DB);
	if (r != 0)
		return r < 0 ? r : 0;
	udev = sym_udev_new();
	if (!udev)
		return -ENOMEM;
	for (size_t i = 0; r >= 0 && i < m->n_devices; i++) {
		struct device *d = &m->devices[i];
		_cleanup_free_ char *path = NULL;

		if (!d->syspath)
			continue;
		if (asprintf(&path, "/%s", d->syspath) < 0) {
			r = -ENOMEM;
			break;
		}
		struct udev_device *dev = sym_udev_device_new_from_syspath(udev, path);
		if (!dev) {
			r = errno == ENOMEM ? -ENOMEM : 0;
			continue;
		}
		struct udev_props u = { 0 };
		if ((r = copy_prop(dev, "ID_PATH", &u.id_path)) >= 0 &&
		    (r = copy_prop(dev, "ID_VENDOR_FROM_DATABASE", &u.vendor_db)) >= 0 &&
		    (r = copy_prop(dev, "ID_MODEL_FROM_DATABASE", &u.model_db)) >= 0 &&
		    (r = copy_prop(dev, "ID_SERIAL", &u.serial)) >= 0)
			r = udev_props_keep(&d->udev, &u);
		udev_props_done(&u);
		sym_udev_device_unref(dev);
	}
	sym_udev_unref(udev);
	if (r < 0)
		return r;
	return machine_add_input(m, UDEV_DB, INPUT_OK, 0, NULL);
}

static int read_udev_blocks_snapshot(struct sysroot *sr, struct machine *m)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
	int r = open_snapshot(sr, UDEV_SNAPSHOT "/block", &dir);

	if (r <= 0)
		return r;
	for (size_t i = 0; i < m->n_blocks; i++) {
		r = read_props_file(dir, m, m->blocks[i].disk, &m->blocks[i].udev);
		if (r < 0)
			return r;
	}
	return 0;
}

int read_udev_blocks(struct sysroot *sr, struct machine *m)
{
	struct udev *udev;
	int r;

	if (m->n_blocks == 0)
		return 0;
	if (!sysroot_is_live(sr))
		return read_udev_blocks_snapshot(sr, m);
	r = udev_db_status(sr);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	r = udev_load(m, UDEV_DB);
	if (r != 0)
		return r < 0 ? r : 0;
	udev = sym_udev_new();
	if (!udev)
		return -ENOMEM;
	for (size_t i = 0; r >= 0 && i < m->n_blocks; i++) {
		struct block_queue *b = &m->blocks[i];
		struct udev_device *dev =
			sym_udev_device_new_from_subsystem_sysname(udev, "block", b->disk);

		if (!dev) {
			r = errno == ENOMEM ? -ENOMEM : 0;
			continue;
		}
		struct udev_props u = { 0 };
		if ((r = copy_prop(dev, "ID_PATH", &u.id_path)) >= 0 &&
		    (r = copy_prop(dev, "ID_SERIAL", &u.serial)) >= 0 &&
		    (r = copy_by_path(dev, &u.by_path)) >= 0)
			r = udev_props_keep(&b->udev, &u);
		udev_props_done(&u);
		sym_udev_device_unref(dev);
	}
	sym_udev_unref(udev);
	return r;
}
