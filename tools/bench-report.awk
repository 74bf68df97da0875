# SPDX-License-Identifier: MIT
# The report of `make bench` (tools/bench.sh): reads its tab-separated
# records and writes the Markdown table to the file md and the JSON to the
# file json (awk -v md=... -v json=... -v core=a,b,...). Records:
#   I key value                      run information (date, load, ...)
#   E target engine secs execs eps empty_execs empty_eps stability
#                                    a pair (a target and engine may have
#                                    several: pooled, pool_pairs())
#   X target secs schedules schedules_per_s syscalls_per_schedule
#     bare_syscalls_per_schedule     a drop-in target in process
#   T switch target start kept exposing cap run status ms afl_ms execs class
#     specific                       start: seeds | zero; status: found,
#                                    capped, seed (an input exposes it
#                                    before fuzzing), failed, none (no input
#                                    left to fuzz)
#   P label value                    a row of `dmafuzz bench`
#   S label value                    a row of `dmafuzz bench --startup`
#   M secs status                    `make memcheck` wall time
# Ratios and medians are computed here; a missing number prints as "-".
BEGIN {
	FS = "\t"
	INF = 1e300
	nsw = 0
	ncore = split(core, cores, ",")
}

function esc(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}

# The comma list l with c added, unless it holds c already.
function addto(l, c) {
	return index("," l ",", "," c ",") ? l : l (l ? "," : "") c
}

function num(s) {
	return s ~ /^[0-9]+(\.[0-9]+)?$/
}

function jnum(s) {
	return num(s) ? s + 0 : "null"
}

function ratio(a, b) {
	return num(a) && num(b) && b > 0 ? sprintf("%.3f", a / b) : "-"
}

# The middle of the n values v[1..n] (the upper middle for an even n).
function median(v, n,    i, j, x) {
	for (i = 2; i <= n; i++) {
		x = v[i]
		for (j = i - 1; j >= 1 && v[j] > x; j--)
			v[j + 1] = v[j]
		v[j + 1] = x
	}
	return n ? v[int(n / 2) + 1] : -1
}

function secs(ms, cap) {
	if (ms < 0)
		return "-"
	if (ms >= INF)
		return "> " cap
	return sprintf("%.1f", ms / 1000)
}

$1 == "I" { info[$2] = $3; infokeys[++ninfo] = $2 }
$1 == "E" {
	k = $2 SUBSEP $3
	if (!(k in eg))
		eg[k] = ++ne
	g = eg[k]
	n = ++epn[g]
	for (i = 2; i <= 9; i++)
		ep[g, n, i] = $i
}
$1 == "T" {
	k = $2 SUBSEP $4
	if (!(($2) in swseen)) {
		swseen[$2] = 1
		sws[++nsw] = $2
	}
	swtarget[$2] = $3
	kept[k] = $5
	expo[k] = $6
	cap[k] = $7
	n = ++nrun[k]
	st[k, n] = $9
	ms[k, n] = $10
	am[k, n] = $11
	ex[k, n] = $12
	if ($13 != "-" && $13 != "") {
		cls[k] = addto(cls[k], $13)
		swcls[$2] = addto(swcls[$2], $13)
	}
	if ($14 == "no")
		notspecific[$2] = 1
}
$1 == "X" {
	nx++
	for (i = 2; i <= 7; i++)
		x[nx, i] = $i
	xof[$2] = nx
}
$1 == "P" { np++; plabel[np] = $2; pvalue[np] = $3 }
$1 == "S" { ns++; slabel[ns] = $2; svalue[ns] = $3 }
$1 == "M" { msecs = $2; mstatus = $3 }

# Median seconds (ms[]) and execs of the runs of key k into tm[k], tx[k];
# the runs as text into truns[k].
function summarize(k,    i, n, vm, vx, s) {
	n = 0
	truns[k] = ""
	for (i = 1; i <= nrun[k]; i++) {
		s = st[k, i]
		if (s == "failed" || s == "none") {
			truns[k] = truns[k] (truns[k] ? ", " : "") s
			continue
		}
		n++
		vm[n] = s == "capped" ? INF : (s == "seed" ? 0 : ms[k, i])
		vx[n] = s == "capped" ? INF : (s == "seed" ? 0 : ex[k, i])
		truns[k] = truns[k] (truns[k] ? ", " : "") \
			(s == "seed" ? "seed" : secs(vm[n], cap[k]))
	}
	tm[k] = n ? median(vm, n) : -1
	tx[k] = n ? median(vx, n) : -1
}

# The pairs of each target and engine into e[g, 2..9]: the seconds, the
# execs summed, the mean execs/s of the target and of the empty target
# (over the pairs that have both), the lowest stability; every pair's
# ratio, in run order, as text into eratios[g] and as JSON into ejson[g].
function pool_pairs(    g, i, r, n, x, ex, eps, ee, eeps, st) {
	for (g = 1; g <= ne; g++) {
		n = x = ex = eps = ee = eeps = 0
		st = "-"
		eratios[g] = ejson[g] = ""
		for (i = 1; i <= epn[g]; i++) {
			r = ratio(ep[g, i, 6], ep[g, i, 8])
			eratios[g] = eratios[g] (i > 1 ? ", " : "") \
				(r == "-" ? "-" : sprintf("%.1f%%", r * 100))
			ejson[g] = ejson[g] (i > 1 ? "," : "") jnum(r)
			if (num(ep[g, i, 9]) && (st == "-" || ep[g, i, 9] + 0 < st + 0))
				st = ep[g, i, 9]
			if (r == "-")
				continue
			n++
			if (num(ep[g, i, 5]) && num(ep[g, i, 7])) {
				x++
				ex += ep[g, i, 5]
				ee += ep[g, i, 7]
			}
			eps += ep[g, i, 6]
			eeps += ep[g, i, 8]
		}
		for (i = 2; i <= 9; i++)
			e[g, i] = ep[g, 1, i]
		if (n) {
			e[g, 5] = x ? ex : "-"
			e[g, 6] = sprintf("%.2f", eps / n)
			e[g, 7] = x ? ee : "-"
			e[g, 8] = sprintf("%.2f", eeps / n)
		}
		e[g, 9] = st
	}
}

function md_goals(    i, r, met, line, k, bad, missing) {
	printf "## Goals (issue 5)\n\n| goal | measured | met |\n|---|---|---|\n" > md
	r = "-"
	for (i = 1; i <= ne; i++)
		if (e[i, 2] == "xfer" && e[i, 3] == "afl")
			r = ratio(e[i, 6], e[i, 8])
	met = r == "-" ? "not measured" : (r >= 0.5 ? "yes" : "no")
	printf "| xfer execs/s under AFL++ at least 50%% of the empty target's | %s | %s |\n", \
		r == "-" ? "-" : sprintf("%.1f%%", r * 100), met > md
	line = ""
	bad = missing = 0
	for (i = 1; i <= ncore; i++) {
		k = cores[i] SUBSEP "seeds"
		if (!(k in nrun) || tm[k] < 0) {
			line = line (line ? ", " : "") cores[i] " -"
			missing = 1
			continue
		}
		line = line (line ? ", " : "") cores[i] " " secs(tm[k], cap[k]) " s"
		if (tm[k] >= 60000)
			bad = 1
	}
	printf "| median time to exposure under 60 s from the shipped seeds, every core switch | %s | %s |\n\n", \
		line, bad ? "no" : (missing ? "not measured" : "yes") > md
}

function md_execs(    i, r) {
	printf "## Fuzzer throughput beside the empty target\n\n" > md
	if (!ne) {
		printf "Not measured.\n\n" > md
		return
	}
	printf "Each target and the empty target (fuzz/empty.c) run side by side, at the same time, on the target's seeds with the same options; afl-fuzz without cmplog, libFuzzer with ASan and UBSan.\n\n" > md
	printf "Under AFL++ each target runs %s such pairs, one after another (CPUs: %s; pinned, the target and the empty target swap CPUs every pair): the row gives the execs summed over the pairs, the mean execs/s of each side and their ratio, the lowest stability; the last column every pair's ratio in run order.\n\n", info["bench_pairs"] ? info["bench_pairs"] : 1, info["afl_cpus"] ? info["afl_cpus"] : "-" > md
	printf "| target | engine | seconds | execs | execs/s | empty execs/s | target / empty | stability | every pair |\n|---|---|---|---|---|---|---|---|---|\n" > md
	for (i = 1; i <= ne; i++) {
		r = ratio(e[i, 6], e[i, 8])
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", e[i, 2], \
			e[i, 3] == "afl" ? "AFL++" : "libFuzzer", e[i, 4], e[i, 5], \
			e[i, 6], e[i, 8], r == "-" ? "-" : sprintf("%.1f%%", r * 100), \
			e[i, 9] == "-" || e[i, 9] == "" ? "-" : e[i, 9] "%", \
			eratios[i] > md
		if ((i == ne || e[i + 1, 2] != e[i, 2]) && (e[i, 2] in xof))
			md_inproc(xof[e[i, 2]])
	}
	printf "\n" > md
	md_syscalls()
}

# The in-process row of drop-in target k: no fuzzer, no empty target.
function md_inproc(k) {
	printf "| %s | in process | %s | %s | %s | - | - | - | - |\n", x[k, 2], x[k, 3], \
		x[k, 4], x[k, 5] > md
}

function md_syscalls(    i) {
	if (!nx)
		return
	printf "In process: the drop-in target built plain (gcc -O2) with tools/bench-inproc.c, its fuzz entry point in a loop over the bare run's kind of schedules, no fuzzer (the ceiling of any fuzzer's execs/s on it; alone, so the machine's load counts). System calls a schedule (strace -f -c, 201 schedules beside 1): of that loop, and of the test binary's bare run (`-n`).\n\n" > md
	printf "| target | system calls a schedule, fuzz entry | bare run |\n|---|---|---|\n" > md
	for (i = 1; i <= nx; i++)
		printf "| %s | %s | %s |\n", x[i, 2], x[i, 6], x[i, 7] > md
	printf "\n" > md
}

function md_tte(    i, sw, ks, kz, note) {
	printf "## Time to exposure of each bug switch (AFL++)\n\n" > md
	if (!nsw) {
		printf "Not measured (TTE=0).\n\n" > md
		return
	}
	printf "afl-fuzz as `make fuzz` runs it (cmplog, dictionary, -t 50) with one switch on, until its first crash: seconds from the launch of afl-fuzz to the crash file (start-up and the pass over the inputs included), execs from the crash file's name. Median of the runs (seeds -s 1..%s), each capped at %s s (a capped run counts as more than the cap). **From seeds**: the shipped seeds of the switch's target minus its reproducer and every other seed that already exposes it (kept/exposing). **From zero**: one seed of 64 zero bytes.\n\n", info["tte_runs"], info["tte_cap"] > md
	printf "| switch | target | from seeds: median s | execs | runs (s) | seeds kept/exposing | from zero: median s | execs | runs (s) | classes found |\n" > md
	printf "|---|---|---|---|---|---|---|---|---|---|\n" > md
	for (i = 1; i <= nsw; i++) {
		sw = sws[i]
		ks = sw SUBSEP "seeds"
		kz = sw SUBSEP "zero"
		printf "| %s | %s | %s | %s | %s | %s/%s | %s | %s | %s | %s |\n", sw, swtarget[sw], \
			secs(tm[ks], cap[ks]), tx[ks] < 0 ? "-" : (tx[ks] >= INF ? "-" : tx[ks]), \
			truns[ks], kept[ks], expo[ks], \
			secs(tm[kz], cap[kz]), tx[kz] < 0 ? "-" : (tx[kz] >= INF ? "-" : tx[kz]), \
			truns[kz], swcls[sw] > md
	}
	note = ""
	for (sw in notspecific)
		note = note (note ? ", " : "") sw
	if (note)
		printf "\n**Note**: a first crash of %s also crashes with every switch off: a bug of the shipped code, not (only) the switch.\n", note > md
	printf "\n" > md
}

function md_rest(    i) {
	printf "## Engine (`dmafuzz bench corpus/xfer`)\n\n| measure | value |\n|---|---|\n" > md
	for (i = 1; i <= np; i++)
		printf "| %s | %s |\n", plabel[i], pvalue[i] > md
	printf "\n## Start-up (`dmafuzz bench --startup`)\n\n" > md
	if (!ns)
		printf "Not measured.\n" > md
	else
		printf "CPU time (user + system) of one process, from fork to exit, beside the same binary printing its version and `true`.\n\n| measure | value |\n|---|---|\n" > md
	for (i = 1; i <= ns; i++)
		printf "| %s | %s |\n", slabel[i], svalue[i] > md
	printf "\n## Minimization beside afl-tmin\n\nNot part of this run: `sh tools/min-vs-tmin.sh` writes that table (`dmafuzz min` beside `afl-tmin` on a fuzzer-found crash of each switch).\n\n" > md
	printf "## memcheck\n\n" > md
	if (msecs == "")
		printf "Not run (BENCH_MEMCHECK=1 runs it).\n" > md
	else
		printf "`make memcheck` (unit tests and regression corpus under valgrind): %s s wall, %s.\n", msecs, mstatus > md
}

function json_tte(k, sw, start,    i) {
	printf "{\"switch\":%s,\"target\":%s,\"start\":%s,\"kept\":%s,\"exposing\":%s,\"cap_s\":%s,", \
		esc(sw), esc(swtarget[sw]), esc(start), jnum(kept[k]), jnum(expo[k]), jnum(cap[k]) > json
	printf "\"median_s\":%s,\"median_execs\":%s,\"median_capped\":%s,\"runs\":[", \
		(tm[k] < 0 || tm[k] >= INF ? "null" : tm[k] / 1000), \
		(tx[k] < 0 || tx[k] >= INF ? "null" : tx[k]), (tm[k] >= INF ? "true" : "false") > json
	for (i = 1; i <= nrun[k]; i++)
		printf "%s{\"status\":%s,\"ms\":%s,\"afl_ms\":%s,\"execs\":%s}", (i > 1 ? "," : ""), \
			esc(st[k, i]), jnum(ms[k, i]), jnum(am[k, i]), jnum(ex[k, i]) > json
	printf "],\"classes\":%s}", esc(cls[k]) > json
}

function write_json(    i, n, sw) {
	printf "{\"info\":{" > json
	for (i = 1; i <= ninfo; i++)
		printf "%s%s:%s", (i > 1 ? "," : ""), esc(infokeys[i]), esc(info[infokeys[i]]) > json
	printf "},\n\"execs\":[" > json
	for (i = 1; i <= ne; i++)
		printf "%s\n{\"target\":%s,\"engine\":%s,\"secs\":%s,\"execs\":%s,\"execs_per_s\":%s,\"empty_execs\":%s,\"empty_execs_per_s\":%s,\"ratio\":%s,\"stability\":%s,\"ratios\":[%s]}", \
			(i > 1 ? "," : ""), esc(e[i, 2]), esc(e[i, 3]), jnum(e[i, 4]), jnum(e[i, 5]), \
			jnum(e[i, 6]), jnum(e[i, 7]), jnum(e[i, 8]), jnum(ratio(e[i, 6], e[i, 8])), \
			jnum(e[i, 9]), ejson[i] > json
	printf "],\n\"inproc\":[" > json
	for (i = 1; i <= nx; i++)
		printf "%s\n{\"target\":%s,\"secs\":%s,\"schedules\":%s,\"schedules_per_s\":%s,\"syscalls_per_schedule\":%s,\"bare_syscalls_per_schedule\":%s}", \
			(i > 1 ? "," : ""), esc(x[i, 2]), jnum(x[i, 3]), jnum(x[i, 4]), \
			jnum(x[i, 5]), jnum(x[i, 6]), jnum(x[i, 7]) > json
	printf "],\n\"tte\":[" > json
	n = 0
	for (i = 1; i <= nsw; i++) {
		sw = sws[i]
		if ((sw SUBSEP "seeds") in nrun) {
			printf "%s\n", (n++ ? "," : "") > json
			json_tte(sw SUBSEP "seeds", sw, "seeds")
		}
		if ((sw SUBSEP "zero") in nrun) {
			printf "%s\n", (n++ ? "," : "") > json
			json_tte(sw SUBSEP "zero", sw, "zero")
		}
	}
	printf "],\n\"engine\":[" > json
	for (i = 1; i <= np; i++)
		printf "%s{\"measure\":%s,\"value\":%s}", (i > 1 ? "," : ""), esc(plabel[i]), esc(pvalue[i]) > json
	printf "],\n\"startup\":[" > json
	for (i = 1; i <= ns; i++)
		printf "%s{\"measure\":%s,\"value\":%s}", (i > 1 ? "," : ""), esc(slabel[i]), esc(svalue[i]) > json
	printf "],\n\"minimize\":null,\n\"memcheck\":%s}\n", (msecs == "" ? "null" : \
		sprintf("{\"secs\":%s,\"status\":%s}", jnum(msecs), esc(mstatus))) > json
}

END {
	pool_pairs()
	for (i = 1; i <= nsw; i++) {
		if ((sws[i] SUBSEP "seeds") in nrun)
			summarize(sws[i] SUBSEP "seeds")
		if ((sws[i] SUBSEP "zero") in nrun)
			summarize(sws[i] SUBSEP "zero")
	}
	printf "# dmafuzz bench\n\n" > md
	printf "- %s on %s CPU(s), load average %s at the start, %s at the end; %s; wall %s s\n", \
		info["date"], info["nproc"], info["load_start"], info["load_end"], info["afl"], info["wall_s"] > md
	printf "- Absolute times on a shared machine are noise: read the ratios and the execs. What each number means: docs/bench.md.\n\n" > md
	md_goals()
	md_execs()
	md_tte()
	md_rest()
	write_json()
}
