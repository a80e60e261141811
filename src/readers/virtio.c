/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * virtio devices only use the DMA API when they offer VIRTIO_F_ACCESS_PLATFORM
 * (bit 33) or under Xen (drivers/virtio/virtio_ring.c vring_use_dma_api);
 * otherwise the rings carry guest-physical addresses and no mask applies.
 * sys/bus/virtio/devices/virtioN/features (drivers/virtio/virtio.c
 * features_show): one '0' or '1' per feature bit, bit 0 first.
 */
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/macro.h"
#include "shared/path.h"

#define VIRTIO_F_ACCESS_PLATFORM 33

/* Feature bit 33 of a features file: 0 or 1, -1 when malformed. */
int virtio_parse_access_platform(const char *buf, size_t len)
{
	while (len && (buf[len - 1] == '\n'))
		len--;
	if (len <= VIRTIO_F_ACCESS_PLATFORM)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (buf[i] != '0' && buf[i] != '1')
			return -1;
	return buf[VIRTIO_F_ACCESS_PLATFORM] == '1';
}

static int read_one(struct sysroot *sr, struct machine *m, struct device *d)
{
	_cleanup_sysroot_dir_ struct sysroot_dir *dir = NULL;
	struct strv names = { 0 };
	int r = sysroot_dir_new(sr, &dir, "%s", d->syspath);

	if (r == 0)
		r = sysroot_dir_list(dir, &names);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_sysroot_dir_ struct sysroot_dir *vdev = NULL;
		_cleanup_free_ char *buf = NULL;
		size_t len;
		if (strncmp(names.v[i], "virtio", 6) != 0 || !names.v[i][6])
			continue;
		r = sysroot_dir_new_at(dir, &vdev, "%s", names.v[i]);
		if (r < 0)
			break;
		r = sysroot_dir_read_file(vdev, "features", 4096, &buf, &len);
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			r = 0;
			continue;
		}
		int ap = virtio_parse_access_platform(buf, len);
		if (ap >= 0) {
			opt_set(&d->virtio_access_platform, ap == 1);
			break;
		}
		_cleanup_free_ char *path = path_join(sysroot_dir_path(vdev), "features");
		r = path ? machine_add_input(m, path, INPUT_INVALID, EBADMSG,
					     "expected a string of 0 and 1, one per feature bit")
			 : -ENOMEM;
		break;
	}
	strv_done(&names);
	return r;
}

int read_virtio(struct sysroot *sr, struct machine *m)
{
	for (size_t i = 0; i < m->n_devices; i++) {
		struct device *d = &m->devices[i];
		/* only virtio transports (PCI, MMIO as on QEMU's arm virt, s390 CCW):
		 * listing every device directory costs at 10,000 */
		if (!d->driver || !d->syspath ||
		    (strcmp(d->driver, "virtio-pci") != 0 && strcmp(d->driver, "virtio-mmio") != 0 &&
		     strcmp(d->driver, "virtio_ccw") != 0))
			continue;
		int r = read_one(sr, m, d);
		if (r < 0)
			return r;
	}
	return 0;
}
