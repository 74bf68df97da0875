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
	install -m 644 $(SDK_LIB) $(MAIN_LIB) dropin/sdk/dmafuzz-dropin-main.ld \
	    $(DESTDIR)$(PREFIX)/lib/

uninstall: uninstall-dropin-libs
.PHONY: uninstall-dropin-libs
uninstall-dropin-libs:
	rm -f $(DESTDIR)$(PREFIX)/lib/libdmafuzz-sdk.a \
	    $(DESTDIR)$(PREFIX)/lib/libdmafuzz-main.a \
	    $(DESTDIR)$(PREFIX)/lib/dmafuzz-dropin-main.ld
