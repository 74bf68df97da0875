#!/bin/sh
# SPDX-License-Identifier: MIT
# make emit-dropin-check (part of make check): every plan the drop-in
# printer writes (`dmafuzz emit-c --dropin`: each hop in its engine's
# SDK names: PMSIS cluster RAM, mchan_v7.h, Snitch) becomes SDK code,
# built against the installed drop-in headers with -Wall -Wextra -Werror (pkg-config
# dmafuzz-dropin) and run bare on 8 schedules (the empty one first).
# A plan must give the drop-in the verdict `dmafuzz run` gives it: clean,
# or the class of its switch, where the two oracles see the same fault
# from two sides:
#   hazard.race -> hazard.race or data.mismatch: a transfer against a
#     transfer is a race to the drop-in's engines as to the harness; a
#     compute against a transfer the drop-in sees only through the
#     compute's result (what it read of a buffer in flight is the poison
#     there);
#   hazard.read-before-wait -> data.mismatch, the same way;
#   queue.corrupt -> handle.reuse, hazard.race or desc.clobbered: the
#     drop-in's handle oracle fires at the re-issue of a request still
#     queued, before the queue shows it, or its engines see first the
#     race of the two transfers into one buffer that the re-declared
#     requests let in; or, where the re-declaration (a request array
#     zeroed in the loop body) wiped the queued request's storage before
#     a new request was issued into it, the end of its scope is no event
#     to the drop-in and its descriptor oracle sees the bytes changed at
#     the service, where the harness saw it freed while queued.
#   mem.redzone -> mem.redzone or mem.oob: the drop-in judges every
#     transfer's rows against their block at the issue (the bounds
#     oracle), before the harness's canaries see the bytes land.
# Built with ASan (a SAN=asan library), the drop-in poisons a buffer in
# flight for ASan itself: the compute's read of it is ASan's
# use-after-poison at that read (unknown-crash in a granule poisoned in
# part), which stands for data.mismatch.
# Regression plans run with their switch; Deeploy's matrix also with
# shared-handle; EMIT_DROPIN_SWITCHES="sw ..." runs every plan with each
# of those switches too. Plans the printer does not write are counted
# apart.
# Usage: emit-dropin-check.sh -c CLI -r ROOT [-f CFLAGS] PLAN...
set -u
. "$(dirname "$0")/emit-lib.sh"
emit_options "$@"
shift "$emit_shift"
flags=$(emit_flags dmafuzz-dropin) || exit 2
# The programs run under the harness's model (cfg.quirks 0): iDMA ids
# exact (GVSoC, the old front end), a zero-work transfer retiring in
# order; idma-id-at-push only where the installed headers know it.
DFZ_QUIRKS=no-idma-zero-work-retires
if grep -qs '"idma-id-at-push"' \
    "$(find "$root" -path '*/dmafuzz/dropin.h' | head -n 1)"; then
	DFZ_QUIRKS=$DFZ_QUIRKS,no-idma-id-at-push
fi
export DFZ_QUIRKS
out=$root/dropin
rm -rf "$out"
mkdir -p "$out"
: > "$out/empty.bin"

# The classes the drop-in may give for the harness's class $1, a|b.
dropin_class() {
	case $1 in
	hazard.race) echo 'hazard.race|data.mismatch' ;;
	hazard.read-before-wait) echo 'hazard.read-before-wait|data.mismatch' ;;
	queue.corrupt) echo 'handle.reuse|hazard.race|hazard.read-before-wait|desc.clobbered' ;;
	mem.redzone) echo 'mem.redzone|mem.oob' ;;
	*) echo "$1" ;;
	esac
}

# Whether program $1's first run (the empty schedule: the plan's, which
# the program presets) is the harness's run of a clean plan: the same
# steps and transfers (the harness's in $out/$1.run, the replay's to
# $out/$1.first).
first_run() {
	(cd "$out" && "./$1" "$out/empty.bin" > "$1.first" 2>&1)
	[ "$(steps "$out/$1.run")" = "$(steps "$out/$1.first")" ]
}

# "STEPS XFERS" of verdict file $1.
steps() {
	sed -n -e 's/^STEPS: *//p' -e 's/^XFERS: *//p' "$1" | tr '\n' ' '
}

# Check plan $1 with switch $2 (or none) as $3; a row to $out/$3.row.
check() {
	f=$1 sw=$2 bin=$out/$3
	if ! "$cli" emit-c --dropin ${sw:+--bug "$sw"} -o "$bin.c" "$f" \
	    2> "$bin.skip"; then
		return
	fi
	rm -f "$bin.skip"
	"$cli" run ${sw:+--bug "$sw"} "$f" > "$bin.run"
	want=$(sed -n 's/^CLASS: *//p' "$bin.run")
	want=$(dropin_class "${want:-clean}")
	# edge-tile: the edge tile's rows run past their tensor; the drop-in
	# judges that at the issue (mem.oob), the harness only what the
	# overrun does to the bytes.
	[ "$sw" = edge-tile ] && want="$want|mem.oob"
	# req-escape: a request freed while queued (queue.corrupt) is, where
	# requests are arrays, a transfer no wait covers: its bytes missing
	# when read, or its id never freed.
	[ "$sw" = req-escape ] && [ "$want" != clean ] && \
		want="$want|data.mismatch|handle.leak"
	# shellcheck disable=SC2086
	if ! cc -std=c11 -Wall -Wextra -Werror $extra -o "$bin" "$bin.c" $flags \
	    > "$bin.fail" 2>&1; then
		printf '%-52s %-26s %s\n' "$3" compile FAIL > "$bin.row"
		return
	fi
	(cd "$out" && "./$3" --runs 8 > "$3.out" 2>&1)
	got=$(sed -n 's/^CLASS: *//p' "$bin.out")
	if [ -z "$got" ] && grep -Eq \
	    'AddressSanitizer: (use-after-poison|unknown-crash)' "$bin.out"; then
		got=data.mismatch
	fi
	got=${got:-clean}
	[ "$got" = clean ] && [ "$want" = clean ] && ! first_run "$3" && \
		got="first run $(steps "$bin.first")!= $(steps "$bin.run")"
	if case "|$want|" in *"|$got|"*) true ;; *) false ;; esac; then
		rm -f "$bin.fail"
		printf '%-52s %-26s %s\n' "$3" "$want" ok > "$bin.row"
	else
		printf '%-52s %-26s %s\n' "$3" "$want" "FAIL: $got" > "$bin.row"
		sed 's/^/    /' "$bin.out" > "$bin.fail"
	fi
}

# Plan $1, with its switches; two plans at a time.
plan() {
	base=$(basename "$1" .plan)
	case $1 in
	*/regress/*) check "$1" "$base" "$base" ;;
	*/deeploy/*) check "$1" "" "$base"
		check "$1" shared-handle "$base-shared-handle" ;;
	*) check "$1" "" "$base" ;;
	esac
	for sw in ${EMIT_DROPIN_SWITCHES:-}; do
		check "$1" "$sw" "$base-$sw"
	done
}

while [ $# -gt 0 ]; do
	plan "$1" &
	[ $# -gt 1 ] && plan "$2" &
	wait
	shift; [ $# -gt 0 ] && shift
done

pass=0
fail=0
skip=$(find "$out" -name '*.skip' | wc -l)
for row in "$out"/*.row; do
	[ -e "$row" ] || continue
	cat "$row"
	if [ -e "${row%.row}.fail" ]; then
		fail=$((fail + 1))
		cat "${row%.row}.fail"
	else
		pass=$((pass + 1))
	fi
done
echo "emit-dropin-check: $pass reproduced, $fail failed, $skip not written" \
	"by the drop-in printer"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
