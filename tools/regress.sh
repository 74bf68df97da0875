#!/bin/sh
# SPDX-License-Identifier: MIT
# Regression corpus replay through the CLI, with and without each switch:
# every corpus/regress/<switch>.plan must be flagged (exit 1, one of the
# classes on its "# expect:" line) with its switch on and run clean with it
# off; the seed corpus must run clean with every switch off.
# Usage: regress.sh path/to/dmafuzz
set -u
cli=$1
pass=0
fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "regress: FAIL: $*"; }

for f in corpus/regress/*.plan; do
	[ -e "$f" ] || continue
	sw=$(basename "$f" .plan)
	expect=$(sed -n 's/^# expect: *//p' "$f" | head -n 1)
	out=$("$cli" run --json --bug "$sw" "$f"); rc=$?
	cls=$(printf '%s\n' "$out" | sed -n 's/.*"class":"\([^"]*\)".*/\1/p' | head -n 1)
	if [ "$rc" -ne 1 ]; then
		bad "$f with --bug $sw: exit $rc, expected 1"
	elif ! printf '%s\n' "$expect" | tr '|' '\n' | grep -qx "$cls"; then
		bad "$f with --bug $sw: class '$cls', expected one of '$expect'"
	else
		ok
	fi
	"$cli" run --quiet "$f" >/dev/null; rc=$?
	[ "$rc" -eq 0 ] && ok || bad "$f without switches: exit $rc, expected 0"
done

# Deeploy's DMA test matrix, as written: no field clamped, clean with every
# switch off, and with shared-handle exactly the cases its "#
# expect-shared-handle:" line names flagged (the L3 ones whose tile
# transfers have rank 3 or more).
for f in corpus/deeploy/*.plan; do
	[ -e "$f" ] || continue
	expect=$(sed -n 's/^# expect-shared-handle: *//p' "$f" | head -n 1)
	out=$("$cli" run --json "$f"); rc=$?
	case $out in
	*'"clamped"'*) bad "$f: a limit clamped it: $out" ;;
	*) [ "$rc" -eq 0 ] && ok || bad "$f without switches: exit $rc, expected 0" ;;
	esac
	out=$("$cli" run --json --bug shared-handle "$f"); rc=$?
	cls=$(printf '%s\n' "$out" | sed -n 's/.*"class":"\([^"]*\)".*/\1/p' | head -n 1)
	if [ "$expect" = clean ]; then
		[ "$rc" -eq 0 ] && ok || bad "$f with --bug shared-handle: exit $rc ($cls), expected clean"
	elif [ "$rc" -ne 1 ] || ! printf '%s\n' "$expect" | tr '|' '\n' | grep -qx "$cls"; then
		bad "$f with --bug shared-handle: exit $rc class '$cls', expected one of '$expect'"
	else
		ok
	fi
done

for d in corpus/xfer corpus/host corpus/api; do
	"$cli" run --quiet "$d" >/dev/null; rc=$?
	[ "$rc" -eq 0 ] && ok || bad "seed corpus $d: exit $rc, expected 0 (clean)"
done

"$cli" gen --count 2000 --seed 7 | "$cli" run --quiet - >/dev/null; rc=$?
[ "$rc" -eq 0 ] && ok || bad "2000 random plans (seed 7): exit $rc, expected 0 (clean)"
for fam in host api; do
	"$cli" gen --family $fam --count 2000 --seed 7 --bytes 400 |
		"$cli" run --quiet - >/dev/null; rc=$?
	[ "$rc" -eq 0 ] && ok || bad "2000 random $fam plans (seed 7): exit $rc, expected 0 (clean)"
done

echo "regress: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
