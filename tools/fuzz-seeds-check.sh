#!/bin/sh
# SPDX-License-Identifier: MIT
# `make check` (fuzz-seeds-check): the seed build (tools/fuzz-seeds.sh) on
# a corpus of its own (two xfer plans, a host plan, an api plan and the
# null-arg reproducer), through a dmafuzz that changes one command:
#   clean    nothing changed: exit 0, no finding
#   verdict  `run` with the null-arg switch on, so that the reproducer
#            crashes the runtime (init dereferences NULL) on both sides
#            as a `crash` verdict: exit 0, the seed named with its class
#            and signal, listed in findings.txt, and still a seed
#   killed   the same, but the process dies of the signal when it reaches
#            the crash, as `run` did on an xfer plan: exit 0, the seed
#            named "killed by SIGSEGV", the other api seed not named
#   decode   `encode --bare` of one xfer plan writes another plan's
#            stream: exit 1, that seed named as not decoding to its plan
# Then the campaign's preflight (tools/fuzz-lib.sh, as make fuzz runs it,
# with DMAFUZZ_BUGS=null-arg) on the seeds of the verdict case: the
# crashing seed is kept as a seed-* finding (the same bytes) and
# classified as a crash, the other seed goes to afl-fuzz's input, and the
# campaign goes on (preflight returns 0).
# Usage: fuzz-seeds-check.sh DMAFUZZ REPLAY_DIR
set -u
abs() { printf '%s/%s' "$(cd "$(dirname "$1")" && pwd)" "$(basename "$1")"; }
tools=$(cd "$(dirname "$0")" && pwd)
DFZ_REAL_CLI=$(abs "$1")
replay=$(cd "$2" && pwd) || exit 2
w=$(mktemp -d "${TMPDIR:-/tmp}/dfz-seeds.XXXXXX") || exit 2
trap 'rm -rf "$w"' EXIT
fail=0
checks=0
DFZ_SEEDS_TMP=$w/run
export DFZ_REAL_CLI DFZ_SEEDS_MODE DFZ_SEEDS_TMP

mkdir -p "$w/corpus/xfer" "$w/corpus/host" "$w/corpus/api" "$w/corpus/regress"
for f in xfer/rank1-contig xfer/rank2-strided host/basic api/lifecycle regress/null-arg; do
	cp "corpus/$f.plan" "$w/corpus/$f.plan" || exit 2
done
cat > "$w/dmafuzz" <<'EOF'
#!/bin/sh
# The real dmafuzz ($DFZ_REAL_CLI), one command changed by $DFZ_SEEDS_MODE.
cmd=$1
shift
case $DFZ_SEEDS_MODE:$cmd in
verdict:run) exec "$DFZ_REAL_CLI" run --bug null-arg "$@" ;;
killed:run)
	"$DFZ_REAL_CLI" run --bug null-arg "$@" > "$DFZ_SEEDS_TMP"
	rc=$?
	if grep -q '"class":"crash"' "$DFZ_SEEDS_TMP"; then
		sed '/"class":"crash"/,$d' "$DFZ_SEEDS_TMP"
		ulimit -c 0
		kill -SEGV $$
	fi
	cat "$DFZ_SEEDS_TMP"
	exit $rc ;;
decode:encode)
	case $* in
	*/rank1-contig.plan) exec "$DFZ_REAL_CLI" encode --bare corpus/xfer/rank2-strided.plan ;;
	esac ;;
esac
exec "$DFZ_REAL_CLI" "$cmd" "$@"
EOF
chmod +x "$w/dmafuzz"

# no MESSAGE: say that a check failed, with the seed build's last words.
no() {
	echo "fuzz-seeds-check: $DFZ_SEEDS_MODE: $1" >&2
	sed 's/^/    /' "$w/log" >&2
	fail=1
}

# seeds MODE: the seed build in mode MODE into $w/seeds; its exit status
# in $rc, its stderr in $w/log, its findings list in $w/findings.
seeds() {
	DFZ_SEEDS_MODE=$1
	checks=$((checks + 1))
	(cd "$w" && sh "$tools/fuzz-seeds.sh" "$w/dmafuzz" "$w/seeds") > /dev/null 2> "$w/log"
	rc=$?
	cat "$w/seeds/findings.txt" > "$w/findings" 2>/dev/null || : > "$w/findings"
}

na=$w/seeds/api/regress-null-arg.bin

seeds clean
[ "$rc" -eq 0 ] || no "exit $rc, want 0"
[ -s "$w/findings" ] && no "findings listed with every switch off"
grep -q 'finding' "$w/log" && no "a finding said with every switch off"

for mode in verdict killed; do
	case $mode in
	verdict) how='crash: SIGSEGV at address 0x0 in the runtime' ;;
	killed) how='killed by SIGSEGV' ;;
	esac
	seeds "$mode"
	[ "$rc" -eq 0 ] || no "exit $rc, want 0 (a crashing seed is a finding, not a build failure)"
	[ -f "$na" ] || no "the crashing seed is no longer a seed"
	grep -q "^fuzz-seeds: api seed $na (corpus/regress/null-arg.plan) is a finding: $how" \
		"$w/log" || no "the crashing seed not named with '$how'"
	if [ "$(wc -l < "$w/findings")" -ne 1 ] ||
		! grep -q "^$na	corpus/regress/null-arg.plan	$how" "$w/findings"; then
		no "findings.txt is not the one crashing seed with '$how'"
	fi
	grep -q 'lifecycle' "$w/log" && no "a seed that runs clean named"
done

seeds decode
[ "$rc" -eq 1 ] || no "exit $rc, want 1 (a seed that is another plan is an error)"
grep -q "^fuzz-seeds: $w/seeds/xfer/xfer-rank1-contig.bin does not decode to the plan of corpus/xfer/rank1-contig.plan" \
	"$w/log" || no "the seed that is another plan not named"

# The campaign on the seeds of the verdict case, switch on.
seeds verdict
checks=$((checks + 1))
found=$(
	# shellcheck source=tools/fuzz-lib.sh
	. "$tools/fuzz-lib.sh"
	bugs=null-arg findings=$w/findings.d cli=$DFZ_REAL_CLI
	mkdir -p "$findings/api"
	preflight api "$w/in" "$w/found" test "$w/seeds/api" || echo "no campaign"
	classify_list api "$w/found" "$w/classes"
)
kept=$w/findings.d/api/seed-test-regress-null-arg.bin
[ "$found" = 1 ] || no "preflight: '$found', want 1 finding and a campaign"
if [ ! -f "$w/in/api-lifecycle.bin" ] || [ -e "$w/in/regress-null-arg.bin" ]; then
	no "preflight: afl-fuzz's input is not the clean seed alone: $(ls "$w/in")"
fi
if ! cmp -s "$kept" "$na" || ! grep -q "^crash (SIGSEGV)	$kept\$" "$w/classes"; then
	no "preflight: the crashing seed not kept as $kept, a crash: $(cat "$w/classes")"
fi

[ $fail -eq 0 ] && echo "fuzz-seeds-check: $checks/$checks seed builds and campaign starts as expected"
exit $fail
