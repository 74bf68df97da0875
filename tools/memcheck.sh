#!/bin/sh
# SPDX-License-Identifier: MIT
# valgrind memcheck over the unit tests (CK_FORK=no, so the tests run in
# the process valgrind watches) and over the corpus replays: seeds and
# reproducers with every switch off, and each reproducer with its switch on
# (the oracles flag it: exit 1; any valgrind error is exit 99).
# Usage: memcheck.sh path/to/check_dmafuzz path/to/dmafuzz
set -u
tests=$1
cli=$2
vg="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect"
pass=0
fail=0
t0=$(date +%s)
check() { # expected-exit description command...
	want=$1; what=$2; shift 2
	"$@" >/dev/null 2>build/memcheck.log; rc=$?
	if [ "$rc" -eq "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "memcheck: FAIL: $what: exit $rc, expected $want"
		cat build/memcheck.log
	fi
}
mkdir -p build
check 0 "unit tests" env CK_FORK=no DFZ_MEMCHECK=1 DFZ_CLI="$cli" $vg "$tests"
check 0 "seed corpus" $vg "$cli" run --quiet corpus/xfer corpus/host corpus/api
check 0 "regression corpus, switches off" $vg "$cli" run --quiet corpus/regress
for f in corpus/regress/*.plan; do
	sw=$(basename "$f" .plan)
	# A real crash (a NULL dereference) is an invalid access memcheck
	# reports itself: valgrind's error exit code, not the verdict's.
	want=1
	grep -qx '# expect: crash' "$f" && want=99
	check $want "$f with --bug $sw" $vg "$cli" run --quiet --bug "$sw" "$f"
done
echo "memcheck: $(( $(date +%s) - t0 )) s wall"
echo "memcheck: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
