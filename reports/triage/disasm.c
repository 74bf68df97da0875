// SPDX-License-Identifier: MIT
/*
 * The faulting instruction of a signal, disassembled with Capstone
 * (x86-64, detail mode): the instruction, its neighbours, the registers it
 * reads and writes, and whether the fault was a read or a write through
 * which memory operand. The code bytes come from the crash site (captured
 * in the signal handler), so the same code serves this process and an
 * external program's crash report.
 */
#include <stdio.h>
#include <string.h>

#include <capstone/capstone.h>

#include "dmafuzz/triage.h"

#define MAX_VOTES (DFZ_CRASH_BEFORE + 1)

/* The instruction boundaries before pc one decoding start lands on. */
struct vote {
	uint64_t before[DFZ_FAULT_BEFORE];
	unsigned n;                       /* boundaries known (<= BEFORE) */
	unsigned start;                   /* the first start that saw them */
	unsigned count;                   /* starts that agree */
};

static bool same_vote(const struct vote *a, const struct vote *b)
{
	return a->n == b->n &&
	       !memcmp(a->before, b->before, a->n * sizeof(a->before[0]));
}

/*
 * Decode from @start of the code bytes. On x86 a wrong start usually
 * resynchronises within a few instructions; the boundaries before pc that
 * most starts agree on are taken as the real ones.
 * Return: true when an instruction begins exactly at pc (@v filled).
 */
static bool try_start(csh cs, const struct dfz_crash_site *s, unsigned start,
		      struct vote *v)
{
	cs_insn *insn;
	size_t n = cs_disasm(cs, s->code + start, s->ncode - start,
			     s->code_at + start, 0, &insn), k;
	bool hit = false;

	for (k = 0; k < n && insn[k].address < s->pc; k++)
		;
	if (k < n && insn[k].address == s->pc) {
		hit = true;
		v->n = k < DFZ_FAULT_BEFORE ? (unsigned)k : DFZ_FAULT_BEFORE;
		for (unsigned j = 0; j < v->n; j++)
			v->before[j] = insn[k - v->n + j].address;
		v->start = start;
		v->count = 1;
	}
	if (n)
		cs_free(insn, n);
	return hit;
}

/* The decoding start whose view of the boundaries wins the vote; ties go
 * to the earliest start (the longest context). */
static unsigned best_start(csh cs, const struct dfz_crash_site *s)
{
	struct vote votes[MAX_VOTES], v;
	unsigned nv = 0, off = (unsigned)(s->pc - s->code_at), best = 0;

	for (unsigned start = 0; start <= off; start++) {
		unsigned i;

		if (!try_start(cs, s, start, &v))
			continue;
		for (i = 0; i < nv && !same_vote(&votes[i], &v); i++)
			;
		if (i < nv)
			votes[i].count++;
		else if (nv < MAX_VOTES)
			votes[nv++] = v;
	}
	for (unsigned i = 1; i < nv; i++)
		if (votes[i].count > votes[best].count)
			best = i;
	return nv ? (votes[best].n ? (unsigned)(votes[best].before[0] -
						 s->code_at) : off) : off;
}

/* The @k-th comma-separated operand of Intel-syntax @op_str. */
static bool nth_operand(const char *op_str, unsigned k, char *out, size_t len)
{
	const char *p = op_str, *end;

	for (; k > 0; k--) {
		p = strstr(p, ", ");
		if (!p)
			return false;
		p += 2;
	}
	end = strstr(p, ", ");
	snprintf(out, len, "%.*s", (int)(end ? (size_t)(end - p) : strlen(p)), p);
	return true;
}

static void regs_text(csh cs, const cs_insn *insn, char *out, size_t len)
{
	cs_regs rd, wr;
	uint8_t nrd = 0, nwr = 0;
	size_t at = 0;

	out[0] = 0;
	if (cs_regs_access(cs, insn, rd, &nrd, wr, &nwr) != CS_ERR_OK)
		return;
	for (unsigned i = 0; i < nrd && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%s",
				       i ? ", " : "reads ",
				       cs_reg_name(cs, rd[i]));
	for (unsigned i = 0; i < nwr && at < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%s%s",
				       i ? ", " : at ? "; writes " : "writes ",
				       cs_reg_name(cs, wr[i]));
}

/*
 * Read or write, and through which memory operand: the page fault's own
 * direction when the site has it, else the operand's access flags (the
 * read of a read-modify-write comes first).
 */
static void access_of(const struct dfz_crash_site *s, const cs_insn *insn,
		      struct dfz_fault *out)
{
	const cs_x86 *x = &insn->detail->x86;
	int mem = -1, want = s->write;

	if (s->signo != 11 && s->signo != 7) /* SIGSEGV, SIGBUS */
		return;
	for (int i = 0; i < x->op_count; i++) {
		if (x->operands[i].type != X86_OP_MEM)
			continue;
		if (mem < 0)
			mem = i;
		if (want >= 0 && (x->operands[i].access &
				  (want ? CS_AC_WRITE : CS_AC_READ))) {
			mem = i;
			break;
		}
	}
	if (want < 0 && mem >= 0) {
		uint8_t ac = x->operands[mem].access;

		want = ac & CS_AC_READ ? 0 : ac & CS_AC_WRITE ? 1 : -1;
	}
	snprintf(out->access, sizeof(out->access), "%s",
		 want < 0 ? "unknown" : want ? "write" : "read");
	if (mem >= 0)
		nth_operand(insn->op_str, (unsigned)mem, out->operand,
			    sizeof(out->operand));
}

static void fault_lines(csh cs, const struct dfz_crash_site *s, unsigned start,
			struct dfz_fault *out)
{
	cs_insn *insn;
	size_t n = cs_disasm(cs, s->code + start, s->ncode - start,
			     s->code_at + start, 0, &insn), k;
	size_t first, last;

	for (k = 0; k < n && insn[k].address != s->pc; k++)
		;
	if (k == n) {
		if (n)
			cs_free(insn, n);
		return;
	}
	first = k > DFZ_FAULT_BEFORE ? k - DFZ_FAULT_BEFORE : 0;
	last = k + DFZ_FAULT_AFTER < n ? k + DFZ_FAULT_AFTER : n - 1;
	for (size_t i = first; i <= last; i++)
		snprintf(out->disasm[out->ndisasm++], DFZ_FAULT_TEXT,
			 "%s0x%llx: %.31s%s%.120s", i == k ? "=> " : "",
			 (unsigned long long)insn[i].address, insn[i].mnemonic,
			 insn[i].op_str[0] ? " " : "", insn[i].op_str);
	snprintf(out->instruction, sizeof(out->instruction), "%.31s%s%.150s",
		 insn[k].mnemonic, insn[k].op_str[0] ? " " : "", insn[k].op_str);
	regs_text(cs, &insn[k], out->regs, sizeof(out->regs));
	access_of(s, &insn[k], out);
	cs_free(insn, n);
}

int dfz_fault_disasm(const struct dfz_crash_site *s, struct dfz_fault *out)
{
	csh cs;

	snprintf(out->access, sizeof(out->access), "unknown");
	out->operand[0] = out->instruction[0] = out->regs[0] = 0;
	out->ndisasm = 0;
	if (!s->pc || !s->ncode || s->pc < s->code_at ||
	    s->pc - s->code_at >= s->ncode || s->ncode > DFZ_CRASH_CODE)
		return DFZ_ENOENT;
#if defined(__x86_64__)
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		return DFZ_ENOMEM;
#else
	/* Only x86-64 is decoded: elsewhere the site stays unknown. */
	(void)cs;
	return DFZ_ENOENT;
#endif
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	fault_lines(cs, s, best_start(cs, s), out);
	cs_close(&cs);
	return out->ndisasm ? 0 : DFZ_ENOENT;
}
