# SPDX-License-Identifier: MIT
# shellcheck shell=sh disable=SC2016,SC2154
# (SC2016: backquotes in single quotes are Markdown; SC2154: the globals
# below are the caller's)
# Shell functions shared by the AFL++ campaign scripts (tools/fuzz.sh for
# `make fuzz`, tools/nightly.sh for `make nightly`, tools/campaign.sh for
# `dmafuzz campaign`); sourced, never run.
#
# The caller sets these before calling anything here:
#   bugs      the bug switches (DMAFUZZ_BUGS) the targets run with
#   findings  the findings root: every kept file is $findings/<target>/NAME
#   replay    the directory of the replay drivers (build/fuzz/replay)
#   cli       the dmafuzz CLI (to print a finding as a text plan)
#   found     the findings of this run that count; failed: what could not run
#   work      the scratch directory of this run (its logs, its lists)
#   script    the script's name (fuzz, nightly), to start its messages
#   stamp     when the run started
# campaign_opt sets seed, timeout_ms, fz, replay, cli and out.
#
# The rule every function here keeps: a crash or a hang of afl-fuzz is
# copied (never moved, never renamed in place) into the findings before
# anything else looks at it, under a name no other file has (a kept file
# is never overwritten), and only once by content.

say() { printf '%s\n' "$*" >&2; }

# The options both scripts take: getopts option $1 with argument $2 sets
# the variable it names (-s seed, -t timeout_ms, -b fz, -r replay, -c cli,
# -o out). Return 1 for any other option: the caller's own, or its usage.
# shellcheck disable=SC2034 # the caller's variables
campaign_opt() {
	case $1 in
	s) seed=$2 ;;
	t) timeout_ms=$2 ;;
	b) fz=$2 ;;
	r) replay=$2 ;;
	c) cli=$2 ;;
	o) out=$2 ;;
	*) return 1 ;;
	esac
}

# The content key of file $1 (the findings index maps it to a kept file).
content_key() {
	sha256sum < "$1" | cut -d ' ' -f 1
}

# Keep file $2 of target $1 as finding $3 (a name under the target's
# findings; "-N" is added when a different file has the name already)
# unless a finding with the same bytes is kept already; print the kept
# path. The copy goes to a temporary name first, then is renamed: a kept
# file is always whole. The index ($findings/<target>/.index) maps content
# keys to kept files.
keep() {
	idx=$findings/$1/.index
	sum=$(content_key "$2")
	kept=$(awk -F '\t' -v s="$sum" '$1 == s { print $2; exit }' "$idx" 2>/dev/null)
	if [ -z "$kept" ] || [ ! -f "$kept" ]; then
		kept=$findings/$1/$3
		k_n=1
		while [ -e "$kept" ]; do
			kept=$findings/$1/$3-$k_n
			k_n=$((k_n + 1))
		done
		if cp -p "$2" "$kept.part" && mv "$kept.part" "$kept"; then
			printf '%s\t%s\n' "$sum" "$kept" >> "$idx"
		else
			say "fuzz: could not copy $2 into $findings/$1/ (left where it is)"
			rm -f "$kept.part"
			kept=$2
		fi
	fi
	printf '%s\n' "$kept"
}

# Keep each crash and hang of the afl-fuzz output directory $2 (target
# $1) not seen yet, from every instance in it (default for a single
# afl-fuzz, main and s1.. for a parallel one) and from the crashes.DATE
# and hangs.DATE directories a resumed afl-fuzz leaves. A file is named
# KIND-TAG-ID ($3: the tag), with the instance before the id when it is
# not "default". $4 lists the afl-fuzz files seen already; each kept path
# is added to $5 (the findings of this run) when $5 is not empty.
rescue() {
	for dir in "$2"/*/crashes* "$2"/*/hangs*; do
		[ -d "$dir" ] || continue
		inst=$(basename "$(dirname "$dir")")
		case $(basename "$dir") in crashes*) k=crash ;; *) k=hang ;; esac
		case $inst in default) inst= ;; *) inst=$inst- ;; esac
		# The files not seen yet (one set difference, not a look-up each).
		touch "$4"
		LC_ALL=C sort -u "$4" > "$4.sorted"
		find "$dir" -maxdepth 1 -type f -name 'id:*' | LC_ALL=C sort |
			LC_ALL=C comm -23 - "$4.sorted" > "$4.new"
		while read -r f; do
			id=$(basename "$f" | sed 's/^id:\([0-9]*\).*/\1/')
			kept=$(keep "$1" "$f" "$k-$3-$inst$id")
			# Not copied (disk full?): tried again at the next look.
			[ "$kept" = "$f" ] || printf '%s\n' "$f" >> "$4"
			if [ -n "$5" ]; then printf '%s\n' "$kept" >> "$5"; fi
		done < "$4.new"
	done
	rm -f "$4.new" "$4.sorted"
}

# The family byte that turns a bare stream of target $1 into a full one.
family_byte() {
	case $1 in
	xfer) printf '\000' ;;
	host) printf '\001' ;;
	api) printf '\002' ;;
	esac
}

# Replay finding $2 of target $1 once; its report goes to $2.txt, the
# class to stdout: an oracle class, "parse.roundtrip", "crash (SIGNAME)"
# (ASan's SEGV included), "crash (asan KIND)", "hang" (over 10 s), "slow" (a hang under AFL++ that ends) or "not
# reproduced" (a crash under AFL++ that runs clean).
classify() {
	DMAFUZZ_BUGS=$bugs timeout 10 "$replay/$1" "$2" > "$2.txt.part" 2>&1
	rc=$?
	mv "$2.txt.part" "$2.txt"
	if [ "$1" != parse ] && [ ! -e "$2.plan" ]; then
		if { family_byte "$1"; cat "$2"; } | "$cli" show - > "$2.plan.part" 2>/dev/null; then
			mv "$2.plan.part" "$2.plan"
		else
			rm -f "$2.plan.part"
		fi
	fi
	cls=$(sed -n 's/^CLASS: *//p' "$2.txt" | head -n 1)
	if [ -n "$cls" ]; then
		echo "$cls"
	elif grep -q '^parse: ' "$2.txt"; then
		echo parse.roundtrip
	elif [ "$rc" -eq 124 ]; then
		echo hang
	elif [ "$rc" -gt 128 ]; then
		echo "crash (SIG$(kill -l $((rc - 128)) 2>/dev/null || echo $((rc - 128))))"
	elif asan=$(sed -n 's/.*ERROR: AddressSanitizer: \([A-Za-z-]*\).*/\1/p' \
	    "$2.txt" | head -n 1) && [ -n "$asan" ]; then
		# An ASan build reports a fault itself and exits 1: a SEGV is
		# the signal a plain build dies of, another error its kind.
		case $asan in
		SEGV) echo "crash (SIGSEGV)" ;;
		*) echo "crash (asan $asan)" ;;
		esac
	else
		case $(basename "$2") in
		hang-*) echo slow ;;
		*) echo "not reproduced" ;;
		esac
	fi
}

# Whether every file given after target $1 replays clean (one process for
# them all: the replay driver runs each file in turn).
replays_clean() {
	rc_t=$1
	shift
	[ $# -gt 0 ] || return 0
	DMAFUZZ_BUGS=$bugs timeout $((10 + $#)) "$replay/$rc_t" "$@" >/dev/null 2>&1
}

# The inputs of target $1 that run clean are copied into afl-fuzz's input
# directory $2; one that crashes (or hangs) is a finding in its own right,
# kept as seed-TAG-NAME ($4: the tag), and listed in $3. The inputs
# are the files of the directories after $4 (the seeds, a kept corpus).
# Return 1 when no input runs clean, not even the empty one.
preflight() {
	pf_t=$1 pf_in=$2 pf_found=$3 pf_tag=$4
	shift 4
	mkdir -p "$pf_in"
	for d in "$@"; do
		[ -d "$d" ] || continue
		# shellcheck disable=SC2046 # fuzz inputs are named without blanks
		if replays_clean "$pf_t" $(find "$d" -maxdepth 1 -type f ! -name '.*' | sort); then
			find "$d" -maxdepth 1 -type f ! -name '.*' -exec cp -t "$pf_in/" {} +
			continue
		fi
		for f in "$d"/*; do
			[ -f "$f" ] || continue
			if replays_clean "$pf_t" "$f"; then
				cp "$f" "$pf_in/"
			else
				keep "$pf_t" "$f" "seed-$pf_tag-$(basename "$f")" >> "$pf_found"
			fi
		done
	done
	# afl-fuzz needs one input: the empty one is the simplest plan.
	if [ -z "$(ls "$pf_in")" ]; then
		: > "$pf_in/empty"
		replays_clean "$pf_t" "$pf_in/empty" || return 1
	fi
	return 0
}

# Replay every finding listed in $2 (target $1) into $3: lines of
# "CLASS<TAB>FILE". Print how many count (every class but "slow").
classify_list() {
	: > "$3"
	if [ -f "$2" ]; then
		sort -u "$2" | while read -r f; do
			printf '%s\t%s\n' "$(classify "$1" "$f")" "$f"
		done >> "$3"
	fi
	awk -F '\t' '$1 != "slow"' "$3" | wc -l
}

# The lines of a campaign's record (CAMPAIGN/campaign.txt, "key : value"
# as in fuzzer_stats) that both scripts write: what ran, with which
# switches, and where the lists `dmafuzz report` reads are (the class
# lists WORK/<target>.classes, the seed build's findings.txt), then the
# failures said so far (the lines of $work/failures); $@: the targets.
# The report is the one reader.
record_common() {
	printf '%s : %s\n' kind "$script" started "$stamp" seed "$seed" \
		bugs "$bugs" failed "$failed" targets "$*" work "$work" \
		findings "$findings" replay "$replay" cli "$cli" \
		seed_findings "$fz/seeds/findings.txt" cwd "$(pwd)"
	cat "$work/failures" 2>/dev/null
}

# Say that target or instance $1 could not run ($2: why), on stderr and
# in the record's failures.
failure() {
	say "$script: $1: $2"
	printf 'failure : %s: %s\n' "$1" "$2" >> "$work/failures"
}

# The end of a campaign of script $1 (fuzz, nightly): each target's
# findings by class (the class lists $2/<target>.classes; the targets
# follow), then exit 1 when $found findings count, 2 when $failed
# campaigns or instances could not run, else 0.
conclude() {
	cc_name=$1 cc_dir=$2
	shift 2
	if [ "$found" -gt 0 ]; then
		say "$cc_name: FOUND $found crash(es)/hang(s):"
		for t in "$@"; do
			cut -f 1 "$cc_dir/$t.classes" | sort | uniq -c |
				while read -r n cls; do say "  $t: $cls x$n"; done
		done
		exit 1
	fi
	[ "$failed" -eq 0 ] || exit 2
	exit 0
}

# Become afl-fuzz with its arguments ($@), in the environment every
# campaign uses: no UI, no CPU binding (other jobs share the cores), the
# bug switches of the targets. It execs: call it in the background
# (`afl_exec ... &`), and $! is afl-fuzz itself, which a signal stops
# cleanly (a background shell would ignore SIGINT).
afl_exec() {
	exec env AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
		AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_FAST_CAL=1 \
		AFL_FORKSRV_INIT_TMOUT=10000 DMAFUZZ_BUGS="$bugs" afl-fuzz "$@"
}

# The pids of the processes with a file open at path $1 or under it, one a
# line; among the pids of the list $2 only, when it is given. Linux only
# (/proc); elsewhere none.
open_by() {
	[ -d /proc/self/fd ] || return 0
	if [ -d "$1" ]; then
		ob_p=$(cd "$1" 2>/dev/null && pwd -P) || return 0
	else
		[ -e "$1" ] || return 0
		ob_p=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
	fi
	ob_fds='/proc/[0-9]*/fd'
	if [ $# -gt 1 ]; then
		ob_fds=
		for ob_i in $2; do ob_fds="$ob_fds /proc/$ob_i/fd"; done
		[ -n "$ob_fds" ] || return 0
	fi
	# shellcheck disable=SC2086 # a list (or a pattern) of /proc paths
	find $ob_fds -mindepth 1 -maxdepth 1 \( -lname "$ob_p" -o -lname "$ob_p/*" \) \
		2>/dev/null | cut -d / -f 3 | sort -un
}

# End the target processes afl-fuzz left behind under output directory
# $1. With a cmplog binary (-c), afl-fuzz 4.x loses track of persistent-
# mode children: each stays stopped (SIGSTOP, its parent gone) for ever,
# and keeps the instance directory locked, so that a resumed afl-fuzz
# finds it "in use". Only such orphans are ended, each by its pid: stopped,
# a child of init, holding a file under $1. Linux only (/proc).
#
# With $own_bins set (a folder of the run's own target builds, such as a
# campaign's OUT/build), a target left running is ended too: AFL++ starts
# its fork server in a session of its own (setsid), so killing a run's
# process group leaves the server and the child running its input; with
# afl-fuzz gone, they fuzz nothing and only hold the lock. One executing a
# file under $own_bins whose parent is init, or is another such file whose
# parent is init, is such a leftover; a target of a live afl-fuzz is not.
reap_orphans() {
	ro_pids=$(ps -eo pid=,ppid=,stat= 2>/dev/null | awk '$2 == 1 && $3 ~ /^T/ { print $1 }')
	ro_pids="$ro_pids $(lost_targets)"
	[ -n "${ro_pids% }" ] || return 0
	ro_dead=
	for ro_p in $(open_by "$1" "$ro_pids"); do
		kill -KILL "$ro_p" 2>/dev/null
		ro_dead="$ro_dead $ro_p"
	done
	# A SIGKILL is sent, not done: on a loaded machine the lock a victim
	# held is still held for a while. Wait (up to 10 s) until each has
	# closed its files, so that the caller's next flock finds it free.
	ro_i=0
	while [ $ro_i -lt 100 ] && running $ro_dead; do
		sleep 0.1
		ro_i=$((ro_i + 1))
	done
}

# Whether any of the pids given still runs: exists, and is not a zombie
# (which has closed its files).
running() {
	for rn_p; do
		rn_s=$(sed 's/.*) //' "/proc/$rn_p/stat" 2>/dev/null | cut -d ' ' -f 1)
		[ -n "$rn_s" ] && [ "$rn_s" != Z ] && return 0
	done
	return 1
}

# The pids of the targets under $own_bins that no afl-fuzz drives any
# more (reap_orphans); nothing without $own_bins or /proc.
lost_targets() {
	[ -n "${own_bins:-}" ] && [ -d "$own_bins" ] && [ -d /proc/self ] || return 0
	lt_d=$(cd "$own_bins" && pwd -P) || return 0
	ps -eo pid=,ppid= 2>/dev/null | while read -r lt_p lt_pp; do
		case $(readlink "/proc/$lt_p/exe" 2>/dev/null) in "$lt_d"/*) ;; *) continue ;; esac
		if [ "$lt_pp" != 1 ]; then
			case $(readlink "/proc/$lt_pp/exe" 2>/dev/null) in "$lt_d"/*) ;; *) continue ;; esac
			[ "$(ps -o ppid= -p "$lt_pp" 2>/dev/null | tr -d ' ')" = 1 ] || continue
		fi
		echo "$lt_p"
	done
}

# Edges over time of the AFL++ instance dir $2 (fuzz target binary $1,
# scratch dir $3), for the report: afl-fuzz writes no plot_data row in
# its first minute, so a short campaign (fuzz.sh; a night under a minute)
# has none to plot. afl-showmap
# replays every queue entry; in the order of the entries' times, each row
# of $2/coverage_data is a time (s) and the edges of all entries up to it.
# Best effort: without afl-showmap, or when it fails, there is no file.
coverage_over_time() {
	cv_maps=$3/maps.$$
	rm -rf "$cv_maps"
	if ! DMAFUZZ_BUGS=$bugs AFL_QUIET=1 afl-showmap -q -t 1000 \
		-i "$2/queue" -o "$cv_maps" -- "$1" > /dev/null 2>&1; then
		rm -rf "$cv_maps"
		return 0
	fi
	# shellcheck disable=SC2012 # AFL++ names: no spaces or newlines
	ls "$cv_maps" | sed -n 's/^\(.*,time:\([0-9]*\).*\)$/\2 \1/p' |
		sort -n -k 1,1 |
		awk -v dir="$cv_maps" '
		BEGIN { print "# relative_time, edges_found (afl-showmap of the queue)" }
		{
			f = dir "/" substr($0, index($0, " ") + 1)
			while ((getline l < f) > 0) {
				split(l, a, ":")
				if (!(a[1] in seen)) { seen[a[1]] = 1; n++ }
			}
			close(f)
			printf "%.3f %d\n", $1 / 1000, n
		}' > "$2/coverage_data.tmp" && mv "$2/coverage_data.tmp" "$2/coverage_data"
	rm -rf "$cv_maps"
}

# The findings of campaign dir $2 into buckets ($3: `dmafuzz triage`,
# with the campaign's switches; none when $3 is empty), then the campaign
# report into $4 (summary.md and .json, findings.sarif, index.html) by
# the dmafuzz CLI $1: the report reads the campaign's record and lists.
# Their logs go to $work. A failure of either is said, never the
# campaign's; return 1 when there is no summary.md.
triage_and_report() {
	tr_tri=
	if [ -n "$3" ]; then
		DMAFUZZ_BUGS=$bugs "$1" triage -o "$3" "$2" > "$work/triage.log" 2>&1 ||
			say "$script: triage failed (exit $?): $work/triage.log"
	fi
	[ -f "${3:-$4/triage}/triage.json" ] && tr_tri="--triage ${3:-$4/triage}/triage.json"
	# shellcheck disable=SC2086 # no option, or the option and its file
	"$1" report -q $tr_tri -o "$4" "$2" > "$work/report.log" 2>&1 ||
		say "$script: report failed (exit $?): $work/report.log"
	[ -f "$4/index.html" ] && say "$script: report in $4/index.html"
	[ -f "$4/summary.md" ]
}

# The last lines of an afl-fuzz log ($1), without terminal escapes.
log_tail() {
	sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g' "$1" | tail -n 5 >&2
}

# Check that afl-fuzz and every build of the targets ($2...) under fuzz
# build $1 are there, and that DMAFUZZ_BUGS is good. Return 2 if not
# (after a one-line error).
check_campaign() {
	fzb=$1
	shift
	command -v afl-fuzz >/dev/null 2>&1 ||
		{ say "fuzz: afl-fuzz not found (sh tools/deps.sh afl)"; return 2; }
	for t in "$@"; do
		for b in "$fzb/afl/$t" "$fzb/cmplog/$t" "$replay/$t"; do
			[ -x "$b" ] || { say "fuzz: $b is missing (make fuzz-build)"; return 2; }
		done
	done
	# A bad DMAFUZZ_BUGS: the target says so in one line.
	DMAFUZZ_BUGS=$bugs "$replay/$1" || return 2
}

# ------------------------------------------------------------ the lock
# One campaign of a script per output directory ($out) at a time, and
# none while anything an earlier one started still runs there: the
# nightly's rule, shared with the drop-in campaign (tools/campaign.sh).
# The caller sets locked= (empty) first.

unlock() {
	[ -n "$locked" ] && exec 9>&-
	locked=
}

# Refuse the run, OUT being in use by the processes $1 ("pid PID (NAME)"
# lines; none known: another run of the script): one line, exit 75.
busy() {
	bz_n=$(printf '%s\n' "$1" | grep -c .)
	bz_l=$(printf '%s\n' "$1" | head -n 4 | paste -s -d , - | sed 's/,/, /g')
	[ "$bz_n" -le 4 ] || bz_l="$bz_l and $((bz_n - 4)) more"
	say "$script: $out/ is in use by ${bz_l:-another $script}: a $script, or" \
		"what a killed one started, still runs there; wait for it to end or stop it"
	exit 75
}

# "pid PID (NAME)" of each pid read, one a line.
named() {
	while read -r nm_p; do
		printf 'pid %s (%s)\n' "$nm_p" "$(cat "/proc/$nm_p/comm" 2>/dev/null || echo '?')"
	done
}

# The lock (flock) is held through an open file of OUT/.SCRIPT.lock that
# this shell and every process it starts inherit (afl-fuzz, its targets,
# afl-cmin): a run killed outright leaves it held until the last of them
# ends. Stopped targets orphaned by afl-fuzz hold it too; they are ended
# first (reap_orphans). A fuzzer on OUT/afl (or $lock_more, when set)
# that no run started, or one of a run before this lock, holds
# files there: any process with a file open under them refuses the run
# too.
lock() {
	lk=$out/.$script.lock
	{ mkdir -p "$out" && : >> "$lk"; } 2>/dev/null ||
		{ say "$script: cannot create the lock $lk"; exit 2; }
	exec 9>> "$lk"
	if ! flock -n 9; then
		exec 9>&-
		reap_orphans "$out"
		exec 9>> "$lk"
		flock -n 9 || { exec 9>&-; busy "$(open_by "$lk" | named)"; }
	fi
	locked=1
	lk_users=
	for lk_d in "$out/afl" ${lock_more:+"$lock_more"}; do
		reap_orphans "$lk_d"
		lk_users=$(printf '%s\n' "$lk_users" "$(open_by "$lk_d" | named)" | grep .)
	done
	[ -z "$lk_users" ] || busy "$lk_users"
	echo $$ > "$lk"
}
