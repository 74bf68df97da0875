// SPDX-License-Identifier: MIT
/*
 * dmafuzz new-test: a new user's first test in one command. Given a test
 * name and the SDK headers (or a flavor: a set of them and the test's
 * form), it writes test_NAME.c, a drop-in test skeleton that compiles and
 * runs clean as written, with TODO comments naming the calls of each
 * header where the user's calls go; appends the test's line to the
 * dmafuzz.tests manifest (the format campaign and the CI templates read);
 * and writes dmafuzz-tests.mk (new_test_mk.c), the makefile fragment that
 * builds every manifest test plain, for libFuzzer and for AFL++ through
 * pkg-config, with check and fuzz targets. Nothing existing is
 * overwritten: every check runs before the first write.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "new_test.h"

#define CMD "new-test"
#define MAX_HEADERS 16
#define MAX_SOURCES 32
#define NAME_MAX_LEN 64

/* Exit statuses beyond cli.h's: a file or a manifest test of that name. */
enum { EXIT_EXISTS = 4 };

static const char usage[] =
	"usage: dmafuzz new-test [OPTIONS] NAME\n"
	"\n"
	"Start a drop-in test NAME ([A-Za-z0-9_-], up to 64) in DIR:\n"
	"  test_NAME.c         a test skeleton: the headers, a body (or a main)\n"
	"                      that compiles and runs clean as written, TODO\n"
	"                      comments naming each header's calls where yours go\n"
	"  dmafuzz.tests       its line 'NAME [pc=MODULE]: test_NAME.c [SOURCE...]'\n"
	"                      appended (the manifest made when missing)\n"
	"  dmafuzz-tests.mk    the makefile fragment, when missing (kept when\n"
	"                      there): every manifest test built plain, as a\n"
	"                      libFuzzer and as an AFL++ target through pkg-config;\n"
	"                      targets check, fuzz, dmafuzz-fuzz-afl,\n"
	"                      dmafuzz-campaign (see its opening comment)\n"
	"Then: make -f dmafuzz-tests.mk check   (PKG_CONFIG_PATH set to where\n"
	"dmafuzz's .pc files are, when not a standard place)\n"
	"\n"
	"options:\n"
	"  -H, --header H      include SDK header H (repeatable), one of\n"
	"                      --list-headers; headers of the PMSIS family and\n"
	"                      snrt.h do not mix\n"
	"  -f, --flavor F      a header set and the test's form:\n"
	"                        pmsis      pmsis.h bsp/ram.h, a test body\n"
	"                                   (DFZ_DROPIN_MAIN); the default\n"
	"                        snrt       snrt.h, a body running a kernel on\n"
	"                                   the 9 cores (dfz_snrt_spmd)\n"
	"                        main       pmsis.h bsp/bsp.h, a program with its\n"
	"                                   own main (pc=dmafuzz-dropin-main)\n"
	"                        snrt-main  snrt.h, a Snitch program with its own\n"
	"                                   main (pc=dmafuzz-dropin-snrt-main)\n"
	"                      --header adds to the flavor's headers\n"
	"  -s, --source FILE   a C file of yours the test links (repeatable; a\n"
	"                      path relative to DIR, which must exist)\n"
	"  -q, --quirks LIST   the test's quirks= (its runs' DFZ_QUIRKS)\n"
	"  -d, --dir DIR       where the files go (default: .)\n"
	"  -l, --list-headers  print the headers and their calls, and exit\n"
	"  -h, --help          this text\n"
	"\n"
	"exit: 0 written; 2 a bad argument (a bad name, an unknown header or\n"
	"flavor, a missing source, a bad manifest line, a folder that cannot\n"
	"be written); 3 a write failed (a full disk); 4 test_NAME.c exists or\n"
	"the manifest already has a test NAME (nothing is written then)\n";

struct opts {
	const char *name;
	const char *dir;
	const char *quirks;
	const struct new_test_flavor *flavor;
	const struct new_test_header *hdr[MAX_HEADERS];
	size_t nhdr;
	const char *src[MAX_SOURCES];
	size_t nsrc;
};

static int print_headers(void)
{
	for (const struct new_test_header *h = new_test_headers(); h->name; h++)
		printf("%-22s %s\n", h->name, h->calls);
	return EXIT_CLEAN;
}

static int add_header(struct opts *o, const char *name)
{
	const struct new_test_header *h = new_test_header_find(name);

	if (!h) {
		cli_error(CMD, "unknown header '%s' (try 'dmafuzz new-test "
			  "--list-headers')", name);
		return EXIT_BAD_INPUT;
	}
	for (size_t i = 0; i < o->nhdr; i++)
		if (o->hdr[i] == h)
			return EXIT_CLEAN;
	if (o->nhdr == MAX_HEADERS) {
		cli_error(CMD, "more than %d headers", MAX_HEADERS);
		return EXIT_BAD_INPUT;
	}
	o->hdr[o->nhdr++] = h;
	return EXIT_CLEAN;
}

/* Without --flavor: pmsis with no header named; with headers, a test
 * body with just those, of their family. The flavor's own headers come
 * first. */
static int pick_flavor(struct opts *o)
{
	const struct new_test_header *mine[MAX_HEADERS];
	size_t n = o->nhdr;
	int rc;

	if (!o->flavor)
		o->flavor = new_test_flavor_find(
			!n ? "pmsis" : o->hdr[0]->family == NEW_TEST_SNRT
				       ? "snrt-body" : "pmsis-body");
	memcpy(mine, o->hdr, n * sizeof(mine[0]));
	o->nhdr = 0;
	for (const char *const *h = o->flavor->headers; *h; h++)
		if ((rc = add_header(o, *h)) != EXIT_CLEAN)
			return rc;
	for (size_t i = 0; i < n; i++)
		if ((rc = add_header(o, mine[i]->name)) != EXIT_CLEAN)
			return rc;
	return EXIT_CLEAN;
}

/* Anything at @path, a dangling link included. */
static bool access_file(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > NAME_MAX_LEN)
		return false;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789_-") == n;
}

/* Quirk lists are words of letters, digits and "-=,": nothing that would
 * end the manifest's word or start a comment. */
static bool quirks_ok(const char *s)
{
	return *s && strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789-=,") ==
			     strlen(s);
}

/* The options, one flat switch; the headers resolved after the flavor. */
static int parse_args(int argc, char **argv, struct opts *o, bool *done)
{
	static const struct option lo[] = {
		{ "header", required_argument, NULL, 'H' },
		{ "flavor", required_argument, NULL, 'f' },
		{ "source", required_argument, NULL, 's' },
		{ "quirks", required_argument, NULL, 'q' },
		{ "dir", required_argument, NULL, 'd' },
		{ "list-headers", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *headers[MAX_HEADERS + 1];
	size_t nh = 0;
	int c, rc;

	optind = 1;
	while ((c = cli_getopt(CMD, argc, argv, "H:f:s:q:d:lh", lo)) != -1) {
		switch (c) {
		case 'H':
			if (nh == MAX_HEADERS + 1) {
				cli_error(CMD, "more than %d headers", MAX_HEADERS);
				return EXIT_BAD_INPUT;
			}
			headers[nh++] = optarg;
			break;
		case 'f':
			o->flavor = new_test_flavor_find(optarg);
			if (!o->flavor) {
				cli_error(CMD, "unknown flavor '%s' (pmsis, snrt, "
					  "main, snrt-main)", optarg);
				return EXIT_BAD_INPUT;
			}
			break;
		case 's':
			if (o->nsrc == MAX_SOURCES) {
				cli_error(CMD, "more than %d sources", MAX_SOURCES);
				return EXIT_BAD_INPUT;
			}
			o->src[o->nsrc++] = optarg;
			break;
		case 'q':
			o->quirks = optarg;
			break;
		case 'd':
			o->dir = optarg;
			break;
		case 'l':
			*done = true;
			return print_headers();
		case 'h':
			*done = true;
			fputs(usage, stdout);
			return EXIT_CLEAN;
		default:
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		cli_error(CMD, "%s (try 'dmafuzz new-test --help')",
			  optind < argc ? "one test name, not several"
					: "a test name is needed");
		return EXIT_BAD_INPUT;
	}
	o->name = argv[optind];
	for (size_t i = 0; i < nh; i++)
		if ((rc = add_header(o, headers[i])) != EXIT_CLEAN)
			return rc;
	return pick_flavor(o);
}

/* The arguments against each other and the file system, before any
 * write. */
static int check_args(const struct opts *o)
{
	struct stat st;
	int fam = 0;

	if (!name_ok(o->name)) {
		cli_error(CMD, "bad test name '%s' (letters, digits, '_' and "
			  "'-', up to %d)", o->name, NAME_MAX_LEN);
		return EXIT_BAD_INPUT;
	}
	if (o->quirks && !quirks_ok(o->quirks)) {
		cli_error(CMD, "bad quirk list '%s' (see a test's --help)",
			  o->quirks);
		return EXIT_BAD_INPUT;
	}
	for (size_t i = 0; i < o->nhdr; i++) {
		if (fam && o->hdr[i]->family != fam) {
			cli_error(CMD, "snrt.h does not mix with the PMSIS "
				  "family's headers (%s)", o->hdr[i]->name);
			return EXIT_BAD_INPUT;
		}
		fam = o->hdr[i]->family;
	}
	if (fam != o->flavor->family) {
		cli_error(CMD, "flavor %s does not take the headers of the "
			  "%s family", o->flavor->name,
			  fam == NEW_TEST_SNRT ? "Snitch" : "PMSIS");
		return EXIT_BAD_INPUT;
	}
	if (stat(o->dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		cli_error(CMD, "no folder '%s'", o->dir);
		return EXIT_BAD_INPUT;
	}
	return EXIT_CLEAN;
}

/* Each --source is a file under DIR, named so that the manifest keeps it
 * as one word. */
static int check_sources(const struct opts *o)
{
	char path[4096];
	struct stat st;

	for (size_t i = 0; i < o->nsrc; i++) {
		const char *s = o->src[i];

		if (!*s || strpbrk(s, " \t#:") || !strcmp(s, "--")) {
			cli_error(CMD, "bad source name '%s' (no blanks, '#' or "
				  "':')", s);
			return EXIT_BAD_INPUT;
		}
		snprintf(path, sizeof(path), "%s/%s", o->dir, s);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			cli_error(CMD, "no source file '%s'", path);
			return EXIT_BAD_INPUT;
		}
	}
	return EXIT_CLEAN;
}

/* The test name of a manifest line, NULL for a blank or comment line;
 * @line is cut after it. */
static const char *line_name(char *line)
{
	char *h = strchr(line, '#');

	if (h)
		*h = '\0';
	line += strspn(line, " \t\r");
	if (!*line)
		return NULL;
	line[strcspn(line, " \t\r:")] = '\0';
	return line;
}

/* @mf's text (@n bytes): does it already have a test @name? A line
 * without a name and a colon is a bad manifest. */
static int manifest_has(const char *mf, char *text, const char *name)
{
	unsigned no = 0;

	for (char *line = text, *next; line; line = next) {
		const char *got;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		no++;
		bool colon = strchr(line, ':') &&
			     (!strchr(line, '#') ||
			      strchr(line, ':') < strchr(line, '#'));
		got = line_name(line);
		if (!got)
			continue;
		if (!colon) {
			cli_error(CMD, "%s:%u: not 'NAME [pc=MODULE] "
				  "[quirks=LIST]: FILE.c...'", mf, no);
			return EXIT_BAD_INPUT;
		}
		if (!strcmp(got, name)) {
			cli_error(CMD, "%s:%u: a test '%s' exists already", mf,
				  no, name);
			return EXIT_EXISTS;
		}
	}
	return EXIT_CLEAN;
}

/* The manifest's state: missing (@exists false), or read and checked for
 * @name; @nl_end: its text ends with a newline (or is empty). */
static int scan_manifest(const char *mf, const char *name, bool *exists,
			 bool *nl_end)
{
	uint8_t *buf;
	size_t n;
	int rc;

	*exists = access_file(mf);
	*nl_end = true;
	if (!*exists)
		return EXIT_CLEAN;
	rc = cli_read_file(CMD, mf, &buf, &n);
	if (rc != EXIT_CLEAN)
		return rc;
	*nl_end = n == 0 || buf[n - 1] == '\n';
	rc = manifest_has(mf, (char *)buf, name);
	free(buf);
	return rc;
}

/* An open that failed with @e: the folder's fault (no permission, a
 * read-only file system, a path through a file) is the input's; the rest
 * (a full disk, no memory) the harness's. */
static int open_failed(int e)
{
	return e == EACCES || e == EROFS || e == ENOENT || e == ENOTDIR ||
			       e == EISDIR
		       ? EXIT_BAD_INPUT
		       : EXIT_INTERNAL;
}

/* @n bytes of @text into the new file @path ("wx": never over one). */
static int write_new(const char *path, const char *text, size_t n)
{
	FILE *f = fopen(path, "wx");

	if (!f) {
		int e = errno;

		cli_error(CMD, "cannot create '%s': %s", path, strerror(e));
		return e == EEXIST ? EXIT_EXISTS : open_failed(e);
	}
	if (fwrite(text, 1, n, f) != n || fclose(f) != 0) {
		cli_error(CMD, "cannot write '%s': %s", path, strerror(errno));
		return EXIT_INTERNAL;
	}
	return EXIT_CLEAN;
}

/* The test's line, after the manifest's opening comment when it is new. */
static int append_line(const char *mf, const struct opts *o, bool exists,
		       bool nl_end)
{
	FILE *f = fopen(mf, "a");
	int bad;

	if (!f) {
		int e = errno;

		cli_error(CMD, "cannot open '%s': %s", mf, strerror(e));
		return open_failed(e);
	}
	if (!exists)
		fputs(new_test_manifest_head, f);
	fprintf(f, "%s%s", nl_end ? "" : "\n", o->name);
	if (strcmp(o->flavor->pc, "dmafuzz-dropin"))
		fprintf(f, " pc=%s", o->flavor->pc);
	if (o->quirks)
		fprintf(f, " quirks=%s", o->quirks);
	fprintf(f, ": test_%s.c", o->name);
	for (size_t i = 0; i < o->nsrc; i++)
		fprintf(f, " %s", o->src[i]);
	fputc('\n', f);
	bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		cli_error(CMD, "cannot write '%s': %s", mf, strerror(errno));
		return EXIT_INTERNAL;
	}
	return EXIT_CLEAN;
}

static int write_all(const struct opts *o)
{
	char test[4096], mf[4096], mk[4096];
	bool exists, nl_end;
	char *text = NULL;
	size_t n = 0;
	int rc;

	snprintf(test, sizeof(test), "%s/test_%s.c", o->dir, o->name);
	snprintf(mf, sizeof(mf), "%s/dmafuzz.tests", o->dir);
	snprintf(mk, sizeof(mk), "%s/dmafuzz-tests.mk", o->dir);
	if (access_file(test)) {
		cli_error(CMD, "'%s' exists: nothing written", test);
		return EXIT_EXISTS;
	}
	rc = scan_manifest(mf, o->name, &exists, &nl_end);
	if (rc != EXIT_CLEAN)
		return rc;
	if (new_test_skeleton(o->name, o->flavor, o->hdr, o->nhdr, o->src,
			      o->nsrc, &text, &n) < 0) {
		cli_error(CMD, "out of memory");
		return EXIT_INTERNAL;
	}
	rc = write_new(test, text, n);
	free(text);
	if (rc == EXIT_CLEAN)
		rc = append_line(mf, o, exists, nl_end);
	if (rc != EXIT_CLEAN)
		return rc;
	printf("wrote %s\n%s %s\n", test, exists ? "added to" : "wrote", mf);
	if (access_file(mk)) {
		printf("kept %s\n", mk);
	} else {
		rc = write_new(mk, new_test_mk, strlen(new_test_mk));
		if (rc != EXIT_CLEAN)
			return rc;
		printf("wrote %s\n", mk);
	}
	if (strcmp(o->dir, "."))
		printf("next: make -C %s -f dmafuzz-tests.mk check\n", o->dir);
	else
		printf("next: make -f dmafuzz-tests.mk check\n");
	return EXIT_CLEAN;
}

int cli_new_test(int argc, char **argv)
{
	struct opts o = { .dir = "." };
	bool done = false;
	int rc = parse_args(argc, argv, &o, &done);

	if (rc != EXIT_CLEAN || done)
		return rc;
	rc = check_args(&o);
	if (rc == EXIT_CLEAN)
		rc = check_sources(&o);
	if (rc == EXIT_CLEAN)
		rc = write_all(&o);
	return rc;
}
