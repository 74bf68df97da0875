#!/bin/sh
# SPDX-License-Identifier: MIT
# `make fuzz-smoke`: each libFuzzer target (ASan + UBSan) for a fixed
# number of executions from its seeds and dictionary, every bug switch
# off. It must find nothing: a finding here is a bug in the shipped
# runtime, the harness or the parser. Prints execs and seconds per target.
# Executions: 20000 (XFER_RUNS, HOST_RUNS, RUNS) for xfer, host and api,
# 100000 (PARSE_RUNS) for the parser: about 10 s each under ASan (an xfer
# run makes at most 128 pushes in 128 engine steps, a host run at most
# 256 launches). The multi-core drop-in targets of make bench
# (dropin-mchan, dropin-snrt) take RUNS too.
# Crash files and the logs go to OUT (default out/fuzz-smoke).
# Usage: fuzz-smoke.sh FUZZ_BUILD TARGET...
#        (env: RUNS, XFER_RUNS, HOST_RUNS, PARSE_RUNS, OUT)
set -u
fz=$1
shift
out=${OUT:-out/fuzz-smoke}
fail=0

now() { date +%s.%N; }

rm -rf "$out"
for t in "$@"; do
	case $t in
	xfer) n=${XFER_RUNS:-20000} ;;
	host) n=${HOST_RUNS:-20000} ;;
	parse) n=${PARSE_RUNS:-100000} ;;
	*) n=${RUNS:-20000} ;;
	esac
	# The fixed Snitch GEMM is fixed for iDMA counting ids at the pop
	# (make bench runs it so too).
	quirks=
	[ "$t" = dropin-snrt ] && quirks=no-idma-id-at-push
	mkdir -p "$out/$t/corpus"
	dict=
	[ -f "fuzz/$t.dict" ] && dict=-dict=fuzz/$t.dict
	t0=$(now)
	# New inputs go to the scratch corpus, never into the seeds.
	# shellcheck disable=SC2086
	env -u DMAFUZZ_BUGS ${quirks:+DFZ_QUIRKS=$quirks} "$fz/libfuzzer/$t" \
		-runs="$n" -seed=1 -timeout=30 \
		-print_final_stats=1 -artifact_prefix="$out/$t/" $dict \
		"$out/$t/corpus" "$fz/seeds/$t" > "$out/$t.log" 2>&1
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log")
	printf 'fuzz-smoke: %-5s %8s execs in %6s s' "$t" "${execs:-?}" "$secs"
	if [ "$rc" -eq 0 ]; then
		printf '  ok\n'
	else
		printf '  FAILED (exit %s): see %s.log\n' "$rc" "$out/$t"
		grep -E '^(CLASS|MESSAGE|parse):|ERROR:|SUMMARY:' "$out/$t.log" | head -n 5
		fail=1
	fi
done
exit $fail
