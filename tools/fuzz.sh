#!/bin/sh
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2016 # backquotes in single quotes are Markdown
# `make fuzz`: a short AFL++ campaign on every fuzz target in turn, then a
# replay of every crash and hang to classify it, and the report.
#
# Per target: the seeds are replayed first (a seed that already crashes is
# a finding, and is kept out of afl-fuzz's input); afl-fuzz then runs for
# DURATION seconds (persistent mode, the cmplog build, the target's
# dictionary) into OUT/<target>/, with a progress line (from its output
# directories and fuzzer_stats). Every crash and hang is copied into
# OUT/findings/<target>/ as soon as it is seen, before anything else
# touches it (once: a file with the same bytes is not kept twice), then
# replayed with the plain replay driver; its report is kept beside it
# (.txt), and for the plan targets the plan in the text form (.plan).
# Then `dmafuzz triage` (OUT/triage/) and `dmafuzz report` (OUT/summary.md,
# summary.json, findings.sarif, index.html), which reads the campaign's
# record OUT/campaign.txt (what ran, the switches, what failed) and the
# class lists OUT/work/<target>.classes: this script writes no summary.
#
# Bug switches come from DMAFUZZ_BUGS (as for the targets themselves).
# Exit: 0 nothing found, 1 a crash or a hang was found, 2 the campaign
# could not run (bad DMAFUZZ_BUGS, afl-fuzz failed), 130 interrupted.
#
# An input over the AFL++ time limit (-t, default 50 ms: a run takes about
# 1 ms) is a hang to AFL++; the replay decides: one that ends in its 10 s
# is only slow, and listed as such, not counted.
#
# Usage: fuzz.sh [-d SECONDS] [-s SEED] [-t MS] [-b FUZZ_BUILD]
#                [-r REPLAY_DIR] [-c DMAFUZZ] [-o OUT] TARGET...
set -u

duration=30
seed=1
timeout_ms=50
fz=build/fuzz
replay=build/fuzz/replay
cli=build/dmafuzz
out=out/fuzz
script=fuzz
# shellcheck source=tools/fuzz-lib.sh
. "$(dirname "$0")/fuzz-lib.sh"

while getopts d:s:t:b:r:c:o: opt; do
	case $opt in
	d) duration=$OPTARG ;;
	*) campaign_opt "$opt" "${OPTARG:-}" ||
		{ sed -n 's/^# Usage: //p' "$0" >&2; exit 2; } ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "fuzz: no target given" >&2; exit 2; }
case $duration in
'' | *[!0-9]*) echo "fuzz: DURATION must be a number of seconds, not '$duration'" >&2
	exit 2 ;;
esac

bugs=${DMAFUZZ_BUGS:-}
findings=$out/findings
work=$out/work
stamp=$(date +%Y%m%d-%H%M%S)
found=0           # findings of this run that count (crashes, real hangs)
failed=0          # targets whose campaign could not run
afl_pid=

# The progress line of target $1 (afl-fuzz output $2) at second $3: the
# corpus, the findings, execs and execs/s as `dmafuzz report --progress`
# says them (from the output directories and fuzzer_stats, which
# afl-fuzz 4.04c rewrites only once a minute without its UI; until then
# "~": as of the newest queue or crash file name).
progress() {
	pg_l=$("$cli" report --progress "$2" 2>/dev/null | sed -n "s/^$1: //p")
	printf 'fuzz %-5s %4ss/%ss  %s' "$1" "$3" "$duration" \
		"${pg_l:-corpus 0     crashes 0   hangs 0   execs -}"
}

# One campaign: afl-fuzz on target $1 in the background, polled for
# progress and findings every 2 s until it ends.
campaign() {
	t=$1
	dict=
	[ -f "fuzz/$t.dict" ] && dict="-x fuzz/$t.dict"
	# shellcheck disable=SC2086
	afl_exec -i "$work/$t.in" -o "$out/$t" $dict -c "$fz/cmplog/$t" \
		-V "$duration" -s "$seed" -t "$timeout_ms" -- "$fz/afl/$t" \
		> "$work/$t.log" 2>&1 &
	afl_pid=$!
	t0=$(date +%s)
	last=0
	line=
	while kill -0 "$afl_pid" 2>/dev/null; do
		sleep 2
		rescue "$t" "$out/$t" "$stamp" "$work/$t.seen" "$work/$t.found"
		reap_orphans "$out/$t"
		now=$(($(date +%s) - t0))
		if [ -t 2 ]; then
			printf '\r%s ' "$(progress "$t" "$out/$t" "$now")" >&2
		elif [ $((now - last)) -ge 10 ]; then
			line=$(progress "$t" "$out/$t" "$now")
			say "$line"
			last=$now
		fi
	done
	wait "$afl_pid"
	rc=$?
	afl_pid=
	rescue "$t" "$out/$t" "$stamp" "$work/$t.seen" "$work/$t.found"
	reap_orphans "$out/$t"
	[ -t 2 ] && printf '\r' >&2
	now=$(progress "$t" "$out/$t" "$(($(date +%s) - t0))")
	[ "$now" = "$line" ] || say "$now"
	if [ "$rc" -ne 0 ] || [ ! -f "$out/$t/default/fuzzer_stats" ]; then
		failure "$t" "afl-fuzz failed (exit $rc), log $work/$t.log"
		log_tail "$work/$t.log"
		return 1
	fi
	return 0
}

# Replay every finding of this run of target $1 into $work/$1.classes:
# lines of "CLASS<TAB>FILE".
classify_all() {
	found=$((found + $(classify_list "$1" "$work/$1.found" "$work/$1.classes")))
}

# The campaign's record, OUT/campaign.txt, for `dmafuzz report`.
write_record() {
	{
		record_common "$@"
		printf 'seconds : %s\n' "$duration"
	} > "$out/campaign.txt.part" && mv "$out/campaign.txt.part" "$out/campaign.txt"
}

# shellcheck disable=SC2317 # called by the trap
interrupted() {
	[ -n "$afl_pid" ] && kill "$afl_pid" 2>/dev/null && wait "$afl_pid"
	for t in "$@"; do rescue "$t" "$out/$t" "$stamp" "$work/$t.seen" "$work/$t.found"; done
	say "fuzz: interrupted; findings so far are in $findings/"
	exit 130
}
# shellcheck disable=SC2064
trap "interrupted $*" INT TERM

# ----------------------------------------------------------------- main
check_campaign "$fz" "$@" || exit 2

mkdir -p "$findings" "$work"
for t in "$@"; do
	mkdir -p "$findings/$t"
	# Findings an earlier run left behind (interrupted before its copy).
	rm -f "$work/$t.seen"
	[ -d "$out/$t" ] && rescue "$t" "$out/$t" "earlier" "$work/$t.seen" ""
	rm -rf "${out:?}/$t" "$work/$t.in" "$work/$t.log" "$work/$t.classes" \
		"$work/$t.seen" "$work/$t.found"
done
rm -f "$work/failures" "$out/campaign.txt" "$out/summary.md" "$out/summary.json"
rm -rf "$out/triage"
say "fuzz: ${duration}s per target on: $*; switches: ${bugs:-none}; output $out/"
for t in "$@"; do
	if ! preflight "$t" "$work/$t.in" "$work/$t.found" "$stamp" "$fz/seeds/$t"; then
		failure "$t" "every seed, even the empty input, crashes: no campaign"
		failed=$((failed + 1))
	elif ! campaign "$t"; then
		failed=$((failed + 1))
	fi
	[ -d "$out/$t/default/queue" ] &&
		coverage_over_time "$fz/afl/$t" "$out/$t/default" "$work"
	classify_all "$t"
done
write_record "$@"
if triage_and_report "$cli" "$out" "$out/triage" "$out"; then
	say "fuzz: summary in $out/summary.md"
	sed -n '/^| target | seconds/,/^$/p' "$out/summary.md" >&2
fi
conclude fuzz "$work" "$@"
