# SPDX-License-Identifier: MIT
# make memcheck: valgrind memcheck as a second, independent oracle
# (tools/memcheck.sh). Its binaries link the runtime compiled again under
# $(BUILD)/vg/ with DFZ_VALGRIND=1, which makes <valgrind/memcheck.h>
# required: they carry the client requests (runtime/vg.h) or the build
# fails, even when the normal build ran before valgrind was installed (its
# objects then have no requests and nothing would rebuild them). Only
# runtime/ holds requests: the other objects are the normal build's.
VG_BUILD  := $(BUILD)/vg
VG_RT_SRC := $(filter runtime/%,$(LIB_SRC))
VG_RT_OBJ := $(VG_RT_SRC:%.c=$(VG_BUILD)/%.o)
VG_LIB    := $(VG_BUILD)/libdmafuzz.a

$(VG_BUILD)/runtime/%.o: runtime/%.c $(HEADERS) | deps deps-memcheck
	@mkdir -p $(dir $@)
	$(CC) $(DFZ_CFLAGS) -DDFZ_VALGRIND=1 $(CFLAGS) -Iruntime/ -MMD -c $< -o $@

-include $(VG_RT_OBJ:.o=.d)

$(VG_LIB): $(VG_RT_OBJ) $(filter-out $(BUILD)/runtime/%,$(LIB_OBJ))
	rm -f $@
	ar rcs $@ $^

$(VG_BUILD)/dmafuzz: $(CLI_OBJ) $(VG_LIB)
	$(CC) $(DFZ_LDFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(VG_LIB) $(DFZ_LDLIBS) \
	    $(CAPSTONE_LIBS) $(JANSSON_LIBS)

# The tests call Deeploy's memory helpers (libdmafuzz-sdk.a, mk/dropin-main.mk),
# which call into the library again.
$(VG_BUILD)/check_dmafuzz: $(TEST_OBJ) $(VG_LIB) $(SDK_LIB)
	$(CC) $(DFZ_LDFLAGS) $(ALLOC_FAIL_WRAP) $(LDFLAGS) -o $@ $(TEST_OBJ) $(VG_LIB) \
	    $(SDK_LIB) $(VG_LIB) $(CHECK_LIBS) $(DFZ_LDLIBS) $(CAPSTONE_LIBS) $(JANSSON_LIBS)

# The triage tests run the broken test program of the normal build.
memcheck: deps-memcheck $(VG_BUILD)/check_dmafuzz $(VG_BUILD)/dmafuzz $(BROKEN)
	DFZ_BROKEN=$(abspath $(BROKEN)) DFZ_NEWTEST_ROOT=$(abspath $(NEWTEST_ROOT)) \
	    sh tools/memcheck.sh $(VG_BUILD)/check_dmafuzz $(VG_BUILD)/dmafuzz \
	    $(SUITES_H)
