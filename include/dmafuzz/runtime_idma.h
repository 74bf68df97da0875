/* SPDX-License-Identifier: MIT */
/*
 * Part of the runtime layer's public header (include dmafuzz/runtime.h):
 * the idma engine, a Snitch-style cluster DMA between L2 and L1.
 * (Declarations land with the engine.)
 */
#ifndef DMAFUZZ_RUNTIME_IDMA_H
#define DMAFUZZ_RUNTIME_IDMA_H

#endif /* DMAFUZZ_RUNTIME_IDMA_H */
