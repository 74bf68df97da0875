/* SPDX-License-Identifier: MIT */
/*
 * An event log for the engine tests (check_idma.c, check_mchan.c,
 * check_xfer*.c): record() is the run's observer, keeping the first
 * EVLOG_MAX events and counting the ones past it; the queries read what
 * was kept.
 */
#ifndef DFZ_TEST_EV_LOG_H
#define DFZ_TEST_EV_LOG_H

#include <stddef.h>
#include <string.h>

#include "runtime_int.h"

#define EVLOG_MAX 8192

static struct {
	struct dfz_event ev[EVLOG_MAX];
	size_t n;                     /* events kept */
	size_t dropped;               /* events past EVLOG_MAX */
} evlog;

static inline void evlog_clear(void)
{
	evlog.n = 0;
	evlog.dropped = 0;
}

static inline void record(void *ctx, const struct dfz_event *ev)
{
	(void)ctx;
	if (evlog.n < EVLOG_MAX)
		evlog.ev[evlog.n++] = *ev;
	else
		evlog.dropped++;
}

static inline size_t count_kind(enum dfz_ev_kind kind)
{
	size_t c = 0;

	for (size_t i = 0; i < evlog.n; i++)
		c += evlog.ev[i].kind == kind;
	return c;
}

/* The last event of @kind, or NULL. */
static inline const struct dfz_event *last_of(enum dfz_ev_kind kind)
{
	for (size_t i = evlog.n; i-- > 0;)
		if (evlog.ev[i].kind == kind)
			return &evlog.ev[i];
	return NULL;
}

/* The @k-th event of @kind (from 0), or NULL. */
static inline const struct dfz_event *nth_of(enum dfz_ev_kind kind, size_t k)
{
	for (size_t i = 0; i < evlog.n; i++)
		if (evlog.ev[i].kind == kind && k-- == 0)
			return &evlog.ev[i];
	return NULL;
}

/* What a run of engine steps did, for comparing the single steps with the
 * stretches of rt.c's burst(): the time, the moves (how many, their
 * lines, how many bytes) and every SERVICE, COMPLETE and FAULT with its
 * id and step. */
struct ev_summary {
	uint64_t now;
	size_t moves;
	size_t lines;                 /* moved, over all moves */
	uint64_t bytes;
	size_t n;
	int64_t key[3 * 64];
};

static inline void ev_summarize(uint64_t now, struct ev_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->now = now;
	for (size_t i = 0; i < evlog.n; i++) {
		const struct dfz_event *ev = &evlog.ev[i];

		if (ev->kind == DFZ_EV_MOVE) {
			s->moves++;
			s->lines += dfz_move_lines(ev);
			s->bytes += (uint64_t)ev->dst.len * dfz_move_lines(ev);
		} else if ((ev->kind == DFZ_EV_SERVICE ||
			    ev->kind == DFZ_EV_COMPLETE ||
			    ev->kind == DFZ_EV_FAULT) && s->n < 64) {
			s->key[3 * s->n] = ev->kind;
			s->key[3 * s->n + 1] = ev->id;
			s->key[3 * s->n + 2] = (int64_t)ev->step;
			s->n++;
		}
	}
}

#endif /* DFZ_TEST_EV_LOG_H */
