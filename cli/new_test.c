// SPDX-License-Identifier: MIT
/*
 * The skeleton `dmafuzz new-test` writes: the known SDK headers with the
 * calls each brings (named in the TODO comments), the flavors, and the
 * text of test_NAME.c for each form (a DFZ_DROPIN_MAIN body, a body that
 * runs a kernel on the Snitch cluster, a PMSIS or Snitch program with
 * its own main). Every skeleton compiles at -Wall -Wextra -Werror and
 * runs clean as written (tests/check_new_test.c builds each).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "new_test.h"

static const struct new_test_header headers[] = {
	{ "pmsis.h", NEW_TEST_PMSIS,
	  "pi_l2_malloc / pi_l2_free and pi_cl_l1_malloc / pi_cl_l1_free "
	  "(buffers in L2 and L1), pi_cl_dma_cmd / pi_cl_dma_cmd_wait (the "
	  "cluster DMA), pi_cl_team_fork / pi_core_id (the 8 cores)", NULL },
	{ "bsp/ram.h", NEW_TEST_PMSIS,
	  "cl_ram_malloc / cl_ram_free (L3), dfz_dropin_l3_write (the input "
	  "in L3, as the loader puts it), pi_cl_ram_read / pi_cl_ram_read_wait, "
	  "pi_cl_ram_copy_2d", NULL },
	{ "bsp/bsp.h", NEW_TEST_PMSIS,
	  "pi_default_ram_conf_init / pi_open_from_conf / pi_ram_open (the "
	  "board's RAM device), pi_ram_alloc, pi_ram_read, pi_ram_write",
	  NULL },
	{ "mchan_v7.h", NEW_TEST_PMSIS,
	  "mchan_channel_alloc, mchan_transfer_1d / mchan_transfer_2d_*, "
	  "mchan_channel_wait, mchan_channel_free (Deeploy's PULPOpen MCHAN)",
	  NULL },
	{ "mchan_siracusa.h", NEW_TEST_PMSIS,
	  "mchan_channel_alloc, mchan_transfer_1d / mchan_transfer_2d_*, "
	  "mchan_channel_wait, mchan_channel_free (Siracusa's MCHAN)", NULL },
	{ "mchan.h", NEW_TEST_PMSIS,
	  "mchan_transfer_get_id, mchan_transfer_push_1d / _2d, "
	  "mchan_transfer_wait, mchan_transfer_free (GAP9's MCHAN)",
	  "#define MCHAN_VERSION 7 /* mchan.h's v7 command layout */" },
	{ "dory_dma.h", NEW_TEST_PMSIS,
	  "DMA_copy, dory_dma_allocate, dory_dma_memcpy_async / _1d / _2d / "
	  "_3d, dory_dma_barrier, dory_dma_free (DORY, Deeploy)", NULL },
	{ "at_api.h", NEW_TEST_PMSIS,
	  "the AutoTiler's AT_L2_ALLOC, AT_L2_COPY / AT_L2_COPY2D, AT_L2_WAIT, "
	  "AT_FORK (generated kernels)", NULL },
	{ "snrt.h", NEW_TEST_SNRT,
	  "snrt_l1alloc / snrt_l3alloc (TCDM, main memory), snrt_dma_start_1d "
	  "/ snrt_dma_start_2d, snrt_dma_wait / snrt_dma_wait_all, "
	  "snrt_is_dm_core, snrt_cluster_core_idx, snrt_cluster_hw_barrier",
	  NULL },
	{ NULL, 0, NULL, NULL },
};

static const char *const pmsis_hdrs[] = { "pmsis.h", "bsp/ram.h", NULL };
static const char *const snrt_hdrs[] = { "snrt.h", NULL };
static const char *const main_hdrs[] = { "pmsis.h", "bsp/bsp.h", NULL };
static const char *const no_hdrs[] = { NULL };

/* The last two are what headers without --flavor make. */
static const struct new_test_flavor flavors[] = {
	{ "pmsis", NEW_TEST_PMSIS, NEW_TEST_BODY, "dmafuzz-dropin", pmsis_hdrs },
	{ "snrt", NEW_TEST_SNRT, NEW_TEST_BODY, "dmafuzz-dropin", snrt_hdrs },
	{ "main", NEW_TEST_PMSIS, NEW_TEST_MAIN, "dmafuzz-dropin-main",
	  main_hdrs },
	{ "snrt-main", NEW_TEST_SNRT, NEW_TEST_SNRT_MAIN,
	  "dmafuzz-dropin-snrt-main", snrt_hdrs },
	{ "pmsis-body", NEW_TEST_PMSIS, NEW_TEST_BODY, "dmafuzz-dropin",
	  no_hdrs },
	{ "snrt-body", NEW_TEST_SNRT, NEW_TEST_BODY, "dmafuzz-dropin", no_hdrs },
};

const struct new_test_header *new_test_headers(void)
{
	return headers;
}

const struct new_test_header *new_test_header_find(const char *name)
{
	for (const struct new_test_header *h = headers; h->name; h++)
		if (!strcmp(h->name, name))
			return h;
	return NULL;
}

const struct new_test_flavor *new_test_flavor_find(const char *name)
{
	for (size_t i = 0; i < sizeof(flavors) / sizeof(flavors[0]); i++)
		if (!strcmp(flavors[i].name, name))
			return &flavors[i];
	return NULL;
}

static void head(FILE *f, const char *name, int form)
{
	fprintf(f,
		"/*\n"
		" * test_%s.c: a dmafuzz drop-in test, started by `dmafuzz "
		"new-test`.\n"
		" * One binary: `./test_%s` runs 200 schedules (the empty one "
		"first) and\n"
		" * exits 0 clean, 1 at a finding (its schedule saved), 2 on bad "
		"use;\n"
		" * `./test_%s FILE` replays a schedule (--json, --sarif F "
		"--srcroot D);\n"
		" * built with clang -fsanitize=fuzzer or afl-clang-fast it is a "
		"fuzz\n"
		" * target whose input bytes are the schedule.\n"
		" * Build and run: make -f dmafuzz-tests.mk check\n",
		name, name, name);
	if (form != NEW_TEST_BODY)
		fputs(" * The program's main is the test body, run once per "
		      "schedule; a\n * non-zero exit is a failed check.\n", f);
	fputs(" */\n", f);
}

static void includes(FILE *f, int form,
		     const struct new_test_header *const *hdr, size_t nhdr)
{
	for (size_t i = 0; i < nhdr; i++)
		if (hdr[i]->prelude)
			fprintf(f, "%s\n", hdr[i]->prelude);
	for (size_t i = 0; i < nhdr; i++)
		fprintf(f, "#include <%s>\n", hdr[i]->name);
	if (form == NEW_TEST_BODY)
		fputs("#include <dmafuzz/dropin.h>\n", f);
	fputc('\n', f);
}

/* " *   NAME: TEXT" in a comment, TEXT's words wrapped at 72 columns. */
static void wrapped(FILE *f, const char *name, const char *text)
{
	int col = fprintf(f, " *   %s:", name);

	while (*text) {
		size_t w = strcspn(text, " ");

		if (col + 1 + (int)w > 72)
			col = fprintf(f, "\n *     ");
		else
			col += fprintf(f, " ");
		col += fprintf(f, "%.*s", (int)w, text);
		text += w;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

/* The comment naming the user's code and each header's calls. */
static void calls(FILE *f, const char *name,
		  const struct new_test_header *const *hdr, size_t nhdr,
		  const char *const *src, size_t nsrc)
{
	fputs("/*\n * TODO: declare the functions of yours this test calls "
	      "(or include\n * their header). Their files go on the test's "
	      "line of dmafuzz.tests,\n", f);
	if (nsrc) {
		fprintf(f, " * which names test_%s.c and", name);
		for (size_t i = 0; i < nsrc; i++)
			fprintf(f, " %s", src[i]);
		fputs(".\n", f);
	} else {
		fprintf(f, " * after test_%s.c.\n", name);
	}
	fputs(" *\n * The calls of the headers, where yours go:\n", f);
	for (size_t i = 0; i < nhdr; i++)
		wrapped(f, hdr[i]->name, hdr[i]->calls);
	fputs(" */\n\n", f);
}

static const char body_pmsis[] =
	"/* The test body, run once per schedule. */\n"
	"static void body(void *arg)\n"
	"{\n"
	"\t(void)arg;\n"
	"\t/* TODO: the inputs: buffers in L2 and L1, the input in L3. */\n"
	"\t/* TODO: call your code. */\n"
	"\t/* TODO: check its output: a finding at this line when false. */\n"
	"\tDFZ_DROPIN_CHECK(1);\n"
	"}\n"
	"\n"
	"DFZ_DROPIN_MAIN(body, NULL)\n";

static const char body_snrt[] =
	"/* Run on each of the cluster's 9 cores (the DM core last). */\n"
	"static void kernel(void *arg)\n"
	"{\n"
	"\t(void)arg;\n"
	"\tif (snrt_is_dm_core()) {\n"
	"\t\t/* TODO: your DMA transfers and their waits. */\n"
	"\t}\n"
	"\tsnrt_cluster_hw_barrier();\n"
	"\t/* TODO: the compute cores' work. */\n"
	"}\n"
	"\n"
	"/* The test body, run once per schedule. */\n"
	"static void body(void *arg)\n"
	"{\n"
	"\t(void)arg;\n"
	"\t/* TODO: the inputs, in main memory (snrt_l3alloc). */\n"
	"\tdfz_snrt_spmd(kernel, NULL);\n"
	"\t/* TODO: check the output: a finding at this line when false. */\n"
	"\tDFZ_DROPIN_CHECK(1);\n"
	"}\n"
	"\n"
	"DFZ_DROPIN_MAIN(body, NULL)\n";

/* Their error counts are volatile statics: a program whose only statics
 * are read-only crashes the drop-in's restore of them (clang makes its
 * L2 segment read-only), and clang drops a static it sees never written. */
static const char main_pmsis[] =
	"static volatile int errors; /* the checks' count: pmsis_exit's status */\n"
	"\n"
	"static void test_entry(void)\n"
	"{\n"
	"\t/* TODO: bring the cluster up, send it your task, count the\n"
	"\t * errors of the result. */\n"
	"\tpmsis_exit(errors);\n"
	"}\n"
	"\n"
	"int main(void)\n"
	"{\n"
	"\treturn pmsis_kickoff((void *)test_entry);\n"
	"}\n";

static const char main_snrt[] =
	"static volatile unsigned errors; /* main's return, ORed over the cores */\n"
	"\n"
	"/* Run on each of the cluster's 9 cores. */\n"
	"int main(void)\n"
	"{\n"
	"\tif (snrt_is_dm_core()) {\n"
	"\t\t/* TODO: your DMA transfers and their waits. */\n"
	"\t}\n"
	"\tsnrt_cluster_hw_barrier();\n"
	"\t/* TODO: the compute cores' work; count the errors. */\n"
	"\treturn (int)errors;\n"
	"}\n";

int new_test_skeleton(const char *name, const struct new_test_flavor *fl,
		      const struct new_test_header *const *hdr, size_t nhdr,
		      const char *const *src, size_t nsrc, char **text,
		      size_t *n)
{
	FILE *f = open_memstream(text, n);

	if (!f)
		return -1;
	head(f, name, fl->form);
	includes(f, fl->form, hdr, nhdr);
	calls(f, name, hdr, nhdr, src, nsrc);
	if (fl->form == NEW_TEST_MAIN)
		fputs(main_pmsis, f);
	else if (fl->form == NEW_TEST_SNRT_MAIN)
		fputs(main_snrt, f);
	else
		fputs(fl->family == NEW_TEST_SNRT ? body_snrt : body_pmsis, f);
	if (ferror(f)) {
		fclose(f);
		free(*text);
		*text = NULL;
		return -1;
	}
	if (fclose(f) != 0) {
		free(*text);
		*text = NULL;
		return -1;
	}
	return 0;
}
