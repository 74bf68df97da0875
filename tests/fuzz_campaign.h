/* SPDX-License-Identifier: MIT */
/*
 * A campaign of the fuzz script (tools/fuzz.sh) as its run record
 * (campaign.txt) describes it, made by a shell command in $T/c: two
 * AFL++ instances, findings, the class list of a target, the seed
 * build's findings and the record (check_report_run.c,
 * check_alloc_fail.c).
 */
#ifndef DFZ_TEST_FUZZ_CAMPAIGN_H
#define DFZ_TEST_FUZZ_CAMPAIGN_H

/* The files of a fuzz campaign in $T/c (paths relative to it, the
 * record's cwd). */
static const char fuzz_campaign[] =
	"mkdir -p $T/c/xfer/default $T/c/host/default $T/c/work "
	"$T/c/findings/xfer $T/c/seeds && cd $T/c && "
	"printf '%s\\n' 'run_time : 0' 'execs_done : 1234' "
	"'execs_per_sec : inf' 'corpus_count : 7' 'bitmap_cvg : 12.34%' "
	"'afl_version : ++4.04c' "
	"'command_line : afl-fuzz -i in -o out -c cmplog/xfer -- afl/xfer' "
	"> xfer/default/fuzzer_stats && "
	"printf '%s\\n' 'run_time : 20' 'execs_done : 30001' "
	"'execs_per_sec : 1600.25' 'corpus_count : 9' 'bitmap_cvg : 5.5%' "
	"> host/default/fuzzer_stats && "
	"printf abc > findings/xfer/crash-S-000001 && "
	"printf 'x' > findings/xfer/crash-S-000001.plan && "
	"printf abcde > findings/xfer/seed-S-a.bin && "
	"printf ab > findings/xfer/hang-S-000002 && "
	"printf abcd > findings/xfer/hang-S-000003 && "
	"printf 'handle.reuse\\tfindings/xfer/seed-S-a.bin\\n"
	"handle.reuse\\tfindings/xfer/crash-S-000001\\n"
	"slow\\tfindings/xfer/hang-S-000002\\n"
	"hang\\tfindings/xfer/hang-S-000003\\n' > work/xfer.classes && "
	"printf 'build/fuzz/seeds/api/regress-null-arg.bin\\t"
	"corpus/regress/null-arg.plan\\tcrash: SIGSEGV at address 0x0\\n' "
	"> seeds/findings.txt && "
	"printf '%s\\n' 'kind : fuzz' 'started : 20261125-101010' "
	"'seconds : 20' 'seed : 7' 'bugs : shared-handle' 'failed : 1' "
	"'targets : xfer host api' 'work : work' 'findings : findings' "
	"'replay : build/fuzz/replay' 'cli : build/dmafuzz' "
	"'seed_findings : seeds/findings.txt' \"cwd : $T/c\" "
	"'failure : api: afl-fuzz failed (exit 1), log work/api.log' "
	"> campaign.txt";

#endif /* DFZ_TEST_FUZZ_CAMPAIGN_H */
