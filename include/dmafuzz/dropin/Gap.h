/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz drop-in for the AutoTiler's Gap.h (gap_sdk
 * tools/autotiler_v3/Emulation/Gap.h), which generated GAP8 kernels and
 * the kernel libraries include: the SIMD vector and half-float types,
 * then at_api.h, GapBuiltins.h and GapSystem.h. It exists so that
 * `#include "at_api.h"` made from Gap.h reaches the drop-in's at_api.h:
 * the SDK's Gap.h would find the SDK's at_api.h in its own folder first.
 *
 * GapBuiltins.h and GapSystem.h are the SDK's (put its Emulation folder
 * on the include path after the drop-in's): on a host they compile with
 * __EMUL__, which gives C versions of the core's builtins, runs each
 * kernel on the calling core through __CALL, and so keeps the drop-in's
 * fork macros empty (at_api_pmsis.h).
 */
#ifndef DMAFUZZ_DROPIN_GAP_H
#define DMAFUZZ_DROPIN_GAP_H

#ifndef __GAP_H__
#define __GAP_H__

typedef signed short v2s __attribute__((vector_size(4)));
typedef unsigned short v2u __attribute__((vector_size(4)));
typedef signed char v4s __attribute__((vector_size(4)));
typedef unsigned char v4u __attribute__((vector_size(4)));

#if defined(__gap9__)
/* GAP9's half floats: the host's _Float16 for both (float16alt, the
 * bfloat-like format, has no host type). */
typedef _Float16 f16;
typedef _Float16 f16a;
typedef _Float16 v2h __attribute__((vector_size(4)));
typedef _Float16 v2ah __attribute__((vector_size(4)));
typedef v2s V2S;
#elif defined(__FLOAT_EMUL__)
typedef float f16;
typedef float f16a;
typedef float v2h __attribute__((vector_size(8)));
typedef float v2ah __attribute__((vector_size(8)));
typedef int V2S __attribute__((vector_size(8)));
#else
typedef short int f16;
typedef short int f16a;
typedef short int v2h __attribute__((vector_size(4)));
typedef short int v2ah __attribute__((vector_size(4)));
typedef v2s V2S;
#endif

#include "at_api.h"

#ifdef __EMUL__
typedef void *rt_pointerT;
#else
typedef unsigned int rt_pointerT;
#endif

#include "GapBuiltins.h"
#include "GapSystem.h"

#endif /* __GAP_H__ */
#endif /* DMAFUZZ_DROPIN_GAP_H */
