/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces of the drop-in layer: the one process-wide state the
 * SDK-named entry points act on (the SDKs' calls carry no context), the
 * schedule drawn from the run's bytes, and the record of call sites that
 * turns an oracle's finding into the user's file:line.
 */
#ifndef DMAFUZZ_DROPIN_INT_H
#define DMAFUZZ_DROPIN_INT_H

#include <stdbool.h>
#include <stdio.h>

#include "dmafuzz/dropin.h"
#include "dmafuzz/oracle.h"
#include "blocks.h"
#include "cores.h"
#include "golden.h"
#include "stack.h"

#define DFZ__DROPIN_SITES 4096   /* issue sites remembered per run */
#define DFZ__DROPIN_KEYS 256     /* handles whose last issue is known */
#define DFZ__DROPIN_KEY_SLOTS 512 /* their index: open addressing */
#define DFZ__DROPIN_EMUL 64      /* emulated cluster DMA commands queued */
#define DFZ__DROPIN_MAX_CORES 9  /* a PMSIS team (8), a Snitch cluster (9) */

/* The schedule: a choice stream over the run's bytes. */
struct dfz__sched {
	const uint8_t *buf;
	size_t n;
	size_t at;
};

/* The last issue on one handle: a ram request, or an mchan TID. */
struct dfz__key {
	uint8_t engine;
	const void *handle;
	int64_t id;
	int64_t xfer;
};

/* Quirk settings: on, or drawn from each run's schedule (any). */
struct dfz__quirks {
	uint32_t on;
	uint32_t any;
};

/* The verdict of one run, with the user's lines. */
struct dfz__result {
	struct dfz_finding finding;      /* cls NONE: clean */
	struct dfz_site site;            /* the offending call */
	struct dfz_site prior;           /* the earlier call it conflicts
					  * with (file NULL: none) */
	struct dfz__stack site_stack;    /* their call stacks (stack.c; n 0:
					  * not taken) */
	struct dfz__stack prior_stack;
	uint64_t steps;
	uint32_t xfers;
	uint32_t quirks;                 /* the run's quirks (bit per enum
					  * dfz_quirk) */
	uint32_t apis;                   /* DFZ__API_* the run called */
	struct dfz__block_note block;    /* the block a mem.* or allocator
					  * finding is about (blocks.c) */
};

/* The program's statics as they were loaded (memmap.c): restored before
 * every run, so that a schedule's verdict never depends on the runs
 * before it. */
struct dfz__statics {
	uint8_t *at;                     /* where they live (L2 or L1) */
	uint8_t *copy;                   /* their bytes at start-up */
	size_t n;
};

struct dfz__dropin {
	struct dfz_rt *rt;
	struct dfz__statics statics[2];  /* L2's, L1's */
	struct dfz_oracles *set;
	struct dfz__cores *cores;
	struct dfz_observer oracles;     /* the set's observer */
	struct dfz__sched sched;
	bool in_run;                     /* a body is running */
	unsigned team;                   /* cores of the last team fork */
	struct dfz__quirks base;         /* settings every run starts from */
	struct dfz__emul {               /* cldma-emul-64k: the FIFO, head
					  * first, as the layer linked it */
		struct pi_cl_dma_cmd_s *cmd;
		int tid;                 /* its piece in flight, -1: none */
		bool last;               /* that piece is its last */
	} emul[DFZ__DROPIN_EMUL];
	unsigned nemul;
	uint32_t quirks;                 /* this run's */
	uint32_t apis;                   /* DFZ__API_* called this run */
	bool fuzzing;                    /* a fuzz execution: abort() at the
					  * first finding */
	struct dfz_site cur;             /* the call being served */
	bool sited;                      /* the finding's sites are set */
	struct dfz__result res;
	int64_t nissue;                  /* ISSUE events this run */
	struct dfz_site issue_site[DFZ__DROPIN_SITES];
	uint32_t nkeys;
	struct dfz__key key[DFZ__DROPIN_KEYS];
	uint16_t key_slot[DFZ__DROPIN_KEY_SLOTS]; /* key index + 1, 0: free */
	int last_tid[DFZ__DROPIN_MAX_CORES];  /* mchan v7: the counter each core
					  * allocated last (-1: none), which
					  * its pushes carry */
};

/**
 * dfz__dropin_get() - the process's drop-in state, created on first use
 * by dfz__dropin_make() (the memories mapped at the PULP addresses). A
 * mapping that fails is the one unrecoverable set-up error: a one-line
 * message on stderr, then exit(2). Inline: every SDK call asks for it.
 */
extern struct dfz__dropin *dfz__dropin_state; /* NULL until made */
struct dfz__dropin *dfz__dropin_make(void);

static inline struct dfz__dropin *dfz__dropin_get(void)
{
	return dfz__dropin_state ? dfz__dropin_state : dfz__dropin_make();
}

/** dfz__dropin_teardown() - release the state (at exit, or before a test
 * sets up another); the next dfz__dropin_get() maps anew. */
void dfz__dropin_teardown(void);

/**
 * dfz__dropin_run() - run @t once on the schedule @buf (@n bytes,
 * borrowed for the call). @res: out.
 */
void dfz__dropin_run(const struct dfz_dropin_test *t, const uint8_t *buf,
		     size_t n, struct dfz__result *res);

/** dfz__dropin_take() - the next draw in [lo, hi] of the schedule; lo
 * once the bytes ran out. */
uint32_t dfz__dropin_take(struct dfz__dropin *d, uint32_t lo, uint32_t hi);

/* A test file's preset for its empty schedule (DFZ_DROPIN_SCHEDULE). */
extern const struct dfz_dropin_schedule dfz_dropin_schedule
	__attribute__((weak));

/** dfz__sched_config() - the run's latency, bandwidth and engine steps
 * (the test file's preset for an empty schedule) into @cfg (sched.c). */
void dfz__sched_config(struct dfz__dropin *d, struct dfz_rt_config *cfg);

/** dfz__sched_core() - the core that runs next of @nready, drawn from the
 * schedule of the dropin state @ctx (a dfz__cores pick function). */
unsigned dfz__sched_core(void *ctx, unsigned nready);

/**
 * dfz__dropin_enter() - an SDK entry point begins at @s: remember the site
 * and let the schedule switch cores there. Return: the state, or NULL
 * when no run is active (a call from outside a test body).
 */
struct dfz__dropin *dfz__dropin_enter(struct dfz_site s);

/**
 * dfz__dropin_fail() - a finding the layer itself sees at the current
 * call (an address outside L1/L2, a call outside a body): recorded as the
 * run's verdict when it is the first.
 */
void dfz__dropin_fail(struct dfz__dropin *d, enum dfz_class cls,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* sites.c: the user's lines of a run */
/** dfz__sites_reset() - forget the last issue of every handle (a run's
 * start). */
void dfz__sites_reset(struct dfz__dropin *d);

/** dfz__sites_issue() - remember the call being served as the site of the
 * transfer @ev issues, and as the last issue on its handle. */
void dfz__sites_issue(struct dfz__dropin *d, const struct dfz_event *ev);
/** dfz__sites_finding() - the first finding arrived during @ev (NULL: a
 * post-check at the end of the body): set the run's offending call and
 * the earlier call it conflicts with. */
void dfz__sites_finding(struct dfz__dropin *d, const struct dfz_event *ev);
/** dfz__sites_here() - a finding the layer itself sees (dfz__dropin_fail):
 * the call being served is the offending one, with its call stack. */
void dfz__sites_here(struct dfz__dropin *d);
/** dfz__sites_prior() - the earlier call of the coming finding is the
 * issue of transfer @xfer (-1: none). */
void dfz__sites_prior(struct dfz__dropin *d, int64_t xfer);

/* memmap.c: the memories at the PULP addresses */
/** dfz__memmap_create() - map L2 and L1 (the test file's sizes, its
 * statics at their start), make the oracle set and the cores into @d.
 * Return: 0, or a negative DFZ_E* after a one-line message on stderr. */
int dfz__memmap_create(struct dfz__dropin *d);
/** dfz__statics_declare() - the program's static objects in L2 and L1,
 * from its symbol table, declared to @rt (statics.c). Return: 0 (also
 * when the program has no symbol table), or DFZ_ENOMEM. */
int dfz__statics_declare(struct dfz_rt *rt);

/** dfz__memmap_restore() - a run begins: the program's statics get the
 * bytes they were loaded with again. */
void dfz__memmap_restore(struct dfz__dropin *d);
/** dfz__memmap_fini() - release the copies of the statics. */
void dfz__memmap_fini(struct dfz__dropin *d);

/**
 * dfz__dropin_usable() - whether the user's pointer @p may be read and
 * written for @n bytes by the call being served, whose argument @what
 * names it ("the request of pi_cl_ram_copy"). When not (NULL, or memory
 * that is not mapped), a finding at the call's line is recorded and the
 * entry point returns without touching it: a bad pointer handed to an SDK
 * call is the user's bug, never a fault inside the drop-in (guard.c).
 */
bool dfz__dropin_usable(struct dfz__dropin *d, const void *p, size_t n,
			const char *what);
/** dfz__dropin_readable() - as dfz__dropin_usable(), for memory the call
 * only reads (a name, a constant table): the program's read-only image is
 * fine there. */
bool dfz__dropin_readable(struct dfz__dropin *d, const void *p, size_t n,
			  const char *what);

/** dfz__dropin_fork() - run @fn(@arg) on @n cores, the schedule picking
 * the core that runs at each switch point. Return as dfz__cores_fork(). */
int dfz__dropin_fork(struct dfz__dropin *d, unsigned n, void (*fn)(void *),
		     void *arg);

/* mchan_v7.c: the MCHAN names' core, which DORY's library shares */
/** dfz__mchan_push() - push @t (@kind: enum dfz_mchan_push_kind) on the
 * counter the calling core allocated last; misuse is a finding. */
void dfz__mchan_push(struct dfz__dropin *d, struct dfz_mchan_transfer t,
		     int kind);
/** dfz__mchan_alloc() - a counter for the calling core (UINT32_MAX:
 * none), the call at @s. */
uint32_t dfz__mchan_alloc(struct dfz__dropin *d, struct dfz_site s);

/* cldma_emul.c: cldma-emul-64k, the FIFO of emulated commands */
struct pi_cl_dma_cmd_s;
/** dfz__cldma_emul_start() - take a 1-D command of 64 KiB or more into the
 * FIFO when the quirk is on. Return: whether it did. */
bool dfz__cldma_emul_start(struct dfz__dropin *d, struct pi_cl_dma_cmd_s *c,
			   uint32_t ext, uint32_t loc, uint32_t size,
			   int ext2loc);
/** dfz__cldma_irq() - the DMA interrupt's handler, for every finished
 * piece at the head of the FIFO. */
void dfz__cldma_irq(struct dfz__dropin *d);
/** dfz__cldma_emul_wait() - the SDK's wait on an emulated command (spin
 * until its size is 0). Return: false when @c is not one (no wait done). */
bool dfz__cldma_emul_wait(struct dfz__dropin *d, struct pi_cl_dma_cmd_s *c);
/** dfz__cldma_drain() - the body ended: the interrupts still to come. */
void dfz__cldma_drain(struct dfz__dropin *d);

/* quirks.c */
/** dfz__quirks_default() - the quirks on by default (bit per quirk). */
uint32_t dfz__quirks_default(void);
/** dfz__quirks_parse() - apply the settings of @list to @qs (unchanged on
 * error). Return 0, or -1 after a one-line message on stderr. */
int dfz__quirks_parse(const char *list, struct dfz__quirks *qs);
/** dfz__quirks_help() - one line per quirk: name, effect, default. */
void dfz__quirks_help(FILE *f);
/* The SDK families a run called, each with its quirks (res.apis). */
#define DFZ__API_SNRT (1u << 0)
#define DFZ__API_MCHAN (1u << 1)
#define DFZ__API_CLDMA (1u << 2)
#define DFZ__API_RAM (1u << 3)
/** dfz__quirks_describe() - the settings, in @on, of the quirks of the
 * families in @apis ("snrt-pinned, idma-zero-work-retires"; "" for none)
 * into @buf. Return: its length. */
size_t dfz__quirks_describe(uint32_t on, uint32_t apis, char *buf, size_t n);
/** dfz__quirks_start() - a run begins: its quirks from the settings and
 * the schedule. Return: the engines' share (cfg.quirks). */
uint32_t dfz__quirks_start(struct dfz__dropin *d);
/** dfz__quirk() - whether @q is on in the current run. */
bool dfz__quirk(const struct dfz__dropin *d, enum dfz_quirk q);

/** dfz__dropin_print() - @r for a person, or as one JSON object. */
void dfz__dropin_print(const struct dfz__result *r, const char *name,
		       bool json, FILE *f);

/** dfz__dropin_sarif() - @r as a SARIF 2.1.0 log, locations relative to
 * @srcroot (uriBaseId SRCROOT). Return 0 or DFZ_EINVAL. */
int dfz__dropin_sarif(const struct dfz__result *r, const char *srcroot,
		      FILE *f);

#endif /* DMAFUZZ_DROPIN_INT_H */
