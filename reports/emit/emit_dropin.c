// SPDX-License-Identifier: MIT
/*
 * `dmafuzz emit-c --dropin`: an xfer plan written as the code a tiling
 * compiler generates for the SDK, against the drop-in headers (PMSIS
 * cluster RAM: pi_cl_ram_copy_2d, pi_cl_ram_copy_wait, pi_l2_malloc,
 * cl_ram_malloc), so that it builds against the drop-in and, by
 * construction, the vendor SDK. The program is the tiling executor's walk
 * (dfz_prog_walk()) with each tile transfer written out as the transfer
 * adapter's walk makes it (dfz_xfer_walk(): the 2-D copies on the
 * handle's requests, the policy's and the reuse guard's waits); the
 * switches that live in generated code (early-compute, db-war, edge-tile,
 * req-escape, shared-handle) are printed as the faulty code itself. The
 * body fills the inputs from the plan's seed, runs the program, and checks
 * every output against a reference computed on the host.
 *
 * So far: one-hop programs between L3 and L2 on the RAM engine (the
 * PMSIS cluster RAM API), as Deeploy's L3 DMA generates them.
 */
#include <string.h>

#include "emit_c_int.h"

/* Where a handle's requests live in the program: req[hop][scope][idx]. */
struct printer {
	FILE *f;
	const struct dfz_plan_xfer *x;
	struct dfz_prog p;
	unsigned node;
	uint64_t tile_bytes[DFZ_MAX_HOPS];
	struct dfz_xfer_walk aw;            /* the adapter's walk, printing */
	struct dfz_handle hs[DFZ_MAX_HOPS][2][DFZ_TILE_RING];
	const struct dfz_walk_xfer *cur;    /* the tile transfer printed */
	struct dfz_walk_ref ref;            /* the handle it goes on */
	unsigned hop;
};

static const char *const role_name[DFZ_WALK_ROLES] = { "in", "aux", "out" };

/* The L3 tensor that @role of node @k is: t0 the input, then per node
 * its aux and its output (node k + 1 reads node k's output). */
static unsigned tensor_index(const struct dfz_plan_xfer *x, unsigned k,
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
	return x->nnodes ? tensor_index(x, x->nnodes - 1, DFZ_WALK_OUT) + 1 : 1;
}

/* ------------------------------------------------- the adapter's calls */

static int print_copy(void *ctx, struct dfz_handle *h, unsigned q,
		      const struct dfz_desc *d)
{
	struct printer *pr = ctx;
	const struct dfz_walk_xfer *wx = pr->cur;
	unsigned t = tensor_index(pr->x, pr->node, wx->role);
	char req[48];

	(void)h;
	snprintf(req, sizeof(req), "&req[%u][%u][%u][%u]", wx->hop,
		 pr->ref.scope, pr->ref.idx, q);
	if (d->is_2d)
		dfz__emit_line(pr->f, 1, "pi_cl_ram_copy_2d(ram, t[%u] + %u, "
			       "buf[%u][%u][%u] + %u, %u, %u, %u, %u, %s);", t,
			       d->ext_off, wx->hop, wx->role, wx->slot,
			       d->loc_off, d->size, d->ext_stride, d->length,
			       d->ext2loc, req);
	else
		dfz__emit_line(pr->f, 1, "pi_cl_ram_copy(ram, t[%u] + %u, "
			       "buf[%u][%u][%u] + %u, %u, %u, %s);", t,
			       d->ext_off, wx->hop, wx->role, wx->slot,
			       d->loc_off, d->size, d->ext2loc, req);
	return 0;
}

static int print_dummy(void *ctx, struct dfz_handle *h)
{
	(void)h;
	dfz__emit_line(((struct printer *)ctx)->f, 1,
		       "/* (no dummy transfer on this engine) */");
	return 0;
}

static int print_copy_wait(void *ctx, struct dfz_handle *h, unsigned q)
{
	struct printer *pr = ctx;

	(void)h;
	dfz__emit_line(pr->f, 1, "pi_cl_ram_copy_wait(&req[%u][%u][%u][%u]);",
		       pr->hop, pr->ref.scope, pr->ref.idx, q);
	return 0;
}

static const struct dfz_xfer_ops ram_ops = {
	.issue = print_copy,
	.dummy = print_dummy,
	.wait = print_copy_wait,
};

/* ------------------------------------------------------ the tile walk */

static int print_alloc_buf(void *ctx, unsigned h, enum dfz_walk_role role,
			   unsigned slot, uint64_t bytes)
{
	struct printer *pr = ctx;

	pr->tile_bytes[h] = bytes;
	dfz__emit_line(pr->f, 1, "buf[%u][%u][%u] = pi_l2_malloc(%llu);", h,
		       role, slot, (unsigned long long)bytes);
	return 0;
}

static void print_free_buf(void *ctx, unsigned h, enum dfz_walk_role role,
			   unsigned slot)
{
	struct printer *pr = ctx;

	dfz__emit_line(pr->f, 1, "pi_l2_free(buf[%u][%u][%u], %llu);", h, role,
		       slot, (unsigned long long)pr->tile_bytes[h]);
}

/* A scope's requests: fresh structs, as generated code declares them. */
static int print_scope_init(void *ctx, unsigned h, unsigned scope,
			    unsigned n)
{
	struct printer *pr = ctx;
	unsigned nreq = pr->x->hop[h].policy == DFZ_POLICY_POOL ?
				pr->x->hop[h].pool_k : 1;

	for (unsigned i = 0; i < n && i < DFZ_TILE_RING; i++)
		pr->hs[h][scope][i] = (struct dfz_handle){ .nreq = (uint8_t)nreq };
	dfz__emit_line(pr->f, 1, "memset(req[%u][%u], 0, sizeof(req[%u][%u]));",
		       h, scope, h, scope);
	return 0;
}

static void print_scope_fini(void *ctx, unsigned h, unsigned scope,
			     unsigned n)
{
	(void)ctx, (void)h, (void)scope, (void)n;
}

static int print_issue(void *ctx, const struct dfz_walk_xfer *wx)
{
	struct printer *pr = ctx;
	struct dfz_xfer x = wx->x;

	pr->cur = wx;
	pr->ref = wx->ref;
	pr->hop = wx->hop;
	x.ext_level = DFZ_L3;
	x.loc_level = DFZ_L2;
	x.ext_off = (uint32_t)wx->ext_add;
	x.loc_off = 0;
	dfz__emit_line(pr->f, 1, "/* %s of tensor %s, handle %u%s */",
		       wx->role == DFZ_WALK_OUT ? "store" : "load",
		       role_name[wx->role], wx->ref.idx,
		       wx->ref.scope ? " of the iteration" : "");
	return dfz_xfer_walk(&pr->aw, &x,
			     &pr->hs[wx->hop][wx->ref.scope][wx->ref.idx]);
}

static int print_wait(void *ctx, unsigned h, struct dfz_walk_ref ref)
{
	struct printer *pr = ctx;

	pr->ref = ref;
	pr->hop = h;
	return dfz_handle_walk_wait(&pr->aw, &pr->hs[h][ref.scope][ref.idx]);
}

static int print_compute(void *ctx, unsigned h, unsigned slot, uint64_t n)
{
	struct printer *pr = ctx;
	unsigned kernel = pr->x->node[pr->node].kernel;
	char aux[32] = "NULL";

	if (kernel == DFZ_KERNEL_ADD)
		snprintf(aux, sizeof(aux), "buf[%u][1][%u]", h, slot);
	dfz__emit_line(pr->f, 1, "compute(%u, buf[%u][0][%u], %s, "
		       "buf[%u][2][%u], %llu);", kernel, h, slot, aux, h, slot,
		       (unsigned long long)n);
	return 0;
}

static int print_enter(void *ctx, unsigned h, unsigned slot,
		       const struct dfz_walk_tile *t)
{
	(void)ctx, (void)h, (void)slot, (void)t;
	return DFZ_EINVAL;           /* one hop only (dfz__emit_dropin_ok) */
}

static void print_leave(void *ctx, unsigned h)
{
	(void)ctx, (void)h;
}

static void print_note(void *ctx, enum dfz_walk_note what,
		       const struct dfz_walk_at *at)
{
	struct printer *pr = ctx;

	switch (what) {
	case DFZ_NOTE_NODE:
		pr->node = at->node;
		dfz__emit_line(pr->f, 1, "/* ---- node %u: %s ---- */", at->node,
			       dfz_kernel_name(pr->x->node[at->node].kernel));
		break;
	case DFZ_NOTE_TILE:
		dfz__emit_line(pr->f, 1, "/* tile %llu of %llu */",
			       (unsigned long long)at->i,
			       (unsigned long long)at->ntiles);
		break;
	case DFZ_NOTE_EARLY:
		dfz__emit_line(pr->f, 1, "/* early-compute: the loads are "
			       "waited after the work */");
		break;
	case DFZ_NOTE_PREFETCH_WAR:
		dfz__emit_line(pr->f, 1, "/* db-war: the prefetch goes into "
			       "the slot being worked on */");
		break;
	case DFZ_NOTE_ESCAPE:
		dfz__emit_line(pr->f, 1, "/* req-escape: the requests are "
			       "declared in the loop body */");
		break;
	default:
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

bool dfz__emit_dropin_ok(const struct dfz_plan_xfer *x)
{
	if (x->nhops != 1 || x->ext_level != DFZ_L3 ||
	    x->hop[0].engine != DFZ_ENGINE_RAM)
		return false;
	for (unsigned k = 0; k < x->nnodes; k++)
		if (x->node[k].kernel >= DFZ_KERNEL_COUNT)
			return false;
	return true;
}

static const char helpers[] =
	"\n/* A tile's compute, as the kernel does it: @n elements of ELEM bytes,\n"
	" * little-endian; 0 copy, 1 inc, 2 add (modulo 2^(8 ELEM)). */\n"
	"static void compute(unsigned kernel, const uint8_t *in, const uint8_t *aux,\n"
	"\t\t    uint8_t *out, uint64_t n)\n"
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
	"\t\tcompute(kernel, in + s, aux ? aux + a : NULL, out + o, 1);\n"
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
static void emit_tensors(struct printer *pr)
{
	const struct dfz_plan_xfer *x = pr->x;
	FILE *f = pr->f;
	unsigned n = ntensors(x);

	uint64_t total = 1;

	for (unsigned d = 0; d < x->rank; d++)
		total *= x->shape[d];
	fprintf(f, "\n#define ELEM %u\n#define RANK %u\n#define TOTAL %lluull\n",
		x->elem, x->rank, (unsigned long long)total);
	emit_u32_array(f, "shape", x->shape, x->rank);
	fputs("\n/* The tensors in L3: t0 the input, then per node its aux (add)\n"
	      " * and its output; their strides, bytes and host copies. */\n", f);
	fprintf(f, "static uint32_t t[%u];\n", n);
	for (unsigned k = 0; k < x->nnodes; k++) {
		const struct dfz_node *nd = &pr->p.node[k];
		char name[16];

		if (k == 0) {
			emit_u32_array(f, "s0", nd->in.stride, x->rank);
			fprintf(f, "static uint8_t h0[%u];\n",
				nd->in.bytes ? nd->in.bytes : 1);
		}
		if (nd->kernel == DFZ_KERNEL_ADD) {
			unsigned a = tensor_index(x, k, DFZ_WALK_AUX);

			snprintf(name, sizeof(name), "s%u", a);
			emit_u32_array(f, name, nd->aux.stride, x->rank);
			fprintf(f, "static uint8_t h%u[%u];\n", a,
				nd->aux.bytes ? nd->aux.bytes : 1);
		}
		snprintf(name, sizeof(name), "s%u",
			 tensor_index(x, k, DFZ_WALK_OUT));
		emit_u32_array(f, name, nd->out.stride, x->rank);
		fprintf(f, "static uint8_t h%u[%u], want%u[%u];\n",
			tensor_index(x, k, DFZ_WALK_OUT),
			nd->out.bytes ? nd->out.bytes : 1,
			tensor_index(x, k, DFZ_WALK_OUT),
			nd->out.bytes ? nd->out.bytes : 1);
	}
	fprintf(f, "static const uint32_t bytes[%u] = { ", n);
	for (unsigned i = 0; i < n; i++) {
		const struct dfz_tensor *ts = NULL;

		for (unsigned k = 0; k < x->nnodes && !ts; k++) {
			const struct dfz_node *nd = &pr->p.node[k];

			if (i == tensor_index(x, k, DFZ_WALK_IN))
				ts = &nd->in;
			else if (nd->kernel == DFZ_KERNEL_ADD &&
				 i == tensor_index(x, k, DFZ_WALK_AUX))
				ts = &nd->aux;
			else if (i == tensor_index(x, k, DFZ_WALK_OUT))
				ts = &nd->out;
		}
		fprintf(f, "%s%u", i ? ", " : "", ts && ts->bytes ? ts->bytes : 1);
	}
	fputs(" };\n", f);
}

/* The tiled program: every call generated code makes. */
static void emit_program(struct printer *pr, uint32_t bugs)
{
	FILE *f = pr->f;

	fprintf(f, "\n/* The local buffers [hop][in, aux, out][slot] and the "
		"requests\n * [hop][node scope, iteration scope][handle]"
		"[request]. */\nstatic uint8_t *buf[1][3][2] __attribute__((unused));\n"
		"static pi_cl_ram_req_t req[1][2][%u][%u] __attribute__((unused));\n", DFZ_TILE_RING,
		DFZ_MAX_POOL);
	fputs(helpers, f);
	fputs("\n/* The tiled program, as generated code makes its calls. */\n"
	      "static void program(struct pi_device *ram)\n{\n\t(void)ram;\n", f);
	dfz_prog_walk(&pr->p, bugs, &tile_ops, pr);
	fputs("}\n", f);
}

/* Every input filled from the plan's seed (as the harness fills it), the
 * outputs as the allocator leaves them; the expected outputs computed. */
static void emit_body(struct printer *pr)
{
	const struct dfz_plan_xfer *x = pr->x;
	FILE *f = pr->f;
	unsigned n = ntensors(x);

	fputs("\nstatic void body(void *arg)\n{\n\tstruct dfz_gen g;\n\tint ok = 1;\n"
	      "\n\t(void)arg;\n", f);
	fprintf(f, "\tfor (unsigned i = 0; i < %u; i++) {\n"
		"\t\tt[i] = (uint32_t)(uintptr_t)cl_ram_malloc(bytes[i]);\n"
		"\t}\n", n);
	for (unsigned k = 0; k < x->nnodes; k++) {
		unsigned in = tensor_index(x, k, DFZ_WALK_IN);
		unsigned out = tensor_index(x, k, DFZ_WALK_OUT);

		if (k == 0)
			fprintf(f, "\tdfz_gen_init(&g, %uu);\n"
				"\tdfz_gen_bytes(&g, h0, bytes[0]);\n"
				"\tdfz_dropin_l3_write(t[0], h0, bytes[0]);\n",
				x->seed);
		if (x->node[k].kernel == DFZ_KERNEL_ADD) {
			unsigned a = tensor_index(x, k, DFZ_WALK_AUX);

			fprintf(f, "\tdfz_gen_init(&g, %lluull);\n"
				"\tdfz_gen_bytes(&g, h%u, bytes[%u]);\n"
				"\tdfz_dropin_l3_write(t[%u], h%u, bytes[%u]);\n",
				(unsigned long long)x->seed + k + 1, a, a, a, a, a);
		}
		fprintf(f, "\tdfz_dropin_l3_read(t[%u], want%u, bytes[%u]);\n",
			out, out, out);
		if (x->node[k].kernel == DFZ_KERNEL_ADD) {
			unsigned a = tensor_index(x, k, DFZ_WALK_AUX);

			fprintf(f, "\treference(2, want%u, s%u, %s%u, s%u, h%u, s%u);\n",
				out, out, k ? "want" : "h", in, in, a, a);
		} else {
			fprintf(f, "\treference(%u, want%u, s%u, %s%u, s%u, NULL, "
				"NULL);\n", x->node[k].kernel, out, out,
				k ? "want" : "h", in, in);
		}
	}
	fputs("\tprogram(get_ram_ptr());\n", f);
	for (unsigned k = 0; k < x->nnodes; k++) {
		unsigned out = tensor_index(x, k, DFZ_WALK_OUT);

		fprintf(f, "\tdfz_dropin_l3_read(t[%u], h%u, bytes[%u]);\n"
			"\tok &= memcmp(h%u, want%u, bytes[%u]) == 0;\n", out, out,
			out, out, out, out);
	}
	fprintf(f, "\tDFZ_DROPIN_CHECK(ok);\n"
		"\tfor (unsigned i = 0; i < %u; i++)\n"
		"\t\tcl_ram_free(t[i], bytes[i]);\n}\n\n"
		"DFZ_DROPIN_MAIN(body, NULL)\n", n);
}

int dfz__emit_dropin(FILE *f, const struct dfz_plan_xfer *x, uint32_t bugs)
{
	struct printer pr = { .f = f, .x = x };

	if (!dfz__emit_dropin_ok(x))
		return DFZ_EINVAL;
	dfz_plan_prog(x, &pr.p);
	if (!dfz_prog_is_valid(&pr.p) ||
	    !dfz_engine_caps_of(x->hop[0].engine, &pr.aw.caps))
		return DFZ_EINVAL;
	pr.aw.policy = x->hop[0].policy;
	pr.aw.bugs = bugs;
	pr.aw.ops = &ram_ops;
	pr.aw.ctx = &pr;
	fputs("#include <stdint.h>\n#include <string.h>\n\n"
	      "#include <pmsis.h>\n#include <bsp/ram.h>\n"
	      "#include <dmafuzz/dropin.h>\n#include <dmafuzz/harness.h>\n", f);
	emit_tensors(&pr);
	emit_program(&pr, bugs);
	emit_body(&pr);
	return ferror(f) ? DFZ_EIO : 0;
}
