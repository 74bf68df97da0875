#!/bin/sh
# SPDX-License-Identifier: MIT
# Seed corpora of the fuzz targets, generated from the text plans (the
# source of truth; no binary seed is committed). The family targets get the
# bare choice stream (`dmafuzz encode --bare`) of every plan of their
# family in corpus/<family>/ and of the matching corpus/regress/
# reproducers; the parse target gets the text files themselves. The bare
# seeds of each family must replay (`run --family`) exactly as their text
# plans do.
# Usage: fuzz-seeds.sh path/to/dmafuzz OUTDIR
set -eu
cli=$1
out=$2

# The JSON verdicts of a run over the given files, without input names.
verdicts() {
	"$cli" run --json "$@" | sed 's/^{"input":"[^"]*",//'
}

rm -rf "$out"
for t in xfer host api parse; do
	mkdir -p "$out/$t"
	: > "$out/$t.plans"
	: > "$out/$t.seeds"
done
for f in corpus/*/*.plan; do
	[ -e "$f" ] || continue
	dir=$(basename "$(dirname "$f")")
	name=$(basename "$f" .plan)
	cp "$f" "$out/parse/$dir-$name.plan"
	fam=$("$cli" show "$f" | sed -n 's/^family //p')
	case "$fam" in
	xfer|host|api) ;;
	*) echo "fuzz-seeds: $f: no family in 'dmafuzz show'" >&2; exit 1 ;;
	esac
	if [ "$dir" != "$fam" ] && [ "$dir" != regress ]; then
		echo "fuzz-seeds: $f is a $fam plan in corpus/$dir" >&2
		exit 1
	fi
	"$cli" encode --bare "$f" > "$out/$fam/$dir-$name.bin"
	echo "$f" >> "$out/$fam.plans"
	echo "$out/$fam/$dir-$name.bin" >> "$out/$fam.seeds"
done
for t in xfer host api; do
	# shellcheck disable=SC2046 # corpus paths have no blanks
	if [ "$(verdicts $(cat "$out/$t.plans"))" != \
	     "$(verdicts --family "$t" $(cat "$out/$t.seeds"))" ]; then
		echo "fuzz-seeds: the bare $t seeds do not replay as their plans" >&2
		exit 1
	fi
done
rm -f "$out"/*.plans "$out"/*.seeds
for t in xfer host api parse; do
	printf 'fuzz-seeds: %-5s %3d seeds\n' "$t" "$(find "$out/$t" -type f | wc -l)"
done
