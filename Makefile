# SPDX-License-Identifier: GPL-2.0
#
# colorguard top-level make targets. Kernel modules are built by Kbuild
# (see Kbuild); everything else is plain make. Each part adds its own
# rules in a build.mk next to its sources, included below.
#
#   make                       host tools and tests, modules for $(ARCH)
#   make modules ARCH=arm64    cross-build the modules
#   make KDIR=/path/to/kernel  build against another kernel tree or headers
#   make check                 host tests, then VM suites on x86_64 and arm64
#                              on Debian's kernels, x86_64 on the debug kernel,
#                              arm64 on 6.1 PREEMPT_RT, the KVM cells suite
#                              in its own boot per arch, memguard's
#                              accuracy in a deterministic arm64 boot
#   make check-full            every kernel on both architectures
#   make check-vm KERNEL=rt    one boot (KERNEL=debian|debug|rt|newer|newer-rt)
#   make check-build-newer     modules against bookworm-backports' newer kernel
#   make deb                   Debian packages colorguard, colorguard-dkms
#   make check-pkg             packages, lintian, DKMS builds, DKMS modules in the VM,
#                              the installed root booted with systemd as init
#   make vm-shell ARCH=arm64   interactive guest
#   make lint                  selftests/lint/run: checkpatch (kernel and userspace C),
#                              kernel-doc, W=1 C=1 module builds
#   make bench ARCH=arm64      hv-color, channel, mm-color and memguard benchmark tables
#   make bench-chan            the channel benchmarks on the host (build/bench/chan.txt)
#   make llc-report ARCH=arm64 the interference scenario under the LLC model
#   make chan-llc-report ARCH=arm64  a busy channel next to the critical task, by its colors
#   make rt-report ARCH=arm64  a real-time cell next to a hog: TCG and the model
#   make docs                  Documentation/ as HTML in build/docs/html (Sphinx, -W)
#   make check-docs            make docs, the names the docs use, the man pages

TOP := $(CURDIR)
CACHE ?= $(or $(CG_CACHE),$(TOP)/.cache)
BUILD := $(TOP)/build
RESULTS := $(BUILD)/results
export CG_CACHE := $(CACHE)

# ARCH follows the kernel's names; aarch64/x86 are accepted too.
ARCH ?= x86_64
override ARCH := $(patsubst aarch64,arm64,$(patsubst x86,x86_64,$(ARCH)))
ifeq ($(filter x86_64 arm64,$(ARCH)),)
$(error ARCH must be x86_64 or arm64, not $(ARCH))
endif

# KERNEL: which guest kernel the modules are built for and the VM boots;
# scripts/kernel says where each one comes from. debian: Debian 12's 6.1;
# debug: 6.1 with KASAN, kmemleak and lockdep (scripts/debug-kernel/build);
# rt: Debian 12's 6.1 PREEMPT_RT; newer: bookworm-backports' kernel (6.12);
# newer-rt: its PREEMPT_RT flavour.
KERNELS := debian debug rt newer newer-rt
KERNEL ?= debian
ifeq ($(filter $(KERNELS),$(KERNEL)),)
$(error KERNEL must be one of $(KERNELS), not $(KERNEL))
endif
TARGET := $(ARCH)$(if $(filter-out debian,$(KERNEL)),-$(KERNEL))
KDIR ?= $(shell scripts/kernel $(ARCH) $(KERNEL) kdir)

ifeq ($(ARCH),arm64)
CROSS_COMPILE ?= aarch64-linux-gnu-
GUEST_CC := aarch64-linux-gnu-gcc
else
CROSS_COMPILE ?=
GUEST_CC := gcc
endif

HOST_CC ?= gcc
HOST_CFLAGS ?= -O2 -g -Wall -Wextra -Werror -std=gnu11
HOST_CFLAGS += -I$(TOP)/include
KSFT_INC := $(CACHE)/linux-src/tools/testing/selftests
CHECKPATCH := $(CACHE)/linux-src/scripts/checkpatch.pl

# Static programs that run inside the guest (one .c file each, in the
# selftests/<suite>/ folders that have a vm-run script).
GUEST_CFLAGS := -O2 -g -static -Wall -Wextra -Werror -std=gnu11 \
	-I$(TOP)/include -isystem $(KSFT_INC) -pthread
GUEST := $(BUILD)/$(ARCH)/guest
VM_SUITE_DIRS := $(patsubst %/vm-run,%,$(wildcard selftests/*/vm-run))
GUEST_SRCS := $(foreach d,$(VM_SUITE_DIRS),$(wildcard $(d)/*.c))
GUEST_PROGS := $(patsubst selftests/%.c,$(GUEST)/%,$(GUEST_SRCS))

# Parts register here: host executables that print TAP (run by check-host),
# and extra prerequisites of `all`.
HOST_TAP_TESTS :=
HOST_ALL :=
HV_COLOR_SRCS :=
.DEFAULT_GOAL := all
include $(sort $(wildcard */build.mk selftests/*/build.mk scripts/*/build.mk))

.PHONY: all deps deps-host modules guest host check check-host check-vm \
	check-negative check-full vm-shell lint clean help bench
all: host modules

help:
	@sed -n 's/^#   //p' Makefile

deps:
	@scripts/install-deps all
deps-host:
	@scripts/install-deps host

# Kbuild writes objects beside the sources, so each ARCH builds in its own
# staged copy of the kernel-side tree.
KMOD ?= $(BUILD)/$(TARGET)/kmod
MODDIR ?= $(BUILD)/$(TARGET)/modules
KSRC := Kbuild include hv-color mm-color memguard selftests/modules
KCONFIG_PARTS := \
	$(if $(wildcard mm-color/Kbuild),CONFIG_MM_COLOR=m) \
	$(if $(wildcard memguard/Kbuild),CONFIG_MEMGUARD=m)
# Builds run in parallel (Kbuild's module objects, the host programs,
# what a boot needs): under a make -j its jobserver decides, otherwise one
# job per core.
BUILD_JOBS := $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$(shell nproc))
# The kernel is fetched first; KDIR (from scripts/kernel unless given) is
# read in a second make, once the kernel is there.
# One build of a target's modules at a time: make check's boots beside
# the debug kernel's (check-side-boots) may want the same ones.
modules:
	@$(if $(filter command line,$(origin KDIR)),,scripts/kernel $(ARCH) $(KERNEL) fetch)
	@mkdir -p $(KMOD) && flock $(KMOD)/.build-lock $(MAKE) --no-print-directory modules-build

.PHONY: modules-build
modules-build:
	@mkdir -p $(KMOD)/selftests
	@for d in $(KSRC); do [ -e $$d ] && cp -a --parents -u $$d $(KMOD)/ || true; done
	$(MAKE) $(BUILD_JOBS) -C $(KDIR) M=$(KMOD) ARCH=$(ARCH) CROSS_COMPILE=$(CROSS_COMPILE) \
		$(KCONFIG_PARTS) modules
	@mkdir -p $(MODDIR)
	@find $(KMOD) -name '*.ko' -exec cp -u {} $(MODDIR)/ \;

guest: $(GUEST_PROGS)
$(GUEST)/%: selftests/%.c $(HV_COLOR_SRCS) $(wildcard include/colorguard/*.h)
	@mkdir -p $(dir $@)
	$(GUEST_CC) $(GUEST_CFLAGS) -o $@ $< $(HV_COLOR_SRCS) -lm

host: $(HOST_ALL) $(HOST_TAP_TESTS)

# The host tests are single-threaded: two at a time on 2 cores. Their
# build goes first, one job a core as well (134 s serial, 65 s on two).
HOST_JOBS ?= $(shell nproc)
check-host:
	@$(MAKE) --no-print-directory $(BUILD_JOBS) host
	@mkdir -p $(RESULTS)
	@scripts/tap-run-parallel --jobs $(HOST_JOBS) --prefix host- --out $(RESULTS) -- \
		$(HOST_TAP_TESTS)

# Build test against a newer kernel: every module against the headers of
# bookworm-backports' kernel (scripts/install-deps newer), x86_64 and arm64,
# W=1 C=1, in build/newer-<arch>/; a warning fails like an error.
.PHONY: check-build-newer
check-build-newer:
	@scripts/install-deps newer
	@mkdir -p $(RESULTS)
	@MAKE="$(MAKE)" scripts/tap-run --name build-newer --out $(RESULTS) -- \
		scripts/build-newer x86_64 arm64

# One boot runs every VM suite of this architecture. mm-color goes first:
# its root_colors test measures where a fresh allocation's pages come from,
# which depends on the free lists' history (see mmc_drain() in mm-color/drain.c).
ALL_VM_SUITES := $(patsubst selftests/%,%,$(VM_SUITE_DIRS))
# Suites with a needs-kvm file (cells) boot on their own, in a guest that
# runs KVM (scripts/vm/run): never in the default list, whose boots stay as
# they are; `make check` runs them per CHECK_CELLS.
KVM_SUITES := $(patsubst selftests/%/needs-kvm,%,$(wildcard selftests/*/needs-kvm))
# The debug kernels run the suites that drive the modules' kernel paths;
# interference is a userspace scenario over paths they already cover.
# make check skips more there (CHECK_DEBUG_SKIP).
DEBUG_SKIP_SUITES ?= interference
# Suites an RT kernel's boot leaves out (none by default; make check sets
# CHECK_RT_SKIP).
RT_SKIP_SUITES ?=
# Suites that boot with the shared-LLC model (an llc-model file in their
# folder, see scripts/vm/run) get a boot of their own, on Debian's kernel
# only: the model slows the guest 2-3.5x and tests QEMU's side, not the
# kernel's. On arm64 the llc-model suite's boot is followed by two short
# ones whose TSVs must be identical (selftests/llc-model/repeat).
LLC_MODEL_SUITES := $(patsubst selftests/%/llc-model,%,$(shell grep -L '^scripts=' \
	selftests/*/llc-model 2>/dev/null))
# Scripts that boot deterministically (named in their folder's icount
# file, see scripts/vm/run): never in the default list, which holds
# folders; make check boots them on their own per CHECK_ICOUNT.
ICOUNT_SUITES := $(foreach f,$(wildcard selftests/*/icount),$(addprefix \
	$(patsubst selftests/%/icount,%,$(f))/,$(shell sed 's/\#.*//' $(f))))
VM_SUITES ?= $(filter bed,$(ALL_VM_SUITES)) $(filter mm-color,$(ALL_VM_SUITES)) \
	$(filter-out bed mm-color $(KVM_SUITES) $(if $(filter debug,$(KERNEL)),$(DEBUG_SKIP_SUITES)) \
		$(if $(filter rt newer-rt,$(KERNEL)),$(RT_SKIP_SUITES)) \
		$(if $(filter-out debian,$(KERNEL)),$(LLC_MODEL_SUITES)),$(ALL_VM_SUITES))
VM_PLAIN := $(filter-out $(LLC_MODEL_SUITES),$(VM_SUITES))
VM_LLC := $(filter $(LLC_MODEL_SUITES),$(VM_SUITES))
# Seconds of memguard's stress of changes (selftests/memguard/stress.sh).
MEMGUARD_STRESS_SECS ?= 12
# 1: repetitions that only raise the odds of catching a rare failure run
# in full (CG_THOROUGH in the guest: mm-color's twelve narrowing rounds,
# every kill point of cellhost in each boot); make check-full sets it.
CHECK_THOROUGH ?= 0
check-vm: modules guest
	@mkdir -p $(RESULTS)
	@rc=0; export VM_APPEND="$${VM_APPEND:-} cg.stress=$(MEMGUARD_STRESS_SECS) \
		cg.thorough=$(CHECK_THOROUGH)"; \
	$(if $(VM_PLAIN),scripts/vm/run --arch $(ARCH) --kernel $(KERNEL) --results $(RESULTS) \
		$(VM_PLAIN) || rc=1;) \
	$(if $(VM_LLC),scripts/vm/run --arch $(ARCH) --kernel $(KERNEL) --results $(RESULTS) \
		$(VM_LLC) || rc=1;) \
	$(if $(filter llc-model,$(VM_LLC)),$(if $(filter arm64,$(ARCH)),selftests/llc-model/repeat \
		--arch $(ARCH) --kernel $(KERNEL) --results $(RESULTS) || rc=1;)) \
	exit $$rc

check-negative: modules guest
	@mkdir -p $(RESULTS)
	@scripts/tap-run --name negative-$(TARGET) --out $(RESULTS) -- \
		selftests/bed/negative/run $(ARCH) $(KERNEL)

# Everything, never stopping at the first failure; the summary decides.
# What `make check` (CI) boots is fixed, not left to chance, so that each
# kernel users run is loaded on one architecture per run, within about 40
# minutes on 2 cores from a fresh machine:
#   x86_64: 6.1 PREEMPT_RT, every suite; the debug 6.1 (KASAN, kmemleak,
#           lockdep), every suite but CHECK_DEBUG_SKIP; Debian's 6.1 for the
#           KVM suites and the DKMS-built modules (check-pkg);
#   arm64:  bookworm-backports' 6.12, every suite; Debian's 6.1 for the KVM
#           suites and the LLC model.
# The 6.1 Debian kernel's every-suite boots (x86_64's with the LLC model)
# and arm64's RT boot are in check-full (time budget: one boot of every
# suite is 3-6 minutes; a fresh machine's make check took 2648 s with
# them and the whole debug run).
# The KVM suites on the debug kernels (KVM's handling of mm-color's memory
# under the sanitizers: 295 s for x86_64 against 24 s on Debian's kernel)
# are in check-full.
# x86_64 on 6.12 is in check-full only (time; arm64 runs 6.12).
# The planted-bug checks run on the debug kernel (KASAN and kmemleak must
# fire); the WARN/fail/hang ones on Debian's kernel are in check-full.
# The packages' install test runs in a fresh Debian root (check-pkg:
# packages, lintian, man pages, DKMS for 6.1 and 6.12, purge), then the
# DKMS-built modules in the VM, then that root booted with systemd as init
# (check-pkg-systemd); check-full adds the 6.1-rt headers.
# `make check-full` boots every kernel on both architectures; CHECK_VM,
# CHECK_CELLS, CHECK_LLC and CHECK_NEGATIVE take any list of ARCH:KERNEL.
CHECK_VM ?= x86_64:rt arm64:newer x86_64:debug
CHECK_NEGATIVE ?= x86_64:debug
# The KVM suites' own boots (make check-vm VM_SUITES=cells), step names
# check-vm-<arch>[-<kernel>]-kvm.
CHECK_CELLS ?= x86_64:debian arm64:debian
# The deterministic boot of the ICOUNT_SUITES (memguard's accuracy at a
# 1 ms period, about 35 s boot to verdict), step check-vm-<arch>-icount.
CHECK_ICOUNT ?= arm64:debian
# Boots of the LLC-model suites alone, for kernels CHECK_VM does not boot
# with them (check-vm on Debian's kernel adds that boot by itself).
CHECK_LLC ?= arm64:debian
# On the debug kernel make check leaves out, besides interference, the
# suites whose kernel paths the others already drive under the sanitizers
# (apply and status: the tool's sysfs writes and reads; cellhost: cpuset
# partitions and IRQ moves, 164 s there) to stay within 40 minutes;
# check-full runs them.
CHECK_DEBUG_SKIP ?= interference apply status cellhost
# The RT boot leaves out what drives no path of its own there, each run
# by arm64's boot: interference (a userspace scenario, 44 s on the x86_64
# RT kernel), apply and status (the tool's sysfs writes and reads; the
# DKMS boot runs them on x86_64) and writes (the malformed-input corpus,
# which the debug boot runs under the sanitizers); 50 s in all.
CHECK_RT_SKIP ?= interference apply status writes
CHECK_PKG ?= check-pkg
# A boot's step builds what it needs first (guest programs, modules,
# plugin) with BUILD_JOBS: the arm64 guest programs alone take 65 s on
# one core. The boot itself is one job.
CHECK_FULL_VM := $(foreach k,$(KERNELS),x86_64:$(k) arm64:$(k))
# Work that needs little CPU time of its own, or can wait for idle CPU,
# runs in the background at nice 19 beside the VM boots, which leave about
# one core of two idle (scripts/background-step): first the debug kernels'
# builds (scripts/debug-kernel/build, 10-13 minutes on 2 cores), which start
# before install-deps all (the build needs only install-deps debug; the
# downloads and dpkg leave CPU idle), then, once install-deps all is done
# (one apt-get at a time), the packages' install test (check-pkg-install:
# downloads, dpkg, debootstrap and DKMS, 3-5 minutes). The boots on the debug kernels come last, so that
# their build has the most time to finish (a boot waits for it on the
# build's lock), and the check-pkg step at the end collects the install
# test's output and boots the modules DKMS built. At nice 19 the
# background takes little from a boot's TCG threads.
CHECK_DEBUG_ARCHES = $(sort $(patsubst %:debug,%,$(filter %:debug,\
	$(CHECK_VM) $(CHECK_CELLS) $(CHECK_NEGATIVE))))
check-background:
	@$(foreach a,$(CHECK_DEBUG_ARCHES),scripts/debug-kernel/build $(a) \
		> $(BUILD)/debug-kernel-$(a).log 2>&1 & ) wait
	@while [ ! -f $(BUILD)/check-deps-done ]; do sleep 2; done
	@$(if $(CHECK_PKG),scripts/tap-run --step $(CHECK_PKG)-install --prefix pkg \
		--out $(RESULTS) -- $(MAKE) --no-print-directory $(CHECK_PKG)-install)

# Step names: check-vm-<arch>[-<kernel>][-kvm|-icount|-llc], kernel
# omitted for Debian's; check-negative-<arch>-<kernel>.
vm_arch = $(word 1,$(subst :, ,$(1)))
vm_kernel = $(word 2,$(subst :, ,$(1)))
check_step_name = $(vm_arch)$(if $(filter-out debian,$(vm_kernel)),-$(vm_kernel))$(2)
# $(call check_boot,ARCH:KERNEL,SUFFIX,ARGUMENTS): one boot's check-vm
# step, as a shell command.
check_boot = scripts/tap-run --step check-vm-$(check_step_name) --prefix $(check_step_name)- \
	--out $(RESULTS) -- $(MAKE) --no-print-directory $(BUILD_JOBS) check-vm $(3) \
	ARCH=$(vm_arch) KERNEL=$(vm_kernel);
check_vm_boots = $(foreach t,$(1),$(call check_boot,$(t),, \
	DEBUG_SKIP_SUITES="$(CHECK_DEBUG_SKIP)" RT_SKIP_SUITES="$(CHECK_RT_SKIP)"))
check_kvm_boots = $(foreach t,$(if $(KVM_SUITES),$(1)),$(call check_boot,$(t),-kvm, \
	VM_SUITES="$(KVM_SUITES)"))
check_icount_boots = $(foreach t,$(if $(ICOUNT_SUITES),$(1)),$(call check_boot,$(t),-icount, \
	VM_SUITES="$(ICOUNT_SUITES)"))
check_llc_boots = $(foreach t,$(if $(LLC_MODEL_SUITES),$(1)),$(call check_boot,$(t),-llc, \
	VM_SUITES="$(LLC_MODEL_SUITES)"))
check_negative_boots = $(foreach t,$(1),scripts/tap-run --step \
	check-negative-$(vm_arch)-$(vm_kernel) --prefix negative- --out $(RESULTS) -- \
	$(MAKE) --no-print-directory $(BUILD_JOBS) check-negative ARCH=$(vm_arch) \
	KERNEL=$(vm_kernel);)
# The boots whose results a busy host cannot change run beside the debug
# kernel's every-suite boot, which checks no timing (its sanitizers would
# make timing bounds meaningless): the deterministic ones (-icount, guest
# time is the instructions the guest ran: memguard's accuracy and arm64's
# LLC model) and the planted bugs, which only have to be reported. The
# boots that check timing run alone, before them.
not_debug = $(filter-out %:debug,$(1))
only_debug = $(filter %:debug,$(1))
CHECK_SIDE_LLC = $(filter arm64:%,$(CHECK_LLC))
check-side-boots:
	-@$(call check_icount_boots,$(CHECK_ICOUNT)) $(call check_llc_boots,$(CHECK_SIDE_LLC)) \
		$(call check_negative_boots,$(CHECK_NEGATIVE)) true

check:
	@rm -rf $(RESULTS) && mkdir -p $(RESULTS) && date +%s > $(BUILD)/check-start
	@scripts/provenance "make check" $(sort $(CHECK_VM) $(CHECK_CELLS) $(CHECK_ICOUNT) \
		$(CHECK_LLC) $(CHECK_NEGATIVE)) > $(RESULTS)/provenance.txt
	@$(if $(CHECK_DEBUG_ARCHES),scripts/install-deps debug)
	@rm -f $(BUILD)/check-deps-done
	@scripts/background-step start check-background $(BUILD) -- \
		$(MAKE) --no-print-directory check-background
	@scripts/tap-run --step install-deps --prefix deps- --out $(RESULTS) -- \
		scripts/install-deps all; rc=$$?; touch $(BUILD)/check-deps-done; exit $$rc
	-@scripts/tap-run --step check-host --prefix host- --out $(RESULTS) -- \
		$(MAKE) --no-print-directory check-host
	-@scripts/tap-run --step check-docs --prefix docs --out $(RESULTS) -- \
		$(MAKE) --no-print-directory check-docs
	-@scripts/tap-run --step check-build-newer --prefix build-newer --out $(RESULTS) -- \
		$(MAKE) --no-print-directory check-build-newer
	-@$(call check_vm_boots,$(call not_debug,$(CHECK_VM))) \
		$(call check_kvm_boots,$(call not_debug,$(CHECK_CELLS))) \
		$(call check_llc_boots,$(filter-out $(CHECK_SIDE_LLC),$(CHECK_LLC))) true
	@scripts/background-step start --nice 0 check-side-boots $(BUILD) -- \
		$(MAKE) --no-print-directory check-side-boots
	-@$(call check_vm_boots,$(call only_debug,$(CHECK_VM))) true
	-@scripts/background-step wait check-side-boots $(BUILD)
	-@$(call check_kvm_boots,$(call only_debug,$(CHECK_CELLS))) true
	-@scripts/tap-run --step $(or $(CHECK_PKG),background) --prefix pkg --out $(RESULTS) -- \
		sh -c 'scripts/background-step wait check-background $(BUILD) \
			$(if $(CHECK_PKG),&& $(MAKE) --no-print-directory $(CHECK_PKG)-vm)'
	@echo "# make check: $$(($$(date +%s) - $$(cat $(BUILD)/check-start))) s"
	@scripts/tap-summary $(RESULTS)

check-full:
	@$(MAKE) --no-print-directory check CHECK_PKG=check-pkg-full MEMGUARD_STRESS_SECS=60 \
		CHECK_THOROUGH=1 \
		CHECK_VM="$(CHECK_FULL_VM)" CHECK_LLC= CHECK_DEBUG_SKIP=interference CHECK_RT_SKIP= \
		CHECK_CELLS="x86_64:debian arm64:debian x86_64:debug arm64:debug" \
		CHECK_NEGATIVE="x86_64:debian arm64:debian x86_64:debug arm64:debug"

# Benchmarks print their tables; they assert nothing about speed.
BENCH_ICOUNT := shift=0,sleep=off
# On arm64 a deterministic boot follows: memguard's accuracy, its armed
# overhead and its accuracy with every CPU armed. The channel bench runs
# on the host first, once the builds are done and before any boot, so
# that neither competes with it for the CPUs.
bench: bench-hv-color modules guest
	@mkdir -p $(BUILD)/bench
	@scripts/provenance "make bench ARCH=$(ARCH) KERNEL=$(KERNEL)" $(ARCH):$(KERNEL) \
		> $(BUILD)/bench/provenance.txt
	@$(MAKE) --no-print-directory bench-chan
	scripts/vm/run --arch $(ARCH) --kernel $(KERNEL) --results $(BUILD)/bench \
		mm-color/bench.sh memguard/bench
	$(if $(filter arm64,$(ARCH)),VM_ICOUNT=$(BENCH_ICOUNT) scripts/vm/run \
		--arch $(ARCH) --kernel $(KERNEL) --results $(BUILD)/bench \
		$(ICOUNT_SUITES) memguard/bench-icount.sh)

# The documentation, built like the kernel's: Sphinx from Debian's
# python3-sphinx with warnings as errors. Documentation/conf.py renders the
# man pages and includes what the measuring commands wrote under build/.
.PHONY: docs check-docs
docs:
	@command -v sphinx-build >/dev/null && command -v dot >/dev/null && \
		command -v groff >/dev/null || scripts/install-deps docs
	@sphinx-build -W --keep-going -q -b html -d $(BUILD)/docs/doctrees \
		Documentation $(BUILD)/docs/html
	@echo "docs: $(BUILD)/docs/html/index.html"
check-docs:
	@mkdir -p $(RESULTS)
	@MAKE="$(MAKE)" scripts/tap-run --name docs --out $(RESULTS) -- selftests/docs/run

vm-shell: modules guest
	scripts/vm/run --arch $(ARCH) --kernel $(KERNEL) --shell

# The lint checks are listed once, in selftests/lint/run (which check-host
# runs too).
lint:
	@[ -x $(CHECKPATCH) ] || scripts/install-deps host
	@selftests/lint/run

# The install test (packaging/test/run) and CI mount /dev, /proc and the
# .deb cache inside roots under build/; an interrupted run can leave them.
clean:
	@findmnt -rn -o TARGET | grep -F "$(BUILD)/" | sort -r | xargs -r -n1 umount -l
	rm -rf --one-file-system $(BUILD)
