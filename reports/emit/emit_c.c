// SPDX-License-Identifier: MIT
/*
 * The C reproducer emitter (`dmafuzz emit-c`): writes a standalone C
 * program that replays one plan through the public API of libdmafuzz with
 * plain calls, asserts the expected verdict, and builds with
 * `cc repro.c $(pkg-config --cflags --libs dmafuzz)`. This file writes the
 * frame every emitted program shares: the header comment (what it
 * reproduces, how to build and run it, the plan itself), the includes,
 * the runtime and oracle set, the observer, and main(), which runs the
 * plan with the switches it was emitted with (or, with --clean, none),
 * prints the verdict as `dmafuzz run` does and exits 0 when the verdict is
 * the expected one. The family parts (emit_c_xfer.c, emit_c_host.c) write
 * the plan's own calls.
 */
#include <stdlib.h>
#include <string.h>

#include "emit_c_int.h"

void dfz__emit_tabs(FILE *f, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		fputc('\t', f);
}

void dfz__emit_line(FILE *f, unsigned ind, const char *fmt, ...)
{
	va_list ap;

	if (!f)
		return;
	dfz__emit_tabs(f, ind);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

const char *dfz__emit_note_text(enum dfz_walk_note what)
{
	switch (what) {
	case DFZ_NOTE_EMPTY:
		return "an empty shape: no tiles, nothing allocated";
	case DFZ_NOTE_EARLY:
		return "early-compute: the loads are waited after the work";
	case DFZ_NOTE_EAGER:
		return "eager order: the store of tile i-2 only";
	case DFZ_NOTE_DRAIN:
		return "the last two stores, older first";
	case DFZ_NOTE_ESCAPE:
		return "req-escape: the requests are declared in the loop body";
	default:
		return NULL;
	}
}

void dfz__emit_u32s(FILE *f, const uint32_t *v, unsigned n)
{
	fputs("{ ", f);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%u", i ? ", " : "", v[i]);
	fputs(n ? " }" : "0 }", f);
}

/* ------------------------------------------------------------ checking */

/* Each class of "a|b" is known; "" and "clean" expect a clean run. */
static bool is_valid_expect(const char *expect)
{
	char name[64];

	if (!expect || !*expect || !strcmp(expect, "clean"))
		return true;
	for (const char *s = expect;;) {
		size_t n = strcspn(s, "|");

		if (n == 0 || n >= sizeof(name))
			return false;
		memcpy(name, s, n);
		name[n] = 0;
		if (dfz_class_parse(name) == DFZ_CLASS_NONE)
			return false;
		if (!s[n])
			return true;
		s += n + 1;
	}
}

/* ------------------------------------------------------------- comments */

/* @s inside a comment: every line prefixed (an empty line gets the
 * prefix without its trailing blanks), no comment terminator. */
static void comment_text(FILE *f, const char *prefix, const char *s)
{
	size_t plen = strlen(prefix);

	while (plen && prefix[plen - 1] == ' ')
		plen--;
	while (*s) {
		size_t n = strcspn(s, "\n");

		if (n)
			fputs(prefix, f);
		else
			fprintf(f, "%.*s", (int)plen, prefix);
		for (size_t i = 0; i < n; i++) {
			char c = s[i];

			if (c == '*' && s[i + 1] == '/')
				fputs("* ", f);
			else
				fputc(c == '\t' || (c >= 0x20 && c < 0x7f) ? c :
				      '?', f);
		}
		fputc('\n', f);
		s += n + (s[n] == '\n');
	}
}

/* The plan in the text form, for the header comment. */
static int plan_text(const struct dfz_plan *p, char **text)
{
	size_t n;
	FILE *m = open_memstream(text, &n);

	if (!m)
		return DFZ_ENOMEM;
	dfz_plan_print(p, m);
	return fclose(m) == 0 ? 0 : DFZ_ENOMEM;
}

static void bug_names(FILE *f, uint32_t bugs, const char *sep,
		      const char *none)
{
	bool any = false;

	for (unsigned b = 0; b < DFZ_BUG_COUNT; b++)
		if (bugs >> b & 1u) {
			fprintf(f, "%s%s", any ? sep : "", dfz_bug_name(b));
			any = true;
		}
	if (!any)
		fputs(none, f);
}

static const char header_how[] =
	" *\n"
	" * It replays the plan through the public API of libdmafuzz with plain\n"
	" * calls: it creates the runtime and the oracle set, allocates and fills\n"
	" * the tensors as the harness does, and performs the plan's program call\n"
	" * by call, in the order the harness performs it, with every shape,\n"
	" * stride, offset and handle spelled out. The oracles judge the run; the\n"
	" * verdict is printed as `dmafuzz run` prints it.\n"
	" *\n"
	" * Build: cc -o repro repro.c $(pkg-config --cflags --libs dmafuzz)\n"
	" * Run:   ./repro          the switches below on: exit 0 when the verdict\n"
	" *                         is one of the expected classes, else 1\n"
	" *        ./repro --clean  every switch off: exit 0 when the run is clean\n"
	" *        (exit 2: a bad argument, or no memory for the runtime)\n"
	" *\n";

static const char header_dropin[] =
	" *\n"
	" * It is the plan's program as the code a tiling compiler generates for\n"
	" * the SDK: every local buffer, request, DMA call and wait in the PMSIS\n"
	" * names, the switches below written as the faulty code itself. The\n"
	" * body fills the inputs as the harness does, runs the program and\n"
	" * checks every output against a reference computed on the host; the\n"
	" * drop-in's oracles judge every call.\n"
	" *\n"
	" * Build: cc -o repro repro.c $(pkg-config --cflags --libs dmafuzz-dropin)\n"
	" * Run:   ./repro          schedules, the empty one first: exit 1 at the\n"
	" *                         first finding (it names this file's line),\n"
	" *                         0 when every schedule is clean\n"
	" *\n";

static void emit_header(FILE *f, const struct dfz_emit_config *cfg,
			uint32_t bugs, const char *plan)
{
	fputs("// SPDX-License-Identifier: MIT\n/*\n", f);
	comment_text(f, " * ", "A dmafuzz reproducer, emitted by `dmafuzz emit-c` from");
	comment_text(f, " *   ", cfg->name ? cfg->name : "a plan");
	fputs(cfg->dropin ? header_dropin : header_how, f);
	fputs(" * Bug switches: ", f);
	bug_names(f, bugs, ", ", "none");
	fputs("\n * Expected:     ", f);
	comment_text(f, "", cfg->expect && *cfg->expect ? cfg->expect : "clean");
	if (cfg->note && *cfg->note) {
		fputs(" *\n", f);
		comment_text(f, " * ", cfg->note);
	}
	fputs(" *\n * The plan (`dmafuzz show`):\n", f);
	comment_text(f, " *   ", plan);
	fputs(" */\n", f);
}

/* @s as a C string literal. */
static void c_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* ---------------------------------------------------------------- frame */

static const char frame_top[] =
	"#define _POSIX_C_SOURCE 200809L\n"
	"#include <setjmp.h>\n"
	"#include <signal.h>\n"
	"#include <stdbool.h>\n"
	"#include <stdint.h>\n"
	"#include <stdio.h>\n"
	"#include <string.h>\n"
	"\n"
	"#include <dmafuzz/harness.h>\n"
	"\n";

static const char frame_common[] =
	"\n"
	"static struct dfz_rt *rt;\n"
	"static struct dfz_oracles *set;\n"
	"static struct dfz_observer to_oracles;\n"
	"static uint32_t issues;        /* ISSUE events: the verdict's XFERS */\n"
	"static int rc;                 /* the program's first error */\n"
	"/* The call that returned it, and its line in this program. */\n"
	"static const char *rc_call __attribute__((unused));\n"
	"static int rc_line __attribute__((unused));\n"
	"\n"
	"/* Perform @call while no call has failed; the first error stops the\n"
	" * program, as it stops the harness. */\n"
	"#define TRY(call) do { if (rc == 0 && (rc = (call)) != 0) { \\\n"
	"\t\trc_call = #call; rc_line = __LINE__; } } while (0)\n"
	"\n"
	"/* Every event of the runtime goes to the oracles. */\n"
	"static void observe(void *ctx, const struct dfz_event *ev)\n"
	"{\n"
	"\t(void)ctx;\n"
	"\tif (ev->kind == DFZ_EV_ISSUE)\n"
	"\t\tissues++;\n"
	"\tto_oracles.fn(to_oracles.ctx, ev);\n"
	"}\n"
	"\n"
	"static void rejected(struct dfz_verdict *v, const char *why, int err)\n"
	"{\n"
	"\tv->kind = DFZ_VERDICT_REJECTED;\n"
	"\tsnprintf(v->reason, sizeof(v->reason), \"%s: %s\", why,\n"
	"\t\t dfz_strerror(err));\n"
	"}\n";

static const char frame_main[] =
	"\n"
	"/* The verdict is one of the classes of @expect (\"a|b\"; \"\": clean). */\n"
	"static bool is_expected(const struct dfz_verdict *v, const char *expect)\n"
	"{\n"
	"\tconst char *name = dfz_class_name(v->finding.cls);\n"
	"\tsize_t n = strlen(name);\n"
	"\n"
	"\tif (!*expect)\n"
	"\t\treturn v->kind == DFZ_VERDICT_CLEAN;\n"
	"\tif (v->kind != DFZ_VERDICT_BUG)\n"
	"\t\treturn false;\n"
	"\tfor (const char *s = expect;; s++) {\n"
	"\t\tsize_t len = strcspn(s, \"|\");\n"
	"\n"
	"\t\tif (len == n && strncmp(s, name, n) == 0)\n"
	"\t\t\treturn true;\n"
	"\t\ts += len;\n"
	"\t\tif (!*s)\n"
	"\t\t\treturn false;\n"
	"\t}\n"
	"}\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tbool clean = argc == 2 && strcmp(argv[1], \"--clean\") == 0;\n"
	"\tconst char *expect = clean ? \"\" : EXPECTED;\n"
	"\tstruct dfz_verdict v;\n"
	"\tbool ok;\n"
	"\n"
	"\tif (argc > 2 || (argc == 2 && !clean)) {\n"
	"\t\tfprintf(stderr, \"usage: %s [--clean]\\n\", argv[0]);\n"
	"\t\treturn 2;\n"
	"\t}\n"
	"\tif (dfz_rt_create(&rt) < 0 ||\n"
	"\t    dfz_oracles_create(DFZ_ORACLES_ALL, &set) < 0) {\n"
	"\t\tfprintf(stderr, \"%s: no memory for the runtime\\n\", argv[0]);\n"
	"\t\treturn 2;\n"
	"\t}\n"
	"\tto_oracles = dfz_oracles_observer(set);\n"
	"\tmemset(&v, 0, sizeof(v));\n"
	"\treplay(clean ? 0 : EMITTED_BUGS, &v);\n"
	"\tdfz_verdict_print(&v, SOURCE, false, stdout);\n"
	"\tok = is_expected(&v, expect);\n"
	"\tprintf(\"EXPECT:   %s (%s)\\n\", ok ? \"reproduced\" : \"NOT reproduced\",\n"
	"\t       *expect ? expect : \"clean\");\n"
	"\tdfz_oracles_destroy(set);\n"
	"\tdfz_rt_destroy(rt);\n"
	"\treturn ok ? 0 : 1;\n"
	"}\n";

/* The enumerator suffixes of the switches, for DFZ_BUG_BIT(). */
static const char *const bug_ids[DFZ_BUG_COUNT] = {
#define BUG_ID(id, name) #id,
	DFZ_BUG_MAP(BUG_ID)
#undef BUG_ID
};

static void emit_constants(FILE *f, const struct dfz_emit_config *cfg,
			   uint32_t bugs)
{
	const char *expect = cfg->expect ? cfg->expect : "";

	if (!strcmp(expect, "clean"))
		expect = "";
	fputs("/* The switches this reproducer was emitted with. */\n"
	      "#define EMITTED_BUGS (", f);
	for (unsigned b = 0, any = 0; b < DFZ_BUG_COUNT; b++)
		if (bugs >> b & 1u)
			fprintf(f, "%sDFZ_BUG_BIT(%s)", any++ ? " | " : "",
				bug_ids[b]);
	fputs(bugs ? ")\n" : "0u)\n", f);
	fputs("/* The classes the run must end in with them (\"\": clean). */\n"
	      "#define EXPECTED ", f);
	c_string(f, expect);
	fputs("\n#define SOURCE ", f);
	c_string(f, cfg->name ? cfg->name : "plan");
	fputc('\n', f);
}

bool dfz_emit_dropin_supports(const struct dfz_plan *p, uint32_t bugs,
			      char *why, size_t n)
{
	struct dfz_plan norm;

	if (why && n)
		snprintf(why, n, "not an xfer plan");
	if (!p || p->family != DFZ_FAMILY_XFER)
		return false;
	norm = *p;
	if (dfz_plan_normalise(&norm) < 0) {
		if (why && n)
			snprintf(why, n, "not a valid plan");
		return false;
	}
	return dfz__emit_dropin_check(&norm.xfer, bugs, why, n) == 0;
}

int dfz_emit_c(const struct dfz_plan *p, const struct dfz_emit_config *cfg,
	       FILE *f)
{
	struct dfz_plan norm;
	char *plan = NULL;
	int rc;

	if (!p || !cfg || !f || p->family >= DFZ_FAMILY_COUNT ||
	    !is_valid_expect(cfg->expect) || cfg->bugs >> DFZ_BUG_COUNT)
		return DFZ_EINVAL;
	norm = *p;
	rc = dfz_plan_normalise(&norm);
	if (rc == 0)
		rc = plan_text(&norm, &plan);
	if (rc < 0) {
		free(plan);
		return rc;
	}
	if (cfg->dropin)
		rc = norm.family != DFZ_FAMILY_XFER ? DFZ_EINVAL :
		     dfz__emit_dropin_check(&norm.xfer, cfg->bugs, NULL, 0);
	if (rc < 0) {
		free(plan);
		return rc;
	}
	emit_header(f, cfg, cfg->bugs, plan);
	free(plan);
	if (cfg->dropin)
		return dfz__emit_dropin(f, &norm.xfer, cfg->bugs);
	fputs(frame_top, f);
	emit_constants(f, cfg, cfg->bugs);
	fputs(frame_common, f);
	if (norm.family == DFZ_FAMILY_XFER)
		dfz__emit_xfer(f, &norm.xfer, cfg->bugs);
	else if (dfz__emit_host(f, &norm) < 0)
		return DFZ_ENOMEM;
	fputs(frame_main, f);
	return ferror(f) ? DFZ_EIO : 0;
}
