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
dropin-check: $(LIB) $(CLI) | deps-memcheck
	rm -rf $(DROPIN_ROOT)
	$(MAKE) --no-print-directory install PREFIX=/usr/local FUZZLIB=0 \
	    DESTDIR=$(abspath $(DROPIN_ROOT)) > /dev/null
	README=README.md sh tools/dropin-check.sh -r $(DROPIN_ROOT) -c $(CLI) \
	    -n $(DROPIN_RUNS) \
	    $(DROPIN_EXAMPLES)

# The bench's drop-in target (make bench): seed 000's fixed loop, its
# test body and DFZ_DROPIN_MAIN, against the instrumented library of each
# flavour, as a user would build it: AFL++ persistent mode under
# afl-clang-fast, libFuzzer's main with -fsanitize=fuzzer.
DROPIN_BENCH_SRC := examples/seed000/loop_fixed.c examples/seed000/test_loop.c
DROPIN_CFLAGS    := -std=c11 -Iinclude -Iinclude/dmafuzz/dropin \
                    -Wno-pointer-to-int-cast -Wno-int-to-pointer-cast
$(FZ)/afl/dropin: $(DROPIN_BENCH_SRC) $(FZ)/afl/libfuzz.a
	$(FZ_CC_afl) $(FZ_CFLAGS_afl) $(DROPIN_CFLAGS) -o $@ $(DROPIN_BENCH_SRC) \
	    $(FZ)/afl/libfuzz.a $(DFZ_LDLIBS)
$(FZ)/libfuzzer/dropin: $(DROPIN_BENCH_SRC) $(FZ)/libfuzzer/libfuzz.a
	$(FZ_CC_libfuzzer) $(FZ_CFLAGS_libfuzzer) $(DROPIN_CFLAGS) $(FZ_LINK_libfuzzer) \
	    -o $@ $(DROPIN_BENCH_SRC) $(FZ)/libfuzzer/libfuzz.a $(DFZ_LDLIBS)
# Its seeds: the empty schedule and one of every byte value 0x80.
$(FZ)/seeds/dropin/.stamp:
	@mkdir -p $(dir $@)
	printf '\000\000\000\000\000\000\000\000' > $(dir $@)zero
	printf '\200\200\200\200\200\200\200\200' > $(dir $@)half
	@touch $@
bench-build: $(FZ)/afl/dropin $(FZ)/libfuzzer/dropin $(FZ)/seeds/dropin/.stamp

# The fuzz smoke of the examples (part of make fuzz-smoke, in CI): each
# example as a libFuzzer target (against libdmafuzz-fuzz.a when installed)
# for DROPIN_FUZZ_RUNS executions: the fixed variants clean, the flagged
# ones caught.
DROPIN_FUZZ_RUNS ?= 20000
.PHONY: dropin-fuzz-smoke
fuzz-smoke: dropin-fuzz-smoke
dropin-fuzz-smoke: $(LIB) $(CLI) | deps-libfuzzer
	$(MAKE) --no-print-directory $(FZ)/cov/libfuzz.a
	rm -rf $(DROPIN_ROOT)-fuzz
	$(MAKE) --no-print-directory install PREFIX=/usr/local \
	    DESTDIR=$(abspath $(DROPIN_ROOT)-fuzz) > /dev/null
	sh tools/dropin-check.sh -r $(DROPIN_ROOT)-fuzz -m fuzz \
	    -f $(DROPIN_FUZZ_RUNS) $(DROPIN_EXAMPLES)
