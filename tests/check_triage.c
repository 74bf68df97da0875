// SPDX-License-Identifier: MIT
/*
 * Triage: the fault-site disassembler on known x86-64 bytes, the crash
 * report line's round trip, and `dmafuzz triage` end to end on synthetic
 * campaigns: duplicates, distinct classes, a hang, a real SIGSEGV of the
 * runtime (null-arg), malformed files, and a deliberately broken external
 * target (tests/broken_target.c) whose write and read faults must land in
 * two buckets with the right direction. Runs $DFZ_CLI and $DFZ_BROKEN
 * (set by `make check`).
 */
#define _GNU_SOURCE
#include <check.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dmafuzz/triage.h"

#include "cli_run.h"
#include "scratch.h"

/* ------------------------------------------------------------ disassembly */

/*
 *  0: 55           push rbp
 *  1: 48 89 e5     mov rbp, rsp
 *  4: 48 8b 07     mov rax, qword ptr [rdi]
 *  7: 48 89 50 08  mov qword ptr [rax + 8], rdx
 * 11: 83 00 01     add dword ptr [rax], 1
 * 14: 5d           pop rbp
 * 15: c3           ret
 */
static const uint8_t code[] = {
	0x55, 0x48, 0x89, 0xe5, 0x48, 0x8b, 0x07, 0x48, 0x89, 0x50, 0x08,
	0x83, 0x00, 0x01, 0x5d, 0xc3,
};

static void site_at(struct dfz_crash_site *s, unsigned off, int write)
{
	memset(s, 0, sizeof(*s));
	s->signo = SIGSEGV;
	s->write = write;
	s->code_at = 0x401000;
	s->pc = s->code_at + off;
	s->ncode = sizeof(code);
	memcpy(s->code, code, sizeof(code));
}

START_TEST(test_disasm_access)
{
	struct dfz_crash_site s;
	struct dfz_fault f;

	site_at(&s, 7, -1);
	ck_assert_int_eq(dfz_fault_disasm(&s, &f), 0);
	ck_assert_str_eq(f.instruction, "mov qword ptr [rax + 8], rdx");
	ck_assert_str_eq(f.access, "write");
	ck_assert_str_eq(f.operand, "qword ptr [rax + 8]");
	ck_assert_uint_eq(f.ndisasm, 6);     /* 3 before (all there are), 2 after */
	ck_assert_str_eq(f.disasm[0], "0x401000: push rbp");
	ck_assert_str_eq(f.disasm[3], "=> 0x401007: mov qword ptr [rax + 8], rdx");
	ck_assert_str_eq(f.disasm[5], "0x40100e: pop rbp");
	ck_assert_ptr_nonnull(strstr(f.regs, "reads rax, rdx"));

	site_at(&s, 4, -1);
	ck_assert_int_eq(dfz_fault_disasm(&s, &f), 0);
	ck_assert_str_eq(f.access, "read");
	ck_assert_str_eq(f.operand, "qword ptr [rdi]");

	/* A read-modify-write: its read comes first, unless the hardware
	 * says the fault was the write. */
	site_at(&s, 11, -1);
	ck_assert_int_eq(dfz_fault_disasm(&s, &f), 0);
	ck_assert_str_eq(f.access, "read");
	ck_assert_str_eq(f.operand, "dword ptr [rax]");
	site_at(&s, 11, 1);
	ck_assert_int_eq(dfz_fault_disasm(&s, &f), 0);
	ck_assert_str_eq(f.access, "write");

	/* No bytes at the pc: nothing to decode, said so. */
	site_at(&s, 7, -1);
	s.ncode = 0;
	ck_assert_int_eq(dfz_fault_disasm(&s, &f), DFZ_ENOENT);
	ck_assert_str_eq(f.access, "unknown");
	ck_assert_uint_eq(f.ndisasm, 0);
}
END_TEST

/* From the middle of an instruction the decoder resynchronises: the
 * boundaries before pc are the real ones however far back it starts. */
START_TEST(test_disasm_resync)
{
	struct dfz_crash_site s;
	struct dfz_fault f;

	site_at(&s, 11, -1);
	s.code_at += 2;                      /* starts inside mov rbp, rsp */
	s.pc = 0x401000 + 11;
	s.ncode -= 2;
	memmove(s.code, code + 2, sizeof(code) - 2);
	ck_assert_int_eq(dfz_fault_disasm(&s, &f), 0);
	ck_assert_str_eq(f.instruction, "add dword ptr [rax], 1");
	ck_assert_str_eq(f.disasm[f.ndisasm - 3], "=> 0x40100b: add dword ptr [rax], 1");
	ck_assert_str_eq(f.disasm[f.ndisasm - 4],
			 "0x401007: mov qword ptr [rax + 8], rdx");
}
END_TEST

START_TEST(test_crash_line)
{
	struct dfz_crash_site s, back;
	char text[4096];
	FILE *f = tmpfile();
	size_t n;

	site_at(&s, 7, 1);
	s.addr = 0x18;
	s.base = 0x400000;
	s.nframes = 3;
	s.frame[0] = s.pc;
	s.frame[1] = 0x401234;
	s.frame[2] = 0x7f0000001000;
	ck_assert_ptr_nonnull(f);
	fputs("running x (4 bytes)\n", f);
	fflush(f);
	dfz_crash_site_write(&s, fileno(f));
	rewind(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = 0;
	fclose(f);
	ck_assert_int_eq(dfz_crash_site_parse(text, &back), 0);
	ck_assert_int_eq(back.signo, SIGSEGV);
	ck_assert_int_eq(back.write, 1);
	ck_assert_uint_eq(back.addr, 0x18);
	ck_assert_uint_eq(back.pc, s.pc);
	ck_assert_uint_eq(back.base, 0x400000);
	ck_assert_uint_eq(back.code_at, s.code_at);
	ck_assert_uint_eq(back.ncode, s.ncode);
	ck_assert_mem_eq(back.code, s.code, s.ncode);
	ck_assert_uint_eq(back.nframes, 3);
	ck_assert_uint_eq(back.frame[2], 0x7f0000001000);
	ck_assert_int_eq(dfz_crash_site_parse("no report here\n", &back), DFZ_ENOENT);
	ck_assert_int_eq(dfz_crash_site_parse(DFZ_CRASH_TAG " signo=zz\n", &back),
			 DFZ_ENOENT);
}
END_TEST

/* ------------------------------------------------------------ end to end */

static char json[1 << 18];

static void put(const char *path, const void *buf, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

static void load_json(const char *path)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(json, 1, sizeof(json) - 1, f);
	json[n] = 0;
	fclose(f);
}

/* The text of the bucket object holding @key ("\"id\": \"b01\""). */
static char *object_at(const char *key, char *out, size_t len)
{
	char *p = strstr(json, key), *end;

	ck_assert_msg(p != NULL, "no bucket with %s in triage.json", key);
	end = strstr(p, "\n    }");
	ck_assert_ptr_nonnull(end);
	snprintf(out, len, "%.*s", (int)(end - p), p);
	return out;
}

/* The bucket whose signature is @sig: exactly one. */
static char *bucket(const char *sig, char *out, size_t len)
{
	char key[128];

	snprintf(key, sizeof(key), "\"signature\": \"%s\"", sig);
	object_at(key, out, len);
	ck_assert_ptr_null(strstr(strstr(json, key) + 1, key));
	return out;
}

static int count(const char *hay, const char *needle)
{
	int k = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		k++;
	return k;
}

/* A regression reproducer as the bare stream its fuzz target reads. */
static void bare(const char *plan, const char *path)
{
	ck_assert_int_eq(sh("%s encode %s | tail -c +2 > %s", cli_bin(), plan, path), 0);
}

START_TEST(test_triage_campaign)
{
	static char b[8192];
	const char *c = "$T/camp";

	ck_assert_int_eq(sh("mkdir -p %s/api/default/crashes %s/xfer/default/crashes "
			    "%s/xfer/default/hangs %s/parse/default/crashes "
			    "%s/findings/api", c, c, c, c, c), 0);
	/* A real SIGSEGV three times: two AFL++ names and a findings copy. */
	bare("corpus/regress/null-arg.plan", "$T/camp/api/default/crashes/id:000000,sig:11");
	bare("corpus/regress/null-arg.plan", "$T/camp/api/default/crashes/id:000001,sig:11");
	bare("corpus/regress/null-arg.plan", "$T/camp/findings/api/crash-1-000000");
	put(at("camp/findings/api/crash-1-000000.txt"), "report\n", 7);  /* companion */
	/* A distinct class, a hang, a clean input, malformed files. */
	bare("corpus/regress/shared-handle.plan", "$T/camp/xfer/default/crashes/id:000000,sig:06");
	bare("corpus/regress/idma-no-dummy.plan", "$T/camp/xfer/default/hangs/id:000000");
	bare("corpus/xfer/rank1-contig.plan", "$T/camp/xfer/default/crashes/id:000001,sig:06");
	/* The name of the hang, other bytes: its copy takes a suffix. */
	bare("corpus/xfer/rank1-contig.plan", "$T/camp/xfer/default/crashes/id:000000");
	put(at("camp/xfer/default/crashes/id:000002,sig:06"), "", 0);
	put(at("camp/xfer/default/crashes/README.txt"), "afl\n", 4);
	ck_assert_int_eq(sh("cp tests/data/bad-rank.plan %s/parse/default/crashes/id:000000", c), 0);
	ck_assert_int_eq(sh("cp -r %s $T/orig", c), 0);
	/* A FIFO among the inputs: not an input (opening it would block). */
	ck_assert_int_eq(sh("mkfifo %s/xfer/default/crashes/pipe", c), 0);

	ck_assert_int_eq(sh("timeout 120 %s triage --bug null-arg,shared-handle,"
			    "idma-no-dummy %s > $T/out.txt", cli_bin(), c), 0);
	ck_assert_int_eq(sh("rm %s/xfer/default/crashes/pipe", c), 0);
	load_json(at("camp/triage/triage.json"));
	/* Copies: the SIGSEGV bytes twice, rank1-contig once. */
	ck_assert_ptr_nonnull(strstr(json, "\"inputs\": 9,\n  \"distinct\": 6,"));
	ck_assert_int_eq(count(json, "\"id\": \"b0"), 3);

	bucket("crash/signal:SIGSEGV", b, sizeof(b));
	ck_assert_ptr_nonnull(strstr(b, "\"count\": 3,\n      \"distinct\": 1,"));
	ck_assert_ptr_nonnull(strstr(b, "\"target\": \"api\""));
	ck_assert_ptr_nonnull(strstr(b, "\"access\": \"read\""));
	ck_assert_ptr_nonnull(strstr(b, "\"operand\": \""));
	ck_assert_ptr_nonnull(strstr(b, "ptr ["));
	ck_assert_ptr_nonnull(strstr(b, "\"=> 0x"));
	ck_assert_ptr_nonnull(strstr(b, "\"frames\": [\""));
	ck_assert_ptr_nonnull(strstr(b, "runtime/host.c:"));
	ck_assert_ptr_nonnull(strstr(b, "\"inputs/api/crash-1-000000\""));
	ck_assert_ptr_nonnull(strstr(b, "\"plan\": \"buckets/b01/repro.plan\""));
	/* Replayed by its text plan and its full stream, which name their
	 * family, and by the fuzz target's own input with --family. */
	ck_assert_ptr_nonnull(strstr(b, "\"replay\": [\n        { \"command\": "
				     "\"dmafuzz run --bug shared-handle,"
				     "idma-no-dummy,null-arg\", \"file\": "
				     "\"buckets/b01/repro.plan\" },\n        "
				     "{ \"command\": \"dmafuzz run --bug "
				     "shared-handle,idma-no-dummy,null-arg\", "
				     "\"file\": \"buckets/b01/repro.bin\" },\n"
				     "        "
				     "{ \"command\": \"dmafuzz run --family api "
				     "--bug shared-handle,idma-no-dummy,null-arg\", "
				     "\"file\": \"buckets/b01/input.bin\" }\n"
				     "      ],"));

	bucket("handle.reuse/handle@L2", b, sizeof(b));
	ck_assert_ptr_nonnull(strstr(b, "\"count\": 1,"));
	ck_assert_ptr_nonnull(strstr(b, "\"signal\": null"));
	ck_assert_ptr_nonnull(strstr(b, "/repro.c\""));   /* an emitted C file */
	ck_assert_int_eq(sh("grep -l dfz_xfer_issue %s/triage/buckets/*/repro.c "
			    ">/dev/null", c), 0);
	bucket("dma.hang/hang", b, sizeof(b));
	ck_assert_ptr_nonnull(strstr(b, "\"inputs\": [\"inputs/xfer/id:000000~1\"]"));

	ck_assert_ptr_nonnull(strstr(json, "\"reason\": \"empty"));
	ck_assert_ptr_nonnull(strstr(json, "\"reason\": \"the parse target rejects it: line"));
	ck_assert_ptr_nonnull(strstr(json, "\"clean\": [\n    \"inputs/xfer/id:000000\",\n"
				       "    \"inputs/xfer/id:000001,sig:06\"\n  ]"));
	ck_assert_ptr_null(strstr(json, "README"));
	ck_assert_ptr_null(strstr(json, ".txt\""));

	/* The reproducer still crashes the runtime; the campaign is as it was. */
	ck_assert_int_eq(sh("%s run --quiet --bug null-arg %s/triage/buckets/b01/repro.plan "
			    ">/dev/null 2>&1", cli_bin(), c), 1);
	ck_assert_int_eq(sh("grep -q '^ACCESS: *read' %s/triage/buckets/b01/disasm.txt", c), 0);
	ck_assert_int_eq(sh("diff -r -x triage %s $T/orig", c), 0);
	ck_assert_int_eq(sh("cmp -s %s/api/default/crashes/id:000000,sig:11 "
			    "%s/triage/inputs/api/id:000000,sig:11", c, c), 0);

	/* Again into the same OUT: the same buckets, no input copied twice. */
	ck_assert_int_eq(sh("%s triage --bug null-arg,shared-handle,idma-no-dummy "
			    "%s > /dev/null", cli_bin(), c), 0);
	ck_assert_int_eq(sh("test $(ls %s/triage/inputs/api | wc -l) -eq 3", c), 0);
	ck_assert_int_eq(sh("%s triage --bug null-arg,shared-handle,idma-no-dummy "
			    "-o $T/again %s > /dev/null && "
			    "cmp -s $T/again/buckets/b01/repro.bin "
			    "%s/triage/buckets/b01/repro.bin", cli_bin(), c, c), 0);
}
END_TEST

/*
 * A crash as AFL++ saved it, its copy under findings/ and an input one
 * byte longer: one bucket of three files, two distinct. Every file is
 * still copied and listed; the copy names the input it repeats. The
 * findings/ copy sorts first, so the AFL++ file is the repeat.
 */
START_TEST(test_triage_copies)
{
	static char b[8192];
	const char *c = "$T/dup";
	const char *afl = "$T/dup/xfer/default/crashes/id:000000,sig:06";
	const char *fnd = "$T/dup/findings/xfer/crash-1-000000";
	const char *longer = "$T/dup/xfer/default/crashes/id:000001,sig:06";

	ck_assert_int_eq(sh("mkdir -p %s/xfer/default/crashes %s/findings/xfer",
			    c, c), 0);
	bare("corpus/regress/shared-handle.plan", afl);
	ck_assert_int_eq(sh("cp %s %s && cp %s %s && printf x >> %s", afl, fnd,
			    afl, longer, longer), 0);
	ck_assert_int_eq(sh("%s triage --bug shared-handle %s > $T/dup.txt",
			    cli_bin(), c), 0);
	load_json(at("dup/triage/triage.json"));
	ck_assert_ptr_nonnull(strstr(json, "\"inputs\": 3,\n  \"distinct\": 2,"));
	ck_assert_ptr_nonnull(strstr(json, "\"same_as\": {\n    "
				       "\"inputs/xfer/id:000000,sig:06\": "
				       "\"inputs/xfer/crash-1-000000\"\n  },"));
	ck_assert_int_eq(count(json, "\"id\": \"b0"), 1);
	bucket("handle.reuse/handle@L2", b, sizeof(b));
	ck_assert_ptr_nonnull(strstr(b, "\"count\": 3,\n      \"distinct\": 2,"));
	ck_assert_ptr_nonnull(strstr(b, "\"inputs\": [\"inputs/xfer/crash-1-000000\", "
				     "\"inputs/xfer/id:000000,sig:06\", "
				     "\"inputs/xfer/id:000001,sig:06\"]"));
	/* One byte more is another input, not a copy. */
	ck_assert_ptr_null(strstr(json, "\"inputs/xfer/id:000001,sig:06\": "));
	ck_assert_int_eq(sh("test $(ls %s/triage/inputs/xfer | wc -l) -eq 3", c), 0);
	ck_assert_int_eq(sh("cmp -s %s %s/triage/inputs/xfer/id:000000,sig:06 && "
			    "cmp -s %s %s/triage/inputs/xfer/crash-1-000000 && "
			    "cmp -s %s %s/triage/inputs/xfer/id:000001,sig:06",
			    afl, c, fnd, c, longer, c), 0);
	ck_assert_int_eq(sh("grep -q '^DISTINCT: *2$' %s/triage/buckets/b01/verdict.txt",
			    c), 0);
	ck_assert_int_eq(sh("grep -q ' 3 input(s), 2 distinct, ' $T/dup.txt"), 0);
}
END_TEST

START_TEST(test_triage_exec)
{
	static char b[8192];
	const char *broken = getenv("DFZ_BROKEN");
	const char *c = "$T/ext";
	static char beside[4096];

	/* Default: the one built beside the CLI ($(BUILD)/tests/). */
	if (!broken || !*broken) {
		const char *slash = strrchr(cli_bin(), '/');

		snprintf(beside, sizeof(beside), "%.*stests/broken_target",
			 slash ? (int)(slash - cli_bin() + 1) : 0, cli_bin());
		broken = beside;
	}
	ck_assert_msg(access(broken, X_OK) == 0, "no broken target at %s (run "
		      "through make check)", broken);
	ck_assert_int_eq(sh("mkdir -p %s/crashes", c), 0);
	put(at("ext/crashes/w1"), "Wxyzabc", 7);
	put(at("ext/crashes/w2"), "W123", 4);
	put(at("ext/crashes/r1"), "Rxyz", 4);
	put(at("ext/crashes/c1"), "clean", 5);
	ck_assert_int_eq(sh("%s triage --exec %s %s > /dev/null", cli_bin(), broken, c), 0);
	load_json(at("ext/triage/triage.json"));
	ck_assert_ptr_nonnull(strstr(json, "\"inputs\": 4,"));
	ck_assert_int_eq(count(json, "\"signature\": \"crash/signal:SIGSEGV\""), 2);
	ck_assert_ptr_nonnull(strstr(json, "\"clean\": [\n    \"inputs/other/c1\""));

	/* The read bucket (r1 sorts first), then the write bucket: both W
	 * inputs, the store through a bad pointer. */
	object_at("\"id\": \"b01\"", b, sizeof(b));
	ck_assert_ptr_nonnull(strstr(b, "\"inputs\": [\"inputs/other/r1\"]"));
	ck_assert_ptr_nonnull(strstr(b, "\"access\": \"read\""));
	ck_assert_ptr_nonnull(strstr(b, "\"instruction\": \"mov"));
	/* The frame names the source as the debug info does: relative to
	 * the build directory, or absolute in a tree built elsewhere. */
	ck_assert_ptr_nonnull(strstr(b, "\"frames\": [\"load ("));
	ck_assert_ptr_nonnull(strstr(b, "tests/broken_target.c:"));
	ck_assert_ptr_nonnull(strstr(b, "\"plan\": null"));

	object_at("\"id\": \"b02\"", b, sizeof(b));
	ck_assert_ptr_nonnull(strstr(b, "\"inputs\": [\"inputs/other/w1\", \"inputs/other/w2\"]"));
	ck_assert_ptr_nonnull(strstr(b, "\"access\": \"write\""));
	/* The frame names the source as the debug info does: relative to
	 * the build directory, or absolute in a tree built elsewhere. */
	ck_assert_ptr_nonnull(strstr(b, "\"frames\": [\"store ("));
	ck_assert_ptr_nonnull(strstr(b, "tests/broken_target.c:"));
	ck_assert_ptr_nonnull(strstr(b, "\"bytes_out\": 1,"));
	ck_assert_int_eq(sh("grep -q '^ACCESS: *write' %s/triage/buckets/b02/disasm.txt", c), 0);
	/* Replayed by the program (by its absolute path), its switches in
	 * DMAFUZZ_BUGS; no plan, and the report takes that. */
	ck_assert_ptr_nonnull(strstr(b, "\"replay\": [\n        { \"command\": "
				     "\"DMAFUZZ_BUGS= /"));
	ck_assert_ptr_nonnull(strstr(b, "/broken_target\", \"file\": "
				     "\"buckets/b02/repro.bin\" }\n      ],"));
	ck_assert_int_eq(sh("%s report -q %s", cli_bin(), c), 0);
	ck_assert_int_eq(sh("grep -q '^- replay: `DMAFUZZ_BUGS= /.*/broken_target "
			    "/.*/ext/triage/buckets/b02/repro.bin`$' %s/summary.md",
			    c), 0);
}
END_TEST

START_TEST(test_triage_bad_input)
{
	ck_assert_int_eq(sh("%s triage no/such/dir 2>/dev/null", cli_bin()), 2);
	ck_assert_int_eq(sh("%s triage 2>/dev/null", cli_bin()), 2);
	ck_assert_int_eq(sh("%s triage --bug nope corpus 2>/dev/null", cli_bin()), 2);
	ck_assert_int_eq(sh("%s triage --exec no/such/prog corpus 2>/dev/null", cli_bin()), 2);
	ck_assert_int_eq(sh("%s triage --max-runs 0 corpus 2>/dev/null", cli_bin()), 2);
	ck_assert_int_eq(sh("test $(%s triage no/such/dir 2>&1 | wc -l) -eq 1", cli_bin()), 0);
}
END_TEST

Suite *suite_triage(void)
{
	Suite *s = suite_create("triage");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_disasm_access);
	tcase_add_test(tc, test_disasm_resync);
	tcase_add_test(tc, test_crash_line);
	tcase_add_test(tc, test_triage_campaign);
	tcase_add_test(tc, test_triage_copies);
	tcase_add_test(tc, test_triage_exec);
	tcase_add_test(tc, test_triage_bad_input);
	tcase_set_timeout(tc, 120);
	scratch_add(tc);
	suite_add_tcase(s, tc);
	return s;
}
