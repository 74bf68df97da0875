/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 instructions a compiler emits for a volatile 32-bit load or
 * store (gcc and clang, -O0 to -O2), taken apart so that the drop-in's
 * register window (mmio.c) can perform the access on its model: mov r32,
 * m32 (8B /r), mov m32, r32 (89 /r) and mov m32, imm32 (C7 /0), each with
 * an optional REX prefix (W clear) and any ModRM/SIB/displacement form,
 * RIP-relative included. Anything else is refused.
 */
#ifndef DMAFUZZ_DROPIN_X86_DECODE_H
#define DMAFUZZ_DROPIN_X86_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* One decoded access. Registers are numbered as the encoding does:
 * 0 rax, 1 rcx, 2 rdx, 3 rbx, 4 rsp, 5 rbp, 6 rsi, 7 rdi, 8..15 r8..r15. */
struct dfz__x86_access {
	unsigned len;             /* bytes of the instruction */
	int store;                /* 1: a store to memory, 0: a load */
	int has_imm;              /* store of @imm, not of register @reg */
	unsigned reg;             /* the load's destination or the store's
				   * source */
	uint32_t imm;
	uint64_t addr;            /* the effective address */
};

/**
 * dfz__x86_decode() - decode the instruction at @code (@n bytes readable,
 * at address @rip) as one of the forms above and compute its effective
 * address from @regs (the 16 general registers, in encoding order).
 * @out: written on success.
 * Return: 0, or -1 for any other instruction (or one cut off by @n).
 */
int dfz__x86_decode(const uint8_t *code, size_t n, uint64_t rip,
		    const uint64_t regs[16], struct dfz__x86_access *out);

#endif /* DMAFUZZ_DROPIN_X86_DECODE_H */
