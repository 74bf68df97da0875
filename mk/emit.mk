# SPDX-License-Identifier: MIT
# make emit-check: every regression reproducer becomes a standalone C
# program (dmafuzz emit-c), built against the library, headers and
# pkg-config file as `make install` lays them out (DESTDIR under
# $(BUILD)/emit-check), run, and compared with `dmafuzz run` of the same
# plan. EMIT_PLANS= picks other plans (e.g. corpus/*/*.plan).
EMIT_ROOT  := $(BUILD)/emit-check
EMIT_PLANS ?= $(wildcard corpus/regress/*.plan)

emit-check: $(CLI) $(LIB)
	rm -rf $(EMIT_ROOT)
	$(MAKE) --no-print-directory install PREFIX=/usr/local FUZZLIB=0 \
	    DESTDIR=$(abspath $(EMIT_ROOT)) > /dev/null
	sh tools/emit-check.sh -c $(CLI) -r $(EMIT_ROOT) \
	    -f "$(filter -fsanitize%,$(DFZ_CFLAGS))" $(EMIT_PLANS)

# make full-disk-check (part of make check): output that cannot be written
# (stdout or emit-c -o on /dev/full) is one line and exit 3 for emit-c and
# every command that writes to stdout (tools/full-disk-check.sh).
.PHONY: full-disk-check
check: full-disk-check
full-disk-check: $(CLI)
	sh tools/full-disk-check.sh $(CLI)
