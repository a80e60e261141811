/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* src/readers/coco.c and hypervisor.c on fake roots. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/coco.h"
#include "readers/readers.h"
#include "fake-root.h"


/* What the analysis makes of the signs read. */
static struct coco_verdict decide(const struct machine *m)
{
	struct coco_verdict v;

	coco_decide(&m->coco, &v);
	return v;
}

static const char cpuinfo_tdx[] =
	"processor\t: 0\n"
	"vendor_id\t: GenuineIntel\n"
	"model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
	"flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 "
	"clflush mmx fxsr sse sse2 ss syscall nx pdpe1gb rdtscp lm constant_tsc rep_good nopl "
	"xtopology tsc_reliable nonstop_tsc cpuid tsc_known_freq pni tdx_guest hypervisor\n"
	"bugs\t\t: spectre_v1 spectre_v2\n"
	"\n";

static const char cpuinfo_plain[] =
	"processor\t: 0\n"
	"flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep hypervisor\n"
	"vmx flags\t: tdx_guest_is_not_a_flag_here\n"
	"power management:\n"
	"\n";

struct env {
	char *root;
	struct sysroot *sr;
	struct machine m;
};

static void env_open(struct env *e)
{
	assert_int_equal(sysroot_open(e->root, 0, &e->sr), 0);
	machine_init(&e->m);
}

static void env_close(struct env *e)
{
	machine_done(&e->m);
	sysroot_free(e->sr);
	tmp_root_free(e->root);
}

/* The status recorded for path, or -1 when it was not recorded. */
static int status_of(const struct machine *m, const char *path)
{
	for (size_t i = 0; i < m->n_inputs; i++)
		if (strcmp(m->inputs[i].path, path) == 0)
			return (int)m->inputs[i].status;
	return -1;
}

static void test_tdx_cpuinfo(void **state)
{
	struct env e = { .root = tmp_root_new() };
	(void)state;

	tmp_root_write_str(e.root, "proc/cpuinfo", cpuinfo_tdx);
	tmp_root_write(e.root, "dev/tdx_guest", "", 0);
	env_open(&e);
	assert_int_equal(read_coco(e.sr, &e.m), 0);
	assert_true(e.m.coco.cpuinfo_tdx_guest);
	assert_int_equal(decide(&e.m).kind, COCO_TDX_GUEST);
	assert_true(e.m.coco.dev_tdx_guest);
	assert_int_not_equal(decide(&e.m).kind, COCO_SEV_GUEST);
	assert_string_equal(decide(&e.m).evidence, "proc/cpuinfo flag tdx_guest");
	assert_int_equal(status_of(&e.m, "proc/cpuinfo"), INPUT_OK);
	assert_int_equal(status_of(&e.m, "dev/tdx_guest"), INPUT_OK);
	assert_int_equal(status_of(&e.m, "dev/sev-guest"), -1);
	env_close(&e);
}

static void test_sev_device_keeps_log_evidence(void **state)
{
	struct env e = { .root = tmp_root_new() };
	(void)state;

	tmp_root_write_str(e.root, "proc/cpuinfo", cpuinfo_plain);
	tmp_root_write(e.root, "dev/sev-guest", "", 0);
	env_open(&e);
	e.m.coco.log_sev = true;
	e.m.coco.log_line = strdup("Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP");
	assert_non_null(e.m.coco.log_line);
	assert_int_equal(read_coco(e.sr, &e.m), 0);
	assert_false(e.m.coco.cpuinfo_tdx_guest);
	assert_int_not_equal(decide(&e.m).kind, COCO_TDX_GUEST);
	assert_true(e.m.coco.dev_sev_guest);
	assert_int_equal(decide(&e.m).kind, COCO_SEV_GUEST);
	assert_string_equal(decide(&e.m).evidence,
			    "Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP");
	assert_int_equal(status_of(&e.m, "dev/sev-guest"), INPUT_OK);
	env_close(&e);
}

static void test_sev_device_alone(void **state)
{
	struct env e = { .root = tmp_root_new() };
	(void)state;

	tmp_root_write(e.root, "dev/sev-guest", "", 0);
	env_open(&e);
	assert_int_equal(read_coco(e.sr, &e.m), 0);
	assert_int_equal(decide(&e.m).kind, COCO_SEV_GUEST);
	assert_string_equal(decide(&e.m).evidence, "dev/sev-guest exists");
	assert_int_equal(status_of(&e.m, "proc/cpuinfo"), INPUT_MISSING);
	env_close(&e);
}

static void test_plain_machine(void **state)
{
	struct env e = { .root = tmp_root_new() };
	(void)state;

	tmp_root_write_str(e.root, "proc/cpuinfo", cpuinfo_plain);
	env_open(&e);
	assert_int_equal(read_coco(e.sr, &e.m), 0);
	assert_int_equal(decide(&e.m).kind, COCO_NONE);
	assert_false(e.m.coco.dev_sev_guest || e.m.coco.dev_tdx_guest || e.m.coco.cpuinfo_tdx_guest);
	assert_null(decide(&e.m).evidence);
	assert_int_equal(e.m.n_inputs, 1);
	assert_int_equal(read_hypervisor(e.sr, &e.m), 0);
	assert_int_equal(e.m.hyp.type, HYPERVISOR_NONE);
	assert_false(e.m.hyp.xen_dom0);
	assert_int_equal(e.m.n_inputs, 1); /* no sys/hypervisor: nothing recorded */
	env_close(&e);
}

static void test_xen_pv_dom0(void **state)
{
	struct env e = { .root = tmp_root_new() };
	(void)state;

	tmp_root_write_str(e.root, "sys/hypervisor/type", "xen\n");
	tmp_root_write_str(e.root, "sys/hypervisor/guest_type", "PV\n");
	tmp_root_write_str(e.root, "proc/xen/capabilities", "control_d\n");
	env_open(&e);
	assert_int_equal(read_hypervisor(e.sr, &e.m), 0);
	assert_int_equal(e.m.hyp.type, HYPERVISOR_XEN);
	assert_int_equal(e.m.hyp.xen_guest_type, XEN_GUEST_PV);
	assert_true(e.m.hyp.xen_dom0);
	assert_int_equal(status_of(&e.m, "sys/hypervisor/type"), INPUT_OK);
	assert_int_equal(status_of(&e.m, "proc/xen/capabilities"), INPUT_OK);
	env_close(&e);
}

static void test_xen_hvm_domu(void **state)
{
	struct env e = { .root = tmp_root_new() };
	(void)state;

	tmp_root_write_str(e.root, "sys/hypervisor/type", "  xen \n");
	tmp_root_write_str(e.root, "sys/hypervisor/guest_type", "HVM\n");
	tmp_root_write(e.root, "proc/xen/capabilities", "", 0);
	env_open(&e);
	assert_int_equal(read_hypervisor(e.sr, &e.m), 0);
	assert_int_equal(e.m.hyp.type, HYPERVISOR_XEN);
	assert_int_equal(e.m.hyp.xen_guest_type, XEN_GUEST_HVM);
	assert_false(e.m.hyp.xen_dom0);
	env_close(&e);
}

static void test_hypervisor_dir_without_type(void **state)
{
	struct env e = { .root = tmp_root_new() };
	(void)state;

	/* CONFIG_SYS_HYPERVISOR makes the directory even on bare metal */
	tmp_root_mkdir(e.root, "sys/hypervisor");
	env_open(&e);
	assert_int_equal(read_hypervisor(e.sr, &e.m), 0);
	assert_int_equal(e.m.hyp.type, HYPERVISOR_NONE);
	assert_int_equal(e.m.n_inputs, 1);
	assert_int_equal(e.m.inputs[0].status, INPUT_MISSING);
	env_close(&e);
}

/* SEV and TDX are guests whatever else shows; SME alone is a host; the log line is the evidence first. */
static void test_decide(void **state)
{
	struct machine m;
	(void)state;

	machine_init(&m);
	assert_int_equal(decide(&m).kind, COCO_NONE);
	assert_null(decide(&m).evidence);
	m.coco.log_sme = true;
	assert_int_equal(decide(&m).kind, COCO_SME_HOST);
	assert_null(decide(&m).evidence); /* no line kept */
	m.coco.dev_sev_guest = true;
	assert_int_equal(decide(&m).kind, COCO_SEV_GUEST);
	assert_string_equal(decide(&m).evidence, "dev/sev-guest exists");
	m.coco.dev_sev_guest = false;
	m.coco.cpuinfo_tdx_guest = true;
	assert_int_equal(decide(&m).kind, COCO_TDX_GUEST);
	assert_string_equal(decide(&m).evidence, "proc/cpuinfo flag tdx_guest");
	m.coco.cpuinfo_tdx_guest = false;
	m.coco.log_cca = true;
	m.coco.log_line = strdup("RME: Using RSI version 1.0");
	assert_non_null(m.coco.log_line);
	assert_int_equal(decide(&m).kind, COCO_CCA_REALM);
	assert_string_equal(decide(&m).evidence, "RME: Using RSI version 1.0");
	machine_done(&m);
}

static void test_phys_bits(void **state)
{
	static const char amd[] = "processor\t: 0\nflags\t\t: fpu sme\n"
				  "address sizes\t: 43 bits physical, 48 bits virtual\n\n";
	(void)state;

	assert_int_equal(cpuinfo_phys_bits(amd, strlen(amd)), 43);
	assert_int_equal(cpuinfo_phys_bits(cpuinfo_plain, strlen(cpuinfo_plain)), -ENOENT);
	static const char *const bad[] = {
		"address sizes\t: 0 bits physical, 48 bits virtual\n",
		"address sizes\t: 65 bits physical, 48 bits virtual\n",
		"address sizes\t: bits physical\n",
		"address sizes\t: 99999999999999999999999 bits physical\n",
		"address sizes\t: 40 bytes physical\n",
		"address sizes\t: 40",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(cpuinfo_phys_bits(bad[i], strlen(bad[i])), -EBADMSG);
}

/* vendor_id names the IOMMU's maker on x86: Intel VT-d or AMD-Vi. */
static void test_cpu_vendor(void **state)
{
	static const char intel[] = "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n";
	char *v = NULL;
	(void)state;

	assert_int_equal(cpuinfo_vendor(intel, strlen(intel), &v), 0);
	assert_string_equal(v, "GenuineIntel");
	free(v);
	assert_int_equal(cpuinfo_vendor(cpuinfo_plain, strlen(cpuinfo_plain), &v), -ENOENT);
	static const char *const bad[] = {
		"vendor_id\t:\n", "vendor_id_x\t: AuthenticAMD\n", "vendor_id\t: 0123456789abcdefXYZ\n",
		"vendor_id AuthenticAMD\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(cpuinfo_vendor(bad[i], strlen(bad[i]), &v), -ENOENT);
}

/* sys/firmware/uv/prot_virt_guest: "1" is a PV guest, anything but 0/1 is invalid. */
static void test_prot_virt(void **state)
{
	static const struct {
		const char *content;
		bool pv;
		int status;
	} cases[] = {
		{ "1\n", true, INPUT_OK },
		{ "0\n", false, INPUT_OK },
		{ "2\n", false, INPUT_INVALID },
		{ "", false, INPUT_INVALID },
		{ "11\n", false, INPUT_INVALID },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct env e = { .root = tmp_root_new() };
		tmp_root_write_str(e.root, "sys/firmware/uv/prot_virt_guest", cases[i].content);
		env_open(&e);
		assert_int_equal(read_coco(e.sr, &e.m), 0);
		assert_int_equal(e.m.coco.s390_prot_virt, cases[i].pv);
		assert_int_equal(status_of(&e.m, "sys/firmware/uv/prot_virt_guest"), cases[i].status);
		assert_int_equal(decide(&e.m).kind, cases[i].pv ? COCO_S390_PV : COCO_NONE);
		env_close(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tdx_cpuinfo),
		cmocka_unit_test(test_sev_device_keeps_log_evidence),
		cmocka_unit_test(test_sev_device_alone),
		cmocka_unit_test(test_plain_machine),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_phys_bits),
		cmocka_unit_test(test_prot_virt),
		cmocka_unit_test(test_xen_pv_dom0),
		cmocka_unit_test(test_cpu_vendor),
		cmocka_unit_test(test_xen_hvm_domu),
		cmocka_unit_test(test_hypervisor_dir_without_type),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
