# SPDX-License-Identifier: MIT
# The library built for coverage-guided fuzzing of user code: a user's
# libFuzzer target (a drop-in test built with -fsanitize=fuzzer) linked
# against the plain library sees only its own edges, none of the engines'
# and the drop-in's. `make install` also installs libdmafuzz-fuzz.a,
# compiled with clang -fsanitize=fuzzer-no-link (coverage only, so it
# links with or without the user's ASan), and the pkg-config module
# dmafuzz-dropin-fuzz that selects it. The split of the fuzz targets'
# build holds here too: the runtime without compare tracing, the oracles
# without coverage (they judge a run; they are not what is explored).
# Without clang the install says so and leaves the variant out; FUZZLIB=0
# leaves it out on purpose (the test installs of emit-check and
# dropin-check, which do not fuzz).
FZ_CC_cov        := clang
FZ_CFLAGS_cov    := -O2 -g -fsanitize=fuzzer-no-link
FZ_HOTOBJ_cov    := cov
FZ_DEPS_cov      :=
$(FZ)/cov/obj/runtime/%.o: FZ_HOT := -fno-sanitize-coverage=trace-cmp
$(FZ_PLUMB_RUNTIME:%=$(FZ)/cov/obj/runtime/%.o): \
    FZ_HOT := -fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table
$(FZ)/cov/obj/oracles/%.o: \
    FZ_HOT := -fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table
$(FZ_JUDGE_DROPIN:%=$(FZ)/cov/obj/dropin/%.o): \
    FZ_HOT := -fno-sanitize-coverage=inline-8bit-counters,indirect-calls,trace-cmp,pc-table
$(eval $(call FUZZ_FLAVOUR,cov))

HAVE_CLANG := $(shell command -v clang 2>/dev/null)

# The checks that install into a test root (campaign-check, cfl-user-check,
# dropin-fuzz-smoke; the others install with FUZZLIB=0) copy libfuzz.a,
# and every one of them copies `all`: both are built here, once, before any
# nested `make install` starts, so under -j no two nested makes build (rm -f,
# ar) the same library at once and none copies one half written.
.PHONY: fuzzlib-ready
fuzzlib-ready: all | deps-libfuzzer
	$(MAKE) --no-print-directory $(FZ)/cov/libfuzz.a
FUZZLIB    ?= 1

.PHONY: install-fuzzlib
install: install-fuzzlib
ifeq ($(FUZZLIB),0)
install-fuzzlib:
else ifneq ($(HAVE_CLANG),)
install-fuzzlib: $(FZ)/cov/libfuzz.a | all
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(FZ)/cov/libfuzz.a $(DESTDIR)$(PREFIX)/lib/libdmafuzz-fuzz.a
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
	    dmafuzz-dropin-fuzz.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/dmafuzz-dropin-fuzz.pc
else
install-fuzzlib:
	@echo "install: no clang: libdmafuzz-fuzz.a (coverage for user fuzz targets) left out"
endif
