/* SPDX-License-Identifier: MIT */
/*
 * An event record for the device, memory and host tests (check_dev.c,
 * check_mem.c, check_host.c): record() is the run's observer; nevents
 * counts every event and events[] keeps the first MAX_EVENTS, which the
 * including file defines before it includes this header.
 */
#ifndef DFZ_TEST_EV_SEEN_H
#define DFZ_TEST_EV_SEEN_H

#include "runtime_int.h"

#ifndef MAX_EVENTS
#error "define MAX_EVENTS before including ev_seen.h"
#endif

static struct dfz_event events[MAX_EVENTS];
static unsigned nevents;

static inline void record(void *ctx, const struct dfz_event *ev)
{
	(void)ctx;
	if (nevents < MAX_EVENTS)
		events[nevents] = *ev;
	nevents++;
}

#endif /* DFZ_TEST_EV_SEEN_H */
