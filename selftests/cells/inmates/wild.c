// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile test inmate: one access of a random width and direction
 * (seed=S) to a random guest address between 256 MiB and 2 GiB, which is
 * none of the cell's RAM, comm page or device registers in the cells
 * suite's configs; what=port (x86 only): a port access to a random port.
 */
#include "inmate.h"

static uint64_t rnd;

static uint64_t next(void)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 7;
	rnd ^= rnd << 17;
	return rnd;
}

int inmate_main(void)
{
	uintptr_t addr;
	char what[16] = "mmio";
	unsigned int op;

	rnd = arg_u64("seed", 1) * 0x9e3779b97f4a7c15ull | 1;
	arg_str("what", what, sizeof(what));
	op = next() & 7;
#if !defined(__aarch64__)
	if (!strncmp(what, "port", 5)) {
		uint16_t port = next();

		iprintf("port %s 0x%x\n", op & 1 ? "in" : "out", port);
		if (op & 1) {
			uint8_t v;

			asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
		} else {
			asm volatile("outb %0, %1" :: "a"((uint8_t)op), "Nd"(port));
		}
		return 0;
	}
#endif
	addr = 0x10000000 + (next() % 0x70000000);
	addr &= ~7ul;
	iprintf("%s of %u bytes at %p\n", op & 1 ? "read" : "write",
		1u << (op >> 1), (void *)addr);
	if (op & 1) {
		switch (op >> 1) {
		case 0:
			return *(volatile uint8_t *)addr == 1;
		case 1:
			return *(volatile uint16_t *)addr == 1;
		case 2:
			return *(volatile uint32_t *)addr == 1;
		default:
			return *(volatile uint64_t *)addr == 1;
		}
	}
	switch (op >> 1) {
	case 0:
		*(volatile uint8_t *)addr = 1;
		break;
	case 1:
		*(volatile uint16_t *)addr = 1;
		break;
	case 2:
		*(volatile uint32_t *)addr = 1;
		break;
	default:
		*(volatile uint64_t *)addr = 1;
		break;
	}
	return 0;
}
