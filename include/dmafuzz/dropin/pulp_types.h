/* SPDX-License-Identifier: MIT */
/*
 * The PULP toolchain's own types, which its compiler knows without an
 * include: float16 (IEEE binary16) and float16alt (bfloat16), with their
 * vector forms. The drop-in's pkg-config Cflags include this file in every
 * translation unit (-include), so code written for that compiler finds
 * them as it does there. On a host compiler with the matching arithmetic
 * type (_Float16; __bf16 from GCC 13 and clang 17) they are that type;
 * otherwise they are float, which holds every value of both exactly but
 * rounds differently and is 4 bytes wide (docs/porting/pmsis.md).
 */
#ifndef DMAFUZZ_DROPIN_PULP_TYPES_H
#define DMAFUZZ_DROPIN_PULP_TYPES_H

#if defined(__FLT16_MAX__) && !defined(__clang__)
typedef _Float16 float16;
#else
typedef float float16;
#endif

#if defined(__BFLT16_MAX__)
typedef __bf16 float16alt;
#else
typedef float float16alt;
#endif

typedef float16 float16x2 __attribute__((vector_size(2 * sizeof(float16))));
typedef float16alt float16altx2
	__attribute__((vector_size(2 * sizeof(float16alt))));

#endif /* DMAFUZZ_DROPIN_PULP_TYPES_H */
