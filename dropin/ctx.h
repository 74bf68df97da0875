/* SPDX-License-Identifier: MIT */
/*
 * Execution contexts for the drop-in's cores (dropin/ctx.c): a context
 * made on a stack of its own, and the switch between two contexts. On
 * x86-64 the switch saves the callee-saved registers, the SSE and x87
 * control words and the stack pointer, and nothing else: no system call
 * (ucontext's switches save and restore the signal mask, a system call
 * each, at every DMA call of every core). Elsewhere it is ucontext's.
 * ASan's fiber annotations stay with the caller (dropin/cores.c).
 */
#ifndef DMAFUZZ_DROPIN_CTX_H
#define DMAFUZZ_DROPIN_CTX_H

#include <stddef.h>

#if defined(__x86_64__) && defined(__linux__) && !defined(DFZ_CTX_UCONTEXT)
#define DFZ__CTX_ASM 1
struct dfz__ctx {
	void *sp;                     /* the saved stack pointer */
};
#else
#include <ucontext.h>
struct dfz__ctx {
	ucontext_t uc;
};
#endif

/** dfz__ctx_fpenv() - the running thread's floating-point control words
 * (read once for the contexts of a fork: reading them costs more than
 * making a context). */
uint64_t dfz__ctx_fpenv(void);

/**
 * dfz__ctx_make() - make @ctx a context that starts @entry on the stack
 * [@stack, @stack + @size) at its first dfz__ctx_switch() to it, with the
 * control words @fpenv (dfz__ctx_fpenv(); the ucontext switch takes the
 * running thread's). @entry must never return (it leaves by
 * dfz__ctx_switch() or dfz__ctx_jump()).
 * Return: 0, or -1 when a context cannot be made.
 */
int dfz__ctx_make(struct dfz__ctx *ctx, void *stack, size_t size,
		  void (*entry)(void), uint64_t fpenv);

/** dfz__ctx_switch() - save the running context into @from and resume
 * @to; returns when something switches back to @from. */
void dfz__ctx_switch(struct dfz__ctx *from, struct dfz__ctx *to);

/** dfz__ctx_jump() - resume @to; the running context is dropped. */
void dfz__ctx_jump(struct dfz__ctx *to) __attribute__((noreturn));

/** dfz__ctx_kind() - which switch this build has, for --version: our own
 * ("x86-64, no system call") or ucontext's ("ucontext, ..."). */
const char *dfz__ctx_kind(void);

#endif /* DMAFUZZ_DROPIN_CTX_H */
