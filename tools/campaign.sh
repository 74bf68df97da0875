#!/bin/sh
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2016,SC2034,SC2317
# (SC2016: backquotes in single quotes are Markdown; SC2034: fuzz-lib.sh
# reads replay, cli, seed and script; SC2317: functions called by traps)
# `dmafuzz campaign`: a fuzz campaign over the user's own drop-in tests
# (docs/campaign.md). The CLI checks the options and runs this script,
# installed as PREFIX/share/dmafuzz/campaign.sh beside fuzz-lib.sh.
#
# The tests come from a manifest (NAME [pc=MODULE] [quirks=LIST]: FILE.c
# ... [-- CFLAGS], or NAME bin=DIR: for binaries built by the user) or a
# directory (every test_*.c, with the other .c of its folder). Each is
# built through pkg-config: plain (cc), AFL++
# (afl-clang-fast), libFuzzer (clang -fsanitize=fuzzer,address against
# dmafuzz-dropin-fuzz) and ASan, in OUT/build/<test>/. The fuzzing time,
# SECONDS, is shared: the units (a test under an engine) run JOBS at a
# time, each for its share. Every crash and hang is copied into
# OUT/findings/<test>/ as soon as it is seen (fuzz-lib.sh's keep: never
# overwritten, once by content); afl-cmin keeps a corpus per test in
# OUT/corpus/<test>/, seeded with the empty schedule and the saved
# findings (one that still has a finding stays out). Then every finding
# is replayed (OUT/work/<test>.classes), the record OUT/campaign.txt is
# written, and `dmafuzz triage` and `dmafuzz report` run on OUT.
#
# A run killed (even with SIGKILL) resumes: the next run on OUT copies
# what the fuzzers left first, and runs again the units that had not
# ended. One campaign per OUT (the nightly's lock, fuzz-lib.sh).
#
# Exit: 0 no open finding, 1 an open finding, 2 could not run (a tool or
# a pkg-config module missing, a build failed), 64 a bad argument or
# manifest, 75 OUT in use, 130 interrupted (the next run resumes).
#
# Usage: campaign.sh [-c DMAFUZZ] [-o OUT] [-S SECONDS] [-j JOBS]
#                    [-r SRCROOT] [-e afl|libfuzzer|both] [-V] [-A]
#                    [-n NAME]... MANIFEST|DIR
#        -V: no valgrind pass, -A: no ASan build.
set -u

script=campaign
cli=dmafuzz
out=out/campaign
seconds=600
jobs=
srcroot=
engine=
valgrind=1
asan=1
names=
# shellcheck source=tools/fuzz-lib.sh
. "$(dirname "$0")/fuzz-lib.sh"

bad() {
	say "campaign: $1"
	exit 64
}

while getopts c:o:S:j:r:e:VAn: opt; do
	case $opt in
	c) cli=$OPTARG ;;
	o) out=$OPTARG ;;
	S) seconds=$OPTARG ;;
	j) jobs=$OPTARG ;;
	r) srcroot=$OPTARG ;;
	e) engine=$OPTARG ;;
	V) valgrind=0 ;;
	A) asan=0 ;;
	n) names="$names $OPTARG" ;;
	*) bad "usage: $(sed -n 's/^# Usage: campaign.sh //p' "$0") ..." ;;
	esac
done
shift $((OPTIND - 1))

# ------------------------------------------------------------ arguments
[ $# -eq 1 ] || bad "one MANIFEST or DIR expected (try 'dmafuzz campaign --help')"
case $seconds in
'' | *[!0-9]* | 0*) bad "SECONDS must be a whole number from 1 to 604800, not '$seconds'" ;;
esac
[ "$seconds" -le 604800 ] || bad "SECONDS must be a whole number from 1 to 604800, not '$seconds'"
[ -n "$jobs" ] || jobs=$(nproc 2>/dev/null || echo 1)
case $jobs in
'' | *[!0-9]* | 0*) bad "JOBS must be a whole number from 1 to 256, not '$jobs'" ;;
esac
[ "$jobs" -le 256 ] || bad "JOBS must be a whole number from 1 to 256, not '$jobs'"
case $engine in
'' | afl | libfuzzer | both) ;;
*) bad "the engine must be afl, libfuzzer or both, not '$engine'" ;;
esac
for n in $names; do
	case $n in *[!A-Za-z0-9_-]*) bad "a test name is letters, digits, '_' or '-', not '$n'" ;; esac
done
[ -e "$1" ] || bad "$1: no such file or directory"
# Absolute paths: the builds run in the tests' folder.
abs() { (cd "$1" && pwd -P); }
case $out in /*) ;; *) out=$(pwd -P)/$out ;; esac
if [ -d "$1" ]; then
	base=$(abs "$1") || bad "$1: cannot enter"
	manifest=
else
	base=$(abs "$(dirname "$1")") || bad "$1: cannot enter its folder"
	manifest=$base/$(basename "$1")
	[ -r "$manifest" ] || bad "$1: cannot read"
fi
if [ -n "$srcroot" ]; then
	[ -d "$srcroot" ] || bad "--srcroot $srcroot: no such directory"
	srcroot=$(abs "$srcroot")
else
	srcroot=$base
fi
tl=$(mktemp "${TMPDIR:-/tmp}/dfz-campaign.XXXXXX") || exit 2
trap 'rm -f "$tl" "$tl.files" "$tl.sel"' EXIT

# ------------------------------------------------------------ the tests
# One test: name, module, quirks, sources (absolute), CFLAGS, where it
# was read and its folder of prebuilt binaries (or empty), a line of $tl
# (tab-separated).
add_test() {
	if awk -F '\t' -v n="$1" '$1 == n { f = 1 } END { exit !f }' "$tl"; then
		bad "$6: a second test named '$1'"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$tl"
}

# A manifest line $2 (where: $1): NAME [pc=M] [quirks=L]: FILE.c... [-- CFLAGS]
manifest_line() {
	case $2 in *:*) ;; *) bad "$1: expected 'NAME [pc=MODULE] [quirks=LIST]: FILE.c ...'" ;; esac
	ml_at=$1 ml_rest=${2#*:}
	set -f
	# shellcheck disable=SC2086 # the words of the line
	set -- ${2%%:*}
	[ $# -ge 1 ] || bad "$ml_at: no test name before ':'"
	ml_name=$1 ml_pc=dmafuzz-dropin ml_q='' ml_bin=''
	case $ml_name in *[!A-Za-z0-9_-]*) bad "$ml_at: the test name '$ml_name' is not [A-Za-z0-9_-]+" ;; esac
	shift
	for w in "$@"; do
		case $w in
		pc=*[!A-Za-z0-9_.+-]* | pc=) bad "$ml_at: $ml_name: a bad module in '$w'" ;;
		pc=*) ml_pc=${w#pc=} ;;
		quirks=*[!A-Za-z0-9_,=-]* | quirks=) bad "$ml_at: $ml_name: a bad quirk list in '$w'" ;;
		quirks=*) ml_q=${w#quirks=} ;;
		bin=) bad "$ml_at: $ml_name: bin= wants a folder" ;;
		bin=*) ml_bin=${w#bin=}
		       case $ml_bin in /*) ;; *) ml_bin=$base/$ml_bin ;; esac
		       if [ ! -f "$ml_bin/plain" ] || [ ! -x "$ml_bin/plain" ]; then
			       bad "$ml_at: $ml_name: $ml_bin/plain: no such executable (bin=DIR holds plain, and afl, libfuzzer, asan when built)"
		       fi
		       ml_bin=$(abs "$ml_bin") ;;
		*) bad "$ml_at: $ml_name: unknown field '$w' (pc=MODULE, quirks=LIST, bin=DIR)" ;;
		esac
	done
	ml_files='' ml_cf='' ml_in=0
	# shellcheck disable=SC2086 # the words of the line
	set -- $ml_rest
	set +f
	for w in "$@"; do
		if [ $ml_in = 1 ]; then ml_cf="$ml_cf $w"; continue; fi
		case $w in
		--) ml_in=1 ;;
		*.c) case $w in /*) f=$w ;; *) f=$base/$w ;; esac
		     [ -f "$f" ] || bad "$ml_at: $ml_name: $w: no such file"
		     ml_files="$ml_files $f" ;;
		*) bad "$ml_at: $ml_name: '$w' is not a .c file (CFLAGS go after --)" ;;
		esac
	done
	if [ -n "$ml_bin" ]; then
		[ -z "$ml_files$ml_cf" ] || bad "$ml_at: $ml_name: bin=DIR takes no sources or CFLAGS (its binaries are built)"
		[ -z "$ml_q" ] || bad "$ml_at: $ml_name: bin=DIR takes no quirks= (build them in, or set DFZ_QUIRKS)"
	else
		[ -n "$ml_files" ] || bad "$ml_at: $ml_name: no source file"
	fi
	add_test "$ml_name" "$ml_pc" "$ml_q" "${ml_files# }" "${ml_cf# }" "$ml_at" "$ml_bin"
}

# shellcheck disable=SC2094 # reads the manifest, writes the test list
read_manifest() {
	rm_n=0
	while IFS= read -r rm_l || [ -n "$rm_l" ]; do
		rm_n=$((rm_n + 1))
		rm_l=$(printf '%s' "${rm_l%%#*}" | tr '\t\r' '  ')
		case $rm_l in *[![:space:]]*) manifest_line "$(basename "$manifest"):$rm_n" "$rm_l" ;; esac
	done < "$manifest"
	[ -s "$tl" ] || bad "$manifest: no test in it"
}

# The directory convention: every test_*.c under $base is a test named
# after it, built with the other .c files of its own folder.
scan_dir() {
	find "$base" \( -path "$out" -o \( -name '.*' ! -path "$base" \) \) -prune -o \
		-type f -name 'test_*.c' -print | LC_ALL=C sort > "$tl.files"
	[ -s "$tl.files" ] || bad "$base: no test_*.c under it"
	while IFS= read -r f; do
		n=$(basename "$f" .c)
		n=${n#test_}
		case $n in '' | *[!A-Za-z0-9_-]*) bad "$f: a test name is [A-Za-z0-9_-]+, not '$n'" ;; esac
		srcs=$(find "$(dirname "$f")" -maxdepth 1 -type f -name '*.c' ! -name 'test_*.c' |
			LC_ALL=C sort | tr '\n' ' ')
		add_test "$n" dmafuzz-dropin "" "$f ${srcs% }" "" "$f" ""
	done < "$tl.files"
	rm -f "$tl.files"
}

# The field $2 (1 name ... 6 where, 7 prebuilt folder) of test $1.
field() {
	awk -F '\t' -v n="$1" -v f="$2" '$1 == n { print $f; exit }' "$tl"
}

if [ -n "$manifest" ]; then read_manifest; else scan_dir; fi
if [ -n "$names" ]; then
	for n in $names; do
		[ -n "$(field "$n" 1)" ] || bad "no test named '$n' in $1"
	done
	# shellcheck disable=SC2086 # the names, a list
	awk -F '\t' -v l=" $names " 'index(l, " " $1 " ")' "$tl" > "$tl.sel" && mv "$tl.sel" "$tl"
fi
tests=$(cut -f 1 "$tl" | tr '\n' ' ')
tests=${tests% }

# ------------------------------------------------------------ the tools
# Exit 2 after one line when tool $1 is missing ($2: what it is for).
need() {
	command -v "$1" > /dev/null 2>&1 ||
		{ say "campaign: $1 not found ($2)"; rm -f "$tl"; exit 2; }
}
need pkg-config "the builds"
need flock "the lock on OUT (util-linux)"
have() { command -v "$1" > /dev/null 2>&1; }
if [ -z "$engine" ]; then
	if have clang && have afl-clang-fast && have afl-fuzz; then engine=both
	elif have afl-clang-fast && have afl-fuzz; then engine=afl
	elif have clang; then engine=libfuzzer
	else say "campaign: no fuzzer: neither afl-fuzz nor clang found"; rm -f "$tl"; exit 2
	fi
fi
engines=$engine
[ "$engine" = both ] && engines="afl libfuzzer"
case " $engines " in *" afl "*)
	need afl-clang-fast "the AFL++ builds (--engine libfuzzer goes without)"
	need afl-fuzz "the AFL++ engine"
	need afl-cmin "the corpus kept between runs" ;;
esac
case " $engines " in *" libfuzzer "*) need clang "the libFuzzer builds (--engine afl goes without)" ;; esac
asan_cc=
if [ "$asan" = 1 ]; then
	if have clang; then asan_cc=clang; else asan_cc=${CC:-cc}; fi
fi
if [ "$valgrind" = 1 ] && ! have valgrind; then
	say "campaign: valgrind not found: no valgrind pass (--no-valgrind says so)"
	valgrind=0
fi
for t in $tests; do
	pkg-config --exists "$(field "$t" 2)" || {
		say "campaign: test $t: pkg-config module $(field "$t" 2) not found" \
			"(make install; PKG_CONFIG_PATH)"
		rm -f "$tl"
		exit 2
	}
done
# libFuzzer builds link the library built for coverage when installed.
fuzzlib=0
pkg-config --exists dmafuzz-dropin-fuzz && fuzzlib=1

# ------------------------------------------------------------ OUT
bugs=
seed=1
findings=$out/findings
work=$out/work
replay=$work/replay
corpus=$out/corpus
stamp=$(date +%Y%m%d-%H%M%S)
found=0
failed=0
locked=
lock_more=$out/libfuzzer
own_bins=$out/build
lock
trap 'unlock; [ "$tl" = "$work/tests" ] || rm -f "$tl"' EXIT
mkdir -p "$findings" "$work/replay" "$work/tmp" "$corpus" "$out/afl" "$out/libfuzzer" "$out/build" ||
	{ say "campaign: cannot create the folders of $out"; exit 2; }
cp "$tl" "$work/tests" && rm -f "$tl" && tl=$work/tests
rm -f "$work/failures"

# The state of the campaign: "status running" from the start of a run
# until its report; a run that finds it so resumes.
state_get() { sed -n "s/^$1 //p" "$work/state" 2>/dev/null; }
state_put() {
	{ printf 'status %s\nrun %s\nattempt %s\nstarted %s\n' "$1" "$run" "$attempt" "$started"; } \
		> "$work/state.part" && mv "$work/state.part" "$work/state"
}

# ------------------------------------------------------------ findings
# The verdict of schedule $2 of test $1 (its plain build), one JSON line.
verdict() {
	timeout 60 "$out/build/$1/plain" --json "$2" 2> /dev/null | head -n 1
}

# "CLASS SITE PRIOR" of a verdict line $1 ("clean" when it has none).
signature() {
	printf '%s\n' "$1" | sed -n '
		/"verdict":"clean"/ { s/.*/clean/p; q; }
		s/.*"class":"\([^"]*\)".*/\1/p' | head -n 1 | tr -d '\n'
	printf ' %s' "$(printf '%s\n' "$1" | sed -n 's/.*"site":{"file":"\([^"]*\)","line":\([0-9]*\).*/\1:\2/p')"
	printf ' %s\n' "$(printf '%s\n' "$1" | sed -n 's/.*"prior":{"file":"\([^"]*\)","line":\([0-9]*\).*/\1:\2/p')"
}

# Keep the artifacts libFuzzer saved for test $1 not seen yet: each is
# copied as lf-KIND-HASH unless five findings of its signature (class,
# site, prior: its replay) came from libFuzzer already in this run; in
# fork mode it saves every crashing input, most of them the same bug.
rescue_lf() {
	rl_d=$out/libfuzzer/$1/artifacts
	[ -d "$rl_d" ] || return 0
	touch "$work/$1.lfseen" "$work/$1.lfsig"
	LC_ALL=C sort -u "$work/$1.lfseen" > "$work/$1.lfseen.sorted"
	find "$rl_d" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' \
		-o -name 'leak-*' -o -name 'oom-*' -o -name 'slow-unit-*' \) | LC_ALL=C sort |
		LC_ALL=C comm -23 - "$work/$1.lfseen.sorted" > "$work/$1.lfnew"
	while read -r f; do
		b=$(basename "$f")
		sig=$(signature "$(verdict "$1" "$f")")
		if [ "$(grep -cxF "$sig" "$work/$1.lfsig")" -lt 5 ]; then
			kept=$(keep "$1" "$f" "lf-${b%%-*}-$(printf '%s' "${b#*-}" | cut -c 1-12)")
			[ "$kept" = "$f" ] && continue
			printf '%s\n' "$sig" >> "$work/$1.lfsig"
			printf '%s\n' "$kept" >> "$work/$1.found"
		fi
		printf '%s\n' "$f" >> "$work/$1.lfseen"
	done < "$work/$1.lfnew"
	rm -f "$work/$1.lfnew" "$work/$1.lfseen.sorted"
}

# Copy what every fuzzer of test $1 left: AFL++'s crashes and hangs,
# libFuzzer's artifacts.
rescue_test() {
	mkdir -p "$findings/$1"
	[ -d "$out/afl/$1" ] && rescue "$1" "$out/afl/$1" "$stamp" "$work/$1.seen" "$work/$1.found"
	rescue_lf "$1"
}

# A new run (the last one ended): what the fuzzers left is copied, then
# their folders start afresh from the kept corpus; the findings stay.
fresh() {
	for t in $tests; do
		rescue_test "$t"
		reap_orphans "$out/afl/$t"
		rm -rf "${out:?}/afl/$t" "$out/libfuzzer/$t/corpus" "$out/libfuzzer/$t/artifacts"
		rm -f "$work/$t.seen" "$work/$t.lfseen" "$work/$t.lfsig" "$work/$t.found" \
			"$work/$t.cmin.result"
	done
	rm -f "$work/units.done"
	rm -rf "${work:?}/tmp" && mkdir -p "$work/tmp"
}

# ------------------------------------------------------------ builds
# The compiler (with its sanitizer flags) of build $1 (plain, afl,
# libfuzzer, asan).
variant_cc() {
	case $1 in
	plain) echo "${CC:-cc}" ;;
	afl) echo afl-clang-fast ;;
	libfuzzer) echo "clang -fsanitize=fuzzer,address -fno-omit-frame-pointer" ;;
	asan) echo "$asan_cc -fsanitize=address,undefined -fno-omit-frame-pointer" ;;
	esac
}

# The pkg-config flags of build $2 of a test with module $1: libFuzzer
# builds link the library built for coverage (dmafuzz-dropin-fuzz's)
# when it is installed.
variant_flags() {
	vf=$(pkg-config --cflags --libs "$1") || return 1
	[ "$2" = libfuzzer ] && [ "$fuzzlib" = 1 ] &&
		vf=$(printf '%s\n' "$vf" | sed 's/-ldmafuzz\( \|$\)/-ldmafuzz-fuzz\1/')
	printf '%s\n' "$vf"
}

# What a build of test $1 depends on beyond its command: its sources,
# the headers under the tests' folder and beside its sources, and the
# installed libraries (a content key, one line).
deps_key() {
	if [ -n "$(field "$1" 7)" ]; then echo prebuilt; return; fi
	# shellcheck disable=SC2046 # the sources' folders, a list
	{
		# shellcheck disable=SC2086 # the sources, a list
		cat $(field "$1" 4)
		find "$base" $(for f in $(field "$1" 4); do dirname "$f"; done | sort -u) \
			\( -path "$out" -o \( -name '.*' ! -path "$base" \) \) -prune -o \
			-type f -name '*.h' -print 2> /dev/null | LC_ALL=C sort -u | xargs cat
		ls -lL "$(pkg-config --variable=libdir "$(field "$1" 2)")"/libdmafuzz*.a
	} 2> /dev/null | content_key /dev/stdin
}

# Build $2 of test $1 into OUT/build/<test>/$2, in the tests' folder,
# file names relative to SRCROOT in its findings (-ffile-prefix-map);
# kept from the last run when nothing it depends on changed.
build_one() {
	bo=$out/build/$1/$2
	if [ -n "$(field "$1" 7)" ]; then
		prebuilt "$1" "$2" "$(field "$1" 7)/$2"
		return
	fi
	bo_f=$(variant_flags "$(field "$1" 2)" "$2") ||
		{ echo "pkg-config $(field "$1" 2) failed" > "$bo.log"; return 1; }
	bo_q=
	[ -n "$(field "$1" 3)" ] && bo_q=$out/build/$1/quirks.c
	bo_k=$(printf '%s\n' "$(variant_cc "$2")" "$bo_f" "$(field "$1" 3)" "$(field "$1" 5)" \
		"$(cat "$out/build/$1/deps.key")" | content_key /dev/stdin)
	[ -x "$bo" ] && [ "$(cat "$bo.key" 2> /dev/null)" = "$bo_k" ] && return 0
	rm -f "$bo.key"
	# shellcheck disable=SC2046,SC2086 # words: the compiler, flags, files
	(cd "$base" && $(variant_cc "$2") -g -O1 -ffile-prefix-map="$srcroot/=" \
		$(field "$1" 4) $bo_q $(field "$1" 5) -o "$bo.part" $bo_f) > "$bo.log" 2>&1 ||
		return 1
	mv "$bo.part" "$bo" && echo "$bo_k" > "$bo.key"
}

# Build $2 of test $1 taken from the user's folder ($3, the binary): a
# copy (the user may rebuild while the campaign runs); one the folder
# does not have is marked absent (its engine or pass left out for the
# test), but for plain, which every test needs.
prebuilt() {
	rm -f "$out/build/$1/$2.absent" "$out/build/$1/$2.key"
	if [ ! -f "$3" ] || [ ! -x "$3" ]; then
		[ "$2" = plain ] && { echo "no executable $3" > "$out/build/$1/$2.log"; return 1; }
		touch "$out/build/$1/$2.absent"
		return 0
	fi
	cp "$3" "$out/build/$1/$2.part" && mv "$out/build/$1/$2.part" "$out/build/$1/$2" &&
		echo "prebuilt $3" > "$out/build/$1/$2.log"
}

# Whether test $1 has build $2 (a prebuilt folder may lack it).
has_build() { [ ! -f "$out/build/$1/$2.absent" ]; }

# The builds each test needs: plain always (replays, triage, valgrind).
variants() {
	echo plain
	for e in $engines; do echo "$e"; done
	[ "$asan" = 1 ] && echo asan
}

# How many of the pids $@ still run.
alive() {
	al_n=0
	for al_p in "$@"; do kill -0 "$al_p" 2> /dev/null && al_n=$((al_n + 1)); done
	echo "$al_n"
}

# A test with quirks gets them in every run of every build: a constructor
# sets DFZ_QUIRKS before the drop-in reads it (also for triage's replays,
# valgrind and a user replaying a finding by hand).
quirks_file() {
	mkdir -p "$out/build/$1"
	rm -f "$out/build/$1/quirks.c"
	[ -n "$(field "$1" 3)" ] || return 0
	cat > "$out/build/$1/quirks.c" <<QEOF
/* Written by dmafuzz campaign: test $1 runs with quirks=$(field "$1" 3). */
int setenv(const char *name, const char *value, int overwrite);
__attribute__((constructor)) static void dfz_campaign_quirks(void)
{
	setenv("DFZ_QUIRKS", "$(field "$1" 3)", 1);
}
QEOF
}

# Every build of every test, JOBS at a time; the first failure ends the
# campaign in one line naming the test (exit 2).
build_all() {
	ba_pids=
	ba_list=
	for t in $tests; do
		quirks_file "$t"
		deps_key "$t" > "$out/build/$t/deps.key"
		for v in $(variants); do
			# shellcheck disable=SC2086 # pids, a list
			while [ "$(alive $ba_pids)" -ge "$jobs" ]; do sleep 0.2; done
			build_one "$t" "$v" &
			ba_pids="$ba_pids $!"
			ba_list="$ba_list $!:$t:$v"
		done
	done
	ba_bad=
	for e in $ba_list; do
		wait "${e%%:*}" || ba_bad="$ba_bad $e"
	done
	for e in $ba_bad; do
		t=${e#*:} v=${t#*:} t=${t%%:*}
		why=$(grep -m 1 -E 'error|undefined reference' "$out/build/$t/$v.log" |
			cut -c 1-160)
		say "campaign: test $t: the $v build failed: ${why:-see the log}" \
			"($out/build/$t/$v.log)"
		exit 2
	done
}

# Each test's plain build runs the empty schedule: a test that cannot run
# (refused quirks, the memory map taken) stops the campaign in one line.
smoke_all() {
	for t in $tests; do
		ln -sf "../../build/$t/plain" "$replay/$t"
		"$out/build/$t/plain" /dev/null > "$work/$t.smoke" 2>&1
		[ $? -eq 2 ] || continue
		why=$(grep -v '^ ' "$work/$t.smoke" | tail -n 1)
		case $why in *quirk*) bad "$(field "$t" 6): test $t: $why" ;; esac
		say "campaign: test $t does not run: $why"
		exit 2
	done
}

# ------------------------------------------------------------ inputs
# The fuzzers' input of test $1 ($work/<test>.in): the empty schedule
# (and 64 zero bytes, the same run: AFL++ skips an empty file), the kept
# corpus and the saved findings, each replayed first (fuzz-lib.sh's
# preflight): one that has a finding now is a finding, and stays out.
# Return 1 when even the empty schedule has one.
inputs() {
	mkdir -p "$work/seeds"
	: > "$work/seeds/empty"
	head -c 64 /dev/zero > "$work/seeds/zeros"
	rm -rf "$work/$1.in" "$work/$1.saved"
	mkdir -p "$work/$1.saved"
	find "$findings/$1" -maxdepth 1 -type f ! -name '.*' ! -name '*.*' \
		-exec cp -t "$work/$1.saved/" {} + 2> /dev/null
	[ ! -d "$corpus/$1" ] && [ -d "$corpus/$1.old" ] && mv "$corpus/$1.old" "$corpus/$1"
	preflight "$1" "$work/$1.in" "$work/$1.found" "$stamp" "$work/seeds" \
		"$corpus/$1" "$work/$1.saved"
	rv=$?
	rm -rf "$work/$1.saved"
	return $rv
}

# ------------------------------------------------------------ units
# A unit is a test under an engine; "TEST ENGINE" lines of $work/units.
# Each runs for $share seconds with $par processes (AFL++ instances,
# libFuzzer fork jobs).

# Start unit $1 $2 in the background; its pids go to $work/run.$1.$2.
start_unit() {
	: > "$work/run.$1.$2"
	case $2 in
	afl) su_i=0
	     while [ "$su_i" -lt "$par" ]; do
		     if [ "$su_i" -eq 0 ]; then su_n=main su_r=-M; else su_n=s$su_i su_r=-S; fi
		     afl_exec -i "$work/$1.in" -o "$out/afl/$1" $su_r $su_n -V "$share" \
			     -t 2000 -- "$out/build/$1/afl" > "$work/$1.afl.$su_n.log" 2>&1 &
		     echo $! >> "$work/run.$1.$2"
		     su_i=$((su_i + 1))
	     done ;;
	libfuzzer)
		su_d=$out/libfuzzer/$1
		mkdir -p "$su_d/corpus" "$su_d/artifacts"
		[ -n "$(ls -A "$su_d/corpus")" ] || cp "$work/$1.in"/* "$su_d/corpus/" 2> /dev/null
		(cd "$su_d" && exec env TMPDIR="$work/tmp" "$out/build/$1/libfuzzer" \
			-fork="$par" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
			-max_total_time="$share" -max_len=1024 -len_control=0 -timeout=10 \
			-artifact_prefix="$su_d/artifacts/" "$su_d/corpus") \
			> "$su_d/fuzz-$stamp.log" 2>&1 &
		echo $! >> "$work/run.$1.$2" ;;
	esac
	date +%s > "$work/run.$1.$2.t0"
}

# The executions of unit $1 $2 so far (AFL++: its instances'
# fuzzer_stats; libFuzzer: the last "#N" of its log).
execs() {
	case $2 in
	afl) cat "$out/afl/$1"/*/fuzzer_stats 2> /dev/null |
		awk -F ': *' '$1 ~ /^execs_done/ { n += $2 } END { print n + 0 }' ;;
	libfuzzer) sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$out/libfuzzer/$1/fuzz-$stamp.log" \
		2> /dev/null | tail -n 1 | grep . || echo 0 ;;
	esac
}

# Unit $1 $2 ended: its status, its line in units.done.
end_unit() {
	eu_rc=0
	while read -r p; do wait "$p" || eu_rc=$?; done < "$work/run.$1.$2"
	eu_s=$(($(date +%s) - $(cat "$work/run.$1.$2.t0")))
	rescue_test "$1"
	# libFuzzer exits 77 when it went on past a crash (-ignore_crashes).
	if [ "$eu_rc" -ne 0 ] && { [ "$2" = afl ] || [ "$eu_rc" -ne 77 ]; } &&
	   [ "$interrupting" = 0 ]; then
		failure "$1/$2" "the fuzzer failed (exit $eu_rc), logs in $work and $out/libfuzzer/$1"
		failed=$((failed + 1))
	fi
	printf '%s %s %s %s %s\n' "$1" "$2" "$eu_s" "$(execs "$1" "$2")" "$par" >> "$work/units.done"
	rm -f "$work/run.$1.$2" "$work/run.$1.$2.t0"
	say "campaign: $1 under $2: ${eu_s}s, $(execs "$1" "$2") execs;" \
		"$(find "$findings/$1" -maxdepth 1 -type f ! -name '.*' ! -name '*.*' | grep -c .)" \
		"finding(s) kept for $1"
}

# The units still running, "TEST ENGINE" a line.
running_units() {
	for r in "$work"/run.*.t0; do
		[ -f "$r" ] || continue
		r=${r#"$work"/run.}
		r=${r%.t0}
		echo "${r%.*} ${r##*.}"
	done
}

# Run every pending unit, JOBS at a time (a unit of $par processes), each
# for its share; every 2 s the fuzzers' findings are copied.
run_units() {
	while :; do
		n_run=0
		for r in $(running_units | tr ' ' ':'); do
			t=${r%%:*} e=${r#*:}
			# shellcheck disable=SC2046 # the unit's pids
			if [ "$(alive $(cat "$work/run.$t.$e"))" -eq 0 ]; then
				end_unit "$t" "$e"
			elif [ $(($(date +%s) - $(cat "$work/run.$t.$e.t0"))) -gt $((share + 60)) ]; then
				# shellcheck disable=SC2046 # the unit's pids
				kill -TERM $(cat "$work/run.$t.$e") 2> /dev/null
			else
				n_run=$((n_run + par))
			fi
		done
		next=$(pending | head -n 1)
		if [ -n "$next" ] && [ $((n_run + par)) -le "$slots" ]; then
			# shellcheck disable=SC2086 # TEST ENGINE
			start_unit $next
			continue
		fi
		[ -z "$next" ] && [ "$n_run" -eq 0 ] && break
		sleep 2 9>&-
		for t in $tests; do rescue_test "$t"; reap_orphans "$out/afl/$t"; done
	done
}

# The units not started nor done, in order.
pending() {
	while read -r t e; do
		[ -f "$work/run.$t.$e.t0" ] && continue
		grep -q "^$t $e " "$work/units.done" 2> /dev/null && continue
		echo "$t $e"
	done < "$work/units"
}

# ------------------------------------------------------------ after
# The corpus of test $1 for the next run: afl-cmin (libFuzzer's -merge
# without AFL++) over its input, the AFL++ queues and the libFuzzer
# corpus, replacing OUT/corpus/<test>/ only when it succeeds. Prints the
# inputs and the files kept, or "failed".
minimize() {
	m=$work/$1.cmin
	rm -rf "$m.in" "$m.out"
	mkdir -p "$m.in" "$m.out"
	find "$work/$1.in" -maxdepth 1 -type f -size +0 -exec cp -t "$m.in/" {} +
	for q in "$out/afl/$1"/*/queue; do
		[ -d "$q" ] || continue
		i=$(basename "$(dirname "$q")")
		for f in "$q"/id:*; do
			[ -f "$f" ] && cp "$f" "$m.in/$i-$(basename "$f" | cut -c 4-9)"
		done
	done
	[ -d "$out/libfuzzer/$1/corpus" ] &&
		find "$out/libfuzzer/$1/corpus" -maxdepth 1 -type f -size +0 -exec cp -t "$m.in/" {} +
	n_in=$(find "$m.in" -type f | wc -l)
	if [ -x "$out/build/$1/afl" ]; then
		AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_FORKSRV_INIT_TMOUT=10000 AFL_ALLOW_TMP=1 \
			afl-cmin -i "$m.in" -o "$m.out" -t 10000 -- "$out/build/$1/afl" > "$m.log" 2>&1
	else
		(cd "$work/tmp" && "$out/build/$1/libfuzzer" -merge=1 "$m.out" "$m.in") > "$m.log" 2>&1
	fi
	m_rc=$?
	if [ $m_rc -eq 0 ] && [ -n "$(ls "$m.out" 2> /dev/null)" ]; then
		rm -rf "$corpus/$1.old"
		[ -d "$corpus/$1" ] && mv "$corpus/$1" "$corpus/$1.old"
		mv "$m.out" "$corpus/$1" && rm -rf "$corpus/$1.old" "$m.in"
		echo "$n_in $(find "$corpus/$1" -type f | wc -l)"
	else
		say "campaign: minimizing the corpus of $1 failed; the last one stays ($m.log)"
		echo "$n_in failed"
	fi
}

# Replay every finding ever kept for test $1 (the findings, not their
# sidecars): "CLASS<TAB>FILE" lines in $work/<test>.classes (CLASS
# "clean" for one that replays clean now: fixed, or a hang that was only
# slow), the verdicts in $work/<test>.verdicts. Prints how many are open.
classify_test() {
	: > "$work/$1.classes.part"
	: > "$work/$1.verdicts.part"
	find "$findings/$1" -maxdepth 1 -type f ! -name '.*' ! -name '*.*' 2> /dev/null |
		LC_ALL=C sort > "$work/$1.all"
	while read -r f; do
		v=$(verdict "$1" "$f")
		printf '%s\n' "${v:-{\"input\":\"$f\",\"verdict\":\"error\"\}}" >> "$work/$1.verdicts.part"
		c=$(printf '%s\n' "$v" | sed -n 's/.*"class":"\([^"]*\)".*/\1/p')
		case $v in *'"verdict":"clean"'*) c=clean ;; esac
		printf '%s\t%s\n' "${c:-error}" "$f" >> "$work/$1.classes.part"
	done < "$work/$1.all"
	mv "$work/$1.classes.part" "$work/$1.classes"
	mv "$work/$1.verdicts.part" "$work/$1.verdicts"
	rm -f "$work/$1.all"
	awk -F '\t' '$1 != "clean"' "$work/$1.classes" | wc -l
}

# The campaign's record, OUT/campaign.txt ("key : value", as fuzzer_stats
# and the nightly's): what ran and where its lists are ($1: interrupted).
write_record() {
	{
		printf '%s : %s\n' kind campaign started "$started" run "$run" \
			attempt "$attempt" manifest "${manifest:-$base}" srcroot "$srcroot" \
			seconds "$seconds" share "$share" jobs "$jobs" engines "$engines" \
			tests "$tests" work "$work" findings "$findings" corpus "$corpus" \
			cli "$cli" cwd "$(pwd)" found "$found" failed "$failed" \
			interrupted "$([ "$1" = true ] && echo yes || echo no)"
		for t in $tests; do
			printf 'test.%s : module %s quirks %s findings %s open %s corpus %s\n' "$t" \
				"$(field "$t" 2)" "$(field "$t" 3 | grep . || echo -)" \
				"$(if [ -f "$work/$t.classes" ]; then grep -c . "$work/$t.classes"; else echo 0; fi)" \
				"$(awk -F '\t' '$1 != "clean"' "$work/$t.classes" 2> /dev/null | grep -c .)" \
				"$(sed -n 1p "$work/$t.cmin.result" 2> /dev/null | grep . || echo -)"
		done
		awk '{ printf "unit.%s.%s : secs %s execs %s processes %s\n", $1, $2, $3, $4, $5 }' \
			"$work/units.done" 2> /dev/null
		cat "$work/failures" 2> /dev/null || :
	} > "$out/campaign.txt.part" && mv "$out/campaign.txt.part" "$out/campaign.txt"
}

# `dmafuzz triage` of the findings (each test's plain build; its ASan
# build; valgrind) into OUT/triage, then `dmafuzz report` into
# OUT/report. A CLI whose triage has no --dropin is said, and skipped.
triage_report() {
	set --
	for t in $tests; do
		set -- "$@" --dropin "$t=$out/build/$t/plain"
		[ "$asan" = 1 ] && has_build "$t" asan && set -- "$@" --asan "$t=$out/build/$t/asan"
	done
	[ "$valgrind" = 1 ] && set -- "$@" --valgrind
	# The minimizer's seconds per bucket: a tenth of the budget, 5 to 30.
	tr_s=$((seconds / 10))
	[ "$tr_s" -ge 5 ] || tr_s=5
	[ "$tr_s" -le 30 ] || tr_s=30
	if "$cli" triage --help 2>&1 | grep -q -- '--dropin'; then
		"$cli" triage "$@" -s "$tr_s" --srcroot "$srcroot" -o "$out/triage" "$findings" \
			> "$work/triage.log" 2>&1 ||
			say "campaign: triage failed (exit $?): $work/triage.log"
	else
		say "campaign: $cli triage has no --dropin: no triage"
	fi
	set -- -o "$out/report"
	[ -f "$out/triage/triage.json" ] && set -- "$@" --triage "$out/triage/triage.json"
	"$cli" report --help 2>&1 | grep -q -- '--srcroot' && set -- "$@" --srcroot "$srcroot"
	"$cli" report -q "$@" "$out" > "$work/report.log" 2>&1 ||
		say "campaign: report failed (exit $?): $work/report.log"
	[ -f "$out/report/index.html" ] && say "campaign: report in $out/report/index.html"
}

# Replay, record, triage and report; the exit status ($1: interrupted:
# no triage, the last one stays).
conclude_campaign() {
	found=0
	for t in $tests; do found=$((found + $(classify_test "$t"))); done
	write_record "$1"
	[ "$1" = true ] || triage_report
	for t in $tests; do
		cut -f 1 "$work/$t.classes" | sort | uniq -c | while read -r n c; do
			say "  $t: $c x$n"
		done
	done
	say "campaign: $found open finding(s) in $findings/"
}

# ------------------------------------------------------------ signals
interrupting=0
interrupted() {
	trap '' INT TERM
	interrupting=1
	for r in "$work"/run.*.t0; do
		[ -f "$r" ] || continue
		# shellcheck disable=SC2046 # the unit's pids
		kill -TERM $(cat "${r%.t0}") 2> /dev/null
	done
	for r in $(running_units | tr ' ' ':'); do
		t=${r%%:*} e=${r#*:}
		while read -r p; do wait "$p"; done < "$work/run.$t.$e"
		rescue_test "$t"
		reap_orphans "$out/afl/$t"
		# Not done: the next run runs it again.
		rm -f "$work/run.$t.$e" "$work/run.$t.$e.t0"
	done
	say "campaign: interrupted; the findings so far are in $findings/; run it again to resume"
	conclude_campaign true
	unlock
	exit 130
}

# ----------------------------------------------------------------- main
if [ "$(state_get status)" = running ]; then
	run=$(state_get run) attempt=$(($(state_get attempt) + 1)) started=$(state_get started)
	say "campaign: resuming run $run (attempt $attempt) in $out/"
	for t in $tests; do rescue_test "$t"; done
	rm -f "$work"/run.*
else
	run=$(($(state_get run | grep . || echo 0) + 1)) attempt=1 started=$stamp
	fresh
fi
state_put running
trap interrupted INT TERM
build_all
smoke_all
: > "$work/units"
for t in $tests; do
	if ! inputs "$t"; then
		say "campaign: $t: the empty schedule has a finding already (kept in $findings/$t/): not fuzzed"
		continue
	fi
	for e in $engines; do has_build "$t" "$e" && echo "$t $e" >> "$work/units"; done
done
n_units=$(grep -c . "$work/units")
par=1
[ "$n_units" -gt 0 ] && par=$((jobs / n_units))
[ "$par" -ge 1 ] || par=1
slots=$jobs
[ "$slots" -ge "$par" ] || slots=$par
waves=1
[ "$n_units" -gt 0 ] && waves=$(( (n_units + slots / par - 1) / (slots / par) ))
share=$((seconds / waves))
[ "$share" -ge 1 ] || share=1
say "campaign: $(echo "$tests" | wc -w) test(s), $n_units unit(s) ($engines), ${share}s each," \
	"$jobs job(s); output $out/"
export AFL_AUTORESUME=1
run_units
for t in $tests; do
	rescue_test "$t"
	reap_orphans "$out/afl/$t"
	grep -q "^$t " "$work/units" || continue
	say "campaign: minimizing the corpus of $t"
	minimize "$t" > "$work/$t.cmin.result"
done
conclude_campaign false
state_put 'done'
[ "$found" -gt 0 ] && exit 1
[ "$failed" -eq 0 ] || exit 2
exit 0
