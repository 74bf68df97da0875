// SPDX-License-Identifier: MIT
/*
 * The host and api part of an emitted reproducer: what the host-family
 * executor (harness/exec_host.c) does, written out with the plan's
 * values. The host tensors get their storage (with the harness's gap
 * between them) and their bytes from the plan's seed, child tensors are
 * staged on the device, the kernel binary is filled, and the program's
 * calls are made one by one with their concrete arguments and faults,
 * each return code reported to the oracles. A signal raised inside the
 * runtime (the null-arg path) becomes a `crash` finding, as the CLI
 * reports it.
 */
#include <stdlib.h>
#include <string.h>

#include "emit_c_int.h"

/* The enumerators' names, as the emitted program spells them. */
#define DTYPE_ID(id, name, size) "DFZ_DT_" #id,
#define ROLE_ID(id, name) "DFZ_ROLE_" #id,
#define API_ID(id, name, key) "DFZ_API_" #id,
#define FAULT_ID(id, name) "DFZ_FAULT_" #id,
static const char *const dtype_names[DFZ_DT_COUNT] = { DFZ_DTYPE_MAP(DTYPE_ID) };
static const char *const role_names[DFZ_ROLE_COUNT] = { DFZ_ROLE_MAP(ROLE_ID) };
static const char *const op_names[DFZ_API_COUNT] = { DFZ_API_MAP(API_ID) };
static const char *const fault_names[DFZ_FAULT_COUNT] = {
	DFZ_FAULT_MAP(FAULT_ID)
};
#undef DTYPE_ID
#undef ROLE_ID
#undef API_ID
#undef FAULT_ID

#define NAME(tab, i) ((i) < sizeof(tab) / sizeof(tab[0]) ? tab[i] : "0")

/* --------------------------------------------------------- the program */

/* What the emitted program needs besides the tensors and the binary. */
enum use { USE_SCRATCH, USE_SLOTS, USE_INIT };

static bool uses(const struct dfz_host_prog *p, enum use u)
{
	for (unsigned i = 0; u == USE_SCRATCH && i < p->ntensors; i++)
		if (p->t[i].arg.child_memory)
			return true;
	for (unsigned k = 0; k < p->ncalls; k++) {
		unsigned op = p->call[k].op;

		bool copy = op == DFZ_API_COPY_TO || op == DFZ_API_COPY_FROM;

		if (u == USE_INIT ? op == DFZ_API_INIT :
		    u == USE_SLOTS ? op <= DFZ_API_COPY_FROM :
		    copy && p->call[k].fault != DFZ_FAULT_NULL_PTR)
			return true;
	}
	return false;
}

/* The program as the executor builds it (host data are tags here, so
 * that a fault that changes one shows: the emitted code sets them at run
 * time). */
static void build_prog(const struct dfz_plan *pl, struct dfz_host_prog *p,
		       struct dfz_host_layout *lay)
{
	dfz_plan_host_prog(pl, p, lay);
	for (unsigned i = 0; i < p->ntensors; i++)
		p->t[i].arg.data = 0x1000u + i;
}

static void emit_spec(FILE *f, const struct dfz_host_prog *p)
{
	fprintf(f, "\n/* The program as the oracles read it: its tensors (data set\n"
		" * as they are placed), the device budget, the kernel binary and\n"
		" * the calls. */\nstatic struct dfz_host_prog prog = {\n"
		"\t.ntensors = %u,\n\t.t = {\n", p->ntensors);
	for (unsigned i = 0; i < p->ntensors; i++) {
		const struct dfz_host_tensor *t = &p->t[i];

		fputs("\t\t{ .arg = { .shapes = ", f);
		dfz__emit_u32s(f, t->arg.shapes, t->arg.ndims);
		fprintf(f, ", .ndims = %u,\n\t\t\t   .dtype = %s, "
			".child_memory = %u },\n\t\t  .role = %s, .bytes = %u },\n",
			t->arg.ndims, NAME(dtype_names, t->arg.dtype),
			t->arg.child_memory, NAME(role_names, t->role),
			t->bytes);
	}
	fprintf(f, "\t},\n\t.graph = %u,\n\t.dev_budget = %u,\n"
		"\t.bin_size = %u,\n\t.ncalls = %u,\n\t.call = {\n", p->graph,
		p->dev_budget, p->bin_size, p->ncalls);
	for (unsigned i = 0; i < p->ncalls; i++) {
		const struct dfz_host_call *c = &p->call[i];

		fprintf(f, "\t\t{ .op = %s, .fault = %s, .arg = %u,\n"
			"\t\t  .slot = %u, .repeat = %u, .size = %u, "
			".offset = %u },\n", NAME(op_names, c->op),
			NAME(fault_names, c->fault), c->arg, c->slot,
			c->repeat, c->size, c->offset);
	}
	fputs("\t},\n};\n", f);
}

/* ------------------------------------------------------------- staging */

static const char fill_helpers[] =
	"\n/* splitmix64: the harness's fill of tensors and binary. */\n"
	"static uint64_t mix64(uint64_t *s)\n"
	"{\n"
	"\tuint64_t z = (*s += 0x9e3779b97f4a7c15ull);\n"
	"\n"
	"\tz = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;\n"
	"\tz = (z ^ (z >> 27)) * 0x94d049bb133111ebull;\n"
	"\treturn z ^ (z >> 31);\n"
	"}\n"
	"\n"
	"\n"
	"/* Each draw gives eight bytes, the high one first. */\n"
	"static void fill(uint8_t *dst, uint32_t n, uint64_t seed)\n"
	"{\n"
	"\tuint64_t s = seed, z = 0;\n"
	"\n"
	"\tfor (uint32_t i = 0; i < n; i++, z <<= 8) {\n"
	"\t\tif (i % 8 == 0)\n"
	"\t\t\tz = mix64(&s);\n"
	"\t\tdst[i] = (uint8_t)(z >> 56);\n"
	"\t}\n"
	"}\n";

static const char init_helper[] =
	"\n/* Init's argument table: the program's tensors, unchanged. */\n"
	"static void init_args(void)\n"
	"{\n"
	"\tmemset(args, 0, sizeof(args));\n"
	"\tmemset(roles, 0, sizeof(roles));\n"
	"\tfor (unsigned i = 0; i < prog.ntensors; i++) {\n"
	"\t\targs[i] = prog.t[i].arg;\n"
	"\t\troles[i] = prog.t[i].role;\n"
	"\t}\n"
	"}\n";

/* Host tensors in mem (where the executor puts them), child tensors
 * malloc'ed and copied to the device. */
static void emit_stage(FILE *f, const struct dfz_host_prog *p,
		       const struct dfz_host_layout *lay)
{
	fputs("\n/* The tensors placed: host tensors in mem, child tensors staged\n"
	      " * on the device by the user before the program starts. */\n"
	      "static int stage(void)\n{\n", f);
	for (unsigned i = 0; i < p->ntensors; i++) {
		const struct dfz_host_tensor *t = &p->t[i];
		unsigned long long seed = lay->seed[i];

		if (!t->arg.child_memory) {
			fprintf(f, "\tfill(mem + %u, %u, %#llxull);\n"
				"\tprog.t[%u].arg.data = (uint64_t)(uintptr_t)"
				"(mem + %u);\n", lay->at[i], t->bytes, seed, i,
				lay->at[i]);
			continue;
		}
		fprintf(f, "\tTRY(dfz_dev_malloc(dev, %u, &prog.t[%u].arg.data));\n"
			"\tif (rc == 0)\n\t\tfill(scratch, %u, %#llxull);\n"
			"\tTRY(dfz_dev_copy_to(dev, prog.t[%u].arg.data, scratch, "
			"%u));\n", t->bytes, i, t->bytes, seed, i, t->bytes);
	}
	fprintf(f, "\tif (rc == 0)\n\t\tfill(bin, %u, %#llxull);\n"
		"\tprog.bin = bin;\n\treturn rc;\n}\n", p->bin_size,
		(unsigned long long)lay->bin_seed);
}

/* ------------------------------------------------------------ the calls */

/* The init table of act @a: the unchanged table, then what the fault
 * changed. */
static void emit_init_args(FILE *f, const struct dfz_host_prog *p,
			   const struct dfz_host_act *a)
{
	struct dfz_tensor_arg a0[DFZ_HOST_MAX_ARGS];
	uint8_t r0[DFZ_HOST_MAX_ARGS];

	dfz_host_call_args(p, NULL, a0, r0);
	fputs("\tinit_args();\n", f);
	for (unsigned i = 0; i < DFZ_HOST_MAX_ARGS; i++) {
		const struct dfz_tensor_arg *a1 = &a->args[i];

		if (a1->data != a0[i].data)
			fprintf(f, "\targs[%u].data = %llu;\n", i,
				(unsigned long long)a1->data);
		for (unsigned d = 0; d < 5; d++)
			if (a1->shapes[d] != a0[i].shapes[d])
				fprintf(f, "\targs[%u].shapes[%u] = %uu;\n", i, d,
					a1->shapes[d]);
		if (a1->ndims != a0[i].ndims)
			fprintf(f, "\targs[%u].ndims = %u;\n", i, a1->ndims);
		if (a1->dtype != a0[i].dtype)
			fprintf(f, "\targs[%u].dtype = %u;\n", i, a1->dtype);
		if (a->roles[i] != r0[i])
			fprintf(f, "\troles[%u] = %u;\n", i, a->roles[i]);
	}
}

static void emit_host_call(FILE *f, const struct dfz_host_prog *p,
			   const struct dfz_host_act *a, unsigned k)
{
	const char *h = a->null_ctx ? "NULL" : "host";

	switch (a->op) {
	case DFZ_API_INIT:
		emit_init_args(f, p, a);
		fprintf(f, "\trc = dfz_host_init(%s, %s, %s, %u, %u);\n", h,
			a->null_ptr ? "NULL" : "args",
			a->null_roles ? "NULL" : "roles", a->nargs, a->graph);
		break;
	case DFZ_API_RUN:
		fprintf(f, "\tfor (unsigned r = 0; r < %u; r++) {\n"
			"\t\trc = dfz_host_launch(%s, %s, %llu);\n"
			"\t\tdfz_oracles_returned(set, %u, r, rc);\n\t}\n",
			a->times, h, a->null_ptr ? "NULL" : "bin",
			(unsigned long long)a->size, k);
		return;
	case DFZ_API_VALIDATE:
		fprintf(f, "\trc = dfz_host_validate(%s);\n", h);
		break;
	default:
		fprintf(f, "\trc = dfz_host_finalize(%s);\n", h);
		break;
	}
	fprintf(f, "\tdfz_oracles_returned(set, %u, 0, rc);\n", k);
}

static void emit_driver_call(FILE *f, const struct dfz_host_act *a,
			     unsigned k)
{
	const char *dev = a->null_ctx ? "NULL" : "dev";
	const char *ptr = a->null_ptr ? "NULL" : "scratch";
	char size[32];

	if (a->size == DFZ_HOST_HUGE_SIZE)
		snprintf(size, sizeof(size), "DFZ_HOST_HUGE_SIZE");
	else
		snprintf(size, sizeof(size), "%llu", (unsigned long long)a->size);

	switch (a->op) {
	case DFZ_API_MALLOC:
		fprintf(f, "\trc = dfz_dev_malloc(%s, %s, %s);\n"
			"\tif (rc == 0)\n\t\tslot[%u] = got;\n", dev, size,
			a->null_ptr ? "NULL" : "&got", a->slot);
		break;
	case DFZ_API_FREE:
		fprintf(f, "\trc = dfz_dev_free(%s, slot[%u]);\n", dev, a->slot);
		break;
	case DFZ_API_COPY_TO:
		fprintf(f, "\trc = dfz_dev_copy_to(%s, slot[%u] + %u, %s, %s);\n",
			dev, a->slot, a->offset, ptr, size);
		break;
	default:
		fprintf(f, "\trc = dfz_dev_copy_from(%s, %s, slot[%u] + %u, %s);\n",
			dev, ptr, a->slot, a->offset, size);
		break;
	}
	fprintf(f, "\tdfz_oracles_returned(set, %u, 0, rc);\n", k);
}

/* Each call as dfz_host_act_of() makes it, with its concrete arguments. */
static void emit_perform(FILE *f, const struct dfz_host_prog *p)
{
	bool malloc_used = false;
	struct dfz_host_act a;

	for (unsigned k = 0; k < p->ncalls; k++)
		malloc_used |= p->call[k].op == DFZ_API_MALLOC;
	fprintf(f, "\n/* The program's calls, in order, with their concrete "
		"arguments;\n * each return code goes to the oracles. */\n"
		"static void perform(void)\n{\n%s\tint rc;\n",
		malloc_used ? "\tuint64_t got = 0;\n" : "");
	for (unsigned k = 0; k < p->ncalls; k++) {
		const struct dfz_host_call *c = &p->call[k];

		dfz_host_act_of(p, k, &a);
		fprintf(f, "\n\t/* call %u: %s", k, dfz_api_name(c->op) ?
			dfz_api_name(c->op) : "?");
		if (c->fault)
			fprintf(f, ", fault %s", NAME(fault_names, c->fault));
		fprintf(f, " */\n\tcall_no = %u;\n", k);
		if (a.times == 0)
			fputs("\t/* not a call the harness performs */\n", f);
		else if (DFZ_API_IS_HOST(a.op))
			emit_host_call(f, p, &a, k);
		else
			emit_driver_call(f, &a, k);
	}
	fputs("}\n", f);
}

/* ------------------------------------------------------------- replay */

static const char guard[] =
	"\n/* A signal raised inside the runtime ends the program as a crash. */\n"
	"static sigjmp_buf crash_env;\n"
	"static volatile sig_atomic_t crash_signo;\n"
	"static void *volatile crash_addr;\n"
	"\n"
	"static void on_signal(int signo, siginfo_t *si, void *uctx)\n"
	"{\n"
	"\t(void)uctx;\n"
	"\tcrash_signo = signo;\n"
	"\tcrash_addr = si ? si->si_addr : NULL;\n"
	"\tsiglongjmp(crash_env, 1);\n"
	"}\n"
	"\n"
	"static const char *signal_name(int signo)\n"
	"{\n"
	"\treturn signo == SIGSEGV ? \"SIGSEGV\" : signo == SIGBUS ? \"SIGBUS\" :\n"
	"\t       signo == SIGFPE ? \"SIGFPE\" : signo == SIGILL ? \"SIGILL\" :\n"
	"\t       \"signal\";\n"
	"}\n"
	"\n"
	"static void perform_guarded(void)\n"
	"{\n"
	"\tstatic const int caught[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };\n"
	"\tstruct sigaction sa, old[4];\n"
	"\tstruct dfz_evidence ev = dfz_evidence_none();\n"
	"\tchar where[32] = \"an unmapped address\";\n"
	"\n"
	"\tmemset(&sa, 0, sizeof(sa));\n"
	"\tsa.sa_sigaction = on_signal;\n"
	"\tsa.sa_flags = SA_SIGINFO | SA_NODEFER;\n"
	"\tsigemptyset(&sa.sa_mask);\n"
	"\tfor (unsigned i = 0; i < 4; i++)\n"
	"\t\tsigaction(caught[i], &sa, &old[i]);\n"
	"\tif (sigsetjmp(crash_env, 1) == 0)\n"
	"\t\tperform();\n"
	"\telse {\n"
	"\t\tif ((uintptr_t)crash_addr < 4096)\n"
	"\t\t\tsnprintf(where, sizeof(where), \"address 0x%lx\",\n"
	"\t\t\t\t (unsigned long)(uintptr_t)crash_addr);\n"
	"\t\tev.xfer = call_no;\n"
	"\t\tev.step = (int64_t)dfz_rt_now(rt);\n"
	"\t\tdfz_oracle_fail(set, \"signal\", DFZ_CLASS_CRASH, &ev,\n"
	"\t\t\t\t\"%s at %s in the runtime during call %u (%s)\",\n"
	"\t\t\t\tsignal_name(crash_signo), where, call_no,\n"
	"\t\t\t\tdfz_api_name(prog.call[call_no].op));\n"
	"\t}\n"
	"\tfor (unsigned i = 0; i < 4; i++)\n"
	"\t\tsigaction(caught[i], &old[i], NULL);\n"
	"}\n";

static const char replay_body[] =
	"\tconst struct dfz_finding *found;\n"
	"\tint err = dfz_rt_reset(rt, &cfg);\n"
	"\n"
	"\tif (err < 0) {\n"
	"\t\trejected(v, \"bad runtime configuration\", err);\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tdfz_oracles_reset(set, rt);\n"
	"\tdev = dfz_dev_get(rt);\n"
	"\thost = dfz_host_get(rt);\n"
	"\tif (stage() < 0) {\n"
	"\t\trejected(v, \"the child tensors do not fit the device\", rc);\n"
	"\t\treturn;\n"
	"\t}\n"
	"\tdfz_oracles_begin_host(set, &prog);\n"
	"\tperform_guarded();\n"
	"\tdfz_oracles_end(set);\n"
	"\tfound = dfz_oracles_finding(set);\n"
	"\tv->steps = dfz_rt_now(rt);\n"
	"\tv->xfers = prog.ncalls;\n"
	"\tif (found) {\n"
	"\t\tv->kind = DFZ_VERDICT_BUG;\n"
	"\t\tv->finding = *found;\n"
	"\t} else {\n"
	"\t\tv->kind = DFZ_VERDICT_CLEAN;\n"
	"\t}\n"
	"}\n";

int dfz__emit_host(FILE *f, const struct dfz_plan *pl)
{
	const struct dfz_plan_host *h = &pl->host;
	struct dfz_host_layout lay;
	struct dfz_host_prog p;

	build_prog(pl, &p, &lay);
	if (lay.host_bytes)
		fprintf(f, "\n/* Host tensors, with a %u-byte gap between them "
			"as the\n * harness lays them out. */\n"
			"static uint8_t mem[%llu];\n", DFZ_HOST_GAP,
			(unsigned long long)lay.host_bytes);
	fprintf(f, "/* The kernel binary. */\nstatic uint8_t bin[%u];\n",
		h->bin_size ? h->bin_size : 1);
	if (uses(&p, USE_SCRATCH))
		fputs("/* The host side of the staging and the api copies. */\n"
		      "static uint8_t scratch[DFZ_HOST_MAX_TENSOR];\n", f);
	if (uses(&p, USE_SLOTS))
		fputs("/* The user's device buffers (api calls). */\n"
		      "static uint64_t slot[DFZ_HOST_SLOTS];\n", f);
	if (uses(&p, USE_INIT))
		fputs("/* Init's arguments. */\n"
		      "static struct dfz_tensor_arg args[DFZ_HOST_MAX_ARGS];\n"
		      "static uint8_t roles[DFZ_HOST_MAX_ARGS];\n", f);
	fputs("static struct dfz_dev *dev;\nstatic struct dfz_host *host;\n"
	      "static unsigned call_no;     /* the call being made */\n", f);
	emit_spec(f, &p);
	fputs(fill_helpers, f);
	if (uses(&p, USE_INIT))
		fputs(init_helper, f);
	emit_stage(f, &p, &lay);
	emit_perform(f, &p);
	fputs(guard, f);
	fprintf(f, "\nstatic void replay(uint32_t bugs, struct dfz_verdict *v)\n"
		"{\n\tstruct dfz_rt_config cfg = {\n\t\t.dev_budget = %u,\n"
		"\t\t.bandwidth = 1,\n\t\t.wait_bound = 1,\n"
		"\t\t.bugs = bugs,\n\t\t.obs = { observe, NULL },\n\t};\n",
		h->budget);
	fputs(replay_body, f);
	return 0;
}
