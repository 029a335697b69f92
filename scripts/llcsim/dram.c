// SPDX-License-Identifier: GPL-2.0
/*
 * llcsim's DRAM queueing term for a closed system.
 *
 * Each vCPU has at most one miss outstanding: the DRAM and its requesters
 * form a closed queueing network (the machine-repairman model), not an
 * open M/M/1 queue fed by independent arrivals. Mean-value analysis gives
 * a request's response at a FCFS server of service time S as
 * S * (1 + the queue the request finds there), and by the arrival theorem
 * that queue is the one the other requesters keep with the arriving one
 * absent: a requester never waits behind itself, and a lone stream does
 * not wait at all. With two requesters that is exact; with more it is
 * Schweitzer's approximation.
 *
 * The service time S is a line's transfer at the configured bandwidth and
 * is part of the fixed DRAM latency; what this adds is the wait,
 * S * sum over the other requesters j of Q_j, where Q_j = X_j * S is the
 * mean number of j's requests (misses and writebacks) at the server, X_j
 * their rate over j's modelled time less its own DRAM waiting (the rate j
 * would draw with the arriving requester gone).
 */
#include <stdint.h>

#include "dram.h"

/*
 * dram_queue_ps() - S * Q of one requester
 * @xfer_ps:  S, one line's transfer time
 * @requests: its misses and writebacks over a span
 * @time_ps:  its modelled time over that span, less its DRAM waiting
 *
 * Return: S times the mean number of its requests at the server, at most
 * S (one request at a time: Q <= 1), 0 for a span of no time.
 */
uint64_t dram_queue_ps(uint64_t xfer_ps, uint64_t requests, uint64_t time_ps)
{
	double q;

	if (!time_ps)
		return 0;
	q = (double)requests * (double)xfer_ps / (double)time_ps;
	if (q > 1.0)
		q = 1.0;
	return (uint64_t)(q * (double)xfer_ps + 0.5);
}

/*
 * dram_wait_ps() - the queueing wait of one request
 * @queue_ps: S * Q_j of each requester (dram_queue_ps())
 * @n:        number of requesters
 * @self:     the requester whose request arrives
 *
 * Return: the sum of the others' S * Q_j.
 */
uint64_t dram_wait_ps(const uint64_t *queue_ps, unsigned int n,
		      unsigned int self)
{
	uint64_t w = 0;

	for (unsigned int j = 0; j < n; j++)
		if (j != self)
			w += __atomic_load_n(&queue_ps[j], __ATOMIC_RELAXED);
	return w;
}
