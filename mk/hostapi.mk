# SPDX-License-Identifier: MIT
# The host-API adapter (include/dmafuzz/host_api_ops.hpp, docs/host-runtime.md):
#   make hostapi-check   (part of make check) the example in simpler's shape
#                        (examples/host-runtime/) built with g++ (and clang++
#                        when there) at -std=c++17 -Wall -Wextra -Werror, each
#                        bug switch flagged at its line, the fixed code clean,
#                        a short fuzz of it clean, the tables of
#                        tests/hostapi/tables.cpp filled by name
#   make hostapi-fuzz    the example under libFuzzer (clang++ -fsanitize=fuzzer),
#                        HOSTAPI_RUNS executions (default 10^6) of the fixed code
HOSTAPI_DIR  := examples/host-runtime
HOSTAPI_OUT  := $(BUILD)/hostapi
HOSTAPI_SRC  := $(HOSTAPI_DIR)/staging.cpp $(HOSTAPI_DIR)/kernel.cpp
HOSTAPI_DEPS := $(HOSTAPI_SRC) $(wildcard $(HOSTAPI_DIR)/*.h $(HOSTAPI_DIR)/common/*.h) \
                include/dmafuzz/host_api_ops.hpp include/dmafuzz/hostapi.h $(LIB)
HOSTAPI_CXXFLAGS := -std=c++17 -Wall -Wextra -Werror -g -O1 -Iinclude -I$(HOSTAPI_DIR)
HOSTAPI_CLANGXX := $(shell command -v clang++ 2>/dev/null)
HOSTAPI_RUNS ?= 1000000

.PHONY: hostapi-check hostapi-fuzz deps-cxx
check: hostapi-check

deps-cxx:
	@sh tools/deps.sh cxx

$(HOSTAPI_OUT)/g++/test_staging: $(HOSTAPI_DIR)/test_staging.cpp $(HOSTAPI_DEPS) | deps-cxx
	@mkdir -p $(@D)
	g++ $(HOSTAPI_CXXFLAGS) $(DFZ_LDFLAGS) -o $@ $(HOSTAPI_SRC) $< $(LIB) -lm

$(HOSTAPI_OUT)/g++/fuzz_staging: $(HOSTAPI_DIR)/fuzz_staging.cpp $(HOSTAPI_DEPS) | deps-cxx
	@mkdir -p $(@D)
	g++ $(HOSTAPI_CXXFLAGS) -O2 -DDFZ_STANDALONE $(DFZ_LDFLAGS) -o $@ $(HOSTAPI_SRC) $< $(LIB) -lm

$(HOSTAPI_OUT)/clang++/test_staging: $(HOSTAPI_DIR)/test_staging.cpp $(HOSTAPI_DEPS) | deps-cxx
	@mkdir -p $(@D)
	clang++ $(HOSTAPI_CXXFLAGS) $(DFZ_LDFLAGS) -o $@ $(HOSTAPI_SRC) $< $(LIB) -lm

HOSTAPI_BINS := $(HOSTAPI_OUT)/g++/test_staging $(HOSTAPI_OUT)/g++/fuzz_staging \
                $(if $(HOSTAPI_CLANGXX),$(HOSTAPI_OUT)/clang++/test_staging)

hostapi-check: $(HOSTAPI_BINS)
	sh tools/hostapi-check.sh -o $(HOSTAPI_OUT) -l $(LIB) -f "$(DFZ_LDFLAGS)"

$(HOSTAPI_OUT)/libfuzzer/fuzz_staging: $(HOSTAPI_DIR)/fuzz_staging.cpp $(HOSTAPI_DEPS)
	@sh tools/deps.sh libfuzzer
	@mkdir -p $(@D)
	clang++ $(HOSTAPI_CXXFLAGS) -O2 -fsanitize=fuzzer $(DFZ_LDFLAGS) -o $@ $(HOSTAPI_SRC) $< \
	    $(LIB) -lm

hostapi-fuzz: $(HOSTAPI_OUT)/libfuzzer/fuzz_staging
	$< -runs=$(HOSTAPI_RUNS) -seed=$(SEED) -max_len=64 -print_final_stats=1

# The adapter is header-only C++: installed beside the C headers.
.PHONY: install-hostapi
install: install-hostapi
install-hostapi: all
	install -d $(DESTDIR)$(PREFIX)/include/dmafuzz
	install -m 644 include/dmafuzz/host_api_ops.hpp $(DESTDIR)$(PREFIX)/include/dmafuzz/
