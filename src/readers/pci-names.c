/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * PCI vendor and device names from the pci.ids found in the sysroot, looked
 * up with libpci (pciutils lib/names.c pci_lookup_name). libpci opens the
 * list itself, so the file is read through the sysroot layer and handed over
 * as an anonymous memfd: no path outside the sysroot is ever opened. Neither
 * pci_init() nor pci_scan_bus() is called: nothing of the host's bus is read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pci/pci.h>

#include "readers/readers.h"
#include "shared/macro.h"

/* pci.ids is ~1.4 MiB today; a generous cap against a runaway file. */
#define PCI_IDS_MAX (8u << 20)

/* Where pciutils and hwdata install the list (pciutils Makefile IDSDIR, distributions). */
static const char *const ids_paths[] = {
	"usr/share/misc/pci.ids",
	"usr/share/hwdata/pci.ids",
	"var/lib/pciutils/pci.ids",
};

/*
 * libpci reports a malformed list through a->error, which must not return
 * (the default one calls exit()): jump back to read_pci_names instead. The
 * list was fully read and closed by then (lib/names-parse.c pci_load_name_list).
 */
static jmp_buf error_jump;
static char error_text[128];

static void __attribute__((noreturn)) _printf_(1, 2) pci_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	vsnprintf(error_text, sizeof(error_text), msg, ap);
	va_end(ap);
	longjmp(error_jump, 1);
}

static void _printf_(1, 2) pci_quiet(char *msg, ...)
{
}

static int find_ids(struct sysroot *sr, const char **ret)
{
	for (size_t i = 0; i < ARRAY_SIZE(ids_paths); i++) {
		struct stat st;
		if (sysroot_stat(sr, ids_paths[i], &st) == 0 && S_ISREG(st.st_mode)) {
			*ret = ids_paths[i];
			return 1;
		}
	}
	return 0;
}

/* A memfd holding the file, or -errno. */
static int ids_memfd(const char *buf, size_t len)
{
	_cleanup_close_ int fd = memfd_create("pci.ids", MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (len > 0) {
		ssize_t n = write(fd, buf, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return TAKE_FD(fd);
}

/* "Vendor Device", or "Vendor Device 1234" when only the vendor is known (as lspci prints). */
static int lookup(struct pci_access *pacc, const struct device *d, char **ret)
{
	char buf[256];
	const char *s;

	s = pci_lookup_name(pacc, buf, sizeof(buf),
			    PCI_LOOKUP_VENDOR | PCI_LOOKUP_DEVICE | PCI_LOOKUP_NO_NUMBERS,
			    d->vendor, d->device_id);
	if (s)
		return (*ret = strdup(s)) ? 0 : -ENOMEM;
	s = pci_lookup_name(pacc, buf, sizeof(buf), PCI_LOOKUP_VENDOR | PCI_LOOKUP_NO_NUMBERS,
			    d->vendor);
	if (!s)
		return 0; /* unknown vendor: no name rather than a number */
	return asprintf(ret, "%s Device %04x", s, d->device_id) < 0 ? -ENOMEM : 0;
}

/* Name every PCI device with ids; -ENOMEM, -EBADMSG (list malformed, error_text says why). */
static int name_devices(struct machine *m, int fd)
{
	struct pci_access *pacc;
	char path[64];
	int r = 0;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	pacc = pci_alloc();
	if (!pacc)
		return -ENOMEM;
	pacc->error = pci_error;
	pacc->warning = pci_quiet;
	pacc->debug = pci_quiet;
	/* only the local list: no udev hwdb, no DNS, no ~/.cache/pci-ids */
	pacc->id_lookup_mode = PCI_LOOKUP_NO_HWDB;
	char *p = strdup(path);
	if (!p) {
		pci_cleanup(pacc);
		return -ENOMEM;
	}
	pci_set_name_list_path(pacc, p, 1);

	/* a->error comes after the list is read and closed: nothing is left open by the jump */
	if (setjmp(error_jump) != 0) {
		pci_cleanup(pacc);
		return strncmp(error_text, "Out of memory", 13) == 0 ? -ENOMEM : -EBADMSG;
	}
	if (!pci_load_name_list(pacc)) {
		pci_cleanup(pacc);
		return -EIO;
	}
	for (size_t i = 0; r == 0 && i < m->n_devices; i++) {
		struct device *d = &m->devices[i];
		if (d->bus != DEV_BUS_PCI || !d->have_pci_ids || d->name)
			continue;
		r = lookup(pacc, d, &d->name);
	}
	pci_cleanup(pacc);
	return r;
}

/* libpci says "Parse error at /proc/self/fd/N, line L": name the real file instead. */
static int record_list_error(struct machine *m, const char *path, int fd)
{
	char fdpath[64], detail[sizeof(error_text) + 128];
	const char *at;
	size_t len = strcspn(error_text, "\n");

	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
	at = strstr(error_text, fdpath);
	if (at && (size_t)(at - error_text) + strlen(fdpath) <= len)
		snprintf(detail, sizeof(detail), "%.*s%s%.*s", (int)(at - error_text), error_text,
			 path, (int)(len - (size_t)(at - error_text) - strlen(fdpath)),
			 at + strlen(fdpath));
	else
		snprintf(detail, sizeof(detail), "%.*s", (int)len, error_text);
	return machine_add_input(m, path, INPUT_INVALID, EBADMSG, detail);
}

int read_pci_names(struct sysroot *sr, struct machine *m)
{
	_cleanup_free_ char *buf = NULL;
	_cleanup_close_ int fd = -1;
	const char *path = NULL;
	bool wanted = false;
	size_t len;
	int r;

	for (size_t i = 0; i < m->n_devices && !wanted; i++)
		wanted = m->devices[i].bus == DEV_BUS_PCI && m->devices[i].have_pci_ids;
	if (!wanted)
		return 0; /* nothing to name: the list is not even looked for */

	if (!find_ids(sr, &path)) /* never the host's list for a snapshot: it may not match */
		return machine_add_input(
			m, ids_paths[0], INPUT_MISSING, ENOENT,
			"no pci.ids in usr/share/misc, usr/share/hwdata or var/lib/pciutils");
	r = sysroot_read_file(sr, path, PCI_IDS_MAX, &buf, &len);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return machine_add_input_errno(m, path, r);
	/* libpci gunzips what it is given, without a bound: only the plain text list */
	if (len >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b)
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG,
					 "compressed pci.ids: refused, it could expand without bound");
	fd = ids_memfd(buf, len);
	if (fd == -ENOMEM)
		return fd;
	if (fd < 0)
		return machine_add_input(m, path, INPUT_INVALID, -fd,
					 "cannot hand the list to libpci");
	r = name_devices(m, fd);
	if (r == -ENOMEM)
		return r;
	if (r == -EBADMSG)
		return record_list_error(m, path, fd);
	if (r < 0)
		return machine_add_input(m, path, INPUT_INVALID, -r,
					 "libpci could not open the list");
	m->pci_ids_source = strdup(path);
	if (!m->pci_ids_source)
		return -ENOMEM;
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}
