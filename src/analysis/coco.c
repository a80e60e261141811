/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One place decides what the signs mean. sme_enable()
 * (arch/x86/mm/mem_encrypt_identity.c) turns on SEV in a guest and SME on a
 * host, never both: an SME line makes a host only when nothing shows a guest.
 */
#include <stddef.h>

#include "analysis/coco.h"

void coco_decide(const struct coco_signs *c, struct coco_verdict *ret)
{
	bool sev = c->log_sev || c->dev_sev_guest; /* only an SNP guest has dev/sev-guest */
	bool tdx = c->log_tdx || c->cpuinfo_tdx_guest || c->dev_tdx_guest;
	struct coco_verdict v = { .kind = COCO_NONE };

	if (sev) {
		v.kind = COCO_SEV_GUEST;
		v.evidence = c->log_sev ? c->log_line : "dev/sev-guest exists";
	} else if (tdx) {
		v.kind = COCO_TDX_GUEST;
		v.evidence = c->log_tdx ? c->log_line
			     : c->cpuinfo_tdx_guest ? "proc/cpuinfo flag tdx_guest"
						    : "dev/tdx_guest exists";
	} else if (c->log_hyperv_isolation) {
		v.kind = COCO_HYPERV_ISOLATED;
		v.evidence = c->log_line;
	} else if (c->s390_prot_virt) {
		v.kind = COCO_S390_PV;
		v.evidence = "sys/firmware/uv/prot_virt_guest is 1";
	} else if (c->log_cca || c->log_sme) {
		v.kind = c->log_cca ? COCO_CCA_REALM : COCO_SME_HOST;
		v.evidence = c->log_line;
	}
	*ret = v;
}
