#!/bin/sh
# SPDX-License-Identifier: MIT
# One time-to-exposure run of `make bench` (tools/bench.sh runs JOBS of
# these at a time through xargs -P): afl-fuzz, configured as `make fuzz`
# runs it (the cmplog build, the target's dictionary, -t 50), on TARGET
# with the one bug switch SWITCH on, from the inputs in IN, with random
# seed SEED, until its first crash (AFL_BENCH_UNTIL_CRASH) or CAP seconds.
#
# The first crash is replayed on the plain AFL++ binary (its standard
# input mode): with the switch on for its class, with every switch off to
# tell whether the switch is what it exposes ("yes"), or a bug of the
# shipped code ("no").
#
# Writes OUT/result, one line of tab-separated fields:
#   found   MS AFL_MS EXECS CLASS SPECIFIC
#   capped  MS AFL_MS EXECS - -        (no crash in CAP seconds)
#   failed  RC - - - -                 (afl-fuzz did not run: OUT/log)
# MS: wall milliseconds from the launch of afl-fuzz to the first crash
# file (or to its end), start-up and the dry run over the inputs included;
# AFL_MS and EXECS: afl-fuzz's own count, from the crash file's name
# (time: starts after the dry run, execs: at the launch) or its stats.
# Exit: 0 with a result written, 2 bad arguments.
# Usage: bench-tte.sh FUZZ_BUILD TARGET SWITCH IN OUT SEED CAP
set -u
[ $# -eq 7 ] || { sed -n 's/^# Usage: //p' "$0" >&2; exit 2; }
fz=$1
t=$2
sw=$3
in=$4
out=$5
seed=$6
cap=$7
tab=$(printf '\t')

# The class of the crash in file $1: the verdict's CLASS, or the signal.
crash_class() {
	DMAFUZZ_BUGS=$sw timeout 10 "$fz/afl/$t" < "$1" > "$out/replay.txt" 2>&1
	rc=$?
	cls=$(sed -n 's/^CLASS: *//p' "$out/replay.txt" | head -n 1)
	if [ -n "$cls" ]; then
		printf '%s' "$cls"
	elif [ "$rc" -eq 124 ]; then
		printf 'hang'
	elif [ "$rc" -gt 128 ]; then
		printf 'crash(SIG%s)' "$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128)))"
	else
		printf 'not-reproduced'
	fi
}

# Milliseconds from $1 to $2 (seconds with fractions).
ms_between() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", (b - a) * 1000 }'
}

result() {
	printf '%s\n' "$*" | tr ' ' "$tab" > "$out/result.tmp" && mv "$out/result.tmp" "$out/result"
}

# shellcheck source=tools/fuzz-lib.sh
. "$(dirname "$0")/fuzz-lib.sh"    # reap_orphans: cmplog leaves stopped children
rm -rf "$out"
mkdir -p "$out"
dict=
[ -f "fuzz/$t.dict" ] && dict="-x fuzz/$t.dict"
# The guard (timeout) only ends an afl-fuzz that outlives -V by a minute.
t0=$(date +%s.%N)
# shellcheck disable=SC2086
AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
AFL_NO_AFFINITY=1 AFL_FAST_CAL=1 AFL_FORKSRV_INIT_TMOUT=10000 \
AFL_BENCH_UNTIL_CRASH=1 DMAFUZZ_BUGS=$sw \
	timeout $((cap + 60)) afl-fuzz -i "$in" -o "$out/afl" $dict \
	-c "$fz/cmplog/$t" -V "$cap" -s "$seed" -t 50 -- "$fz/afl/$t" \
	> "$out/log" 2>&1
rc=$?
t1=$(date +%s.%N)
reap_orphans "$out/afl"
stats=$out/afl/default/fuzzer_stats
if [ "$rc" -ne 0 ] || [ ! -f "$stats" ]; then
	result failed "$rc" - - - -
	exit 0
fi
first=$(find "$out/afl/default/crashes" -name 'id:*' 2>/dev/null | sort | head -n 1)
if [ -z "$first" ]; then
	execs=$(sed -n 's/^execs_done *: *//p' "$stats")
	rt=$(sed -n 's/^run_time *: *//p' "$stats")
	result capped "$(ms_between "$t0" "$t1")" "$((${rt:-0} * 1000))" "${execs:-0}" - -
	exit 0
fi
name=$(basename "$first")
ms=$(printf '%s\n' "$name" | sed -n 's/.*,time:\([0-9]*\).*/\1/p')
execs=$(printf '%s\n' "$name" | sed -n 's/.*,execs:\([0-9]*\).*/\1/p')
cls=$(crash_class "$first")
if env -u DMAFUZZ_BUGS timeout 10 "$fz/afl/$t" < "$first" > /dev/null 2>&1; then
	specific=yes
else
	specific=no
fi
result found "$(ms_between "$t0" "$(stat -c %.9Y "$first")")" "${ms:--}" "${execs:--}" \
	"$cls" "$specific"
exit 0
