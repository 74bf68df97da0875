// SPDX-License-Identifier: MIT
/*
 * The local memory of the tiling executor (DESIGN 3.7): per hop, the tile
 * buffers (in, aux for add, out; one or two slots) and the handles of a
 * scope, allocated in the hop's local level when the walk (tile_walk.c)
 * asks; and the sizing formula the harness sizes memory
 * by (dfz_prog_local_bytes), which counts exactly what is allocated here.
 */
#include <string.h>

#include "tile_int.h"
#include "vg.h"

unsigned dfz_tile_handles(unsigned s)
{
	switch (s) {
	case DFZ_STRAT_TENSOR_DIR:
		return 3;
	case DFZ_STRAT_DIR:
		return 2;
	case DFZ_STRAT_BARRIER:
		return 1;
	default:
		return DFZ_TILE_RING;
	}
}

/* -------------------------------------------------------------- buffers */

static const char *const role_names[DFZ_WALK_ROLES] = { "in", "aux", "out" };

int dfz__tile_alloc_buf(struct dfz__hop_run *q, enum dfz_walk_role role,
			unsigned slot, uint64_t bytes)
{
	struct dfz_rt *rt = q->r->rt;
	void **buf = &q->buf[role][slot];
	int rc;

	if (bytes > UINT32_MAX)
		return dfz__rt_refuse(rt, DFZ_ENOMEM, "the tiling executor",
				      "hop %u tile of %llu bytes", q->h,
				      (unsigned long long)bytes);
	q->tile_bytes = (uint32_t)bytes;
	rc = dfz_local_alloc(rt, (enum dfz_level)q->hop->local_level,
			     q->tile_bytes, buf);
	if (rc == 0)
		dfz__vg_describe(rt, *buf, "hop %u %s tile buffer, slot %u",
				 q->h, role_names[role], slot);
	return dfz__rt_refuse(rt, rc, "dfz_local_alloc()",
			      "hop %u %s tile buffer of %u bytes, slot %u",
			      q->h, role_names[role], q->tile_bytes, slot);
}

void dfz__tile_free_buf(struct dfz__hop_run *q, enum dfz_walk_role role,
			unsigned slot)
{
	void **buf = &q->buf[role][slot];

	if (*buf)
		dfz_local_free(q->r->rt, *buf);
	*buf = NULL;
}

/* -------------------------------------------------------------- handles */

void dfz__tile_fini_set(struct dfz__hop_run *q, struct dfz__hset *s)
{
	for (unsigned i = 0; i < s->n; i++)
		dfz_handle_fini(q->ad, &s->h[i]);
	memset(s, 0, sizeof(*s));
}

int dfz__tile_init_set(struct dfz__hop_run *q, struct dfz__hset *s)
{
	unsigned n = dfz_tile_handles(q->hop->strategy);
	int rc;

	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < n; i++) {
		rc = dfz_handle_init(q->ad, &s->h[i]);
		if (rc < 0) {
			dfz__rt_refuse(q->r->rt, rc, "dfz_handle_init()",
				       "hop %u handle %u of %u", q->h, i, n);
			goto err_fini_set;
		}
		s->n = i + 1;
	}
	return 0;

err_fini_set:
	dfz__tile_fini_set(q, s);
	return rc;
}

/* ---------------------------------------------------------------- sizing */

/* What one allocation of @size bytes takes from an arena. */
static uint64_t alloc_cost(uint64_t size)
{
	return ((size + 7) & ~(uint64_t)7) + 2 * DFZ_REDZONE;
}

/* Bytes of hop @h's buffers for node @n (the shape is not empty). */
static uint64_t hop_buffer_bytes(const struct dfz_prog *p,
				 const struct dfz_node *n, unsigned h,
				 unsigned rank)
{
	uint64_t tile = p->elem;
	unsigned per_slot = n->kernel == DFZ_KERNEL_ADD ? 3 : 2;

	for (unsigned d = 0; d < rank; d++) {
		tile *= n->tile[h][d];
		if (tile > UINT32_MAX)
			return UINT64_MAX / 4;
	}
	return (uint64_t)(p->hop[h].buffering == 2 ? 2 : 1) * per_slot *
	       alloc_cost(tile);
}

/*
 * What hop @h's two handle scopes (the node's, and the one loop
 * iteration's that req-escape adds) take from @level, whatever the bug
 * switches: request storage in the adapter's req_level and any scratch of
 * its engine (dfz__handle_bytes()), a bound the harness can size memory by
 * before it picks the switches.
 */
static uint64_t hop_handle_bytes(const struct dfz_prog *p,
				 const struct dfz_adapter *ad, unsigned h,
				 unsigned level)
{
	return 2ull * dfz_tile_handles(p->hop[h].strategy) *
	       dfz__handle_bytes(ad, level);
}

/* Bytes node @n needs in @level: the buffers of every hop whose tiles live
 * there, and the handles of every hop that keep anything there. */
static uint64_t node_level_bytes(const struct dfz_prog *p,
				 const struct dfz_node *n,
				 const struct dfz_adapter *ad, unsigned level)
{
	unsigned rank = p->rank < DFZ_MAX_RANK ? p->rank : DFZ_MAX_RANK;
	unsigned nhops = p->nhops < DFZ_MAX_HOPS ? p->nhops : DFZ_MAX_HOPS;
	uint64_t total = 0;

	for (unsigned d = 0; d < rank; d++)
		if (p->shape[d] == 0)
			return 0;
	for (unsigned h = 0; h < nhops; h++) {
		if (p->hop[h].local_level == level)
			total += hop_buffer_bytes(p, n, h, rank);
		total += hop_handle_bytes(p, &ad[h], h, level);
	}
	return total;
}

uint32_t dfz_prog_local_bytes(const struct dfz_prog *p,
			      const struct dfz_adapter *ad,
			      enum dfz_level level)
{
	uint64_t most = 0, total;

	if (!p || !ad)
		return 0;
	for (unsigned k = 0; k < p->nnodes && k < DFZ_MAX_NODES; k++) {
		uint64_t b = node_level_bytes(p, &p->node[k], ad, level);

		if (b > most)
			most = b;
	}
	total = DFZ__MEM_RESERVED + most;
	return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}
