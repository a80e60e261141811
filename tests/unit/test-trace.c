/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * src/readers/trace.c: swiotlb_bounced lines of tracefs trace / trace_pipe
 * (trace_parse_bounced) and the event's format file (trace_format_parse).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "readers/trace.h"

/* ---- trace lines ---- */

/* Debian 12 (6.1) guest, irq-info on: a bounce from the idle task's softirq. */
static const char debian_6_1[] =
	"          <idle>-0       [001] d.h1.   123.456789: swiotlb_bounced: dev_name: 0000:00:01.1 "
	"dma_mask=ffffffff dev_addr=17f9e8000 size=4096 NORMAL\n";

/* A CoCo guest (6.1): every mapping bounces, from a kworker named with ':' and '/'. */
static const char coco_6_1[] =
	"    kworker/u4:1-57      [000] .....     2.000001: swiotlb_bounced: dev_name: 0000:00:04.0 "
	"dma_mask=ffffffffffffffff dev_addr=1000000000 size=65536 FORCE\n";

/* 4.19 with swiotlb=noforce: 5-wide pid, four flag columns. */
static const char noforce_4_19[] =
	"            bash-1234  [002] d...   812.000100: swiotlb_bounced: dev_name: 0000:02:00.0 "
	"dma_mask=ffffffff dev_addr=123456000 size=512 NO_FORCE\n";

/* 3.16: the force word is "swiotlb_force" or nothing, after a blank that is always there. */
static const char normal_3_16[] =
	"     kworker/0:1-22    [000] ....    30.100000: swiotlb_bounced: dev_name: 0000:00:1f.2 "
	"dma_mask=ffffffff dev_addr=11e000000 size=8192 \n";
static const char forced_3_16[] =
	"     kworker/0:1-22    [000] ....    30.100001: swiotlb_bounced: dev_name: 0000:00:1f.2 "
	"dma_mask=ffffffff dev_addr=11e000000 size=8192 swiotlb_force\n";

/* 6.4+ with the "fields" option: print_fields() in struct order, bool force as "(%d)". */
static const char fields_6_4[] =
	"          <idle>-0       [001] d.h1.   123.456789: swiotlb_bounced: dev_name=0000:00:01.1 "
	"dma_mask=0xffffffff (4294967295) dev_addr=0x17f9e8000 (6436061184) size=0x1000 (4096) "
	"force=(0)\n";

/* 6.3's print_fields() went through the fields in reverse. */
static const char fields_6_3[] =
	"              dd-300     [000] .....    40.000000: swiotlb_bounced: force=(1) size=0x200 (512) "
	"dev_addr=0x100000000 (4294967296) dma_mask=0xffffffff (4294967295) dev_name=0000:00:05.0\n";

/* What parse() fills *ret with first: a field still holding it was not written. */
#define UNTOUCHED 0xaaaaaaaaaaaaaaaaull

struct parsed {
	int r;
	struct bounce_event ev;
	struct parse_error err;
};

static struct parsed parse(const char *s)
{
	struct parsed p = { .err = { 0 } };

	memset(&p.ev, 0xaa, sizeof(p.ev));
	p.r = trace_parse_bounced(s, strlen(s), &p.ev, &p.err);
	return p;
}

/* Macros, so that a failure names the line of the case, not of a helper. */

/* Some other line: 0, and *ret untouched. */
#define assert_other(s)                                     \
	do {                                                \
		struct parsed p_ = parse(s);                \
		assert_int_equal(p_.r, 0);                  \
		assert_int_equal(p_.ev.dma_mask, UNTOUCHED); \
	} while (0)

/* A swiotlb_bounced line that does not parse: -EBADMSG with a reason, *ret untouched. */
#define assert_bad_line(s)                                  \
	do {                                                \
		struct parsed p_ = parse(s);                \
		assert_int_equal(p_.r, -EBADMSG);           \
		assert_non_null(p_.err.what);               \
		assert_int_equal(p_.err.line, 1);           \
		assert_int_equal(p_.ev.dma_mask, UNTOUCHED); \
	} while (0)

static void test_debian_6_1(void **state)
{
	struct parsed p = parse(debian_6_1);

	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "0000:00:01.1");
	assert_int_equal(p.ev.dma_mask, 0xffffffffull);
	assert_int_equal(p.ev.dev_addr, 0x17f9e8000ull);
	assert_int_equal(p.ev.size, 4096);
	assert_int_equal(p.ev.force, TRACE_FORCE_NORMAL);
	assert_false(p.ev.fields_form);
}

static void test_coco_force(void **state)
{
	struct parsed p = parse(coco_6_1);

	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "0000:00:04.0");
	assert_int_equal(p.ev.dma_mask, UINT64_MAX);
	assert_int_equal(p.ev.dev_addr, 0x1000000000ull);
	assert_int_equal(p.ev.size, 65536);
	assert_int_equal(p.ev.force, TRACE_FORCE_FORCE);
}

static void test_no_force_4_19(void **state)
{
	struct parsed p = parse(noforce_4_19);

	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "0000:02:00.0");
	assert_int_equal(p.ev.dev_addr, 0x123456000ull);
	assert_int_equal(p.ev.size, 512);
	assert_int_equal(p.ev.force, TRACE_FORCE_NO_FORCE);
}

static void test_3_16_words(void **state)
{
	struct parsed p = parse(normal_3_16);

	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "0000:00:1f.2");
	assert_int_equal(p.ev.size, 8192);
	assert_int_equal(p.ev.force, TRACE_FORCE_NORMAL);

	p = parse(forced_3_16);
	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.force, TRACE_FORCE_FORCE);
}

/* Words no mainline kernel prints: __print_symbolic's hex fallback, SUSE Xen's OFF. */
static void test_unknown_force_word(void **state)
{
	struct parsed p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: vda dma_mask=0 "
				"dev_addr=0 size=1 0x3\n");

	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.force, TRACE_FORCE_UNKNOWN);
	assert_int_equal(p.ev.dma_mask, 0); /* no mask at all */

	p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: vda dma_mask=0 "
		  "dev_addr=0 size=1 OFF\n");
	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.force, TRACE_FORCE_UNKNOWN);
}

/* A task name may hold blanks, colons, dashes, digits and dots. */
static void test_task_name(void **state)
{
	struct parsed p = parse("     dd: 1.5 x-y-4242    [003] .N...  9999.999999: swiotlb_bounced: "
				"dev_name: 1-1.2:1.0 dma_mask=ffffffff dev_addr=200000000 size=31 FORCE\n");

	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "1-1.2:1.0");
	assert_int_equal(p.ev.size, 31);
}

/* The context columns' other shapes: tgid, counter clocks, latency format, no context. */
static void test_context_variants(void **state)
{
	static const char *const lines[] = {
		/* record-tgid */
		"            bash-1234    (   1234) [000] .....    10.000000: swiotlb_bounced: "
		"dev_name: sda dma_mask=ffffffff dev_addr=100000000 size=4096 NORMAL\n",
		/* trace_clock=counter: " %12llu" */
		"            bash-1234    [000] .....  12345678901: swiotlb_bounced: "
		"dev_name: sda dma_mask=ffffffff dev_addr=100000000 size=4096 NORMAL\n",
		/* latency-format: " %4lldus%c: " */
		"  <idle>-0         1d.h1.    3us+: swiotlb_bounced: "
		"dev_name: sda dma_mask=ffffffff dev_addr=100000000 size=4096 NORMAL\n",
		"  <idle>-0         1d.h1.    3us : swiotlb_bounced: "
		"dev_name: sda dma_mask=ffffffff dev_addr=100000000 size=4096 NORMAL\n",
		/* latency-format and verbose */
		"          <idle>       0   1 1 00000001 00000003 [0000abcd] 0.003ms (+0.000ms): "
		"swiotlb_bounced: "
		"dev_name: sda dma_mask=ffffffff dev_addr=100000000 size=4096 NORMAL\n",
		/* context-info off */
		"swiotlb_bounced: dev_name: sda dma_mask=ffffffff dev_addr=100000000 size=4096 NORMAL\n",
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct parsed p = parse(lines[i]);
		assert_int_equal(p.r, 1);
		assert_string_equal(p.ev.dev_name, "sda");
		assert_int_equal(p.ev.dev_addr, 0x100000000ull);
	}
}

static void test_fields_form(void **state)
{
	struct parsed p = parse(fields_6_4);

	assert_int_equal(p.r, 1);
	assert_true(p.ev.fields_form);
	assert_string_equal(p.ev.dev_name, "0000:00:01.1");
	assert_int_equal(p.ev.dma_mask, 0xffffffffull);
	assert_int_equal(p.ev.dev_addr, 0x17f9e8000ull);
	assert_int_equal(p.ev.size, 4096);
	assert_int_equal(p.ev.force, TRACE_FORCE_NORMAL);
}

static void test_fields_reversed_6_3(void **state)
{
	struct parsed p = parse(fields_6_3);

	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "0000:00:05.0");
	assert_int_equal(p.ev.dma_mask, 0xffffffffull);
	assert_int_equal(p.ev.dev_addr, 0x100000000ull);
	assert_int_equal(p.ev.size, 512);
	assert_int_equal(p.ev.force, TRACE_FORCE_FORCE);
}

/* A record of a 4.10-5.17 kernel: an enum (4 bytes, "0x%x (%d)") named swiotlb_force. */
static void test_fields_swiotlb_force(void **state)
{
	struct parsed p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=0000:00:02.0 "
				"dma_mask=0xffffffff (4294967295) dev_addr=0x180000000 (6442450944) "
				"size=0x1000 (4096) swiotlb_force=0x2 (2)\n");

	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.force, TRACE_FORCE_NO_FORCE);

	p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=0000:00:02.0 "
		  "dma_mask=0xffffffff (4294967295) dev_addr=0x180000000 (6442450944) "
		  "size=0x1000 (4096) swiotlb_force=0x7 (7)\n");
	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.force, TRACE_FORCE_UNKNOWN);
}

/* 6.16+ prints 8-byte fields with %pS: without CONFIG_KALLSYMS, zero-padded hex. */
static void test_fields_padded_hex(void **state)
{
	struct parsed p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
				"dma_mask=0x00000000ffffffff (4294967295) dev_addr=0x0000000100000000 (4294967296) "
				"size=0x0000000000001000 (4096) force=(0)\n");

	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.dma_mask, 0xffffffffull);
	assert_int_equal(p.ev.dev_addr, 0x100000000ull);
	assert_int_equal(p.ev.size, 4096);
}

/* A 32-bit kernel: 4-byte dma_addr_t and size_t, whose "%d" goes negative. */
static void test_fields_32bit(void **state)
{
	struct parsed p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=fe300000.mmc "
				"dma_mask=0x3fffffff (1073741823) dev_addr=0xfffff000 (-4096) "
				"size=0x200 (512) force=(0)\n");

	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "fe300000.mmc");
	assert_int_equal(p.ev.dma_mask, 0x3fffffffull);
	assert_int_equal(p.ev.dev_addr, 0xfffff000ull);
}

/* phys_to_dma() gives DMA_MAPPING_ERROR when no dma-range covers the buffer. */
static void test_all_ones_dev_addr(void **state)
{
	struct parsed p = parse("     kworker/1:2-99      [001] .....   5.500000: swiotlb_bounced: "
				"dev_name: fe340000.mmc dma_mask=3fffffff dev_addr=ffffffffffffffff size=512 NORMAL\n");

	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.dev_addr, UINT64_MAX);

	p = parse("     kworker/1:2-99      [001] .....   5.500000: swiotlb_bounced: "
		  "dev_name=fe340000.mmc dma_mask=0x3fffffff (1073741823) "
		  "dev_addr=0xffffffffffffffff (-1) size=0x200 (512) force=(0)\n");
	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.dev_addr, UINT64_MAX);
}

/* A device name may hold blanks (drivers/net/phy/fixed_phy.c: "Fixed MDIO bus"). */
static void test_dev_name_blanks(void **state)
{
	struct parsed p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: Fixed MDIO bus.0 "
				"dma_mask=ffffffff dev_addr=100000000 size=64 NORMAL\n");

	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "Fixed MDIO bus.0");

	p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=Fixed MDIO bus.0 "
		  "dma_mask=0xffffffff (4294967295) dev_addr=0x100000000 (4294967296) size=0x40 (64) "
		  "force=(0)\n");
	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "Fixed MDIO bus.0");
}

/* NAME_MAX bytes fit; one more does not. */
static void test_dev_name_length(void **state)
{
	char name[300], line[600];

	memset(name, 'n', 255);
	name[255] = '\0';
	snprintf(line, sizeof(line), "  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: %s "
		 "dma_mask=ffffffff dev_addr=100000000 size=64 NORMAL\n", name);
	struct parsed p = parse(line);
	assert_int_equal(p.r, 1);
	assert_int_equal(strlen(p.ev.dev_name), 255);

	name[255] = 'n';
	name[256] = '\0';
	snprintf(line, sizeof(line), "  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: %s "
		 "dma_mask=ffffffff dev_addr=100000000 size=64 NORMAL\n", name);
	assert_bad_line(line);
}

/* 6.3's print_fields() printed "<OVERFLOW>" for a string ending at the record's end. */
static void test_fields_overflow_name(void **state)
{
	struct parsed p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=<OVERFLOW> "
				"dma_mask=0xffffffff (4294967295) dev_addr=0x100000000 (4294967296) "
				"size=0x40 (64) force=(0)\n");

	assert_int_equal(p.r, 1);
	assert_string_equal(p.ev.dev_name, "");

	/* a number it could not print is no number */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
			"dma_mask=0xffffffff (4294967295) dev_addr=<OVERFLOW> size=0x40 (64) force=(0)\n");
}

/* A field a later kernel adds is skipped. */
static void test_fields_extra(void **state)
{
	struct parsed p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
				"dma_mask=0xffffffff (4294967295) dev_addr=0x100000000 (4294967296) "
				"size=0x40 (64) force=(0) attrs=0x20 (32) pool=0xffff888100000000 (-131387166474240)\n");

	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.size, 64);
}

static void test_fields_bad(void **state)
{
	/* no dev_addr */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
			"dma_mask=0xffffffff (4294967295) size=0x40 (64) force=(0)\n");
	/* twice */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda dev_name=sdb "
			"dma_mask=0xffffffff (4294967295) dev_addr=0x1 (1) size=0x40 (64) force=(0)\n");
	/* hex and decimal disagree */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
			"dma_mask=0xffffffff (4294967294) dev_addr=0x1 (1) size=0x40 (64) force=(0)\n");
	/* a printable 1-byte value and its decimal disagree */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
			"dma_mask=0xffffffff (4294967295) dev_addr=0x1 (1) size=0x40 (64) force='A'(66)\n");
	/* no hex, no decimal */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
			"dma_mask=ffffffff dev_addr=0x1 (1) size=0x40 (64) force=(0)\n");
	/* both force fields */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
			"dma_mask=0xffffffff (4294967295) dev_addr=0x1 (1) size=0x40 (64) force=(0) "
			"swiotlb_force=0x0 (0)\n");
	/* nothing after the event name */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: \n");
}

static void test_printk_bad(void **state)
{
	/* TP_printk's %llx has no 0x */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
			"dma_mask=0xffffffff dev_addr=100000000 size=64 NORMAL\n");
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
			"dma_mask=ffffffff dev_addr=100000000 size=0x40 NORMAL\n");
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
			"dma_mask=ffffffff size=64 NORMAL\n");
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
			"dma_mask=ffffffff dev_addr=100000000 size=64 NORMAL extra\n");
	/* no blank after size: not the kernel's "size=%zu %s" */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
			"dma_mask=ffffffff dev_addr=100000000 size=64\n");
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name:  "
			"dma_mask=ffffffff dev_addr=100000000 size=64 NORMAL\n");
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: s\tda "
			"dma_mask=ffffffff dev_addr=100000000 size=64 NORMAL\n");
}

/* Values beyond 64 bits are refused, never wrapped. */
static void test_overflow(void **state)
{
	/* 2^64 as 20 decimal digits */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
			"dma_mask=ffffffff dev_addr=100000000 size=18446744073709551616 NORMAL\n");
	/* 17 hex digits */
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
			"dma_mask=1ffffffffffffffff dev_addr=100000000 size=64 NORMAL\n");
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
			"dma_mask=0xffffffff (4294967295) dev_addr=0x1 (1) "
			"size=0x10000000000000000 (18446744073709551616) force=(0)\n");
	assert_bad_line("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
			"dma_mask=0xffffffff (4294967295) dev_addr=0x1 (-9223372036854775809) "
			"size=0x40 (64) force=(0)\n");

	/* the largest still fit */
	struct parsed p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
				"dma_mask=ffffffffffffffff dev_addr=0 size=18446744073709551615 NORMAL\n");
	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.size, UINT64_MAX);
	p = parse("  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name=sda "
		  "dma_mask=0x8000000000000000 (-9223372036854775808) dev_addr=0x1 (1) "
		  "size=0x40 (64) force=(0)\n");
	assert_int_equal(p.r, 1);
	assert_int_equal(p.ev.dma_mask, 0x8000000000000000ull);
}

/* The header of trace, other events, blank lines. */
static void test_other_lines(void **state)
{
	assert_other("");
	assert_other("\n");
	assert_other("# tracer: nop\n");
	assert_other("#\n");
	assert_other("# entries-in-buffer/entries-written: 3/3   #P:2\n");
	assert_other("#                                _-----=> irqs-off/BH-disabled\n");
	assert_other("#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n");
	assert_other("#              | |         |   |||||     |         |\n");
	assert_other("# 1.0: swiotlb_bounced: dev_name: sda dma_mask=0 dev_addr=0 size=1 FORCE\n");
	assert_other("CPU:1 [LOST 20 EVENTS]\n");
	assert_other("##### CPU 2 buffer started ####\n");
	assert_other("            bash-1234    [000] .....    10.000000: sched_switch: prev_comm=bash "
		     "prev_pid=1234 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 "
		     "next_prio=120\n");
	assert_other("            bash-1234    [000] .....    10.000000: swiotlb_bounced_v2: "
		     "dev_name: sda\n");
	/* another event's text, or a trace_marker write, naming the event */
	assert_other("            bash-1234    [000] .....    10.000000: tracing_mark_write: "
		     "swiotlb_bounced: "
		     "dev_name: sda dma_mask=0 dev_addr=0 size=1 FORCE\n");
	assert_other("            bash-1234    [000] .....    10.000000: bprint: foo2: swiotlb_bounced: "
		     "dev_name: sda dma_mask=0 dev_addr=0 size=1 FORCE\n");
	/* a NUL in another line is that line's business */
	static const char nul_other[] = "            bash-1234    [000] .....    10.000000: foo: a\0b\n";
	struct bounce_event ev;
	struct parse_error e = { 0 };
	assert_int_equal(trace_parse_bounced(nul_other, sizeof(nul_other) - 1, &ev, &e), 0);
}

/* Every proper prefix of a valid line: 0 (before the event name) or -EBADMSG, never 1. */
static void test_truncated_everywhere(void **state)
{
	const char *const lines[] = { debian_6_1, coco_6_1, noforce_4_19, normal_3_16, forced_3_16,
				      fields_6_4, fields_6_3 };

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		size_t n = strlen(lines[i]);
		for (size_t cut = 0; cut < n; cut++) {
			/* a heap copy of exactly cut bytes: ASan/valgrind catch a read past it */
			char *s = malloc(cut ? cut : 1);
			struct bounce_event ev;
			struct parse_error e = { 0 };
			int r;

			assert_non_null(s);
			memcpy(s, lines[i], cut);
			memset(&ev, 0x55, sizeof(ev));
			r = trace_parse_bounced(s, cut, &ev, &e);
			assert_true(r == 0 || r == -EBADMSG);
			assert_int_equal(ev.size, 0x5555555555555555ull);
			if (r < 0)
				assert_non_null(e.what);
			free(s);
		}
	}
}

static void test_nul(void **state)
{
	static const char in_name[] = "  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: s\0a "
				      "dma_mask=ffffffff dev_addr=100000000 size=64 NORMAL\n";
	static const char in_task[] = "  \0-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
				      "dma_mask=ffffffff dev_addr=100000000 size=64 NORMAL\n";
	static const char in_number[] = "  x-1 [000] ..... 1.000000: swiotlb_bounced: dev_name: sda "
					"dma_mask=ffff\0fff dev_addr=100000000 size=64 NORMAL\n";
	const char *const bufs[] = { in_name, in_task, in_number };
	const size_t lens[] = { sizeof(in_name) - 1, sizeof(in_task) - 1, sizeof(in_number) - 1 };

	for (size_t i = 0; i < 3; i++) {
		struct bounce_event ev;
		struct parse_error e = { 0 };

		assert_int_equal(trace_parse_bounced(bufs[i], lens[i], &ev, &e), -EBADMSG);
		assert_non_null(e.what);
	}
}

/* One line at a time: two are refused, not half read. */
static void test_two_lines(void **state)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s%s", debian_6_1, coco_6_1);
	assert_bad_line(buf);
}

/* ---- the format file ---- */

/* This machine's kernel (6.18.44; the layout since 5.18): bool force. */
static const char format_6_18[] =
	"name: swiotlb_bounced\n"
	"ID: 441\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] dev_name;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:u64 dma_mask;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:dma_addr_t dev_addr;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t size;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:bool force;\toffset:40;\tsize:1;\tsigned:0;\n"
	"\n"
	"print fmt: \"dev_name: %s dma_mask=%llx dev_addr=%llx size=%zu %s\", __get_str(dev_name), "
	"REC->dma_mask, (unsigned long long)REC->dev_addr, REC->size, "
	"REC->force ? \"FORCE\" : \"NORMAL\"\n";

/*
 * 4.10-5.17 (x86_64), rebuilt from that TP_STRUCT__entry and f_show():
 * __field(enum swiotlb_force, swiotlb_force), __print_symbolic.
 */
static const char format_5_10[] =
	"name: swiotlb_bounced\n"
	"ID: 1196\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] dev_name;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 dma_mask;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:dma_addr_t dev_addr;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:size_t size;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:enum swiotlb_force swiotlb_force;\toffset:40;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"dev_name: %s dma_mask=%llx dev_addr=%llx size=%zu %s\", __get_str(dev_name), "
	"REC->dma_mask, (unsigned long long)REC->dev_addr, REC->size, "
	"__print_symbolic(REC->swiotlb_force, { SWIOTLB_NORMAL, \"NORMAL\" }, "
	"{ SWIOTLB_FORCE, \"FORCE\" }, { SWIOTLB_NO_FORCE, \"NO_FORCE\" })\n";

/* 3.13-4.9 on 32-bit ARM (rebuilt likewise): int swiotlb_force, 4-byte dma_addr_t and size_t. */
static const char format_3_16_arm[] =
	"name: swiotlb_bounced\n"
	"ID: 402\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:__data_loc char[] dev_name;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 dma_mask;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:dma_addr_t dev_addr;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:size_t size;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:int swiotlb_force;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"dev_name: %s dma_mask=%llx dev_addr=%llx size=%zu %s\", __get_str(dev_name), "
	"REC->dma_mask, (unsigned long long)REC->dev_addr, REC->size, "
	"REC->swiotlb_force ? \"swiotlb_force\" : \"\"\n";

struct fparsed {
	int r;
	struct trace_format f;
	struct parse_error err;
};

static struct fparsed fparse(const char *s, size_t len)
{
	struct fparsed p = { .err = { 0 } };

	memset(&p.f, 0xaa, sizeof(p.f));
	p.r = trace_format_parse(s, len, &p.f, &p.err);
	return p;
}

/* Replace the first occurrence of from with to: a variant of a fixture. */
static char *edit(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	size_t n = strlen(s) - strlen(from) + strlen(to) + 1;
	char *out = malloc(n);

	assert_non_null(at);
	assert_non_null(out);
	snprintf(out, n, "%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
	return out;
}

#define assert_bad_format(text, line_no)                               \
	do {                                                           \
		struct fparsed p_ = fparse((text), strlen(text));      \
		assert_int_equal(p_.r, -EBADMSG);                      \
		assert_int_equal(p_.err.line, (line_no));              \
		assert_non_null(p_.err.what);                          \
		assert_int_equal(p_.f.id, 0xaaaaaaaau);                \
	} while (0)

static void test_format_6_18(void **state)
{
	struct fparsed p = fparse(format_6_18, strlen(format_6_18));

	assert_int_equal(p.r, 0);
	assert_int_equal(p.f.id, 441);
	assert_int_equal(p.f.force_field, TRACE_FORCE_FIELD_BOOL);
	assert_int_equal(p.f.dev_addr_size, 8);
	assert_int_equal(p.f.size_field_size, 8);
	assert_true(p.f.known_print_fmt);
}

static void test_format_5_10_enum(void **state)
{
	struct fparsed p = fparse(format_5_10, strlen(format_5_10));

	assert_int_equal(p.r, 0);
	assert_int_equal(p.f.id, 1196);
	assert_int_equal(p.f.force_field, TRACE_FORCE_FIELD_ENUM);
	assert_true(p.f.known_print_fmt);
}

static void test_format_3_16_int(void **state)
{
	struct fparsed p = fparse(format_3_16_arm, strlen(format_3_16_arm));

	assert_int_equal(p.r, 0);
	assert_int_equal(p.f.force_field, TRACE_FORCE_FIELD_INT);
	assert_int_equal(p.f.dev_addr_size, 4);
	assert_int_equal(p.f.size_field_size, 4);
	assert_true(p.f.known_print_fmt);
}

static void test_format_missing_field(void **state)
{
	char *no_addr = edit(format_6_18, "\tfield:dma_addr_t dev_addr;\toffset:24;\tsize:8;\tsigned:0;\n",
			     "");
	char *no_name = edit(format_6_18,
			     "\tfield:__data_loc char[] dev_name;\toffset:8;\tsize:4;\tsigned:0;\n", "");
	char *no_size = edit(format_6_18, "\tfield:size_t size;\toffset:32;\tsize:8;\tsigned:0;\n", "");
	char *no_mask = edit(format_6_18, "\tfield:u64 dma_mask;", "\tfield:u64 mask;");

	assert_bad_format(no_addr, 0);
	assert_bad_format(no_name, 0);
	assert_bad_format(no_size, 0);
	assert_bad_format(no_mask, 0);
	free(no_addr);
	free(no_name);
	free(no_size);
	free(no_mask);
}

/* No force field: parses, and says so. */
static void test_format_no_force(void **state)
{
	char *s = edit(format_6_18, "\tfield:bool force;\toffset:40;\tsize:1;\tsigned:0;\n", "");
	struct fparsed p = fparse(s, strlen(s));

	assert_int_equal(p.r, 0);
	assert_int_equal(p.f.force_field, TRACE_FORCE_FIELD_NONE);
	free(s);
}

/* A print fmt of its own: the fields option still works, so not an error. */
static void test_format_unknown_print_fmt(void **state)
{
	char *s = edit(format_6_18, "size=%zu %s\"", "size=%zu force=%d\"");
	struct fparsed p = fparse(s, strlen(s));

	assert_int_equal(p.r, 0);
	assert_false(p.f.known_print_fmt);
	free(s);

	/* same text, other arguments */
	s = edit(format_6_18, "REC->dma_mask, (unsigned long long)REC->dev_addr",
		 "(unsigned long long)REC->dev_addr, REC->dma_mask");
	p = fparse(s, strlen(s));
	assert_int_equal(p.r, 0);
	assert_false(p.f.known_print_fmt);
	free(s);
}

static void test_format_bad(void **state)
{
	char *s;

	/* another event's format (net/core/net-traces.c napi_poll) */
	assert_bad_format("name: napi_poll\nID: 1233\nformat:\n"
			  "\tfield:__data_loc char[] dev_name;\toffset:16;\tsize:4;\tsigned:1;\n"
			  "\nprint fmt: \"napi poll %s\", __get_str(dev_name)\n", 1);
	assert_bad_format("name: swiotlb_bounced\nID: x\nformat:\n", 2);
	assert_bad_format("name: swiotlb_bounced\nID: 65536\nformat:\n", 2);
	assert_bad_format("name: swiotlb_bounced\nID: 1\nfields:\n", 3);
	assert_bad_format("name: swiotlb_bounced\nID: 1\nformat:\n", 0);
	assert_bad_format("", 0);

	s = edit(format_6_18, "u64 dma_mask;\toffset:16;\tsize:8", "u32 dma_mask;\toffset:16;\tsize:4");
	assert_bad_format(s, 10);
	free(s);
	s = edit(format_6_18, "bool force;", "u8 force;");
	assert_bad_format(s, 13);
	free(s);
	s = edit(format_6_18, "__data_loc char[] dev_name", "u32 dev_name");
	assert_bad_format(s, 9);
	free(s);
	/* force, swiotlb_force, and a force2 taking the original line's rest */
	s = edit(format_6_18, "\tfield:bool force;",
		 "\tfield:bool force;\toffset:41;\tsize:1;\tsigned:0;\n"
		 "\tfield:int swiotlb_force;\toffset:44;\tsize:4;\tsigned:1;\n"
		 "\tfield:bool force2;");
	assert_bad_format(s, 0);
	free(s);
	s = edit(format_6_18, "\tfield:size_t size;",
		 "\tfield:size_t size;\toffset:32;\tsize:8;\tsigned:0;\n"
		 "\tfield:size_t size;");
	assert_bad_format(s, 13);
	free(s);
	s = edit(format_6_18, "offset:24;", "offset:24");
	assert_bad_format(s, 11);
	free(s);
	s = edit(format_6_18, "\tfield:size_t size;", "\tfield:size;");
	assert_bad_format(s, 12);
	free(s);
	s = edit(format_6_18, "\tfield:size_t size;", "\tsize_t size;");
	assert_bad_format(s, 12);
	free(s);
	s = edit(format_6_18, "print fmt:", "printfmt:");
	assert_bad_format(s, 15);
	free(s);
}

/* The kernel documentation's sample drops a tab ("size:1;signed:0;"): still read. */
static void test_format_lenient_blanks(void **state)
{
	char *s = edit(format_6_18, "size:1;\tsigned:0;\n\n", "size:1;signed:0;\n\n");
	struct fparsed p = fparse(s, strlen(s));

	assert_int_equal(p.r, 0);
	assert_int_equal(p.f.force_field, TRACE_FORCE_FIELD_BOOL);
	free(s);
}

/* Every proper prefix of a format file is refused: a short read is not a format. */
static void test_format_truncated_everywhere(void **state)
{
	const char *const files[] = { format_6_18, format_5_10, format_3_16_arm };

	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(files[i]);
		for (size_t cut = 0; cut < n; cut++) {
			char *s = malloc(cut ? cut : 1);
			assert_non_null(s);
			memcpy(s, files[i], cut);
			struct fparsed p = fparse(s, cut);
			assert_int_equal(p.r, -EBADMSG);
			assert_non_null(p.err.what);
			free(s);
		}
	}
}

static void test_format_nul(void **state)
{
	char *s = strdup(format_6_18);
	size_t n = strlen(s);

	assert_non_null(s);
	s[n / 2] = '\0';
	struct fparsed p = fparse(s, n);
	assert_int_equal(p.r, -EBADMSG);
	assert_non_null(p.err.what);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_6_1),
		cmocka_unit_test(test_coco_force),
		cmocka_unit_test(test_no_force_4_19),
		cmocka_unit_test(test_3_16_words),
		cmocka_unit_test(test_unknown_force_word),
		cmocka_unit_test(test_task_name),
		cmocka_unit_test(test_context_variants),
		cmocka_unit_test(test_fields_form),
		cmocka_unit_test(test_fields_reversed_6_3),
		cmocka_unit_test(test_fields_swiotlb_force),
		cmocka_unit_test(test_fields_padded_hex),
		cmocka_unit_test(test_fields_32bit),
		cmocka_unit_test(test_all_ones_dev_addr),
		cmocka_unit_test(test_dev_name_blanks),
		cmocka_unit_test(test_dev_name_length),
		cmocka_unit_test(test_fields_overflow_name),
		cmocka_unit_test(test_fields_extra),
		cmocka_unit_test(test_fields_bad),
		cmocka_unit_test(test_printk_bad),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_other_lines),
		cmocka_unit_test(test_truncated_everywhere),
		cmocka_unit_test(test_nul),
		cmocka_unit_test(test_two_lines),
		cmocka_unit_test(test_format_6_18),
		cmocka_unit_test(test_format_5_10_enum),
		cmocka_unit_test(test_format_3_16_int),
		cmocka_unit_test(test_format_missing_field),
		cmocka_unit_test(test_format_no_force),
		cmocka_unit_test(test_format_unknown_print_fmt),
		cmocka_unit_test(test_format_bad),
		cmocka_unit_test(test_format_lenient_blanks),
		cmocka_unit_test(test_format_truncated_everywhere),
		cmocka_unit_test(test_format_nul),
	};

	return cmocka_run_group_tests_name("trace", tests, NULL, NULL);
}
