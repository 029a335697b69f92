# SPDX-License-Identifier: GPL-2.0
# make demo: install what is needed, build the modules and guest programs
# for the demo's architecture (arm64 unless ARCH= is given on the command
# line) and boot one VM that runs selftests/interference/demo.sh, a guest
# that can run KVM (VM_KVM=1): the demo also runs critbench as a KVM cell.
DEMO_ARCH := $(if $(filter ARCH=%,$(MAKEOVERRIDES)),$(ARCH),arm64)
.PHONY: demo
demo:
	@scripts/install-deps all
	@mkdir -p $(BUILD)/demo
	@echo "demo: building modules and guest programs for $(DEMO_ARCH) (log: build/demo/build.log)"
	@$(MAKE) --no-print-directory modules guest guest-tools ARCH=$(DEMO_ARCH) KERNEL=debian \
		> $(BUILD)/demo/build.log 2>&1 || { tail -n 20 $(BUILD)/demo/build.log; exit 1; }
	@scripts/provenance "make demo ARCH=$(DEMO_ARCH)" $(DEMO_ARCH):debian \
		> $(BUILD)/demo/provenance.txt
	@echo "demo: booting the $(DEMO_ARCH) VM (QEMU TCG, 2 CPUs)"
	@# Multi-threaded, though it loads the LLC model: under -icount its
	@# guest-time runs (a 4 s hog, critbench --time) would cost some 40 s
	@# of host time per guest second. VM_ICOUNT= (empty) asks for it.
	@VM_KVM=1 VM_ICOUNT=$${VM_ICOUNT-off} scripts/vm/run --arch $(DEMO_ARCH) \
		--results $(BUILD)/demo interference/demo.sh
