# SPDX-License-Identifier: MIT
# Checks of the campaign scripts, part of make check; neither needs AFL++.
#   fuzz-seeds-check  the seed build on a corpus of its own: a seed that
#                     crashes the runtime is a finding, not a build failure;
#                     a seed that decodes to another plan is an error; the
#                     campaign keeps a crashing seed as a seed-* finding
#                     (tools/fuzz-seeds-check.sh)
.PHONY: fuzz-seeds-check
check: fuzz-seeds-check

fuzz-seeds-check: $(CLI) $(BUILD)/fuzz/replay/api
	sh tools/fuzz-seeds-check.sh $(CLI) $(BUILD)/fuzz/replay
