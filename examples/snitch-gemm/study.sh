#!/bin/sh
# SPDX-License-Identifier: MIT
# The Snitch study's table (README.md): each variant a libFuzzer target
# (clang -fsanitize=fuzzer,address,undefined against libdmafuzz-fuzz.a),
# run under each quirk setting from an empty corpus with -seed=1
# -max_len=256 for at most N executions, niced, one at a time. A row
# gives the executions to the first finding (its class and line) or
# "none in N", and the seconds.
# Then window.c, the engine-level replay of the GEMM's DMA sequence, for
# the RTL's default window (NumAxInFlight 3) and the default
# configuration's (24): a row per variant, runtime and window with the
# waits that returned before their own start's transfer retired.
# Usage: study.sh ROOT OUT [N]   (ROOT: the DESTDIR of `make install
# DESTDIR=ROOT`, or "-" for the modules on PKG_CONFIG_PATH)
set -u
[ $# -ge 2 ] || { echo "usage: study.sh ROOT OUT [N]" >&2; exit 2; }
root=$1 out=$2 n=${3:-100000}
here=$(cd "$(dirname "$0")" && pwd)
ex=$(dirname "$here")
# The cflags and libs of pkg-config module $1, from ROOT or the path.
pc_flags() {
	if [ "$root" = - ]; then
		pkg-config --cflags --libs "$1"
		return
	fi
	pc=$(find "$root" -name "$1.pc" | head -n 1)
	[ -n "$pc" ] || { echo "study.sh: no $1.pc under $root" >&2; return 1; }
	PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$(dirname "$pc") \
		pkg-config --cflags --libs "$1"
}
[ "$root" = - ] || root=$(cd "$root" && pwd) || exit 2
flags=$(pc_flags dmafuzz-dropin-fuzz) || exit 2
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2

build() { # NAME DIR SOURCES...
	name=$1 dir=$2
	shift 2
	(cd "$dir" && clang -fsanitize=fuzzer,address,undefined "$@" $flags \
		-o "$out/$name") || exit 2
}
build gemm_db "$here" gemm_db.c test_gemm.c
build gemm_db_fixed "$here" gemm_db_fixed.c test_gemm.c
build gemm_db_nodummy "$here" gemm_db_nodummy.c test_gemm.c
build axpy_db "$ex/snitch-axpy-db" axpy_db.c test_axpy.c
build axpy_db_ids "$ex/snitch-axpy-db" axpy_db_ids.c test_axpy.c

row() { # NAME QUIRKS
	log=$out/$1.$2.log corpus=$out/corpus.$1.$2
	rm -rf "$corpus" && mkdir -p "$corpus"
	t0=$(date +%s)
	(cd "$out" && DFZ_QUIRKS=$2 nice -n 19 "./$1" -runs="$n" -seed=1 \
		-max_len=256 -print_final_stats=1 "$corpus" > "$log" 2>&1)
	t1=$(date +%s)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	class=$(sed -n 's/^CLASS: *//p' "$log" | head -n 1)
	at=$(sed -n 's/^AT: *\([^ ]*\).*/\1/p' "$log" | head -n 1)
	if [ -n "$class" ]; then
		res="$class at $(basename "$at") after ${execs:-?}"
	elif grep -q "ERROR: AddressSanitizer\|ERROR: libFuzzer" "$log"; then
		res="$(grep -m 1 'ERROR:' "$log") after ${execs:-?}"
	else
		res="none in ${execs:-?}"
	fi
	printf '| %s | %s | %s | %s |\n' "$1" "$2" "$res" $((t1 - t0))
}
for v in gemm_db gemm_db_fixed gemm_db_nodummy axpy_db axpy_db_ids; do
	for rt in snrt-pinned snrt-head; do
		for id in idma-id-at-push no-idma-id-at-push; do
			row "$v" "$rt,$id"
		done
	done
done
wflags=$(pc_flags dmafuzz) || exit 2
# shellcheck disable=SC2086 # flags are words
cc -std=c11 "$here/window.c" $wflags -o "$out/window" || exit 2
for v in fixed nodummy; do
	for rt in pinned head; do
		for w in 3 24; do
			printf '| window.c %s | %s | NumAxInFlight %s | %s |\n' "$v" "$rt" \
				"$w" "$("$out/window" "$v" "$rt" "$w" | tail -n 1)"
		done
	done
done
