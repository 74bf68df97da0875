#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# ClusterFuzzLite build of a project's dmafuzz drop-in tests (a dmafuzz
# template: copy it to .clusterfuzzlite/build.sh; docs/ci-templates.md).
#
# The builder image runs it from the project's root (the Dockerfile's
# WORKDIR) with its compilers and flags: $CC $CFLAGS compile, $CXX
# $CXXFLAGS $LIB_FUZZING_ENGINE link (libFuzzer and the sanitizer), the
# targets go to $OUT, scratch files to $WORK. For every test NAME of the
# manifest (DMAFUZZ_MANIFEST, default dmafuzz.tests; its lines
#   NAME [pc=MODULE] [quirks=LIST]: FILE.c [FILE.c ...] [-- CFLAGS...]
# paths relative to its folder), $OUT gets:
#   NAME                  the test as a libFuzzer target: its sources with
#                         the module's pkg-config flags, linked against
#                         libdmafuzz-fuzz.a (dmafuzz-dropin-fuzz, the
#                         library built for coverage) in place of
#                         libdmafuzz.a; its quirks= compiled in as the
#                         DFZ_QUIRKS it runs with (the environment's wins)
#   NAME_seed_corpus.zip  the empty schedule, and the files of
#                         DMAFUZZ_SEEDS/NAME/ (default dmafuzz-seeds/NAME/)
#                         when the project keeps saved findings there
#   NAME.options          libFuzzer's options: max_len
# dmafuzz is installed under DMAFUZZ_PREFIX (default /usr/local; the
# Dockerfile installs it there). Only the address and undefined
# sanitizers: the dmafuzz library is not built for memory.
set -eu

: "${CC:?}" "${CXX:?}" "${OUT:?}" "${WORK:?}" "${LIB_FUZZING_ENGINE:?}"
CFLAGS=${CFLAGS-} CXXFLAGS=${CXXFLAGS-}
manifest=${DMAFUZZ_MANIFEST:-dmafuzz.tests}
prefix=${DMAFUZZ_PREFIX:-/usr/local}
seeds=${DMAFUZZ_SEEDS:-dmafuzz-seeds}
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
work=$WORK/dmafuzz
mdir=$(dirname "$manifest")

die() { echo "dmafuzz build.sh: $*" >&2; exit 1; }

[ -f "$manifest" ] || die "no manifest '$manifest' in $(pwd)"
pkg-config --exists dmafuzz-dropin ||
	die "no pkg-config module dmafuzz-dropin under $prefix (install dmafuzz there)"
if pkg-config --exists dmafuzz-dropin-fuzz; then
	read -r -a fuzz_libs <<< "$(pkg-config --libs dmafuzz-dropin-fuzz)"
else
	fuzz_libs=()
	echo "dmafuzz build.sh: note: no dmafuzz-dropin-fuzz (dmafuzz installed without clang): the targets see only their own edges" >&2
fi
rm -rf "$work"
mkdir -p "$work" "$OUT"

# The link flags of module $1 for a fuzz target: its own, with the
# coverage library in place of libdmafuzz.a (-ldmafuzz and every word of
# the fuzz module's flags dropped from them, then those appended).
fuzz_link() {
	local w f keep out=()
	read -r -a mod <<< "$(pkg-config --libs "$1")"
	for w in "${mod[@]}"; do
		keep=1
		[ "${#fuzz_libs[@]}" -gt 0 ] || { out+=("$w"); continue; }
		[ "$w" = -ldmafuzz ] && keep=0
		for f in "${fuzz_libs[@]}"; do [ "$w" = "$f" ] && keep=0; done
		[ "$keep" = 1 ] && out+=("$w")
	done
	echo "${out[@]}" "${fuzz_libs[@]+"${fuzz_libs[@]}"}"
}

# $OUT/NAME_seed_corpus.zip from the folder $2.
seed_zip() {
	rm -f "$OUT/$1_seed_corpus.zip"
	if command -v zip >/dev/null 2>&1; then
		(cd "$2" && zip -q -X "$OUT/$1_seed_corpus.zip" ./*)
	else
		(cd "$2" && python3 -m zipfile -c "$OUT/$1_seed_corpus.zip" ./*)
	fi
}

# One test: $1 name, $2 module, $3 quirks, $4 sources, $5 extra CFLAGS.
build_test() {
	local name=$1 pc=$2 quirks=$3 s o objs=() i=0
	local -a srcs xflags
	read -r -a srcs <<< "$4"
	read -r -a xflags <<< "$5"
	mkdir -p "$work/$name/seeds"
	for s in "${srcs[@]}"; do
		o=$work/$name/$i.o
		i=$((i + 1))
		# shellcheck disable=SC2086,SC2046 # flag lists
		"$CC" $CFLAGS ${xflags[@]+"${xflags[@]}"} $(pkg-config --cflags "$pc") \
			-c "$mdir/$s" -o "$o"
		objs+=("$o")
	done
	if [ -n "$quirks" ]; then
		printf '%s\n' 'int setenv(const char *, const char *, int);' \
			'__attribute__((constructor)) static void dfz_quirks(void)' \
			"{ setenv(\"DFZ_QUIRKS\", \"$quirks\", 0); }" > "$work/$name/quirks.c"
		# shellcheck disable=SC2086
		"$CC" $CFLAGS -c "$work/$name/quirks.c" -o "$work/$name/quirks.o"
		objs+=("$work/$name/quirks.o")
	fi
	# shellcheck disable=SC2086,SC2046
	"$CXX" $CXXFLAGS "${objs[@]}" $LIB_FUZZING_ENGINE $(fuzz_link "$pc") -o "$OUT/$name"
	: > "$work/$name/seeds/empty"
	if [ -d "$mdir/$seeds/$name" ]; then
		cp "$mdir/$seeds/$name"/* "$work/$name/seeds/" 2>/dev/null || true
	fi
	seed_zip "$name" "$work/$name/seeds"
	printf '[libfuzzer]\nmax_len = 4096\n' > "$OUT/$name.options"
}

# Parse the manifest line by line, then build each test.
no=0
built=()
while IFS= read -r line || [ -n "$line" ]; do
	no=$((no + 1))
	line=${line%%#*}
	[ -n "${line//[[:space:]]/}" ] || continue
	case $line in *:*) ;; *) die "$manifest:$no: not 'NAME [pc=MODULE] [quirks=LIST]: FILE.c...'" ;; esac
	read -r -a head <<< "${line%%:*}"
	name=${head[0]:-}
	[[ $name =~ ^[A-Za-z0-9_-]+$ ]] || die "$manifest:$no: bad test name '$name'"
	for b in "${built[@]+"${built[@]}"}"; do
		[ "$b" != "$name" ] || die "$manifest:$no: test '$name' twice"
	done
	pc=dmafuzz-dropin quirks=''
	for w in "${head[@]:1}"; do
		case $w in
		pc=*) pc=${w#pc=} ;;
		quirks=*) quirks=${w#quirks=} ;;
		*) die "$manifest:$no: unknown word '$w'" ;;
		esac
	done
	[[ -z $quirks || $quirks =~ ^[a-z0-9,=-]+$ ]] || die "$manifest:$no: bad quirks '$quirks'"
	read -r -a rest <<< "${line#*:}"
	tsrcs='' tflags='' flags=0
	for w in "${rest[@]+"${rest[@]}"}"; do
		if [ "$flags" = 0 ] && [ "$w" = -- ]; then flags=1
		elif [ "$flags" = 1 ]; then tflags="$tflags $w"
		else tsrcs="$tsrcs $w"
		fi
	done
	[ -n "$tsrcs" ] || die "$manifest:$no: test '$name' has no source file"
	build_test "$name" "$pc" "$quirks" "$tsrcs" "$tflags"
	built+=("$name")
done < "$manifest"
[ "${#built[@]}" -gt 0 ] || die "no test in $manifest"
echo "dmafuzz build.sh: built ${built[*]} into $OUT"
