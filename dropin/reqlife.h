/* SPDX-License-Identifier: MIT */
/*
 * Request lifetime (dropin/reqlife.c, issue 24 item 5): the request and
 * command structs the engines hold, from their issue until the wait that
 * lets go of them, and the finding when one's storage dies first: its
 * stack frame returned, or the L1/L2 block holding it was freed (or,
 * under ASan, the host memory holding it was freed).
 */
#ifndef DMAFUZZ_DROPIN_REQLIFE_H
#define DMAFUZZ_DROPIN_REQLIFE_H

#include <stddef.h>

#include "dmafuzz/runtime.h"

struct dfz__dropin;

/* What kind of struct a held record is (its SDK names in messages). */
enum dfz__req_kind {
	DFZ__REQ_RAM,    /* pi_cl_ram_req_t, the ram engine's queue node */
	DFZ__REQ_CMD,    /* pi_cl_dma_cmd_t: its TID until its wait */
	DFZ__REQ_COPY,   /* pi_cl_dma_copy_t: the same, pi_cl_dma_wait */
};

/** dfz__reqlife_reset() - a run begins: nothing is held. */
void dfz__reqlife_reset(void);

/**
 * dfz__reqlife_event() - the observer's share: a ram ISSUE holds its
 * request (ev->handle) until the WAITED on it; a FREE of an L1/L2 block
 * that holds a held request is a finding at the free's call (d->cur).
 * The run's observer hands it DFZ__REQLIFE_EVENTS only.
 */
void dfz__reqlife_event(struct dfz__dropin *d, const struct dfz_event *ev);
#define DFZ__REQLIFE_EVENTS \
	(1u << DFZ_EV_ISSUE | 1u << DFZ_EV_WAITED | 1u << DFZ_EV_FREE)

/**
 * dfz__reqlife_hold() - the call being served hands @p (@size bytes,
 * borrowed until dfz__reqlife_release(@p)) to the engine: a cluster DMA
 * command or copy, which carries its TID to its wait.
 */
void dfz__reqlife_hold(struct dfz__dropin *d, const void *p, size_t size,
		       enum dfz__req_kind kind);

/** dfz__reqlife_release() - the wait on @p returned: no longer held. */
void dfz__reqlife_release(const void *p);

/**
 * dfz__reqlife_enter() - an SDK entry begins (dfz__dropin_enter, whose
 * frame address is @fp and return address @ret): a held request in a
 * frame of the running core's stack that has returned, in a core's stack
 * once its fork is over, or (ASan) in poisoned host memory is a finding
 * at the line that issued it.
 */
void dfz__reqlife_enter(struct dfz__dropin *d, const void *fp,
			const void *ret);

/**
 * dfz__reqlife_end() - the body returned: a held request in a core's
 * stack (every fork is over) or in poisoned host memory is a finding. The
 * fabric controller's stack is left to the leak oracle (a request the
 * body never waited is handle.leak at its issue).
 */
void dfz__reqlife_end(struct dfz__dropin *d);

#endif /* DMAFUZZ_DROPIN_REQLIFE_H */
