// SPDX-License-Identifier: MIT
/*
 * Execution contexts for the drop-in's cores (ctx.h). On x86-64 Linux a
 * switch is a few instructions: push the callee-saved registers (System
 * V ABI: rbx, rbp, r12-r15) and the MXCSR and x87 control words, store
 * the stack pointer, load the other one, pop, return. A fresh context's
 * stack is laid out as if it had been switched away from just before its
 * entry function was called. Elsewhere, ucontext.
 */
#include <stdint.h>
#include <stdlib.h>

#include "ctx.h"

const char *dfz__ctx_kind(void)
{
#ifdef DFZ__CTX_ASM
	return "x86-64, no system call";
#else
	return "ucontext, a signal-mask system call a switch";
#endif
}

#ifdef DFZ__CTX_ASM

/* dfz__ctx_swap(&from->sp, to->sp): the switch itself. */
void dfz__ctx_swap(void **from_sp, void *to_sp);
__asm__(".text\n"
	".p2align 4\n"
	".globl dfz__ctx_swap\n"
	".hidden dfz__ctx_swap\n"
	".type dfz__ctx_swap, @function\n"
	"dfz__ctx_swap:\n"
	"\tpushq %rbp\n"
	"\tpushq %rbx\n"
	"\tpushq %r12\n"
	"\tpushq %r13\n"
	"\tpushq %r14\n"
	"\tpushq %r15\n"
	"\tsubq $8, %rsp\n"
	"\tstmxcsr (%rsp)\n"
	"\tfnstcw 4(%rsp)\n"
	"\tmovq %rsp, (%rdi)\n"
	"\tmovq %rsi, %rsp\n"
	"\tldmxcsr (%rsp)\n"
	"\tfldcw 4(%rsp)\n"
	"\taddq $8, %rsp\n"
	"\tpopq %r15\n"
	"\tpopq %r14\n"
	"\tpopq %r13\n"
	"\tpopq %r12\n"
	"\tpopq %rbx\n"
	"\tpopq %rbp\n"
	"\tret\n"
	".size dfz__ctx_swap, .-dfz__ctx_swap\n");

/*
 * From the top of the stack down: a zero where the entry's caller would
 * have left its return address, the entry as the address the switch
 * returns to (16-byte aligned, so the entry starts as if called), six
 * zero registers, the running thread's control words.
 */
uint64_t dfz__ctx_fpenv(void)
{
	uint32_t mxcsr;
	uint16_t fcw;

	__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
	__asm__ volatile("fnstcw %0" : "=m"(fcw));
	return (uint64_t)mxcsr | (uint64_t)fcw << 32;
}

int dfz__ctx_make(struct dfz__ctx *ctx, void *stack, size_t size,
		  void (*entry)(void), uint64_t fpenv)
{
	uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
	uint64_t *sp;

	if (!stack || size < 256)
		return -1;
	sp = (uint64_t *)(top - 16);
	sp[1] = 0;
	sp[0] = (uint64_t)(uintptr_t)entry;
	for (int i = 1; i <= 6; i++)
		sp[-i] = 0;
	sp -= 7;
	*sp = fpenv;
	ctx->sp = sp;
	return 0;
}

void dfz__ctx_switch(struct dfz__ctx *from, struct dfz__ctx *to)
{
	dfz__ctx_swap(&from->sp, to->sp);
}

void dfz__ctx_jump(struct dfz__ctx *to)
{
	void *dropped;

	dfz__ctx_swap(&dropped, to->sp);
	abort(); /* nothing switches back to a dropped context */
}

#else /* ucontext */

uint64_t dfz__ctx_fpenv(void)
{
	return 0;                     /* getcontext() takes the thread's */
}

int dfz__ctx_make(struct dfz__ctx *ctx, void *stack, size_t size,
		  void (*entry)(void), uint64_t fpenv)
{
	(void)fpenv;
	if (getcontext(&ctx->uc) < 0)
		return -1;
	ctx->uc.uc_stack.ss_sp = stack;
	ctx->uc.uc_stack.ss_size = size;
	ctx->uc.uc_link = NULL;
	makecontext(&ctx->uc, entry, 0);
	return 0;
}

/*
 * swapcontext() without ASan's interceptor of it, which at every switch
 * clears the shadow of the whole target stack and warns of false
 * positives: the fiber annotations already tell ASan. getcontext()
 * returns twice.
 */
__attribute__((noinline)) void dfz__ctx_switch(struct dfz__ctx *from,
					       struct dfz__ctx *to)
{
	volatile int back = 0;

	getcontext(&from->uc);
	if (back)
		return;
	back = 1;
	setcontext(&to->uc);
}

void dfz__ctx_jump(struct dfz__ctx *to)
{
	setcontext(&to->uc);
	abort();
}

#endif
