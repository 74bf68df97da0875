#!/bin/sh
# SPDX-License-Identifier: MIT
# Emitted C reproducers compile and reproduce. For each plan given: emit
# it as a standalone C program (dmafuzz emit-c; a corpus/regress/<switch>
# plan with its switch, which the name gives, and its "# expect:" line;
# any other plan with no switch, expecting a clean run), compile it with
# nothing but the installed headers, library and pkg-config file
# (-Wall -Wextra -Werror -pedantic), run it, and require
#   - exit 0: its verdict is the expected one;
#   - its report (verdict, class, oracle, message, evidence, steps,
#     transfers) line for line the report the harness gave for the plan
#     when it was emitted (emit-c writes it into the header comment);
#   - the same for `--clean` against the harness's run without switches.
# The report holds the step and transfer counts and the message's
# addresses, so a program that made other calls, or the same calls in
# another order, would differ. Two plans are checked at a time.
# Usage: emit-check.sh -c CLI -r ROOT [-f CFLAGS] PLAN...
#   ROOT: a DESTDIR the library was installed into (make install
#   DESTDIR=ROOT); its dmafuzz.pc is found under ROOT and its paths taken
#   relative to ROOT (PKG_CONFIG_SYSROOT_DIR). CFLAGS: extra compiler
#   flags (the sanitizer flags of a SAN=asan library).
set -u
. "$(dirname "$0")/emit-lib.sh"
emit_options "$@"
shift "$emit_shift"
flags=$(emit_flags dmafuzz) || exit 2
out=$root/emitted
rm -rf "$out"
mkdir -p "$out"
t0=$(date +%s%N)

# The report block titled $1 of the header comment of $2.
embedded() { sed -n "/^ \* Report with $1/,/^ \*\$/s/^ \*   //p" "$2"; }

# Run the program $1 with argument $2 (or none); compare with block $3.
# Failure messages go to stdout.
run_one() {
	"$1" $2 > "$1.out$2" 2>&1; rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "./$(basename "$1") $2 exits $rc:"
		sed 's/^/    /' "$1.out$2"
		return 1
	fi
	embedded "$3" "$1.c" > "$1.want$2"
	grep -v -e '^INPUT:' -e '^EXPECT:' "$1.out$2" > "$1.got$2"
	if ! cmp -s "$1.got$2" "$1.want$2" || [ ! -s "$1.want$2" ]; then
		echo "./$(basename "$1") $2 reports otherwise than the harness:"
		diff "$1.got$2" "$1.want$2" | sed 's/^/    /'
		return 1
	fi
}

# Check plan $1; its table row goes to $out/<name>.row, failures to .fail.
check() {
	f=$1
	base=$(basename "$f" .plan)
	sw=
	case $f in
	*/regress/*) sw=$base ;;
	esac
	bin=$out/$base
	if ! "$cli" emit-c ${sw:+--bug "$sw"} -o "$bin.c" "$f" 2> "$bin.fail"; then
		printf '%-40s %6s %8s  %s\n' "$f" - - "emit-c failed" > "$bin.row"
		return
	fi
	lines=$(wc -l < "$bin.c")
	# shellcheck disable=SC2086
	if ! cc -std=c11 -Wall -Wextra -Werror -pedantic $extra -o "$bin" \
		"$bin.c" $flags > "$bin.fail" 2>&1; then
		printf '%-40s %6s %8s  %s\n' "$f" "$lines" FAIL - > "$bin.row"
		return
	fi
	res=clean
	if [ -n "$sw" ]; then
		run_one "$bin" "" "the switches on" > "$bin.fail" &&
		run_one "$bin" --clean "--clean" >> "$bin.fail" &&
		res="$(sed -n 's/^CLASS: *//p' "$bin.out"), clean with --clean"
	else
		run_one "$bin" "" "the switches on" > "$bin.fail"
	fi
	[ -s "$bin.fail" ] && res=FAIL
	printf '%-40s %6s %8s  %s\n' "$f" "$lines" ok "$res" > "$bin.row"
}

while [ $# -gt 0 ]; do
	check "$1" &
	[ $# -gt 1 ] && check "$2" &
	wait
	shift; [ $# -gt 0 ] && shift
done

printf '%-40s %6s %8s  %s\n' plan lines compile run
pass=0
fail=0
for row in "$out"/*.row; do
	cat "$row"
	if [ -s "${row%.row}.fail" ]; then
		fail=$((fail + 1))
		sed 's/^/    /' "${row%.row}.fail"
	else
		pass=$((pass + 1))
	fi
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "emit-check: $pass plans reproduced, $fail failed, in $ms ms"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
