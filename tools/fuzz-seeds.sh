#!/bin/sh
# SPDX-License-Identifier: MIT
# Seed corpora of the fuzz targets, generated from the text plans (the
# source of truth; no binary seed is committed). The family targets get the
# bare choice stream (`dmafuzz encode --bare`) of every plan of their
# family in corpus/<family>/ and of the matching corpus/regress/
# reproducers; the parse target gets the text files themselves.
#
# The bare seeds of each family must replay (`run --family`) exactly as
# their text plans do. A seed whose run is a finding (a bug verdict, such
# as `crash`, or the run killed by a signal) fails the runtime, not the
# seed build: it is said (the seed, its plan, the class and message or
# the signal), listed in OUTDIR/findings.txt (SEED<TAB>PLAN<TAB>WHAT), and
# stays a seed, so that the campaign replays it first and keeps it as a
# `seed-*` finding of its report (tools/fuzz.sh). The build fails (exit
# 1) when a seed decodes to another plan than its text (`dmafuzz show`
# differs), or replays otherwise with no finding on either side.
# Usage: fuzz-seeds.sh path/to/dmafuzz OUTDIR
set -eu
cli=$1
out=$2
# shellcheck source=tools/fuzz-lib.sh
. "$(dirname "$0")/fuzz-lib.sh"

# `dmafuzz run --json` with the given arguments into file $1, and a last
# line "killed by SIGNAME" when the process died of a signal.
run_json() {
	rj_f=$1
	shift
	rj_rc=0
	"$cli" run --json "$@" > "$rj_f" || rj_rc=$?
	if [ "$rj_rc" -gt 128 ]; then
		echo "killed by SIG$(kill -l $((rj_rc - 128)) 2>/dev/null || echo $((rj_rc - 128)))" \
			>> "$rj_f"
	fi
}

# The verdicts of the run in file $1, without input names.
verdicts() {
	sed 's/^{"input":"[^"]*",//' "$1"
}

# The finding of verdict line $1 ("killed by SIG...", or a bug verdict
# as "CLASS: MESSAGE"), or nothing.
finding_of() {
	case $1 in
	"killed by "*) printf '%s' "$1" ;;
	*'"verdict":"bug"'*)
		printf '%s' "$1" | sed -E 's/.*"class":"([^"]*)".*"message":"(([^"\\]|\\.)*)".*/\1: \2/' ;;
	esac
}

# The finding of the run in file $1 (its first), or nothing.
run_finding() {
	while read -r rf_l; do
		rf_w=$(finding_of "$rf_l")
		[ -z "$rf_w" ] || { printf '%s' "$rf_w"; return 0; }
	done < "$1"
}

# Seed $2 of family $1, from plan $3, is a finding: $4 (the seed's run),
# $5 (the plan's run when it differs).
finding() {
	say "fuzz-seeds: $1 seed $2 ($3) is a finding: ${4:-clean}${5:+; its plan: $5}"
	printf '%s\t%s\t%s\n' "$2" "$3" "${4:-$5}" >> "$out/findings.txt"
}

# Whether seed $2 (a bare stream of family $1) decodes to plan $3.
same_plan() {
	[ "$({ family_byte "$1"; cat "$2"; } | "$cli" show -)" = "$("$cli" show "$3")" ]
}

# Replay each seed of family $1 alone beside its plan (the pairs: lines
# of OUTDIR/<family>.plans.seeds). Return 1 when one is not its plan, or
# replays otherwise with no finding.
check_pairs() {
	cp_bad=0
	while read -r p s; do
		run_json "$out/p.json" "$p"
		run_json "$out/s.json" --family "$1" "$s"
		ws=$(run_finding "$out/s.json")
		wp=$(run_finding "$out/p.json")
		if [ "$(verdicts "$out/p.json")" = "$(verdicts "$out/s.json")" ] &&
			[ -z "$ws$wp" ]; then
			continue
		fi
		if ! same_plan "$1" "$s" "$p"; then
			say "fuzz-seeds: $s does not decode to the plan of $p (dmafuzz show differs)"
			cp_bad=1
		elif [ -n "$ws$wp" ]; then
			[ "$ws" = "$wp" ] && wp=
			finding "$1" "$s" "$p" "$ws" "$wp"
		else
			say "fuzz-seeds: $s replays otherwise than $p, the same plan, with no finding"
			cp_bad=1
		fi
	done < "$out/$1.plans.seeds"
	rm -f "$out/p.json" "$out/s.json"
	return $cp_bad
}

# Check the seeds of family $1: one run of every plan and one of every
# seed; when they differ or one was killed, each seed alone.
check_family() {
	[ -s "$out/$1.plans" ] || return 0
	# shellcheck disable=SC2046 # corpus paths have no blanks
	run_json "$out/$1.pj" $(cat "$out/$1.plans")
	# shellcheck disable=SC2046
	run_json "$out/$1.sj" --family "$1" $(cat "$out/$1.seeds")
	if [ "$(verdicts "$out/$1.pj")" != "$(verdicts "$out/$1.sj")" ] ||
		grep -q '^killed by ' "$out/$1.sj"; then
		check_pairs "$1"
		return
	fi
	sed -n 's/^{"input":"\([^"]*\)",\(.*"verdict":"bug".*\)/\1 \2/p' "$out/$1.sj" |
	while read -r s v; do
		finding "$1" "$s" "$(awk -v s="$s" '$2 == s { print $1 }' "$out/$1.plans.seeds")" \
			"$(finding_of "$v")" ""
	done
}

rm -rf "$out"
for t in xfer host api parse; do
	mkdir -p "$out/$t"
	: > "$out/$t.plans"
	: > "$out/$t.seeds"
done
# corpus/deeploy's plans run as written, beyond the fuzz caps, so their
# streams decode to other plans: make regress checks them, not the seeds.
for f in corpus/xfer/*.plan corpus/host/*.plan corpus/api/*.plan \
    corpus/regress/*.plan; do
	[ -e "$f" ] || continue
	dir=$(basename "$(dirname "$f")")
	name=$(basename "$f" .plan)
	cp "$f" "$out/parse/$dir-$name.plan"
	fam=$("$cli" show "$f" | sed -n 's/^family //p')
	case "$fam" in
	xfer|host|api) ;;
	*) echo "fuzz-seeds: $f: no family in 'dmafuzz show'" >&2; exit 1 ;;
	esac
	if [ "$dir" != "$fam" ] && [ "$dir" != regress ]; then
		echo "fuzz-seeds: $f is a $fam plan in corpus/$dir" >&2
		exit 1
	fi
	"$cli" encode --bare "$f" > "$out/$fam/$dir-$name.bin"
	echo "$f" >> "$out/$fam.plans"
	echo "$out/$fam/$dir-$name.bin" >> "$out/$fam.seeds"
done
: > "$out/findings.txt"
bad=0
for t in xfer host api; do
	paste "$out/$t.plans" "$out/$t.seeds" > "$out/$t.plans.seeds"
	check_family "$t" || bad=1
done
rm -f "$out"/*.plans "$out"/*.seeds "$out"/*.pj "$out"/*.sj
if [ "$bad" -ne 0 ]; then
	echo "fuzz-seeds: the bare seeds above do not replay as their plans" >&2
	exit 1
fi
for t in xfer host api parse; do
	printf 'fuzz-seeds: %-5s %3d seeds\n' "$t" "$(find "$out/$t" -type f | wc -l)"
done
if [ -s "$out/findings.txt" ]; then
	say "fuzz-seeds: $(wc -l < "$out/findings.txt") seed(s) are findings of the" \
		"runtime, kept as seeds (the campaign keeps them as seed-* findings):" \
		"$out/findings.txt"
fi
