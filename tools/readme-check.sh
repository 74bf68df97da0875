#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's examples cannot go stale: every "$ dmafuzz ..." and
# "$ cat ..." command of its worked example is run (dmafuzz from the build)
# and its output compared with the lines the README shows under it; every
# "FUNC (FILE:LINE)" frame it quotes must name a line inside FUNC's body.
# Usage: readme-check.sh path/to/dmafuzz [README]
set -u
cli=$1
readme=${2:-README.md}
bin=$(cd "$(dirname "$cli")" && pwd)
pass=0
fail=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# The worked example's blocks: "$ CMD" lines, each followed by its output
# up to the next command or the end of the block.
awk -v dir="$tmp" '
/^## A worked example/ { on = 1; next }
/^## / { on = 0 }
!on { next }
/^```/ { if (n) close(out); inblock = !inblock; next }
inblock && /^\$ / {
	n++
	cmd = dir "/" n ".cmd"; out = dir "/" n ".want"
	printf "%s\n", substr($0, 3) > cmd; close(cmd)
	printf "" > out
	next
}
inblock && n { print > out }
' "$readme"

for c in "$tmp"/*.cmd; do
	[ -e "$c" ] || { echo "readme-check: no commands in the worked example"; exit 1; }
	want=${c%.cmd}.want
	# A blank line between two commands of one block separates them.
	sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$want" > "$want.t" && mv "$want.t" "$want"
	PATH="$bin:$PATH" sh "$c" > "${c%.cmd}.got" 2>&1
	if cmp -s "$want" "${c%.cmd}.got"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "readme-check: FAIL: \$ $(cat "$c")"
		diff "$want" "${c%.cmd}.got" | head -n 10
	fi
done

# Quoted frames: FUNC (FILE:LINE) with LINE inside FUNC (the nearest
# function definition at or above LINE is FUNC's).
grep -o '[a-z_][a-z_0-9]* ([a-z_/]*\.c:[0-9][0-9]*)' "$readme" | sort -u |
while read -r fn loc; do
	file=${loc#(}; file=${file%:*}; line=${loc##*:}; line=${line%)}
	def=$(awk -v n="$line" 'NR > n { exit }
		/^[a-z].*[ *][a-z_0-9]+\(/ && !/;$/ { s = $0 }
		END { print s }' "$file" | sed -n 's/.*[ *]\([a-z_0-9]*\)(.*/\1/p')
	if [ "$def" = "$fn" ]; then
		echo ok
	else
		echo "readme-check: FAIL: $fn ($file:$line): line $line is in '$def'"
	fi
done > "$tmp/frames"
pass=$((pass + $(grep -c '^ok$' "$tmp/frames")))
fail=$((fail + $(grep -c FAIL "$tmp/frames")))
grep FAIL "$tmp/frames"

echo "readme-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
