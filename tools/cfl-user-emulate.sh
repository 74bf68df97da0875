#!/bin/sh
# SPDX-License-Identifier: MIT
# `make cfl-user-check`: the CI templates (templates/) tested by emulation,
# as tools/oss-fuzz-emulate.sh tests the project's own OSS-Fuzz layout.
#
# A user project is made in a temporary folder with the installed
# `dmafuzz new-test` (so it needs nothing of examples/): "tile", a
# PMSIS test body whose own tile.c loads a tile from L3 and checks it;
# "kernel", a Snitch body (flavor snrt) with quirks=snrt-head, whose check
# is that it runs with DFZ_QUIRKS=snrt-head (build.sh's part); "prog", a
# PMSIS program with its own main (flavor main). The template
# clusterfuzzlite/build.sh then runs as the libFuzzer builder image runs
# it: the project copied to $SRC/project (COPY . $SRC/project; WORKDIR),
# the script as $SRC/build.sh, the environment cleared but for the
# builder's variables (CC=clang, CXX=clang++, CFLAGS/CXXFLAGS of
# SANITIZER=address and of libFuzzer's coverage, -stdlib=libc++ where
# that links, LIB_FUZZING_ENGINE=-fsanitize=fuzzer, FUZZING_ENGINE,
# FUZZING_LANGUAGE, ARCHITECTURE, fresh $SRC $OUT $WORK) and
# DMAFUZZ_PREFIX, the dmafuzz install under test (the Dockerfile's
# /usr/local).
#
# Checks, per test: $OUT/<test> is an executable with ASan and libFuzzer;
# <test>_seed_corpus.zip holds the empty schedule; <test>.options is
# there. Each target runs its seeds once (-runs=0) and fuzzes RUNS
# executions (default 2000) with its .options; any crash fails. The same
# project then goes through new-test's dmafuzz-tests.mk: its plain,
# libFuzzer and AFL++ builds (AFL++ when installed), `check`, `fuzz` for a
# second a test and afl-fuzz for two seconds on tile. Then the
# YAML: every workflow and project.yaml parses (python3 yaml; without it a
# structural check, said in one line), each workflow has its triggers,
# jobs with runs-on and steps, the ClusterFuzzLite actions only take
# inputs their action.yml declares (v1), each run: script passes `bash
# -n`, and the nightly calls `dmafuzz campaign` with -o and -S.
#
# SABOTAGE=1 writes tile.c reading its tile before the wait: the seed run
# must then crash (an ASan report at tile.c), and this script fails.
# KEEP=1 keeps the temporary tree.
# Usage: cfl-user-emulate.sh PREFIX   (dmafuzz installed there, with
#        libdmafuzz-fuzz.a: make install PREFIX=...)
# Exit: 0 every check passed, 1 a check failed, 2 the setup failed.
set -u

say() { printf '%s\n' "$*"; }
bad() { say "cfl-user-check: FAIL: $*"; fail=1; }
[ $# -eq 1 ] || { say "usage: cfl-user-emulate.sh PREFIX"; exit 2; }
prefix=$(cd "$1" && pwd) || exit 2
root=$(cd "$(dirname "$0")/.." && pwd)
tpl=$root/templates
runs=${RUNS:-2000}
fail=0
case $runs in *[!0-9]*|'') say "cfl-user-check: RUNS must be a whole number"; exit 2 ;; esac
[ -x "$prefix/bin/dmafuzz" ] || { say "cfl-user-check: no $prefix/bin/dmafuzz"; exit 2; }
for t in clang clang++ nm; do
	command -v "$t" >/dev/null 2>&1 || { say "cfl-user-check: $t is needed"; exit 2; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmafuzz-cfl-user.XXXXXX") || exit 2
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then say "cfl-user-check: kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
proj=$tmp/project out=$tmp/out src=$tmp/src work=$tmp/work
mkdir -p "$proj" "$out" "$src" "$work"

# 1. The user project, as a user makes it.
read_at='pi_cl_ram_read_wait(&req);
	ok = memcmp(l2, in, sizeof(in)) == 0;'
[ "${SABOTAGE:-0}" = 1 ] && read_at='ok = memcmp(l2, in, sizeof(in)) == 0; /* before the wait */
	pi_cl_ram_read_wait(&req);'
cat > "$proj/tile.c" <<EOF
#include <string.h>
#include <pmsis.h>
#include <bsp/ram.h>
#include <dmafuzz/dropin.h>

void run_tile(void);

void run_tile(void)
{
	uint8_t in[256];
	uint32_t l3 = (uint32_t)(uintptr_t)cl_ram_malloc(sizeof(in));
	uint8_t *l2 = pi_l2_malloc(sizeof(in));
	pi_cl_ram_req_t req;
	int ok;

	for (unsigned i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 1);
	dfz_dropin_l3_write(l3, in, sizeof(in));
	pi_cl_ram_read(get_ram_ptr(), l3, l2, sizeof(in), &req);
	$read_at
	DFZ_DROPIN_CHECK(ok);
	pi_l2_free(l2, sizeof(in));
	cl_ram_free((void *)(uintptr_t)l3, sizeof(in));
}
EOF
if ! (cd "$proj" && "$prefix/bin/dmafuzz" new-test tile -s tile.c &&
	"$prefix/bin/dmafuzz" new-test kernel --flavor snrt -q snrt-head &&
	"$prefix/bin/dmafuzz" new-test prog --flavor main) > "$tmp/new-test.log" 2>&1; then
	say "cfl-user-check: dmafuzz new-test failed:"; cat "$tmp/new-test.log"; exit 2
fi
# The user's call where the skeleton says so.
sed -i -e 's|^/\* The test body, run once per schedule. \*/$|void run_tile(void);\n\n&|' \
	-e 's|/\* TODO: call your code. \*/|run_tile();|' "$proj/test_tile.c"
grep -q '^	run_tile();' "$proj/test_tile.c" ||
	{ say "cfl-user-check: the skeleton has no 'TODO: call your code' line"; exit 2; }
# kernel's check: it runs with its quirks= as DFZ_QUIRKS (build.sh compiles
# them in; the runs below have no DFZ_QUIRKS of their own).
sed -i -e 's|^#include <snrt.h>$|#include <stdlib.h>\n#include <string.h>\n&|' \
	-e 's|DFZ_DROPIN_CHECK(1);|DFZ_DROPIN_CHECK(getenv("DFZ_QUIRKS") \&\& !strcmp(getenv("DFZ_QUIRKS"), "snrt-head"));|' \
	"$proj/test_kernel.c"
grep -q 'snrt-head"));' "$proj/test_kernel.c" ||
	{ say "cfl-user-check: the snrt skeleton has no DFZ_DROPIN_CHECK(1) line"; exit 2; }
mkdir -p "$proj/.clusterfuzzlite" "$proj/.github/workflows"
cp "$tpl/clusterfuzzlite/"* "$proj/.clusterfuzzlite/"
cp "$tpl/github/workflows/"*.yml "$proj/.github/workflows/"
tests=$(sed -n 's/^\([A-Za-z0-9_-]*\)[ :].*/\1/p' "$proj/dmafuzz.tests" | tr "\n" " ")
say "cfl-user-check: project with tests: $tests"

# 2. The image: COPY . $SRC/project; COPY .clusterfuzzlite/build.sh $SRC/.
cp -r "$proj" "$src/project"
cp "$proj/.clusterfuzzlite/build.sh" "$src/build.sh"
cflags="-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
stdlib=-stdlib=libc++
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n){(void)d;(void)n;return 0;}\n' |
	clang++ -x c++ -stdlib=libc++ -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1 || {
	stdlib=
	say "cfl-user-check: note: this clang's libFuzzer does not link with libc++: CXXFLAGS without -stdlib=libc++"
}
t0=$(date +%s)
if ! (cd "$src/project" && env -i PATH="$PATH" HOME="$work" \
	CC=clang CXX=clang++ CFLAGS="$cflags" CXXFLAGS="$cflags $stdlib" \
	LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address \
	FUZZING_ENGINE=libfuzzer FUZZING_LANGUAGE=c ARCHITECTURE=x86_64 \
	OUT="$out" SRC="$src" WORK="$work" DMAFUZZ_PREFIX="$prefix" \
	bash -eu "$src/build.sh") > "$tmp/build.log" 2>&1; then
	say "cfl-user-check: FAIL: build.sh failed; its last lines:"
	tail -n 15 "$tmp/build.log"
	exit 1
fi
say "cfl-user-check: build.sh ok in $(($(date +%s) - t0)) s"

# 3. Each target: its files, its seeds once, a short fuzz.
for t in $tests; do
	b=$out/$t
	[ -x "$b" ] || { bad "$t: no executable \$OUT/$t"; continue; }
	nm "$b" 2>/dev/null | grep -q __asan_init || bad "$t: no ASan in \$OUT/$t"
	nm "$b" 2>/dev/null | grep -q 'LLVMFuzzerRunDriver\|fuzzer::Fuzzer' ||
		bad "$t: no libFuzzer in \$OUT/$t"
	grep -qx '\[libfuzzer\]' "$out/$t.options" 2>/dev/null || bad "$t: no \$OUT/$t.options"
	c=$tmp/corpus/$t
	mkdir -p "$c" "$tmp/new/$t" "$tmp/crash/$t"
	if ! python3 -m zipfile -e "$out/${t}_seed_corpus.zip" "$c" 2>/dev/null; then
		bad "$t: no readable \$OUT/${t}_seed_corpus.zip"; continue
	fi
	if [ ! -f "$c/empty" ] || [ -s "$c/empty" ]; then
		bad "$t: ${t}_seed_corpus.zip lacks the empty schedule"
	fi
	opts=$(sed -n 's/^ *\([a-z_]*\) *= *\(.*\)$/-\1=\2/p' "$out/$t.options")
	# shellcheck disable=SC2086 # $opts is a list of flags
	if ! (cd "$out" && unset DFZ_QUIRKS && "$b" $opts -runs=0 "$c") > "$tmp/$t.seeds.log" 2>&1; then
		bad "$t: its seed corpus crashes it:"
		grep -E 'ERROR|SUMMARY|CLASS|AT:' "$tmp/$t.seeds.log" | head -n 4
		continue
	fi
	s0=$(date +%s)
	# shellcheck disable=SC2086
	if (cd "$out" && unset DFZ_QUIRKS && "$b" $opts -runs="$runs" -seed=1 -print_final_stats=1 \
		-artifact_prefix="$tmp/crash/$t/" "$tmp/new/$t" "$c") > "$tmp/$t.fuzz.log" 2>&1; then
		ex=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.fuzz.log")
		cov=$(sed -n 's/^#[0-9]*.*cov: \([0-9]*\).*/\1/p' "$tmp/$t.fuzz.log" | tail -n 1)
		say "  $t: seeds clean; fuzz $ex execs in $(($(date +%s) - s0)) s, clean, cov ${cov:-?}"
	else
		bad "$t: fuzzing crashed (artifacts in $tmp/crash/$t):"
		grep -E 'ERROR|SUMMARY|CLASS|AT:' "$tmp/$t.fuzz.log" | head -n 4
		KEEP=1
	fi
done

# 4. The same project through new-test's dmafuzz-tests.mk against the
#    same install: the plain, libFuzzer and AFL++ builds of every test,
#    `check`, `fuzz` a second a test, and afl-fuzz two seconds on tile.
frag() {
	(cd "$proj" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		PKG_CONFIG_PATH="$prefix/lib/pkgconfig" PATH="$prefix/bin:$PATH" \
		make -f dmafuzz-tests.mk "$@") >> "$tmp/frag.log" 2>&1
}
afl=dmafuzz-afl
command -v afl-clang-fast >/dev/null 2>&1 || afl=
if frag dmafuzz-plain dmafuzz-libfuzzer $afl && frag check DFZ_RUNS=20 &&
	frag fuzz DFZ_FUZZ_SECONDS=1 &&
	{ [ -z "$afl" ] || ! command -v afl-fuzz >/dev/null 2>&1 ||
		frag dmafuzz-fuzz-afl-tile DFZ_FUZZ_SECONDS=2; }; then
	n=$(grep -c 'VERDICT: clean' "$tmp/frag.log")
	say "  dmafuzz-tests.mk: plain, libFuzzer${afl:+, AFL++} builds; check: $n clean; fuzz clean${afl:+; afl-fuzz ran}"
	[ "$n" -eq 3 ] || bad "dmafuzz-tests.mk check ran $n tests clean, not 3"
else
	bad "dmafuzz-tests.mk:"; grep -aE 'rror|ABORT|CLASS|AT:' "$tmp/frag.log" | head -n 5
fi

# 5. The YAML of the templates.
if python3 "$root/tools/cfl-user-yaml.py" "$proj/.clusterfuzzlite/project.yaml" \
	"$proj"/.github/workflows/*.yml > "$tmp/yaml.log" 2>&1; then
	sed 's/^/  /' "$tmp/yaml.log"
else
	bad "the templates' YAML:"; cat "$tmp/yaml.log"
fi
[ "$fail" -eq 0 ] &&
	say "cfl-user-check: ok: build.sh builds every test of a new-test project; seeds, options there; every target runs its seeds and fuzzes clean; the YAML holds"
exit $fail
