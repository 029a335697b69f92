# SPDX-License-Identifier: GPL-2.0
# Cells: the KVM cell runner (linked into the colorguard tool, host and
# guest builds) and the inmates, flat binaries for the guest architecture
# staged into $(GUEST)/cells/, which is the guest's /suites/cells/.

# The runner: common part plus the arch files of the machine it runs on
# (the build machine for the host tool and the package, ARCH for the guest).
CG_RUNNER_HOST_ARCH := $(if $(filter aarch64 arm64,$(shell uname -m)),arm64,x86)
# It gets a cell's channels through root Linux's channel library
# (chan/linux/, read before chan/build.mk is).
CG_RUNNER_SRCS_HOST := $(wildcard cells/runner/*.c) \
	$(wildcard cells/runner/arch/$(CG_RUNNER_HOST_ARCH)*.c) $(wildcard chan/linux/*.c)
CG_RUNNER_SRCS_GUEST := $(wildcard cells/runner/*.c) \
	$(wildcard cells/runner/arch/$(if $(filter arm64,$(ARCH)),arm64,x86)*.c) \
	$(wildcard chan/linux/*.c)
CG_RUNNER_HDRS := $(wildcard cells/runner/*.h cells/runner/arch/*.h) \
	include/colorguard/cell_comm.h include/colorguard/cell_chan.h \
	$(wildcard chan/linux/*.h) include/colorguard/chan_linux.h include/colorguard/chan_keep.h
CG_RUNNER_CFLAGS := -Icells/runner -Iscripts/colorguard -pthread

# Inmates: -ffreestanding -nostdlib, our linker script, objcopy -O binary.
# The channel core (chan/, read before chan/build.mk is) links in whole.
INMATE_LIB := $(wildcard cells/inmates/lib/*.c) \
	$(wildcard cells/inmates/lib/arch/$(if $(filter arm64,$(ARCH)),arm64,x86)/*.[cS]) \
	$(wildcard chan/*.c)
INMATE_HDRS := $(wildcard cells/inmates/lib/*.h) include/colorguard/cell_comm.h \
	include/colorguard/cell_chan.h include/colorguard/chan.h chan/chan_internal.h
INMATE_LDS := cells/inmates/lib/inmate.lds
INMATE_COMMON_CFLAGS := -O2 -g -Wall -Wextra -Werror -std=gnu11 -ffreestanding \
	-nostdlib -static -fno-pic -fno-pie -no-pie -fno-stack-protector \
	-fno-asynchronous-unwind-tables -I$(TOP)/include -Icells/inmates/lib \
	-Wl,-T,$(INMATE_LDS) -Wl,--build-id=none -Wl,-z,norelro -Wl,--no-warn-rwx-segments
ifeq ($(ARCH),arm64)
INMATE_CC := aarch64-linux-gnu-gcc
INMATE_OBJCOPY := aarch64-linux-gnu-objcopy
INMATE_CFLAGS := $(INMATE_COMMON_CFLAGS) -mgeneral-regs-only -mstrict-align
else
INMATE_CC := gcc
INMATE_OBJCOPY := objcopy
INMATE_CFLAGS := $(INMATE_COMMON_CFLAGS) -m64 -mcmodel=small -mno-red-zone \
	-mgeneral-regs-only -Wl,-m,elf_x86_64
endif
INMATE_DEMOS := $(patsubst cells/inmates/demos/%.c,$(GUEST)/cells/%.bin,\
	$(wildcard cells/inmates/demos/*.c))
INMATE_TESTS := $(patsubst selftests/cells/inmates/%.c,$(GUEST)/cells/inmates/%.bin,\
	$(wildcard selftests/cells/inmates/*.c))
INMATES := $(INMATE_DEMOS) $(INMATE_TESTS)

$(GUEST)/cells/%.elf: cells/inmates/demos/%.c $(INMATE_LIB) $(INMATE_HDRS) $(INMATE_LDS)
	@mkdir -p $(dir $@)
	$(INMATE_CC) $(INMATE_CFLAGS) -o $@ $< $(INMATE_LIB)
$(GUEST)/cells/inmates/%.elf: selftests/cells/inmates/%.c $(INMATE_LIB) $(INMATE_HDRS) $(INMATE_LDS)
	@mkdir -p $(dir $@)
	$(INMATE_CC) $(INMATE_CFLAGS) -o $@ $< $(INMATE_LIB)
$(GUEST)/cells/%.bin: $(GUEST)/cells/%.elf
	$(INMATE_OBJCOPY) -O binary $< $@

.PHONY: inmates
inmates: $(INMATES)
.SECONDARY: $(INMATES:.bin=.elf)
guest: inmates
