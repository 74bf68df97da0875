/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in: the cluster's register-level names that code with its
 * own register-level mchan.h needs (DORY's and Deeploy's GAP9 mchan.h and
 * the dory_dma.c next to it): the MCHAN's register address, the DMA's
 * event line and the event unit's wait. pmsis.h includes it, as the SDKs'
 * pmsis.h brings the archi and hal headers.
 *
 * The address is a modelled register window: the drop-in maps one page
 * there (no access), and every 32-bit load or store to the command (+0)
 * or status (+4) register is performed on the mchan engine
 * (docs/porting/registers.md). 0x00201800 is GAP9's, which DORY's GAP9
 * library also spells out under GAP_SDK; it is below the program's
 * image and clear of L1 and L2. Both macros are spelled as DORY's
 * dory_dma.c spells them (under GAP_SDK, PULP_SDK), so its own
 * definitions are no redefinition. The model decodes MCHAN v7 commands;
 * MCHAN_VERSION is the code's to set (DORY's GAP9 build does, with
 * -DTARGET_CHIP_FAMILY_GAP9): a v6 layout on the v7 model is cmd.encoding.
 */
#ifndef DMAFUZZ_DROPIN_ARCHI_CLUSTER_REGS_H
#define DMAFUZZ_DROPIN_ARCHI_CLUSTER_REGS_H

#include "dmafuzz/dropin.h"

#ifndef ARCHI_MCHAN_DEMUX_ADDR
#define ARCHI_MCHAN_DEMUX_ADDR (0x00201800)
#endif
#ifndef CL_IRQ_DMA0
#define CL_IRQ_DMA0 (8)
#endif

/**
 * dfz_dropin_eu_evt_wait() - eu_evt_maskWaitAndClr(@mask) at @s: a wait
 * for the DMA event (bit CL_IRQ_DMA0) steps the engine until a busy
 * counter is done; with none busy and no completion pending it would
 * never return on the chip, which is dma.hang. Other events: a yield.
 * Return: @mask.
 */
unsigned int dfz_dropin_eu_evt_wait(struct dfz_site s, unsigned int mask);

#define eu_evt_maskWaitAndClr(mask)                                           \
	dfz_dropin_eu_evt_wait(DFZ_SITE, (unsigned int)(mask))

#endif /* DMAFUZZ_DROPIN_ARCHI_CLUSTER_REGS_H */
