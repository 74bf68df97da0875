#!/bin/sh
# SPDX-License-Identifier: MIT
# `make check` (nightly-lock-check): tools/nightly.sh's lock on its output
# directory and its summary's rates, with a stand-in afl-fuzz (no AFL++
# needed) that writes its instance's fuzzer_stats as afl-fuzz does when
# its clock has not moved (execs_per_sec "inf", run_time 0; instance s1 of
# xfer: 1000 execs in 4 s), then exits or, in the first run, lives on:
#   killed   a nightly is killed (SIGKILL) while its afl-fuzz runs; that
#            afl-fuzz lives on: a second nightly on the same directory
#            exits 75 with one line naming it, and nothing more happens
#            (no new run of the night is recorded)
#   foreign  a process that no nightly started holds a file under
#            OUT/afl: the same refusal, naming it
#   done     both gone: a nightly (xfer and host, two instances each)
#            runs to its end (exit 0), its summary shows the rates it
#            has (xfer 250 execs/s, its main instance n/a) and n/a where
#            there is none (host), never 2147483647, and summary.json
#            null for them: the summary is `dmafuzz report`'s, from the
#            night's record and fuzzer_stats
# Usage: nightly-lock-check.sh DMAFUZZ
set -u
tools=$(cd "$(dirname "$0")" && pwd)
cli=$1
w=$(mktemp -d "${TMPDIR:-/tmp}/dfz-nightly.XXXXXX") || exit 2
out=$w/out
fail=0
checks=0
run1=
holder=
FAKE_AFL_PIDS=$w/afl.pids
export FAKE_AFL FAKE_AFL_PIDS
: > "$FAKE_AFL_PIDS"

# End what this script started (by pid), then remove its files.
# shellcheck disable=SC2317 # called by the trap
cleanup() {
	[ -z "$run1" ] || kill -KILL "$run1" 2>/dev/null
	[ -z "$holder" ] || kill "$holder" 2>/dev/null
	while read -r p; do kill "$p" 2>/dev/null; done < "$FAKE_AFL_PIDS"
	rm -rf "$w"
}
trap cleanup EXIT

mkdir -p "$w/bin" "$w/fz/afl" "$w/fz/cmplog" "$w/fz/seeds/xfer" \
	"$w/fz/seeds/host" "$w/replay"
cat > "$w/bin/afl-fuzz" <<'EOF'
#!/bin/sh
# A stand-in for afl-fuzz (-o DIR, -M/-S NAME): the instance directory and
# a fuzzer_stats of an instance whose clock has not moved; then, with
# FAKE_AFL=hold, a long sleep (afl-fuzz fuzzing on); else the end.
o= name=
while [ $# -gt 0 ]; do
	case $1 in
	-o) o=$2; shift ;;
	-M | -S) name=$2; shift ;;
	--) break ;;
	esac
	shift
done
mkdir -p "$o/$name" || exit 1
case $(basename "$o"):$name in
xfer:s1) e=1000 t=4 ;;
*) e=0 t=0 ;;
esac
printf '%s\n' "start_time : 1700000000" "fuzzer_pid : $$" "run_time : $t" \
	"execs_done : $e" "execs_per_sec : inf" "corpus_count : 1" \
	"bitmap_cvg : 0.01%" "afl_version : stand-in" \
	"command_line : afl-fuzz -o $o -p fast" > "$o/$name/fuzzer_stats"
if [ "$FAKE_AFL" = hold ]; then
	echo $$ >> "$FAKE_AFL_PIDS"
	exec sleep 600
fi
EOF
printf '#!/bin/sh\nexit 0\n' > "$w/bin/afl-cmin"
for t in xfer host; do
	printf '#!/bin/sh\nexit 0\n' > "$w/replay/$t"
	cp "$w/replay/$t" "$w/fz/afl/$t"
	cp "$w/replay/$t" "$w/fz/cmplog/$t"
	printf 'seed' > "$w/fz/seeds/$t/seed"
done
chmod +x "$w/bin"/* "$w/replay"/* "$w/fz/afl"/* "$w/fz/cmplog"/*
PATH=$w/bin:$PATH

# nightly NIGHT JOBS TARGET...: a nightly of 1 s on $out, stderr to $w/log.
nightly() {
	nt_n=$1 nt_j=$2
	shift 2
	DMAFUZZ_BUGS='' timeout 120 sh "$tools/nightly.sh" -S 1 -j "$nt_j" -n "$nt_n" \
		-b "$w/fz" -r "$w/replay" -c "$cli" -o "$out" "$@" > /dev/null 2> "$w/log"
}

no() {
	echo "nightly-lock-check: $1" >&2
	sed 's/^/    /' "$w/log" >&2
	fail=1
}

# refused WHAT PID: the last nightly exited 75 with one line naming PID.
refused() {
	checks=$((checks + 1))
	if [ "$rc" -ne 75 ] || [ "$(wc -l < "$w/log")" -ne 1 ] ||
		! grep -q "^nightly: $out/ is in use by .*\\b$2 (" "$w/log"; then
		no "$1: want exit 75 and one line naming pid $2, got exit $rc"
	fi
}

# 1. A nightly killed outright while its afl-fuzz runs.
FAKE_AFL=hold
DMAFUZZ_BUGS='' sh "$tools/nightly.sh" -S 600 -j 1 -n night -b "$w/fz" -r "$w/replay" \
	-c "$cli" -o "$out" xfer > /dev/null 2> "$w/log1" &
run1=$!
i=0
while [ ! -s "$FAKE_AFL_PIDS" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
afl=$(head -n 1 "$FAKE_AFL_PIDS")
[ -n "$afl" ] || { cat "$w/log1" >&2; echo "nightly-lock-check: the first nightly started no afl-fuzz" >&2; exit 1; }
kill -KILL "$run1"
wait "$run1" 2>/dev/null
run1=
runs=$(wc -l < "$out/work/night/runs")
FAKE_AFL=
nightly night 1 xfer
rc=$?
refused "a second nightly while the killed one's afl-fuzz runs" "$afl"
checks=$((checks + 1))
[ "$(wc -l < "$out/work/night/runs")" -eq "$runs" ] ||
	no "the refused nightly recorded a run of the night"

# 2. Its afl-fuzz ends; a process no nightly started holds a file in OUT/afl.
kill "$afl"
: > "$FAKE_AFL_PIDS"
i=0
while ! flock -n "$out/.nightly.lock" true && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
# shellcheck disable=SC2217 # the file is held open, not read
sleep 600 < "$out/afl/night/xfer/main/fuzzer_stats" &
holder=$!
nightly night 1 xfer
rc=$?
refused "a nightly while another process holds a file under OUT/afl" "$holder"
kill "$holder"
wait "$holder" 2>/dev/null
holder=

# 3. Nothing holds the directory: the night resumes and ends.
nightly night 2 xfer host
rc=$?
md=$out/summary.md
checks=$((checks + 1))
if [ "$rc" -ne 0 ] || [ ! -f "$md" ]; then
	no "the free nightly: exit $rc, want 0 and a summary"
fi
checks=$((checks + 1))
if ! grep -q '^| xfer | 2 | 1000 | 250 |' "$md" || ! grep -q '^| host | 2 | 0 | n/a |' "$md" ||
	! grep -q '^| xfer | main | fast | no | 0 | 0 | n/a |' "$md" ||
	! grep -q '^| xfer | s1 | fast | no | 4 | 1000 | 250 |' "$md"; then
	no "summary.md: want xfer 250 execs/s (main n/a, s1 250), host n/a"
	grep '^| ' "$md" >&2
fi
checks=$((checks + 1))
# summary.json (dmafuzz report): execs_per_sec null for the three
# instances without one, for host (targets.host, run.targets[host]); 250
# for xfer/s1, for xfer (targets.xfer, run.targets[xfer]) and the totals.
if grep -q 2147483647 "$md" "$out/summary.json" || grep '^| ' "$md" | grep -qw inf ||
	grep -qw inf "$out/summary.json" ||
	[ "$(grep -c '"execs_per_sec": null' "$out/summary.json")" -ne 5 ] ||
	[ "$(grep -c '"execs_per_sec": 250,' "$out/summary.json")" -ne 4 ]; then
	no "summary.json or .md: want execs_per_sec null 5 times and 250 4 times, never inf or 2147483647"
	grep -o '"execs_per_sec": [^,]*' "$out/summary.json" >&2
fi

[ $fail -eq 0 ] && echo "nightly-lock-check: $checks/$checks lock and rate checks as expected"
exit $fail
