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
};

struct dfz__triage {
	const struct dfz_triage_config *cfg;
	char out[4096];               /* OUT */
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

/** dfz__triage_json() - OUT/triage.json of @t, atomically.
 * Return: as dfz__text_commit(). */
int dfz__triage_json(const struct dfz__triage *t);

#endif /* DMAFUZZ_TRIAGE_INT_H */
