/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * swiotlb:swiotlb_bounced in tracefs: event lines of trace / trace_pipe and
 * the event's format file. Kernel sources: include/trace/events/swiotlb.h
 * (the event), kernel/trace/trace_output.c (trace_print_context,
 * trace_print_lat_context, print_fields), kernel/trace/trace_events.c (f_show).
 */
#include <string.h>

#include "readers/trace.h"
#include "shared/text.h"

#define EVENT_NAME "swiotlb_bounced"
/* trace_raw_output_prep() and print_event_fields() both put "NAME:" before the text. */
#define EVENT_TOKEN EVENT_NAME ": "
#define EVENT_TOKEN_LEN (sizeof(EVENT_TOKEN) - 1)

/* TP_printk since 2b2b614dd24e (3.13); until 5.17 written as two literals, same text. */
#define PRINT_FMT "\"dev_name: %s dma_mask=%llx dev_addr=%llx size=%zu %s\""
/* Its arguments before the force word, as the format file's print fmt shows them. */
#define PRINT_ARGS \
	", __get_str(dev_name), REC->dma_mask, (unsigned long long)REC->dev_addr, REC->size, "

/* print_fields() could not reach a field's data (6.3 did so for some strings). */
#define OVERFLOW_VALUE "<OVERFLOW>"

/* A force field's value is the kernel's enum swiotlb_force (include/linux/swiotlb.h, 4.10-5.17). */
_Static_assert(TRACE_FORCE_NORMAL == 0 && TRACE_FORCE_FORCE == 1 && TRACE_FORCE_NO_FORCE == 2,
	       "enum trace_force follows enum swiotlb_force");

/* A character of a C identifier (first: its first one): print_fields() prints field names. */
static bool is_ident(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && char_is_digit(c));
}

static bool has_prefix(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)(end - p) >= n && memcmp(p, prefix, n) == 0;
}

static bool equals(const char *p, size_t n, const char *s)
{
	return n == strlen(s) && memcmp(p, s, n) == 0;
}

/* TP_printk's %llx has no "0x"; parse_u64() would take one, so refuse it here. */
static int parse_plain(const char *s, size_t n, unsigned base, uint64_t *ret)
{
	if (base == 16 && n > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return -EINVAL;
	return parse_u64(s, n, base, ret);
}

/*
 * Whether the event name at buf+i follows the context columns, so that a
 * trace_marker text or another event's text naming it is not taken for it.
 * The columns end with a timestamp and ": " (kernel/trace/trace_output.c):
 * trace_print_time " %5lu.%06lu" or " %12llu"; lat_print_timestamp
 * " %4lldus%c", " %4lld", "... (+%ld.%03ldms)" or "... (+%lld)". With the
 * context-info option off the line starts with the event name.
 */
static bool after_context(const char *buf, size_t i)
{
	size_t q, k, j;

	if (i == 0)
		return true;
	if (i < 3 || buf[i - 1] != ' ' || buf[i - 2] != ':')
		return false;
	q = i - 2; /* the ':' */

	if (buf[q - 1] == ')') {
		/* verbose latency format: "(+REL): " */
		j = q - 1;
		if (j >= 2 && buf[j - 2] == 'm' && buf[j - 1] == 's')
			j -= 2;
		k = j;
		while (k > 0 && (char_is_digit(buf[k - 1]) || buf[k - 1] == '.'))
			k--;
		return k < j && k >= 2 && buf[k - 1] == '+' && buf[k - 2] == '(';
	}
	if (memchr(" +!#*@$", buf[q - 1], 7)) {
		/* latency format in ns: " %4lldus%c: ", %c one of trace_find_mark()'s */
		if (q < 4 || buf[q - 3] != 'u' || buf[q - 2] != 's' || !char_is_digit(buf[q - 4]))
			return false;
		k = q - 4;
		while (k > 0 && char_is_digit(buf[k - 1]))
			k--;
		return k == 0 || buf[k - 1] == ' ';
	}
	if (!char_is_digit(buf[q - 1]))
		return false;
	/* "SECS.USECS" or a counter clock's "%12llu" */
	unsigned dots = 0;
	k = q;
	while (k > 0 && (char_is_digit(buf[k - 1]) || buf[k - 1] == '.'))
		dots += buf[--k] == '.';
	return dots <= 1 && char_is_digit(buf[k]) && (k == 0 || buf[k - 1] == ' ');
}

/* The event name where the line's text starts, NULL when the line is another one. */
static const char *find_event(const char *buf, size_t len)
{
	const char *end = buf + len;
	const char *p = buf;

	/* the header of trace: "# tracer: nop", "#           TASK-PID ..." */
	if (len > 0 && buf[0] == '#')
		return NULL;
	while (p < end) {
		p = memmem(p, (size_t)(end - p), EVENT_TOKEN, EVENT_TOKEN_LEN);
		if (!p)
			return NULL;
		if (after_context(buf, (size_t)(p - buf)))
			return p;
		p++;
	}
	return NULL;
}

static const char *set_dev_name(struct bounce_event *ev, const char *s, size_t n)
{
	if (n == 0)
		return "empty device name";
	if (n >= sizeof(ev->dev_name))
		return "device name longer than NAME_MAX";
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return "control character in the device name";
	memcpy(ev->dev_name, s, n);
	ev->dev_name[n] = '\0';
	return NULL;
}

/* The last word of TP_printk: the bool's (5.18-), __print_symbolic's (4.10-5.17), 3.13-4.9's. */
static enum trace_force force_from_word(const char *s, size_t n)
{
	static const struct {
		const char *word;
		enum trace_force force;
	} words[] = {
		{ "NORMAL", TRACE_FORCE_NORMAL },
		{ "FORCE", TRACE_FORCE_FORCE },
		{ "NO_FORCE", TRACE_FORCE_NO_FORCE },
		/* 3.13-4.9: swiotlb_force ? "swiotlb_force" : "" */
		{ "swiotlb_force", TRACE_FORCE_FORCE },
		{ "", TRACE_FORCE_NORMAL },
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (equals(s, n, words[i].word))
			return words[i].force;
	/* __print_symbolic prints "0x%lx" for a value it has no name for; SUSE's Xen kernels "OFF" */
	return TRACE_FORCE_UNKNOWN;
}

/* A "%llx" or "%zu" value up to the next blank; advances *p past it. */
static const char *printk_number(const char **p, const char *end, unsigned base, uint64_t *ret,
				 const char *what_bad, const char *what_range)
{
	size_t n = token_len(*p, end);
	int r = parse_plain(*p, n, base, ret);

	if (r == -ERANGE)
		return what_range;
	if (r < 0)
		return what_bad;
	*p += n;
	return NULL;
}

/* After "swiotlb_bounced: dev_name: ": "%s dma_mask=%llx dev_addr=%llx size=%zu %s". */
static const char *parse_printk(const char *p, const char *end, struct bounce_event *ev)
{
	const char *mask = memmem(p, (size_t)(end - p), " dma_mask=", 10);
	const char *why;

	if (!mask)
		return "no dma_mask= after the device name";
	/* a device name may hold blanks ("Fixed MDIO bus.0"): it ends at " dma_mask=" */
	why = set_dev_name(ev, p, (size_t)(mask - p));
	if (why)
		return why;
	p = mask + 10;
	why = printk_number(&p, end, 16, &ev->dma_mask, "dma_mask is not a hex number",
			    "dma_mask does not fit 64 bits");
	if (why)
		return why;
	if (!has_prefix(p, end, " dev_addr="))
		return "no dev_addr= after dma_mask";
	p += 10;
	why = printk_number(&p, end, 16, &ev->dev_addr, "dev_addr is not a hex number",
			    "dev_addr does not fit 64 bits");
	if (why)
		return why;
	if (!has_prefix(p, end, " size="))
		return "no size= after dev_addr";
	p += 6;
	why = printk_number(&p, end, 10, &ev->size, "size is not a decimal number",
			    "size does not fit 64 bits");
	if (why)
		return why;
	/* "size=%zu %s": the blank is there even when the word is empty (3.13-4.9) */
	if (p == end || *p != ' ')
		return "no force word after size";
	p++;
	if (memchr(p, ' ', (size_t)(end - p)) || memchr(p, '\t', (size_t)(end - p)))
		return "text after the force word";
	ev->force = force_from_word(p, (size_t)(end - p));
	ev->fields_form = false;
	return NULL;
}

/*
 * A number as print_fields() prints it: "0x%x (%d)" or "0x%llx (%lld)" for
 * 2-, 4- and 8-byte fields, "(%d)" or "'%c'(%d)" for 1-byte ones. The
 * decimal is signed; it must agree with the hex.
 */
static const char *field_number(const char *s, const char *end, uint64_t *ret)
{
	const char *lp, *d;
	size_t pn;
	uint64_t mag, dec, hex;
	bool neg;
	int r;

	if (equals(s, (size_t)(end - s), OVERFLOW_VALUE))
		return "a value the kernel did not print (<OVERFLOW>)";
	if (end - s < 3 || end[-1] != ')')
		return "a value not in print_fields form";
	for (lp = end - 1; lp > s && lp[-1] != '('; lp--)
		;
	if (lp == s)
		return "a value not in print_fields form";
	lp--; /* the '(' */

	d = lp + 1;
	neg = *d == '-';
	if (neg)
		d++;
	r = parse_u64(d, (size_t)(end - 1 - d), 10, &mag);
	if (r == -ERANGE || (r == 0 && neg && mag > (uint64_t)INT64_MAX + 1))
		return "a value that does not fit 64 bits";
	if (r < 0)
		return "a value not in print_fields form";
	dec = neg ? (uint64_t)0 - mag : mag;

	pn = (size_t)(lp - s);
	if (pn == 0 || (pn == 3 && s[0] == '\'' && s[2] == '\'')) {
		/* 1-byte field: "%d" of an unsigned char, the char itself when isprint() */
		if (neg || dec > 0xff)
			return "a 1-byte value out of range";
		if (pn == 3 && (unsigned char)s[1] != dec)
			return "a 1-byte value and its character disagree";
		*ret = dec;
		return NULL;
	}
	if (pn < 4 || s[0] != '0' || s[1] != 'x' || s[pn - 1] != ' ')
		return "a value not in print_fields form";
	r = parse_u64(s, pn - 1, 16, &hex);
	if (r == -ERANGE)
		return "a value that does not fit 64 bits";
	if (r < 0)
		return "a value not in print_fields form";
	/* a 4-byte field's "%d" is negative from 0x80000000 on */
	if (hex != dec && !(neg && hex <= UINT32_MAX && mag <= 0x80000000u && (uint32_t)dec == hex))
		return "hex and decimal of a value disagree";
	*ret = hex;
	return NULL;
}

/* Length of the field name at p followed by '=', 0 when there is none. */
static size_t field_key_len(const char *p, const char *end)
{
	const char *k = p;

	if (k == end || !is_ident(*k, true))
		return 0;
	while (k < end && is_ident(*k, false))
		k++;
	return k < end && *k == '=' ? (size_t)(k - p) : 0;
}

/* Where the value at v ends: before the next " NAME=", or at end. */
static const char *field_value_end(const char *v, const char *end)
{
	for (const char *r = v; r < end; r++)
		if (*r == ' ' && field_key_len(r + 1, end) > 0)
			return r;
	return end;
}

enum field_key {
	KEY_DEV_NAME,
	KEY_DMA_MASK,
	KEY_DEV_ADDR,
	KEY_SIZE,
	KEY_FORCE,         /* bool force, 5.18- */
	KEY_SWIOTLB_FORCE, /* int or enum swiotlb_force, 3.13-5.17 */
	_KEY_MAX,
};

static const char *const field_keys[_KEY_MAX] = {
	[KEY_DEV_NAME] = "dev_name",
	[KEY_DMA_MASK] = "dma_mask",
	[KEY_DEV_ADDR] = "dev_addr",
	[KEY_SIZE] = "size",
	[KEY_FORCE] = "force",
	[KEY_SWIOTLB_FORCE] = "swiotlb_force",
};

/* " NAME=VALUE" per field, in any order: 6.3 printed them in reverse. */
static const char *parse_fields(const char *p, const char *end, struct bounce_event *ev)
{
	bool have[_KEY_MAX] = { false };
	const char *why;
	uint64_t v;

	while (p < end) {
		size_t klen = *p == ' ' ? field_key_len(p + 1, end) : 0;
		if (klen == 0)
			return "expected \" name=value\" fields";
		const char *key = p + 1;
		const char *val = key + klen + 1;
		const char *vend = field_value_end(val, end);
		unsigned k;

		p = vend;
		for (k = 0; k < _KEY_MAX; k++)
			if (equals(key, klen, field_keys[k]))
				break;
		if (k == _KEY_MAX)
			continue; /* a field a later kernel added */
		if (have[k])
			return "a field printed twice";
		have[k] = true;

		switch (k) {
		case KEY_DEV_NAME:
			if (equals(val, (size_t)(vend - val), OVERFLOW_VALUE)) {
				ev->dev_name[0] = '\0';
				break;
			}
			why = set_dev_name(ev, val, (size_t)(vend - val));
			if (why)
				return why;
			break;
		case KEY_DMA_MASK:
		case KEY_DEV_ADDR:
		case KEY_SIZE:
			why = field_number(val, vend,
					   k == KEY_DMA_MASK ? &ev->dma_mask :
					   k == KEY_DEV_ADDR ? &ev->dev_addr : &ev->size);
			if (why)
				return why;
			break;
		default:
			why = field_number(val, vend, &v);
			if (why)
				return why;
			/* bool 0/1, or enum swiotlb_force: SWIOTLB_NORMAL, _FORCE, _NO_FORCE */
			if (v > (k == KEY_FORCE ? 1u : 2u))
				ev->force = TRACE_FORCE_UNKNOWN;
			else
				ev->force = (enum trace_force)v;
			break;
		}
	}
	if (!have[KEY_DEV_NAME])
		return "no dev_name field";
	if (!have[KEY_DMA_MASK])
		return "no dma_mask field";
	if (!have[KEY_DEV_ADDR])
		return "no dev_addr field";
	if (!have[KEY_SIZE])
		return "no size field";
	if (have[KEY_FORCE] && have[KEY_SWIOTLB_FORCE])
		return "both force and swiotlb_force fields";
	ev->fields_form = true;
	return NULL;
}

int trace_parse_bounced(const char *buf, size_t len, struct bounce_event *ret,
			struct parse_error *ret_err)
{
	struct bounce_event ev = { .force = TRACE_FORCE_UNKNOWN };
	const char *p = find_event(buf, len);
	const char *end, *why;

	if (!p)
		return 0;
	if (buf[len - 1] != '\n')
		return parse_fail(ret_err, 1, "truncated (no final newline)");
	end = buf + len - 1;
	if (memchr(buf, '\n', len - 1))
		return parse_fail(ret_err, 1, "more than one line");
	if (text_has_nul(buf, len))
		return parse_fail(ret_err, 1, "binary content (NUL byte)");

	p += EVENT_TOKEN_LEN;
	if (has_prefix(p, end, "dev_name: "))
		why = parse_printk(p + 10, end, &ev);
	else
		why = parse_fields(p - 1, end, &ev); /* from the blank before the first name */
	if (why)
		return parse_fail(ret_err, 1, why);
	*ret = ev;
	return 1;
}

/* ---- the format file ---- */

/* One "\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line (f_show). */
struct format_field {
	const char *type;
	size_t type_len;
	const char *name;
	size_t name_len;
	uint64_t size;
};

static const char *parse_field_line(const char *p, const char *end, struct format_field *ret)
{
	const char *semi, *sp;
	bool have_size = false, have_offset = false;

	p = skip_blanks(p, end);
	if (!has_prefix(p, end, "field:"))
		return "expected a field line";
	p += 6;
	semi = memchr(p, ';', (size_t)(end - p));
	if (!semi)
		return "field line without ';'";
	for (sp = semi; sp > p && sp[-1] != ' '; sp--)
		;
	if (sp == p || sp - 1 == p)
		return "field without a type";
	ret->type = p;
	ret->type_len = (size_t)(sp - 1 - p);
	ret->name = sp;
	ret->name_len = (size_t)(semi - sp);
	/* a fixed array shows as "TYPE NAME[LEN]": the name is before the '[' */
	const char *br = memchr(ret->name, '[', ret->name_len);
	if (br)
		ret->name_len = (size_t)(br - ret->name);

	/* then "offset:N;", "size:N;" and "signed:N;", blanks between them optional */
	p = semi + 1;
	for (;;) {
		const char *colon, *vend;
		uint64_t v;

		p = skip_blanks(p, end);
		if (p == end)
			break;
		colon = memchr(p, ':', (size_t)(end - p));
		vend = memchr(p, ';', (size_t)(end - p));
		if (!colon || !vend || vend < colon)
			return "malformed field line";
		if (parse_u64(colon + 1, (size_t)(vend - colon - 1), 10, &v) < 0)
			return "bad number in a field line";
		if (equals(p, (size_t)(colon - p), "size")) {
			ret->size = v;
			have_size = true;
		} else if (equals(p, (size_t)(colon - p), "offset")) {
			have_offset = true;
		}
		p = vend + 1;
	}
	if (!have_offset || !have_size)
		return "field line without offset or size";
	return NULL;
}

/* Check one of the event's own fields against what the kernels give it. */
static const char *check_field(const struct format_field *f, struct trace_format *fmt,
			       bool have[_KEY_MAX])
{
	unsigned k;

	for (k = 0; k < _KEY_MAX; k++)
		if (equals(f->name, f->name_len, field_keys[k]))
			break;
	if (k == _KEY_MAX)
		return NULL; /* common_*, or a field a later kernel added */
	if (have[k])
		return "a field named twice";
	have[k] = true;

	switch (k) {
	case KEY_DEV_NAME:
		/* __string(): "__data_loc char[]", a 4-byte offset/length word */
		if (f->type_len < 10 || memcmp(f->type, "__data_loc", 10) != 0 ||
		    !memmem(f->type, f->type_len, "char", 4) || f->size != 4)
			return "dev_name is not a __data_loc string";
		break;
	case KEY_DMA_MASK:
		if (f->size != 8)
			return "dma_mask is not a u64";
		break;
	case KEY_DEV_ADDR:
		if (f->size != 4 && f->size != 8)
			return "dev_addr is not a dma_addr_t";
		fmt->dev_addr_size = (unsigned)f->size;
		break;
	case KEY_SIZE:
		if (f->size != 4 && f->size != 8)
			return "size is not a size_t";
		fmt->size_field_size = (unsigned)f->size;
		break;
	case KEY_FORCE:
		if (!equals(f->type, f->type_len, "bool") || f->size != 1)
			return "force is not a bool";
		fmt->force_field = TRACE_FORCE_FIELD_BOOL;
		break;
	default:
		if (equals(f->type, f->type_len, "int") && f->size == 4)
			fmt->force_field = TRACE_FORCE_FIELD_INT;
		else if (equals(f->type, f->type_len, "enum swiotlb_force") && f->size == 4)
			fmt->force_field = TRACE_FORCE_FIELD_ENUM;
		else
			return "swiotlb_force is neither an int nor an enum swiotlb_force";
		break;
	}
	return NULL;
}

int trace_format_parse(const char *buf, size_t len, struct trace_format *ret,
		       struct parse_error *ret_err)
{
	struct trace_format fmt = { .force_field = TRACE_FORCE_FIELD_NONE };
	bool have[_KEY_MAX] = { false };
	bool have_print_fmt = false;
	struct line_iter it;
	struct line l;
	uint64_t id;

	if (len == 0)
		return parse_fail(ret_err, 0, "empty");
	if (text_has_nul(buf, len))
		return parse_fail(ret_err, 0, "binary content (NUL byte)");
	if (buf[len - 1] != '\n')
		return parse_fail(ret_err, 0, "truncated (no final newline)");

	line_iter_init(&it, buf, len);
	while (!have_print_fmt && line_iter_next(&it, &l)) {
		const char *end = l.s + l.len;
		const char *why;

		/* f_show: "name: %s\n", "ID: %d\n", "format:\n", then the fields */
		if (l.no == 1) {
			if (!equals(l.s, l.len, "name: " EVENT_NAME))
				return parse_fail(ret_err, l.no, "not the format of " EVENT_NAME);
			continue;
		}
		if (l.no == 2) {
			/* common_type is an unsigned short: no ID beyond 65535 */
			if (!has_prefix(l.s, end, "ID: ") || parse_u64(l.s + 4, l.len - 4, 10, &id) < 0 ||
			    id == 0 || id > UINT16_MAX)
				return parse_fail(ret_err, l.no, "expected \"ID: N\"");
			fmt.id = (unsigned)id;
			continue;
		}
		if (l.no == 3) {
			if (!equals(l.s, l.len, "format:"))
				return parse_fail(ret_err, l.no, "expected \"format:\"");
			continue;
		}
		/* a blank line between the common fields and the event's, and before print fmt */
		if (l.len == 0)
			continue;
		if (has_prefix(l.s, end, "print fmt: ")) {
			/* the rest of the file: a print fmt may hold newlines of its own */
			const char *pf = l.s + 11;
			const char *pend = buf + len - 1;
			fmt.known_print_fmt = has_prefix(pf, pend, PRINT_FMT PRINT_ARGS);
			have_print_fmt = true;
			continue;
		}
		struct format_field f = { 0 };
		why = parse_field_line(l.s, end, &f);
		if (!why)
			why = check_field(&f, &fmt, have);
		if (why)
			return parse_fail(ret_err, l.no, why);
	}
	if (it.no < 3)
		return parse_fail(ret_err, 0, "truncated (no format: line)");
	if (!have_print_fmt)
		return parse_fail(ret_err, 0, "no print fmt line");
	if (!have[KEY_DEV_NAME])
		return parse_fail(ret_err, 0, "no dev_name field");
	if (!have[KEY_DMA_MASK])
		return parse_fail(ret_err, 0, "no dma_mask field");
	if (!have[KEY_DEV_ADDR])
		return parse_fail(ret_err, 0, "no dev_addr field");
	if (!have[KEY_SIZE])
		return parse_fail(ret_err, 0, "no size field");
	if (have[KEY_FORCE] && have[KEY_SWIOTLB_FORCE])
		return parse_fail(ret_err, 0, "both force and swiotlb_force fields");
	*ret = fmt;
	return 0;
}
