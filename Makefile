# SPDX-License-Identifier: MIT
# dmafuzz: one GNU Makefile. Project flags stay apart from the user's CFLAGS.
#   make            library + CLI          make check     unit tests + corpus
#   make memcheck   valgrind               make SAN=asan check
#   make fuzz       short campaign         make bench     measured ratios
#   make install / uninstall (PREFIX, DESTDIR)   make clean

PREFIX    ?= /usr/local
DESTDIR   ?=
CC        ?= cc
CFLAGS    ?= -O2 -g
LDFLAGS   ?=
SAN       ?=
DURATION  ?= 20
SEED      ?= 1

DFZ_CFLAGS  := -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
               -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Iinclude
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

LIB_SRC   := $(wildcard runtime/*.c oracles/*.c harness/*.c reports/*.c)
LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB       := $(BUILD)/libdmafuzz.a
CLI_SRC   := $(wildcard cli/*.c)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
CLI       := $(BUILD)/dmafuzz
TEST_SRC  := $(wildcard tests/check_*.c)
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/%.o)
TEST_BIN  := $(BUILD)/check_dmafuzz
SUITES_H  := $(BUILD)/tests/suites.h
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lrt -lpthread -lm)
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)

VERSION   := 0.1.0
HEADERS   := $(wildcard include/dmafuzz/*.h)

.PHONY: all check unit regress exports memcheck fuzz bench install uninstall \
        clean deps deps-memcheck
all: $(LIB) $(CLI)

$(BUILD)/%.o: %.c $(HEADERS) $(wildcard $(dir $<)*_int.h)
	@mkdir -p $(dir $@)
	$(CC) $(DFZ_CFLAGS) $(CFLAGS) -I$(dir $<) -MMD -c $< -o $@

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(CLI): $(CLI_OBJ) $(LIB)
	$(CC) $(DFZ_LDFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(LIB) $(DFZ_LDLIBS)

# One suite per tests/check_<module>.c, found by its `Suite *suite_<name>(void)`.
$(SUITES_H): $(TEST_SRC)
	@mkdir -p $(dir $@)
	sed -n 's/^Suite \*\(suite_[a-z0-9_]*\)(void)$$/X(\1)/p' $(TEST_SRC) > $@.tmp
	mv $@.tmp $@

$(BUILD)/tests/%.o: tests/%.c $(HEADERS) $(SUITES_H) | deps
	@mkdir -p $(dir $@)
	$(CC) $(DFZ_CFLAGS) -Wno-missing-prototypes $(CFLAGS) $(CHECK_CFLAGS) -I$(BUILD)/tests \
	    -Iruntime -Ioracles -Iharness -MMD -c $< -o $@

$(TEST_BIN): $(TEST_OBJ) $(LIB)
	$(CC) $(DFZ_LDFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJ) $(LIB) $(CHECK_LIBS) $(DFZ_LDLIBS)

deps:
	@sh tools/deps.sh check

deps-memcheck:
	@sh tools/deps.sh check valgrind

check: unit regress exports

unit: $(TEST_BIN) $(CLI)
	DFZ_CLI=$(CLI) $(TEST_BIN)

regress: $(CLI)
	sh tools/regress.sh $(CLI)

exports: $(LIB)
	@bad=$$(nm -g --defined-only $(LIB) | awk 'NF==3 {print $$3}' | \
	    grep -v -E '^(dfz_|DFZ_|dfz__|__odr_asan|__asan)' || true); \
	if [ -n "$$bad" ]; then echo "exports without the dfz_ prefix: $$bad"; exit 1; fi; \
	echo "exports: every symbol of $(LIB) has the dfz_ prefix"

memcheck: deps-memcheck $(TEST_BIN) $(CLI)
	sh tools/memcheck.sh $(TEST_BIN) $(CLI)

fuzz: $(CLI)
	$(CLI) fuzz --seconds $(DURATION) --seed $(SEED) --out out/fuzz \
	    $(if $(DMAFUZZ_BUGS),--bug $(DMAFUZZ_BUGS))

bench: $(CLI)
	$(CLI) bench corpus/xfer

install: all
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/bin \
	    $(DESTDIR)$(PREFIX)/include/dmafuzz $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(CLI) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(HEADERS) $(DESTDIR)$(PREFIX)/include/dmafuzz/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' dmafuzz.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/dmafuzz.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/lib/libdmafuzz.a $(DESTDIR)$(PREFIX)/bin/dmafuzz \
	    $(DESTDIR)$(PREFIX)/lib/pkgconfig/dmafuzz.pc
	rm -rf $(DESTDIR)$(PREFIX)/include/dmafuzz

clean:
	rm -rf build
