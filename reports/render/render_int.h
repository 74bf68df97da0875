/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces of the report generator (`dmafuzz report`): the
 * campaign and triage models its readers fill, the writers of its four
 * outputs, the JSON writer and the SVG charts they share.
 */
#ifndef DMAFUZZ_REPORT_GEN_INT_H
#define DMAFUZZ_REPORT_GEN_INT_H

#include <stdio.h>

#include "dmafuzz/report.h"
#include "common_int.h"
#include "json_int.h"

/* ------------------------------------------------------------ text */

/**
 * dfz__path() - snprintf() into @buf for a path or a message that must not
 * be cut. Return: false when it did not fit (@buf then holds a cut text).
 */
bool dfz__path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ------------------------------------------------------------ campaign */


/* One plot_data row per index: the metrics the plots draw. */
struct dfz__series {
	double *t;                        /* seconds since the start */
	double *edges;                    /* edges_found (-1: no such column) */
	double *map;                      /* map_size, in % */
	double *eps;                      /* execs_per_sec */
	double *finds;                    /* saved_crashes + saved_hangs */
	size_t n;
	size_t cap;
};

/* A fuzzer_stats value never seen is -1. */
struct dfz__inst {
	char *name;                       /* its dir, relative to the campaign */
	char test[72];                    /* a drop-in campaign's test (its dir
					   * afl/<test>/<instance>), or "" */
	unsigned target;                  /* index in dfz__target_names() */
	char afl_version[32];
	char schedule[16];                /* its -p (command_line), or "" */
	bool cmplog;                      /* run with -c (command_line) */
	double run_time;
	double execs_done;
	double execs_per_sec;             /* execs_done / run_time, whole;
					   * -1 under a second (never
					   * afl-fuzz's own: "inf" then) */
	double corpus_count;
	double saved_crashes;
	double saved_hangs;
	double edges_found;
	double total_edges;
	double bitmap_cvg;                /* percent */
	double stability;                 /* percent */
 double cycles_done;
	bool has_edges;                   /* plot_data has edges_found */
	/* Findings and corpus over time from the crash, hang and queue file
	 * names ("time:MS"): step lines, more precise than plot_data's rows
	 * (which AFL++ writes about once a minute without its UI). */
	double *find_t;
	double *find_n;
	size_t nfind;                     /* points; 0: use plot_data */
	double *corpus_t;
	double *corpus_n;
	size_t ncorpus;                   /* points; 0: none */
	/* When plot_data has fewer than two rows (a run under a minute):
	 * edges over time from coverage_data, execs/s from the file names
	 * (report_series.c). */
	double *cov_t;
	double *cov_n;
	size_t ncov;                      /* points; 0: none */
	double *rate_t;
	double *rate_v;
	size_t nrate;                     /* points; 0: none */
	bool has_plot;                    /* a plot_data file was read */
	char plot_note[160];              /* why not, or what was skipped */
	struct dfz__series s;
};

/* A triage bucket: strings borrowed from the parsed triage.json, the
 * files it names read whole (owned; NULL when absent). */
struct dfz__bucket {
	const char *id;
	const char *signature;
	const char *cls;
	const char *oracle;
	const char *level;                /* NULL: no level */
	const char *target;
	const char *bugs;
	const char *message;
	const char *reproducer;
	const char *plan;                 /* NULL: none (an external
					   * program's input) */
	const char *c;                    /* NULL: no emitted C */
	const struct dfz_json *replay;    /* array of { command, file }: the
					   * command lines that replay it,
					   * the first the one to use; NULL:
					   * not said (an older triage) */
	double count;
	double distinct;                  /* inputs that repeat no other; -1:
					   * not said (an older triage.json) */
	const struct dfz_json *inputs;    /* array of strings */
	const struct dfz_json *min;       /* object, or NULL */
	const struct dfz_json *signal;    /* object, or NULL */
	char *plan_text;
	char *c_text;
	char *verdict_text;
	char *disasm_text;
	/* A drop-in triage's bucket (test non-NULL); NULL: not one. */
	const char *test;
	const char *key;
	const struct dfz_json *site;      /* { file, line, function }, or NULL */
	const struct dfz_json *prior;     /* the same, or NULL */
	bool fixed;                       /* status "fixed" */
	bool regressed;
	const struct dfz_json *fixed_in;  /* array of strings, or NULL */
	const struct dfz_json *valgrind;  /* { verdict, detail }, or NULL */
	const struct dfz_json *asan;      /* the same, or NULL */
};

struct dfz__triage {
	struct dfz_json *root;
	char *path;                       /* triage.json as found */
	char *base;                       /* its dir: bucket paths hang off it */
	char *base_abs;                   /* realpath of @base, or NULL */
	const char *campaign;
	double inputs;
	double distinct;                  /* -1: not said (an older triage) */
	const struct dfz_json *same_as;   /* object: copy -> the input it
					   * repeats, or NULL */
	struct dfz__bucket *b;
	size_t nb;
	const struct dfz_json *malformed; /* array of {input, reason} */
	const struct dfz_json *clean;     /* array of strings */
	const char *srcroot;              /* a drop-in triage's, or NULL */
	size_t ndropin;                   /* drop-in buckets */
	size_t nopen;                     /* of them, open */
};

/* ------------------------------------------------------------ run record */

/* What a replayed finding of a campaign script turned out to be. */
enum dfz__kind {
	DFZ__KIND_CRASH,                  /* every class of a crash file */
	DFZ__KIND_HANG,                   /* a hang that reproduces */
	DFZ__KIND_SLOW,                   /* a hang that ends: not counted */
	DFZ__KINDS,
};

/* One line "CLASS<TAB>FILE" of a target's class list. */
struct dfz__finding {
	char *file;                       /* as listed (owned) */
	char *cls;                        /* owned */
	unsigned kind;                    /* enum dfz__kind */
	bool seed;                        /* named seed-*: an input, not
					   * found by afl-fuzz */
	double bytes;                     /* -1: the file is gone */
	bool has_plan;                    /* FILE.plan exists */
};

struct dfz__run_target {
	char name[16];
	int target;                       /* index in dfz__target_names() */
	struct dfz__finding *f;           /* sorted by class, then size */
	size_t nf;
	unsigned count[DFZ__KINDS];
};

/*
 * struct dfz__run - the record a campaign script (tools/fuzz.sh,
 * tools/nightly.sh) leaves in the campaign dir, campaign.txt: "key :
 * value" lines (what it ran, with which switches, what could not run),
 * and the files it names: each target's class list (WORK/<target>.classes,
 * from the replay of every finding) and the seed build's findings.txt.
 */
struct dfz__run {
	char *text;                       /* the record; keys and values
					   * point into it */
	const char *key[64];
	const char *val[64];
	size_t n;
	struct dfz__run_target t[16];
	size_t nt;
	char **seeds;                     /* findings.txt lines, owned */
	size_t nseeds;
	unsigned found;                   /* findings that count (not slow) */
};

#define DFZ__RUN_FILE "campaign.txt"

/* dfz__run_get() - the value of @key in @r, or NULL. */
const char *dfz__run_get(const struct dfz__run *r, const char *key);

/* dfz__run_num() - the value of @key as a number, or -1. */
double dfz__run_num(const struct dfz__run *r, const char *key);

/* dfz__run_path() - @path (as the record names it: relative to the
 * record's cwd) for open(). Return: @buf. */
char *dfz__run_path(const struct dfz__run *r, const char *path, char *buf,
		    size_t len);

/* dfz__seed_split() - a findings.txt line "SEED<TAB>PLAN<TAB>WHAT" into
 * @buf (@len bytes: the seed), *@plan and *@what (NULL when absent). */
void dfz__seed_split(const char *line, char *buf, size_t len,
		     const char **plan, const char **what);

struct dfz__campaign;

/*
 * dfz__run_read() - @c->dir/campaign.txt into @c->run (none: @c->has_run
 * stays false), with the class lists and seed findings it names.
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz__run_read(struct dfz__campaign *c);

void dfz__run_fini(struct dfz__run *r);

struct dfz__campaign {
	const char *dir;                  /* as given */
	const char *version;
	const char *generated;            /* NULL: no stamp */
	struct dfz__inst *inst;           /* sorted by name */
	size_t ninst;
	bool has_triage;
	char triage_note[512];            /* why there is none */
	struct dfz__triage tr;
	bool has_run;                     /* a campaign script's record */
	struct dfz__run run;
	char *out_abs;                    /* the output dir, absolute */
	const char *srcroot;              /* the user's sources (drop-in) */
	char *srcroot_abs;                /* its realpath, or NULL */
	struct dfz__progress progress;    /* on a terminal */
};

/*
 * struct dfz__run_info - what the campaign script's record says of its
 * run (strings borrowed from the campaign; "?" when not recorded).
 * @script: "fuzz (tools/fuzz.sh)" or "nightly (tools/nightly.sh)".
 * @night, @run: nightly only: the night's name (NULL: none) and the
 *	run's number (1 fresh, more resumed).
 * @seconds: of fuzzing (per target for fuzz.sh); @jobs: instances per
 *	target (nightly).
 * @bugs: the bug switches; NULL when every switch was off.
 * @found: findings; @failed: campaigns or instances that did not run,
 *	their logs in @work.
 */
struct dfz__run_info {
	bool nightly;
	bool campaign;                    /* dmafuzz campaign: the user's tests */
	const char *share;                /* campaign: seconds a test and engine */
	const char *script;
	const char *night;
	double run;
	const char *started;
	const char *seconds;
	const char *jobs;
	const char *afl_version;
	const char *seed;
	const char *bugs;
	bool interrupted;
	unsigned found;
	double failed;
	const char *work;
};

/** dfz__run_info_of() - @c's run record (c->has_run) read into @ri. */
void dfz__run_info_of(const struct dfz__campaign *c, struct dfz__run_info *ri);

/* Totals of the instances of one target (or of all: target -1). */
struct dfz__totals {
	size_t ninst;
	double run_time;                  /* the longest */
	double execs_done;
	double execs_per_sec;             /* the sum of those known; -1:
					   * none is */
	double corpus_count;              /* the largest (synced instances
					   * share their entries) */
	double edges_found;               /* the most of one instance */
	double saved_crashes;
	double saved_hangs;
};

void dfz__totals_of(const struct dfz__campaign *c, int target,
		    struct dfz__totals *t);

/* The statistics of one instance as totals (unknown ones stay -1). */
void dfz__totals_one(const struct dfz__inst *in, struct dfz__totals *t);

/*
 * dfz__campaign_read() - every AFL++ instance under @c->dir into @c.
 * Return: 0, DFZ_ENOENT (no such dir), DFZ_EINVAL, DFZ_ENOMEM (@err says).
 */
int dfz__campaign_read(struct dfz__campaign *c, char *err, size_t errlen);

/*
 * dfz__triage_read() - @path (the triage.json) into @c->tr, validated
 * against the contract, with the bucket files it names.
 * Return: 0, DFZ_ENOENT (@path missing), DFZ_EINVAL (not the contract),
 * DFZ_ENOMEM; @err says.
 */
int dfz__triage_read(struct dfz__campaign *c, const char *path, char *err,
		     size_t errlen);

void dfz__campaign_fini(struct dfz__campaign *c);

/**
 * dfz__read_coverage() - @in's edges over time from @dir/coverage_data
 * (written by the campaign scripts; absent: none).
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz__read_coverage(struct dfz__inst *in, const char *dir);

/**
 * dfz__read_rates() - @in's execs/s over time from the "time:" and
 * "execs:" of its queue, crash and hang file names (call after its
 * fuzzer_stats is read: the last point is its run time and execs).
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz__read_rates(struct dfz__inst *in, const char *dir);

/*
 * dfz__artifact_uri() - @rel (a path relative to the triage dir) as a URI
 * reference from the output dir: relative (through "../" when needed)
 * unless the two share nothing but the root, then an absolute file: URI.
 * Percent-encoded. Return: @buf.
 */
char *dfz__artifact_uri(const struct dfz__campaign *c, const char *rel,
			char *buf, size_t len);

/*
 * dfz__artifact_path() - @rel as a path for a reader of the outputs:
 * relative to the output dir as dfz__artifact_uri() makes it, else the
 * triage dir as given joined with @rel. Return: @buf.
 */
char *dfz__artifact_path(const struct dfz__campaign *c, const char *rel,
			 char *buf, size_t len);

/*
 * dfz__replay_line() - replay entry @r of a bucket as one shell command
 * line: its command, then its file by its absolute path (else as the
 * triage dir was given), quoted as needed: a line that replays wherever
 * it is run. Return: @buf.
 */
char *dfz__replay_line(const struct dfz__campaign *c, const struct dfz_json *r,
		       char *buf, size_t len);

/* dfz__no_replay() - why bucket @b, which names no replay command, has
 * none: a sentence for the report. */
const char *dfz__no_replay(const struct dfz__bucket *b);

/* ------------------------------------------------------------ writers */

/* Each writes one output to @f and returns 0 or DFZ_ENOMEM; the caller
 * checks ferror() for write errors. */
int dfz__write_md(const struct dfz__campaign *c, FILE *f);
int dfz__write_summary_json(const struct dfz__campaign *c, FILE *f);
int dfz__write_sarif(const struct dfz__campaign *c, FILE *f);
int dfz__write_html(const struct dfz__campaign *c, FILE *f);

/* @v (a statistic; negative: never seen, printed "-") as an integer or
 * with one decimal. Return: @buf. */
char *dfz__fmt_num(double v, char *buf, size_t len);

/* A count of input files with its distinct inputs: "157 (84 distinct)",
 * or "157" when @distinct is not known (negative). Return: @buf. */
char *dfz__fmt_inputs(double count, double distinct, char *buf, size_t len);

/* @s seconds as "42 s", "12 min 5 s", "3 h 07 min". Return: @buf. */
char *dfz__fmt_duration(double s, char *buf, size_t len);

/* True when every instance with a plot has an edges_found column (the
 * coverage charts then draw edges, else map_size in %). */
bool dfz__all_have_edges(const struct dfz__campaign *c);

/* A signal frame "func (file:line)" split into its parts; false when it
 * has no file:line. */
bool dfz__frame_split(const char *frame, char *func, size_t flen, char *file,
		      size_t filelen, unsigned long *line);

/* ------------------------------------------------------------ drop-in */

/* The drop-in side of the report (report_dropin.c). Each writes nothing
 * when the triage has no drop-in bucket. */

/** dfz__md_dropin() - summary.md's "Drop-in buckets" table. */
void dfz__md_dropin(const struct dfz__campaign *c, FILE *f);

/** dfz__html_dropin() - index.html's table of the drop-in buckets. */
void dfz__html_dropin(const struct dfz__campaign *c, FILE *f);

/** dfz__html_dropin_bucket() - a drop-in bucket's facts and the source
 * lines around its site and prior site, in its section.
 * Return: 0 or DFZ_ENOMEM. */
int dfz__html_dropin_bucket(const struct dfz__campaign *c,
			     const struct dfz__bucket *b, FILE *f);

/* dfz__src_relative() - @file (a drop-in site's) relative to the source
 * root when it lies inside it, else as given (a relative path is
 * relative to the root already). Return: a pointer into @file. */
const char *dfz__src_relative(const struct dfz__campaign *c, const char *file);

/* ------------------------------------------------------------ JSON writer */

/*
 * struct dfz__jw - a streaming JSON writer, two-space indented. Strings
 * are escaped (quotes, backslashes, control characters); invalid UTF-8
 * becomes U+FFFD, so the output is always valid JSON.
 */
struct dfz__jw {
	FILE *f;
	unsigned depth;
	bool nonempty[DFZ_JSON_MAX_DEPTH + 1];
	bool after_key;
};

void dfz__jw_init(struct dfz__jw *w, FILE *f);
void dfz__jw_open(struct dfz__jw *w, char bracket);     /* '{' or '[' */
void dfz__jw_close(struct dfz__jw *w, char bracket);    /* '}' or ']' */
void dfz__jw_key(struct dfz__jw *w, const char *key);
void dfz__jw_str(struct dfz__jw *w, const char *s);     /* NULL: null */
void dfz__jw_num(struct dfz__jw *w, double v);          /* NaN: null */
void dfz__jw_bool(struct dfz__jw *w, bool v);
void dfz__jw_null(struct dfz__jw *w);
/* key + value in one call; a negative @v (a statistic never seen) is
 * written as null. */
void dfz__jw_kstr(struct dfz__jw *w, const char *key, const char *s);
void dfz__jw_knum(struct dfz__jw *w, const char *key, double v);
/* A borrowed parsed value, written again as it was. */
void dfz__jw_value(struct dfz__jw *w, const struct dfz_json *v);

/* ------------------------------------------------------------ SVG charts */

#define DFZ__CHART_MAX_LINES 16

/* What a chart's y axis counts. */
enum dfz__unit {
	DFZ__UNIT_COUNT,                  /* integers: ticks of at least 1 */
	DFZ__UNIT_RATE,                   /* a real number */
	DFZ__UNIT_PCT,                    /* percent */
};

struct dfz__line {
	const char *name;                 /* legend */
	const double *x;
	const double *y;
	size_t n;
};

/*
 * dfz__svg_chart() - a line chart as inline SVG: one line per @lines entry
 * (at most DFZ__CHART_MAX_LINES), x in seconds (ticks in s, min or h),
 * y from 0 with "nice" ticks in @unit, a legend. Lines of many points are
 * thinned to about one point per pixel column.
 */
void dfz__svg_chart(FILE *f, const char *title, const char *ylabel,
		    const struct dfz__line *lines, size_t nlines,
		    enum dfz__unit unit);

/* @s escaped for XML text and attribute values (invalid UTF-8: U+FFFD). */
void dfz__xml_escape(FILE *f, const char *s);

#endif /* DMAFUZZ_REPORT_GEN_INT_H */
