# SPDX-License-Identifier: MIT
# dmafuzz: one GNU Makefile. Project flags stay apart from the user's CFLAGS.
#   make            library + CLI          make check     unit tests + corpus
#   make memcheck   valgrind               make SAN=asan check
#   make fuzz       short AFL++ campaign   make bench     measured ratios
#   make fuzz-smoke libFuzzer smoke run    make fuzz-build  fuzz targets only
#   make install / uninstall (PREFIX, DESTDIR)   make clean

PREFIX    ?= /usr/local
DESTDIR   ?=
CC        ?= cc
CFLAGS    ?= -O2 -g
LDFLAGS   ?=
SAN       ?=
DURATION  ?= 30
SEED      ?= 1

DFZ_BASE_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
               -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Iinclude
DFZ_CFLAGS  := $(DFZ_BASE_CFLAGS)
DFZ_LDLIBS  := -lm

ifeq ($(SAN),asan)
  BUILD      := build/asan
  DFZ_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
                -fno-sanitize-recover=undefined
  DFZ_LDFLAGS := -fsanitize=address,undefined
else ifeq ($(SAN),)
  BUILD      := build
else
  $(error SAN must be empty or asan)
endif

LIB_SRC   := $(wildcard runtime/*.c oracles/*.c harness/*.c reports/*.c reports/*/*.c \
               dropin/*.c)
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB       := $(BUILD)/libdmafuzz.a
CLI_SRC   := $(wildcard cli/*.c)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
CLI       := $(BUILD)/dmafuzz
TEST_SRC  := $(wildcard tests/check_*.c)
# The allocation countdown (tests/alloc_fail.h) takes the place of the C
# library's allocators in the test binary only: the library is unchanged.
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/alloc_fail.o
ALLOC_FAIL_WRAP := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup \
             -Wl,--wrap=free,--wrap=asprintf,--wrap=realpath \
             -Wl,--wrap=open_memstream,--wrap=fclose
TEST_BIN  := $(BUILD)/check_dmafuzz
SUITES_H  := $(BUILD)/tests/suites.h
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lpthread -lm)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)

VERSION   := 0.1.0
# Every pkg-config module but the fuzz library's (mk/fuzzlib.mk installs
# that one with its archive).
PC_FILES  := $(filter-out dmafuzz-dropin-fuzz,$(patsubst %.pc.in,%,$(wildcard *.pc.in)))
# Every public header: one per layer, and one per reports/ folder
# (shrink.h, emit.h, triage.h, report.h); `make install` installs them all.
HEADERS   := $(wildcard include/dmafuzz/*.h)
DROPIN_HEADERS := $(shell find include/dmafuzz/dropin -name '*.h')

.PHONY: all check unit regress readme-check crash-check exports memcheck fuzz bench install uninstall \
        clean deps deps-memcheck fuzz-build fuzz-libfuzzer fuzz-seeds \
        fuzz-smoke deps-afl deps-libfuzzer deps-python deps-check fuzz-env
all: $(LIB) $(CLI)

# Each object sees its own folder's private header; the folders of the
# reports layer and the CLI also see reports/common/ (the helpers written
# once for them), nothing else below their own.
dfz_priv = -I$(dir $(1)) $(if $(filter reports/% cli/%,$(1)),-Ireports/common)

# Every object waits for one deps step (DEPS_BUILD): the packages whose
# headers any source of the library, the CLI or the tests includes, or
# looks for with __has_include (valgrind's client requests change what
# the library does under valgrind). A package installed after the first
# objects would leave them built without it, and nothing rebuilds them.
# `make deps-check` (part of check) fails when a source includes a header
# of a package outside this list and the toolchain.
DEPS_BUILD := cc check capstone jansson valgrind

$(BUILD)/%.o: %.c $(HEADERS) $(DROPIN_HEADERS) $(wildcard $(dir $<)*_int.h) | deps
	@mkdir -p $(dir $@)
	$(CC) $(DFZ_CFLAGS) $(CFLAGS) $(call dfz_priv,$<) -MMD -c $< -o $@

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

# `dmafuzz --version` prints the version the pkg-config files carry.
$(BUILD)/cli/main.o: DFZ_CFLAGS += -DDFZ_VERSION='"$(VERSION)"'

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(CLI): $(CLI_OBJ) $(LIB)
	$(CC) $(DFZ_LDFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(DFZ_LDLIBS) $(CAPSTONE_LIBS) \
	    $(JANSSON_LIBS)

# Capstone disassembles crash sites for triage (reports/triage/disasm*.c, in the
# library): its header is installed by the deps step, and whatever links
# the library's triage (the CLI, the tests) links it.
CAPSTONE_CFLAGS = $(shell pkg-config --cflags capstone 2>/dev/null)
CAPSTONE_LIBS = $(shell pkg-config --libs capstone 2>/dev/null || echo -lcapstone)
$(patsubst %.c,$(BUILD)/%.o,$(wildcard reports/triage/disasm*.c)): \
    DFZ_CFLAGS += $(CAPSTONE_CFLAGS)

# jansson parses the JSON the reports read back (reports/render/json_read.c, in
# the library, and the tests): installed by the deps step (the fuzz
# flavours' archives carry it unlinked: no fuzz target reads JSON), linked
# by what links the reports (the CLI, the tests).
JANSSON_CFLAGS = $(shell pkg-config --cflags jansson 2>/dev/null)
JANSSON_LIBS = $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson)
$(BUILD)/reports/render/json_read.o: DFZ_CFLAGS += $(JANSSON_CFLAGS)

# One suite per tests/check_<module>.c, found by its `Suite *suite_<name>(void)`.
$(SUITES_H): $(TEST_SRC)
	@mkdir -p $(dir $@)
	sed -n 's/^Suite \*\(suite_[a-z0-9_]*\)(void)$$/X(\1)/p' $(TEST_SRC) > $@.tmp
	mv $@.tmp $@

$(BUILD)/tests/%.o: tests/%.c $(HEADERS) $(SUITES_H) | deps
	@mkdir -p $(dir $@)
	$(CC) $(DFZ_CFLAGS) -Wno-missing-prototypes $(CFLAGS) $(CHECK_CFLAGS) -I$(BUILD)/tests \
	    -Iruntime -Ioracles -Iharness -Idropin -Ireports/common -Ireports/render \
	    -MMD -c $< -o $@

$(TEST_BIN): $(TEST_OBJ) $(LIB)
	$(CC) $(DFZ_LDFLAGS) $(ALLOC_FAIL_WRAP) $(LDFLAGS) -o $@ $(TEST_OBJ) $(LIB) $(CHECK_LIBS) $(DFZ_LDLIBS) \
	    $(CAPSTONE_LIBS) $(JANSSON_LIBS)

# A deliberately broken target (a write and a read through a bad pointer)
# with the replay driver and its crash reporter, for the triage tests.
BROKEN    := $(BUILD)/tests/broken_target
$(BROKEN): $(BUILD)/tests/broken_target.o $(BUILD)/fuzz/replay_main.o \
    $(BUILD)/fuzz/crash_report.o $(LIB)
	$(CC) $(DFZ_LDFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(LIB) $(DFZ_LDLIBS)

deps:
	@sh tools/deps.sh $(DEPS_BUILD)

# The fresh-machine check: every header a source includes comes from the
# toolchain or a package of DEPS_BUILD, and every kind of object waits for
# the deps step (tools/deps-check.sh).
deps-check: | deps
	BUILD=$(BUILD) SAN=$(SAN) sh tools/deps-check.sh $(DEPS_BUILD)

deps-memcheck:
	@sh tools/deps.sh check valgrind

check: deps-check unit regress exports emit-check fuzz-env dropin-check readme-check \
       crash-check

unit: $(TEST_BIN) $(CLI) $(BROKEN)
	DFZ_CLI=$(CLI) DFZ_BROKEN=$(BROKEN) $(TEST_BIN)

regress: $(CLI)
	sh tools/regress.sh $(CLI)

# A fault in the runtime during an xfer plan: a crash verdict, and the
# directory run goes on (a memcpy that faults, preloaded into the CLI).
$(BUILD)/tests/memcpy_fault.so: tests/memcpy_fault.c
	@mkdir -p $(@D)
	$(CC) -O1 -shared -fPIC -fno-builtin -o $@ $<

ifeq ($(SAN),asan)
# ASan's runtime must come first among the libraries: a preloaded fault
# cannot go in front of it.
crash-check:
	@echo "crash-check: not under SAN=asan (the plain build runs it)"
else
crash-check: $(CLI) $(BUILD)/tests/memcpy_fault.so
	sh tools/crash-check.sh $(CLI) $(BUILD)/tests/memcpy_fault.so
endif

# The README's worked example, run and compared; its quoted frames checked.
readme-check: $(CLI)
	sh tools/readme-check.sh $(CLI)

# The fuzz targets' environment (DMAFUZZ_BUGS, _ORACLES, _ONLY), through
# the replay driver: the normal build, no fuzzer needed.
fuzz-env: $(CLI) $(BUILD)/fuzz/replay/xfer
	sh tools/fuzz-env-check.sh $(CLI) $(BUILD)/fuzz/replay/xfer

# GCC's ASan adds an ODR indicator (__odr_asan.<name>) per global variable
# with external linkage, with no switch to drop it; so the library exports
# no variables (every table is file-static, reached through a function) and
# the check holds for SAN=asan builds too.
exports: $(LIB)
	@bad=$$(nm -g --defined-only $(LIB) | awk 'NF==3 {print $$3}' | \
	    grep -v -E '^(dfz_|DFZ_|dfz__)' || true); \
	if [ -n "$$bad" ]; then echo "exports without the dfz_ prefix: $$bad"; exit 1; fi; \
	echo "exports: every symbol of $(LIB) has the dfz_ prefix"

# memcheck: mk/memcheck.mk

# ------------------------------------------------------------- fuzzing
# Each fuzz/<target>.c builds four ways, under build/fuzz/<flavour>/<target>:
#   afl        afl-clang-fast, persistent mode (fuzz/afl_main.c)   make fuzz
#   cmplog     the same with AFL_LLVM_CMPLOG=1 (afl-fuzz -c)        make fuzz
#   libfuzzer  clang -fsanitize=fuzzer,address,undefined            make fuzz-smoke
#   replay     the normal build: each file argument once (fuzz/replay_main.c),
#              for valgrind and gdb
# The instrumented flavours compile the library again in their own object
# dir; replay links the normal one. Seeds are encoded from the text corpus
# into build/fuzz/seeds/<target>/ (text stays the source of truth).
FZ           := build/fuzz
FUZZ_TARGETS := xfer host api parse
FUZZ_DRIVERS := fuzz/family.c fuzz/afl_main.c fuzz/replay_main.c
FZ_AFL_ENV   := AFL_QUIET=1
FZ_CC_afl           := $(FZ_AFL_ENV) afl-clang-fast
FZ_CFLAGS_afl       := -O2 -g
FZ_CC_cmplog        := $(FZ_AFL_ENV) AFL_LLVM_CMPLOG=1 afl-clang-fast
FZ_CFLAGS_cmplog    := -O2 -g
FZ_CC_libfuzzer     := clang
FZ_CFLAGS_libfuzzer := -O2 -g -fno-omit-frame-pointer \
                       -fsanitize=address,undefined -fno-sanitize-recover=undefined \
                       -fsanitize=fuzzer-no-link
FZ_LINK_libfuzzer   := -fsanitize=fuzzer,address,undefined
# The model's hot loops (runtime/, oracles/) compare in every step, on
# values the bytes only reach through the decoder: tracing those compares
# costs two thirds of the run time and guides nothing. Only the decoder
# and the parser (harness/) and the targets get compare tracing: libFuzzer
# builds the hot sources without it, the cmplog build links the plain AFL++
# objects of the hot sources (run.o, below).
FZ_HOT_SRC   := $(filter runtime/% oracles/%,$(LIB_SRC))
FZ_COLD_SRC  := $(filter-out $(FZ_HOT_SRC) reports/triage/%,$(LIB_SRC))
FZ_HOTOBJ_libfuzzer := libfuzzer
$(FZ)/libfuzzer/obj/runtime/%.o: FZ_HOT := -fno-sanitize-coverage=trace-cmp
# The oracles judge a run; they are not what the fuzzer explores. Their
# per-byte walks (shadow marks, the reference check) would turn every size
# into new coverage and, instrumented, cost a third of the run: they build
# without coverage (plain clang for AFL++, no coverage flags for
# libFuzzer), and keep ASan and UBSan in the libFuzzer build.
$(FZ)/afl/obj/oracles/%.o: FZ_CC_afl := clang
$(FZ)/libfuzzer/obj/oracles/%.o: \
    FZ_HOT := -fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table
# Likewise the arenas' pages (runtime/mem_arena.c): whether a run meets a
# page not yet materialized depends on the runs the persistent process
# made before, so its edges would make coverage unstable. And the model's
# plumbing, run at every event: its delivery and step loop (rt.c), the
# lookups of memory (mem.c, mem_regions.c) and the sanitizers' views of
# it (poison.c, vg.c). Their edges say nothing of where a schedule took
# the engines, whose own files keep theirs; instrumented, they cost about
# a sixth of a drop-in run.
FZ_PLUMB_RUNTIME := mem_arena rt mem mem_regions poison vg
$(FZ_PLUMB_RUNTIME:%=$(FZ)/afl/obj/runtime/%.o): FZ_CC_afl := clang
$(FZ_PLUMB_RUNTIME:%=$(FZ)/libfuzzer/obj/runtime/%.o): \
    FZ_HOT := -fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table
# And the drop-in's own judging added with the memory sanitizer: its
# block records (dropin/blocks.c), request lifetimes (dropin/reqlife.c),
# the static-object reader (dropin/statics.c) and the golden check
# (dropin/golden.c) judge the user's code; its plumbing, as the model's:
# the core switch (ctx.c), the crash guard (crash.c, guard.c), the call
# sites and stacks a finding names (sites.c, stack.c, symbolize.c,
# x86_decode.c, print.c), the statics' restore (memmap.c) and the run's
# state, its event delivery and entry points (state.c, at every event
# and SDK call). They are not what the fuzzer explores: built as the
# oracles are. The SDK's calls (mchan_v7.c, cl_dma.c, snrt.c, pmsis_*.c,
# ...), the cores' scheduling (cores.c) and the schedule's decoder
# (sched.c) keep their coverage.
FZ_JUDGE_DROPIN := blocks reqlife statics golden ctx crash guard sites stack \
                   symbolize x86_decode print memmap state
$(FZ_JUDGE_DROPIN:%=$(FZ)/afl/obj/dropin/%.o): FZ_CC_afl := clang
$(FZ_JUDGE_DROPIN:%=$(FZ)/libfuzzer/obj/dropin/%.o): \
    FZ_HOT := -fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table
# A few functions of the instrumented sources go without coverage
# (mk/nocov.list says which and why): the library's objects only.
FZ_NOCOV     := mk/nocov.list
FZ_NOCOV_ENV := AFL_LLVM_DENYLIST=$(CURDIR)/$(FZ_NOCOV)
FZ_NOCOV_libfuzzer := -fsanitize-coverage-ignorelist=$(FZ_NOCOV)
# The AFL++ flavours link the model as one object: the sources of
# runtime/, oracles/ and dropin/ compile to LLVM bitcode for the afl
# flavour (instrumented as before, and with mk/pgo.mk's profile), and
# `clang -flto -r` makes them one native object, so that the calls from
# file to file at every event and SDK call (the delivery to the oracles,
# the memory lookups, the poison marks, the SDK entries) inline as calls
# within a file do: run.o (runtime/ and oracles/), the model part of
# libfuzz.a for the plan targets, and dropin.o (all three), which the
# drop-in targets link ahead of it (mk/dropin.mk), in an archive whose
# name keeps its statics out of L2 (dmafuzz-dropin.ld). The cmplog flavour
# links the afl flavour's run.o. gold links them (ld.lld 14 crashes on
# -r with this bitcode); both come with clang.
# Every instrumented object has the coverage constructor in one COMDAT
# group of one name, which the final link keeps from its first object
# only: a merged object holds all of its sources' constructors in that
# group, whose .init_array entries would then point into a dropped group.
# objcopy takes that group away: every constructor stays, and each
# registers the same guard section (AFL++'s registration returns at once
# after the first).
FZ_DROPIN_SRC  := $(filter dropin/%,$(LIB_SRC))
FZ_RUN_BC      := $(FZ_HOT_SRC:%.c=$(FZ)/afl/obj/%.o)
FZ_DROPIN_BC   := $(FZ_DROPIN_SRC:%.c=$(FZ)/afl/obj/%.o)
$(FZ_RUN_BC) $(FZ_DROPIN_BC): private FZ_LTO = -flto=full $(FZ_PGO_USE)
FZ_MERGE = clang -O2 -flto=full -fuse-ld=gold -nostdlib -r -o $@ $^ && \
    objcopy -R sancov.module_ctor_trace_pc_guard $@
$(FZ)/afl/run.o: $(FZ_RUN_BC)
	$(FZ_MERGE)
$(FZ)/afl/dropin.o: $(FZ_RUN_BC) $(FZ_DROPIN_BC)
	$(FZ_MERGE)
$(FZ)/afl/libdmafuzz-dropin.a: $(FZ)/afl/dropin.o
	rm -f $@
	ar rcs $@ $^
# Their archives (FUZZ_FLAVOUR's default: the flavour's own objects and
# the hot ones of FZ_HOTOBJ): run.o in place of the model's objects, and
# no drop-in in afl's, which dropin.o has.
FZ_ARCHIVE_afl    := $(filter-out $(FZ_DROPIN_BC), \
    $(FZ_COLD_SRC:%.c=$(FZ)/afl/obj/%.o)) $(FZ)/afl/run.o
FZ_ARCHIVE_cmplog := $(FZ_COLD_SRC:%.c=$(FZ)/cmplog/obj/%.o) $(FZ)/afl/run.o
FZ_MAIN_afl         := fuzz/afl_main.c
FZ_MAIN_cmplog      := fuzz/afl_main.c
FZ_DEPS_afl         := deps-afl
FZ_DEPS_cmplog      := deps-afl
FZ_DEPS_libfuzzer   := deps-libfuzzer
FZ_SEEDS     := $(FZ)/seeds/.stamp

# $(1): an instrumented flavour. Its objects, its archive (the library
# and fuzz/family.c, which only the plan-family targets pull in), and one
# binary per target.
define FUZZ_FLAVOUR
$(FZ)/$(1)/obj/%.o: %.c $(HEADERS) $(FZ_NOCOV) | deps $(FZ_DEPS_$(1))
	@mkdir -p $$(dir $$@)
	$$(FZ_NOCOV_ENV) $$(FZ_CC_$(1)) $$(DFZ_BASE_CFLAGS) $$(FZ_CFLAGS_$(1)) $$(FZ_LTO) $$(FZ_HOT) $$(FZ_NOCOV_$(1)) $$(call dfz_priv,$$<) -MMD -c $$< -o $$@

$(FZ)/$(1)/libfuzz.a: $(or $(FZ_ARCHIVE_$(1)),$(FZ_COLD_SRC:%.c=$(FZ)/$(1)/obj/%.o) \
    $(FZ_HOT_SRC:%.c=$(FZ)/$(FZ_HOTOBJ_$(1))/obj/%.o)) $(FZ)/$(1)/obj/fuzz/family.o
	rm -f $$@
	ar rcs $$@ $$^

$(FUZZ_TARGETS:%=$(FZ)/$(1)/%): $(FZ)/$(1)/%: $(FZ)/$(1)/obj/fuzz/%.o \
    $(FZ_MAIN_$(1):%.c=$(FZ)/$(1)/obj/%.o) $(FZ)/$(1)/libfuzz.a
	$$(FZ_CC_$(1)) $$(FZ_LINK_$(1)) -o $$@ $$(filter %.o,$$^) $(FZ)/$(1)/libfuzz.a $$(DFZ_LDLIBS)

-include $(patsubst %.c,$(FZ)/$(1)/obj/%.d,$(LIB_SRC) $(FUZZ_TARGETS:%=fuzz/%.c) $(FUZZ_DRIVERS))
endef
$(foreach f,afl cmplog libfuzzer,$(eval $(call FUZZ_FLAVOUR,$(f))))

# The replay driver: the normal objects ($(BUILD)/fuzz/*.o) and library.
$(BUILD)/fuzz/libfamily.a: $(BUILD)/fuzz/family.o
	rm -f $@
	ar rcs $@ $^

$(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay/%): $(BUILD)/fuzz/replay/%: \
    $(BUILD)/fuzz/%.o $(BUILD)/fuzz/replay_main.o $(BUILD)/fuzz/crash_report.o \
    $(BUILD)/fuzz/libfamily.a $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(DFZ_LDFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) \
	    $(BUILD)/fuzz/libfamily.a $(LIB) $(DFZ_LDLIBS)

-include $(patsubst %.c,$(BUILD)/%.d,$(FUZZ_TARGETS:%=fuzz/%.c) $(FUZZ_DRIVERS) \
    fuzz/crash_report.c tests/broken_target.c)

$(FZ_SEEDS): $(CLI) tools/fuzz-seeds.sh $(wildcard corpus/*/ corpus/*/*.plan)
	sh tools/fuzz-seeds.sh $(CLI) $(FZ)/seeds
	@touch $@

deps-afl:
	@sh tools/deps.sh afl

deps-libfuzzer:
	@sh tools/deps.sh libfuzzer

deps-python:
	@sh tools/deps.sh python

fuzz-seeds: $(FZ_SEEDS)

fuzz-build: $(foreach f,afl cmplog,$(FUZZ_TARGETS:%=$(FZ)/$(f)/%)) \
    $(FUZZ_TARGETS:%=$(BUILD)/fuzz/replay/%) $(CLI) $(FZ_SEEDS)

fuzz-libfuzzer: $(FUZZ_TARGETS:%=$(FZ)/libfuzzer/%) $(FZ_SEEDS)

# DURATION: seconds per target; SEED: afl-fuzz's random seed.
fuzz: fuzz-build
	DMAFUZZ_BUGS="$(DMAFUZZ_BUGS)" sh tools/fuzz.sh -d $(DURATION) -s $(SEED) \
	    -b $(FZ) -r $(BUILD)/fuzz/replay -c $(CLI) -o out/fuzz $(FUZZ_TARGETS)

fuzz-smoke: fuzz-libfuzzer
	sh tools/fuzz-smoke.sh $(FZ) $(FUZZ_TARGETS)

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PREFIX)/include/dmafuzz $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(HEADERS) $(DESTDIR)$(PREFIX)/include/dmafuzz/
	for h in $(DROPIN_HEADERS:include/%=%); do \
	    install -D -m 644 include/$$h $(DESTDIR)$(PREFIX)/include/$$h || exit 1; done
	for pc in $(PC_FILES); do \
	    sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' $$pc.pc.in \
	        > $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$pc.pc; done

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libdmafuzz.a $(DESTDIR)$(PREFIX)/bin/dmafuzz \
	    $(PC_FILES:%=$(DESTDIR)$(PREFIX)/lib/pkgconfig/%.pc) \
	    $(DESTDIR)$(PREFIX)/lib/libdmafuzz-fuzz.a \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig/dmafuzz-dropin-fuzz.pc
	rm -rf $(DESTDIR)$(PREFIX)/include/dmafuzz

clean:
	rm -rf build

# Further targets, one file per job (nightly, bench, oss-fuzz, ...).
include $(wildcard mk/*.mk)
