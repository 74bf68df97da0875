# SPDX-License-Identifier: MIT
# make nightly: a long AFL++ campaign, every target at once, JOBS parallel
# afl-fuzz instances per target (main + secondaries, one cmplog, diverse
# power schedules), resumable within a night, then afl-cmin into a corpus
# kept for the next night, a replay of every finding, triage and
# `dmafuzz report` (out/nightly/reports/NIGHT/, its summary.md and
# summary.json copied to out/nightly/). See tools/nightly.sh.
#   HOURS= MINUTES= SECONDS=  the time (added up, fractions allowed; 8 h
#                             when none is given)
#   JOBS=                     instances per target (default: cores / targets)
#   TARGETS=                  a subset of $(FUZZ_TARGETS)
#   NIGHT=                    the night's name (default: today): the same
#                             NIGHT again resumes
#   SEED=, DMAFUZZ_BUGS=      as for make fuzz
# The arguments are checked before anything is built (a bad one: one
# line, exit 64 from the script). One nightly per output directory: while
# another one, or anything a killed one started (its afl-fuzz), still runs
# there, the script refuses in one line, exit 75.
NIGHTLY_TARGETS = $(or $(TARGETS),$(FUZZ_TARGETS))
NIGHTLY_ARGS = -H "$(HOURS)" -M "$(MINUTES)" -S "$(SECONDS)" -j "$(JOBS)" \
    -n "$(NIGHT)" -s "$(SEED)" -b $(FZ) -r $(BUILD)/fuzz/replay -c $(CLI) \
    -o out/nightly $(NIGHTLY_TARGETS)

.PHONY: nightly nightly-check
nightly-check:
	@sh tools/nightly.sh -C $(NIGHTLY_ARGS)

nightly: nightly-check
	$(MAKE) --no-print-directory fuzz-build
	DMAFUZZ_BUGS="$(DMAFUZZ_BUGS)" sh tools/nightly.sh $(NIGHTLY_ARGS)
