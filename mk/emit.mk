# SPDX-License-Identifier: MIT
# make emit-check: every regression reproducer becomes a standalone C
# program (dmafuzz emit-c), built against the library, headers and
# pkg-config file as `make install` lays them out (DESTDIR under
# $(BUILD)/emit-check), run, and compared with `dmafuzz run` of the same
# plan. EMIT_PLANS= picks other plans (e.g. corpus/*/*.plan). Then the
# plans the drop-in printer writes (emit-c --dropin, SDK code in the PMSIS
# names) are built against the installed drop-in headers and run
# (tools/emit-dropin-check.sh), Deeploy's matrix among them (each plan
# also with shared-handle: 120 programs, their calls rolled into loops);
# EMIT_DROPIN_PLANS= picks other plans.
EMIT_ROOT  := $(BUILD)/emit-check
EMIT_PLANS ?= $(wildcard corpus/regress/*.plan)
EMIT_DROPIN_PLANS ?= $(wildcard corpus/regress/*.plan corpus/xfer/*.plan \
                        corpus/deeploy/*.plan)

emit-check: all
	rm -rf $(EMIT_ROOT)
	$(MAKE) --no-print-directory install PREFIX=/usr/local FUZZLIB=0 \
	    DESTDIR=$(abspath $(EMIT_ROOT)) > /dev/null
	sh tools/emit-check.sh -c $(CLI) -r $(EMIT_ROOT) \
	    -f "$(filter -fsanitize%,$(DFZ_CFLAGS))" $(EMIT_PLANS)
	sh tools/emit-dropin-check.sh -c $(CLI) -r $(EMIT_ROOT) \
	    -f "$(filter -fsanitize%,$(DFZ_CFLAGS))" $(EMIT_DROPIN_PLANS)

# make full-disk-check (part of make check): output that cannot be written
# (stdout or emit-c -o on /dev/full) is one line and exit 3 for emit-c and
# every command that writes to stdout (tools/full-disk-check.sh).
.PHONY: full-disk-check
check: full-disk-check
full-disk-check: $(CLI)
	sh tools/full-disk-check.sh $(CLI)
