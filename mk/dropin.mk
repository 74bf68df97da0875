# SPDX-License-Identifier: MIT
# make dropin-check: every example of examples/ (the user's own code under
# the drop-in: DROPIN.md 8) built against the headers, library and
# pkg-config file as `make install` lays them out (DESTDIR under
# $(BUILD)/dropin-check), run bare, and judged against its expect file
# (tools/dropin-check.sh). DROPIN_RUNS= schedules per bare run.
DROPIN_ROOT     := $(BUILD)/dropin-check
DROPIN_EXAMPLES := $(wildcard examples/*/)
DROPIN_RUNS     ?= 200

.PHONY: dropin-check
ifeq ($(SAN),asan)
# The examples' modes build them plain, with ASan, under valgrind and as
# fuzz targets against the plain library, which the plain build checks;
# an ASan library cannot link into the plain and valgrind modes.
dropin-check:
	@echo "dropin-check: not under SAN=asan (the plain build's asan mode builds every example with ASan)"
else
dropin-check: all | deps-memcheck
	rm -rf $(DROPIN_ROOT)
	$(MAKE) --no-print-directory install PREFIX=/usr/local FUZZLIB=0 \
	    DESTDIR=$(abspath $(DROPIN_ROOT)) > /dev/null
	README=README.md sh tools/dropin-check.sh -r $(DROPIN_ROOT) -c $(CLI) \
	    -n $(DROPIN_RUNS) \
	    $(DROPIN_EXAMPLES)
endif

# The bench's drop-in targets (make bench): examples with their test
# bodies and DFZ_DROPIN_MAIN, against the instrumented library of each
# flavour, as a user would build them: AFL++ persistent mode under
# afl-clang-fast, libFuzzer's main with -fsanitize=fuzzer. dropin: seed
# 000's fixed loop (PMSIS cluster RAM); dropin-mchan: the Siracusa
# closure (MCHAN, a team fork, PI_CL_L1 statics); dropin-snrt: the fixed
# Snitch GEMM (snrt, 9 SPMD cores).
DROPIN_BENCH           := dropin dropin-mchan dropin-snrt
DROPIN_SRC_dropin      := examples/seed000/loop_fixed.c examples/seed000/test_loop.c
DROPIN_SRC_dropin-mchan := examples/siracusa-sb/closure.c examples/siracusa-sb/test_closure.c
DROPIN_SRC_dropin-snrt := examples/snitch-gemm/gemm_db_fixed.c examples/snitch-gemm/test_gemm.c
DROPIN_CFLAGS    := -std=c11 -Iinclude -Iinclude/dmafuzz/dropin \
                    -Wno-pointer-to-int-cast -Wno-int-to-pointer-cast \
                    -include dmafuzz/dropin/pulp_types.h -funsigned-char -fcommon
# As dmafuzz-dropin.pc's Libs: the link layout (the program's statics in
# L2, the library's, libfuzz.a and libdmafuzz-dropin.a here, out of it).
DROPIN_LDFLAGS   := -no-pie -Wl,-T,dmafuzz-dropin.ld
define DROPIN_BENCH_RULES
$$(FZ)/afl/$(1): $$(DROPIN_SRC_$(1)) $$(FZ)/afl/libdmafuzz-dropin.a $$(FZ)/afl/libfuzz.a \
    $$(SDK_LIB)
	$$(FZ_CC_afl) $$(FZ_CFLAGS_afl) $$(DROPIN_CFLAGS) -o $$@ $$(DROPIN_SRC_$(1)) \
	    $$(SDK_LIB) $$(FZ)/afl/libdmafuzz-dropin.a $$(FZ)/afl/libfuzz.a $$(DFZ_LDLIBS) \
	    $$(DROPIN_LDFLAGS)
$$(FZ)/libfuzzer/$(1): $$(DROPIN_SRC_$(1)) $$(FZ)/libfuzzer/libfuzz.a $$(SDK_LIB)
	$$(FZ_CC_libfuzzer) $$(FZ_CFLAGS_libfuzzer) $$(DROPIN_CFLAGS) $$(FZ_LINK_libfuzzer) \
	    -o $$@ $$(DROPIN_SRC_$(1)) $$(SDK_LIB) $$(FZ)/libfuzzer/libfuzz.a $$(DFZ_LDLIBS) \
	    $$(DROPIN_LDFLAGS)
# Its seeds: the empty schedule and one of every byte value 0x80; after
# the plan targets' seeds, whose script starts by removing $(FZ)/seeds:
# made again whenever those are.
$$(FZ)/seeds/$(1)/.stamp: $$(FZ_SEEDS)
	@mkdir -p $$(dir $$@)
	printf '\000\000\000\000\000\000\000\000' > $$(dir $$@)zero
	printf '\200\200\200\200\200\200\200\200' > $$(dir $$@)half
	@touch $$@
# In process (make bench's third row): built plain against the plain
# library, tools/bench-inproc.c's main looping the fuzz entry point; and
# the test binary itself (its bare run), whose system calls bench counts.
$$(FZ)/plain/$(1): $$(DROPIN_SRC_$(1)) tools/bench-inproc.c $$(LIB) $$(SDK_LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) -O2 -g $$(DROPIN_CFLAGS) -o $$@ $$(DROPIN_SRC_$(1)) tools/bench-inproc.c \
	    $$(SDK_LIB) $$(LIB) $$(DFZ_LDLIBS) $$(DROPIN_LDFLAGS)
$$(FZ)/plain/$(1)-bare: $$(DROPIN_SRC_$(1)) $$(LIB) $$(SDK_LIB)
	@mkdir -p $$(dir $$@)
	$$(CC) -O2 -g $$(DROPIN_CFLAGS) -o $$@ $$(DROPIN_SRC_$(1)) \
	    $$(SDK_LIB) $$(LIB) $$(DFZ_LDLIBS) $$(DROPIN_LDFLAGS)
bench-build: $$(FZ)/afl/$(1) $$(FZ)/libfuzzer/$(1) $$(FZ)/seeds/$(1)/.stamp \
    $$(FZ)/plain/$(1) $$(FZ)/plain/$(1)-bare
endef
$(foreach t,$(DROPIN_BENCH),$(eval $(call DROPIN_BENCH_RULES,$(t))))

# The fuzz smoke of the examples (part of make fuzz-smoke, in CI): each
# example as a libFuzzer target (against libdmafuzz-fuzz.a when installed)
# for DROPIN_FUZZ_RUNS executions: the fixed variants clean, the flagged
# ones caught.
DROPIN_FUZZ_RUNS ?= 20000
# The bench's multi-core drop-in targets under libFuzzer with ASan and
# UBSan over the whole library, a few thousand schedules each: the
# cores' stacks as ASan sees them (make bench's libFuzzer rows of them
# once stopped in their first run), and no finding in the fixed code.
.PHONY: dropin-multi-smoke
fuzz-smoke: dropin-multi-smoke
dropin-multi-smoke: $(FZ)/libfuzzer/dropin-mchan $(FZ)/libfuzzer/dropin-snrt \
    $(FZ)/seeds/dropin-mchan/.stamp $(FZ)/seeds/dropin-snrt/.stamp
	OUT=out/fuzz-smoke-dropin RUNS=3000 sh tools/fuzz-smoke.sh $(FZ) \
	    dropin-mchan dropin-snrt

.PHONY: dropin-fuzz-smoke
fuzz-smoke: dropin-fuzz-smoke
dropin-fuzz-smoke: all fuzzlib-ready
	rm -rf $(DROPIN_ROOT)-fuzz
	$(MAKE) --no-print-directory install PREFIX=/usr/local \
	    DESTDIR=$(abspath $(DROPIN_ROOT)-fuzz) > /dev/null
	sh tools/dropin-check.sh -r $(DROPIN_ROOT)-fuzz -m fuzz \
	    -f $(DROPIN_FUZZ_RUNS) $(DROPIN_EXAMPLES)
