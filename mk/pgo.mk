# SPDX-License-Identifier: MIT
# Profile-guided optimization of the AFL++ flavours' model (run.o and
# dropin.o of the Makefile's fuzzing section). The library builds a
# fourth way, under $(FZ)/pgo/, with clang's profile counters and without
# coverage; each fuzz target linked against it (a plan target with the
# replay driver, a drop-in target with tools/bench-inproc.c) runs on
# fixed inputs (tools/pgo-train.sh), and llvm-profdata merges the counts
# into PGO_PROF. The model's sources compile for the afl flavour (and so
# for cmplog, which links its run.o) with it: branch weights, hot and
# cold code apart, inlining where the runs go. The user's code never
# does: an example in a drop-in target builds as a user's would. Same
# sources, same inputs: the same profile, but for counts that follow
# addresses (tools/pgo-train.sh).
PGO_PROF      := $(FZ)/pgo/model.profdata
FZ_CC_pgo     := clang
FZ_CFLAGS_pgo := -O2 -g -fprofile-instr-generate
FZ_LINK_pgo   := -fprofile-instr-generate
FZ_HOTOBJ_pgo := pgo
FZ_MAIN_pgo   := fuzz/replay_main.c
FZ_DEPS_pgo   := deps-pgo
# A function the runs never reached has no counts: not a warning.
FZ_PGO_USE    := -fprofile-instr-use=$(PGO_PROF) -Wno-profile-instr-unprofiled \
                 -Wno-profile-instr-out-of-date -Wno-profile-instr-missing

$(eval $(call FUZZ_FLAVOUR,pgo))

define PGO_DROPIN_RULES
$(FZ)/pgo/$(1): $$(DROPIN_SRC_$(1)) tools/bench-inproc.c $(FZ)/pgo/libfuzz.a $$(SDK_LIB)
	clang -O2 -g $$(DROPIN_CFLAGS) -o $$@ $$(DROPIN_SRC_$(1)) tools/bench-inproc.c \
	    $$(SDK_LIB) $(FZ)/pgo/libfuzz.a $(FZ_LINK_pgo) $$(DFZ_LDLIBS) $$(DROPIN_LDFLAGS)
endef
$(foreach t,$(DROPIN_BENCH),$(eval $(call PGO_DROPIN_RULES,$(t))))

$(PGO_PROF): $(FUZZ_TARGETS:%=$(FZ)/pgo/%) $(DROPIN_BENCH:%=$(FZ)/pgo/%) \
    $(FZ_SEEDS) tools/pgo-train.sh | deps-pgo
	sh tools/pgo-train.sh $(FZ)/pgo $(FZ)/seeds $@ $(FUZZ_TARGETS) $(DROPIN_BENCH)

# The afl flavour's model objects (FZ_LTO) wait for it.
$(FZ_RUN_BC) $(FZ_DROPIN_BC): $(PGO_PROF)

.PHONY: deps-pgo
deps-pgo:
	@sh tools/deps.sh pgo
