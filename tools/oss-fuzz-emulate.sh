#!/bin/sh
# SPDX-License-Identifier: MIT
# `make oss-fuzz-check`: runs fuzz/oss-fuzz/build.sh as the OSS-Fuzz /
# ClusterFuzzLite libFuzzer builder image does (Docker cannot run here),
# then checks what it produced and runs every target.
#
# The emulated image: the source tree copied to $SRC/dmafuzz (the files git
# knows, as they are in the work tree: `COPY . $SRC/dmafuzz`), and
# .clusterfuzzlite/build.sh as $SRC/build.sh, run from $SRC/dmafuzz with
# the environment cleared but for the builder's variables: CC=clang,
# CXX=clang++, CFLAGS/CXXFLAGS of SANITIZER (address: -fsanitize=address
# -fsanitize-address-use-after-scope; undefined: the UBSan checks) and
# of libFuzzer coverage (-fsanitize=fuzzer-no-link), CXXFLAGS with
# -stdlib=libc++ (dropped, with a note, where libc++ is not installed),
# LIB_FUZZING_ENGINE=-fsanitize=fuzzer, FUZZING_ENGINE=libfuzzer,
# FUZZING_LANGUAGE=c, ARCHITECTURE=x86_64, and a fresh $OUT, $SRC, $WORK.
#
# Checks, per target (xfer host api parse): $OUT/<target> is an executable
# with ASan (or UBSan) and libFuzzer in it; <target>_seed_corpus.zip holds
# as many seeds as the text corpus gives (tools/fuzz-seeds.sh); the .dict
# and the .options ([libfuzzer], dict = <target>.dict) are there. Then
# each target runs every seed of its unzipped corpus once (-runs=0) and
# fuzzes a short while (-runs=RUNS, XFER_RUNS for xfer) with the options
# of its .options file, as the runner image passes them; any crash fails.
#
# Env: SANITIZER (address | undefined; default address), RUNS (default
# 2000), XFER_RUNS (default 300), KEEP=1 keeps the temporary tree. The
# build sees none of the caller's environment; the runs see it, so that
# DMAFUZZ_BUGS=shared-handle shows the check failing (xfer's seeds crash).
# Exit: 0 every check passed, 1 a check failed, 2 the build could not run.
set -u

san=${SANITIZER:-address}
runs=${RUNS:-2000}
xfer_runs=${XFER_RUNS:-300}
targets="xfer host api parse"
root=$(cd "$(dirname "$0")/.." && pwd)
fail=0

say() { printf '%s\n' "$*"; }
bad() { say "oss-fuzz-check: FAIL: $*"; fail=1; }

case $runs$xfer_runs in
*[!0-9]*) say "oss-fuzz-check: RUNS and XFER_RUNS must be whole numbers"; exit 2 ;;
esac
if ! command -v clang >/dev/null 2>&1 || ! command -v clang++ >/dev/null 2>&1; then
	say "oss-fuzz-check: clang and clang++ are needed (sh tools/deps.sh libfuzzer)"
	exit 2
fi

# The builder image's flags (infra/base-images/base-builder, libFuzzer).
common="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
case $san in
address)
	sflags="-fsanitize=address -fsanitize-address-use-after-scope"
	want=__asan_init ;;
undefined)
	checks=array-bounds,bool,builtin,enum,float-divide-by-zero,function,integer-divide-by-zero,null,object-size,return,returns-nonnull-attribute,shift,signed-integer-overflow,unsigned-integer-overflow,unreachable,vla-bound,vptr
	sflags="-fsanitize=$checks -fno-sanitize-recover=${checks%,unsigned-integer-overflow*}${checks#*unsigned-integer-overflow}"
	want=__ubsan_handle ;;
*) say "oss-fuzz-check: SANITIZER must be address or undefined, not '$san'"; exit 2 ;;
esac
cflags="$common $sflags -fsanitize=fuzzer-no-link"
# The image's libFuzzer is built against libc++ (CXXFLAGS has
# -stdlib=libc++); a distribution's is often built against libstdc++,
# and then only links without it.
stdlib=-stdlib=libc++
if ! printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}\n' |
	clang++ -x c++ -stdlib=libc++ -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
	stdlib=
	say "oss-fuzz-check: note: this clang's libFuzzer does not link with libc++:" \
		"CXXFLAGS without -stdlib=libc++"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmafuzz-oss-fuzz.XXXXXX") || exit 2
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then say "oss-fuzz-check: kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
out=$tmp/out src=$tmp/src work=$tmp/work
mkdir -p "$out" "$src/dmafuzz" "$work"

# The image: COPY . $SRC/dmafuzz; COPY .clusterfuzzlite/build.sh $SRC/.
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 tar cf - --ignore-failed-read 2>/dev/null) | tar xf - -C "$src/dmafuzz" ||
	{ say "oss-fuzz-check: cannot copy the source tree"; exit 2; }
cp "$root/.clusterfuzzlite/build.sh" "$src/build.sh"

say "oss-fuzz-check: building (SANITIZER=$san) into $out"
t0=$(date +%s)
if ! (cd "$src/dmafuzz" && env -i PATH="$PATH" HOME="$work" \
	CC=clang CXX=clang++ CFLAGS="$cflags" CXXFLAGS="$cflags $stdlib" \
	LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER="$san" \
	FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=c ARCHITECTURE=x86_64 \
	OUT="$out" SRC="$src" WORK="$work" bash -eu "$src/build.sh") \
	> "$tmp/build.log" 2>&1; then
	say "oss-fuzz-check: FAIL: build.sh failed; its last lines:"
	tail -n 15 "$tmp/build.log"
	exit 1
fi
say "oss-fuzz-check: build.sh ok in $(($(date +%s) - t0)) s; \$OUT holds:"
find "$out" -maxdepth 1 -type f -printf '  %-26f %9s bytes\n' | sort

# The number of seeds the text corpus gives target $1 (the CLI build.sh
# made, the same script).
seeds_of() {
	find "$work/dmafuzz/seeds/$1" -type f | wc -l
}

# The libFuzzer flags of an .options file ($1): -key=value from its
# [libfuzzer] section, with the dictionary's path made absolute.
options_of() {
	awk -v dir="$out" '
		/^\[/ { sec = $0; next }
		sec == "[libfuzzer]" && /=/ {
			split($0, kv, "="); k = kv[1]; v = substr($0, index($0, "=") + 1)
			gsub(/[ \t]/, "", k); gsub(/^[ \t]+|[ \t]+$/, "", v)
			if (k == "dict") v = dir "/" v
			printf "-%s=%s ", k, v
		}' "$1"
}

# Run target $1 from $OUT with the flags of its .options ($opts) and the
# arguments after $3, its output to $2; when it fails, one FAIL line ($3
# says what ran) and the lines of its output that tell why.
run_target() {
	rt_t=$1 rt_log=$2 rt_what=$3
	shift 3
	# shellcheck disable=SC2086 # $opts is a list of flags
	(cd "$out" && "$out/$rt_t" $opts "$@") > "$rt_log" 2>&1 && return 0
	bad "$rt_t: $rt_what exits $?"
	grep -E 'ERROR|SUMMARY|CLASS|MESSAGE' "$rt_log" | head -n 5
	return 1
}

for t in $targets; do
	say "oss-fuzz-check: $t"
	b=$out/$t
	if [ ! -x "$b" ]; then bad "$t: no executable \$OUT/$t"; continue; fi
	nm "$b" 2>/dev/null | grep -q "$want" || bad "$t: no $san sanitizer in \$OUT/$t"
	nm "$b" 2>/dev/null | grep -q 'LLVMFuzzerRunDriver\|fuzzer::Fuzzer' ||
		bad "$t: no libFuzzer in \$OUT/$t"
	[ -s "$out/$t.dict" ] || bad "$t: no \$OUT/$t.dict"
	if ! grep -qx '\[libfuzzer\]' "$out/$t.options" 2>/dev/null ||
		! grep -q "^dict = $t.dict\$" "$out/$t.options"; then
		bad "$t: \$OUT/$t.options lacks [libfuzzer] / dict = $t.dict"
	fi
	zip=$out/${t}_seed_corpus.zip
	c=$tmp/corpus/$t
	mkdir -p "$c"
	if ! python3 -m zipfile -e "$zip" "$c" 2>/dev/null; then
		bad "$t: no readable \$OUT/${t}_seed_corpus.zip"
		continue
	fi
	n=$(find "$c" -type f | wc -l)
	if [ "$n" -eq 0 ] || [ "$n" -ne "$(seeds_of "$t")" ]; then
		bad "$t: ${t}_seed_corpus.zip holds $n seeds, the corpus gives $(seeds_of "$t")"
	fi
	opts=$(options_of "$out/$t.options")
	# Every seed once (as the runner does before fuzzing).
	if run_target "$t" "$tmp/$t.seeds.log" "the seed corpus run" -runs=0 "$c"; then
		cov=$(sed -n 's/.*INITED cov: \([0-9]*\).*/\1/p' "$tmp/$t.seeds.log" | tail -n 1)
		say "  seeds: $n run, exit 0, coverage ${cov:-?} edges"
	fi
	# A short fuzz from the seeds, into a scratch corpus.
	r=$runs
	[ "$t" = xfer ] && r=$xfer_runs
	mkdir -p "$tmp/new/$t" "$tmp/crash/$t"
	s0=$(date +%s)
	if run_target "$t" "$tmp/$t.fuzz.log" "fuzzing (artifacts in $tmp/crash/$t)" \
		-runs="$r" -seed=1 -print_final_stats=1 -artifact_prefix="$tmp/crash/$t/" \
		"$tmp/new/$t" "$c"; then
		ex=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.fuzz.log")
		cov=$(sed -n 's/^#[0-9]*.*cov: \([0-9]*\).*/\1/p' "$tmp/$t.fuzz.log" | tail -n 1)
		say "  fuzz: $ex execs in $(($(date +%s) - s0)) s (-runs=$r $opts), exit 0, coverage ${cov:-?} edges"
	else
		KEEP=1
	fi
done
if [ "$fail" -eq 0 ]; then
	say "oss-fuzz-check: ok: build.sh builds every target; seeds, dictionaries and options are there; every target runs its seeds and fuzzes clean"
fi
exit $fail
