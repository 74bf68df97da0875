#!/bin/sh
# SPDX-License-Identifier: MIT
# `make check` (fuzz-env): the environment the fuzz targets read, through
# the replay driver (the same family.c every fuzz build links), on the
# shared-handle reproducer:
#   DMAFUZZ_BUGS    the switch on: the run aborts with handle.reuse;
#                   unset: clean; a bad name: one line, exit 2
#   DMAFUZZ_ORACLES none: nothing of ours judges, clean
#   DMAFUZZ_ONLY    its class: aborts; another class: clean (what afl-tmin
#                   needs to keep the same bug); a bad name: exit 2
# Usage: fuzz-env-check.sh DMAFUZZ REPLAY_XFER
set -u
cli=$1
rp=$2
out=build/fuzz-env
fail=0
mkdir -p "$out" || exit 2
"$cli" encode --bare corpus/regress/shared-handle.plan > "$out/shared-handle.bin" ||
	{ echo "fuzz-env: cannot encode the reproducer" >&2; exit 2; }

# expect WANT ENV...: run the replay driver with ENV; WANT is abort (exit
# 134 with CLASS handle.reuse), bug (exit 134, any class), clean (exit 0)
# or bad (exit 2, one line).
expect() {
	want=$1
	shift
	env -u DMAFUZZ_BUGS -u DMAFUZZ_ORACLES -u DMAFUZZ_ONLY "$@" \
		"$rp" "$out/shared-handle.bin" > "$out/log" 2>&1
	rc=$?
	case $want in
	abort) [ $rc -eq 134 ] && grep -q '^CLASS: *handle.reuse' "$out/log" ;;
	bug) [ $rc -eq 134 ] && grep -q '^CLASS:' "$out/log" ;;
	clean) [ $rc -eq 0 ] && ! grep -q '^CLASS:' "$out/log" ;;
	bad) [ $rc -eq 2 ] && [ "$(wc -l < "$out/log")" -eq 1 ] ;;
	esac
	ok=$?
	[ $ok -eq 0 ] || { echo "fuzz-env: $* : want $want, got exit $rc:" >&2;
			   head -n 3 "$out/log" >&2; fail=1; }
}

expect clean
expect abort DMAFUZZ_BUGS=shared-handle
expect bug DMAFUZZ_BUGS=all
expect bad DMAFUZZ_BUGS=nosuch
expect clean DMAFUZZ_BUGS=shared-handle DMAFUZZ_ORACLES=none
expect abort DMAFUZZ_BUGS=shared-handle DMAFUZZ_ORACLES=handle
expect bad DMAFUZZ_BUGS=shared-handle DMAFUZZ_ORACLES=nosuch
expect abort DMAFUZZ_BUGS=shared-handle DMAFUZZ_ONLY=handle.reuse
expect clean DMAFUZZ_BUGS=shared-handle DMAFUZZ_ONLY=data.mismatch
expect bad DMAFUZZ_BUGS=shared-handle DMAFUZZ_ONLY=nosuch
[ $fail -eq 0 ] && echo "fuzz-env: DMAFUZZ_BUGS, DMAFUZZ_ORACLES, DMAFUZZ_ONLY: 10/10 as expected"
exit $fail
