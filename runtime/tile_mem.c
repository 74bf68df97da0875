// SPDX-License-Identifier: MIT
/*
 * The local memory of the tiling executor (DESIGN 3.7): per hop, the tile
 * buffers (in, aux for add, out; one or two slots) and the handles of the
 * node scope, allocated in the hop's local level when a node starts and
 * released when it ends; and the sizing formula the harness sizes memory
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

static int alloc_buf(struct dfz__hop_run *q, void **buf, const char *what,
		     unsigned slot)
{
	int rc = dfz_local_alloc(q->r->rt, (enum dfz_level)q->hop->local_level,
				 q->tile_bytes, buf);

	if (rc == 0)
		dfz__vg_describe(q->r->rt, *buf,
				 "hop %u %s tile buffer, slot %u", q->h, what,
				 slot);
	return dfz__rt_refuse(q->r->rt, rc, "dfz_local_alloc()",
			      "hop %u %s tile buffer of %u bytes, slot %u",
			      q->h, what, q->tile_bytes, slot);
}

static void free_buf(struct dfz__hop_run *q, void **buf)
{
	if (*buf)
		dfz_local_free(q->r->rt, *buf);
	*buf = NULL;
}

static void release_buffers(struct dfz__hop_run *q)
{
	for (unsigned b = 0; b < 2; b++) {
		free_buf(q, &q->out_buf[b]);
		free_buf(q, &q->aux_buf[b]);
		free_buf(q, &q->in_buf[b]);
	}
}

/* Per buffer slot: in, aux (ADD only) and out, each a whole tile. */
static int alloc_buffers(struct dfz__hop_run *q)
{
	const struct dfz__node_run *r = q->r;
	uint64_t bytes = r->p->elem;
	int rc = 0;

	for (unsigned d = 0; d < r->p->rank; d++)
		bytes *= q->tile[d];
	if (bytes > UINT32_MAX)
		return dfz__rt_refuse(r->rt, DFZ_ENOMEM, "the tiling executor",
				      "hop %u tile of %llu bytes", q->h,
				      (unsigned long long)bytes);
	q->tile_bytes = (uint32_t)bytes;
	for (unsigned b = 0; b < q->hop->buffering && rc == 0; b++) {
		rc = alloc_buf(q, &q->in_buf[b], "in", b);
		if (rc == 0 && r->node->kernel == DFZ_KERNEL_ADD)
			rc = alloc_buf(q, &q->aux_buf[b], "aux", b);
		if (rc == 0)
			rc = alloc_buf(q, &q->out_buf[b], "out", b);
	}
	return rc;
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

/* ---------------------------------------------------------- node scope */

int dfz__tile_setup(struct dfz__node_run *r)
{
	for (unsigned h = 0; h < r->p->nhops; h++) {
		struct dfz__hop_run *q = &r->hop[h];
		int rc = alloc_buffers(q);

		if (rc == 0)
			rc = dfz__tile_init_set(q, &q->set[0]);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void dfz__tile_release(struct dfz__node_run *r)
{
	for (unsigned h = r->p->nhops; h-- > 0;) {
		dfz__tile_fini_set(&r->hop[h], &r->hop[h].set[0]);
		release_buffers(&r->hop[h]);
	}
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
