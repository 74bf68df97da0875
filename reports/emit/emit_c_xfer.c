// SPDX-License-Identifier: MIT
/*
 * The xfer part of an emitted reproducer: what the executor
 * (harness/exec.c) sets up before it runs a tiled program, written out
 * with the plan's values: the schedule hook, the program as the oracles
 * read it (struct dfz_prog), one adapter per hop, the local buffers and
 * handles, the tensors allocated and filled from the plan's seed, and
 * replay(), which configures the runtime as the executor does, runs the
 * program (emit_c_tile.c writes it) and collects the verdict.
 */
#include <string.h>

#include "emit_c_int.h"

/* The switches that change the tiling executor's code, not the runtime's. */
#define TILE_BUGS (DFZ_BUG_BIT(EARLY_COMPUTE) | DFZ_BUG_BIT(DB_WAR) | \
		   DFZ_BUG_BIT(EDGE_TILE) | DFZ_BUG_BIT(REQ_ESCAPE))

/* The enumerators' names, as the emitted program spells them. */
#define POLICY_ID(id, name) "DFZ_POLICY_" #id,
#define STRAT_ID(id, name) "DFZ_STRAT_" #id,
static const char *const policy_names[DFZ_POLICY_COUNT] = {
	DFZ_POLICY_MAP(POLICY_ID)
};
static const char *const strategy_names[DFZ_STRAT_COUNT] = {
	DFZ_STRAT_MAP(STRAT_ID)
};
#undef POLICY_ID
#undef STRAT_ID

static void emit_sched(FILE *f, const struct dfz_plan_xfer *x)
{
	fputs("\n/* The schedule: engine steps run at each yield point, cycled. */\n", f);
	if (x->nsched == 0) {
		fputs("static unsigned sched_draw(void *ctx, enum dfz_yield where)\n"
		      "{\n\t(void)ctx;\n\t(void)where;\n"
		      "\treturn 0; /* empty: the engines run only inside waits */\n"
		      "}\n", f);
		return;
	}
	fputs("static const uint8_t sched[] = { ", f);
	for (unsigned i = 0; i < x->nsched; i++)
		fprintf(f, "%s%u", i ? ", " : "", x->sched[i]);
	fputs(" };\nstatic unsigned sched_next;\n\n"
	      "static unsigned sched_draw(void *ctx, enum dfz_yield where)\n"
	      "{\n\t(void)ctx;\n\t(void)where;\n"
	      "\treturn sched[sched_next++ % sizeof(sched)];\n}\n", f);
}

/* ---------------------------------------------------------- the program */

static void emit_tensor(FILE *f, const struct dfz_plan_xfer *x,
			const char *field, const struct dfz_plan_layout *l)
{
	uint32_t stride[DFZ_MAX_RANK];
	uint32_t bytes = dfz_plan_layout_strides(x, l, stride);

	fprintf(f, "\t\t  .%s = { .level = %s, .stride = ", field,
		dfz__emit_level(x->ext_level));
	dfz__emit_u32s(f, stride, x->rank);
	fprintf(f, ", .bytes = %u },\n", bytes);
}

static void emit_node(FILE *f, const struct dfz_plan_xfer *x, unsigned k)
{
	const struct dfz_plan_node *n = &x->node[k];

	fprintf(f, "\t\t{ .kernel = %s,\n", dfz__emit_kernel(n->kernel));
	emit_tensor(f, x, "in", k == 0 ? &x->in : &x->node[k - 1].out);
	if (n->kernel == DFZ_KERNEL_ADD)
		emit_tensor(f, x, "aux", &n->aux);
	emit_tensor(f, x, "out", &n->out);
	fputs("\t\t  .tile = { ", f);
	for (unsigned h = 0; h < x->nhops; h++) {
		fputs(h ? ", " : "", f);
		dfz__emit_u32s(f, n->tile[h], x->rank);
	}
	fputs(" } },\n", f);
}

static void emit_prog(FILE *f, const struct dfz_plan_xfer *x)
{
	fputs("\n/* The tiled program as the oracles read it: what the run must\n"
	      " * compute. The tensor offsets are set as they are allocated. */\n"
	      "static struct dfz_prog prog = {\n", f);
	fprintf(f, "\t.rank = %u,\n\t.elem = %u,\n\t.shape = ", x->rank, x->elem);
	dfz__emit_u32s(f, x->shape, x->rank);
	fprintf(f, ",\n\t.nnodes = %u,\n\t.node = {\n", x->nnodes);
	for (unsigned k = 0; k < x->nnodes; k++)
		emit_node(f, x, k);
	fprintf(f, "\t},\n\t.nhops = %u,\n\t.hop = {\n", x->nhops);
	for (unsigned h = 0; h < x->nhops; h++)
		fprintf(f, "\t\t{ .local_level = %s, .buffering = %u,\n"
			"\t\t  .strategy = %s },\n",
			dfz__emit_level(dfz_plan_hop_level(x, h)),
			x->hop[h].buffering,
			strategy_names[x->hop[h].strategy % DFZ_STRAT_COUNT]);
	fprintf(f, "\t},\n\t.compute_chunks = %u,\n};\n", x->compute_chunks);
}

static void emit_adapters(FILE *f, const struct dfz_plan_xfer *x, bool tiles,
			  bool aux, bool escape)
{
	fputs("\n/* One adapter per hop (its rt is set at the start of the run):\n"
	      " * the engine, the decomposition policy, where requests live. */\n",
	      f);
	fprintf(f, "static struct dfz_adapter ad[%u] = {\n", x->nhops);
	for (unsigned h = 0; h < x->nhops; h++)
		fprintf(f, "\t{ .engine = %s, .policy = %s, .pool_k = %u,\n"
			"\t  .req_level = %s },\n",
			dfz__emit_engine(x->hop[h].engine),
			policy_names[x->hop[h].policy % DFZ_POLICY_COUNT],
			x->hop[h].pool_k,
			dfz__emit_level(dfz_plan_hop_level(x, h)));
	fputs("};\n", f);
	if (!tiles)
		return;
	fputs("\n/* Per hop H: the tile buffers (one slot, two with double\n"
	      " * buffering) and the handles of the node's scope (hH) and, with\n"
	      " * req-escape, of one loop iteration (hH_it). */\n", f);
	for (unsigned h = 0; h < x->nhops; h++) {
		unsigned n = dfz_tile_handles(x->hop[h].strategy);

		fprintf(f, "static void *in%u[2], *out%u[2];\n", h, h);
		if (aux)
			fprintf(f, "static void *aux%u[2];\n", h);
		fprintf(f, "static struct dfz_handle h%u[%u];\n", h, n);
		if (escape)
			fprintf(f, "static struct dfz_handle h%u_it[%u];\n", h, n);
	}
}

/* ------------------------------------------------------------- helpers */

static const char helpers[] =
	"\n/* A runtime call refused the valid plan (rt.refused, as the harness\n"
	" * judges it), named with its line in this program. */\n"
	"static void refused(struct dfz_verdict *v, int err)\n"
	"{\n"
	"\tv->kind = DFZ_VERDICT_BUG;\n"
	"\tv->finding.cls = DFZ_CLASS_RT_REFUSED;\n"
	"\tv->finding.ev = dfz_evidence_none();\n"
	"\tv->finding.ev.step = (int64_t)v->steps;\n"
	"\tsnprintf(v->finding.oracle, sizeof(v->finding.oracle), \"runtime\");\n"
	"\tsnprintf(v->finding.msg, sizeof(v->finding.msg), \"the runtime \"\n"
	"\t\t \"refused a valid plan: %.*s() at line %d of this program \"\n"
	"\t\t \"returned %s\", rc_call ? (int)strcspn(rc_call, \"(\") : 1,\n"
	"\t\t rc_call ? rc_call : \"?\", rc_line, dfz_strerror(err));\n"
	"}\n"
	"\n/* The level offset of local buffer @p (as the executor locates it). */\n"
	"static uint32_t off_of(const void *p)\n"
	"{\n"
	"\tstruct dfz_span s = { 0 };\n"
	"\n"
	"\tdfz_mem_locate(rt, p, 1, &s);\n"
	"\treturn s.off;\n"
	"}\n"
	"\n"
	"static void buf_free(void **p)\n"
	"{\n"
	"\tif (*p)\n"
	"\t\tdfz_local_free(rt, *p);\n"
	"\t*p = NULL;\n"
	"}\n"
	"\n"
	"/* A scope's handles end: released, waiting nothing. */\n"
	"static void scope_fini(struct dfz_adapter *a, struct dfz_handle *h,\n"
	"\t\t       unsigned n)\n"
	"{\n"
	"\tfor (unsigned i = 0; i < n; i++)\n"
	"\t\tdfz_handle_fini(a, &h[i]);\n"
	"}\n"
	"\n"
	"/* A scope's handles begin, in order; when one fails, the ones before\n"
	" * it are released. */\n"
	"static int scope_init(struct dfz_adapter *a, struct dfz_handle *h,\n"
	"\t\t      unsigned n)\n"
	"{\n"
	"\tint err = 0;\n"
	"\n"
	"\tmemset(h, 0, n * sizeof(*h));\n"
	"\tfor (unsigned i = 0; i < n && err == 0; i++)\n"
	"\t\terr = dfz_handle_init(a, &h[i]);\n"
	"\tif (err != 0)\n"
	"\t\tscope_fini(a, h, n);\n"
	"\treturn err;\n"
	"}\n"
	"\n"
	"/* One tile's compute: @n elements, compact in every buffer. */\n"
	"static void compute(unsigned engine, unsigned kernel, const void *in,\n"
	"\t\t    const void *aux, void *out, uint64_t n)\n"
	"{\n"
	"\tif (rc == 0)\n"
	"\t\tdfz_compute_run(&(struct dfz_compute){\n"
	"\t\t\t.rt = rt, .engine = (uint8_t)engine,\n"
	"\t\t\t.kernel = (uint8_t)kernel, .elem = prog.elem,\n"
	"\t\t\t.chunks = prog.compute_chunks, .in = in, .aux = aux,\n"
	"\t\t\t.out = out, .n = n });\n"
	"}\n";

/* The tensors live in L2 (a one-hop L2<->L1 plan): allocated and
 * located, filled in place. */
static const char alloc_l2[] =
	"\n/* A tensor in L2: allocated, and its offset located. */\n"
	"static int tensor_alloc(struct dfz_tensor *t)\n"
	"{\n"
	"\tuint32_t size = t->bytes ? t->bytes : 1;\n"
	"\tstruct dfz_span at;\n"
	"\tvoid *ptr;\n"
	"\tint err = dfz_local_alloc(rt, DFZ_L2, size, &ptr);\n"
	"\n"
	"\tif (err < 0)\n"
	"\t\treturn err;\n"
	"\tif (!dfz_mem_locate(rt, ptr, size, &at))\n"
	"\t\treturn DFZ_EFAULT;\n"
	"\tt->off = at.off;\n"
	"\treturn 0;\n"
	"}\n";

static const char fill_l2[] =
	"\n/* An input tensor's bytes (padding included) from the plan's seed. */\n"
	"static int tensor_fill(const struct dfz_tensor *t, uint64_t seed)\n"
	"{\n"
	"\tuint8_t *at = dfz_mem_ptr(rt, DFZ_L2, t->off);\n"
	"\tstruct dfz_gen g;\n"
	"\n"
	"\tif (!at)\n"
	"\t\treturn DFZ_EFAULT;\n"
	"\tdfz_gen_init(&g, seed);\n"
	"\tdfz_gen_bytes(&g, at, t->bytes);\n"
	"\treturn 0;\n"
	"}\n";

static const char alloc_l3[] =
	"\n/* A tensor in L3: allocated by offset. */\n"
	"static int tensor_alloc(struct dfz_tensor *t)\n"
	"{\n"
	"\treturn dfz_l3_alloc(rt, t->bytes ? t->bytes : 1, &t->off);\n"
	"}\n";

static const char fill_l3[] =
	"\n"
	"/* An input tensor's bytes (padding included) from the plan's seed,\n"
	" * written through the loader's view of L3. */\n"
	"static int tensor_fill(const struct dfz_tensor *t, uint64_t seed)\n"
	"{\n"
	"\tstatic uint8_t bytes[DFZ_CAP_TENSOR_BYTES];\n"
	"\tstruct dfz_gen g;\n"
	"\n"
	"\tdfz_gen_init(&g, seed);\n"
	"\tdfz_gen_bytes(&g, bytes, t->bytes);\n"
	"\treturn dfz_l3_write(rt, t->off, bytes, t->bytes);\n"
	"}\n";

/* The input, then per node its aux (add) and its output; node k + 1
 * reads node k's output. Inputs are filled from the plan's seed. */
static void emit_tensors(FILE *f, const struct dfz_plan_xfer *x)
{
	uint32_t s[DFZ_MAX_RANK];

	bool fills = dfz_plan_layout_strides(x, &x->in, s) != 0;

	for (unsigned k = 0; k < x->nnodes; k++)
		if (x->node[k].kernel == DFZ_KERNEL_ADD &&
		    dfz_plan_layout_strides(x, &x->node[k].aux, s))
			fills = true;
	fputs(x->ext_level == DFZ_L3 ? alloc_l3 : alloc_l2, f);
	if (fills)
		fputs(x->ext_level == DFZ_L3 ? fill_l3 : fill_l2, f);
	fputs("\n/* The input, then per node its aux (add) and its output. */\n"
	      "static int tensors(void)\n{\n"
	      "\tTRY(tensor_alloc(&prog.node[0].in));\n", f);
	if (dfz_plan_layout_strides(x, &x->in, s))
		fprintf(f, "\tTRY(tensor_fill(&prog.node[0].in, %uu));\n",
			x->seed);
	for (unsigned k = 0; k < x->nnodes; k++) {
		if (k)
			fprintf(f, "\tprog.node[%u].in = prog.node[%u].out;\n",
				k, k - 1);
		if (x->node[k].kernel == DFZ_KERNEL_ADD) {
			fprintf(f, "\tTRY(tensor_alloc(&prog.node[%u].aux));\n", k);
			if (dfz_plan_layout_strides(x, &x->node[k].aux, s))
				fprintf(f, "\tTRY(tensor_fill(&prog.node[%u].aux, "
					"%lluu));\n", k,
					(unsigned long long)x->seed + k + 1);
		}
		fprintf(f, "\tTRY(tensor_alloc(&prog.node[%u].out));\n", k);
	}
	fputs("\treturn rc;\n}\n", f);
}

/* -------------------------------------------------------------- replay */

static void emit_config(FILE *f, const struct dfz_plan_xfer *x)
{
	fputs("\nstatic void replay(uint32_t bugs, struct dfz_verdict *v)\n{\n"
	      "\tstruct dfz_rt_config cfg = {\n", f);
	fprintf(f, "\t\t.mem_size = { [DFZ_L3] = %u, [DFZ_L2] = %u, "
		"[DFZ_L1] = %u },\n", DFZ_CAP_L3,
		x->l2_size ? x->l2_size : DFZ_CAP_L2,
		x->l1_size ? x->l1_size : DFZ_CAP_L1);
	fprintf(f, "\t\t.latency = %u,\n\t\t.bandwidth = %u,\n"
		"\t\t.wait_bound = %u,\n", x->latency, x->bandwidth,
		dfz_plan_wait_bound(x));
	fputs("\t\t.bugs = bugs,\n\t\t.sched = sched_draw,\n"
	      "\t\t.obs = { observe, NULL },\n\t};\n"
	      "\tconst struct dfz_finding *found;\n"
	      "\tint err = dfz_rt_reset(rt, &cfg);\n\n", f);
}

static const char replay_body[] =
	"\tif (err < 0) {\n"
	"\t\trejected(v, \"bad runtime configuration\", err);\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tdfz_oracles_reset(set, rt);\n"
	"\tfor (unsigned h = 0; h < sizeof(ad) / sizeof(ad[0]); h++)\n"
	"\t\tad[h].rt = rt;\n"
	"\tif (tensors() < 0) {\n"
	"\t\trejected(v, \"tensors do not fit the memory\", rc);\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tdfz_oracles_begin(set, &prog);\n"
	"\trc = RUN_PROGRAM(bugs);\n"
	"\t/* A run the runtime gave up on (not a hang) is judged by what the\n"
	"\t * oracles saw while it ran, as the harness judges it. */\n"
	"\tif (rc == 0 || rc == DFZ_EHANG)\n"
	"\t\tdfz_oracles_end(set);\n"
	"\tv->steps = dfz_rt_now(rt);\n"
	"\tv->xfers = issues;\n"
	"\tfound = dfz_oracles_finding(set);\n"
	"\tif (found) {\n"
	"\t\tv->kind = DFZ_VERDICT_BUG;\n"
	"\t\tv->finding = *found;\n"
	"\t} else if (rc < 0 && rc != DFZ_EHANG) {\n"
	"\t\trefused(v, rc);\n"
	"\t} else {\n"
	"\t\tv->kind = DFZ_VERDICT_CLEAN;\n"
	"\t}\n"
	"}\n";

static bool has_add(const struct dfz_plan_xfer *x)
{
	for (unsigned k = 0; k < x->nnodes; k++)
		if (x->node[k].kernel == DFZ_KERNEL_ADD)
			return true;
	return false;
}

void dfz__emit_xfer(FILE *f, const struct dfz_plan_xfer *x, uint32_t bugs)
{
	uint32_t tile_bugs = bugs & TILE_BUGS;
	bool tiles = dfz__emit_has_tiles(x);

	emit_sched(f, x);
	emit_prog(f, x);
	emit_adapters(f, x, tiles, has_add(x),
		      tile_bugs & DFZ_BUG_BIT(REQ_ESCAPE));
	if (tiles)
		fputs(helpers, f);
	emit_tensors(f, x);
	if (tile_bugs) {
		fputs("\n/* The program as generated with the switches of the "
		      "tiling executor\n * (the faulty code). */", f);
		dfz__emit_tiles(f, x, tile_bugs, "program_faulty");
		fputs("\n/* The same program as the fixed executor generates it "
		      "(--clean). */", f);
		dfz__emit_tiles(f, x, 0, "program_fixed");
		fputs("\n#define RUN_PROGRAM(bugs) \\\n"
		      "\t((bugs) == EMITTED_BUGS ? program_faulty() : "
		      "program_fixed())\n", f);
	} else {
		fputs("\n/* The tiled program, call by call. */", f);
		dfz__emit_tiles(f, x, 0, "program");
		fputs("\n#define RUN_PROGRAM(bugs) program()\n", f);
	}
	emit_config(f, x);
	fputs(replay_body, f);
}
