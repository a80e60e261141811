/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --what-if KEY=VALUE: the machine as it would be after a change it has not
 * had yet (another kernel release, command-line words, more or less RAM, a
 * new card or another mask), so that the same analysis judges both and
 * --diff's comparison says what the change does. This layer edits a struct
 * machine the readers filled; it sits above src/analysis (whose era rules
 * it asks, as the analysis would) and below src/cli. Pure: no I/O.
 *
 * What the edit cannot know (a driver of the new kernel that sets another
 * mask, where a new kernel places its pool) is written down as an
 * assumption, with the device it is about: the output lists them, and a
 * difference they explain is not the tool's error.
 */
#pragma once

#include "shared/macro.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/model.h"
#include "machine.h"

enum what_if_key {
	WHAT_IF_KERNEL,  /* kernel=RELEASE[,stable=X.Y.Z] */
	WHAT_IF_CMDLINE, /* cmdline="WORDS": added, or removed with a leading '-' */
	WHAT_IF_RAM,     /* ram=SIZE | +SIZE | -SIZE | +SIZE@ADDR */
	WHAT_IF_DEVICE,  /* device=ID,mask=BITS|0xHEX[,like=DEVICE][,driver=NAME] */
	_WHAT_IF_KEY_MAX,
	_WHAT_IF_KEY_INVALID = -EINVAL,
};

const char *what_if_key_to_string(enum what_if_key k);
enum what_if_key what_if_key_from_string(const char *s);

enum what_if_ram_op {
	WHAT_IF_RAM_TOTAL,  /* SIZE: the RAM grown or shrunk at its top to this total */
	WHAT_IF_RAM_GROW,   /* +SIZE: added above the current end */
	WHAT_IF_RAM_SHRINK, /* -SIZE: taken from the top */
	WHAT_IF_RAM_ADD_AT, /* +SIZE@ADDR: a range added there (memmap=SIZE@ADDR's shape) */
};

#define WHAT_IF_ID_MAX 64

/* One change as parsed; its strings point into the argument, which must outlive it. */
struct what_if_change {
	enum what_if_key key;
	const char *arg;             /* "kernel=6.12.57", as given */
	const char *value;           /* after "KEY=" */
	union {
		struct {
			uint32_t version;    /* KV() of the release */
			char release[65];    /* as given, without ",stable=" (a utsname field's size) */
			char stable[32];     /* ",stable=5.10.223" behind an ABI name; "" none */
		} kernel;
		struct {
			enum what_if_ram_op op;
			uint64_t size, at;
		} ram;
		struct {
			char id[WHAT_IF_ID_MAX];
			uint64_t mask;       /* the full mask: BITS widened as DMA_BIT_MASK() */
			char like[WHAT_IF_ID_MAX];   /* "": none */
			char driver[WHAT_IF_ID_MAX]; /* "": the like device's, else "what-if" */
		} device;
	};
};

/* "KEY=VALUE" into *ret: 0, or -EINVAL with *ret_why a static phrase. */
_must_check_ int what_if_parse(const char *arg, struct what_if_change *ret, const char **ret_why) _nonnull_all_;

/* A size as dd(1) and the kernel's memparse() read it: 512M, 4G, 0x1000, plain bytes. 0 or -EINVAL. */
_must_check_ int what_if_parse_size(const char *s, size_t len, uint64_t *ret) _nonnull_all_;

/* What the edit could not know, and about what (a device id; NULL the machine). */
struct what_if_assumption {
	char *device;
	char *text;
};

struct what_if_notes {
	char **applied;              /* each change in words, in the order given */
	size_t n_applied;
	struct what_if_assumption *assumptions;
	size_t n_assumptions;
	struct assumed_mask *masks;  /* device=: masks the after side audits with (owned) */
	size_t n_masks;
};

void what_if_notes_done(struct what_if_notes *n);

/* One assumption, printf-style. 0 or -ENOMEM. */
_must_check_ int what_if_assume(struct what_if_notes *n, const char *device, const char *fmt, ...)
	_printf_(3, 4) _nonnull_(1, 3);
/* One applied change in words, printf-style. 0 or -ENOMEM. */
_must_check_ int what_if_applied(struct what_if_notes *n, const char *fmt, ...) _printf_(2, 3) _nonnull_all_;

/*
 * What both sides leave out: the events today's kernel logged or a window
 * saw (mapping failures, "swiotlb buffer is full", bounces, pool use) tell
 * what this kernel did, not what another configuration would; both sides
 * are judged without them so that the comparison shows only the change.
 * Said in n. 0 or -ENOMEM.
 */
_must_check_ int what_if_set_aside_events(struct machine *m, struct what_if_notes *n) _nonnull_all_;

/*
 * The changes applied to m, in order; m becomes the machine after them.
 * 0; -EINVAL when one cannot apply to this machine (an unknown device, RAM
 * that is not known, a removal below nothing), with *ret_why saying why
 * (static, or in buf of WHAT_IF_WHY_MAX); -ENOMEM.
 */
#define WHAT_IF_WHY_MAX 256
_must_check_ int what_if_apply(struct machine *m, const struct what_if_change *c, size_t n,
			       struct what_if_notes *notes, char *why) _nonnull_all_;

/* Each key's part of what_if_apply(), in its own file. */
int what_if_apply_kernel(struct machine *m, const struct what_if_change *c, struct what_if_notes *n, char *why);
int what_if_apply_cmdline(struct machine *m, const struct what_if_change *c, struct what_if_notes *n, char *why);
int what_if_apply_ram(struct machine *m, const struct what_if_change *c, struct what_if_notes *n, char *why);
int what_if_apply_device(struct machine *m, const struct what_if_change *c, struct what_if_notes *n, char *why);

/*
 * The RAM cut as the kernel's mem= cuts it on m's architecture (an address
 * ceiling on x86, an amount counted from the bottom elsewhere), zones and
 * MemTotal following. Shared by ram=-SIZE and cmdline="mem=". 0, -EINVAL (why), -ENOMEM.
 */
int what_if_ram_limit(struct machine *m, uint64_t bytes, bool address_ceiling, struct what_if_notes *n, char *why);

/*
 * The swiotlb pool around the changes: today's facts and what the era rules
 * say of them (pool.c). After the changes the pool today's kernel logged is
 * kept where the rules give the same answer before and after; else the
 * rules decide, its place taken from today's pool where one stays of the
 * same size.
 */
struct what_if_pool {
	struct swiotlb_info sw;      /* today's, as read */
	bool kmsg_from_boot;
	int active;                  /* enum tristate the rules give without the log */
	uint64_t bytes;              /* the size they give; 0 unknown */
};

_must_check_ int what_if_pool_before(const struct machine *m, struct what_if_pool *ret) _nonnull_all_;
_must_check_ int what_if_pool_after(struct machine *m, const struct what_if_pool *before,
				    struct what_if_notes *n) _nonnull_all_;
