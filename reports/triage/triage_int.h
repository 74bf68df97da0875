/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces of triage (reports/triage/: triage*.c, disasm*.c).
 */
#ifndef DMAFUZZ_TRIAGE_INT_H
#define DMAFUZZ_TRIAGE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "dmafuzz/emit.h"
#include "dmafuzz/shrink.h"
#include "dmafuzz/triage.h"
#include "common_int.h"

/* ------------------------------------------------------------ one replay */

#define DFZ__INPUT_MAX (1u << 20)   /* as the fuzzers' and replay's limits */
#define DFZ__KEY 1024

enum dfz__outcome_kind {
	DFZ__MALFORMED = 0,           /* could not be replayed as the target
				       * reads it */
	DFZ__CLEAN,                   /* did not reproduce */
	DFZ__FINDING,
};

/* What one replay of an input showed. */
struct dfz__outcome {
	uint8_t kind;                 /* enum dfz__outcome_kind */
	char reason[DFZ_MSG_MAX];     /* MALFORMED: why */
	char key[DFZ__KEY];           /* FINDING: the bucket (signature and,
				       * for a signal, the site) */
	char sig[DFZ_SIG_TEXT];       /* the signature, as text */
	char cls[32];                 /* class id */
	char oracle[24];
	int level;                    /* enum dfz_level, or -1 */
	char message[DFZ_MSG_MAX];    /* the verdict's one line */
	char *report;                 /* the full verdict text (malloc'ed) */
	bool has_signal;              /* a real signal: site and fault */
	char signal[12];
	struct dfz_crash_site site;
	struct dfz_fault fault;
};

/* How inputs of one target are replayed. */
struct dfz__replayer {
	const struct dfz_triage_config *cfg;
	struct dfz_exec *ex;          /* in-process plan targets */
	char bugs[256];               /* the switches by name, "" for none */
	const char *scratch;          /* a file path the exec replay may
				       * write candidate inputs to */
};

/**
 * dfz__replay() - replay @n bytes of @buf (NUL-terminated) as an input of
 * @target ("xfer", "host", "api", "parse", "other"); @path: the file
 * holding them (the external program reads it). @o: filled; its report
 * is malloc'ed (release with dfz__outcome_fini()).
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz__replay(struct dfz__replayer *r, const char *target, const char *path,
		const uint8_t *buf, size_t n, struct dfz__outcome *o);

void dfz__outcome_fini(struct dfz__outcome *o);


/* ------------------------------------------------------------ a triage */

/* ------------------------------------------------------------ drop-in */

/* A user's line a drop-in verdict names: file "" for none. */
struct dfz__dsite {
	char file[256];               /* as the binary's __FILE__ */
	int line;
	char func[64];
};

/* What a drop-in input's replay said beside its outcome. */
struct dfz__dverdict {
	unsigned test;                /* index in cfg->dropin */
	struct dfz__dsite site;       /* the offending call */
	struct dfz__dsite prior;      /* the earlier call it conflicts with */
};

/* A reproducer's replay under a checker (valgrind, the ASan build). */
struct dfz__check {
	char verdict[16];             /* "" not asked; "clean", "errors"
				       * (memcheck), "asan" (a report),
				       * "finding" (the drop-in's own),
				       * "crash", "timeout", "not run" */
	char detail[256];             /* the first error line, the class,
				       * or why it did not run */
};

/* A drop-in bucket: test + class + site + prior. */
struct dfz__dbucket {
	unsigned test;                /* index in cfg->dropin */
	struct dfz__dsite site, prior;
	char sig[700];                /* "class at f.c:3, prior f.c:1" */
	bool fixed;                   /* every input replays clean */
	bool regressed;               /* fixed in the previous triage */
	unsigned *fixed_in;           /* inputs of the previous triage's
				       * bucket that replay clean now */
	unsigned nfixed;
	size_t fixed_cap;
	uint8_t *prev_repro;          /* a fixed bucket: the previous
				       * reproducer (owned), or NULL */
	size_t prev_n;
	struct dfz__check valgrind, asan;
};

/* One input of the campaign. */
struct dfz__input {
	char *src;                    /* its path, as found under DIR */
	char *copy;                   /* its copy, relative to OUT; NULL
				       * when it could not be read */
	char target[8];               /* xfer, host, api, parse, other */
	uint8_t *buf;                 /* its bytes (NUL-terminated) */
	size_t n;
	bool whole;                   /* @buf holds every byte of it */
	uint64_t hash;                /* of its bytes, when @whole */
	int same_as;                  /* the index of the first input of
				       * its target with the same bytes
				       * (a copy of one finding), or -1 */
	struct dfz__outcome o;        /* a copy's: its first's, without
				       * the report */
	int bucket;                   /* index, or -1 */
	struct dfz__dverdict *dv;     /* a drop-in input's (owned), or NULL */
};

/* A command line that replays a bucket: @command, then @file. */
struct dfz__replay_cmd {
	char command[DFZ__COMMAND_MAX]; /* "dmafuzz run --bug a,b", its
					 * words shell-quoted */
	char file[40];                /* relative to OUT:
				       * "buckets/b01/repro.plan" */
};

#define DFZ__REPLAYS 3                /* replay commands per bucket */

struct dfz__bucket {
	char id[8];                   /* "b01" */
	unsigned *member;             /* input indices, in order */
	unsigned count;
	size_t member_cap;
	unsigned distinct;            /* members that repeat no other */
	size_t bytes_in, bytes_out;   /* the minimization */
	uint64_t runs;
	double seconds;
	bool has_plan;                /* repro.plan written */
	bool has_c;                   /* repro.c written (dfz_emit_c) */
	struct dfz__outcome repro;    /* the reproducer's replay (its
				       * report not kept): the message
				       * and site triage.json gives */
	struct dfz__replay_cmd replay[DFZ__REPLAYS];
	unsigned nreplay;             /* 0: no dmafuzz command replays
				       * it (a parse bucket) */
	struct dfz__dbucket *drop;    /* a drop-in bucket's own (owned),
				       * NULL in a plan-target triage */
};

struct dfz__triage {
	const struct dfz_triage_config *cfg;
	char out[4096];               /* OUT */
	char srcroot[4096];           /* drop-in: the source root, absolute
				       * when it exists */
	struct dfz__replayer rep;
	struct dfz__input *in;
	unsigned nin;
	size_t in_cap;
	unsigned distinct;            /* inputs that repeat no other */
	struct dfz__bucket *b;
	unsigned nb;
	size_t b_cap;
	struct dfz__progress progress;    /* on a terminal */
};

/**
 * dfz__triage_scan() - the inputs of campaign @dir (see struct
 * dfz_triage_config), sorted by path, into @t->in (src and target
 * only). The directory @skip (OUT) is not entered.
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz__triage_scan(struct dfz__triage *t, const char *dir, const char *skip);

/**
 * dfz__copy_input() - copy @in->src to OUT/inputs/<target>/<its name>
 * (a suffix on a clash with another input of this triage, or with an
 * older file of other bytes; never over a file) and read its bytes
 * (@in->whole and @in->hash set when all of them were read).
 * @err: out, why it could not be read or copied.
 * Return: 0; DFZ_ENOENT (unreadable: @in->copy stays NULL); DFZ_ERANGE
 * (copied, but over DFZ__INPUT_MAX bytes: not read); any other code
 * (DFZ_EIO, DFZ_EACCES, DFZ_ENOTDIR, DFZ_EINVAL for too long a path,
 * DFZ_ENOMEM) when OUT cannot be written.
 */
int dfz__copy_input(struct dfz__triage *t, struct dfz__input *in, char *err,
		    size_t errlen);

/**
 * dfz__bucket_add() - put input @i (a finding) in the bucket of its key
 * and target, a new one when none has them.
 * Return: 0 or DFZ_ENOMEM.
 */
int dfz__bucket_add(struct dfz__triage *t, unsigned i);

/**
 * dfz__triage_dropin() - the drop-in triage of dfz_triage() (its
 * @cfg->ndropin set), on @t prepared.
 * Return: as dfz_triage().
 */
int dfz__triage_dropin(struct dfz__triage *t, struct dfz_triage_summary *sum,
		       char *err, size_t errlen);

#define DFZ__TEST_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
			"0123456789_-"

/** dfz__sig_name() - "SIGSEGV", ..., or "SIG<n>" (a static buffer). */
const char *dfz__sig_name(int signo);

/** dfz__dsite_text() - @s as "file:line", "-" for none, into @buf. */
void dfz__dsite_text(const struct dfz__dsite *s, char *buf, size_t len);

/** dfz__dropin_test() - the index of test @name in @cfg->dropin, or -1. */
int dfz__dropin_test(const struct dfz_triage_config *cfg, const char *name);

/**
 * dfz__dropin_replay() - `BIN --json @path` of drop-in test @test: its
 * verdict into @o (its key: test|class|site|prior) and @dv's sites.
 * Return: 0; DFZ_ENOENT (the binary does not run); DFZ_ENOMEM.
 */
int dfz__dropin_replay(struct dfz__triage *t, unsigned test, const char *path,
		       struct dfz__outcome *o, struct dfz__dverdict *dv);

/**
 * dfz__dropin_settle() - shrink bucket @b's smallest input (a fixed
 * bucket: its previous reproducer as it was), write buckets/<id>/ (the
 * reproducer, its verdicts as text and JSON, the checkers' outputs) and
 * replay it under the checkers (triage_check.c).
 * Return: 0, DFZ_ENOMEM, or a write error (@err says).
 */
int dfz__dropin_settle(struct dfz__triage *t, struct dfz__bucket *b, char *err,
		       size_t errlen);

/* The previous OUT/triage.json of a drop-in triage (triage_fixed.c). */
struct dfz__prev;

/**
 * dfz__prev_load() - OUT/triage.json of @t as the previous triage left it
 * (none: *@out NULL), checked, its drop-in buckets' reproducers read.
 * @out: caller owns; release with dfz__prev_free().
 * Return: 0; DFZ_EINVAL (corrupt, @err says where) or DFZ_ENOMEM.
 */
int dfz__prev_load(const struct dfz__triage *t, struct dfz__prev **out,
		   char *err, size_t errlen);

/**
 * dfz__prev_apply() - mark the inputs of @p's buckets that replay clean
 * now as fixed: under the bucket of the same key, else (every input of
 * it clean) in a fixed bucket appended to @t. Return: 0 or DFZ_ENOMEM.
 */
int dfz__prev_apply(struct dfz__triage *t, const struct dfz__prev *p);

void dfz__prev_free(struct dfz__prev *p);

/* The name of drop-in input @in that stays across triages: its last two
 * path components, "TEST/FILE". */
const char *dfz__input_tail(const char *src);

/** dfz__triage_json() - OUT/triage.json of @t, atomically.
 * Return: as dfz__text_commit(). */
int dfz__triage_json(const struct dfz__triage *t);

#endif /* DMAFUZZ_TRIAGE_INT_H */
