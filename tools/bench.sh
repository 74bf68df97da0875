#!/bin/sh
# SPDX-License-Identifier: MIT
# `make bench`: measured ratios, never timed tests (docs/bench.md says what
# each number means). In order:
#  1. execs/s of every fuzz target under AFL++ (afl-fuzz -V, no cmplog)
#     and libFuzzer (-max_total_time), each run at the same time as the
#     empty target (fuzz/empty.c) on the same seeds with the same options:
#     the ratio target/empty is the share of the fuzzer's floor left
#     (AFL++: BENCH_PAIRS pairs, one after another, each afl-fuzz on a
#     CPU of its own, the two swapping every pair; the pairs' mean
#     execs/s reported, every pair's ratio beside it); for
#     the drop-in targets also schedules/s in process (no fuzzer: the fuzz
#     entry point in a loop, FZ/plain/T) and, with strace, the system
#     calls a schedule of that loop and of the test binary's bare run;
#  2. time to exposure of each bug switch (TTE=0 skips; SWITCHES=a,b
#     chooses): afl-fuzz with that switch on until its first crash, TTE_RUNS
#     runs (random seeds 1..TTE_RUNS) capped at TTE_CAP s each, (a) from the
#     shipped seeds of the switch's target minus every seed that already
#     exposes it (its reproducer among them) and (b) from one all-zero
#     seed; JOBS runs at a time (tools/bench-tte.sh);
#  3. `dmafuzz bench corpus/xfer` (plans/s, engine copy beside memcpy);
#  4. the start-up of a `dmafuzz run` process on one plan of each family
#     (`dmafuzz bench --startup`: CPU ms, median of 21, beside the same
#     binary doing nothing and `true`);
#  5. with BENCH_MEMCHECK=1, the wall time of tools/memcheck.sh.
# The table goes to OUT/bench.md (and stdout), the same numbers to
# OUT/bench.json (tools/bench-report.awk), both written atomically; the
# runs' files stay in OUT/work/.
#
# A bad number is reported, never an error. Exit: 0 the table is written,
# 2 the bench could not run (a missing binary or tool, a bad setting, an
# afl-fuzz or libFuzzer run that did not start: the table is still written,
# with the failed runs marked), 130 interrupted.
# Usage: bench.sh [-b FUZZ_BUILD] [-c DMAFUZZ] [-u CHECK_BIN] [-o OUT]
#        (env: BENCH_SECS, BENCH_PAIRS, TTE, TTE_CAP, TTE_RUNS, SWITCHES,
#         JOBS, BENCH_MEMCHECK)
set -u

fz=build/fuzz
cli=build/dmafuzz
unit=build/check_dmafuzz
out=out/bench
while getopts b:c:u:o: opt; do
	case $opt in
	b) fz=$OPTARG ;;
	c) cli=$OPTARG ;;
	u) unit=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n 's/^# Usage: //p' "$0" >&2; exit 2 ;;
	esac
done
secs=${BENCH_SECS:-15}
npairs=${BENCH_PAIRS:-4}
tte=${TTE:-1}
cap=${TTE_CAP:-60}
runs=${TTE_RUNS:-3}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
memcheck=${BENCH_MEMCHECK:-0}
switches=${SWITCHES:-}
# The switches of the core issue (issue 1): the ram-engine transfer bugs.
core=shared-handle,db-war,early-compute,edge-tile,req-escape
# One small plan of each family, whose process start-up is measured.
startup_plans="corpus/xfer/rank1-contig.plan corpus/host/basic.plan corpus/api/lifecycle.plan"
targets="xfer host api parse dropin dropin-mchan dropin-snrt"
work=$out/work
rec=$work/records
failed=0

say() { printf '%s\n' "$*" >&2; }
die() { say "bench: $*"; exit 2; }
now() { date +%s.%N; }
loadavg() { cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null || echo '?'; }

# Setting $1 must be a positive whole number ($2).
positive() {
	case $2 in
	'' | *[!0-9]* | 0) die "$1 must be a positive number, not '$2'" ;;
	esac
}
positive BENCH_SECS "$secs"
positive BENCH_PAIRS "$npairs"
positive TTE_CAP "$cap"
positive TTE_RUNS "$runs"
positive JOBS "$jobs"
case $tte in 0 | 1) ;; *) die "TTE must be 0 or 1, not '$tte'" ;; esac
case $memcheck in 0 | 1 | '') ;; *) die "BENCH_MEMCHECK must be 0 or 1, not '$memcheck'" ;; esac

# ------------------------------------------------------------- checks
command -v afl-fuzz >/dev/null 2>&1 || die "afl-fuzz not found (sh tools/deps.sh afl)"
[ -x "$cli" ] || die "$cli is missing (make)"
for t in $targets empty; do
	for f in afl libfuzzer; do
		[ -x "$fz/$f/$t" ] || die "$fz/$f/$t is missing (make bench-build)"
	done
	case $t in dropin*)
		for b in "$t" "$t-bare"; do
			[ -x "$fz/plain/$b" ] || die "$fz/plain/$b is missing (make bench-build)"
		done ;;
	esac
	[ "$t" = empty ] || [ -d "$fz/seeds/$t" ] ||
		die "$fz/seeds/$t is missing (make fuzz-seeds)"
done
if [ "$memcheck" = 1 ]; then
	[ -x "$unit" ] || die "$unit is missing (make $unit)"
	command -v valgrind >/dev/null 2>&1 || die "valgrind not found (make deps-memcheck)"
fi

# Every switch the targets know, from their own error line on a bad value.
known=$(DMAFUZZ_BUGS='?' "$fz/afl/xfer" < /dev/null 2>&1 |
	sed -n 's/.*(known: \(.*\), all)$/\1/p')
[ -n "$known" ] || die "$fz/afl/xfer did not list its bug switches"
if [ -n "$switches" ]; then
	for s in $(printf '%s' "$switches" | tr ',' ' '); do
		printf ' %s \n' "$known" | grep -q " $s " ||
			die "unknown switch '$s' in SWITCHES (known: $known)"
	done
	known=$(printf '%s' "$switches" | tr ',' ' ')
fi

rm -rf "$work"
mkdir -p "$work"
: > "$rec"
t_start=$(now)
pids=
# shellcheck disable=SC2317 # called by the trap
interrupted() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	say "bench: interrupted; partial runs in $work/"
	exit 130
}
trap interrupted INT TERM

# One record of tools/bench-report.awk: the arguments, tab-separated.
record() {
	{
		printf '%s' "$1"
		shift
		for a; do printf '\t%s' "$a"; done
		printf '\n'
	} >> "$rec"
}
record I date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
record I nproc "$(nproc 2>/dev/null || echo '?')"
record I load_start "$(loadavg)"
record I afl "afl-fuzz $(afl-fuzz -h 2>&1 | sed -n '1s/.*afl-fuzz\(++[^ ]*\).*/\1/p' |
	sed 's/\x1b\[[0-9;]*m//g')"
record I bench_secs "$secs"
record I bench_pairs "$npairs"
record I tte_cap "$cap"
record I tte_runs "$runs"
record I jobs "$jobs"

# The value of KEY in fuzzer_stats file $2, or "-".
stat_of() {
	v=$(sed -n "s/^$1 *: *//p" "$2" 2>/dev/null | head -n 1)
	printf '%s' "${v:--}"
}

# ----------------------------------------------------- 1. execs per second
# The first two CPUs this process may run on ("A B"), or nothing when it
# has one (or no taskset): an AFL++ pair pins each afl-fuzz, and so its
# target, to one of them, as afl-fuzz binds itself to a free CPU by
# default; the target and the empty target swap CPUs every pair, since
# the CPUs of a virtual machine need not be equally fast.
two_cpus() {
	command -v taskset > /dev/null 2>&1 || return 0
	taskset -pc $$ 2> /dev/null | sed 's/.*: *//' | tr ',' '\n' |
		awk -F- 'NF { for (c = $1; c <= (NF > 1 ? $2 : $1); c++) print c }' |
		head -n 2 | tr '\n' ' ' | awk 'NF == 2 { print $1, $2 }'
}
cpus=$(two_cpus)
record I afl_cpus "${cpus:-unpinned}"

# afl-fuzz on target $1 ($2: binary name) into $3, in the background;
# on CPU $4 when given.
afl_run() {
	dict=
	[ -f "fuzz/$1.dict" ] && dict="-x fuzz/$1.dict"
	pin=
	[ -n "${4:-}" ] && pin="taskset -c $4"
	# shellcheck disable=SC2086
	env -u DMAFUZZ_BUGS AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
	AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_FAST_CAL=1 AFL_FORKSRV_INIT_TMOUT=10000 \
		timeout $((secs + 60)) $pin afl-fuzz -i "$work/$1.in" -o "$3" $dict \
		-V "$secs" -s 1 -t 50 -- "$fz/afl/$2" > "$3.log" 2>&1 &
	pids="$pids $!"
}

# libFuzzer on target $1 ($2: binary name) into $3, in the background; its
# wall time in $3.secs.
lf_run() {
	dict=
	[ -f "fuzz/$1.dict" ] && dict=-dict=fuzz/$1.dict
	mkdir -p "$3/corpus"
	(
		t0=$(now)
		# shellcheck disable=SC2086
		env -u DMAFUZZ_BUGS timeout $((secs + 60)) "$fz/libfuzzer/$2" \
			-max_total_time="$secs" -seed=1 -timeout=30 -print_final_stats=1 \
			-artifact_prefix="$3/" $dict "$3/corpus" "$work/$1.in" \
			> "$3.log" 2>&1
		awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f\n", b - a }' > "$3.secs"
	) &
	pids="$pids $!"
}

# The execs and execs/s of run $2 of engine $1: "EXECS EPS".
execs_of() {
	if [ "$1" = afl ]; then
		s=$2/default/fuzzer_stats
		printf '%s %s' "$(stat_of execs_done "$s")" "$(stat_of execs_per_sec "$s")"
		return
	fi
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$2.log" | tail -n 1)
	w=$(cat "$2.secs" 2>/dev/null)
	if [ -n "$n" ] && [ -n "$w" ]; then
		printf '%s %s' "$n" "$(awk -v n="$n" -v w="$w" 'BEGIN { printf "%.2f", n / w }')"
	else
		printf -- '- -'
	fi
}

# Target $1 and the empty target side by side under engine $2, pair $3
# (its runs in $work/ENGINE-TARGET-BINARY, with -PAIR after the first).
execs_pair() {
	say "bench: execs/s: $1 beside empty under $2, ${secs} s (pair $3)"
	sfx=
	[ "$3" = 1 ] || sfx=-$3
	# odd pairs: the target on the first CPU; even ones: on the second
	tcpu='' ecpu=''
	if [ -n "$cpus" ]; then
		tcpu=${cpus% *} ecpu=${cpus#* }
		[ $(($3 % 2)) -eq 1 ] || { tcpu=${cpus#* } ecpu=${cpus% *}; }
	fi
	pids=
	for b in "$1" empty; do
		rm -rf "$work/$2-$1-$b$sfx"
		c=$tcpu
		[ "$b" = empty ] && c=$ecpu
		case $2 in
		afl) afl_run "$1" "$b" "$work/$2-$1-$b$sfx" "$c" ;;
		*) lf_run "$1" "$b" "$work/$2-$1-$b$sfx" ;;
		esac
	done
	# shellcheck disable=SC2086
	wait $pids
	pids=
	te=$(execs_of "$2" "$work/$2-$1-$1$sfx")
	ee=$(execs_of "$2" "$work/$2-$1-empty$sfx")
	stab=-
	[ "$2" = afl ] && stab=$(stat_of stability "$work/$2-$1-$1$sfx/default/fuzzer_stats" | tr -d '%')
	for b in "$1" empty; do
		case "$(execs_of "$2" "$work/$2-$1-$b$sfx")" in
		'- -' | *' -')
			# A finding stops libFuzzer: a number lost, not a failure.
			f=$(sed -n 's/.*Test unit written to \(.*\)/\1/p' "$work/$2-$1-$b$sfx.log")
			if [ -n "$f" ]; then
				say "bench: $2 on $b stopped on a finding, no execs/s: $f"
			else
				say "bench: $2 on $b did not run (see $work/$2-$1-$b$sfx.log)"
				failed=$((failed + 1))
			fi ;;
		esac
	done
	# shellcheck disable=SC2086 # "EXECS EPS" are two fields
	record E "$1" "$2" "$secs" $te $ee "$stab"
}

# The system calls of command "$@" (strace -f -c's total), or "-".
ncalls() {
	strace -f -c -o "$work/strace.out" "$@" > /dev/null 2>&1 || { printf -; return; }
	awk '$NF == "total" { n = $4 } END { printf "%s", n == "" ? "-" : n }' \
		"$work/strace.out"
}

# System calls a schedule: "$@ N+1" beside "$@ 1", over N; or "-".
per_sched() {
	a=$(ncalls "$@" 1)
	b=$(ncalls "$@" $((sched_n + 1)))
	awk -v a="$a" -v b="$b" -v n="$sched_n" \
		'BEGIN { if (a == "-" || b == "-") printf "-"; else printf "%.3f", (b - a) / n }'
}

# Drop-in target $1 in process, no fuzzer (docs/bench.md): schedules/s of
# its fuzz entry point over BENCH_SECS; with strace, the system calls a
# schedule of that loop and of the test binary's bare run.
sched_n=200
inproc() {
	say "bench: $1 in process, ${secs} s"
	r=$("$fz/plain/$1" "$secs" 2> "$work/inproc-$1.log")
	n=$(printf '%s' "$r" | awk '{ print $2 }')
	eps=$(printf '%s' "$r" | awk '{ print $6 }')
	if [ -z "$eps" ]; then
		say "bench: $1 did not run in process (see $work/inproc-$1.log)"
		failed=$((failed + 1))
		n=- eps=-
	fi
	sf=- sb=-
	if command -v strace > /dev/null 2>&1; then
		sf=$(per_sched "$fz/plain/$1" -n)
		sb=$(per_sched "$fz/plain/$1-bare" -o "$work/$1-bare.bin" -n)
	fi
	record X "$1" "$secs" "$n" "$eps" "$sf" "$sb"
}

# The quirks of target $1's runs: dropin-snrt, the fixed Snitch GEMM, is
# clean only with exact iDMA ids (docs/bench.md), so its runs get
# no-idma-id-at-push after the caller's DFZ_QUIRKS; the others run as set.
quirks0=${DFZ_QUIRKS-}
bench_quirks() {
	case $1 in
	dropin-snrt) DFZ_QUIRKS=${quirks0:+$quirks0,}no-idma-id-at-push ;;
	*) DFZ_QUIRKS=$quirks0 ;;
	esac
	export DFZ_QUIRKS
}

for t in $targets; do
	bench_quirks "$t"
	# The seeds that run clean: a seed that crashes the shipped code would
	# stop libFuzzer and afl-fuzz (and is `make fuzz`'s business).
	mkdir -p "$work/$t.in"
	for f in "$fz/seeds/$t"/*; do
		env -u DMAFUZZ_BUGS timeout 10 "$fz/afl/$t" < "$f" > /dev/null 2>&1 &&
			cp "$f" "$work/$t.in/"
	done
	[ -n "$(ls "$work/$t.in")" ] || head -c 64 /dev/zero > "$work/$t.in/zero"
	# AFL++'s ratio is the goal of issues 5 and 28 and moves a few
	# points from run to run on a shared machine: BENCH_PAIRS pairs,
	# pooled (tools/bench-report.awk).
	for engine in afl libfuzzer; do
		n=1
		[ "$engine" = afl ] && n=$npairs
		k=1
		while [ "$k" -le "$n" ]; do
			execs_pair "$t" "$engine" "$k"
			k=$((k + 1))
		done
	done
	case $t in dropin*) inproc "$t" ;; esac
done
bench_quirks -

# ------------------------------------------------- 2. time to exposure
# The family (the fuzz target) of switch $1, from its reproducer.
family_of() {
	[ -f "corpus/regress/$1.plan" ] || return 1
	"$cli" show "corpus/regress/$1.plan" 2>/dev/null | sed -n 's/^family //p'
}

# Does input $3 of target $1 crash with switch $2 on?
exposes() {
	! DMAFUZZ_BUGS=$2 timeout 10 "$fz/afl/$1" < "$3" > /dev/null 2>&1
}

# The inputs of switch $1 on target $2 from start $3 into $4 (seeds: the
# shipped ones minus the exposing ones; zero: 64 zero bytes); the runs to
# make go to $work/tte.jobs, or the runs' outcome straight to the records.
tte_prepare() {
	mkdir -p "$4"
	n=0
	x=0
	if [ "$3" = zero ]; then
		head -c 64 /dev/zero > "$4/zero"
		n=1
		if exposes "$2" "$1" "$4/zero"; then
			rm -f "$4/zero"
			n=0
			x=1
		fi
	else
		for f in "$fz/seeds/$2"/*; do
			if [ "$(basename "$f")" = "regress-$1.bin" ] || exposes "$2" "$1" "$f"; then
				x=$((x + 1))
			else
				cp "$f" "$4/"
				n=$((n + 1))
			fi
		done
	fi
	if [ "$n" -eq 0 ] && [ "$3" = zero ]; then
		record T "$1" "$2" "$3" 0 "$x" "$cap" 0 seed 0 0 0 - -
	elif [ "$n" -eq 0 ]; then
		record T "$1" "$2" "$3" 0 "$x" "$cap" 0 none - - - - -
	else
		r=1
		while [ "$r" -le "$runs" ]; do
			printf '%s %s %s %s %s %s %s\n' "$1" "$2" "$3" "$n" "$x" "$r" "$4" \
				>> "$work/tte.jobs"
			r=$((r + 1))
		done
	fi
}

tte_collect() {
	while read -r sw t start n x r _; do
		res=$(cat "$work/tte/$sw-$start-$r/result" 2>/dev/null)
		[ -n "$res" ] || res=$(printf 'failed\t-\t-\t-\t-\t-')
		case $res in failed*) failed=$((failed + 1))
			say "bench: afl-fuzz did not run for $sw ($start, run $r): $work/tte/$sw-$start-$r/log" ;;
		esac
		printf 'T\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$sw" "$t" "$start" "$n" "$x" \
			"$cap" "$r" "$res" >> "$rec"
	done < "$work/tte.jobs"
}

if [ "$tte" = 1 ]; then
	: > "$work/tte.jobs"
	for sw in $known; do
		if ! t=$(family_of "$sw") || [ -z "$t" ]; then
			say "bench: $sw has no reproducer corpus/regress/$sw.plan: no target to run"
			failed=$((failed + 1))
			continue
		fi
		[ -x "$fz/cmplog/$t" ] || die "$fz/cmplog/$t is missing (make bench-build)"
		for start in seeds zero; do
			tte_prepare "$sw" "$t" "$start" "$work/tte/$sw-$start.in"
		done
	done
	total=$(wc -l < "$work/tte.jobs")
	say "bench: time to exposure: $total afl-fuzz runs of up to ${cap} s, $jobs at a time"
	# xargs -P: each line one run of bench-tte.sh; the results in its dir.
	awk -v fz="$fz" -v w="$work/tte" -v cap="$cap" \
		'{ print fz, $2, $1, $7, w "/" $1 "-" $3 "-" $6, $6, cap }' "$work/tte.jobs" |
		xargs -P "$jobs" -L 1 sh tools/bench-tte.sh &
	pids=$!
	wait "$pids"
	pids=
	tte_collect
fi

# ------------------------------- 3. engine, 4. start-up and 5. memcheck
# The rows of a `dmafuzz bench` table $2 as records of kind $1.
rows() {
	sed -n -e '/^| measure |/d' -e "s/^| \(.*\) | \([^|]*\) |\$/$1\t\1\t\2/p" "$2" >> "$rec"
}
say "bench: dmafuzz bench corpus/xfer"
"$cli" bench corpus/xfer > "$work/engine.md" 2>&1 || die "dmafuzz bench failed: $(head -n 1 "$work/engine.md")"
rows P "$work/engine.md"

say "bench: start-up of dmafuzz run"
# shellcheck disable=SC2086 # a list of paths without blanks
"$cli" bench --startup $startup_plans > "$work/startup.md" 2>&1 ||
	die "dmafuzz bench --startup failed: $(tail -n 1 "$work/startup.md")"
rows S "$work/startup.md"

if [ "$memcheck" = 1 ]; then
	say "bench: memcheck"
	t0=$(now)
	if sh tools/memcheck.sh "$unit" "$cli" > "$work/memcheck.log" 2>&1; then
		st=passed
	else
		st="failed (see $work/memcheck.log)"
	fi
	record M "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')" "$st"
fi

# ------------------------------------------------------------- report
record I load_end "$(loadavg)"
record I wall_s "$(awk -v a="$t_start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')"
awk -v md="$out/bench.md.tmp" -v json="$out/bench.json.tmp" -v core="$core" \
	-f tools/bench-report.awk "$rec" || die "the report could not be written"
mv "$out/bench.json.tmp" "$out/bench.json"
mv "$out/bench.md.tmp" "$out/bench.md"
cat "$out/bench.md"
say "bench: table in $out/bench.md, numbers in $out/bench.json"
[ "$failed" -eq 0 ] || { say "bench: $failed run(s) did not run: see above"; exit 2; }
exit 0
