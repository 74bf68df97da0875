#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# OSS-Fuzz / ClusterFuzzLite build of the dmafuzz fuzz targets.
#
# The contract of the builder image: the compilers and flags come from
# $CC, $CFLAGS, $CXX, $CXXFLAGS and $LIB_FUZZING_ENGINE (the engine:
# libFuzzer, AFL++, honggfuzz, ... and the sanitizer: $SANITIZER), the
# fuzz targets and their files go to $OUT, scratch files to $WORK. Per
# target (xfer, host, api, parse), $OUT gets:
#   <target>                  the fuzz target (fuzz/<target>.c)
#   <target>_seed_corpus.zip  its seeds
#   <target>.dict             its dictionary (fuzz/<target>.dict)
#   <target>.options          libFuzzer options: the dictionary, max_len
#
# The seeds are encoded from the text corpus (corpus/, the source of
# truth) by `dmafuzz encode --bare` (tools/fuzz-seeds.sh, which also
# checks that every seed replays as its plan), so the CLI is built first
# with plain $CC, without the fuzzing flags.
#
# The project's own warning flags are kept, without -Werror: the builder
# image brings the newest clang, whose new warnings must not stop the
# fuzzing (`make` keeps warnings as errors).
#
# Run from anywhere: the source tree is the one holding this script.
set -eu

: "${CC:?}" "${CXX:?}" "${OUT:?}" "${WORK:?}" "${LIB_FUZZING_ENGINE:?}"
CFLAGS=${CFLAGS-} CXXFLAGS=${CXXFLAGS-}
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$WORK/dmafuzz
targets="xfer host api parse"
std=(-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wshadow
     -Wstrict-prototypes -Wmissing-prototypes -I"$src/include")

cd "$src"
rm -rf "$work"
mkdir -p "$work/cli" "$work/obj" "$OUT"

# 1. The CLI, plain: only to encode the seeds (its --version names the
#    drop-in's core switch, dropin/ctx.c).
for f in runtime/*.c oracles/*.c harness/*.c reports/*.c reports/*/*.c cli/*.c dropin/ctx.c; do
	[ -e "$f" ] || continue
	o=$work/cli/${f//\//_}.o
	"$CC" "${std[@]}" -O1 -I"$(dirname "$f")" -Ireports/common -c "$f" -o "$o"
done
# Triage disassembles with Capstone and the reports read JSON with jansson
# (libcapstone-dev, libjansson-dev, in the Dockerfile).
# shellcheck disable=SC2046
"$CC" -o "$work/dmafuzz" "$work"/cli/*.o -lm \
	$(pkg-config --libs capstone 2>/dev/null || echo -lcapstone) \
	$(pkg-config --libs jansson 2>/dev/null || echo -ljansson)

# 2. The seed corpora, encoded from the text plans.
sh tools/fuzz-seeds.sh "$work/dmafuzz" "$work/seeds"
for t in $targets; do
	rm -f "$OUT/${t}_seed_corpus.zip"
	if command -v zip >/dev/null 2>&1; then
		(cd "$work/seeds/$t" && zip -q -X "$OUT/${t}_seed_corpus.zip" ./*)
	else
		(cd "$work/seeds/$t" && python3 -m zipfile -c "$OUT/${t}_seed_corpus.zip" ./*)
	fi
done

# 3. The library and the targets with the builder's flags. The model's
#    hot loops (runtime/) compare in every step on values the input only
#    reaches through the decoder: under libFuzzer they are built without
#    compare tracing (a third of the run time, no guidance). The oracles
#    judge a run and are not what the fuzzer explores: no coverage at all
#    (their per-byte walks would make every size new coverage), as in
#    `make fuzz-libfuzzer`; the sanitizers stay. The model's plumbing
#    (the arenas' pages, event delivery, memory lookups, the sanitizers'
#    views: FZ_PLUMB_RUNTIME in the Makefile) goes without coverage too.
hot=()
judge=()
case " $CFLAGS " in
*" -fsanitize=fuzzer-no-link "*)
	hot=(-fno-sanitize-coverage=trace-cmp)
	judge=(-fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table)
	;;
esac
objs=()
for f in runtime/*.c oracles/*.c harness/*.c reports/*.c reports/*/*.c fuzz/family.c; do
	[ -e "$f" ] || continue
	case $f in reports/triage/*) continue ;; esac  # CLI only
	o=$work/obj/${f//\//_}.o
	extra=()
	case $f in
	runtime/mem_arena.c | runtime/rt.c | runtime/mem.c | runtime/mem_regions.c | \
	runtime/poison.c | runtime/vg.c | oracles/*) extra=(${judge[@]+"${judge[@]}"}) ;;
	runtime/*) extra=(${hot[@]+"${hot[@]}"}) ;;
	esac
	# shellcheck disable=SC2086 # $CFLAGS is a list of flags
	"$CC" $CFLAGS "${std[@]}" ${extra[@]+"${extra[@]}"} -I"$(dirname "$f")" \
		-Ireports/common -c "$f" -o "$o"
	objs+=("$o")
done
rm -f "$work/libdmafuzz-fuzz.a"
ar rcs "$work/libdmafuzz-fuzz.a" "${objs[@]}"

for t in $targets; do
	# shellcheck disable=SC2086
	"$CC" $CFLAGS "${std[@]}" -Ifuzz -c "fuzz/$t.c" -o "$work/obj/fuzz_$t.o"
	# Linked by the C++ driver: the engine library may be C++.
	# shellcheck disable=SC2086
	"$CXX" $CXXFLAGS "$work/obj/fuzz_$t.o" "$work/libdmafuzz-fuzz.a" \
		$LIB_FUZZING_ENGINE -lm -o "$OUT/$t"
	cp "fuzz/$t.dict" "$OUT/$t.dict"
	# A plan's choice stream is short (the seeds: under 100 bytes; a text
	# plan under 1 KiB): 4 KiB leaves room; the xfer target runs up to a
	# few seconds an input under ASan.
	printf '[libfuzzer]\ndict = %s.dict\nmax_len = 4096\ntimeout = 25\n' "$t" \
		> "$OUT/$t.options"
done
echo "dmafuzz: built $targets into $OUT"
