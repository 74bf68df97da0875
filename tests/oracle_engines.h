/* SPDX-License-Identifier: MIT */
/*
 * The fixture of the oracle tests on the L2<->L1 engines (check_oracle_
 * engines*.c): a runtime and an oracle set per test file, and makers of
 * synthetic events that follow the mchan and idma event contract. The
 * tcases of the other files join suite_oracle_engines().
 */
#ifndef DFZ_TEST_ORACLE_ENGINES_H
#define DFZ_TEST_ORACLE_ENGINES_H

#include <check.h>
#include <stdint.h>
#include <string.h>

#include "oracle_fixture.h"

TCase *tcase_oracle_engines_mem(void);
TCase *tcase_oracle_engines_real(void);

#define MCHAN DFZ_ENGINE_MCHAN
#define IDMA DFZ_ENGINE_IDMA

/* The documented mchan command word, written here from the design. */
#define W_DIR (1u << 17)
#define W_INC (1u << 18)
#define W_2D (1u << 19)
#define W_EVT (1u << 20)
#define W_IRQ (1u << 21)
#define W_BCAST (1u << 22)
#define W_2DLOC (1u << 23)

/* A new run with the oracles of @mask, no engine steps. The synthetic
 * streams say when a wait returns but not when the engine completed what
 * it covers (no COMPLETE events): the inflight oracle, which judges
 * exactly that, is left out of them (check_oracle_inflight.c feeds it
 * whole streams). */
static inline void start(uint32_t mask)
{
	struct dfz_rt_config cfg = { .bandwidth = 64, .wait_bound = 100 };

	oracles_run(mask & ~(1u << DFZ_ORACLE_INFLIGHT), &cfg);
}

/* --------------------------------------------------------- event makers */

/* A 1-D transfer between L2 (@ext) and L1 (@loc). */
static inline struct dfz_desc d1(uint32_t ext, uint32_t loc, uint32_t size,
				 int ext2loc)
{
	struct dfz_desc d = {
		.ext_level = DFZ_L2, .loc_level = DFZ_L1,
		.ext2loc = (uint8_t)ext2loc, .ext_off = ext, .loc_off = loc,
		.size = size, .length = size, .ext_stride = size,
		.loc_stride = size,
	};

	return d;
}

/* A 2-D transfer: lines of @len every @stride on L2, contiguous on L1. */
static inline struct dfz_desc d2(uint32_t ext, uint32_t loc, uint32_t size,
				 uint32_t len, uint32_t stride, int ext2loc)
{
	struct dfz_desc d = d1(ext, loc, size, ext2loc);

	d.is_2d = 1;
	d.length = len;
	d.ext_stride = stride;
	d.loc_stride = len;
	return d;
}

/* The word a correct driver pushes for @d. */
static inline uint32_t word(const struct dfz_desc *d)
{
	return (d->size & 0x1ffff) | (d->ext2loc ? W_DIR : 0) | W_INC |
	       (d->is_2d ? W_2D : 0);
}

static inline void ev_id(enum dfz_ev_kind kind, unsigned engine, int64_t id,
			 int64_t aux, uint64_t step)
{
	struct dfz_event ev = { .kind = (uint8_t)kind,
				.engine = (uint8_t)engine, .id = id,
				.aux = aux, .step = step };

	feed(&ev);
}

/* A push of @w and, for the sides its 2-D flags name, the 2-D words a
 * correct driver writes for @d. */
static inline void issue_w(unsigned engine, int64_t id, struct dfz_desc d,
			   uint32_t w, uint64_t step)
{
	struct dfz_event ev = { .kind = DFZ_EV_ISSUE, .engine = (uint8_t)engine,
				.id = id, .desc = d, .aux = w, .step = step };

	if (w & W_2D) {
		ev.ext_2d[0] = d.length;
		ev.ext_2d[1] = d.ext_stride;
	}
	if (w & W_2DLOC) {
		ev.loc_2d[0] = d.length;
		ev.loc_2d[1] = d.loc_stride;
	}
	feed(&ev);
}

static inline void issue(unsigned engine, int64_t id, struct dfz_desc d,
			 uint64_t step)
{
	issue_w(engine, id, d, engine == MCHAN ? word(&d) : 0, step);
}

static inline void tid_alloc(int64_t tid, uint64_t step)
{
	ev_id(DFZ_EV_ID_ALLOC, MCHAN, tid, 0, step);
}

static inline void tid_free(int64_t tid, uint64_t step)
{
	ev_id(DFZ_EV_ID_FREE, MCHAN, tid, 0, step);
}

/* A wait that returns @rc. */
static inline void wait_rc(unsigned engine, int64_t id, int64_t rc,
			   uint64_t step)
{
	ev_id(DFZ_EV_WAIT, engine, id, 0, step);
	ev_id(DFZ_EV_WAITED, engine, id, rc, step);
}

static inline void wait_ok(unsigned engine, int64_t id, uint64_t step)
{
	wait_rc(engine, id, 0, step);
}

/* A push on @tid of @n bytes from L2+@ext to L1+@loc. */
static inline void push(int64_t tid, uint32_t ext, uint32_t loc, uint32_t n,
			uint64_t step)
{
	issue(MCHAN, tid, d1(ext, loc, n, 1), step);
}

static inline void move(unsigned engine, int64_t id, struct dfz_span src,
			struct dfz_span dst)
{
	struct dfz_event ev = { .kind = DFZ_EV_MOVE, .engine = (uint8_t)engine,
				.id = id, .src = src, .dst = dst };

	feed(&ev);
}

static inline void compute(enum dfz_ev_kind kind, unsigned level,
			   uint32_t off, uint32_t n)
{
	struct dfz_event ev = { .kind = (uint8_t)kind };
	struct dfz_span s = { .level = (uint8_t)level, .off = off, .len = n };

	if (kind == DFZ_EV_COMPUTE_READ)
		ev.src = s;
	else
		ev.dst = s;
	feed(&ev);
}

static inline void cread(uint32_t l1_off, uint32_t n)
{
	compute(DFZ_EV_COMPUTE_READ, DFZ_L1, l1_off, n);
}

#endif /* DFZ_TEST_ORACLE_ENGINES_H */
