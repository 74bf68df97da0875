# SPDX-License-Identifier: MIT
# make bench: measured ratios, never timed tests (tools/bench.sh,
# docs/bench.md). Every fuzz target under AFL++ and libFuzzer beside the
# empty target (fuzz/empty.c: the same drivers, no work), the time to
# exposure of each bug switch under AFL++, and `dmafuzz bench`.
#   BENCH_SECS  seconds per execs/s run (default 15)
#   BENCH_PAIRS AFL++ pairs per target, pinned and pooled (4)
#   TTE=0       skip the time-to-exposure runs
#   TTE_CAP     seconds per run before it counts as "> cap" (default 60)
#   TTE_RUNS    runs per switch and start, the median is reported (3)
#   SWITCHES    a comma list of bug switches (default: every one)
#   JOBS        afl-fuzz runs at a time (default: nproc)
#   BENCH_MEMCHECK=1  also the wall time of `make memcheck`
BENCH_OUT := out/bench

# The empty target: only the driver of each flavour (fuzz/afl_main.c for
# AFL++, libFuzzer's own main), no library.
define BENCH_EMPTY
$(FZ)/$(1)/empty: $(FZ)/$(1)/obj/fuzz/empty.o $(FZ_MAIN_$(1):%.c=$(FZ)/$(1)/obj/%.o)
	$$(FZ_CC_$(1)) $$(FZ_LINK_$(1)) -o $$@ $$^

-include $(FZ)/$(1)/obj/fuzz/empty.d
endef
$(foreach f,afl libfuzzer,$(eval $(call BENCH_EMPTY,$(f))))

bench-build: $(CLI) $(FZ_SEEDS) \
    $(foreach f,afl libfuzzer,$(FUZZ_TARGETS:%=$(FZ)/$(f)/%) $(FZ)/$(f)/empty) \
    $(filter-out $(FZ)/cmplog/parse,$(FUZZ_TARGETS:%=$(FZ)/cmplog/%))
.PHONY: bench-build

bench: bench-build $(if $(filter 1,$(BENCH_MEMCHECK)),deps-memcheck $(TEST_BIN))
	BENCH_SECS="$(BENCH_SECS)" BENCH_PAIRS="$(BENCH_PAIRS)" \
	TTE="$(TTE)" TTE_CAP="$(TTE_CAP)" \
	TTE_RUNS="$(TTE_RUNS)" SWITCHES="$(SWITCHES)" JOBS="$(JOBS)" \
	BENCH_MEMCHECK="$(BENCH_MEMCHECK)" \
	    sh tools/bench.sh -b $(FZ) -c $(CLI) -u $(TEST_BIN) -o $(BENCH_OUT)
