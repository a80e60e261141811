/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * dev/kmsg (Documentation/ABI/testing/dev-kmsg, kernel/printk/printk.c
 * devkmsg_read): one record per line, "PRI,SEQ,TS_USEC,FLAGS[,...];MESSAGE",
 * then " KEY=VALUE" continuation lines (SUBSYSTEM=, DEVICE=). Bytes below
 * ' ', above '~' and the backslash itself are escaped as \xNN.
 *
 * Lines looked for: the swiotlb pool (kernel/dma/swiotlb.c), confidential
 * computing (arch/x86/mm/mem_encrypt.c, arch/arm64/kernel/rsi.c), DMA
 * overflows (kernel/dma/direct.h), pool overflows (kernel/dma/swiotlb.c),
 * 32-bit ARM's control register (arch/arm/kernel/setup.c) and the probe lines
 * of sdhci, dw_mmc and stmmac that say which DMA mask the hardware let them set.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readers/readers.h"
#include "shared/array.h"
#include "shared/kernel-defs.h"
#include "shared/macro.h"
#include "shared/strbuf.h"
#include "shared/text.h"

#define KMSG_MAX (16u << 20)
/* A split "Memory Encryption Features active:" line has at most a handful of pr_cont pieces. */
#define COCO_FRAGMENTS_MAX 8
#define COCO_LINE_MAX 256

struct kmsg_ctx {
	struct machine *m;
	unsigned skipped;    /* malformed records, not used */
	char *scratch;       /* the unescaped message */
	size_t scratch_cap;
	/* "Memory Encryption Features active: " whose pr_cont pieces came as separate records */
	bool coco_open;
	bool used;           /* the record being handled said something: a capture keeps it */
	unsigned coco_fragments;
	bool coco_sev, coco_sme, coco_tdx;
	char coco_line[COCO_LINE_MAX];
	size_t coco_len;
	struct strbuf *kept; /* the records a capture keeps (not --capture-full-log); NULL: none */
};

static const char *find(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle));
}

static bool starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

/* Undo devkmsg's \xNN escaping into ctx->scratch; returns the length or -ENOMEM. */
static ssize_t unescape(struct kmsg_ctx *ctx, const char *s, size_t len)
{
	if (len + 1 > ctx->scratch_cap) {
		char *n = realloc(ctx->scratch, len + 1);
		if (!n)
			return -ENOMEM;
		ctx->scratch = n;
		ctx->scratch_cap = len + 1;
	}
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		int hi, lo;
		if (s[i] == '\\' && i + 3 < len && s[i + 1] == 'x' &&
		    (hi = hex_digit(s[i + 2])) >= 0 && (lo = hex_digit(s[i + 3])) >= 0) {
			ctx->scratch[o++] = (char)(hi << 4 | lo);
			i += 3;
		} else {
			ctx->scratch[o++] = s[i];
		}
	}
	ctx->scratch[o] = '\0';
	return (ssize_t)o;
}

/* Parse hex (with or without 0x) from s up to the first byte in stop, or the end. */
static const char *parse_hex_until(const char *s, const char *end, const char *stop, uint64_t *ret)
{
	const char *p = s;
	while (p < end && !strchr(stop, *p))
		p++;
	if (parse_u64(s, (size_t)(p - s), 16, ret) < 0)
		return NULL;
	return p;
}

static const char *parse_dec_until(const char *s, const char *end, const char *stop, uint64_t *ret)
{
	const char *p = s;
	while (p < end && !strchr(stop, *p))
		p++;
	if (parse_u64(s, (size_t)(p - s), 10, ret) < 0)
		return NULL;
	return p;
}

/* s at literal lit: the position after it, else NULL. */
static const char *expect(const char *s, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	if (!s || (size_t)(end - s) < n || memcmp(s, lit, n) != 0)
		return NULL;
	return s + n;
}

/* "[mem A-B]" at s: A and B as printed. */
static bool parse_mem_range(const char *s, const char *end, uint64_t *a, uint64_t *b)
{
	s = expect(s, end, "[mem ");
	if (!s || !(s = parse_hex_until(s, end, "-]", a)))
		return false;
	s = expect(s, end, "-");
	if (!s || !(s = parse_hex_until(s, end, "]", b)))
		return false;
	return expect(s, end, "]") != NULL;
}

/*
 * swiotlb_print_info(). "software IO TLB: mapped [mem A-B] (N MB)" (4.x on)
 * prints io_tlb_end / pool->end: B is exclusive. The older "software IO TLB
 * [mem A-B] ... mapped at [...]" (3.x) printed io_tlb_end too, except on the
 * kernels where io_tlb_start was a virtual pointer, which printed pend - 1.
 * The pool is a whole number of IO_TLB_SIZE slots, so whichever of B - A
 * and B + 1 - A is a multiple of it says which; when neither is, B is taken
 * as inclusive.
 */
static bool match_swiotlb_pool(struct kmsg_ctx *ctx, const char *s, size_t len)
{
	const char *end = s + len, *p;
	struct swiotlb_info *sw = &ctx->m->swiotlb;
	uint64_t a, b;

	if ((p = find(s, len, "software IO TLB: mapped "))) {
		if (!parse_mem_range(p + strlen("software IO TLB: mapped "), end, &a, &b) || b <= a)
			return false;
	} else if ((p = find(s, len, "software IO TLB [mem "))) {
		if (!parse_mem_range(p + strlen("software IO TLB "), end, &a, &b) || b < a)
			return false;
		bool exclusive = b > a && (b - a) % IO_TLB_SIZE == 0;
		if (!exclusive) {
			if (b == UINT64_MAX)
				return false;
			b++;
		}
	} else {
		return false;
	}
	/* swiotlb pools are at most a few GiB (IO_TLB_DEFAULT_SIZE 64 MiB): past 1 TiB is junk */
	if (b - a > (1ull << 40))
		return false;
	/* Printed again by a late init: the last one describes the pool in use. */
	opt_set(&sw->pool_start, a);
	opt_set(&sw->pool_end, b);
	return true;
}

/* The device name before ": <what>" in a dev_printk/dev_WARN message: "DRIVER DEVNAME: ". */
static char *device_before(const char *s, const char *at)
{
	const char *p = at;
	while (p > s && p[-1] != ' ')
		p--;
	/* a raw NUL would cut the name short: no name rather than a wrong one */
	if (p == at || memchr(p, '\0', (size_t)(at - p)))
		return NULL;
	return strndup(p, (size_t)(at - p));
}

/* DEVICE=+subsystem:name (printk's dev_printk_info): the name, else NULL. */
static char *device_from_dict(const char *v, size_t len)
{
	if (len < 2 || v[0] != '+')
		return NULL;
	const char *colon = memchr(v, ':', len);
	if (!colon || colon + 1 >= v + len)
		return NULL;
	return strndup(colon + 1, (size_t)(v + len - colon - 1));
}

/* The device a dev_printk record names: its DEVICE= (dict_dev) first, else the
 * word before at (at NULL: none); NULL when neither names one, an empty name too. */
static char *record_device(const char *s, const char *at, const char *dict_dev, size_t dict_len)
{
	char *dev = dict_dev ? device_from_dict(dict_dev, dict_len) : NULL;
	if (!dev && at)
		dev = device_before(s, at);
	if (dev && !*dev) {
		free(dev);
		dev = NULL;
	}
	return dev;
}

/* "ADDR+SIZE overflow (mask M, bus limit L)" at s, as kernel/dma/direct.h and swiotlb.c print it. */
static bool parse_overflow_numbers(const char *p, const char *end, struct dma_overflow *o)
{
	return (p = parse_hex_until(p, end, "+", &o->addr)) && (p = expect(p, end, "+")) &&
	       (p = parse_dec_until(p, end, " ", &o->size)) &&
	       (p = expect(p, end, " overflow (mask ")) &&
	       (p = parse_hex_until(p, end, ",", &o->mask)) &&
	       (p = expect(p, end, ", bus limit ")) && parse_hex_until(p, end, ")", &o->bus_limit);
}

/*
 * Append o to *v, named by the record's DEVICE= (dict_dev) or else by the
 * word before at (": ..."). Returns 1, -EBADMSG when neither names a device
 * (dev_printk always does), -ENOMEM.
 */
static int append_overflow(struct dma_overflow **v, size_t *n, const struct dma_overflow *o,
			   const char *s, const char *at, const char *dict_dev, size_t dict_len)
{
	char *dev = record_device(s, at, dict_dev, dict_len);
	if (!dev)
		return -EBADMSG;
	if (array_full(*n)) {
		struct dma_overflow *nv = reallocarray(*v, array_capacity(*n), sizeof(*nv));
		if (!nv) {
			free(dev);
			return -ENOMEM;
		}
		*v = nv;
	}
	(*v)[*n] = *o;
	(*v)[(*n)++].device = dev;
	return 1;
}

/*
 * kernel/dma/direct.h: "DMA addr %pad+%zu overflow (mask %llx, bus limit
 * %llx)." (5.7+, dev_WARN_ONCE); before, kernel/dma/direct.c report_addr():
 * "overflow %pad+%zu of DMA mask %llx bus limit %llx" ("bus mask" before 5.5).
 * Returns 1 matched, 0 not this line, -EBADMSG malformed, -ENOMEM.
 */
static int match_overflow(struct kmsg_ctx *ctx, const char *s, size_t len, const char *dict_dev,
			  size_t dict_len)
{
	const char *end = s + len, *at, *p;
	struct dma_overflow o = { 0 };

	if ((at = find(s, len, ": DMA addr "))) {
		if (!parse_overflow_numbers(at + strlen(": DMA addr "), end, &o))
			return -EBADMSG;
	} else if ((at = find(s, len, ": overflow ")) && find(s, len, " of DMA mask ")) {
		p = at + strlen(": overflow ");
		if (!(p = parse_hex_until(p, end, "+", &o.addr)) || !(p = expect(p, end, "+")) ||
		    !(p = parse_dec_until(p, end, " ", &o.size)) ||
		    !(p = expect(p, end, " of DMA mask ")) ||
		    !(p = parse_hex_until(p, end, " ", &o.mask)))
			return -EBADMSG;
		const char *q = expect(p, end, " bus limit ");
		if (!q)
			q = expect(p, end, " bus mask ");
		if (!q || !parse_hex_until(q, end, " ", &o.bus_limit))
			return -EBADMSG;
	} else {
		return 0;
	}

	return append_overflow(&ctx->m->overflows, &ctx->m->n_overflows, &o, s, at, dict_dev, dict_len);
}

/*
 * kernel/dma/swiotlb.c swiotlb_map(): "swiotlb addr %pad+%zu overflow (mask
 * %llx, bus limit %llx)." (dev_WARN_ONCE, so "DRIVER DEVNAME: " before it; in
 * this form by 5.9, "bus limit" from the 5.5 bus_dma_limit): the bounce slot
 * is beyond the device's reach. Every such line is counted; one that does not
 * parse, or names no device, is malformed and attributed to nobody.
 * Returns 1 matched, 0 not this line, -EBADMSG malformed, -ENOMEM.
 */
static int match_pool_overflow(struct kmsg_ctx *ctx, const char *s, size_t len, const char *dict_dev,
			       size_t dict_len)
{
	static const char lead[] = ": swiotlb addr ";
	const char *end = s + len, *p = find(s, len, "swiotlb addr ");
	struct dma_overflow o = { 0 };

	if (!p || !find(p, (size_t)(end - p), " overflow"))
		return 0;
	ctx->m->swiotlb.pool_overflow_messages++;
	const char *at = p - s >= 2 && memcmp(p - 2, lead, 2) == 0 ? p - 2 : NULL;
	if (!at || !parse_overflow_numbers(at + strlen(lead), end, &o))
		return -EBADMSG;
	return append_overflow(&ctx->m->pool_overflows, &ctx->m->n_pool_overflows, &o, s, at,
			       dict_dev, dict_len);
}

/*
 * kernel/dma/swiotlb.c swiotlb_tbl_map_single(): "swiotlb buffer is full (sz:
 * %zd bytes), total %lu (slots), used %lu (slots)" (dev_warn_ratelimited;
 * lib/swiotlb.c's older form ends after "bytes)"), printed whenever the slot
 * search fails: for want of room, and with room left when no free slot suits
 * the device (swiotlb_area_find_slots: its alignment and segment boundary,
 * reckoned from the pool's bus address). Every line is kept, with what parses
 * of its numbers and device. Returns 1, -ENOMEM.
 */
static int match_swiotlb_full(struct kmsg_ctx *ctx, const char *s, size_t len, const char *at,
			      const char *dict_dev, size_t dict_len)
{
	struct machine *m = ctx->m;
	const char *end = s + len, *p;
	struct swiotlb_full l = { 0 };
	uint64_t v;

	m->swiotlb.full_messages++;
	if ((p = expect(at + strlen("swiotlb buffer is full"), end, " (sz: ")) &&
	    (p = parse_dec_until(p, end, " ", &v)) && (p = expect(p, end, " bytes)"))) {
		opt_set(&l.size, v);
		if ((p = expect(p, end, ", total ")) && (p = parse_dec_until(p, end, " ", &v)) &&
		    (p = expect(p, end, " (slots), used "))) {
			uint64_t total = v;
			if ((p = parse_dec_until(p, end, " ", &v)) && expect(p, end, " (slots)")) {
				opt_set(&l.total, total);
				opt_set(&l.used, v);
			}
		}
	}
	l.device = record_device(s, at - s >= 2 && at[-2] == ':' && at[-1] == ' ' ? at - 2 : NULL,
				 dict_dev, dict_len);
	if (array_full(m->n_swiotlb_full)) {
		struct swiotlb_full *nv =
			reallocarray(m->swiotlb_full, array_capacity(m->n_swiotlb_full), sizeof(*nv));
		if (!nv) {
			free(l.device);
			return -ENOMEM;
		}
		m->swiotlb_full = nv;
	}
	m->swiotlb_full[m->n_swiotlb_full++] = l;
	return 1;
}

/* Append a mask line for dev (taken). Returns 1 or -ENOMEM. */
static int append_mask_line(struct machine *m, char *dev, enum mask_line_kind kind, unsigned bits,
			    const char *said)
{
	if (array_full(m->n_mask_lines)) {
		struct mask_line *nv = reallocarray(m->mask_lines, array_capacity(m->n_mask_lines), sizeof(*nv));
		if (!nv) {
			free(dev);
			return -ENOMEM;
		}
		m->mask_lines = nv;
	}
	m->mask_lines[m->n_mask_lines++] = (struct mask_line){ dev, kind, bits, said };
	return 1;
}

/* A mask line for the device the record names (record_device); none named is malformed. */
static int append_named_mask_line(struct kmsg_ctx *ctx, const char *s, const char *at, const char *dict_dev,
				  size_t dict_len, enum mask_line_kind kind, unsigned bits, const char *said)
{
	char *dev = record_device(s, at, dict_dev, dict_len);
	if (!dev)
		return -EBADMSG;
	return append_mask_line(ctx->m, dev, kind, bits, said);
}

/* The rest of the line from p, trailing blanks dropped, is exactly word. */
static bool rest_is(const char *p, const char *end, const char *word)
{
	while (end > p && (end[-1] == ' ' || end[-1] == '\n'))
		end--;
	return (size_t)(end - p) == strlen(word) && memcmp(p, word, strlen(word)) == 0;
}

/*
 * drivers/mmc/host/sdhci.c __sdhci_add_host: "%s: SDHCI controller on %s [%s]
 * using %s" with dev_name in the brackets and the mode SDHCI_USE_64_BIT_DMA and
 * SDHCI_USE_ADMA/SDMA left after sdhci_set_dma_mask() (which clears the 64-bit
 * flag when the 64-bit mask fails): "ADMA 64-bit" 64 bits, "ADMA" or "DMA" 32,
 * "PIO" and "External DMA" (5.6+) no DMA by the host itself.
 * Returns 1 matched, 0 not this line, -EBADMSG malformed, -ENOMEM.
 */
static int match_sdhci_line(struct kmsg_ctx *ctx, const char *s, size_t len)
{
	static const struct {
		const char *mode;
		unsigned bits;
		const char *said;
	} modes[] = {
		{ "ADMA 64-bit", 64, "boot log: SDHCI controller ... using ADMA 64-bit" },
		{ "ADMA", 32, "boot log: SDHCI controller ... using ADMA (32-bit)" },
		{ "DMA", 32, "boot log: SDHCI controller ... using DMA (32-bit SDMA)" },
		{ "PIO", 0, "boot log: SDHCI controller ... using PIO" },
		{ "External DMA", 0, "boot log: SDHCI controller ... using External DMA" },
	};
	const char *end = s + len, *on = find(s, len, ": SDHCI controller on ");

	if (!on)
		return 0;
	const char *using = find(on, (size_t)(end - on), "] using ");
	if (!using)
		return -EBADMSG;
	const char *open = using;
	while (open > on && open[-1] != '[')
		open--;
	/* the name between the brackets: none, or a NUL in it, is no device */
	if (open == on || open == using || memchr(open, '\0', (size_t)(using - open)))
		return -EBADMSG;
	const char *mode = using + strlen("] using ");
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (rest_is(mode, end, modes[i].mode)) {
			char *dev = strndup(open, (size_t)(using - open));
			if (!dev)
				return -ENOMEM;
			return append_mask_line(ctx->m, dev, MASK_LINE_SDHCI, modes[i].bits, modes[i].said);
		}
	return -EBADMSG;
}

/*
 * drivers/mmc/host/dw_mmc.c dw_mci_init_dma: "IDMAC supports 64-bit address
 * mode." after HCON's ADDR_CONFIG bit, then dma_set_mask(64); "32-bit" sets
 * none (dev_info: "DRIVER DEVNAME: " before it).
 * Returns 1 matched, 0 not this line, -EBADMSG malformed, -ENOMEM.
 */
static int match_dw_mmc_line(struct kmsg_ctx *ctx, const char *s, size_t len, const char *dict_dev,
			     size_t dict_len)
{
	static const char lead[] = ": IDMAC supports ";
	const char *end = s + len, *at = find(s, len, lead);
	unsigned bits;

	if (!at)
		return 0;
	const char *p = at + strlen(lead);
	if (rest_is(p, end, "64-bit address mode."))
		bits = 64;
	else if (rest_is(p, end, "32-bit address mode."))
		bits = 32;
	else
		return -EBADMSG;
	return append_named_mask_line(ctx, s, at, dict_dev, dict_len, MASK_LINE_DW_MMC, bits,
				bits == 64 ? "boot log: IDMAC supports 64-bit address mode"
					   : "boot log: IDMAC supports 32-bit address mode (no mask set)");
}

/*
 * drivers/net/ethernet/stmicro/stmmac/stmmac_main.c stmmac_dvr_probe: after
 * dma_set_mask_and_coherent(DMA_BIT_MASK(host width)) succeeded, "Using %d/%d
 * bits DMA host/device width" (host_dma_width, 6.3+) or "Using %d bits DMA
 * width" before. A core without ADDR64 sets no mask and prints neither.
 * Returns 1 matched, 0 not this line, -EBADMSG malformed, -ENOMEM.
 */
static int match_stmmac_line(struct kmsg_ctx *ctx, const char *s, size_t len, const char *dict_dev,
			     size_t dict_len)
{
	static const char lead[] = ": Using ";
	const char *end = s + len, *at = find(s, len, lead);
	uint64_t host, device;

	if (!at || !find(at, (size_t)(end - at), " bits DMA "))
		return 0;
	const char *p = at + strlen(lead), *q;
	bool both = (q = parse_dec_until(p, end, "/", &host)) && (q = expect(q, end, "/")) &&
		    (q = parse_dec_until(q, end, " ", &device)) &&
		    rest_is(q, end, " bits DMA host/device width");
	if (!both && !((q = parse_dec_until(p, end, " ", &host)) && rest_is(q, end, " bits DMA width")))
		return -EBADMSG;
	/* DMA_BIT_MASK() of 0 or past 64 cannot have been set */
	if (host < 1 || host > 64)
		return -EBADMSG;
	return append_named_mask_line(ctx, s, at, dict_dev, dict_len, MASK_LINE_STMMAC, (unsigned)host, "boot log: Using N bits DMA (host) width");
}

/*
 * drivers/usb/mtu3/mtu3_core.c mtu3_set_dma_mask (from ssusb_gadget_init): "dma
 * mask: 36 bits" after U3D_MISC_CTRL's DMA_ADDR_36BIT let dma_set_mask_and_coherent(36)
 * succeed, "32 bits" when the bit is clear (no call: the bus default stands) or
 * the 36-bit call failed (a 32-bit one then). dev_info's prefix is the driver,
 * "mtu3 DEVNAME: ": a line of another driver is not this one.
 * Returns 1 matched, 0 not this line, -EBADMSG malformed, -ENOMEM.
 */
static int match_mtu3_line(struct kmsg_ctx *ctx, const char *s, size_t len, const char *dict_dev,
			   size_t dict_len)
{
	static const char lead[] = ": dma mask: ";
	const char *end = s + len, *at = find(s, len, lead);
	unsigned bits;

	if (!at || !starts_with(s, len, "mtu3 "))
		return 0;
	const char *p = at + strlen(lead);
	if (rest_is(p, end, "36 bits"))
		bits = 36;
	else if (rest_is(p, end, "32 bits"))
		bits = 32;
	else
		return -EBADMSG;
	return append_named_mask_line(ctx, s, at, dict_dev, dict_len, MASK_LINE_MTU3, bits,
				bits == 36 ? "boot log: mtu3 dma mask: 36 bits"
					   : "boot log: mtu3 dma mask: 32 bits (the bus default kept)");
}

/*
 * drivers/usb/storage/usb.c usb_stor_probe1 (48610ec22f0c, 6.16): on a
 * CONFIG_HIGHMEM kernel, a host controller without DMA (!hcd_uses_dma) or with
 * a localmem_pool gets dev_warn(&intf->dev, "USB Mass Storage not supported on
 * this host controller") and -EINVAL: "usb-storage 1-1:1.0: ...".
 * Returns 1 matched, 0 not this line, -EBADMSG malformed, -ENOMEM.
 */
static int match_usb_storage_line(struct kmsg_ctx *ctx, const char *s, size_t len, const char *dict_dev,
				  size_t dict_len)
{
	static const char lead[] = ": USB Mass Storage not supported on this host controller";
	const char *end = s + len, *at = find(s, len, lead);

	if (!at || !starts_with(s, len, "usb-storage "))
		return 0;
	if (!rest_is(at + 2, end, lead + 2))
		return -EBADMSG;
	return append_named_mask_line(ctx, s, at, dict_dev, dict_len, MASK_LINE_USB_STORAGE, 0,
				      "boot log: usb-storage: USB Mass Storage not supported on this host controller");
}

/* Keep the first CoCo line. */
static int keep_line(struct machine *m, const char *s, size_t len)
{
	if (m->coco.log_line)
		return 0;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\n'))
		len--;
	m->coco.log_line = strndup(s, len);
	return m->coco.log_line ? 0 : -ENOMEM;
}

/* Tokens of "Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP". */
static void coco_tokens(struct kmsg_ctx *ctx, const char *s, size_t len)
{
	const char *end = s + len;
	for (const char *p = skip_blanks(s, end); p < end; p = skip_blanks(p, end)) {
		size_t n = token_len(p, end);
		if (n >= 3 && memcmp(p, "SEV", 3) == 0)
			ctx->coco_sev = true;
		else if (n == 3 && memcmp(p, "SME", 3) == 0)
			ctx->coco_sme = true;
		else if (n == 3 && memcmp(p, "TDX", 3) == 0)
			ctx->coco_tdx = true;
		p += n;
	}
}

static void coco_append(struct kmsg_ctx *ctx, const char *s, size_t len)
{
	size_t room = COCO_LINE_MAX - 1 - ctx->coco_len;
	if (len > room)
		len = room;
	memcpy(ctx->coco_line + ctx->coco_len, s, len);
	ctx->coco_len += len;
	ctx->coco_line[ctx->coco_len] = '\0';
}

/* Apply what the (possibly pieced together) line said. */
static int coco_close(struct kmsg_ctx *ctx)
{
	struct coco_signs *c = &ctx->m->coco;

	if (!ctx->coco_open)
		return 0;
	ctx->coco_open = false;
	if (!ctx->coco_sev && !ctx->coco_sme && !ctx->coco_tdx)
		return 0;
	c->log_sev |= ctx->coco_sev;
	c->log_tdx |= ctx->coco_tdx;
	c->log_sme |= ctx->coco_sme;
	return keep_line(ctx->m, ctx->coco_line, ctx->coco_len);
}

/* A word of that line: AMD, Intel, SME, TDX, SEV, SEV-ES, SEV-SNP. */
static bool coco_word(const char *p, size_t n)
{
	if ((n == 3 && (memcmp(p, "AMD", 3) == 0 || memcmp(p, "SME", 3) == 0 ||
			memcmp(p, "TDX", 3) == 0)) ||
	    (n == 5 && memcmp(p, "Intel", 5) == 0))
		return true;
	if (n < 3 || memcmp(p, "SEV", 3) != 0)
		return false;
	for (size_t i = 3; i < n; i++)
		if (!(p[i] == '-' || (p[i] >= 'A' && p[i] <= 'Z')))
			return false;
	return true;
}

/* A piece of a split "Memory Encryption Features active:" line: "AMD", " SEV", "Intel TDX". */
static bool coco_fragment(const char *s, size_t len)
{
	const char *end = s + len, *p = skip_blanks(s, end);
	if (p == end)
		return false;
	for (; p < end; p = skip_blanks(p, end)) {
		size_t n = token_len(p, end);
		if (!coco_word(p, n))
			return false;
		p += n;
	}
	return true;
}

/*
 * arch/x86/kernel/cpu/mshyperv.c ms_hyperv_init_platform(): "Hyper-V:
 * Isolation Config: Group A 0x%x, Group B 0x%x"; the isolation type is
 * Group B bits 3:0 (HV_ISOLATION_TYPE: 1 VBS, 2 SNP, 3 TDX). 1, or -ENOMEM.
 */
static int hyperv_isolation(struct kmsg_ctx *ctx, const char *s, size_t len)
{
	static const char group_b[] = ", Group B 0x";
	const char *b = find(s, len, group_b), *end = s + len, *q;
	uint64_t v;

	if (!b)
		return 1;
	b += strlen(group_b);
	for (q = b; q < end && hex_digit(*q) >= 0; q++)
		;
	if (parse_u64(b, (size_t)(q - b), 16, &v) < 0 || (v & 0xf) == 0)
		return 1;
	ctx->m->coco.log_hyperv_isolation = (unsigned)(v & 0xf);
	return keep_line(ctx->m, s, len) < 0 ? -ENOMEM : 1;
}

/*
 * arch/x86/mm/mem_encrypt.c print_mem_encrypt_feature_info(): "Memory
 * Encryption Features active: AMD SEV ..." / "Intel TDX" / "AMD SME" (5.18+;
 * "AMD Memory Encryption Features active: SEV" before), built with
 * pr_cont(); 4.14-5.x printed "AMD Secure Encrypted Virtualization (SEV)
 * active" or "AMD Secure Memory Encryption (SME) active". arch/x86/coco/tdx
 * prints "tdx: Guest detected"; arch/arm64/kernel/rsi.c "RME: Using RSI
 * version". Returns 1 matched, 0 not, -ENOMEM.
 */
static int match_coco(struct kmsg_ctx *ctx, const char *s, size_t len)
{
	static const char features[] = "Memory Encryption Features active:";
	struct coco_signs *c = &ctx->m->coco;
	const char *p;

	if ((p = find(s, len, features))) {
		int r = coco_close(ctx);
		if (r < 0)
			return r;
		ctx->coco_open = true;
		ctx->coco_fragments = 0;
		ctx->coco_sev = ctx->coco_sme = ctx->coco_tdx = false;
		ctx->coco_len = 0;
		coco_append(ctx, s, len);
		p += strlen(features);
		coco_tokens(ctx, p, len - (size_t)(p - s));
		return 1;
	}
	if (find(s, len, "AMD Secure Encrypted Virtualization (SEV) active"))
		c->log_sev = true;
	else if (find(s, len, "AMD Secure Memory Encryption (SME) active"))
		c->log_sme = true;
	else if (starts_with(s, len, "tdx: Guest detected"))
		c->log_tdx = true;
	else if (find(s, len, "RME: Using RSI version"))
		c->log_cca = true;
	else if (find(s, len, "Hyper-V: Isolation Config: Group A 0x"))
		return hyperv_isolation(ctx, s, len);
	else
		return 0;
	return keep_line(ctx->m, s, len) < 0 ? -ENOMEM : 1;
}

/*
 * arch/arm/kernel/setup.c setup_processor(): "CPU: %s [%08x] revision %d
 * (ARMv%s), cr=%08lx" with get_cr(), the SCTLR that __v7_setup programmed from
 * v7_crval: proc-v7-3level.S (LPAE) sets bit 29 (AFE), proc-v7-2level.S clears
 * it. Printed once, by the boot CPU; the first such line is kept. 1 matched, 0 not.
 */
static int match_arm_cpu(struct kmsg_ctx *ctx, const char *s, size_t len)
{
	static const char cr[] = ", cr=";
	const char *end = s + len, *p;
	uint64_t v;

	if (!starts_with(s, len, "CPU: ") || !(p = find(s, len, cr)))
		return 0;
	p += strlen(cr);
	const char *q = p;
	while (q < end && hex_digit(*q) >= 0)
		q++;
	if (q - p != 8 || parse_u64(p, (size_t)(q - p), 16, &v) < 0)
		return 0;
	if (!ctx->m->arm_cr.known)
		opt_set(&ctx->m->arm_cr, (uint32_t)v);
	return 1;
}

/* One line of a message. Returns 1 (it said something), 0, -EBADMSG (skip and count), -ENOMEM. */
static int match_line(struct kmsg_ctx *ctx, const char *s, size_t len, const char *dict_dev,
		      size_t dict_len)
{
	struct swiotlb_info *sw = &ctx->m->swiotlb;
	int r;

	if (match_swiotlb_pool(ctx, s, len) || match_arm_cpu(ctx, s, len))
		return 1;
	if (find(s, len, "software IO TLB: No low mem")) {
		sw->log_no_low_mem = true;
		return 1;
	}
	const char *full = find(s, len, "swiotlb buffer is full");
	if (full)
		return match_swiotlb_full(ctx, s, len, full, dict_dev, dict_len);
	/* which IOMMU driver came up: it decides what groups without a domain type do */
	if (starts_with(s, len, "DMAR: Intel(R) Virtualization Technology for Directed I/O")) {
		ctx->m->log_intel_iommu = true;
		return 1;
	}
	if (find(s, len, "AMD-Vi: Found IOMMU")) {
		ctx->m->log_amd_iommu = true;
		return 1;
	}
	r = match_pool_overflow(ctx, s, len, dict_dev, dict_len);
	if (r != 0)
		return r;
	r = match_overflow(ctx, s, len, dict_dev, dict_len);
	if (r != 0)
		return r;
	r = match_sdhci_line(ctx, s, len);
	if (r != 0)
		return r;
	r = match_dw_mmc_line(ctx, s, len, dict_dev, dict_len);
	if (r != 0)
		return r;
	r = match_stmmac_line(ctx, s, len, dict_dev, dict_len);
	if (r != 0)
		return r;
	r = match_mtu3_line(ctx, s, len, dict_dev, dict_len);
	if (r != 0)
		return r;
	r = match_usb_storage_line(ctx, s, len, dict_dev, dict_len);
	if (r != 0)
		return r;
	return match_coco(ctx, s, len);
}

/* One record: its raw (escaped) message and DEVICE= value. */
static int handle_record(struct kmsg_ctx *ctx, const char *msg, size_t msg_len, const char *dev,
			 size_t dev_len)
{
	_cleanup_free_ char *device = NULL;
	ssize_t n;
	int r;

	if (dev) {
		n = unescape(ctx, dev, dev_len);
		if (n < 0)
			return (int)n;
		device = strndup(ctx->scratch, (size_t)n);
		if (!device)
			return -ENOMEM;
		/* a raw NUL in the value ends the name: strndup stopped there, so must we */
		dev_len = strlen(device);
	}
	n = unescape(ctx, msg, msg_len);
	if (n < 0)
		return (int)n;

	if (ctx->coco_open) {
		if (ctx->coco_fragments < COCO_FRAGMENTS_MAX && coco_fragment(ctx->scratch, (size_t)n)) {
			ctx->used = true;
			ctx->coco_fragments++;
			coco_append(ctx, ctx->scratch, (size_t)n);
			coco_tokens(ctx, ctx->scratch, (size_t)n);
			return 0;
		}
		r = coco_close(ctx);
		if (r < 0)
			return r;
	}

	/* A message holding "\n" (escaped as \x0a) is several lines of text. */
	bool bad = false;
	const char *s = ctx->scratch, *end = ctx->scratch + n;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *stop = nl ? nl : end;
		r = match_line(ctx, s, (size_t)(stop - s), device, device ? dev_len : 0);
		if (r == -ENOMEM)
			return r;
		bad = bad || r < 0;
		ctx->used = ctx->used || r != 0;
		s = nl ? nl + 1 : end;
	}
	if (bad)
		ctx->skipped++;
	return 0;
}

/* "PRI,SEQ,TS_USEC,FLAGS[,...];": the message start, or NULL when this is no record. */
static const char *record_message(const char *s, size_t len)
{
	const char *end = s + len, *p = s;

	for (int field = 0; field < 3; field++) {
		const char *start = p;
		while (p < end && *p >= '0' && *p <= '9')
			p++;
		if (p == start || p - start > 20 || p >= end || *p != ',')
			return NULL;
		p++;
	}
	const char *semi = memchr(p, ';', (size_t)(end - p));
	if (!semi || memchr(p, ' ', (size_t)(semi - p)))
		return NULL;
	return semi + 1;
}

/*
 * The record (or malformed line) that began at start ends at end: a capture
 * keeps it when it said something, is malformed (a replay counts it too),
 * is the first record (where the log starts) or has sequence 0.
 */
static void keep_group(struct kmsg_ctx *ctx, const char *start, const char *end, bool keep)
{
	if (ctx->kept && start && keep)
		strbuf_append_n(ctx->kept, start, (size_t)(end - start));
}

static int parse_records(const char *buf, size_t len, struct machine *m, struct strbuf *kept,
			 unsigned *ret_skipped)
{
	struct kmsg_ctx ctx = { .m = m, .kept = kept };
	const char *msg = NULL, *dev = NULL, *group = NULL;
	size_t msg_len = 0, dev_len = 0;
	bool any = false, blank = true, in_bad = false, keep = false;
	struct line_iter it;
	struct line l;
	int r = 0;

	line_iter_init(&it, buf, len);
	while (line_iter_next(&it, &l)) {
		bool truncated = l.s + l.len == buf + len; /* no final newline */
		if (l.len == 0)
			continue;
		blank = false;
		if (l.s[0] == ' ') {
			if (msg && !truncated && starts_with(l.s, l.len, " DEVICE=")) {
				dev = l.s + strlen(" DEVICE=");
				dev_len = l.len - strlen(" DEVICE=");
			} else if (!msg && !in_bad) {
				ctx.skipped++; /* a continuation line without a record */
				in_bad = true;
				keep_group(&ctx, group, l.s, keep);
				group = l.s;
				keep = true;
			}
			continue;
		}
		if (msg) {
			ctx.used = false;
			r = handle_record(&ctx, msg, msg_len, dev, dev_len);
			if (r < 0)
				goto done;
			keep = keep || ctx.used;
			msg = dev = NULL;
		}
		keep_group(&ctx, group, l.s, keep);
		group = l.s;
		const char *p = record_message(l.s, l.len);
		if (!p || truncated) {
			any = any || p;
			ctx.skipped++;
			in_bad = true;
			keep = true;
			continue;
		}
		keep = !any;
		any = true;
		in_bad = false;
		/* "PRI,0,": the record printk numbered first, so the log starts at boot */
		const char *comma = memchr(l.s, ',', l.len);
		if (comma && l.s + l.len - comma > 2 && comma[1] == '0' && comma[2] == ',') {
			m->kmsg_from_boot = true;
			keep = true;
		}
		msg = p;
		msg_len = (size_t)(l.s + l.len - p);
		dev_len = 0;
	}
	if (msg) {
		ctx.used = false;
		r = handle_record(&ctx, msg, msg_len, dev, dev_len);
		if (r < 0)
			goto done;
		keep = keep || ctx.used;
	}
	keep_group(&ctx, group, buf + len, keep);
	r = coco_close(&ctx);
	if (r < 0)
		goto done;
	if (kept && kept->oom)
		r = -ENOMEM;
	else if (!any && !blank)
		r = -EBADMSG;
	else if (ret_skipped)
		*ret_skipped = ctx.skipped;
done:
	free(ctx.scratch);
	return r;
}

int kmsg_parse(const char *buf, size_t len, struct machine *m)
{
	return parse_records(buf, len, m, NULL, NULL);
}

int kmsg_parse_kept(const char *buf, size_t len, struct machine *m, char **ret_kept, size_t *ret_len)
{
	struct strbuf kept = { 0 };
	int r = parse_records(buf, len, m, &kept, NULL);

	if (r < 0) {
		strbuf_done(&kept);
		return r;
	}
	*ret_len = kept.len;
	*ret_kept = strbuf_steal(&kept);
	if (!*ret_kept)
		*ret_kept = strdup(""); /* nothing kept: an empty log */
	return *ret_kept ? 0 : -ENOMEM;
}

int read_kmsg(struct sysroot *sr, struct machine *m)
{
	static const char path[] = "dev/kmsg";
	_cleanup_free_ char *buf = NULL;
	unsigned skipped = 0;
	size_t len;
	int r;

	_cleanup_free_ char *canon = NULL, *kept = NULL;
	size_t kept_len = 0;
	r = sysroot_read_records_deferred(sr, path, KMSG_MAX, &buf, &len, &canon);
	if (r == -ENOMEM)
		return r;
	if (r == -EPERM)
		return machine_add_input(m, path, INPUT_DENIED, EPERM,
					 "needs CAP_SYSLOG while kernel.dmesg_restrict is 1");
	if (r < 0)
		return machine_add_input_errno(m, path, r);

	bool filter = canon != NULL;
	struct strbuf keep = { 0 };
	r = parse_records(buf, len, m, filter ? &keep : NULL, &skipped);
	kept_len = keep.len;
	kept = strbuf_steal(&keep);
	if (r == -ENOMEM || (filter && !kept))
		return -ENOMEM;
	/* a capture holds the records parsed: a replay parses the same, and no more is sent */
	if (canon)
		sysroot_tap_record(sr, canon, r == 0 ? kept : buf, r == 0 ? kept_len : len, buf, len);
	if (r < 0)
		return machine_add_input(m, path, INPUT_INVALID, EBADMSG,
					 "no record in the dev/kmsg format");
	if (skipped == 0)
		return machine_add_input(m, path, INPUT_OK, 0, NULL);
	char detail[64];
	snprintf(detail, sizeof(detail), "%u malformed record%s skipped", skipped,
		 skipped == 1 ? "" : "s");
	return machine_add_input(m, path, INPUT_OK, 0, detail);
}
