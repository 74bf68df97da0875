// SPDX-License-Identifier: MIT
/*
 * The decoder of x86_decode.h: one optional REX prefix, the opcode, ModRM,
 * SIB and displacement, the immediate of C7; the effective address from
 * the registers the signal handler saved. Kept to the forms compilers
 * emit for a 32-bit volatile access, so that anything unexpected (a
 * 64-bit or 16-bit access, a read-modify-write, a string instruction) is
 * refused rather than half modelled.
 */
#include <string.h>

#include "x86_decode.h"

static int32_t s32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return (int32_t)v;
}

/* The memory operand of ModRM @modrm at @p (after the ModRM byte); @rex:
 * the prefix or 0. Return: bytes taken after ModRM, or -1. */
static int operand(const uint8_t *p, size_t n, uint8_t modrm, uint8_t rex,
		   const uint64_t regs[16], uint64_t *ea, int *riprel)
{
	unsigned mod = modrm >> 6, rm = modrm & 7;
	size_t at = 0;
	uint64_t a = 0;

	*riprel = 0;
	if (mod == 3)
		return -1;
	if (rm == 4) {            /* SIB */
		uint8_t sib;
		unsigned idx, base;

		if (n < 1)
			return -1;
		sib = p[at++];
		idx = ((sib >> 3) & 7) | ((rex & 2u) << 2);
		base = (sib & 7) | ((rex & 1u) << 3);
		if (idx != 4)
			a += regs[idx] << (sib >> 6);
		if ((sib & 7) == 5 && mod == 0) {
			if (n < at + 4)
				return -1;
			a += (uint64_t)(int64_t)s32(p + at);
			at += 4;
		} else {
			a += regs[base];
		}
	} else if (rm == 5 && mod == 0) {
		*riprel = 1;
	} else {
		a = regs[rm | ((rex & 1u) << 3)];
	}
	if (mod == 1 || (mod == 0 && rm == 5 && *riprel)) {
		unsigned w = mod == 1 ? 1 : 4;

		if (n < at + w)
			return -1;
		a += w == 1 ? (uint64_t)(int64_t)(int8_t)p[at] :
			      (uint64_t)(int64_t)s32(p + at);
		at += w;
	} else if (mod == 2) {
		if (n < at + 4)
			return -1;
		a += (uint64_t)(int64_t)s32(p + at);
		at += 4;
	}
	*ea = a;
	return (int)at;
}

int dfz__x86_decode(const uint8_t *code, size_t n, uint64_t rip,
		    const uint64_t regs[16], struct dfz__x86_access *out)
{
	size_t at = 0;
	uint8_t rex = 0, op, modrm;
	uint64_t ea;
	int riprel, k;

	if (n > 0 && (code[0] & 0xF0) == 0x40)
		rex = code[at++];
	if (rex & 8u || n < at + 2)
		return -1;        /* REX.W: a 64-bit access */
	op = code[at++];
	modrm = code[at++];
	if (op != 0x8B && op != 0x89 && op != 0xC7)
		return -1;
	if (op == 0xC7 && ((modrm >> 3) & 7) != 0)
		return -1;
	k = operand(code + at, n - at, modrm, rex, regs, &ea, &riprel);
	if (k < 0)
		return -1;
	at += (size_t)k;
	memset(out, 0, sizeof(*out));
	if (op == 0xC7) {
		if (n < at + 4)
			return -1;
		out->has_imm = 1;
		out->imm = (uint32_t)s32(code + at);
		at += 4;
	}
	out->len = (unsigned)at;
	out->store = op != 0x8B;
	out->reg = ((modrm >> 3) & 7) | ((rex & 4u) << 1);
	out->addr = riprel ? rip + at + ea : ea;
	return 0;
}
