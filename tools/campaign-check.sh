#!/bin/sh
# SPDX-License-Identifier: MIT
# shellcheck disable=SC2317,SC2015
# (SC2317: the cleanup is called by a trap; SC2015: ok never fails)
# `make check` (campaign-check): `dmafuzz campaign` as installed under
# ROOT, on the example project DEMO (examples/campaign-demo), with a
# short budget:
#   locked   while a campaign runs on OUT, a second one on the same OUT
#            exits 75 at once
#   kill -9  the first campaign, its fuzzers with it (its process group),
#            is killed once a finding shows; every crash file that was on
#            disk then (the fuzzers' own folders and OUT/findings) is in
#            OUT/findings after the next run, which resumes (its lock is
#            free again) and ends with exit 1 (an open finding); a target
#            the killed run's afl-fuzz left running (out of the process
#            group) is ended by the next run, not taken for a live user
#   results  the open findings are all dequant's, each replays as hazard.race
#            at the late wait (tk_dequant.c, "dfz-expect: WAIT") against
#            the write-back (WB); scale and relu have none; each test has
#            a corpus; `dmafuzz min --exec` shrinks a finding keeping
#            class and site
#   report   one SARIF result (triage --dropin), valid
#            JSON, version 2.1.0, at tk_dequant.c:WAIT relative to
#            SRCROOT; index.html shows that line's source, HTML-escaped
# It prints what it measured: the time of the resumed run, the findings,
# the buckets, the schedule sizes before and after min --exec.
# Usage: campaign-check.sh -r ROOT DEMO
set -u
root='' demo=''
while getopts r: o; do
	case $o in
	r) root=$OPTARG ;;
	*) echo "usage: campaign-check.sh -r ROOT DEMO" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$root" ] && [ $# -eq 1 ] || { echo "usage: campaign-check.sh -r ROOT DEMO" >&2; exit 2; }
root=$(cd "$root" && pwd) && demo=$(cd "$1" && pwd) || exit 2
cli=$root/usr/local/bin/dmafuzz
PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$root/usr/local/lib/pkgconfig
export PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH
if ! command -v afl-fuzz > /dev/null 2>&1 && ! command -v clang > /dev/null 2>&1; then
	echo "campaign-check: skipped: neither AFL++ nor clang (sh tools/deps.sh afl)"
	exit 0
fi
w=$(mktemp -d "${TMPDIR:-/tmp}/dfz-campaign-check.XXXXXX") || exit 2
out=$w/out
pass=0 fail=0 pg='' left=''
cleanup() {
	[ -z "$pg" ] || kill -9 "-$pg" 2> /dev/null
	[ -z "$left" ] || kill -9 "$left" 2> /dev/null
	rm -rf "$w"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); echo "campaign-check: ok: $*"; }
no() { fail=$((fail + 1)); echo "campaign-check: FAIL: $*"; }
line_of() { grep -n "dfz-expect: $1\\b" "$demo/tk_dequant.c" | head -n 1 | cut -d : -f 1; }
wait_line=$(line_of WAIT)
wb_line=$(line_of WB)

# The content keys of every crash file on disk under OUT.
crash_keys() {
	find "$out/afl" "$out/libfuzzer" "$out/findings" -type f \
		\( -path '*/crashes*/id:*' -o -path '*/artifacts/crash-*' -o \
		-path '*/findings/*/*' \) ! -name '.*' ! -name '*.*' 2> /dev/null |
		while read -r f; do sha256sum < "$f" | cut -d ' ' -f 1; done | sort -u
}

# ------------------------------------------------------ locked, kill -9
setsid "$cli" campaign -o "$out" -S 6 -j 2 "$demo/dmafuzz.tests" > "$w/run1.log" 2>&1 &
pg=$!
i=0
while [ ! -s "$out/work/state" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
"$cli" campaign -o "$out" -S 6 -j 2 "$demo/dmafuzz.tests" > "$w/run2.log" 2>&1
rc=$?
if [ $rc -eq 75 ] && grep -q "is in use by" "$w/run2.log"; then
	ok "a second campaign on the same OUT exits 75: $(head -n 1 "$w/run2.log" | cut -c 1-70)..."
else
	no "a second campaign on the same OUT exited $rc: $(head -n 2 "$w/run2.log")"
fi
i=0
while [ -z "$(crash_keys)" ] && [ $i -lt 600 ] && kill -0 "$pg" 2> /dev/null; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 "-$pg" 2> /dev/null
wait "$pg" 2> /dev/null
pg=
sleep 0.5
crash_keys > "$w/before"
[ -s "$w/before" ] || no "no crash file showed before the kill ($(tail -n 3 "$w/run1.log"))"

# A target the killed run's afl-fuzz left running (AFL++ gives its fork
# server a session of its own, out of the process group) holds the lock
# open, and a file under OUT/afl (its input), its parent gone: a copy of
# the Python interpreter under OUT/build stands for one, and the resumed
# run ends it instead of refusing OUT as in use. Like a target with its
# memories, it holds 512 MiB: the kernel frees them before it closes the
# files, so the lock stays held a while after the SIGKILL, and a run that
# retried at once found OUT in use (CI, on a loaded machine).
cp "$(python3 -c 'import sys; print(sys.executable)')" "$out/build/left-running"
rm -f "$w/left.ready"
(exec 9>> "$out/.campaign.lock" 8>> "$out/afl/.left-running"; flock -n 9
"$out/build/left-running" -c "import sys, time
b = b'x' * (1 << 29)
open(sys.argv[1], 'w').close()
time.sleep(600)" "$w/left.ready" & echo $! > "$w/left.pid")
left=$(cat "$w/left.pid")
i=0
while [ ! -e "$w/left.ready" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done

# ------------------------------------------------------------ resume
t0=$(date +%s)
"$cli" campaign -o "$out" -S 6 -j 2 "$demo/dmafuzz.tests" > "$w/run3.log" 2>&1
rc=$?
secs=$(($(date +%s) - t0))
sed 's/^/    /' "$w/run3.log"
[ $rc -eq 1 ] && ok "the resumed campaign exits 1 (an open finding)" ||
	no "the resumed campaign exited $rc, not 1"
grep -q 'resuming run 1' "$w/run3.log" && ok "the run after the kill resumes it" ||
	no "the run after the kill did not say it resumes"
find "$out/findings" -type f ! -name '.*' -exec sha256sum {} + > "$w/after"
while read -r k; do
	grep -q "^$k " "$w/after" ||
		no "a crash file on disk at the kill is not among the findings ($k)"
done < "$w/before"
[ -s "$w/before" ] && ok "all $(grep -c . "$w/before") crash file(s) on disk at the kill are findings"
flock -n "$out/.campaign.lock" true && ok "the lock is free after the run" ||
	no "the lock is still held after the run"
case $(ps -o stat= -p "$left" 2> /dev/null) in
"" | Z*) ok "the target the killed run left running was ended" ;;
*) no "the target left running (pid $left) still runs"; kill -9 "$left" ;;
esac
rm -f "$out/build/left-running" "$out/afl/.left-running"

# ------------------------------------------------------------ results
n_dq=$(awk -F '\t' '$1 != "clean"' "$out/work/dequant.classes" 2> /dev/null | grep -c .)
n_race=$(grep -c '^hazard.race	' "$out/work/dequant.classes" 2> /dev/null || echo 0)
[ "$n_dq" -gt 0 ] && [ "$n_race" -eq "$n_dq" ] &&
	ok "dequant: $n_dq open finding(s), every one hazard.race" ||
	no "dequant: $n_race of $n_dq open finding(s) hazard.race"
sites=$(sed -n 's/.*"site":{"file":"\([^"]*\)","line":\([0-9]*\).*"prior":{"file":"\([^"]*\)","line":\([0-9]*\).*/\1:\2 \3:\4/p' \
	"$out/work/dequant.verdicts" | sort -u)
[ "$sites" = "tk_dequant.c:$wait_line tk_dequant.c:$wb_line" ] &&
	ok "every finding at tk_dequant.c:$wait_line (the late wait), prior tk_dequant.c:$wb_line (the write-back)" ||
	no "the findings' sites: '$sites', not tk_dequant.c:$wait_line tk_dequant.c:$wb_line"
# (An input AFL++ found slow is kept as a hang finding; it replays clean.)
for t in scale relu; do
	n=$(awk -F '\t' '$1 != "clean"' "$out/work/$t.classes" 2> /dev/null | grep -c .)
	[ -f "$out/work/$t.classes" ] && [ "$n" -eq 0 ] && ok "$t: no open finding" ||
		no "$t: $n open finding(s)"
done
for t in dequant scale relu; do
	n=$(find "$out/corpus/$t" -type f 2> /dev/null | grep -c .)
	[ "$n" -gt 0 ] && ok "$t: a corpus of $n file(s) ($(sed -n "s/^test.$t : .*corpus //p" "$out/campaign.txt") in -> kept)" ||
		no "$t: no corpus kept"
done
grep -q '^unit.dequant.afl : \|^unit.dequant.libfuzzer : ' "$out/campaign.txt" &&
	ok "the record names each unit: $(grep -c '^unit\.' "$out/campaign.txt") unit line(s)" ||
	no "the record has no unit lines"
# The smallest finding, shrunk (a bounded number of runs: one is a
# process, about 30 ms).
f=$(awk -F '\t' '{ print $2 }' "$out/work/dequant.classes" | while read -r x; do
	printf '%s %s\n' "$(wc -c < "$x")" "$x"; done | sort -n | head -n 1 | cut -d ' ' -f 2)
if [ -n "$f" ] && "$cli" min --exec "$out/build/dequant/plain" --max-runs 150 --json \
	-o "$w/min.bin" "$f" \
	> "$w/min.json" 2>&1; then
	m_in=$(sed -n 's/.*"bytes_in":\([0-9]*\).*/\1/p' "$w/min.json")
	m_out=$(sed -n 's/.*"bytes_out":\([0-9]*\).*/\1/p' "$w/min.json")
	"$out/build/dequant/plain" --json "$w/min.bin" > "$w/min.v" 2>&1
	grep -q "\"class\":\"hazard.race\".*\"site\":{\"file\":\"tk_dequant.c\",\"line\":$wait_line," "$w/min.v" &&
		[ "${m_out:-9999}" -le "${m_in:-0}" ] &&
		ok "min --exec: the smallest finding, $m_in -> $m_out bytes, the same class and site" ||
		no "min --exec: $m_in -> $m_out bytes, replays as $(cut -c 1-120 "$w/min.v")"
else
	no "min --exec failed: $(head -n 2 "$w/min.json" 2> /dev/null)"
fi

# ------------------------------------------------------------ report
sarif=$out/report/findings.sarif
buckets=-
if ! "$cli" triage --help 2>&1 | grep -q -- '--dropin'; then
	no "this dmafuzz's triage has no --dropin: no buckets, SARIF or HTML"
elif python3 - "$sarif" "$wait_line" > "$w/sarif.txt" 2>&1 <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))
assert s.get("version") == "2.1.0", "version %r" % s.get("version")
res = s["runs"][0]["results"]
assert len(res) == 1, "%d results, not 1" % len(res)
loc = res[0]["locations"][0]["physicalLocation"]
art = loc["artifactLocation"]
assert art["uri"] == "tk_dequant.c", "uri %r" % art["uri"]
assert art.get("uriBaseId") == "SRCROOT", "uriBaseId %r" % art.get("uriBaseId")
assert loc["region"]["startLine"] == int(sys.argv[2]), "line %r" % loc["region"]["startLine"]
print(len(res))
PYEOF
then
	buckets=$(cat "$w/sarif.txt")
	ok "findings.sarif: valid JSON, SARIF 2.1.0, 1 result at SRCROOT tk_dequant.c:$wait_line"
else
	no "findings.sarif: $(tail -n 1 "$w/sarif.txt")"
fi
if [ "$buckets" != - ]; then
	grep -qF 'pi_cl_dma_cmd_wait(&amp;j-&gt;wb[p]);' "$out/report/index.html" &&
		ok "index.html shows the late wait's source line, HTML-escaped" ||
		no "index.html does not show the late wait's source line"
fi

open_n=$(sed -n 's/^found : //p' "$out/campaign.txt")
grep -q "^- result: \*\*$open_n open finding(s)\*\* in the tests" "$out/report/summary.md" &&
	ok "summary.md: the result is the record's $open_n open finding(s)" ||
	no "summary.md: no result line of $open_n open finding(s): $(grep '^- result' "$out/report/summary.md")"

# ------------------------------------------------------ prebuilt tests
# A test the user built: bin=DIR with plain and afl only (a copy of
# dequant's): taken as it is, its missing builds leave their engine out.
if [ -x "$out/build/dequant/afl" ] && command -v afl-fuzz > /dev/null 2>&1; then
	mkdir -p "$w/pre/bins"
	cp "$out/build/dequant/plain" "$out/build/dequant/afl" "$w/pre/bins/"
	printf 'dq bin=bins:\n' > "$w/pre/dmafuzz.tests"
	"$cli" campaign -o "$w/pre/out" -S 3 -j 2 --no-valgrind --srcroot "$demo" \
		"$w/pre/dmafuzz.tests" > "$w/pre.log" 2>&1
	rc=$?
	if { [ $rc -eq 0 ] || [ $rc -eq 1 ]; } &&
		cmp -s "$w/pre/bins/plain" "$w/pre/out/build/dq/plain" &&
		grep -q '^unit\.dq\.afl : ' "$w/pre/out/campaign.txt" &&
		! grep -q '^unit\.dq\.libfuzzer' "$w/pre/out/campaign.txt"; then
		ok "bin=DIR: the user's own plain and afl builds run (exit $rc), no libFuzzer unit without one"
	else
		no "bin=DIR: exit $rc: $(tail -n 2 "$w/pre.log")"
	fi
fi

n_all=$(find "$out/findings" -type f ! -name '.*' ! -name '*.*' | grep -c .)
sizes=$(awk -F '\t' '{ print $2 }' "$out/work/dequant.classes" | xargs wc -c 2> /dev/null |
	awk '$2 != "total" { print $1 }' | sort -n | paste -s -d , -)
echo "campaign-check: measured: the resumed campaign ${secs}s (-S 6 -j 2), $n_all finding(s)" \
	"(schedules of $sizes bytes), $buckets bucket(s), min --exec ${m_in:-?} -> ${m_out:-?} bytes"
echo "campaign-check: $pass ok, $fail failed"
[ "$fail" -eq 0 ]
