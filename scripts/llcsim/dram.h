/* SPDX-License-Identifier: GPL-2.0 */
/*
 * llcsim's DRAM queueing term, free of QEMU and glib so that a host test
 * (selftests/llc-model/host/test_dram.c) can check it on its own.
 */
#ifndef LLCSIM_DRAM_H
#define LLCSIM_DRAM_H

#include <stdint.h>

uint64_t dram_queue_ps(uint64_t xfer_ps, uint64_t requests, uint64_t time_ps);
uint64_t dram_wait_ps(const uint64_t *queue_ps, unsigned int n,
		      unsigned int self);

#endif
