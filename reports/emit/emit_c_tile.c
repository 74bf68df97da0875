// SPDX-License-Identifier: MIT
/*
 * The tiled program of an emitted xfer reproducer, written out call by
 * call: the C printer back end of the tiling executor's walk
 * (dfz_prog_walk(), runtime/tile_walk.c). The executor performs the same
 * walk on the runtime, so the emitted program makes the calls the
 * executor makes, in its order, with the concrete shape, strides, offsets
 * and handle of each: dfz_local_alloc(), scope_init(), dfz_xfer_issue(),
 * dfz_handle_wait(), the compute step, the releases. The executor stops at
 * the first error and only releases afterwards: the written calls go
 * through TRY(), which skips them once rc is set, while the releases
 * always run. A test compares every emitted program's verdict, steps and
 * transfers with the executor's run of the same plan.
 */
#include <string.h>

#include "emit_c_int.h"

static const char *const role_buf[DFZ_WALK_ROLES] = { "in", "aux", "out" };

/* A tensor as the emitted code names it: its base offset is a C
 * expression in a level. */
struct ten {
	char base[32];
	uint8_t level;
};

struct printer {
	FILE *f;
	const struct dfz_plan_xfer *x;
	unsigned node;
	uint8_t kernel;                 /* of the node being written */
	uint8_t level[DFZ_MAX_HOPS];    /* where each hop's tiles live */
	struct ten ts[DFZ_MAX_HOPS][DFZ_WALK_ROLES];
};

/* The enumerators' names, as the emitted program spells them. */
#define LEVEL_ID(id, name) "DFZ_" #id,
#define ENGINE_ID(id, name) "DFZ_ENGINE_" #id,
#define KERNEL_ID(id, name) "DFZ_KERNEL_" #id,
static const char *const level_names[DFZ_NLEVELS] = {
	DFZ_LEVEL_MAP(LEVEL_ID)
};
static const char *const engine_names[DFZ_ENGINE_COUNT] = {
	DFZ_ENGINE_MAP(ENGINE_ID)
};
static const char *const kernel_names[DFZ_KERNEL_COUNT] = {
	DFZ_KERNEL_MAP(KERNEL_ID)
};
#undef LEVEL_ID
#undef ENGINE_ID
#undef KERNEL_ID

const char *dfz__emit_level(unsigned level)
{
	return level < DFZ_NLEVELS ? level_names[level] : "DFZ_NLEVELS";
}

const char *dfz__emit_engine(unsigned engine)
{
	return engine < DFZ_ENGINE_COUNT ? engine_names[engine] :
					  "DFZ_ENGINE_COUNT";
}

const char *dfz__emit_kernel(unsigned kernel)
{
	return kernel < DFZ_KERNEL_COUNT ? kernel_names[kernel] :
					  "DFZ_KERNEL_COUNT";
}


static unsigned ind(unsigned h)
{
	return 1 + h;
}

static void u32s(const struct printer *pr, const uint32_t *v)
{
	dfz__emit_u32s(pr->f, v, pr->x->rank);
}

static void handle_name(unsigned h, struct dfz_walk_ref r, char *buf,
			size_t n)
{
	snprintf(buf, n, "h%u%s[%u]", h, r.scope ? "_it" : "", r.idx);
}

/* --------------------------------------------------------------- memory */

static int print_alloc_buf(void *ctx, unsigned h, enum dfz_walk_role role,
			   unsigned slot, uint64_t bytes)
{
	struct printer *pr = ctx;

	if (bytes > UINT32_MAX)
		dfz__emit_line(pr->f, 1, "TRY(DFZ_ENOMEM);");
	else
		dfz__emit_line(pr->f, 1,
			       "TRY(dfz_local_alloc(rt, %s, %llu, &%s%u[%u]));",
			       dfz__emit_level(pr->level[h]),
			       (unsigned long long)bytes, role_buf[role], h, slot);
	return 0;
}

static void print_free_buf(void *ctx, unsigned h, enum dfz_walk_role role,
			   unsigned slot)
{
	struct printer *pr = ctx;

	dfz__emit_line(pr->f, 1, "buf_free(&%s%u[%u]);", role_buf[role], h,
		       slot);
}

/* The node's scope at the node's indent, the iteration's in the loop. */
static int print_scope_init(void *ctx, unsigned h, unsigned scope,
			    unsigned n)
{
	struct printer *pr = ctx;

	dfz__emit_line(pr->f, scope ? ind(h) : 1, "TRY(scope_init(&ad[%u], h%u%s, %u));",
		       h, h, scope ? "_it" : "", n);
	return 0;
}

static void print_scope_fini(void *ctx, unsigned h, unsigned scope,
			     unsigned n)
{
	struct printer *pr = ctx;

	dfz__emit_line(pr->f, scope ? ind(h) : 1, "scope_fini(&ad[%u], h%u%s, %u);",
		       h, h, scope ? "_it" : "", n);
}

/* ------------------------------------------------------------ transfers */

static int print_issue(void *ctx, const struct dfz_walk_xfer *wx)
{
	struct printer *pr = ctx;
	const struct ten *ts = &pr->ts[wx->hop][wx->role];
	const struct dfz_xfer *x = &wx->x;
	unsigned i = ind(wx->hop);
	FILE *f = pr->f;
	char name[16];

	handle_name(wx->hop, wx->ref, name, sizeof(name));
	dfz__emit_line(f, i, "TRY(dfz_xfer_issue(&ad[%u], &(struct dfz_xfer){",
		       wx->hop);
	dfz__emit_line(f, i + 1, ".rank = %u, .elem = %u, .ext2loc = %u,",
		       x->rank, x->elem, x->ext2loc);
	if (wx->ext_add)
		dfz__emit_line(f, i + 1, ".ext_level = %s, .ext_off = %s + %llu,",
			       dfz__emit_level(ts->level), ts->base,
			       (unsigned long long)wx->ext_add);
	else
		dfz__emit_line(f, i + 1, ".ext_level = %s, .ext_off = %s,",
			       dfz__emit_level(ts->level), ts->base);
	dfz__emit_line(f, i + 1, ".loc_level = %s, .loc_off = off_of(%s%u[%u]),",
		       dfz__emit_level(pr->level[wx->hop]), role_buf[wx->role],
		       wx->hop, wx->slot);
	dfz__emit_tabs(f, i + 1);
	fputs(".shape = ", f);
	u32s(pr, x->shape);
	fputs(", .ext_stride = ", f);
	u32s(pr, x->ext_stride);
	fputs(",\n", f);
	dfz__emit_tabs(f, i + 1);
	fputs(".loc_stride = ", f);
	u32s(pr, x->loc_stride);
	fprintf(f, " }, &%s));\n", name);
	return 0;
}

static int print_wait(void *ctx, unsigned h, struct dfz_walk_ref ref)
{
	struct printer *pr = ctx;
	char name[16];

	handle_name(h, ref, name, sizeof(name));
	dfz__emit_line(pr->f, ind(h), "TRY(dfz_handle_wait(&ad[%u], &%s));", h,
		       name);
	return 0;
}

/* ----------------------------------------------------------------- work */

static int print_compute(void *ctx, unsigned h, unsigned slot, uint64_t n)
{
	struct printer *pr = ctx;
	char aux[16] = "NULL";

	if (pr->kernel == DFZ_KERNEL_ADD)
		snprintf(aux, sizeof(aux), "aux%u[%u]", h, slot);
	dfz__emit_line(pr->f, ind(h),
		       "compute(%s, %s, in%u[%u], %s, out%u[%u], %llu);",
		       dfz__emit_engine(pr->x->hop[h].engine),
		       dfz__emit_kernel(pr->kernel), h, slot, aux, h, slot,
		       (unsigned long long)n);
	return 0;
}

/* The next hop's tensors are slot @slot's buffers of hop @h. */
static int print_enter(void *ctx, unsigned h, unsigned slot,
		       const struct dfz_walk_tile *tile)
{
	struct printer *pr = ctx;

	(void)tile;
	for (unsigned r = 0; r < DFZ_WALK_ROLES; r++) {
		struct ten *v = &pr->ts[h + 1][r];

		snprintf(v->base, sizeof(v->base), "off_of(%s%u[%u])",
			 role_buf[r], h, slot);
		v->level = pr->level[h];
	}
	dfz__emit_line(pr->f, ind(h), "{ /* hop %u over this tile, in slot %u */",
		       h + 1, slot);
	return 0;
}

static void print_leave(void *ctx, unsigned h)
{
	struct printer *pr = ctx;

	dfz__emit_line(pr->f, ind(h), "}");
}

/* ---------------------------------------------------------------- notes */

static void tile_comment(const struct printer *pr,
			 const struct dfz_walk_at *at)
{
	FILE *f = pr->f;

	dfz__emit_tabs(f, ind(at->hop));
	fprintf(f, "/* hop %u, tile %llu of %llu: origin ", at->hop,
		(unsigned long long)at->i, (unsigned long long)at->ntiles);
	u32s(pr, at->tile->o);
	fputs(", extent ", f);
	u32s(pr, at->tile->e);
	fputs(" */\n", f);
}

/* Node @k's hop-0 tensors as the program names them. */
static void node_begin(struct printer *pr, unsigned k)
{
	static const char *const field[DFZ_WALK_ROLES] = { "in", "aux", "out" };

	pr->node = k;
	pr->kernel = pr->x->node[k].kernel;
	for (unsigned r = 0; r < DFZ_WALK_ROLES; r++) {
		struct ten *t = &pr->ts[0][r];

		snprintf(t->base, sizeof(t->base), "prog.node[%u].%s.off", k,
			 field[r]);
		t->level = pr->x->ext_level;
	}
	if (k)
		fputc('\n', pr->f);
	dfz__emit_line(pr->f, 1, "/* ---- node %u: %s ---- */", k,
		       dfz_kernel_name(pr->kernel));
}

static void print_note(void *ctx, enum dfz_walk_note what,
		       const struct dfz_walk_at *at)
{
	struct printer *pr = ctx;
	unsigned i = ind(at->hop);
	FILE *f = pr->f;

	switch (what) {
	case DFZ_NOTE_NODE:
		node_begin(pr, at->node);
		break;
	case DFZ_NOTE_SETUP_HOP:
		dfz__emit_line(f, 1, "/* hop %u: buffers and handles in %s */",
			       at->hop, dfz__emit_level(pr->level[at->hop]) + 4);
		break;
	case DFZ_NOTE_GRID:
		dfz__emit_line(f, i, "/* hop %u: %llu tile(s), %s buffering */",
			       at->hop, (unsigned long long)at->ntiles,
			       pr->x->hop[at->hop].buffering == 2 ? "double" :
								    "single");
		break;
	case DFZ_NOTE_TILE:
		tile_comment(pr, at);
		break;
	case DFZ_NOTE_PREFETCH:
	case DFZ_NOTE_PREFETCH_WAR:
		dfz__emit_line(f, i, "/* prefetch tile %llu into slot %u%s */",
			       (unsigned long long)at->i, at->slot,
			       what == DFZ_NOTE_PREFETCH_WAR ?
				       " (db-war: the slot being worked on)" : "");
		break;
	case DFZ_NOTE_RELEASE:
		dfz__emit_line(f, 1, "/* node %u: release */", at->node);
		break;
	case DFZ_NOTE_NODE_END:
		dfz__emit_line(f, 1, "if (rc < 0)");
		dfz__emit_line(f, 2, "return rc;");
		break;
	default:
		dfz__emit_line(f, what == DFZ_NOTE_EMPTY ? 1 : i, "/* %s */",
			       dfz__emit_note_text(what));
		break;
	}
}

static const struct dfz_walk_ops printer_ops = {
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

/* ---------------------------------------------------------------- program */

bool dfz__emit_has_tiles(const struct dfz_plan_xfer *x)
{
	struct dfz_prog p;

	dfz_plan_prog(x, &p);
	if (!dfz_prog_is_valid(&p))
		return false;
	for (unsigned d = 0; d < x->rank; d++)
		if (x->shape[d] == 0)
			return false;
	return true;
}

void dfz__emit_tiles(FILE *f, const struct dfz_plan_xfer *x, uint32_t bugs,
		     const char *fn)
{
	struct printer pr = { .f = f, .x = x };
	struct dfz_prog p;

	dfz_plan_prog(x, &p);
	for (unsigned h = 0; h < p.nhops && h < DFZ_MAX_HOPS; h++)
		pr.level[h] = p.hop[h].local_level;
	fprintf(f, "\nstatic int %s(void)\n{\n", fn);
	if (dfz_prog_walk(&p, bugs, &printer_ops, &pr) == DFZ_EINVAL)
		dfz__emit_line(f, 1, "return DFZ_EINVAL; /* dfz_prog_run() "
				     "refuses this program */");
	else
		dfz__emit_line(f, 1, "return rc;");
	fputs("}\n", f);
}
