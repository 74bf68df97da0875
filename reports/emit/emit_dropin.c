// SPDX-License-Identifier: MIT
/*
 * `dmafuzz emit-c --dropin`: an xfer plan written as the code a tiling
 * compiler generates for the SDK, against the drop-in headers, so that it
 * builds against the drop-in and, by construction, the vendor SDK: PMSIS
 * cluster RAM for an L3<->L2 hop (cl_ram_malloc, pi_l2_malloc,
 * pi_cl_ram_copy_2d, pi_cl_ram_copy_wait), Deeploy's GAP9 mchan.h for an
 * mchan L2<->L1 hop (pmsis_l1_malloc, mchan_transfer_get_id,
 * mchan_transfer_push_1d/_2d, mchan_transfer_wait/_free), the Snitch
 * runtime for an idma L2<->L1 hop (snrt_l3alloc, snrt_l1alloc,
 * snrt_dma_start_*, snrt_dma_wait); a two-hop plan nests the second inside the first. The
 * program is the tiling executor's walk (dfz_prog_walk()) with each tile
 * transfer written out as the transfer adapter's walk makes it
 * (dfz_xfer_walk(), in the engine's calls: emit_dropin_calls.c); the
 * switches that live in generated code (early-compute, db-war, edge-tile,
 * req-escape, shared-handle, mchan-len-overflow, mchan-tid-leak,
 * idma-no-dummy) are printed as the faulty code itself. The body fills the
 * inputs from the plan's seed, runs the program, and checks every output
 * against a reference computed on the host.
 */
#include <stdlib.h>
#include <string.h>

#include "dmafuzz/dropin.h"
#include "emit_roll_int.h"

static const char *const role_name[DFZ_WALK_ROLES] = { "in", "aux", "out" };

unsigned dfz__dropin_tensor(const struct dfz_plan_xfer *x, unsigned k,
			    enum dfz_walk_role role)
{
	unsigned t = 0;

	for (unsigned j = 0; j < k; j++)
		t += 1 + (x->node[j].kernel == DFZ_KERNEL_ADD);
	if (role == DFZ_WALK_IN)
		return t;
	if (role == DFZ_WALK_AUX)
		return t + 1;
	return t + 1 + (x->node[k].kernel == DFZ_KERNEL_ADD);
}

static unsigned ntensors(const struct dfz_plan_xfer *x)
{
	return x->nnodes ? dfz__dropin_tensor(x, x->nnodes - 1, DFZ_WALK_OUT) + 1 : 1;
}

/* The bytes of tensor @i (1 for an empty one). */
static uint32_t tensor_bytes(const struct dfz__dropin_printer *pr, unsigned i)
{
	const struct dfz_plan_xfer *x = pr->x;

	for (unsigned k = 0; k < x->nnodes; k++) {
		const struct dfz_node *nd = &pr->p.node[k];
		const struct dfz_tensor *ts = NULL;

		if (i == dfz__dropin_tensor(x, k, DFZ_WALK_IN))
			ts = &nd->in;
		else if (nd->kernel == DFZ_KERNEL_ADD &&
			 i == dfz__dropin_tensor(x, k, DFZ_WALK_AUX))
			ts = &nd->aux;
		else if (i == dfz__dropin_tensor(x, k, DFZ_WALK_OUT))
			ts = &nd->out;
		if (ts)
			return ts->bytes ? ts->bytes : 1;
	}
	return 1;
}

/* ------------------------------------------------------ the tile walk */

/* Hop @h's engine and local level. */
static unsigned hop_engine(const struct dfz__dropin_printer *pr, unsigned h)
{
	return pr->x->hop[h].engine;
}

static unsigned hop_local(const struct dfz__dropin_printer *pr, unsigned h)
{
	return pr->p.hop[h].local_level;
}

/* What a block of @bytes takes from the drop-in's allocator. */
static uint64_t block_cost(uint64_t bytes)
{
	return ((bytes + 7) & ~(uint64_t)7) + 2 * DFZ_REDZONE;
}

/*
 * A local buffer: in L2 from PMSIS, in L1 from PMSIS next to mchan and
 * from the Snitch runtime next to idma (whose bump allocator frees
 * nothing).
 */
static int print_alloc_buf(void *ctx, unsigned h, enum dfz_walk_role role,
			   unsigned slot, uint64_t bytes)
{
	struct dfz__dropin_printer *pr = ctx;
	const char *fn = "pi_l2_malloc";

	if (hop_local(pr, h) == DFZ_L1)
		fn = hop_engine(pr, h) == DFZ_ENGINE_IDMA ? "snrt_l1alloc" :
							     "pmsis_l1_malloc";
	pr->tile_bytes[h] = bytes;
	pr->live[hop_local(pr, h)] += block_cost(bytes);
	if (pr->live[hop_local(pr, h)] > pr->peak[hop_local(pr, h)])
		pr->peak[hop_local(pr, h)] = pr->live[hop_local(pr, h)];
	dfz__emit_line(pr->f, 1, "buf[%u][%u][%u] = %s(%llu);", h, role, slot,
		       fn, (unsigned long long)bytes);
	return 0;
}

static void print_free_buf(void *ctx, unsigned h, enum dfz_walk_role role,
			   unsigned slot)
{
	struct dfz__dropin_printer *pr = ctx;
	const char *fn = "pi_l2_free";

	pr->live[hop_local(pr, h)] -= block_cost(pr->tile_bytes[h]);
	if (hop_local(pr, h) == DFZ_L1) {
		if (hop_engine(pr, h) == DFZ_ENGINE_IDMA)
			return;
		fn = "pmsis_l1_malloc_free";
	}
	dfz__emit_line(pr->f, 1, "%s(buf[%u][%u][%u], %llu);", fn, h, role,
		       slot, (unsigned long long)pr->tile_bytes[h]);
}

/* A scope's requests: fresh structs, as generated code declares them. */
static int print_scope_init(void *ctx, unsigned h, unsigned scope,
			    unsigned n)
{
	struct dfz__dropin_printer *pr = ctx;
	unsigned nreq = dfz_policy_requests(pr->x->hop[h].policy,
					    pr->x->hop[h].pool_k);

	for (unsigned i = 0; i < n && i < DFZ_TILE_RING; i++)
		pr->hs[h][scope][i] = (struct dfz_handle){ .nreq = (uint8_t)nreq };
	dfz__emit_line(pr->f, 1, "memset(req%u[%u], 0, sizeof(req%u[%u]));",
		       h, scope, h, scope);
	return 0;
}

/* The scope's requests end (the harness frees them): a later wait on
 * them, as the drain after an escaping loop makes, waits nothing. */
static void print_scope_fini(void *ctx, unsigned h, unsigned scope,
			     unsigned n)
{
	struct dfz__dropin_printer *pr = ctx;

	(void)n;
	memset(pr->hs[h][scope], 0, sizeof(pr->hs[h][scope]));
}

static int print_issue(void *ctx, const struct dfz_walk_xfer *wx)
{
	struct dfz__dropin_printer *pr = ctx;
	struct dfz_xfer x = wx->x;

	pr->cur = wx;
	pr->ref = wx->ref;
	pr->hop = wx->hop;
	x.ext_level = (uint8_t)(pr->x->ext_level + wx->hop);
	x.loc_level = (uint8_t)hop_local(pr, wx->hop);
	x.ext_off = (uint32_t)wx->ext_add;
	x.loc_off = 0;
	dfz__emit_line(pr->f, 1, "/* %s of tensor %s, hop %u handle %u%s */",
		       wx->role == DFZ_WALK_OUT ? "store" : "load",
		       role_name[wx->role], wx->hop, wx->ref.idx,
		       wx->ref.scope ? " of the iteration" : "");
	return dfz_xfer_walk(&pr->aw[wx->hop], &x,
			     &pr->hs[wx->hop][wx->ref.scope][wx->ref.idx]);
}

static int print_wait(void *ctx, unsigned h, struct dfz_walk_ref ref)
{
	struct dfz__dropin_printer *pr = ctx;

	pr->ref = ref;
	pr->hop = h;
	return dfz_handle_walk_wait(&pr->aw[h], &pr->hs[h][ref.scope][ref.idx]);
}

static int print_compute(void *ctx, unsigned h, unsigned slot, uint64_t n)
{
	struct dfz__dropin_printer *pr = ctx;
	unsigned kernel = pr->x->node[pr->node].kernel;
	char aux[32] = "NULL";

	if (kernel == DFZ_KERNEL_ADD)
		snprintf(aux, sizeof(aux), "buf[%u][1][%u]", h, slot);
	dfz__emit_line(pr->f, 1, "compute(%u, buf[%u][0][%u], %s, "
		       "buf[%u][2][%u], %llu);", kernel, h, slot, aux, h, slot,
		       (unsigned long long)n);
	return 0;
}

/* The inner hop's tensors are hop @h's buffers of @slot. */
static int print_enter(void *ctx, unsigned h, unsigned slot,
		       const struct dfz_walk_tile *t)
{
	struct dfz__dropin_printer *pr = ctx;

	(void)t;
	pr->outer_slot = slot;
	dfz__emit_line(pr->f, 1, "/* hop %u tiles hop %u's buffers of slot "
		       "%u */", h + 1, h, slot);
	return 0;
}

static void print_leave(void *ctx, unsigned h)
{
	(void)ctx, (void)h;
}

static void print_note(void *ctx, enum dfz_walk_note what,
		       const struct dfz_walk_at *at)
{
	struct dfz__dropin_printer *pr = ctx;

	switch (what) {
	case DFZ_NOTE_NODE:
		pr->node = at->node;
		dfz__emit_line(pr->f, 1, "/* ---- node %u: %s ---- */", at->node,
			       dfz_kernel_name(pr->x->node[at->node].kernel));
		break;
	case DFZ_NOTE_TILE:
		dfz__emit_line(pr->f, 1, "/* hop %u tile %llu of %llu */",
			       at->hop, (unsigned long long)at->i,
			       (unsigned long long)at->ntiles);
		break;
	case DFZ_NOTE_PREFETCH_WAR:
		dfz__emit_line(pr->f, 1, "/* db-war: the prefetch goes into "
			       "the slot being worked on */");
		break;
	default:
		if (dfz__emit_note_text(what))
			dfz__emit_line(pr->f, 1, "/* %s */",
				       dfz__emit_note_text(what));
		break;
	}
}

static const struct dfz_walk_ops tile_ops = {
	.alloc_buf = print_alloc_buf,
	.free_buf = print_free_buf,
	.scope_init = print_scope_init,
	.scope_fini = print_scope_fini,
	.issue = print_issue,
	.wait = print_wait,
	.compute = print_compute,
	.enter = print_enter,
	.leave = print_leave,
	.note = print_note,
};

/* ------------------------------------------------------------- program */

/* Whether engine @e has SDK names here for a hop from @ext to @loc. */
static bool has_names(unsigned e, unsigned ext, unsigned loc)
{
	if (e == DFZ_ENGINE_RAM)
		return ext == DFZ_L3 && loc == DFZ_L2;
	return (e == DFZ_ENGINE_MCHAN || e == DFZ_ENGINE_IDMA) &&
	       ext == DFZ_L2 && loc == DFZ_L1;
}

/* The printer of @x with @bugs, its walks set up; false with the reason
 * in pr->why when a hop has no SDK names. */
static bool printer_init(struct dfz__dropin_printer *pr, FILE *f,
			 const struct dfz_plan_xfer *x, uint32_t bugs)
{
	*pr = (struct dfz__dropin_printer){ .f = f, .x = x, .last_tid = -1 };
	dfz_plan_prog(x, &pr->p);
	if (!dfz_prog_is_valid(&pr->p)) {
		snprintf(pr->why, sizeof(pr->why), "not a valid program");
		return false;
	}
	for (unsigned h = 0; h < pr->p.nhops; h++) {
		struct dfz_xfer_walk *w = &pr->aw[h];
		unsigned e = x->hop[h].engine;

		if (!has_names(e, x->ext_level + h, hop_local(pr, h)) ||
		    !dfz_engine_caps_of(e, &w->caps)) {
			snprintf(pr->why, sizeof(pr->why), "hop %u: %s between "
				 "%s and %s has no SDK names here", h,
				 dfz_engine_name(e),
				 dfz_level_name(x->ext_level + h),
				 dfz_level_name(hop_local(pr, h)));
			return false;
		}
		w->policy = x->hop[h].policy;
		w->bugs = bugs;
		w->ops = dfz__dropin_calls(e);
		w->ctx = pr;
	}
	return true;
}

/* Sizes of the drop-in's levels the plan's model gives it. */
static uint32_t plan_size(const struct dfz_plan_xfer *x, unsigned level)
{
	return level == DFZ_L1 ? x->l1_size : level == DFZ_L2 ? x->l2_size : 0;
}

/*
 * Whether the tensors, the idma scratch bytes and the buffers at their
 * peak fit the drop-in's L2 and L1. Beyond a default size, the program
 * asks for the plan's (DFZ_DROPIN_MEMORY, in pr->memory), which holds them
 * (the normaliser grows a level to its buffers), or for what they need
 * should the two counts part; more than a window holds is refused.
 */
static bool fits(struct dfz__dropin_printer *pr)
{
	static const uint32_t def[DFZ_NLEVELS] = {
		[DFZ_L2] = DFZ_DROPIN_L2_SIZE, [DFZ_L1] = DFZ_DROPIN_L1_SIZE,
	};
	static const uint32_t max[DFZ_NLEVELS] = {
		[DFZ_L2] = DFZ_DROPIN_L2_MAX, [DFZ_L1] = DFZ_DROPIN_L1_MAX,
	};
	uint64_t need[DFZ_NLEVELS];

	memcpy(need, pr->peak, sizeof(need));
	if (pr->x->ext_level == DFZ_L2)
		for (unsigned i = 0; i < ntensors(pr->x); i++)
			need[DFZ_L2] += block_cost(tensor_bytes(pr, i));
	for (unsigned h = 0; h < pr->p.nhops; h++) {
		if (hop_engine(pr, h) != DFZ_ENGINE_IDMA)
			continue;
		need[DFZ_L2] += 2 * DFZ_TILE_RING * block_cost(1);
		need[DFZ_L1] += 2 * DFZ_TILE_RING * block_cost(1);
	}
	for (unsigned l = DFZ_L2; l < DFZ_NLEVELS; l++) {
		uint64_t asked = plan_size(pr->x, l);

		if (need[l] <= def[l])
			continue;
		if (asked < need[l])
			asked = need[l];
		if (asked > max[l]) {
			snprintf(pr->why, sizeof(pr->why), "it needs %llu "
				 "bytes of %s; the drop-in's window holds %u",
				 (unsigned long long)asked, dfz_level_name(l),
				 max[l]);
			return false;
		}
		pr->memory[l] = (uint32_t)asked;
	}
	return true;
}

/* The dry run of @x with @bugs on @pr: whether every call can be written,
 * and the memory the program asks for. */
static bool dry_run(struct dfz__dropin_printer *pr,
		    const struct dfz_plan_xfer *x, uint32_t bugs)
{
	return printer_init(pr, NULL, x, bugs) &&
	       dfz_prog_walk(&pr->p, bugs, &tile_ops, pr) >= 0 && fits(pr);
}

int dfz__emit_dropin_check(const struct dfz_plan_xfer *x, uint32_t bugs,
			   char *why, size_t n)
{
	struct dfz__dropin_printer *pr = malloc(sizeof(*pr));
	bool ok;

	if (!pr) {
		if (why && n)
			snprintf(why, n, "%s", dfz_strerror(DFZ_ENOMEM));
		return DFZ_ENOMEM;
	}
	ok = dry_run(pr, x, bugs);
	if (!ok && why && n)
		snprintf(why, n, "%s", pr->why[0] ? pr->why :
			 "the walk refused the program");
	free(pr);
	return ok ? 0 : DFZ_EINVAL;
}

static const char helpers[] =
	"\n/* The kernel: @n elements of ELEM bytes, little-endian; 0 copy, 1 inc,\n"
	" * 2 add (modulo 2^(8 ELEM)). */\n"
	"static void apply(unsigned kernel, const uint8_t *in, const uint8_t *aux,\n"
	"\t\t  uint8_t *out, uint64_t n)\n"
	"{\n"
	"\tfor (uint64_t i = 0, k = 0; i < n; i++) {\n"
	"\t\tunsigned carry = kernel == 1;\n"
	"\n"
	"\t\tfor (unsigned b = 0; b < ELEM; b++, k++) {\n"
	"\t\t\tunsigned sum = in[k] + (kernel == 2 ? aux[k] : 0u) + carry;\n"
	"\n"
	"\t\t\tout[k] = (uint8_t)sum;\n"
	"\t\t\tcarry = kernel == 0 ? 0 : sum >> 8;\n"
	"\t\t}\n"
	"\t}\n"
	"}\n"
	"\n"
	"/* A tile's compute, in CHUNKS chunks: after each, the oracles see what it\n"
	" * read and wrote and the engines run (the schedule's steps). */\n"
	"static void __attribute__((unused))\n"
	"compute(unsigned kernel, const uint8_t *in, const uint8_t *aux, uint8_t *out,\n"
	"\tuint64_t n)\n"
	"{\n"
	"\tuint64_t chunks = CHUNKS < n ? CHUNKS : n;\n"
	"\n"
	"\tfor (uint64_t k = 0; k < chunks; k++) {\n"
	"\t\tuint64_t lo = n * k / chunks, hi = n * (k + 1) / chunks;\n"
	"\t\tconst uint8_t *a = aux ? aux + lo * ELEM : NULL;\n"
	"\n"
	"\t\tapply(kernel, in + lo * ELEM, a, out + lo * ELEM, hi - lo);\n"
	"\t\tDFZ_DROPIN_COMPUTE(in + lo * ELEM, a, out + lo * ELEM,\n"
	"\t\t\t\t   (hi - lo) * ELEM);\n"
	"\t}\n"
	"}\n"
	"\n"
	"/* The node over the logical shape on host copies: what @out must hold. */\n"
	"static void reference(unsigned kernel, uint8_t *out, const uint32_t *os,\n"
	"\t\t      const uint8_t *in, const uint32_t *is,\n"
	"\t\t      const uint8_t *aux, const uint32_t *as)\n"
	"{\n"
	"\tstatic const uint64_t total = TOTAL;\n"
	"\n"
	"\tfor (uint64_t i = 0; i < total; i++) {\n"
	"\t\tuint64_t r = i, o = 0, a = 0, s = 0;\n"
	"\n"
	"\t\tfor (int d = RANK - 1; d >= 0; d--) {\n"
	"\t\t\tuint64_t at = r % shape[d];\n"
	"\n"
	"\t\t\tr /= shape[d];\n"
	"\t\t\to += at * os[d];\n"
	"\t\t\ts += at * is[d];\n"
	"\t\t\ta += at * (as ? as[d] : 0);\n"
	"\t\t}\n"
	"\t\tapply(kernel, in + s, aux ? aux + a : NULL, out + o, 1);\n"
	"\t}\n"
	"}\n";

static void emit_u32_array(FILE *f, const char *name, const uint32_t *v,
			   unsigned n)
{
	fprintf(f, "static const uint32_t %s[] = ", name);
	dfz__emit_u32s(f, v, n);
	fputs(";\n", f);
}

/* The tensors: sizes, strides and the host copies. */
static void emit_tensors(struct dfz__dropin_printer *pr)
{
	const struct dfz_plan_xfer *x = pr->x;
	FILE *f = pr->f;
	unsigned n = ntensors(x);

	uint64_t total = 1;

	for (unsigned d = 0; d < x->rank; d++)
		total *= x->shape[d];
	fprintf(f, "\n#define ELEM %u\n#define RANK %u\n#define TOTAL %lluull\n"
		"#define CHUNKS %u\n", x->elem, x->rank,
		(unsigned long long)total,
		x->compute_chunks ? x->compute_chunks : 1);
	emit_u32_array(f, "shape", x->shape, x->rank);
	fprintf(f, "\n/* The tensors in %s: t0 the input, then per node its aux "
		"(add)\n * and its output; their strides, bytes and host "
		"copies. */\n", dfz_level_name(x->ext_level));
	fprintf(f, "static %s t[%u];\n",
		x->ext_level == DFZ_L3 ? "uint32_t" : "uint8_t *", n);
	for (unsigned k = 0; k < x->nnodes; k++) {
		const struct dfz_node *nd = &pr->p.node[k];
		char name[16];

		if (k == 0) {
			emit_u32_array(f, "s0", nd->in.stride, x->rank);
			fprintf(f, "static uint8_t h0[%u];\n",
				nd->in.bytes ? nd->in.bytes : 1);
		}
		if (nd->kernel == DFZ_KERNEL_ADD) {
			unsigned a = dfz__dropin_tensor(x, k, DFZ_WALK_AUX);

			snprintf(name, sizeof(name), "s%u", a);
			emit_u32_array(f, name, nd->aux.stride, x->rank);
			fprintf(f, "static uint8_t h%u[%u];\n", a,
				nd->aux.bytes ? nd->aux.bytes : 1);
		}
		snprintf(name, sizeof(name), "s%u",
			 dfz__dropin_tensor(x, k, DFZ_WALK_OUT));
		emit_u32_array(f, name, nd->out.stride, x->rank);
		fprintf(f, "static uint8_t h%u[%u], want%u[%u];\n",
			dfz__dropin_tensor(x, k, DFZ_WALK_OUT),
			nd->out.bytes ? nd->out.bytes : 1,
			dfz__dropin_tensor(x, k, DFZ_WALK_OUT),
			nd->out.bytes ? nd->out.bytes : 1);
	}
	fprintf(f, "static const uint32_t bytes[%u] = { ", n);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? ", " : "", tensor_bytes(pr, i));
	fputs(" };\n", f);
}

/* The requests of each hop, in its engine's type; an idma hop's handles
 * each have two scratch bytes for their dummies, [0] in L2, [1] in L1. */
static void emit_requests(struct dfz__dropin_printer *pr)
{
	for (unsigned h = 0; h < pr->p.nhops; h++) {
		unsigned e = hop_engine(pr, h);

		fprintf(pr->f, "static %s req%u[2][%u][%u] "
			"__attribute__((unused));\n", dfz__dropin_req_type(e),
			h, DFZ_TILE_RING, DFZ_MAX_POOL);
		if (e == DFZ_ENGINE_IDMA)
			fprintf(pr->f, "static uint8_t *scr%u[2][%u][2];\n", h,
				DFZ_TILE_RING);
	}
}

/* What the program does before its walk: mchan's transfer struct, the
 * RAM device, the dummies' scratch bytes (0, so a dummy copies 0 over 0). */
static void emit_prologue(struct dfz__dropin_printer *pr)
{
	for (unsigned h = 0; h < pr->p.nhops; h++)
		if (hop_engine(pr, h) == DFZ_ENGINE_MCHAN) {
			fputs("\tmchan_transfer_t trans;\n\n\t(void)trans;\n",
			      pr->f);
			break;
		}
	for (unsigned h = 0; h < pr->p.nhops; h++) {
		if (hop_engine(pr, h) == DFZ_ENGINE_RAM)
			fputs("\tstruct pi_device *ram = get_ram_ptr();\n\n"
			      "\t(void)ram;\n", pr->f);
		if (hop_engine(pr, h) != DFZ_ENGINE_IDMA)
			continue;
		fprintf(pr->f, "\tfor (unsigned s = 0; s < 2; s++) {\n"
			"\t\tfor (unsigned i = 0; i < %u; i++) {\n"
			"\t\t\tscr%u[s][i][0] = snrt_l3alloc(1);\n"
			"\t\t\tscr%u[s][i][1] = snrt_l1alloc(1);\n"
			"\t\t\t*scr%u[s][i][0] = *scr%u[s][i][1] = 0;\n"
			"\t\t}\n\t}\n", DFZ_TILE_RING, h, h, h, h);
	}
}

/* The first hop's tile grid of each node, for the roller: the tile
 * counts of the dimensions with more than one, innermost first. */
static unsigned grids(const struct dfz__dropin_printer *pr,
		      struct roll_grid *g)
{
	const struct dfz_prog *p = &pr->p;

	for (unsigned k = 0; k < p->nnodes; k++) {
		g[k] = (struct roll_grid){ .n = 0 };
		for (unsigned d = p->rank; d-- > 0 && g[k].n < ROLL_DEPTH;) {
			uint32_t t = p->node[k].tile[0][d];
			uint32_t nt = t ? (p->shape[d] + t - 1) / t : 0;

			if (nt > 1)
				g[k].q[g[k].n++] = nt;
		}
	}
	return p->nnodes;
}

/* The walk's calls, each on its line, rolled into loops (@rolled). */
static int emit_calls(struct dfz__dropin_printer *pr, uint32_t bugs,
		      bool rolled)
{
	FILE *f = pr->f;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!rolled)
		return dfz_prog_walk(&pr->p, bugs, &tile_ops, pr);
	pr->f = open_memstream(&text, &len);
	if (!pr->f) {
		pr->f = f;
		return DFZ_ENOMEM;
	}
	rc = dfz_prog_walk(&pr->p, bugs, &tile_ops, pr);
	if (fclose(pr->f) != 0 && rc >= 0)
		rc = DFZ_ENOMEM;
	pr->f = f;
	if (rc >= 0) {
		struct roll_grid g[DFZ_MAX_NODES];

		rc = dfz__emit_roll_grids(f, text, len, g, grids(pr, g));
	}
	free(text);
	return rc;
}

/* The tiled program: every call generated code makes. */
static int emit_program(struct dfz__dropin_printer *pr, uint32_t bugs,
			bool rolled)
{
	FILE *f = pr->f;
	int rc;

	fprintf(f, "\n/* The local buffers [hop][in, aux, out][slot] and the "
		"requests of hop H,\n * reqH[node scope, iteration scope]"
		"[handle][request]. */\nstatic uint8_t *buf[%u][3][2] "
		"__attribute__((unused));\n", pr->p.nhops);
	emit_requests(pr);
	fputs(helpers, f);
	fputs("\n/* The tiled program, as generated code makes its calls. */\n"
	      "static void program(void)\n{\n", f);
	emit_prologue(pr);
	rc = emit_calls(pr, bugs, rolled);
	fputs("}\n", f);
	return rc;
}

/* Host copy @host of tensor @t written to it (@to) or read back: L3
 * through the drop-in's RAM model, L2 in place (allocated by PMSIS, or by
 * the Snitch runtime next to idma). */
static void emit_copy(struct dfz__dropin_printer *pr, unsigned t,
		      const char *host, bool to)
{
	if (pr->x->ext_level == DFZ_L3)
		fprintf(pr->f, "\tdfz_dropin_l3_%s(t[%u], %s, bytes[%u]);\n",
			to ? "write" : "read", t, host, t);
	else if (to)
		fprintf(pr->f, "\tmemcpy(t[%u], %s, bytes[%u]);\n", t, host, t);
	else
		fprintf(pr->f, "\tmemcpy(%s, t[%u], bytes[%u]);\n", host, t, t);
}

/* Every input filled from the plan's seed (as the harness fills it), the
 * outputs as the allocator leaves them; the expected outputs computed. */
static void emit_body(struct dfz__dropin_printer *pr)
{
	const struct dfz_plan_xfer *x = pr->x;
	FILE *f = pr->f;
	unsigned n = ntensors(x);
	char name[16];

	fputs("\nstatic void body(void *arg)\n{\n\tstruct dfz_gen g;\n\tint ok = 1;\n"
	      "\n\t(void)arg;\n", f);
	fprintf(f, "\tfor (unsigned i = 0; i < %u; i++)\n\t\tt[i] = %s;\n", n,
		x->ext_level == DFZ_L3 ?
			"(uint32_t)(uintptr_t)cl_ram_malloc(bytes[i])" :
		hop_engine(pr, 0) == DFZ_ENGINE_IDMA ?
			"snrt_l3alloc(bytes[i])" : "pi_l2_malloc(bytes[i])");
	for (unsigned k = 0; k < x->nnodes; k++) {
		unsigned in = dfz__dropin_tensor(x, k, DFZ_WALK_IN);
		unsigned out = dfz__dropin_tensor(x, k, DFZ_WALK_OUT);

		if (k == 0) {
			fprintf(f, "\tdfz_gen_init(&g, %uu);\n"
				"\tdfz_gen_bytes(&g, h0, bytes[0]);\n", x->seed);
			emit_copy(pr, 0, "h0", true);
		}
		if (x->node[k].kernel == DFZ_KERNEL_ADD) {
			unsigned a = dfz__dropin_tensor(x, k, DFZ_WALK_AUX);

			fprintf(f, "\tdfz_gen_init(&g, %lluull);\n"
				"\tdfz_gen_bytes(&g, h%u, bytes[%u]);\n",
				(unsigned long long)x->seed + k + 1, a, a);
			snprintf(name, sizeof(name), "h%u", a);
			emit_copy(pr, a, name, true);
		}
		snprintf(name, sizeof(name), "want%u", out);
		emit_copy(pr, out, name, false);
		if (x->node[k].kernel == DFZ_KERNEL_ADD) {
			unsigned a = dfz__dropin_tensor(x, k, DFZ_WALK_AUX);

			fprintf(f, "\treference(2, want%u, s%u, %s%u, s%u, h%u, s%u);\n",
				out, out, k ? "want" : "h", in, in, a, a);
		} else {
			fprintf(f, "\treference(%u, want%u, s%u, %s%u, s%u, NULL, "
				"NULL);\n", x->node[k].kernel, out, out,
				k ? "want" : "h", in, in);
		}
	}
	fputs("\tprogram();\n", f);
	for (unsigned k = 0; k < x->nnodes; k++) {
		unsigned out = dfz__dropin_tensor(x, k, DFZ_WALK_OUT);

		snprintf(name, sizeof(name), "h%u", out);
		emit_copy(pr, out, name, false);
		fprintf(f, "\tok &= memcmp(h%u, want%u, bytes[%u]) == 0;\n", out,
			out, out);
	}
	fputs("\tDFZ_DROPIN_CHECK(ok);\n", f);
	if (x->ext_level == DFZ_L3)
		fprintf(f, "\tfor (unsigned i = 0; i < %u; i++)\n"
			"\t\tcl_ram_free((void *)(uintptr_t)t[i], bytes[i]);\n", n);
	else if (hop_engine(pr, 0) != DFZ_ENGINE_IDMA)
		fprintf(f, "\tfor (unsigned i = 0; i < %u; i++)\n"
			"\t\tpi_l2_free(t[i], bytes[i]);\n", n);
	fputs("}\n\nDFZ_DROPIN_MAIN(body, NULL)\n", f);
}

/* The plan's schedule as the empty one's (DFZ_DROPIN_SCHEDULE), so the
 * program's first run is the harness's run of the plan. */
static void emit_schedule(struct dfz__dropin_printer *pr)
{
	const struct dfz_plan_xfer *x = pr->x;

	fputs("\n/* The plan's schedule, the first run's: the engines' latency and\n"
	      " * bandwidth, the steps at each yield point (cycled). */\n", pr->f);
	if (x->nsched) {
		fputs("static const uint8_t sched[] = { ", pr->f);
		for (unsigned i = 0; i < x->nsched; i++)
			fprintf(pr->f, "%s%u", i ? ", " : "", x->sched[i]);
		fputs(" };\n", pr->f);
	}
	fprintf(pr->f, "DFZ_DROPIN_SCHEDULE(%u, %u, %s, %u)\n", x->latency,
		x->bandwidth, x->nsched ? "sched" : "NULL", x->nsched);
}

/* The SDK headers the program's calls need. */
static void emit_includes(struct dfz__dropin_printer *pr)
{
	bool ram = pr->x->ext_level == DFZ_L3, mchan = false, idma = false;

	for (unsigned h = 0; h < pr->p.nhops; h++) {
		mchan |= hop_engine(pr, h) == DFZ_ENGINE_MCHAN;
		idma |= hop_engine(pr, h) == DFZ_ENGINE_IDMA;
	}
	fputs("#include <stdint.h>\n#include <string.h>\n\n", pr->f);
	if (ram || mchan || !idma)
		fputs("#include <pmsis.h>\n", pr->f);
	if (ram)
		fputs("#include <bsp/ram.h>\n", pr->f);
	if (mchan)
		fputs("#define MCHAN_VERSION 7\n#include <mchan.h>\n", pr->f);
	if (idma)
		fputs("#include <snrt.h>\n", pr->f);
	fputs("#include <dmafuzz/dropin.h>\n#include <dmafuzz/harness.h>\n",
	      pr->f);
	if (pr->memory[DFZ_L2] || pr->memory[DFZ_L1])
		fprintf(pr->f, "\n/* The plan's part has more memory than the "
			"drop-in's defaults. */\nDFZ_DROPIN_MEMORY(%u, %u)\n",
			pr->memory[DFZ_L2], pr->memory[DFZ_L1]);
	emit_schedule(pr);
}

int dfz__emit_dropin(FILE *f, const struct dfz_plan_xfer *x, uint32_t bugs)
{
	return dfz__emit_dropin_as(f, x, bugs, true);
}

int dfz__emit_dropin_as(FILE *f, const struct dfz_plan_xfer *x,
			uint32_t bugs, bool rolled)
{
	struct dfz__dropin_printer *pr;
	int rc = DFZ_EINVAL;

	if (!f)
		return DFZ_EINVAL;
	pr = malloc(sizeof(*pr));
	if (!pr)
		return DFZ_ENOMEM;
	if (dry_run(pr, x, bugs)) {
		uint32_t memory[DFZ_NLEVELS];

		memcpy(memory, pr->memory, sizeof(memory));
		printer_init(pr, f, x, bugs);
		memcpy(pr->memory, memory, sizeof(memory));
		emit_includes(pr);
		emit_tensors(pr);
		rc = emit_program(pr, bugs, rolled);
		emit_body(pr);
	}
	free(pr);
	if (rc < 0)
		return rc;
	return ferror(f) ? DFZ_EIO : 0;
}
