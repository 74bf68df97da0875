# SPDX-License-Identifier: MIT
# Checks of the campaign scripts, part of make check; none needs AFL++.
#   fuzz-seeds-check    the seed build on a corpus of its own: a seed that
#                       crashes the runtime is a finding, not a build
#                       failure; a seed that decodes to another plan is an
#                       error; the campaign keeps a crashing seed as a
#                       seed-* finding (tools/fuzz-seeds-check.sh)
#   nightly-lock-check  with a stand-in afl-fuzz: a nightly refuses (exit
#                       75) an output directory that a killed nightly's
#                       afl-fuzz, or any process, still holds; its summary
#                       (dmafuzz report, from the night's record) prints
#                       n/a, never 2147483647, for a rate afl-fuzz has not
#                       measured (tools/nightly-lock-check.sh)
.PHONY: fuzz-seeds-check nightly-lock-check
check: fuzz-seeds-check nightly-lock-check

fuzz-seeds-check: $(CLI) $(BUILD)/fuzz/replay/api
	sh tools/fuzz-seeds-check.sh $(CLI) $(BUILD)/fuzz/replay

nightly-lock-check: $(CLI)
	sh tools/nightly-lock-check.sh $(CLI)
