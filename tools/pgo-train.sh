#!/bin/sh
# SPDX-License-Identifier: MIT
# The profile that the AFL++ flavours' model is compiled with (mk/pgo.mk):
# runs the profiling build of every fuzz target on fixed inputs and merges
# what its counters saw.
# Usage: pgo-train.sh DIR SEEDS OUT TARGET...
#   DIR    the profiling builds: DIR/<target> for each TARGET
#   SEEDS  the fuzz seeds: SEEDS/<target>/*
#   OUT    the merged profile (llvm-profdata's indexed format)
# A drop-in target (dropin*) runs bench-inproc's fixed schedules (the
# empty one, then random bytes from a fixed seed); a plan target runs each
# of its seeds, one process a seed (a seed that fails only leaves its
# counts out: that is `make fuzz`'s business, not the profile's). Every
# bug switch is off, and the quirks are bench's. Nothing here is random;
# only a count that follows addresses (ASLR) can differ between two
# trainings (measured: one counter of dfz_mem_locate, by 0.002%).
# Exit: 0, 1 when a drop-in run fails, nothing was counted or the merge
# fails, 2 on bad use.
set -u
if [ $# -lt 4 ]; then
	echo "usage: pgo-train.sh DIR SEEDS OUT TARGET..." >&2
	exit 2
fi
dir=$1 seeds=$2 out=$3
shift 3
raw=$dir/raw
rm -rf "$raw"
mkdir -p "$raw" || exit 1
unset DMAFUZZ_BUGS DMAFUZZ_ORACLES
for t in "$@"; do
	if [ ! -x "$dir/$t" ]; then
		echo "pgo-train.sh: no profiling build $dir/$t" >&2
		exit 2
	fi
	case $t in
	dropin*)
		q=
		[ "$t" = dropin-snrt ] && q=no-idma-id-at-push
		LLVM_PROFILE_FILE="$raw/$t.profraw" DFZ_QUIRKS=$q \
			"$dir/$t" -n 2000 > /dev/null ||
			{ echo "pgo-train.sh: $t failed on its schedules" >&2; exit 1; }
		;;
	*)
		for f in "$seeds/$t"/*; do
			LLVM_PROFILE_FILE="$raw/$t-%p.profraw" DFZ_QUIRKS= \
				timeout 20 "$dir/$t" "$f" > /dev/null 2>&1
		done
		;;
	esac
done
if [ -z "$(ls "$raw")" ]; then
	echo "pgo-train.sh: no run left counts in $raw" >&2
	exit 1
fi
llvm-profdata merge -o "$out" "$raw"/*.profraw ||
	{ echo "pgo-train.sh: llvm-profdata could not merge $raw" >&2; exit 1; }
