/* SPDX-License-Identifier: MIT */
/*
 * dmafuzz triage (reports/triage/): every crash and hang of a fuzz
 * campaign replayed, bucketed by signature and crash site (the faulting
 * instruction disassembled with Capstone, the top frames symbolized),
 * one reproducer per bucket minimized, and triage.json written for the
 * report. Part of the reports layer: it uses the shrinker
 * (dmafuzz/shrink.h) and the C emitter (dmafuzz/emit.h).
 */
#ifndef DMAFUZZ_TRIAGE_H
#define DMAFUZZ_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dmafuzz/harness.h"

/* ------------------------------------------------------------ triage */

#define DFZ_FAULT_BEFORE 4            /* instructions shown before the fault */
#define DFZ_FAULT_AFTER 2             /* and after it */
#define DFZ_FAULT_LINES (DFZ_FAULT_BEFORE + 1 + DFZ_FAULT_AFTER)
#define DFZ_FAULT_FRAMES 3            /* symbolized frames: the site's key */
#define DFZ_FAULT_TEXT 192

/*
 * struct dfz_fault - a signal's crash site for people: the faulting
 * instruction disassembled (Capstone) with its neighbours, the direction
 * of the access and the memory operand it went through, and the top
 * frames symbolized.
 */
struct dfz_fault {
	char access[8];                   /* "read", "write" or "unknown" */
	char operand[DFZ_FAULT_TEXT];     /* "qword ptr [rax + 8]", or "" */
	char instruction[DFZ_FAULT_TEXT]; /* "mov rdx, qword ptr [rax + 8]" */
	char regs[DFZ_FAULT_TEXT];        /* registers it reads and writes */
	unsigned ndisasm;
	char disasm[DFZ_FAULT_LINES][DFZ_FAULT_TEXT]; /* "0x...: insn", the
						       * fault as "=> 0x..." */
	unsigned nframes;
	char frames[DFZ_FAULT_FRAMES][DFZ_FAULT_TEXT]; /* "fn (file.c:12)" */
};

/**
 * dfz_fault_disasm() - disassemble the code bytes of @s around its pc
 * (x86-64, detail on): up to DFZ_FAULT_BEFORE instructions before the
 * fault (found by decoding from every offset of the window back from pc
 * and keeping the boundaries most offsets agree on), the fault, and
 * DFZ_FAULT_AFTER after. The access is the hardware's when @s knows it
 * (the page fault's error code), else the memory operand's access flags;
 * the operand is the faulting instruction's memory operand.
 * @out: its access, operand, instruction, regs and disasm are filled
 *       ("unknown" and empty when the pc or its bytes are missing).
 * Return: 0, or DFZ_ENOENT when there was nothing to disassemble.
 */
int dfz_fault_disasm(const struct dfz_crash_site *s, struct dfz_fault *out);

/**
 * dfz_fault_frames() - symbolize the top DFZ_FAULT_FRAMES frames of @s
 * as "function (file:line)" (addr2line on the module, at the offset from
 * its load base; a return address is looked up one byte back), falling
 * back to "module+0xoffset".
 * @program: the executable an external site comes from (frames are in it
 *           at @s->base); NULL for a site of this process (dladdr()).
 * @out: its frames and nframes are filled.
 */
void dfz_fault_frames(const struct dfz_crash_site *s, const char *program,
		      struct dfz_fault *out);

/* Defaults of struct dfz_triage_config (a zero field takes its default). */
#define DFZ_TRIAGE_MIN_RUNS 3000u     /* minimizer runs per bucket */
#define DFZ_TRIAGE_MIN_SECONDS 30.0   /* minimizer wall time per bucket */
#define DFZ_TRIAGE_TIMEOUT_MS 5000u   /* one run of an external program */

/* struct dfz_triage_bin - a drop-in test and one of its binaries. */
struct dfz_triage_bin {
	const char *name;                 /* the test: [A-Za-z0-9_-]+ */
	const char *bin;                  /* the program's path */
};

#define DFZ_TRIAGE_TESTS 256          /* --dropin tests of one triage */

/*
 * struct dfz_triage_config - one triage of a fuzz campaign.
 * Inputs are the files under directories named crashes, hangs or findings
 * (README.txt, dot files and a finding's .txt/.plan companions left out);
 * the target of each is the nearest path component naming one (xfer,
 * host, api, parse; else "other").
 */
struct dfz_triage_config {
	const char *dir;                  /* the campaign (out/fuzz, ...) */
	const char *out;                  /* NULL: DIR/triage */
	const char *exec;                 /* NULL: replay in-process (plan
					   * targets with the executor, parse
					   * with the text round trip); else
					   * run this program on each input */
	uint32_t bugs;                    /* bug switches of every replay */
	uint64_t max_runs;                /* 0: DFZ_TRIAGE_MIN_RUNS */
	double max_seconds;               /* 0: DFZ_TRIAGE_MIN_SECONDS */
	unsigned timeout_ms;              /* 0: DFZ_TRIAGE_TIMEOUT_MS */
	FILE *log;                        /* a line per bucket, or NULL */
	/* Drop-in tests (docs/campaign-triage.md): with @ndropin, @dir is a
	 * campaign's findings dir, its inputs DIR/<name>/<file>, each
	 * replayed by `BIN --json FILE` of its test. */
	const struct dfz_triage_bin *dropin;
	unsigned ndropin;
	const struct dfz_triage_bin *asan; /* ASan builds of some of them:
					   * each reproducer replayed */
	unsigned nasan;
	bool valgrind;                    /* each reproducer under memcheck */
	const char *srcroot;              /* recorded for the report; NULL:
					   * the current directory */
};

/* struct dfz_triage_summary - what a triage found. */
struct dfz_triage_summary {
	unsigned inputs;                  /* files examined */
	unsigned distinct;                /* of them, those that repeat no
					   * earlier input's bytes (of the
					   * same target): the findings once */
	unsigned buckets;
	unsigned malformed;
	unsigned clean;                   /* did not reproduce */
	unsigned fixed;                   /* drop-in: inputs of a previous
					   * triage's bucket now clean */
	unsigned fixed_buckets;           /* drop-in: buckets all clean */
	bool bad_previous;                /* the error is OUT/triage.json's,
					   * a previous triage's, unreadable */
};

/**
 * dfz_triage() - replay every crash and hang input of a campaign, bucket
 * them by signature (for a real signal also the faulting instruction and
 * the top frames), minimize one reproducer per bucket, and write OUT:
 * triage.json, buckets/<id>/{repro.bin,repro.plan,verdict.txt,disasm.txt}
 * and inputs/<target>/ (a copy of every input: nothing is moved, removed
 * or overwritten). An input with the bytes of an earlier one of its
 * target (in path order; an AFL++ crash and its copy under findings/) is
 * a copy of one finding: listed, in its first's bucket, counted once in
 * the distinct counts. Every file is written atomically. Deterministic, but
 * for a minimization cut short by its time limit.
 * @cfg: borrowed. @out: filled. @err: a one-line message on failure.
 * With @cfg->ndropin, the drop-in triage instead (docs/campaign-triage.md):
 * each test's inputs replayed by its binary's --json verdict, bucketed
 * by test, class, site and prior site, one input per bucket shrunk by
 * dfz_minimize_exec_with() into buckets/<id>/repro.bin, that reproducer
 * replayed under valgrind (@cfg->valgrind) and by the test's ASan build,
 * and the inputs and buckets of the previous OUT/triage.json that now
 * replay clean marked fixed.
 * Return: 0; DFZ_ENOENT or DFZ_ENOTDIR (DIR missing or not a directory);
 * DFZ_EINVAL (bad configuration, a path too long, a drop-in binary that
 * cannot run; @out->bad_previous: the previous triage.json is corrupt);
 * DFZ_EACCES or
 * DFZ_ENOTDIR (OUT cannot be created or written); DFZ_EIO (a write failed:
 * a full disk); DFZ_ENOMEM.
 */
int dfz_triage(const struct dfz_triage_config *cfg,
	       struct dfz_triage_summary *out, char *err, size_t errlen);

#endif /* DMAFUZZ_TRIAGE_H */
