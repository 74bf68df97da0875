# SPDX-License-Identifier: MIT
# make bench: measured ratios, never timed tests.
bench: $(CLI)
	$(CLI) bench corpus/xfer
