# SPDX-License-Identifier: MIT
# The user's side of issue 25: `dmafuzz new-test` and the CI templates.
#
# make install also installs templates/ (a GitHub Actions workflow and a
# ClusterFuzzLite configuration for a user's repository, docs/ci-templates.md)
# under $(PREFIX)/share/dmafuzz/templates/.
#
# new-test-root: the drop-in as `make install` lays it out (DESTDIR under
# $(BUILD)/new-test-root, without the fuzz library), which the new_test
# Check suite builds its skeletons against; the unit tests wait for it.
#
# cfl-user-check (part of make check): tools/cfl-user-emulate.sh, the
# ClusterFuzzLite template's build.sh run as the libFuzzer builder image
# runs it on a user project that `dmafuzz new-test` writes, against
# dmafuzz installed (with libdmafuzz-fuzz.a) under $(BUILD)/cfl-user-prefix;
# then every target on its seeds and a short fuzz, and the YAML checked.
TEMPLATE_FILES := $(shell find templates -type f 2>/dev/null)
NEWTEST_ROOT   := $(BUILD)/new-test-root
CFL_PREFIX     := $(BUILD)/cfl-user-prefix

.PHONY: install-templates uninstall-templates new-test-root cfl-user-check
install: install-templates
install-templates:
	for f in $(TEMPLATE_FILES:templates/%=%); do \
	    install -D -m $$(if [ -x templates/$$f ]; then echo 755; else echo 644; fi) \
	        templates/$$f $(DESTDIR)$(PREFIX)/share/dmafuzz/templates/$$f || exit 1; done
uninstall: uninstall-templates
uninstall-templates:
	rm -rf $(DESTDIR)$(PREFIX)/share/dmafuzz/templates

unit: new-test-root
# memcheck runs the new_test suite too, against the same root.
memcheck: new-test-root
ifeq ($(SAN),asan)
# An ASan library does not link into the skeletons' plain builds: the
# root holds only a file `skip`, and the suite builds nothing (the plain
# build runs it).
new-test-root:
	@mkdir -p $(NEWTEST_ROOT)
	@echo "SAN=asan: the new_test suite builds nothing" > $(NEWTEST_ROOT)/skip
else
new-test-root: all
	rm -rf $(NEWTEST_ROOT)
	$(MAKE) --no-print-directory install PREFIX=/usr/local FUZZLIB=0 \
	    DESTDIR=$(abspath $(NEWTEST_ROOT)) > /dev/null
endif

check: cfl-user-check
ifeq ($(SAN),asan)
cfl-user-check:
	@echo "cfl-user-check: not under SAN=asan (the plain build runs it)"
else
cfl-user-check: all fuzzlib-ready | deps-python
	rm -rf $(CFL_PREFIX)
	$(MAKE) --no-print-directory install PREFIX=$(abspath $(CFL_PREFIX)) > /dev/null
	sh tools/cfl-user-emulate.sh $(abspath $(CFL_PREFIX))
endif
