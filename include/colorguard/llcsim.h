/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Marker instructions of the llcsim shared-LLC model (scripts/llcsim/, a
 * QEMU TCG plugin). They are architectural no-ops on hardware and in QEMU
 * without the plugin; with it, each one opens or closes a measurement
 * window of the vCPU that executes it. Freestanding: usable by Linux
 * programs (critbench) and by cell inmates alike.
 *
 *   llcsim_window_start(id)  open window id (0..; id NAME markers, then START)
 *   llcsim_window_end()      close it: its counters go to the plugin's TSV
 *
 * One encoding per meaning (the plugin cannot read registers):
 *   arm64: unallocated hints, NOPs: hint #0x7d START, #0x7e END, #0x7f NAME
 *   x86:   nopw 0x4c4c43NN(%rax,%rax,1) (66 0f 1f 84 00 NN 43 4c 4c, "LLC"
 *          in the displacement), NN = 01 START, 02 END, 03 NAME
 */
#ifndef _COLORGUARD_LLCSIM_H
#define _COLORGUARD_LLCSIM_H

#define LLCSIM_START	1
#define LLCSIM_END	2
#define LLCSIM_NAME	3

#define LLCSIM_A64_HINT(m)	(0x7c + (m))
#define LLCSIM_A64_INSN(imm)	(0xd503201fu | ((unsigned int)(imm) << 5))
#define LLCSIM_X86_DISP(m)	(0x4c4c4300u + (m))

/* Each marker is one instruction; "memory" keeps accesses on their side. */
static inline void llcsim_mark_start(void)
{
#if defined(__aarch64__)
	__asm__ volatile("hint #0x7d" ::: "memory");
#elif defined(__x86_64__)
	__asm__ volatile("nopw 0x4c4c4301(%%rax,%%rax,1)" ::: "memory");
#endif
}

static inline void llcsim_mark_end(void)
{
#if defined(__aarch64__)
	__asm__ volatile("hint #0x7e" ::: "memory");
#elif defined(__x86_64__)
	__asm__ volatile("nopw 0x4c4c4302(%%rax,%%rax,1)" ::: "memory");
#endif
}

static inline void llcsim_mark_name(void)
{
#if defined(__aarch64__)
	__asm__ volatile("hint #0x7f" ::: "memory");
#elif defined(__x86_64__)
	__asm__ volatile("nopw 0x4c4c4303(%%rax,%%rax,1)" ::: "memory");
#endif
}

static inline void llcsim_window_start(unsigned int id)
{
	while (id--)
		llcsim_mark_name();
	llcsim_mark_start();
}

static inline void llcsim_window_end(void)
{
	llcsim_mark_end();
}

#endif /* _COLORGUARD_LLCSIM_H */
