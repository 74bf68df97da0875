/* SPDX-License-Identifier: MIT */
/*
 * What `dmafuzz new-test` writes (cmd_new_test.c): the SDK headers it
 * knows and the calls each brings, the flavors (a header set and the
 * test's form), the test skeleton (new_test.c), and the texts of the
 * manifest's opening comment and the makefile fragment (new_test_mk.c).
 */
#ifndef DMAFUZZ_CLI_NEW_TEST_H
#define DMAFUZZ_CLI_NEW_TEST_H

#include <stddef.h>

/* The header families that share one program: PMSIS (pulp-sdk, GAP,
 * Deeploy's PULPOpen, DORY, the AutoTiler) and the Snitch runtime. */
enum new_test_family {
	NEW_TEST_PMSIS = 1,
	NEW_TEST_SNRT,
};

/* The test's form: a body under DFZ_DROPIN_MAIN, or a program with its
 * own main (PMSIS, or Snitch run on every core). */
enum new_test_form {
	NEW_TEST_BODY,
	NEW_TEST_MAIN,
	NEW_TEST_SNRT_MAIN,
};

struct new_test_header {
	const char *name;            /* as included: "bsp/ram.h" */
	int family;                  /* enum new_test_family */
	const char *calls;           /* its calls, for the TODO comments */
	const char *prelude;         /* a line it needs before it, or NULL */
};

struct new_test_flavor {
	const char *name;
	int family;                  /* enum new_test_family */
	int form;                    /* enum new_test_form */
	const char *pc;              /* the manifest's pkg-config module */
	const char *const *headers;  /* its headers, NULL-terminated */
};

/* The known headers, up to an entry whose name is NULL. */
const struct new_test_header *new_test_headers(void);
/* A header or flavor by name; NULL when unknown. */
const struct new_test_header *new_test_header_find(const char *name);
const struct new_test_flavor *new_test_flavor_find(const char *name);

/*
 * new_test_skeleton() - the text of test_@name.c for flavor @fl with the
 * @nhdr headers @hdr and the user's @nsrc sources @src (named in a
 * comment). @text: caller frees; @n its length. Return: 0, or -1 out of
 * memory.
 */
int new_test_skeleton(const char *name, const struct new_test_flavor *fl,
		      const struct new_test_header *const *hdr, size_t nhdr,
		      const char *const *src, size_t nsrc, char **text,
		      size_t *n);

/* The opening comment of a new dmafuzz.tests. */
extern const char new_test_manifest_head[];
/* dmafuzz-tests.mk, whole. */
extern const char new_test_mk[];

#endif /* DMAFUZZ_CLI_NEW_TEST_H */
