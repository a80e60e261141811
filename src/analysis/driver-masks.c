/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which DMA mask each common SoC driver sets in its probe. Each row was read
 * in torvalds/linux (the file and function cited) and holds from `since`:
 * 5.10, bullseye's, the oldest release Debian's suite runs. A row's source
 * names the copies read: where one older than 5.10 and one newer set the same
 * mask, 5.10 lies between them; where only copies after 5.10 were read, the
 * source says so ("not pinned before"). Before `since` a row does not apply
 * and the bus default stays assumed. Where the driver changed inside 5.10..7.x
 * its entry is split by release: rows of one driver and compatible cover
 * [since, until), stable-branch rows first (the first that spans wins), each
 * citing the commit and its first release. Pure: no I/O.
 */
#include <string.h>

#include "analysis/driver-masks.h"
#include "analysis/eras.h"
#include "shared/macro.h"

#define SINCE KV(5, 10, 0)

/* sdhci_setup_host() -> sdhci_set_dma_mask(), for hosts without their own ->set_dma_mask */
#define SDHCI_WHY                                                                              \
	"sdhci_set_dma_mask(): the capabilities register's 64-bit bit (SDHCI_CAN_64BIT, or "   \
	"SDHCI_CAN_64BIT_V4 in v4 mode) decides 64 bits, else 32; the boot log's \"SDHCI "      \
	"controller on ... using ADMA 64-bit\" tells which"
#define DW_MMC_WHY                                                                             \
	"dw_mci_init_dma(): HCON's ADDR_CONFIG bit decides 64 bits, else the driver sets none; " \
	"the boot log's \"IDMAC supports N-bit address mode\" tells which"
#define STMMAC_WHY                                                                             \
	"stmmac_dvr_probe(): the glue's width (plat addr64, host_dma_width from 6.3), else the " \
	"core's HW feature ADDR64, decides the mask, 32 bits included (none set without it); "  \
	"the boot log tells which: \"Using N bits DMA width\" before 070246e4674b (6.3, "        \
	"stable 6.1.22), \"Using N/M bits DMA host/device width\" since"
#define XHCI_WHY                                                                               \
	"xhci_gen_setup(): HCCPARAMS1's 64-bit addressing bit (AC64) decides 64 bits, else 32; " \
	"Linux logs it only at debug level"
#define XHCI_SRC "drivers/usb/host/xhci-plat.c xhci_plat_probe (sysdev); drivers/usb/host/xhci.c xhci_gen_setup"
#define DWC3_AWIDTH_WHY                                                                        \
	"dwc3_probe() sets 64 bits only when GHWPARAMS0's AWIDTH is 64, which Linux shows "     \
	"nowhere, else none; its xHCI child maps DMA through this device: " XHCI_WHY
#define DWC3_AWIDTH_SRC(when)                                                                  \
	"drivers/usb/dwc3/core.c dwc3_probe (dwc3_core_probe in later kernels): "               \
	"DWC3_GHWPARAMS0_AWIDTH() == 64 before dma_set_mask_and_coherent(sysdev, 64) (" when    \
	"); " XHCI_SRC
#define MTK_SRC "drivers/mmc/host/mtk-sd.c msdc_drv_probe: host->dma_mask from mtk_mmc_compatible.support_64g"
#define MTU3_WHY                                                                               \
	"mtu3_set_dma_mask() (ssusb_gadget_init, dr_mode otg or peripheral): U3D_MISC_CTRL's "   \
	"DMA_ADDR_36BIT decides 36 bits, else none is set; the boot log's \"dma mask: N bits\" " \
	"tells which"

static const struct driver_mask_row rows[] = {
	/* sdhci-iproc: bcm2711_data has no SDHCI_QUIRK_MISSING_CAPS, so the hardware's caps decide */
	{ "sdhci-iproc", "brcm,bcm2711-emmc2", SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_SDHCI, SDHCI_WHY,
	  "drivers/mmc/host/sdhci-iproc.c bcm2711_data; drivers/mmc/host/sdhci.c sdhci_set_dma_mask, __sdhci_add_host" },
	/* bcm2835_data: SDHCI_QUIRK_MISSING_CAPS with caps lacking SDMA and ADMA2, so PIO and no mask */
	{ "sdhci-iproc", "brcm,bcm2835-sdhci", SINCE, 0, DRIVER_MASK_FIXED, 0, 0, MASK_LINE_SDHCI,
	  "the variant's fixed capabilities have neither SDMA nor ADMA2: PIO, sdhci_set_dma_mask() is "
	  "never called and the bus default stands",
	  "drivers/mmc/host/sdhci-iproc.c bcm2835_data (SDHCI_QUIRK_MISSING_CAPS in the pdata at first, "
	  "sdhci_iproc_data.missing_caps later: the same fixed caps either way); drivers/mmc/host/sdhci.c "
	  "sdhci_setup_host" },
	/* bcm7211a0: SDHCI_QUIRK_BROKEN_DMA and _ADMA: PIO */
	{ "sdhci-iproc", "brcm,bcm7211a0-sdhci", SINCE, 0, DRIVER_MASK_FIXED, 0, 0, MASK_LINE_SDHCI,
	  "the variant's quirks (SDHCI_QUIRK_BROKEN_DMA, SDHCI_QUIRK_BROKEN_ADMA) leave PIO: no mask is set "
	  "and the bus default stands",
	  "drivers/mmc/host/sdhci-iproc.c sdhci_bcm7211a0_pltfm_data; drivers/mmc/host/sdhci.c sdhci_setup_host" },
	/* brcm,sdhci-iproc and -cygnus: their caps apply only with MISSING_CAPS, which they lack */
	{ "sdhci-iproc", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_SDHCI, SDHCI_WHY,
	  "drivers/mmc/host/sdhci-iproc.c sdhci_iproc_probe; drivers/mmc/host/sdhci.c sdhci_set_dma_mask" },
	/* sdhci_arasan_ops and its cqe ops set no ->set_dma_mask */
	{ "sdhci-arasan", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_SDHCI, SDHCI_WHY,
	  "drivers/mmc/host/sdhci-of-arasan.c sdhci_arasan_ops; drivers/mmc/host/sdhci.c sdhci_set_dma_mask" },
	/* the dw_mmc core decides for every glue driver */
	{ "dwmmc_rockchip", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_DW_MMC, DW_MMC_WHY,
	  "drivers/mmc/host/dw_mmc.c dw_mci_init_dma (dw_mmc-rockchip.c dw_mci_rockchip_probe)" },
	{ "dwmmc_k3", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_DW_MMC, DW_MMC_WHY,
	  "drivers/mmc/host/dw_mmc.c dw_mci_init_dma (dw_mmc-k3.c)" },
	/* mtk-msdc: a streaming mask of 36 or 32 bits by variant; the coherent mask is left alone */
	{ "mtk-msdc", "mediatek,mt2701-mmc", SINCE, 0, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt2701_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt2712-mmc", SINCE, 0, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt2712_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt6779-mmc", SINCE, 0, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt6779_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt6795-mmc", SINCE, 0, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt6795_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt7620-mmc", SINCE, 0, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt7620_compat: no support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt7622-mmc", SINCE, 0, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt7622_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt7986-mmc", SINCE, 0, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt7986_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt7988-mmc", SINCE, 0, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt7986_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8135-mmc", SINCE, 0, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt8135_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8173-mmc", SINCE, 0, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt8173_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8183-mmc", SINCE, 0, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt8183_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8196-mmc", SINCE, 0, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt8196_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8516-mmc", SINCE, 0, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt8516_compat: no support_64g", MTK_SRC },
	/* stmmac glue drivers (names as their dev_info lines print them) */
	{ "rk_gmac-dwmac", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_STMMAC, STMMAC_WHY,
	  "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c stmmac_dvr_probe (dwmac-rk.c)" },
	{ "imx-dwmac", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_STMMAC, STMMAC_WHY,
	  "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c stmmac_dvr_probe (dwmac-imx.c addr_width)" },
	{ "dwc-eth-dwmac", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_STMMAC, STMMAC_WHY,
	  "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c stmmac_dvr_probe (dwmac-dwc-qos-eth.c)" },
	{ "stm32-dwmac", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_STMMAC, STMMAC_WHY,
	  "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c stmmac_dvr_probe (dwmac-stm32.c)" },
	/* a register decides and no line Linux prints at the default level says which */
	{ "macb", NULL, SINCE, 0, DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  "macb_probe(): the GEM's DCFG6 DAW64 bit decides a 44-bit mask, else none is set; Linux shows "
	  "neither",
	  "drivers/net/ethernet/cadence/macb_main.c macb_probe (GEM_BFEXT(DAW64, DCFG6))" },
	{ "xhci-hcd", NULL, SINCE, 0, DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI, XHCI_WHY,
	  "drivers/usb/host/xhci-plat.c xhci_plat_probe; drivers/usb/host/xhci.c xhci_gen_setup" },
	/* the xHCI that dwc3 adds maps through the dwc3 device (xhci_plat_probe's sysdev); what
	 * dwc3_probe() itself sets (the mask a peripheral-only port keeps) changed twice. The
	 * stable rows first: 91062e663b26 went to 5.15.71 and 5.19.12 (their 2022-09-26 reviews). */
	{ "dwc3", NULL, KV(5, 15, 71), KV(5, 16, 0), DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  DWC3_AWIDTH_WHY, DWC3_AWIDTH_SRC("91062e663b26 in stable 5.15.71") },
	{ "dwc3", NULL, KV(5, 19, 12), KV(6, 0, 0), DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  DWC3_AWIDTH_WHY, DWC3_AWIDTH_SRC("91062e663b26 in stable 5.19.12") },
	{ "dwc3", NULL, SINCE, KV(5, 14, 0), DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  "dwc3_probe() sets no mask before 5.14: the bus default for the port's own DMA; its xHCI "
	  "child maps DMA through this device (xhci_plat_probe's sysdev): " XHCI_WHY,
	  "drivers/usb/dwc3/core.c dwc3_probe (no dma_set_mask* before 45d39448b4d0, 5.14); " XHCI_SRC },
	{ "dwc3", NULL, KV(5, 14, 0), KV(6, 0, 0), DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  "dwc3_probe() sets 64 bits whatever the core's width; its xHCI "
	  "child maps DMA through this device and narrows it: " XHCI_WHY,
	  "drivers/usb/dwc3/core.c dwc3_probe: dma_set_mask_and_coherent(sysdev, 64) (45d39448b4d0, "
	  "5.14; until 91062e663b26); " XHCI_SRC },
	{ "dwc3", NULL, KV(6, 0, 0), 0, DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI, DWC3_AWIDTH_WHY,
	  DWC3_AWIDTH_SRC("91062e663b26, 6.0") },
	{ "ahci", NULL, SINCE, 0, DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  "ahci_platform_init_host(): CAP.S64A (HOST_CAP_64) decides 64 bits (dma_coerce_mask_and_coherent), "
	  "else none is set; the log's \"flags: 64bit\" is not read",
	  "drivers/ata/libahci_platform.c ahci_platform_init_host" },
	/* fec_probe() -> fec_enet_init(): 32 bits for every variant (no quirk changes it) */
	{ "fec", NULL, SINCE, 0, DRIVER_MASK_FIXED, 32, 32, MASK_LINE_SDHCI,
	  "fec_enet_init(): dma_set_mask_and_coherent(DMA_BIT_MASK(32)) for every variant",
	  "drivers/net/ethernet/freescale/fec_main.c fec_enet_init (read at 002bba562dd3, 6.x, and in a "
	  "pre-5.10 copy whose fec_enet_alloc_queue() result went unchecked: the same call)" },
	/* sdhci_esdhc_ops has no ->set_dma_mask: sdhci_set_dma_mask() and the caps decide */
	{ "sdhci-esdhc-imx", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_SDHCI, SDHCI_WHY,
	  "drivers/mmc/host/sdhci-esdhc-imx.c sdhci_esdhc_ops (no set_dma_mask in the 4.x, 5.x and 6.x "
	  "copies read); drivers/mmc/host/sdhci.c sdhci_set_dma_mask" },
	/* sdhci_dwcmshc_ops and the rk35xx ops set no ->set_dma_mask; BlueField-3 enables v4 mode */
	{ "sdhci-dwcmshc", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_SDHCI, SDHCI_WHY,
	  "drivers/mmc/host/sdhci-of-dwcmshc.c dwcmshc_probe, sdhci_dwcmshc_ops (read at 026e14a276c6, "
	  "with the rk3588 and BlueField-3 variants; not pinned before); drivers/mmc/host/sdhci.c "
	  "sdhci_set_dma_mask" },
	/* sun8i_dwmac_dma_ops has no get_hw_feature: dma_cap.addr64 stays 0 and the glue sets no
	 * host_dma_width, so stmmac_dvr_probe() sets no mask and prints no width line */
	{ "dwmac-sun8i", NULL, SINCE, 0, DRIVER_MASK_FIXED, 0, 0, MASK_LINE_STMMAC,
	  "sun8i_dwmac_dma_ops reads no HW feature register: no DMA width, stmmac_dvr_probe() sets no "
	  "mask and the bus default stands",
	  "drivers/net/ethernet/stmicro/stmmac/dwmac-sun8i.c sun8i_dwmac_dma_ops (4.x to 6.x copies read: "
	  "no get_hw_feature); stmmac_main.c stmmac_dvr_probe" },
	/* sunxi_mmc_probe() and sunxi_mmc_resource_request() call no dma_set_mask* */
	{ "sunxi-mmc", NULL, SINCE, 0, DRIVER_MASK_FIXED, 0, 0, MASK_LINE_SDHCI,
	  "sunxi_mmc_probe() sets no mask (idma_des_shift only encodes addresses): the bus default stands",
	  "drivers/mmc/host/sunxi-mmc.c sunxi_mmc_probe, sunxi_mmc_resource_request (read at 0175249efa93, "
	  "4.x, and 6757641d3982, after the D1 and A100 variants)" },
	/* the MediaTek xHCI is the generic xHCI's setup: HCCPARAMS1 decides */
	{ "xhci-mtk", NULL, SINCE, 0, DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  "xhci_mtk_probe() sets no mask; " XHCI_WHY,
	  "drivers/usb/host/xhci-mtk.c xhci_mtk_probe, xhci_mtk_setup (read at 04284eb74e0c, after 5.10: its \"host\" interrupt name; not "
	  "pinned before); drivers/usb/host/xhci.c xhci_gen_setup" },
	{ "mtu3", NULL, SINCE, 0, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_MTU3, MTU3_WHY,
	  "drivers/usb/mtu3/mtu3_core.c mtu3_set_dma_mask, ssusb_gadget_init (read at d21bd6898336, "
	  "before 5.10, and in a copy after the \"device\" interrupt name: the same function and line)" },
	/* bcm2835_prepare_dma(): dma_map_sg(dma_chan->device->dev, ...) */
	{ "sdhost-bcm2835", NULL, SINCE, 0, DRIVER_MASK_ENGINE, 0, 0, MASK_LINE_SDHCI,
	  "bcm2835_prepare_dma() maps through the DMA-engine channel's device (its dmas = <&dma N>): "
	  "that device's mask (bcm2835-dma: 32 bits) and its dma-ranges decide, not this host's",
	  "drivers/mmc/host/bcm2835.c bcm2835_prepare_dma; drivers/dma/bcm2835-dma.c bcm2835_dma_probe" },
	/* the engine the sdhost (and the bcm2835 PCM, SPI) map through */
	{ "bcm2835-dma", "brcm,bcm2835-dma", SINCE, 0, DRIVER_MASK_FIXED, 32, 32, MASK_LINE_SDHCI,
	  "bcm2835_dma_probe(): dma_set_mask_and_coherent(DMA_BIT_MASK(32))",
	  "drivers/dma/bcm2835-dma.c bcm2835_dma_probe (the same call before 72503b25ee36 added its "
	  "error message, 5.4, and in the 6.x copies read)" },
};

const struct driver_mask_row *driver_mask_rows(size_t *ret_n)
{
	*ret_n = ARRAY_SIZE(rows);
	return rows;
}

static bool row_is(const struct driver_mask_row *r, const char *driver, const char *compatible)
{
	return strcmp(r->driver, driver) == 0 &&
	       (compatible ? r->compatible && strcmp(r->compatible, compatible) == 0 : !r->compatible);
}

/*
 * The driver's row for compatible (NULL: its driver-wide row) at release: the
 * first that spans it. *ret_listed: the table has the entry at some release
 * (the driver's match then stops there, whichever row spans the release).
 */
static const struct driver_mask_row *row_for(const char *driver, const char *compatible, uint32_t release,
					     bool *ret_listed)
{
	*ret_listed = false;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		if (!row_is(&rows[i], driver, compatible))
			continue;
		*ret_listed = true;
		if (release >= rows[i].since && (rows[i].until == 0 || release < rows[i].until))
			return &rows[i];
	}
	return NULL;
}

/* The last line of kind about dev: a driver bound again prints again, the last one holds. */
static const struct mask_line *line_for(const struct machine *m, const char *dev, enum mask_line_kind kind)
{
	const struct mask_line *found = NULL;

	for (size_t i = 0; i < m->n_mask_lines; i++)
		if (m->mask_lines[i].kind == kind && strcmp(m->mask_lines[i].device, dev) == 0)
			found = &m->mask_lines[i];
	return found;
}

static void decide_logged(const struct machine *m, const struct device *d, struct driver_mask *ret)
{
	const struct mask_line *l = line_for(m, d->id, ret->row->line);

	if (!l) {
		ret->why = ret->row->why; /* the register decides and nothing says how: keep the default assumed */
		return;
	}
	if (l->bits == 0) {
		ret->why = "the boot log says the host does no DMA of its own (PIO or an external DMA "
			   "engine): its mask is not the one used";
		return;
	}
	ret->why = l->said;
	/* dw_mmc's "32-bit address mode" and mtu3's "32 bits" follow no dma_set_mask*: the bus
	 * default stands; stmmac prints "Using 32..." after dma_set_mask_and_coherent(32) */
	if (l->bits == 32 && (ret->row->line == MASK_LINE_DW_MMC || ret->row->line == MASK_LINE_MTU3)) {
		ret->default_kept = true;
		return;
	}
	ret->bits = l->bits;
	ret->coherent_bits = l->bits;
}

void driver_mask_find(const struct machine *m, const struct device *d, uint32_t release,
		      struct driver_mask *ret)
{
	const struct driver_mask_row *row = NULL;
	bool listed = false;

	*ret = (struct driver_mask){ 0 };
	if (!d->driver || release == 0)
		return;
	/* of_match_device(): the node's first compatible that the driver lists wins */
	for (size_t off = 0; !listed && d->compatible && off < d->compatible_len;
	     off += strlen(d->compatible + off) + 1)
		row = row_for(d->driver, d->compatible + off, release, &listed);
	if (!listed) {
		/* a compatible this table does not list may carry other variant data: only a
		 * driver-wide row decides then, and none without well-formed compatibles */
		bool variants = false;
		for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
			variants |= strcmp(rows[i].driver, d->driver) == 0 && rows[i].compatible;
		if (!(variants && !d->compatible))
			row = row_for(d->driver, NULL, release, &listed);
	}
	if (!row)
		return;
	ret->row = row;
	switch (row->rule) {
	case DRIVER_MASK_FIXED:
		ret->why = row->why;
		ret->bits = row->bits;
		ret->coherent_bits = row->coherent_bits;
		ret->default_kept = row->bits == 0;
		break;
	case DRIVER_MASK_LOGGED:
		decide_logged(m, d, ret);
		break;
	case DRIVER_MASK_HARDWARE:
	case DRIVER_MASK_ENGINE:
		ret->why = row->why;
		break;
	}
}
