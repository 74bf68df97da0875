#!/bin/sh
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2016,SC2034,SC2317
# (SC2016: backquotes in single quotes are Markdown; SC2034: fuzz-lib.sh
# reads replay and cli; SC2317: functions called by traps)
# `make nightly`: a long AFL++ campaign, every target at once, JOBS
# parallel afl-fuzz instances per target, then corpus minimization, a
# replay of every crash and hang, and a report (Markdown and JSON).
#
# Per target, the instances share one afl-fuzz output directory
# (OUT/afl/NIGHT/<target>/): `main` (-M) and s1, s2, ... (-S); instance 1
# (the main one when JOBS=1) runs the cmplog build (-c); each instance
# has its own power schedule (-p fast, explore, coe, lin, quad, exploit,
# rare, mmopt, seek, in turn) and random seed (SEED + instance, + 1000
# for each earlier run of the night). Their input is the shipped
# seeds (build/fuzz/seeds/<target>, encoded from the text corpus) and the
# corpus the last night kept (OUT/corpus/<target>/), each replayed first:
# one that crashes now is a finding (a regression), and stays out.
#
# NIGHT (default: today, YYYYMMDD) names the run: a second run of the same
# night resumes its afl-fuzz instances where they stopped (AFL_AUTORESUME:
# the queue is kept, a resumed instance files its old crashes under
# crashes.DATE), a new night starts from the seeds and the kept corpus.
#
# Every crash and hang is copied into OUT/findings/<target>/ as soon as it
# is seen (polled every 5 s), before anything else touches it: copied,
# never moved, under a name no other file has, once by content. Crashes a
# killed run left behind in any night's directory are copied first. After
# the fuzzing, afl-cmin minimizes the queues of every instance together
# with the inputs into the new OUT/corpus/<target>/ (replaced only when
# afl-cmin succeeds), and each finding of the night is replayed with the
# replay driver (its report beside it, .txt, and the plan, .plan).
# The report: `dmafuzz triage` and `dmafuzz report` of OUT/afl/NIGHT into
# OUT/reports/NIGHT/ (summary.{md,json}, findings.sarif, index.html;
# summary.{md,json} copied to OUT/); the report reads the night's record
# OUT/afl/NIGHT/campaign.txt (what ran, the switches, the run of the
# night, afl-cmin's counts, what failed) and the class lists in
# OUT/work/NIGHT/: this script writes no summary of its own.
#
# Bug switches come from DMAFUZZ_BUGS. Exit: 0 nothing found, 1 a crash
# or a hang was found, 2 the campaign could not run (afl-fuzz, flock or a
# build missing, a bad DMAFUZZ_BUGS, afl-fuzz failed), 64 a bad argument
# (HOURS, MINUTES, SECONDS, JOBS, a target, ...), 75 OUT is in use:
# another nightly runs on it, or an afl-fuzz (or any process) a killed
# nightly started still runs there (one line naming them; see lock()),
# 130 interrupted (resume with the same NIGHT).
#
# Usage: nightly.sh [-C] [-H HOURS] [-M MINUTES] [-S SECONDS] [-j JOBS]
#                   [-n NIGHT] [-s SEED] [-t MS] [-b FUZZ_BUILD]
#                   [-r REPLAY_DIR] [-c DMAFUZZ] [-o OUT] TARGET...
#        -C: check the arguments only. The time is HOURS + MINUTES +
#        SECONDS (fractions allowed; 8 hours when none is given).
set -u

usage_exit() {
	printf 'nightly: %s\n' "$1" >&2
	exit 64
}

hours='' minutes='' seconds='' jobs='' night='' seed=1 timeout_ms=100 check_only=0
fz=build/fuzz
replay=build/fuzz/replay
cli=build/dmafuzz
out=out/nightly
script=nightly
# shellcheck source=tools/fuzz-lib.sh
. "$(dirname "$0")/fuzz-lib.sh"

while getopts CH:M:S:j:n:s:t:b:r:c:o: opt; do
	case $opt in
	C) check_only=1 ;;
	H) hours=$OPTARG ;;
	M) minutes=$OPTARG ;;
	S) seconds=$OPTARG ;;
	j) jobs=$OPTARG ;;
	n) night=$OPTARG ;;
	*) campaign_opt "$opt" "${OPTARG:-}" ||
		usage_exit "usage: $(sed -n 's/^# Usage: nightly.sh //p' "$0")" ;;
	esac
done
shift $((OPTIND - 1))

# ------------------------------------------------------------ arguments
# $1: a name (HOURS), $2: its value: a number, fractions allowed.
is_amount() {
	printf '%s\n' "$2" | grep -Eq '^([0-9]+|[0-9]*\.[0-9]+)$' ||
		usage_exit "$1 must be a number (fractions allowed), not '$2'"
}
for v in "HOURS:$hours" "MINUTES:$minutes" "SECONDS:$seconds"; do
	[ -n "${v#*:}" ] && is_amount "${v%%:*}" "${v#*:}"
done
[ -z "$hours$minutes$seconds" ] && hours=8
duration=$(awk -v h="${hours:-0}" -v m="${minutes:-0}" -v s="${seconds:-0}" \
	'BEGIN { printf "%d", h * 3600 + m * 60 + s + 0.5 }')
[ "$duration" -ge 1 ] ||
	usage_exit "the run time (HOURS/MINUTES/SECONDS) must be at least 1 second"
[ "$duration" -le 604800 ] ||
	usage_exit "the run time (HOURS/MINUTES/SECONDS) must be at most a week"
[ $# -gt 0 ] || usage_exit "no target given (TARGETS: xfer host api parse)"
for t in "$@"; do
	case $t in
	xfer | host | api | parse) ;;
	*) usage_exit "unknown target '$t' (TARGETS: xfer host api parse)" ;;
	esac
done
if [ -z "$jobs" ]; then
	jobs=$(($(nproc 2>/dev/null || echo 1) / $#))
	[ "$jobs" -ge 1 ] || jobs=1
fi
case $jobs in
'' | *[!0-9]* | 0*) usage_exit "JOBS must be a whole number from 1 to 64, not '$jobs'" ;;
esac
[ "$jobs" -le 64 ] || usage_exit "JOBS must be a whole number from 1 to 64, not '$jobs'"
[ -n "$night" ] || night=$(date +%Y%m%d)
printf '%s\n' "$night" | grep -Eq '^[A-Za-z0-9][A-Za-z0-9._-]*$' ||
	usage_exit "NIGHT must be letters, digits, '.', '_' or '-', not '$night'"
case $seed in '' | *[!0-9]*) usage_exit "SEED must be a whole number, not '$seed'" ;; esac
case $timeout_ms in
'' | *[!0-9]* | 0*) usage_exit "the time limit must be a whole number of ms, not '$timeout_ms'" ;;
esac
[ "$check_only" -eq 1 ] && exit 0

bugs=${DMAFUZZ_BUGS:-}
findings=$out/findings
afl=$out/afl/$night
work=$out/work/$night
report=$out/reports/$night
corpus=$out/corpus
stamp=$(date +%Y%m%d-%H%M%S)
schedules="fast explore coe lin quad exploit rare mmopt seek"
pids=             # "target:instance:pid" of the running afl-fuzz
found=0           # findings of this night that count (crashes, real hangs)
failed=0          # instances that could not run
locked=

# ------------------------------------------------------------ instances
# The name of instance $1 (0-based): main, s1, s2, ...
inst_name() {
	if [ "$1" -eq 0 ]; then echo main; else echo "s$1"; fi
}

# The power schedule of instance $1.
inst_schedule() {
	echo "$schedules" | awk -v i="$1" '{ print $((i % NF) + 1) }'
}

# Whether instance $1 runs the cmplog build: one per target.
inst_cmplog() {
	[ "$1" -eq 1 ] || { [ "$1" -eq 0 ] && [ "$jobs" -eq 1 ]; }
}

# Start instance $2 (0-based) of target $1 in the background.
start_instance() {
	name=$(inst_name "$2")
	role="-S $name"
	[ "$2" -eq 0 ] && role="-M $name"
	extra=
	[ -f "fuzz/$1.dict" ] && extra="-x fuzz/$1.dict"
	inst_cmplog "$2" && extra="$extra -c $fz/cmplog/$1"
	# shellcheck disable=SC2086
	afl_exec -i "$work/$1.in" -o "$afl/$1" $role $extra \
		-p "$(inst_schedule "$2")" -V "$duration" -s $((seed + $2 + 1000 * (run - 1))) \
		-t "$timeout_ms" -- "$fz/afl/$1" > "$work/$1.$name.log" 2>&1 &
	pids="$pids $1:$name:$!"
}

# Copy the crashes and hangs of target $1 of this night.
rescue_night() {
	rescue "$1" "$afl/$1" "$stamp" "$work/$1.seen" "$work/$1.found"
}

# How many afl-fuzz instances still run.
running() {
	n=0
	for p in $pids; do
		kill -0 "${p##*:}" 2>/dev/null && n=$((n + 1))
	done
	echo "$n"
}

# The progress line of target $1 at second $2: the corpus (the main
# instance's), the findings, execs and execs/s (over every instance) as
# `dmafuzz report --progress` says them; afl-fuzz rewrites fuzzer_stats
# about once a minute without its UI.
progress() {
	pg_l=$("$cli" report --progress "$afl/$1" 2>/dev/null | sed -n "s/^$1: //p")
	printf 'nightly %-5s %6ss/%ss  %s' "$1" "$2" "$duration" \
		"${pg_l:-corpus 0     crashes 0   hangs 0   execs -}"
}

# ------------------------------------------------------------ corpus
# Minimize the inputs and the queues of every instance of target $1 into
# $corpus/<target>/ (replaced only when afl-cmin succeeds). Prints the
# number of inputs and of kept files, or "failed".
minimize() {
	m=$work/$1.cmin
	rm -rf "$m.in" "$m.out"
	mkdir -p "$m.in"
	cp "$work/$1.in"/* "$m.in/" 2>/dev/null
	for q in "$afl/$1"/*/queue; do
		[ -d "$q" ] || continue
		i=$(basename "$(dirname "$q")")
		for f in "$q"/id:*; do
			[ -f "$f" ] || continue
			id=$(basename "$f" | sed 's/^id:\([0-9]*\).*/\1/')
			cp "$f" "$m.in/$night-$i-$id"
		done
	done
	n_in=$(find "$m.in" -type f | wc -l)
	if AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_FORKSRV_INIT_TMOUT=10000 \
		DMAFUZZ_BUGS=$bugs afl-cmin -i "$m.in" -o "$m.out" -t 10000 \
		-- "$fz/afl/$1" > "$m.log" 2>&1 &&
		[ -n "$(ls "$m.out" 2>/dev/null)" ]; then
		rm -rf "$corpus/$1.old"
		[ -d "$corpus/$1" ] && mv "$corpus/$1" "$corpus/$1.old"
		mv "$m.out" "$corpus/$1" && rm -rf "$corpus/$1.old" "$m.in"
		echo "$n_in $(find "$corpus/$1" -type f | wc -l)"
	else
		say "nightly: afl-cmin on $1 failed; the corpus of the last night stays ($m.log)"
		log_tail "$m.log"
		echo "$n_in failed"
	fi
}

# ------------------------------------------------------------ report
# The night's record, OUT/afl/NIGHT/campaign.txt, for `dmafuzz report`.
# $1: interrupted (true, false).
write_record() {
	{
		# shellcheck disable=SC2086 # the targets, a list
		record_common $targets
		printf '%s : %s\n' seconds "$duration" night "$night" \
			run "$(wc -l < "$work/runs")" jobs "$jobs" corpus "$corpus" \
			interrupted "$([ "$1" = true ] && echo yes || echo no)"
		for t in $targets; do
			if [ -s "$work/$t.cmin.result" ]; then
				printf 'cmin.%s : %s\n' "$t" "$(cat "$work/$t.cmin.result")"
			fi
		done
	} > "$afl/campaign.txt.part" && mv "$afl/campaign.txt.part" "$afl/campaign.txt"
}

# Replay the findings, then the record and the report ($1: interrupted;
# an interrupted night is not triaged, an earlier triage of the night is
# kept), and its summaries copied to the top of OUT. Return 1 when there
# is no report.
write_reports() {
	for t in $targets; do
		found=$((found + $(classify_list "$t" "$work/$t.found" "$work/$t.classes")))
	done
	write_record "$1"
	wr_tri=$report/triage
	[ "$1" = true ] && wr_tri=
	rm -f "$report/summary.md" "$report/summary.json"
	triage_and_report "$cli" "$afl" "$wr_tri" "$report" || return 1
	for f in summary.md summary.json; do
		cp "$report/$f" "$out/$f.part" && mv "$out/$f.part" "$out/$f"
	done
}

# ------------------------------------------------------------ signals
stop_all() {
	for p in $pids; do kill -TERM "${p##*:}" 2>/dev/null; done
	for p in $pids; do wait "${p##*:}" 2>/dev/null; done
}

interrupted() {
	trap '' INT TERM
	stop_all
	for t in $targets; do
		rescue_night "$t"
		reap_orphans "$afl/$t"
	done
	say "nightly: interrupted; findings so far are in $findings/"
	write_reports true && say "nightly: report in $report/summary.md"
	say "nightly: resume with NIGHT=$night"
	unlock
	exit 130
}

# ----------------------------------------------------------------- main
targets=$*
check_campaign "$fz" "$@" || exit 2
command -v afl-cmin >/dev/null 2>&1 || { say "nightly: afl-cmin not found (sh tools/deps.sh afl)"; exit 2; }
command -v flock >/dev/null 2>&1 || { say "nightly: flock not found (util-linux)"; exit 2; }
lock
trap interrupted INT TERM
trap unlock EXIT
mkdir -p "$findings" "$work" "$report" "$corpus" "$afl"
echo "$stamp" >> "$work/runs"
run=$(wc -l < "$work/runs")
rm -f "$work/failures"

for t in "$@"; do
	mkdir -p "$findings/$t"
	# A kept corpus half replaced (killed between the two renames).
	[ ! -d "$corpus/$t" ] && [ -d "$corpus/$t.old" ] && mv "$corpus/$t.old" "$corpus/$t"
	# Crashes a killed run left in any night's afl-fuzz output.
	for d in "$out"/afl/*/"$t"; do
		[ -d "$d" ] || continue
		n=$(basename "$(dirname "$d")")
		if [ "$n" = "$night" ]; then
			rescue_night "$t"
		else
			mkdir -p "$out/work/$n"
			rescue "$t" "$d" "$n" "$out/work/$n/$t.seen" ""
		fi
	done
done

if [ -f "$afl/$1/main/fuzzer_stats" ]; then
	say "nightly: resuming night $night"
fi
say "nightly: night $night, ${duration}s, $jobs instance(s) per target on: $*;" \
	"switches: ${bugs:-none}; output $out/"
export AFL_AUTORESUME=1
for t in "$@"; do
	reap_orphans "$afl/$t"
	rm -rf "$work/$t.in" "$work/$t.cmin.result"
	if ! preflight "$t" "$work/$t.in" "$work/$t.found" "$stamp" "$fz/seeds/$t" "$corpus/$t"; then
		failure "$t" "every input, even the empty one, crashes: no campaign"
		failed=$((failed + jobs))
		continue
	fi
	i=0
	while [ "$i" -lt "$jobs" ]; do
		start_instance "$t" "$i"
		i=$((i + 1))
	done
done

t0=$(date +%s)
last=0
every=10
[ "$duration" -gt 600 ] && every=300
while [ "$(running)" -gt 0 ]; do
	sleep 5 9>&-
	for t in "$@"; do
		rescue_night "$t"
		reap_orphans "$afl/$t"
	done
	now=$(($(date +%s) - t0))
	if [ $((now - last)) -ge "$every" ]; then
		for t in "$@"; do say "$(progress "$t" "$now")"; done
		last=$now
	fi
done
for p in $pids; do
	wait "${p##*:}"
	rc=$?
	t=${p%%:*} name=${p#*:} name=${name%%:*}
	if [ "$rc" -ne 0 ] || [ ! -f "$afl/$t/$name/fuzzer_stats" ]; then
		failure "$t/$name" "afl-fuzz failed (exit $rc), log $work/$t.$name.log"
		log_tail "$work/$t.$name.log"
		failed=$((failed + 1))
	fi
done
now=$(($(date +%s) - t0))
for t in "$@"; do
	rescue_night "$t"
	reap_orphans "$afl/$t"
	say "$(progress "$t" "$now")"
done
for t in "$@"; do
	# A night under a minute has one plot_data row per instance: the
	# report's coverage over time comes from afl-showmap of the queue.
	for d in "$afl/$t"/*/; do
		[ -d "$d/queue" ] && [ "$(wc -l < "$d/plot_data" 2>/dev/null || echo 0)" -lt 3 ] &&
			coverage_over_time "$fz/afl/$t" "${d%/}" "$work"
	done
	[ -d "$afl/$t/main/queue" ] || continue
	say "nightly: minimizing the corpus of $t (afl-cmin)"
	minimize "$t" > "$work/$t.cmin.result"
done
if write_reports false; then
	say "nightly: summary in $report/summary.md and summary.json"
	sed -n '/^| target | instances/,/^$/p' "$report/summary.md" >&2
fi
conclude nightly "$work" "$@"
