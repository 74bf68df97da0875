# SPDX-License-Identifier: MIT
# The drop-in's two small archives beside libdmafuzz.a, whose names are
# the user's, not the library's (libdmafuzz.a exports only dfz_ names):
#   libdmafuzz-sdk.a   Deeploy's memory helpers (ram_malloc, cl_ram_read,
#                      get_ram_ptr, ...), weak, for programs that call them
#                      without defining them; linked by dmafuzz-dropin's
#                      Libs after the user's objects.
#   libdmafuzz-main.a  the own-main runner: the real main of a program
#                      built with dmafuzz-dropin-main, whose Cflags rename
#                      the program's main (docs/porting/pmsis.md).
# `make install` installs both; the pkg-config modules come with every
# *.pc.in. The unit tests link the sdk archive (check_dropin calls
# Deeploy's helpers).
SDK_LIB  := $(BUILD)/libdmafuzz-sdk.a
MAIN_LIB := $(BUILD)/libdmafuzz-main.a
SDK_OBJ  := $(BUILD)/dropin/sdk/deeploy_mem.o
MAIN_OBJ := $(BUILD)/dropin/sdk/main.o

$(SDK_OBJ) $(MAIN_OBJ): DFZ_CFLAGS += -Idropin
-include $(SDK_OBJ:.o=.d) $(MAIN_OBJ:.o=.d)

$(SDK_LIB): $(SDK_OBJ)
	rm -f $@
	ar rcs $@ $^
$(MAIN_LIB): $(MAIN_OBJ)
	rm -f $@
	ar rcs $@ $^

all: $(SDK_LIB) $(MAIN_LIB)

$(TEST_BIN): $(SDK_LIB)
$(TEST_BIN): CHECK_LIBS += $(SDK_LIB) $(LIB)

.PHONY: install-dropin-libs
install: install-dropin-libs
install-dropin-libs: $(SDK_LIB) $(MAIN_LIB) | all
	install -d $(DESTDIR)$(PREFIX)/lib
	install -m 644 $(SDK_LIB) $(MAIN_LIB) $(DESTDIR)$(PREFIX)/lib/

uninstall: uninstall-dropin-libs
.PHONY: uninstall-dropin-libs
uninstall-dropin-libs:
	rm -f $(DESTDIR)$(PREFIX)/lib/libdmafuzz-sdk.a \
	    $(DESTDIR)$(PREFIX)/lib/libdmafuzz-main.a

# make dropin-forms (part of make check): the call forms real PMSIS, GAP
# and Deeploy code uses compile against the drop-in's headers with gcc and
# clang at -std=c11 -Wall -Wextra -Werror (tests/data/dropin_forms/
# forms.c, which then runs under the own-main runner, clean); a file that
# defines Deeploy's memory helpers compiles, and a body that only calls
# them links and runs on the drop-in's, or on the user's when both are
# linked.
FORMS_DIR   := tests/data/dropin_forms
FORMS_OUT   := $(BUILD)/dropin-forms
FORMS_FLAGS  = -std=c11 -g -Wall -Wextra -Werror $(DROPIN_CFLAGS)
FORMS_LIBS   = $(SDK_LIB) $(LIB) -lm $(DROPIN_LDFLAGS)
FORMS_CCS   := gcc $(if $(shell command -v clang 2>/dev/null),clang)

.PHONY: dropin-forms
check: dropin-forms
ifeq ($(SAN),asan)
# Its programs build plain: an ASan library does not link into them (the
# plain build runs it).
dropin-forms:
	@echo "dropin-forms: not under SAN=asan (the plain build runs it)"
else
dropin-forms: $(LIB) $(SDK_LIB) $(MAIN_LIB)
	@mkdir -p $(FORMS_OUT)
	@set -e; for cc in $(FORMS_CCS); do \
	    $$cc $(FORMS_FLAGS) -Dmain=dfz_user_main $(FORMS_DIR)/forms.c \
	        $(MAIN_LIB) $(FORMS_LIBS) \
	        -o $(FORMS_OUT)/forms-$$cc; \
	    $(FORMS_OUT)/forms-$$cc -n 20 > $(FORMS_OUT)/forms-$$cc.out; \
	    tail -n 1 $(FORMS_OUT)/forms-$$cc.out | grep -q 'VERDICT: clean'; \
	    echo "dropin-forms: forms.c ($$cc): compiles, runs clean"; \
	    $$cc $(FORMS_FLAGS) -c $(FORMS_DIR)/defines_mem.c \
	        -o $(FORMS_OUT)/defines_mem-$$cc.o; \
	    $$cc $(FORMS_FLAGS) -DUSER_MEM=0 $(FORMS_DIR)/calls_mem.c \
	        $(FORMS_LIBS) -o $(FORMS_OUT)/calls-$$cc; \
	    $(FORMS_OUT)/calls-$$cc -n 5 > /dev/null; \
	    $$cc $(FORMS_FLAGS) -DUSER_MEM=1 $(FORMS_DIR)/calls_mem.c \
	        $(FORMS_OUT)/defines_mem-$$cc.o $(FORMS_LIBS) \
	        -o $(FORMS_OUT)/calls-user-$$cc; \
	    $(FORMS_OUT)/calls-user-$$cc -n 5 > /dev/null; \
	    echo "dropin-forms: Deeploy's helpers ($$cc): defined, called, user's win"; \
	done
endif
