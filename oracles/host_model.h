/* SPDX-License-Identifier: MIT */
/*
 * Private helpers of the three host oracles (dev.c, output.c, errcode.c):
 * how they follow the nesting of API events (a driver call made inside a
 * host-runtime call, or at the top level), how they pair each top-level
 * call with the host program's call that made it, and how their messages
 * name tensors, calls and device addresses. The tensor sizes are computed
 * here from the ABI's text, not by the runtime's code: the oracles model
 * the contract on their own.
 */
#ifndef DMAFUZZ_ORACLES_HOST_MODEL_H
#define DMAFUZZ_ORACLES_HOST_MODEL_H

#include <stddef.h>

#include "oracle_int.h"

/* What an API event is, once its nesting is known. */
enum dfz__hkind {
	DFZ__H_NONE = 0,              /* not an API event */
	DFZ__H_ENTER,                 /* a host call begins */
	DFZ__H_NESTED,                /* a driver call returns inside one */
	DFZ__H_TOP                    /* a top-level call returns */
};

/* Init's allocations: one per argument and the graph buffer. */
#define DFZ__HNEST_MALLOCS (DFZ_HOST_MAX_ARGS + 1)

/*
 * struct dfz__hnest - the nesting of API events: @depth is 1 between a
 * host call's ENTER and RET. @op is the host call under way (or the last
 * one), @nested counts the driver calls it has made so far, and
 * @malloc_addr holds the blocks of its first successful mallocs, in order
 * (the addresses init staged its arguments at).
 */
struct dfz__hnest {
	uint32_t depth;
	uint8_t op;                   /* enum dfz_api */
	uint32_t nested;
	uint32_t nmalloc;
	uint64_t malloc_addr[DFZ__HNEST_MALLOCS];
};

/** dfz__hnest_step() - account for @ev; what it is (enum dfz__hkind). */
unsigned dfz__hnest_step(struct dfz__hnest *n, const struct dfz_event *ev);

/*
 * struct dfz__hcur - which call of a host program the next top-level call
 * is. A RUN call with repeat r stands for r launches. Once an event does
 * not match the program (another op, or past its end) the cursor is lost
 * for the rest of the run: the oracles stop judging rather than guess.
 */
struct dfz__hcur {
	const struct dfz_host_prog *spec;
	uint32_t call;                /* index into spec->call */
	uint32_t rep;                 /* launch of the current RUN call */
	bool lost;
};

void dfz__hcur_begin(struct dfz__hcur *c, const struct dfz_host_prog *spec);

/**
 * dfz__hcur_take() - the program call that a top-level call of @op is.
 * @rep: out, the 0-based launch of a RUN call (0 for the others).
 * Return: its index, or -1 when the program does not make such a call
 * now (the cursor is then lost).
 */
int32_t dfz__hcur_take(struct dfz__hcur *c, unsigned op, uint32_t *rep);

/** dfz__hcall_repeat() - top-level calls @c stands for: a RUN call's
 * repeat (launches in a row), 1 for the others. */
uint32_t dfz__hcall_repeat(const struct dfz_host_call *c);

/**
 * dfz__hcall_silent() - true when @c publishes no event: a NULL context
 * leaves the runtime nothing to publish through (such a call changes
 * nothing either), and a RUN of no launches makes no call.
 */
bool dfz__hcall_silent(const struct dfz_host_call *c);

/** dfz__hcall_slot() - the user buffer slot @c uses (the harness wraps
 * the index). */
static inline unsigned dfz__hcall_slot(const struct dfz_host_call *c)
{
	return c->slot % DFZ_HOST_SLOTS;
}

/**
 * dfz__hbytes() - bytes of tensor @a by the ABI: the product of its first
 * ndims shapes times the dtype size; 0 when ndims is 0 or above 5, a shape
 * is 0 or the dtype is out of range; UINT64_MAX on 64-bit overflow.
 */
uint64_t dfz__hbytes(const struct dfz_tensor_arg *a);

/** dfz__hrole_name() - "in", "out", "inout" or "role?". */
const char *dfz__hrole_name(unsigned role);

/** dfz__hapi_name() - "malloc" ... "finalize", or "call?". */
const char *dfz__hapi_name(unsigned op);

/** dfz__htensor_name() - "arg 2 (out, fp16[4x8])" into @buf. */
void dfz__htensor_name(char *buf, size_t n, unsigned i, unsigned role,
		       const struct dfz_tensor_arg *a);

/**
 * dfz__hcall_name() - call @k of @spec as messages name it: "call 7 (free
 * slot 2)", "call 3 (run, launch 2 of 4)", with its fault when it has one.
 */
void dfz__hcall_name(char *buf, size_t n, const struct dfz_host_prog *spec,
		     uint32_t k, uint32_t rep);

/** dfz__dev_addr() - the device address span @s names, or 0 when it is
 * outside the device arena. */
static inline uint64_t dfz__dev_addr(const struct dfz_span *s)
{
	return s->level == DFZ_DEV_LEVEL ? DFZ_DEV_BASE + s->off : 0;
}

/** dfz__dev_off() - arena offset of device address @a, as messages name
 * it ("dev+0x<offset>"). */
static inline unsigned long long dfz__dev_off(uint64_t a)
{
	return (unsigned long long)(a - DFZ_DEV_BASE);
}

#endif /* DMAFUZZ_ORACLES_HOST_MODEL_H */
