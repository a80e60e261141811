/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Xen: sys/hypervisor/type (drivers/xen/sys-hypervisor.c type_show: "xen"
 * for PV, HVM and PVH guests alike), sys/hypervisor/guest_type (4.12+:
 * "PV", "HVM", "PVH") and proc/xen/capabilities (drivers/xen/xenfs:
 * "control_d" in the initial domain). A PV domain bounces through
 * xen-swiotlb by machine address, which the guest's RAM map does not show.
 */
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/macro.h"
#include "shared/string-table.h"
#include "shared/text.h"

#define HYP_VALUE_MAX 4096

/* The file's first line without surrounding blanks; *ret NULL when empty. */
static int read_trimmed(struct sysroot *sr, const char *path, char **ret)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = sysroot_read_file(sr, path, HYP_VALUE_MAX, &buf, &len);

	if (r < 0)
		return r;
	if (text_has_nul(buf, len))
		return -EBADMSG;
	const char *nl = memchr(buf, '\n', len);
	const char *end = nl ? nl : buf + len;
	const char *s = skip_blanks(buf, end);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	*ret = NULL;
	if (end == s)
		return 0;
	*ret = strndup(s, (size_t)(end - s));
	return *ret ? 0 : -ENOMEM;
}

static const char *const xen_guest_type_table[] = {
	[XEN_GUEST_PV] = "PV",
	[XEN_GUEST_HVM] = "HVM",
	[XEN_GUEST_PVH] = "PVH",
};
/* no guest_type file (before 4.12): unknown; a word not above: other */
DEFINE_PRIVATE_STRING_TABLE_LOOKUP_FROM_STRING_OR(xen_guest_type, enum xen_guest_type,
						  XEN_GUEST_UNKNOWN, XEN_GUEST_OTHER);

static int read_type(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "sys/hypervisor/type";
	_cleanup_free_ char *type = NULL, *guest_type = NULL;
	struct stat st;
	int r;

	/* No sys/hypervisor (CONFIG_SYS_HYPERVISOR unset) is normal off Xen: nothing to record. */
	r = sysroot_stat(sr, "sys/hypervisor", &st);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;

	r = read_trimmed(sr, path, &type);
	if (r == -ENOMEM)
		return r;
	if (r == -EBADMSG)
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG, "binary content (NUL byte)");
	if (r < 0)
		return machine_add_input_errno(m, path, r);
	if (!type)
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG, "empty");
	m->hyp.type = strcmp(type, "xen") == 0 ? HYPERVISOR_XEN : HYPERVISOR_OTHER;

	r = read_trimmed(sr, "sys/hypervisor/guest_type", &guest_type);
	if (r == -ENOMEM)
		return r;
	m->hyp.xen_guest_type = xen_guest_type_from_string(guest_type);
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}

/* xenfs capabilities: "control_d" marks dom0. */
static int read_capabilities(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "proc/xen/capabilities";
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = sysroot_read_file(sr, path, HYP_VALUE_MAX, &buf, &len);

	if (r == -ENOMEM)
		return r;
	if (r == -ENOENT || r == -ENOTDIR)
		return 0; /* no xenfs: not dom0 as far as this shows */
	if (r < 0)
		return machine_add_input_errno(m, path, r);
	m->hyp.xen_dom0 = memmem(buf, len, "control_d", strlen("control_d")) != NULL;
	return machine_add_input(m, path, INPUT_OK, 0, NULL);
}

int read_hypervisor(struct sysroot *sr, struct machine *m)
{
	int r = read_type(sr, m);
	if (r < 0)
		return r;
	return read_capabilities(sr, m);
}
