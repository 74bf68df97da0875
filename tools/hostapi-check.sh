#!/bin/sh
# SPDX-License-Identifier: MIT
# make hostapi-check: the host-API adapter and its example.
#  1. Each bug switch of examples/host-runtime/ is flagged with its class at
#     the line its "dfz-expect: CLASS" comment marks, by every compiler
#     built (g++, clang++); the fixed code is clean (both policies).
#  2. The fixed code is clean over a short fuzz (the plain driver of
#     fuzz_staging.cpp: failures and contents chosen per execution), and
#     every bug switch is found by it.
#  3. tests/hostapi/tables.cpp: the stand-in (members in another order)
#     and an older table are filled by name; an unknown member and a
#     member of another type do not compile, naming the adapter; with
#     DFZ_HOSTAPI_ANY_MEMBERS the unknown member reports its slot.
# Usage: hostapi-check.sh -o OUT -l LIB [-f LDFLAGS]   (mk/hostapi.mk)
set -u
cd "$(dirname "$0")/.." || exit 2
out= lib= ldflags=
while getopts o:l:f: opt; do
	case $opt in
	o) out=$OPTARG ;; l) lib=$OPTARG ;; f) ldflags=$OPTARG ;;
	*) echo "usage: hostapi-check.sh -o OUT -l LIB [-f LDFLAGS]" >&2; exit 2 ;;
	esac
done
[ -n "$out" ] && [ -n "$lib" ] || { echo "hostapi-check: -o and -l are required" >&2; exit 2; }
dir=examples/host-runtime
fails=0
bad() { echo "hostapi-check: FAIL: $*"; fails=$((fails + 1)); }

# The line marked for @class: "file:line".
marked() {
	grep -n "dfz-expect: $1" $dir/*.cpp | head -n 1 | cut -d: -f1,2
}

for bin in "$out"/*/test_staging; do
	cc=$(basename "$(dirname "$bin")")
	for v in out-not-cleared:mem.undefined child-misalign:dev.child-memory \
	    leak-per-run:dev.leak untracked-free:dev.misuse; do
		sw=${v%%:*} cls=${v#*:}
		want="finding: $cls $(marked "$cls")"
		got=$("$bin" "$sw" | grep '^finding:')
		[ "$got" = "$want" ] || bad "$cc $sw: '$got', expected '$want'"
	done
	for p in "" --accept; do
		"$bin" $p >/dev/null || bad "$cc fixed $p: a finding"
	done
	# Stale bytes are reported under either policy: run 2's OUT
	# accumulator holds run 1's result.
	"$bin" out-not-cleared --accept | grep -q '^finding: mem.undefined .*kernel.cpp' ||
		bad "$cc out-not-cleared --accept: no stale finding"
done

fz=$out/g++/fuzz_staging
"$fz" 3000 7 | grep -q '^clean: 3000 executions' || bad "fuzz of the fixed code: a finding"
for v in out-not-cleared:mem.undefined child-misalign:dev.child-memory \
    leak-per-run:dev.leak untracked-free:dev.misuse; do
	DFZ_HOSTAPI_BUGS=${v%%:*} "$fz" 3000 7 2>&1 | head -n 1 |
		grep -q "^dmafuzz: ${v#*:} at " || bad "fuzz did not find ${v%%:*}"
done

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
for cxx in g++ $(command -v clang++ >/dev/null 2>&1 && echo clang++); do
	build() { # TABLE [FLAGS]
		$cxx -std=c++17 -Wall -Wextra -Werror -g -DTABLE="$1" ${2:-} -Iinclude \
		    -I$dir tests/hostapi/tables.cpp $ldflags "$lib" -lm -o "$tmp/t$1" \
		    2>"$tmp/err$1"
	}
	for t in 0 4; do
		build $t && "$tmp/t$t" >/dev/null || bad "$cxx table $t: not filled by name"
	done
	build 1 && bad "$cxx table 1 (unknown member) compiled"
	grep -q 'dmafuzz/host_api_ops.hpp: this HostApiOps has a member' "$tmp/err1" ||
		bad "$cxx table 1: no error naming the adapter"
	build 3 && bad "$cxx table 3 (member of another type) compiled"
	grep -q 'HostApiOps::device_malloc has a type' "$tmp/err3" ||
		bad "$cxx table 3: no error naming the member"
	if build 2 -DDFZ_HOSTAPI_ANY_MEMBERS; then
		"$tmp/t2" 2>&1 | grep -q 'api.unsupported .*slot 04' ||
			bad "$cxx table 2: the unknown member did not report its slot"
	else
		bad "$cxx table 2 (DFZ_HOSTAPI_ANY_MEMBERS) did not compile"
	fi
done

[ "$fails" -eq 0 ] || exit 1
echo "hostapi-check: 4 bug switches flagged at their lines, fixed code clean (2 policies," \
	"3000 fuzzed executions), tables filled by name"
