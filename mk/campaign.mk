# SPDX-License-Identifier: MIT
# `dmafuzz campaign` (docs/campaign.md): the CLI runs tools/campaign.sh,
# which `make install` puts in PREFIX/share/dmafuzz/ with the shell
# functions it shares with the nightly (tools/fuzz-lib.sh); the CLI finds
# it beside itself there (or in the source tree's tools/ for a build
# tree's binary).
#   campaign-check   part of make check: the campaign on
#                    examples/campaign-demo with a short budget, built
#                    against a test install (tools/campaign-check.sh)
CAMPAIGN_DATADIR := $(PREFIX)/share/dmafuzz
CAMPAIGN_ROOT    := $(BUILD)/campaign-check
$(BUILD)/cli/cmd_campaign.o: DFZ_CFLAGS += -DDFZ_DATADIR='"$(CAMPAIGN_DATADIR)"'

.PHONY: install-campaign uninstall-campaign campaign-check
install: install-campaign
uninstall: uninstall-campaign
install-campaign:
	install -d $(DESTDIR)$(CAMPAIGN_DATADIR)
	install -m 644 tools/campaign.sh tools/fuzz-lib.sh $(DESTDIR)$(CAMPAIGN_DATADIR)/
uninstall-campaign:
	rm -f $(DESTDIR)$(CAMPAIGN_DATADIR)/campaign.sh $(DESTDIR)$(CAMPAIGN_DATADIR)/fuzz-lib.sh
	-rmdir $(DESTDIR)$(CAMPAIGN_DATADIR) 2> /dev/null

ifeq ($(SAN),asan)
campaign-check:
	@echo "campaign-check: not under SAN=asan (the plain build runs it)"
else
campaign-check: all fuzzlib-ready
	rm -rf $(CAMPAIGN_ROOT)
	$(MAKE) --no-print-directory install PREFIX=/usr/local \
	    DESTDIR=$(abspath $(CAMPAIGN_ROOT)) > /dev/null
	sh tools/campaign-check.sh -r $(CAMPAIGN_ROOT) examples/campaign-demo
endif
check: campaign-check
