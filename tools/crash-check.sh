#!/bin/sh
# SPDX-License-Identifier: MIT
# A signal in the runtime during an xfer plan is a crash verdict and the
# directory run goes on to its summary: a memcpy that faults on one size
# (tests/memcpy_fault.c, preloaded) hits the ram engine's copy of a tile
# of the first plan; the second plan runs clean; the summary counts both.
# Usage: crash-check.sh path/to/dmafuzz path/to/memcpy_fault.so
set -u
cli=$1
shim=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/dir"
# 3 tiles of 259 bytes, each moved in one engine step (one memcpy); the
# tensors' fill copies 777 bytes at once.
printf 'family xfer\nrank 1\nshape 777\nelem 1\nnode0.tile 259\nbandwidth 4096\n' \
	> "$tmp/dir/a.plan"
printf 'family xfer\nrank 1\nshape 64\nelem 1\nnode0.tile 16\n' > "$tmp/dir/b.plan"
LD_PRELOAD=$shim DFZ_FAULT_SIZE=259 "$cli" run "$tmp/dir" > "$tmp/out" 2>&1
rc=$?
fail=0
check() {
	grep -q "$1" "$tmp/out" || { echo "crash-check: FAIL: no '$1'"; fail=1; }
}
[ "$rc" -eq 1 ] || { echo "crash-check: FAIL: exit $rc, expected 1"; fail=1; }
check '^CLASS:    crash$'
check '^MESSAGE:  SIGSEGV at address 0x103 in the runtime during dfz_prog_run()'
check '^INPUT:    .*/b.plan$'
check '^SUMMARY:  2 inputs, 1 bugs, 0 rejected, 0 bad$'
# Without the fault, the same directory is clean.
DFZ_FAULT_SIZE=259 "$cli" run --quiet "$tmp/dir" > /dev/null 2>&1 ||
	{ echo "crash-check: FAIL: clean without the preload"; fail=1; }
[ "$fail" -eq 0 ] && echo "crash-check: the runtime's fault is a crash verdict, the run goes on"
[ "$fail" -eq 0 ]
