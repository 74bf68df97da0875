#!/bin/sh
# SPDX-License-Identifier: MIT
# valgrind memcheck over the unit tests (CK_FORK=no, so the tests run in
# the process valgrind watches) and over the corpus replays: seeds and
# reproducers with every switch off, with our oracles on and off, and
# every seed plan alone in a process of its own (clean:
# exit 0); each reproducer of a switch memcheck catches alone with that
# switch on and our oracles off (--oracles none: valgrind's error exit 99,
# the runtime describes its memory to memcheck, runtime/vg.h); each other
# reproducer with its switch on and our oracles on (they flag it: exit 1,
# and valgrind must see nothing: 99 would be an error).
# The checks run in parallel, one valgrind each, $(nproc) at a time
# (MEMCHECK_JOBS overrides): one per unit suite (CK_RUN_SUITE, every suite
# of the suites.h built next to the test binary) and one per replay. Each
# check has its own files build/memcheck/<n>.{sh,log,rc}, the log holding
# its stdout and stderr; failures are listed in the order checks were queued.
# Usage: memcheck.sh path/to/check_dmafuzz path/to/dmafuzz [suites.h]
set -u
tests=$1
cli=$2
suites=${3:-$(dirname "$tests")/tests/suites.h}
# The switches whose fault memcheck reports by itself (README, Memcheck).
alone="early-compute db-war edge-tile req-escape pair-overflow
register-leak null-arg"
vg="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect"
jobs=${MEMCHECK_JOBS:-$(nproc 2>/dev/null || echo 2)}
out=build/memcheck
n=0
pass=0
fail=0
t0=$(date +%s)

# $1 quoted for sh.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

# Queue check $n as the script $out/$n.sh and one line of $out/checks.
# kind is "suite" (it must also report a nonzero "Checks:") or "run".
queue() { # kind expected-exit description command...
	n=$((n + 1))
	printf '%s %s %s %s\n' "$n" "$2" "$1" "$3" >> "$out/checks"
	shift 3
	for a; do printf '%s ' "$(quote "$a")"; done > "$out/$n.sh"
	printf '>%s 2>&1\necho $? >%s\n' "$out/$n.log" "$out/$n.rc" >> "$out/$n.sh"
}

rm -rf "$out"
mkdir -p "$out"
[ -r "$suites" ] || { echo "memcheck: no $suites: build $tests first"; exit 1; }
for s in $(sed -n 's/^X(suite_\(.*\))$/\1/p' "$suites"); do
	# The suites run bug switches on purpose, with our oracles on: plain
	# memcheck, without the memory model's description (runtime/vg.h).
	queue suite 0 "unit suite $s" env CK_FORK=no CK_RUN_SUITE="$s" \
	    CK_VERBOSITY=normal DFZ_MEMCHECK=1 DFZ_MEMCHECK_MODEL=off DFZ_CLI="$cli" $vg "$tests"
done
queue run 0 "seed corpus" $vg "$cli" run --quiet corpus/xfer corpus/host corpus/api
queue run 0 "regression corpus, switches off" $vg "$cli" run --quiet corpus/regress
# Each corpus plan alone too (seeds, regressions and Deeploy's DMA matrix):
# the last plan of a process is torn down with the process, which a
# whole-corpus run hides behind the plans after it.
for f in corpus/xfer/*.plan corpus/host/*.plan corpus/api/*.plan \
    corpus/regress/*.plan corpus/deeploy/*.plan; do
	queue run 0 "$f alone, switches off" $vg "$cli" run --quiet "$f"
done
# A signal caught inside a judged section of the runtime (the null-arg
# crash) must not leave the next plans judged: valgrind reports the crash's
# own read and nothing of the plans after it in the same process.
queue run 0 "a crash, then the xfer seeds in one process: one error" \
    sh -c 'log=$(mktemp) && "$@" >"$log" 2>&1; n=$(grep -c "^==[0-9]*== [A-Z]" "$log"); rm -f "$log"; [ "$n" -eq 1 ]' \
    sh $vg "$cli" run --quiet --bug null-arg corpus/regress/null-arg.plan \
    corpus/xfer corpus/host/child-in.plan
queue run 0 "seed and regression corpus, switches off, --oracles none" \
    $vg "$cli" run --quiet --oracles none corpus/xfer corpus/host corpus/api \
    corpus/regress
for f in corpus/regress/*.plan; do
	sw=$(basename "$f" .plan)
	case " $(echo $alone) " in
	*" $sw "*)
		queue run 99 "$f with --bug $sw, --oracles none" \
		    $vg "$cli" run --quiet --oracles none --bug "$sw" "$f" ;;
	*)
		queue run 1 "$f with --bug $sw" \
		    $vg "$cli" run --quiet --bug "$sw" "$f" ;;
	esac
done

i=1
while [ "$i" -le "$n" ]; do
	echo "$out/$i.sh"
	i=$((i + 1))
done | xargs -P "$jobs" -n 1 sh

while read -r i want kind what; do
	rc=$(cat "$out/$i.rc" 2>/dev/null || echo none)
	if [ "$rc" != "$want" ]; then
		why="exit $rc, expected $want"
	elif [ "$kind" = suite ] && ! grep -q 'Checks: [1-9]' "$out/$i.log"; then
		why="no test ran"
	else
		pass=$((pass + 1))
		continue
	fi
	fail=$((fail + 1))
	echo "memcheck: FAIL: $what: $why"
	cat "$out/$i.log"
done < "$out/checks"
echo "memcheck: $(( $(date +%s) - t0 )) s wall"
echo "memcheck: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
