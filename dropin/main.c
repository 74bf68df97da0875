// SPDX-License-Identifier: MIT
/*
 * The test binary's three uses (DROPIN 1): bare runs of N schedules, the
 * replay of schedule files, and one fuzz execution. Bad use of the binary
 * is one line on stderr and exit status 2; a finding is exit status 1.
 * Bare runs and replays are guarded (crash.c): a signal in the body or a
 * body past --timeout is a finding, and a bare run writes each schedule
 * before it runs it, so that even a death no handler can catch leaves
 * the schedule that replays it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crash.h"
#include "dropin_int.h"
#include "golden.h"

#define MAX_SCHEDULE (1u << 20)
#define EXIT_FINDING 1
#define EXIT_USAGE 2

struct opts {
	unsigned long runs;
	unsigned long long seed;
	unsigned timeout;
	bool json;
	bool leaks;
	const char *sarif;
	const char *srcroot;
	const char *save;
	const char *quirks;
	int nfiles;
	char **files;
};

static const char usage[] =
	"usage: %s [options] [SCHEDULE...]\n"
	"Runs the test body under the dmafuzz engines and oracles.\n"
	"  no SCHEDULE      try --runs schedules (the empty one first); at the\n"
	"                   first finding print it, save its schedule, exit 1\n"
	"  SCHEDULE...      replay each schedule file and print its verdict\n"
	"  -n, --runs N     schedules of a bare run (default 200)\n"
	"  -s, --seed S     seed of the bare run's schedules (default 1)\n"
	"  -o, --save FILE  each schedule of a bare run, written before it\n"
	"                   runs: kept at a finding (also one that kills the\n"
	"                   process), removed when all ran clean (default\n"
	"                   dropin-finding.bin)\n"
	"      --json       one JSON object per verdict\n"
	"      --sarif FILE also write the first finding as SARIF 2.1.0\n"
	"      --srcroot DIR  SARIF locations are relative to DIR (default .)\n"
	"  -q, --quirks LIST  quirk settings, over DFZ_QUIRKS (below)\n"
	"      --leaks      a block an SDK allocator handed out and the body\n"
	"                   still holds at its end is a finding (mem.leak) at\n"
	"                   the line that allocated it (default $DFZ_LEAKS,\n"
	"                   else off)\n"
	"  -t, --timeout S  seconds of CPU time one run may take before it is\n"
	"                   a finding (dma.hang) at the line where the body\n"
	"                   spins (default $DFZ_TIMEOUT, else 10; 0: none)\n"
	"  -h, --help       this text\n"
	"A signal in the body (SIGSEGV, SIGBUS, SIGFPE, SIGILL, abort) is a\n"
	"finding (crash) at the user's line, symbolized with addr2line.\n"
	"Exit status: 0 clean, 1 a finding, 2 bad use.\n"
	"Built with -fsanitize=fuzzer or afl-clang-fast, the same file is a\n"
	"fuzz target whose input bytes are the schedule.\n";

static int bad_use(const char *prog, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", prog);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see --help)\n");
	return EXIT_USAGE;
}

static bool parse_num(const char *s, unsigned long long *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno == 0 && *end == 0;
}

/* The value of option @argv[*i]: the next argument. */
static const char *value(int argc, char **argv, int *i)
{
	return *i + 1 < argc ? argv[++*i] : NULL;
}

static int parse_opt(struct opts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	unsigned long long n;

	if (!strcmp(a, "--json")) {
		o->json = true;
	} else if (!strcmp(a, "--leaks")) {
		o->leaks = true;
	} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		printf(usage, argv[0]);
		dfz__quirks_help(stdout);
		exit(0);
	} else if (!strcmp(a, "-n") || !strcmp(a, "--runs")) {
		if (!parse_num(v = value(argc, argv, i), &n) || n == 0)
			return bad_use(argv[0], "--runs wants a count above 0, "
				       "not '%s'", v ? v : "");
		o->runs = (unsigned long)n;
	} else if (!strcmp(a, "-s") || !strcmp(a, "--seed")) {
		if (!parse_num(v = value(argc, argv, i), &o->seed))
			return bad_use(argv[0], "--seed wants a number, not '%s'",
				       v ? v : "");
	} else if (!strcmp(a, "-t") || !strcmp(a, "--timeout")) {
		if (!parse_num(v = value(argc, argv, i), &n) || n > 86400)
			return bad_use(argv[0], "--timeout wants seconds (0 to "
				       "86400), not '%s'", v ? v : "");
		o->timeout = (unsigned)n;
	} else if (!strcmp(a, "-q") || !strcmp(a, "--quirks")) {
		if (!(o->quirks = value(argc, argv, i)))
			return bad_use(argv[0], "%s wants a list of quirks", a);
	} else if (!strcmp(a, "-o") || !strcmp(a, "--save") ||
		   !strcmp(a, "--sarif") || !strcmp(a, "--srcroot")) {
		if (!(v = value(argc, argv, i)))
			return bad_use(argv[0], "%s wants a path", a);
		*(!strcmp(a, "--sarif") ? &o->sarif :
		  !strcmp(a, "--srcroot") ? &o->srcroot : &o->save) = v;
	} else {
		return bad_use(argv[0], "unknown option '%s'", a);
	}
	return 0;
}

/* The default time limit: $DFZ_TIMEOUT when it is a number of seconds. */
static unsigned default_timeout(void)
{
	unsigned long long n;

	if (parse_num(getenv("DFZ_TIMEOUT"), &n) && n <= 86400)
		return (unsigned)n;
	return DFZ__CRASH_TIMEOUT;
}

static int parse(struct opts *o, int argc, char **argv)
{
	*o = (struct opts){ .runs = 200, .seed = 1, .srcroot = ".",
			    .timeout = default_timeout(),
			    .save = "dropin-finding.bin" };
	o->files = calloc((size_t)argc, sizeof(*o->files));
	if (!o->files)
		return bad_use(argv[0], "%s", "out of memory");
	for (int i = 1; i < argc; i++) {
		int rc;

		if (argv[i][0] != '-' || !argv[i][1]) {
			o->files[o->nfiles++] = argv[i];
			continue;
		}
		rc = parse_opt(o, argc, argv, &i);
		if (rc)
			return rc;
	}
	return 0;
}

/* ------------------------------------------------------------ schedules */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Schedule @run of a bare run: empty for run 0, then random bytes. */
static size_t make_schedule(uint64_t seed, unsigned long run, uint8_t *buf)
{
	uint64_t s = seed * 0x100000001b3ull + run;
	size_t n = run ? 8 + (size_t)(splitmix(&s) % 249) : 0;

	for (size_t i = 0; i < n; i++)
		buf[i] = (uint8_t)splitmix(&s);
	return n;
}

/* Schedule @buf in @fd (the --save file), replacing what it held. */
static int save(int fd, const uint8_t *buf, size_t n)
{
	if (pwrite(fd, buf, n, 0) != (ssize_t)n || ftruncate(fd, (off_t)n) < 0)
		return -1;
	return 0;
}

/* The finding's schedule, when it could not be written before the run. */
static int save_path(const char *path, const uint8_t *buf, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int rc = fd < 0 ? -1 : save(fd, buf, n);

	if (fd >= 0 && close(fd) < 0)
		rc = -1;
	return rc;
}

static int report(const struct opts *o, const struct dfz__result *r,
		  const char *name, const char *prog)
{
	FILE *f;

	dfz__dropin_print(r, name, o->json, stdout);
	if (!o->json)
		dfz__crash_print(stdout);
	if (!o->sarif || r->finding.cls == DFZ_CLASS_NONE)
		return 0;
	f = fopen(o->sarif, "w");
	if (!f || dfz__dropin_sarif(r, o->srcroot, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, o->sarif,
			strerror(errno));
		return EXIT_USAGE;
	}
	return 0;
}

static int cannot_write(const char *prog, const char *path)
{
	fprintf(stderr, "%s: cannot write %s: %s\n", prog, path,
		strerror(errno));
	return EXIT_USAGE;
}

/* The first finding of the bare run: its schedule is in the file. */
static int found(const struct opts *o, const struct dfz__result *r,
		 unsigned long run, const char *prog)
{
	char name[64];

	snprintf(name, sizeof(name), "schedule %lu of seed %llu", run,
		 o->seed);
	if (!o->json)
		printf("SCHEDULE: %s (replay: %s %s)\n", o->save, prog,
		       o->save);
	if (report(o, r, name, prog))
		return EXIT_USAGE;
	return EXIT_FINDING;
}

static int bare(const struct dfz_dropin_test *t, const struct opts *o,
		const char *prog)
{
	static uint8_t buf[256];
	struct dfz__result r;
	/* Where the file cannot be written, a clean run still runs (as it
	 * did before schedules were written first); a finding cannot. */
	int fd = open(o->save, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	dfz__crash_schedule(fd < 0 ? NULL : o->save);
	for (unsigned long run = 0; run < o->runs; run++) {
		size_t n = make_schedule(o->seed, run, buf);

		dfz__crash_pending(fd, buf, n);
		dfz__dropin_run(t, buf, n, &r);
		if (r.finding.cls == DFZ_CLASS_NONE)
			continue;
		dfz__crash_pending(-1, NULL, 0);
		if (fd >= 0 ? save(fd, buf, n) < 0 || close(fd) < 0 :
			      save_path(o->save, buf, n) < 0)
			return cannot_write(prog, o->save);
		return found(o, &r, run, prog);
	}
	dfz__crash_pending(-1, NULL, 0);
	if (fd >= 0) {
		close(fd);
		unlink(o->save);    /* no finding: no schedule to replay */
	}
	dfz__crash_schedule(NULL);
	if (o->json)
		printf("{\"verdict\":\"clean\",\"runs\":%lu}\n", o->runs);
	else
		printf("VERDICT: clean (%lu schedules, seed %llu)\n", o->runs,
		       o->seed);
	return 0;
}

/* The whole of file @path, at most MAX_SCHEDULE bytes. */
static uint8_t *load(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = f ? malloc(MAX_SCHEDULE + 1) : NULL;

	if (!buf) {
		if (f)
			fclose(f);
		return NULL;
	}
	*n = fread(buf, 1, MAX_SCHEDULE + 1, f);
	if (ferror(f) || *n > MAX_SCHEDULE) {
		errno = ferror(f) ? errno : EFBIG;
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	return buf;
}

static int replay(const struct dfz_dropin_test *t, const struct opts *o,
		  const char *prog)
{
	int status = 0;

	for (int i = 0; i < o->nfiles; i++) {
		struct dfz__result r;
		size_t n;
		uint8_t *buf = load(o->files[i], &n);

		if (!buf) {
			fprintf(stderr, "%s: cannot read %s: %s\n", prog,
				o->files[i], strerror(errno));
			return EXIT_USAGE;
		}
		dfz__crash_schedule(o->files[i]);
		dfz__dropin_run(t, buf, n, &r);
		free(buf);
		if (report(o, &r, o->files[i], prog))
			return EXIT_USAGE;
		if (r.finding.cls != DFZ_CLASS_NONE)
			status = EXIT_FINDING;
		if (dfz__crash_escaped() && i + 1 < o->nfiles) {
			/* The body left the process in a state no later run
			 * can trust. */
			fprintf(stderr, "%s: the body escaped (%s): the "
				"schedules after %s are not replayed\n", prog,
				r.finding.oracle, o->files[i]);
			break;
		}
	}
	return status;
}

int dfz_dropin_main(const struct dfz_dropin_test *t, int argc, char **argv)
{
	const char *prog = argc > 0 ? argv[0] : "dropin";
	struct opts o;
	int rc = parse(&o, argc, argv);

	if (rc == 0) {
		dfz__dropin_get();
		if (o.quirks && dfz_dropin_quirks(o.quirks) < 0)
			rc = EXIT_USAGE;
		if (o.leaks)
			dfz_dropin_leaks(1);
	}
	if (rc == 0 && dfz__crash_install(o.timeout) < 0) {
		fprintf(stderr, "%s: cannot guard the body: %s\n", prog,
			dfz_strerror(DFZ_ENOMEM));
		rc = EXIT_USAGE;
	}
	if (rc == 0) {
		rc = o.nfiles ? replay(t, &o, prog) : bare(t, &o, prog);
	}
	free(o.files);
	return rc;
}

void dfz_dropin_fuzz_init(const struct dfz_dropin_test *t)
{
	struct dfz__dropin *d = dfz__dropin_get();

	d->fuzzing = true;
	/* The ideal run now, before the fuzzer forks or loops: else it is
	 * every forked child's first run, whose coverage (the body's, the
	 * SDK's) no later run of the same schedule repeats. */
	if (t)
		dfz__golden_begin(d, t);
}

int dfz_dropin_fuzz_one(const struct dfz_dropin_test *t, const uint8_t *data,
			size_t n)
{
	struct dfz__result r;

	dfz__dropin_get()->fuzzing = true;
	dfz__dropin_run(t, data, n, &r);
	return 0;
}
