/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which DMA mask each common SoC driver sets in its probe. Each row was read
 * in torvalds/linux (the file and function cited, mainline as of 2025) and
 * holds from `since`: 5.10, bullseye's, the oldest release Debian's suite
 * runs, whose copies of the same functions print and set the same; before it
 * a row does not apply and the bus default stays assumed. Pure: no I/O.
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
	"stmmac_dvr_probe(): the glue's host_dma_width, else the core's HW feature ADDR64, "   \
	"decides the mask (none set without it); the boot log's \"Using N/M bits DMA "          \
	"host/device width\" tells which"
#define XHCI_WHY                                                                               \
	"xhci_gen_setup(): HCCPARAMS1's 64-bit addressing bit (AC64) decides 64 bits, else 32; " \
	"Linux logs it only at debug level"
#define MTK_SRC "drivers/mmc/host/mtk-sd.c msdc_drv_probe: host->dma_mask from mtk_mmc_compatible.support_64g"

static const struct driver_mask_row rows[] = {
	/* sdhci-iproc: bcm2711_data has no SDHCI_QUIRK_MISSING_CAPS, so the hardware's caps decide */
	{ "sdhci-iproc", "brcm,bcm2711-emmc2", SINCE, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_SDHCI, SDHCI_WHY,
	  "drivers/mmc/host/sdhci-iproc.c bcm2711_data; drivers/mmc/host/sdhci.c sdhci_set_dma_mask, __sdhci_add_host" },
	/* bcm2835_data: SDHCI_QUIRK_MISSING_CAPS with caps lacking SDMA and ADMA2, so PIO and no mask */
	{ "sdhci-iproc", "brcm,bcm2835-sdhci", SINCE, DRIVER_MASK_FIXED, 0, 0, MASK_LINE_SDHCI,
	  "the variant's fixed capabilities have neither SDMA nor ADMA2: PIO, sdhci_set_dma_mask() is "
	  "never called and the bus default stands",
	  "drivers/mmc/host/sdhci-iproc.c bcm2835_data (SDHCI_QUIRK_MISSING_CAPS); drivers/mmc/host/sdhci.c sdhci_setup_host" },
	/* bcm7211a0: SDHCI_QUIRK_BROKEN_DMA and _ADMA: PIO */
	{ "sdhci-iproc", "brcm,bcm7211a0-sdhci", SINCE, DRIVER_MASK_FIXED, 0, 0, MASK_LINE_SDHCI,
	  "the variant's quirks (SDHCI_QUIRK_BROKEN_DMA, SDHCI_QUIRK_BROKEN_ADMA) leave PIO: no mask is set "
	  "and the bus default stands",
	  "drivers/mmc/host/sdhci-iproc.c sdhci_bcm7211a0_pltfm_data; drivers/mmc/host/sdhci.c sdhci_setup_host" },
	/* brcm,sdhci-iproc and -cygnus: their caps apply only with MISSING_CAPS, which they lack */
	{ "sdhci-iproc", NULL, SINCE, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_SDHCI, SDHCI_WHY,
	  "drivers/mmc/host/sdhci-iproc.c sdhci_iproc_probe; drivers/mmc/host/sdhci.c sdhci_set_dma_mask" },
	/* sdhci_arasan_ops and its cqe ops set no ->set_dma_mask */
	{ "sdhci-arasan", NULL, SINCE, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_SDHCI, SDHCI_WHY,
	  "drivers/mmc/host/sdhci-of-arasan.c sdhci_arasan_ops; drivers/mmc/host/sdhci.c sdhci_set_dma_mask" },
	/* the dw_mmc core decides for every glue driver */
	{ "dwmmc_rockchip", NULL, SINCE, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_DW_MMC, DW_MMC_WHY,
	  "drivers/mmc/host/dw_mmc.c dw_mci_init_dma (dw_mmc-rockchip.c dw_mci_rockchip_probe)" },
	{ "dwmmc_k3", NULL, SINCE, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_DW_MMC, DW_MMC_WHY,
	  "drivers/mmc/host/dw_mmc.c dw_mci_init_dma (dw_mmc-k3.c)" },
	/* mtk-msdc: a streaming mask of 36 or 32 bits by variant; the coherent mask is left alone */
	{ "mtk-msdc", "mediatek,mt2701-mmc", SINCE, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt2701_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt2712-mmc", SINCE, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt2712_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt6779-mmc", SINCE, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt6779_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt6795-mmc", SINCE, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt6795_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt7620-mmc", SINCE, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt7620_compat: no support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt7622-mmc", SINCE, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt7622_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt7986-mmc", SINCE, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt7986_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt7988-mmc", SINCE, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt7986_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8135-mmc", SINCE, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt8135_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8173-mmc", SINCE, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt8173_compat: support_64g false", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8183-mmc", SINCE, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt8183_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8196-mmc", SINCE, DRIVER_MASK_FIXED, 36, 0, MASK_LINE_SDHCI, "mt8196_compat: support_64g", MTK_SRC },
	{ "mtk-msdc", "mediatek,mt8516-mmc", SINCE, DRIVER_MASK_FIXED, 32, 0, MASK_LINE_SDHCI, "mt8516_compat: no support_64g", MTK_SRC },
	/* stmmac glue drivers (names as their dev_info lines print them) */
	{ "rk_gmac-dwmac", NULL, SINCE, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_STMMAC, STMMAC_WHY,
	  "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c stmmac_dvr_probe (dwmac-rk.c)" },
	{ "imx-dwmac", NULL, SINCE, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_STMMAC, STMMAC_WHY,
	  "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c stmmac_dvr_probe (dwmac-imx.c addr_width)" },
	{ "dwc-eth-dwmac", NULL, SINCE, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_STMMAC, STMMAC_WHY,
	  "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c stmmac_dvr_probe (dwmac-dwc-qos-eth.c)" },
	{ "stm32-dwmac", NULL, SINCE, DRIVER_MASK_LOGGED, 0, 0, MASK_LINE_STMMAC, STMMAC_WHY,
	  "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c stmmac_dvr_probe (dwmac-stm32.c)" },
	/* a register decides and no line Linux prints at the default level says which */
	{ "macb", NULL, SINCE, DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  "macb_probe(): the GEM's DCFG6 DAW64 bit decides a 44-bit mask, else none is set; Linux shows "
	  "neither",
	  "drivers/net/ethernet/cadence/macb_main.c macb_probe (GEM_BFEXT(DAW64, DCFG6))" },
	{ "xhci-hcd", NULL, SINCE, DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI, XHCI_WHY,
	  "drivers/usb/host/xhci-plat.c xhci_plat_probe; drivers/usb/host/xhci.c xhci_gen_setup" },
	/* the xHCI that dwc3 adds maps through the dwc3 device (xhci_plat_probe's sysdev) */
	{ "dwc3", NULL, SINCE, DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  "its xHCI child maps DMA through this device (xhci_plat_probe's sysdev): " XHCI_WHY,
	  "drivers/usb/host/xhci-plat.c xhci_plat_probe (sysdev); drivers/usb/host/xhci.c xhci_gen_setup" },
	{ "ahci", NULL, SINCE, DRIVER_MASK_HARDWARE, 0, 0, MASK_LINE_SDHCI,
	  "ahci_platform_init_host(): CAP.S64A (HOST_CAP_64) decides 64 bits (dma_coerce_mask_and_coherent), "
	  "else none is set; the log's \"flags: 64bit\" is not read",
	  "drivers/ata/libahci_platform.c ahci_platform_init_host" },
};

const struct driver_mask_row *driver_mask_rows(size_t *ret_n)
{
	*ret_n = ARRAY_SIZE(rows);
	return rows;
}

/* The driver's row for compatible (NULL: its driver-wide row). */
static const struct driver_mask_row *row_for(const char *driver, const char *compatible)
{
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if (strcmp(rows[i].driver, driver) == 0 &&
		    (compatible ? rows[i].compatible && strcmp(rows[i].compatible, compatible) == 0
				: !rows[i].compatible))
			return &rows[i];
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
	/* dw_mmc and stmmac set nothing for 32 bits: the bus default stands */
	if (l->bits == 32 && ret->row->line != MASK_LINE_SDHCI) {
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

	*ret = (struct driver_mask){ 0 };
	if (!d->driver)
		return;
	/* of_match_device(): the node's first compatible that the driver lists wins */
	for (size_t off = 0; !row && d->compatible && off < d->compatible_len;
	     off += strlen(d->compatible + off) + 1)
		row = row_for(d->driver, d->compatible + off);
	if (!row) {
		/* a compatible this table does not list may carry other variant data: only a
		 * driver-wide row decides then, and none without well-formed compatibles */
		bool variants = false;
		for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
			variants |= strcmp(rows[i].driver, d->driver) == 0 && rows[i].compatible;
		row = variants && !d->compatible ? NULL : row_for(d->driver, NULL);
	}
	if (!row || release == 0 || release < row->since)
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
		ret->why = row->why;
		break;
	}
}
