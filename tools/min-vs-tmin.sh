#!/bin/sh
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2016 # backquotes in single quotes are Markdown
# `dmafuzz min` beside `afl-tmin` on the same fuzzer-found crash, per bug
# switch, as a Markdown table on stdout.
#
# Per switch: the family comes from its reproducer corpus/regress/S.plan;
# the crash is OUT/crashes/S (kept from an earlier run, or put there by
# hand: an AFL++ crash file of that family's target), else it is found by
# afl-fuzz on the family's target with DMAFUZZ_BUGS=S, from the seeds that
# run clean with S (AFL_BENCH_UNTIL_CRASH=1, at most -f SECONDS, seed 1):
# the first crash afl-fuzz saves, which a seed never is. Then
#   dmafuzz min --family F --bug S CRASH          (the bare stream it keeps)
#   afl-tmin -i CRASH -o OUT -- FUZZ/afl/F        (with DMAFUZZ_BUGS=S)
# afl-tmin runs with DMAFUZZ_ONLY set to the crash's class, so that it too
# keeps only inputs that show the same bug (without it, afl-tmin keeps any
# crash and may drift to another class: edge-tile's data.mismatch becomes a
# shorter mem.redzone, a different finding).
# each timed, and both results replayed with `dmafuzz run` for their class.
# Sizes are bytes of the bare choice stream (what the target reads); the
# hand-written reproducer's is `dmafuzz encode --bare` of its text plan;
# "lines" are the lines of the plan in the text form (`dmafuzz show`).
#
# Exit: 0 when every switch has a crash and its `min` result is no larger
# than the hand-written reproducer and smaller than afl-tmin's, 1 when one
# is not, 2 when the comparison could not run.
#
# Usage: min-vs-tmin.sh [-c DMAFUZZ] [-b FUZZ_BUILD] [-f SECONDS] [-o OUT]
#                       [SWITCH...]
set -u

cli=build/dmafuzz
fz=build/fuzz
fuzz_secs=120
out=out/min-vs-tmin
while getopts c:b:f:o: opt; do
	case $opt in
	c) cli=$OPTARG ;;
	b) fz=$OPTARG ;;
	f) fuzz_secs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n 's/^# Usage: //p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

say() { printf '%s\n' "$*" >&2; }

for tool in afl-fuzz afl-tmin; do
	command -v $tool >/dev/null 2>&1 ||
		{ say "min-vs-tmin: $tool not found (sh tools/deps.sh afl)"; exit 2; }
done
[ -x "$cli" ] || { say "min-vs-tmin: no $cli (make)"; exit 2; }
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046 # switch names are single words
	set -- $(for f in corpus/regress/*.plan; do basename "$f" .plan; done)
fi
mkdir -p "$out/crashes" "$out/work" || exit 2

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
size() { wc -c < "$1" | tr -d ' '; }

# The class of bare stream $3 of family $2 with switch $1 ("clean" when
# none), and the transfers (xfer) or calls its run issued: "class xfers".
class_of() {
	j=$("$cli" run --json --bug "$1" --family "$2" "$3")
	c=$(printf '%s' "$j" | sed -n 's/.*"class":"\([^"]*\)".*/\1/p')
	x=$(printf '%s' "$j" | sed -n 's/.*"xfers":\([0-9]*\).*/\1/p')
	printf '%s %s' "${c:-clean}" "${x:-?}"
}

# True when file $1 is shortlex-smaller than file $2: shorter, or as long
# and bytewise smaller (cmp -l prints octal bytes, which order as numbers).
shortlex_less() {
	a=$(size "$1") b=$(size "$2")
	[ "$a" -ne "$b" ] && { [ "$a" -lt "$b" ]; return; }
	cmp -l "$1" "$2" 2>/dev/null | head -n 1 | awk '{ exit !($2 < $3) }'
}

# Lines of the text form of bare stream $2 of family $1 (comments out):
# `show` reads a full stream, so the family draw goes in front (one byte:
# xfer 0, host 1, api 2).
lines_of() {
	full=$out/work/lines.bin
	case $1 in
	xfer) printf '\000' ;;
	host) printf '\001' ;;
	api) printf '\002' ;;
	esac > "$full"
	cat "$2" >> "$full"
	"$cli" show "$full" | grep -vc '^#'
}

# Find a crash of switch $1 on target $2 with afl-fuzz into $3.
find_crash() {
	sw=$1 t=$2 dst=$3
	in=$out/work/$sw.in afl_out=$out/work/$sw.afl
	rm -rf "$in" "$afl_out"
	mkdir -p "$in"
	for f in "$fz/seeds/$t"/*; do
		[ -f "$f" ] || continue
		"$cli" run --quiet --bug "$sw" --family "$t" "$f" >/dev/null 2>&1 &&
			cp "$f" "$in/"
	done
	[ -n "$(ls "$in")" ] || : > "$in/empty"
	say "min-vs-tmin: $sw: afl-fuzz on $t (at most ${fuzz_secs}s, $(find "$in" -type f | wc -l) clean seeds)"
	AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
	AFL_NO_AFFINITY=1 AFL_FAST_CAL=1 AFL_BENCH_UNTIL_CRASH=1 \
	AFL_FORKSRV_INIT_TMOUT=10000 DMAFUZZ_BUGS=$sw \
		afl-fuzz -i "$in" -o "$afl_out" -x "fuzz/$t.dict" -V "$fuzz_secs" \
		-s 1 -t 50 -- "$fz/afl/$t" > "$out/work/$sw.afl.log" 2>&1
	first=$(find "$afl_out/default/crashes" -name 'id:*' 2>/dev/null | sort | head -n 1)
	[ -n "$first" ] || return 1
	cp "$first" "$dst"
}

printf '| switch | family | crash bytes | crash class | min bytes | min lines | min xfers | min s | min runs | afl-tmin bytes | afl-tmin lines | afl-tmin xfers | afl-tmin s | afl-tmin class | hand-written bytes | min < tmin |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
fail=0
for sw in "$@"; do
	plan=corpus/regress/$sw.plan
	[ -f "$plan" ] || { say "min-vs-tmin: no reproducer $plan"; fail=1; continue; }
	fam=$("$cli" show "$plan" | sed -n 's/^family //p')
	crash=$out/crashes/$sw
	if [ ! -f "$crash" ] && ! find_crash "$sw" "$fam" "$crash"; then
		say "min-vs-tmin: $sw: afl-fuzz found no crash in ${fuzz_secs}s"
		printf '| %s | %s | no crash found | | | | | | | | | | |\n' "$sw" "$fam"
		fail=1
		continue
	fi
	r=$(class_of "$sw" "$fam" "$crash")
	cls=${r% *}
	hand=$("$cli" encode --bare "$plan" | wc -c | tr -d ' ')

	mn=$out/work/$sw.min
	t0=$(now)
	json=$("$cli" min --json --family "$fam" --bug "$sw" --bin "$mn" "$crash")
	rc=$?
	t1=$(now)
	[ $rc -eq 0 ] || { say "min-vs-tmin: $sw: dmafuzz min exit $rc"; fail=1; continue; }
	runs=$(printf '%s' "$json" | sed -n 's/.*"runs":\([0-9]*\).*/\1/p')

	tm=$out/work/$sw.tmin
	rm -f "$tm"
	t2=$(now)
	DMAFUZZ_BUGS=$sw DMAFUZZ_ONLY=$cls AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 \
		afl-tmin -i "$crash" -o "$tm" -t 1000 -- "$fz/afl/$fam" \
		> "$out/work/$sw.tmin.log" 2>&1
	t3=$(now)
	if [ ! -f "$tm" ]; then
		say "min-vs-tmin: $sw: afl-tmin failed (see $out/work/$sw.tmin.log)"
		fail=1
		continue
	fi
	r=$(class_of "$sw" "$fam" "$mn")
	mxf=${r#* }
	r=$(class_of "$sw" "$fam" "$tm")
	tcls=${r% *} txf=${r#* }
	less=no
	shortlex_less "$mn" "$tm" && less=yes
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
		"$sw" "$fam" "$(size "$crash")" "$cls" "$(size "$mn")" \
		"$(lines_of "$fam" "$mn")" "$mxf" "$(elapsed "$t0" "$t1")" "$runs" \
		"$(size "$tm")" "$(lines_of "$fam" "$tm")" "$txf" \
		"$(elapsed "$t2" "$t3")" "$tcls" "$hand" "$less"
	[ "$(size "$mn")" -le "$hand" ] && [ "$less" = yes ] || fail=1
done
exit $fail
