# SPDX-License-Identifier: GPL-2.0
# Installing and packaging (see Documentation/colorguard/reference/install.rst):
#   make install DESTDIR=...  the tool, critbench and the interference
#                             runner, man pages, systemd units, the udev
#                             rule and sysusers group of the device nodes,
#                             the example /etc/colorguard/system.cfg,
#                             examples, docs
#   make dkms-src DKMS_DEST=DIR   the DKMS source set (dkms.conf, Kbuild,
#                             include/, hv-color/, mm-color/, memguard/)
#   make dkms-install         dkms-src into /usr/src/colorguard-VERSION, then
#                             dkms add, build and install (as root)
#   make deb                  colorguard and colorguard-dkms .debs in
#                             build/deb/ (dpkg-buildpackage -b -us -uc on a
#                             staged copy), then lintian
#   make check-pkg            the install test (packaging/test/run), then
#                             the DKMS-built modules in the VM and the
#                             installed root booted with systemd
#   make check-pkg-systemd    that last boot alone (packaging/test/systemd/),
#                             on the image of the last install test
#
# packaging/debian/ is copied to debian/ of a staged copy of the tree
# under build/deb/: dpkg-buildpackage writes its results into the parent of
# the source tree, which for a clone at the top would be outside the
# project (a shared folder here); staged, they land in build/deb/.

PKG_VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' packaging/debian/changelog)
PKG_UPSTREAM := $(firstword $(subst -, ,$(PKG_VERSION)))
PREFIX ?= /usr
SYSTEMD_UNITDIR ?= /lib/systemd/system
SYSTEMD_GENERATORDIR ?= /lib/systemd/system-generators
UDEV_RULESDIR ?= /lib/udev/rules.d
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
DIST := $(BUILD)/dist
# The packaged programs are built with the distribution's flags
# (debian/rules passes dpkg-buildflags' hardening flags here).
DIST_CFLAGS ?= -O2 -g
DIST_CPPFLAGS ?=
DIST_LDFLAGS ?=
DIST_WARN := -Wall -Wextra -std=gnu11 -I$(TOP)/include

# The packaged tool is built from the sources the tool's own rule uses
# (scripts/colorguard/build.mk, read after this file: hence the second
# expansion), so whatever is linked into the tool there is packaged too.
.SECONDEXPANSION:
$(DIST)/colorguard: $$(CG_TOOL_SRCS) $$(CG_TOOL_HDRS) $$(HV_COLOR_SRCS) \
		$$(CG_RUNNER_SRCS_HOST) $$(CG_KEEPER_SRCS)
	@mkdir -p $(dir $@)
	$(HOST_CC) $(DIST_CPPFLAGS) $(DIST_CFLAGS) $(DIST_WARN) $(CG_RUNNER_CFLAGS) \
		$(CG_KEEPER_CFLAGS) $(CG_LIBCONFIG_CFLAGS) -o $@ $(CG_TOOL_SRCS) \
		$(CG_RUNNER_SRCS_HOST) $(CG_KEEPER_SRCS) \
		$(HV_COLOR_SRCS) $(DIST_LDFLAGS) $(CG_LIBCONFIG_LIBS)
$(DIST)/critbench: selftests/interference/critbench.c include/colorguard/mm_color.h
	@mkdir -p $(dir $@)
	$(HOST_CC) $(DIST_CPPFLAGS) $(DIST_CFLAGS) $(DIST_WARN) -pthread -o $@ $< \
		$(DIST_LDFLAGS) -lm

# The demo inmates for the runner's architecture, built by cells/build.mk
# (freestanding flat images: the distribution's hardening flags do not
# apply to them).
PKG_INMATE_ARCH = $(if $(filter arm64,$(CG_RUNNER_HOST_ARCH)),arm64,x86_64)
PKG_INMATE_DIR = $(BUILD)/$(PKG_INMATE_ARCH)/guest/cells
PKG_INMATES := $(patsubst cells/inmates/demos/%.c,%.bin,$(wildcard cells/inmates/demos/*.c))
dist-inmates:
	@$(MAKE) --no-print-directory ARCH=$(PKG_INMATE_ARCH) \
		$(addprefix $(PKG_INMATE_DIR)/,$(PKG_INMATES))

.PHONY: dist dist-inmates install dkms-src dkms-install deb check-pkg check-pkg-full check-pkg-quick
dist: $(DIST)/colorguard $(DIST)/critbench dist-inmates

# Files, not folders: the lists say exactly what a package holds.
PKG_MAN := scripts/colorguard/colorguard.8 scripts/colorguard/colorguard.cfg.5
PKG_EXAMPLES := $(wildcard scripts/colorguard/examples/*.cfg)
PKG_DOCS := README.md scripts/colorguard/README.md $(wildcard Documentation/ABI/testing/*)
install: dist
	install -D -m 0755 $(DIST)/colorguard $(DESTDIR)$(PREFIX)/sbin/colorguard
	install -D -m 0755 scripts/interference/run \
		$(DESTDIR)$(PREFIX)/lib/colorguard/interference/run
	install -D -m 0755 $(DIST)/critbench \
		$(DESTDIR)$(PREFIX)/lib/colorguard/interference/critbench
	install -d $(DESTDIR)$(PREFIX)/lib/colorguard/inmates
	install -m 0644 $(addprefix $(PKG_INMATE_DIR)/,$(PKG_INMATES)) \
		$(DESTDIR)$(PREFIX)/lib/colorguard/inmates/
	install -D -m 0644 scripts/colorguard/colorguard.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/colorguard.8
	install -D -m 0644 scripts/colorguard/colorguard.cfg.5 \
		$(DESTDIR)$(PREFIX)/share/man/man5/colorguard.cfg.5
	install -D -m 0644 packaging/systemd/colorguard.service \
		$(DESTDIR)$(SYSTEMD_UNITDIR)/colorguard.service
	install -D -m 0644 packaging/systemd/colorguard-cell@.service \
		$(DESTDIR)$(SYSTEMD_UNITDIR)/colorguard-cell@.service
	install -D -m 0755 packaging/systemd/colorguard-generator \
		$(DESTDIR)$(SYSTEMD_GENERATORDIR)/colorguard-generator
	install -D -m 0644 packaging/system.cfg $(DESTDIR)/etc/colorguard/system.cfg
	install -D -m 0644 packaging/modprobe.conf $(DESTDIR)/etc/modprobe.d/colorguard.conf
	install -D -m 0644 packaging/udev/60-colorguard.rules \
		$(DESTDIR)$(UDEV_RULESDIR)/60-colorguard.rules
	install -D -m 0644 packaging/sysusers/colorguard.conf \
		$(DESTDIR)$(SYSUSERSDIR)/colorguard.conf
	install -d $(DESTDIR)$(PREFIX)/share/doc/colorguard/examples \
		$(DESTDIR)$(PREFIX)/share/doc/colorguard/ABI
	install -m 0644 $(PKG_EXAMPLES) $(DESTDIR)$(PREFIX)/share/doc/colorguard/examples/
	install -m 0644 README.md $(DESTDIR)$(PREFIX)/share/doc/colorguard/README.md
	install -m 0644 scripts/colorguard/README.md \
		$(DESTDIR)$(PREFIX)/share/doc/colorguard/README.colorguard.md
	install -m 0644 $(wildcard Documentation/ABI/testing/*) \
		$(DESTDIR)$(PREFIX)/share/doc/colorguard/ABI/

# The kernel-side sources DKMS builds, without the test-only modules.
DKMS_DEST ?= $(BUILD)/dkms/colorguard-$(PKG_UPSTREAM)
DKMS_FILES := Kbuild $(wildcard include/colorguard/*.h hv-color/*.[ch] \
	mm-color/Kbuild mm-color/*.[ch] mm-color/arch/*/*.c memguard/Kbuild \
	memguard/*.[ch])
dkms-src:
	@rm -rf $(DKMS_DEST) && mkdir -p $(DKMS_DEST)
	@cp --parents $(DKMS_FILES) $(DKMS_DEST)/
	@sed 's/#MODULE_VERSION#/$(PKG_UPSTREAM)/' dkms.conf > $(DKMS_DEST)/dkms.conf
	@echo "dkms-src: $(DKMS_DEST)"

dkms-install:
	@[ "$$(id -u)" = 0 ] || { echo "dkms-install: run as root" >&2; exit 1; }
	@command -v dkms >/dev/null || { echo "dkms-install: apt-get install dkms" >&2; exit 1; }
	-dkms remove colorguard/$(PKG_UPSTREAM) --all 2>/dev/null
	$(MAKE) --no-print-directory dkms-src DKMS_DEST=/usr/src/colorguard-$(PKG_UPSTREAM)
	dkms add colorguard/$(PKG_UPSTREAM)
	dkms build colorguard/$(PKG_UPSTREAM)
	dkms install colorguard/$(PKG_UPSTREAM)

PKG_STAGE := $(BUILD)/deb/src/colorguard-$(PKG_UPSTREAM)
deb:
	@rm -rf $(BUILD)/deb && mkdir -p $(PKG_STAGE)
	@{ git ls-files -co --exclude-standard 2>/dev/null || \
		find . -path ./build -prune -o -path ./.cache -prune -o -path ./.git -prune \
			-o \( -type f -o -type l \) -print; } | \
		grep -v '^\(\./\)\?\(build\|\.cache\|packaging/debian\)\(/\|$$\)' | \
		while read -r f; do [ -e "$$f" ] && echo "$$f"; done | \
		cpio -pdm --quiet $(PKG_STAGE)
	@cp -a packaging/debian $(PKG_STAGE)/debian
	@echo "deb: dpkg-buildpackage -b -us -uc in $(PKG_STAGE) (log: build/deb/build.log)"
	@cd $(PKG_STAGE) && dpkg-buildpackage -b -us -uc > $(BUILD)/deb/build.log 2>&1 || \
		{ tail -n 30 $(BUILD)/deb/build.log; exit 1; }
	@mv $(BUILD)/deb/src/*.deb $(BUILD)/deb/src/*.changes $(BUILD)/deb/src/*.buildinfo $(BUILD)/deb/
	@rm -rf $(BUILD)/deb/src
	@ls -1 $(BUILD)/deb/*.deb
	@echo "deb: lintian"
	@lintian --fail-on error,warning --info --display-info \
		$(BUILD)/deb/colorguard_$(PKG_VERSION)_*.changes 2>&1 | tee $(BUILD)/deb/lintian.log
	@echo "deb: lintian clean (log: build/deb/lintian.log)"

# The status VM suite runs colorguard.service's commands in the guest.
$(GUEST)/status/colorguard.service: packaging/systemd/colorguard.service
	@mkdir -p $(dir $@)
	cp $< $@
guest-tools: $(GUEST)/status/colorguard.service

# make check runs check-pkg in two parts: check-pkg-install
# (packaging/test/run: the packages built, lintian, man pages, then
# installed into a fresh Debian 12 root: DKMS for 6.1 and 6.12, dpkg -L
# against the install page, systemd-analyze verify, purge; about 3.5
# minutes with the .debs cached, mostly downloads, dpkg and DKMS), in the
# background beside the VM boots, then check-pkg-vm: one VM boot of the
# apply and status suites on the 6.1 modules DKMS built there.
# check-pkg-full (make check-full) adds the 6.1 PREEMPT_RT headers.
# check-pkg-vm then boots the installed root itself with systemd as init
# (check-pkg-systemd, packaging/test/systemd/: the units driven by
# systemctl, about 45-80 s boot to poweroff); the install test made its
# image, build/pkg-test/systemd-root.cpio.
# check-pkg-quick: no root, no chroot (packaging/test/quick: DKMS on
# private trees), for a quick look while working on the packaging; no
# systemd boot.
PKG_VM_SUITES := apply status
check-pkg-install: PKG_TEST := packaging/test/run
check-pkg-full-install: PKG_TEST := packaging/test/run --full
check-pkg-quick-install: PKG_TEST := packaging/test/quick
check-pkg-vm check-pkg-full-vm: PKG_MODULES := $(BUILD)/pkg-test/modules-x86_64
check-pkg-vm check-pkg-full-vm: PKG_SYSTEMD := 1
check-pkg-quick-vm: PKG_MODULES := $(BUILD)/pkg-check/modules-x86_64
.PHONY: check-pkg-install check-pkg-full-install check-pkg-quick-install \
	check-pkg-vm check-pkg-full-vm check-pkg-quick-vm check-pkg-systemd
check-pkg check-pkg-full check-pkg-quick:
	@$(MAKE) --no-print-directory $@-install
	@$(MAKE) --no-print-directory $@-vm
check-pkg-install check-pkg-full-install check-pkg-quick-install:
	@scripts/install-deps pkg
	@mkdir -p $(RESULTS)
	@scripts/tap-run --name pkg --out $(RESULTS) -- $(PKG_TEST) < /dev/null
check-pkg-vm check-pkg-full-vm check-pkg-quick-vm:
	@$(MAKE) --no-print-directory $(BUILD_JOBS) guest guest-tools ARCH=x86_64 KERNEL=debian > /dev/null
	@rc=0; scripts/vm/run --arch x86_64 --kernel debian --modules $(PKG_MODULES) --label pkg \
		--results $(RESULTS) $(PKG_VM_SUITES) || rc=1; \
	$(if $(PKG_SYSTEMD),$(PKG_SYSTEMD_RUN) || rc=1;) exit $$rc
# Not a sub-make: a recipe line naming $(MAKE) runs even under make -n.
PKG_SYSTEMD_RUN = scripts/tap-run --name pkg-systemd-x86_64 --out $(RESULTS) -- \
	packaging/test/systemd/run --results $(RESULTS)
check-pkg-systemd:
	@mkdir -p $(RESULTS)
	@$(PKG_SYSTEMD_RUN)
