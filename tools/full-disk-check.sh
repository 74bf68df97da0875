#!/bin/sh
# SPDX-License-Identifier: MIT
# `make check` (full-disk-check): output that cannot be written is the
# harness's failure, said in one line with exit 3, never an exit 0 and
# never another error's message. On /dev/full (every write: ENOSPC):
#   - show, run, encode, gen and emit-c with stdout on /dev/full: exit 3,
#     one line "dmafuzz CMD: cannot write the output: No space left on
#     device";
#   - emit-c -o LINK, LINK a symbolic link to /dev/full: exit 3, one line
#     naming LINK, and the device is written in place: LINK is still the
#     link afterwards, never replaced by a renamed temporary file (a
#     link, so that an emit-c that renames replaces nothing but it);
#   - emit-c -o FILE on a disk with room: exit 0, FILE the same bytes as
#     the stdout output, no temporary file left beside it;
#   - emit-c -o into a missing directory: exit 2, one line;
#   - min -o and min --bin to the link to /dev/full: exit 3, one line, the
#     link still there.
# Usage: full-disk-check.sh DMAFUZZ
set -u
cli=$1
plan=corpus/regress/shared-handle.plan
out=$(mktemp -d "${TMPDIR:-/tmp}/dfz-full-disk.XXXXXX") || exit 2
trap 'rm -rf "$out"' EXIT
fail=0
n=0

if [ ! -c /dev/full ]; then
	echo "full-disk: no /dev/full on this system: not checked"
	exit 0
fi

# expect RC PATTERN CMD...: run CMD with its stdout on $stdout; require
# exit RC and on stderr exactly one line, matching the grep pattern
# PATTERN (and never the memory-model message emit-c used to print).
expect() {
	want=$1 pat=$2
	shift 2
	n=$((n + 1))
	"$@" > "$stdout" 2> "$out/err"
	rc=$?
	if [ "$rc" -ne "$want" ] || [ "$(wc -l < "$out/err")" -ne 1 ] ||
		! grep -q -e "$pat" "$out/err" || grep -q 'memory model' "$out/err"; then
		echo "full-disk: '$*' > $stdout: want exit $want and one line" \
			"'$pat', got exit $rc:" >&2
		head -n 3 "$out/err" >&2
		fail=1
	fi
}

stdout=/dev/full
for c in "show $plan" "run $plan" "encode $plan" "gen --count 10" "emit-c $plan"; do
	# shellcheck disable=SC2086 # the command's words
	expect 3 "^dmafuzz ${c%% *}: cannot write the output: No space left on device\$" \
		"$cli" $c
done

stdout=$out/stdout
ln -s /dev/full "$out/full.c" || exit 2
expect 3 "^dmafuzz emit-c: cannot write '$out/full.c': No space left on device\$" \
	"$cli" emit-c -o "$out/full.c" "$plan"
n=$((n + 1))
if [ ! -L "$out/full.c" ] || [ ! -c "$out/full.c" ]; then
	echo "full-disk: emit-c -o $out/full.c (a link to /dev/full) replaced the link" >&2
	fail=1
fi

n=$((n + 1))
if ! "$cli" emit-c -o "$out/repro.c" "$plan" 2> "$out/err" ||
	! "$cli" emit-c "$plan" > "$out/stdout.c" 2>> "$out/err" ||
	! cmp -s "$out/repro.c" "$out/stdout.c" || [ -s "$out/err" ] ||
	[ -n "$(find "$out" -name 'repro.c.tmp*')" ]; then
	echo "full-disk: emit-c -o $out/repro.c: not the stdout bytes, an error," \
		"or a temporary file left:" >&2
	head -n 3 "$out/err" >&2
	ls "$out" >&2
	fail=1
fi

expect 2 "^dmafuzz emit-c: cannot write '$out/none/repro.c': No such file or directory\$" \
	"$cli" emit-c -o "$out/none/repro.c" "$plan"

# min's outputs go the same way (the minimized plan, its choice bytes).
stdout=/dev/null
reg=corpus/regress/shared-handle.plan
for o in -o --bin; do
	expect 3 "^dmafuzz min: cannot write '$out/full.c': No space left on device\$" \
		"$cli" min --bug shared-handle "$o" "$out/full.c" "$reg"
	n=$((n + 1))
	if [ ! -L "$out/full.c" ]; then
		echo "full-disk: min $o $out/full.c (a link to /dev/full) replaced the link" >&2
		fail=1
	fi
done

[ $fail -eq 0 ] && echo "full-disk: $n/$n write failures said in one line with their exit code"
exit $fail
