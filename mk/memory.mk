# SPDX-License-Identifier: MIT
# The drop-in's link layout (dmafuzz-dropin.ld: the program's statics in
# L2, the library's out of it), installed next to the libraries, where
# the pkg-config modules' -L path lets the linker find it by name.
.PHONY: install-dropin-ld uninstall-dropin-ld
install: install-dropin-ld
uninstall: uninstall-dropin-ld
install-dropin-ld: | all
	install -d $(DESTDIR)$(PREFIX)/lib
	install -m 644 dmafuzz-dropin.ld $(DESTDIR)$(PREFIX)/lib/

uninstall-dropin-ld:
	rm -f $(DESTDIR)$(PREFIX)/lib/dmafuzz-dropin.ld
