#!/bin/sh
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2016 # backquotes in single quotes are Markdown
# `make fuzz`: a short AFL++ campaign on every fuzz target in turn, then a
# replay of every crash and hang to classify it, and OUT/summary.md.
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
while getopts d:s:t:b:r:c:o: opt; do
	case $opt in
	d) duration=$OPTARG ;;
	s) seed=$OPTARG ;;
	t) timeout_ms=$OPTARG ;;
	b) fz=$OPTARG ;;
	r) replay=$OPTARG ;;
	c) cli=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n 's/^# Usage: //p' "$0" >&2; exit 2 ;;
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

say() { printf '%s\n' "$*" >&2; }

# The value of KEY in an afl-fuzz fuzzer_stats file ($2), or $3.
stat_of() {
	v=$(sed -n "s/^$1 *: *//p" "$2" 2>/dev/null | head -n 1)
	printf '%s' "${v:-$3}"
}

# Keep file $2 of target $1 as finding $3 (a name under the target's
# findings) unless a finding with the same bytes is kept already; print
# the kept path. The index maps checksums to kept files.
keep() {
	idx=$findings/$1/.index
	sum=$(cksum < "$2")
	kept=$(awk -F '\t' -v s="$sum" '$1 == s { print $2; exit }' "$idx" 2>/dev/null)
	if [ -z "$kept" ] || [ ! -f "$kept" ]; then
		kept=$findings/$1/$3
		cp -p "$2" "$kept" && printf '%s\t%s\n' "$sum" "$kept" >> "$idx"
	fi
	printf '%s\n' "$kept"
}

# Keep each crash and hang of afl-fuzz output dir $2 (target $1) not seen
# yet, as KIND-TAG-ID ($3: the tag). With the tag of this run, the kept
# path joins this run's findings ($work/<target>.found).
rescue() {
	for kind in crashes hangs; do
		for f in "$2/default/$kind"/id:*; do
			[ -f "$f" ] || continue
			grep -qxF "$f" "$work/$1.seen" 2>/dev/null && continue
			printf '%s\n' "$f" >> "$work/$1.seen"
			id=$(basename "$f" | sed 's/^id:\([0-9]*\).*/\1/')
			case $kind in crashes) k=crash ;; *) k=hang ;; esac
			kept=$(keep "$1" "$f" "$k-$3-$id")
			[ "$3" = "$stamp" ] && printf '%s\n' "$kept" >> "$work/$1.found"
		done
	done
}

# The family byte that turns a bare stream of target $1 into a full one.
family_byte() {
	case $1 in
	xfer) printf '\000' ;;
	host) printf '\001' ;;
	api) printf '\002' ;;
	esac
}

# Replay finding $2 of target $1 once; its report goes to $2.txt, the
# class to stdout: an oracle class, "parse.roundtrip", "crash (SIGNAME)",
# "hang" (over 10 s), "slow" (a hang under AFL++ that ends) or "not
# reproduced" (a crash under AFL++ that runs clean).
classify() {
	DMAFUZZ_BUGS=$bugs timeout 10 "$replay/$1" "$2" > "$2.txt" 2>&1
	rc=$?
	if [ "$1" != parse ] && [ ! -e "$2.plan" ]; then
		{ family_byte "$1"; cat "$2"; } | "$cli" show - > "$2.plan" 2>/dev/null ||
			rm -f "$2.plan"
	fi
	cls=$(sed -n 's/^CLASS: *//p' "$2.txt" | head -n 1)
	if [ -n "$cls" ]; then
		echo "$cls"
	elif grep -q '^parse: ' "$2.txt"; then
		echo parse.roundtrip
	elif [ "$rc" -eq 124 ]; then
		echo hang
	elif [ "$rc" -gt 128 ]; then
		echo "crash (SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128))))"
	else
		case $(basename "$2") in
		hang-*) echo slow ;;
		*) echo "not reproduced" ;;
		esac
	fi
}

# Seeds of target $1 that run clean go to afl-fuzz's input $2; a seed
# that crashes (or hangs) is a finding in its own right.
preflight() {
	mkdir -p "$2"
	for f in "$fz/seeds/$1"/*; do
		[ -f "$f" ] || continue
		if DMAFUZZ_BUGS=$bugs timeout 10 "$replay/$1" "$f" >/dev/null 2>&1; then
			cp "$f" "$2/"
		else
			keep "$1" "$f" "seed-$stamp-$(basename "$f")" >> "$work/$1.found"
		fi
	done
	# afl-fuzz needs one input: the empty one is the simplest plan.
	if [ -z "$(ls "$2")" ]; then
		: > "$2/empty"
		DMAFUZZ_BUGS=$bugs timeout 10 "$replay/$1" "$2/empty" >/dev/null 2>&1 ||
			return 1
	fi
	return 0
}

# Files named id:* in directory $1.
count_ids() {
	find "$1" -maxdepth 1 -name 'id:*' 2>/dev/null | wc -l
}

# The progress line of target $1 (afl-fuzz output $2) at second $3: the
# corpus and the findings live from the output directories; execs and
# execs/s from fuzzer_stats, which afl-fuzz 4.04c rewrites only once a
# minute without its UI (and at the end).
progress() {
	st=$2/default/fuzzer_stats
	rt=$(stat_of run_time "$st" 0)
	ex=$(stat_of execs_done "$st" 0)
	execs="execs -"
	[ "$rt" -gt 0 ] 2>/dev/null && execs="execs $ex ($((ex / rt))/s) at ${rt}s"
	printf 'fuzz %-5s %4ss/%ss  corpus %-5s crashes %-3s hangs %-3s %s' \
		"$1" "$3" "$duration" "$(count_ids "$2/default/queue")" \
		"$(count_ids "$2/default/crashes")" "$(count_ids "$2/default/hangs")" \
		"$execs"
}

# One campaign: afl-fuzz on target $1 in the background, polled for
# progress and findings every 2 s until it ends.
campaign() {
	t=$1
	dict=
	[ -f "fuzz/$t.dict" ] && dict="-x fuzz/$t.dict"
	# shellcheck disable=SC2086
	AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
	AFL_NO_AFFINITY=1 AFL_FAST_CAL=1 AFL_FORKSRV_INIT_TMOUT=10000 DMAFUZZ_BUGS=$bugs \
		afl-fuzz -i "$work/$t.in" -o "$out/$t" $dict -c "$fz/cmplog/$t" \
		-V "$duration" -s "$seed" -t "$timeout_ms" -- "$fz/afl/$t" \
		> "$work/$t.log" 2>&1 &
	afl_pid=$!
	t0=$(date +%s)
	last=0
	line=
	while kill -0 "$afl_pid" 2>/dev/null; do
		sleep 2
		rescue "$t" "$out/$t" "$stamp"
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
	rescue "$t" "$out/$t" "$stamp"
	[ -t 2 ] && printf '\r' >&2
	now=$(progress "$t" "$out/$t" "$(($(date +%s) - t0))")
	[ "$now" = "$line" ] || say "$now"
	if [ "$rc" -ne 0 ] || [ ! -f "$out/$t/default/fuzzer_stats" ]; then
		say "fuzz: afl-fuzz on $t failed (exit $rc); its last words ($work/$t.log):"
		sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' "$work/$t.log" | tail -n 5 >&2
		return 1
	fi
	return 0
}

# Replay every finding of this run of target $1 into $work/$1.classes:
# lines of "CLASS<TAB>FILE".
classify_all() {
	: > "$work/$1.classes"
	[ -f "$work/$1.found" ] || return 0
	sort -u "$work/$1.found" | while read -r f; do
		printf '%s\t%s\n' "$(classify "$1" "$f")" "$f"
	done >> "$work/$1.classes"
	found=$((found + $(awk -F '\t' '$1 != "slow"' "$work/$1.classes" | wc -l)))
}

# How many findings of target $1 are crashes ($2 = crash), hangs that
# reproduce ($2 = hang) or only slow ($2 = slow).
count_kind() {
	awk -F '\t' -v want="$2" '{ n = split($2, p, "/");
		k = p[n] ~ /^hang-/ ? ($1 == "slow" ? "slow" : "hang") : "crash";
		if (k == want) c++ } END { print c + 0 }' "$work/$1.classes"
}

# The summary table row of target $1.
summary_target() {
	s=$out/$1/default/fuzzer_stats
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" \
		"$(stat_of run_time "$s" -)" "$(stat_of execs_done "$s" -)" \
		"$(stat_of execs_per_sec "$s" -)" "$(stat_of corpus_count "$s" -)" \
		"$(stat_of bitmap_cvg "$s" -)" "$(count_kind "$1" crash)" \
		"$(count_kind "$1" hang)" "$(count_kind "$1" slow)"
}

# The findings of target $1 by class: the count, then the smallest
# reproducers (at most 3).
findings_target() {
	[ -s "$work/$1.classes" ] || return 0
	printf '\n### %s\n\n' "$1"
	cut -f 1 "$work/$1.classes" | sort | uniq -c | sort -rn |
	while read -r n cls; do
		seeds=$(awk -F '\t' -v c="$cls" '$1 == c && $2 ~ /\/seed-[^\/]*$/' \
			"$work/$1.classes" | wc -l)
		printf -- '- **%s**: %s input(s), %s found by afl-fuzz, %s seed(s); smallest:\n' \
			"$cls" "$n" "$((n - seeds))" "$seeds"
		awk -F '\t' -v c="$cls" '$1 == c { print $2 }' "$work/$1.classes" |
		while read -r f; do
			printf '%s %s\n' "$(wc -c < "$f")" "$f"
		done | sort -n | head -n 3 | while read -r size f; do
			printf '  - `%s` (%s bytes; report `%s.txt`' "$f" "$size" "$f"
			[ -f "$f.plan" ] && printf ', plan `%s.plan`' "$f"
			printf ')\n'
		done
	done
	printf '\nReplay: `%s/%s FILE`' "$replay" "$1"
	[ "$1" != parse ] && printf ' or `%s run --family %s FILE`' "$cli" "$1"
	printf ' (with `DMAFUZZ_BUGS` / `--bug` as in the campaign).\n'
}

write_summary() {
	{
		printf '# dmafuzz fuzz summary\n\n'
		printf -- '- started: %s; %s s per target; afl-fuzz %s, seed %s\n' \
			"$stamp" "$duration" \
			"$(stat_of afl_version "$out/$1/default/fuzzer_stats" '?')" "$seed"
		printf -- '- bug switches (DMAFUZZ_BUGS): %s\n' "${bugs:-none}"
		if [ "$found" -gt 0 ]; then
			printf -- '- result: **%s finding(s)**%s\n' "$found" \
				"$([ -z "$bugs" ] && echo ' with every switch off: a bug in the shipped runtime')"
		else
			printf -- '- result: no crash, no hang\n'
		fi
		[ "$failed" -gt 0 ] && printf -- '- %s campaign(s) failed to run: see %s/*.log\n' \
			"$failed" "$work"
		printf '\n| target | seconds | execs | execs/s | corpus | coverage | crashes | hangs | slow |\n'
		printf '|---|---|---|---|---|---|---|---|---|\n'
		for t in "$@"; do summary_target "$t"; done
		printf '\n## Findings\n'
		[ "$found" -eq 0 ] && printf '\nNo crash and no hang.\n'
		for t in "$@"; do findings_target "$t"; done
		printf '\nSeed crashes are named `seed-*`; every finding of every run stays in `%s/`.\n' \
			"$findings"
	} > "$out/summary.md"
}

# shellcheck disable=SC2317 # called by the trap
interrupted() {
	[ -n "$afl_pid" ] && kill "$afl_pid" 2>/dev/null && wait "$afl_pid"
	for t in "$@"; do rescue "$t" "$out/$t" "$stamp"; done
	say "fuzz: interrupted; findings so far are in $findings/"
	exit 130
}
# shellcheck disable=SC2064
trap "interrupted $*" INT TERM

# ----------------------------------------------------------------- main
command -v afl-fuzz >/dev/null 2>&1 || { say "fuzz: afl-fuzz not found (sh tools/deps.sh afl)"; exit 2; }
for t in "$@"; do
	for b in "$fz/afl/$t" "$fz/cmplog/$t" "$replay/$t"; do
		[ -x "$b" ] || { say "fuzz: $b is missing (make fuzz-build)"; exit 2; }
	done
done
DMAFUZZ_BUGS=$bugs "$replay/$1" || exit 2   # a bad DMAFUZZ_BUGS: one line, exit 2

mkdir -p "$findings" "$work"
for t in "$@"; do
	mkdir -p "$findings/$t"
	# Findings an earlier run left behind (interrupted before its copy).
	rm -f "$work/$t.seen"
	[ -d "$out/$t" ] && rescue "$t" "$out/$t" "earlier"
	rm -rf "${out:?}/$t" "$work/$t.in" "$work/$t.log" "$work/$t.classes" \
		"$work/$t.seen" "$work/$t.found"
done
say "fuzz: ${duration}s per target on: $*; switches: ${bugs:-none}; output $out/"
for t in "$@"; do
	if ! preflight "$t" "$work/$t.in"; then
		say "fuzz: $t: every seed, even the empty input, crashes: no campaign"
		failed=$((failed + 1))
	elif ! campaign "$t"; then
		failed=$((failed + 1))
	fi
	classify_all "$t"
done
write_summary "$@"
say "fuzz: summary in $out/summary.md"
sed -n '/^| target/,/^$/p' "$out/summary.md" >&2
if [ "$found" -gt 0 ]; then
	say "fuzz: FOUND $found crash(es)/hang(s):"
	for t in "$@"; do
		cut -f 1 "$work/$t.classes" | sort | uniq -c |
			while read -r n cls; do say "  $t: $cls x$n"; done
	done
	exit 1
fi
[ "$failed" -eq 0 ] || exit 2
exit 0
