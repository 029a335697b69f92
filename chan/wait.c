// SPDX-License-Identifier: GPL-2.0
/*
 * Blocking calls, built on the try_* ones and the caller's clock: the
 * core has none, and never waits without a bound unless asked to.
 */
#include "chan_internal.h"

/*
 * After an attempt that found nothing to do: 0 to try again (after a
 * relax), -CHAN_ETIMEDOUT when @timeout has passed since @start.
 */
static int wait_more(const struct chan_wait *wait, chan_u64 start, chan_u64 timeout)
{
	if (timeout != CHAN_FOREVER && wait->now(wait->ctx) - start >= timeout)
		return -CHAN_ETIMEDOUT;
	if (wait->relax)
		wait->relax(wait->ctx);
	return 0;
}

static chan_u64 wait_start(const struct chan_wait *wait, chan_u64 timeout)
{
	return wait && timeout != CHAN_FOREVER ? wait->now(wait->ctx) : 0;
}

int chan_send(struct chan_writer *w, const void *buf, chan_u32 len,
	      const struct chan_wait *wait, chan_u64 timeout)
{
	chan_u64 start = wait_start(wait, timeout);
	int ret;

	while ((ret = chan_try_send(w, buf, len)) == -CHAN_EAGAIN && wait) {
		ret = wait_more(wait, start, timeout);
		if (ret)
			break;
	}
	return ret;
}

int chan_recv_timeout(struct chan_reader *r, void *buf, chan_u32 cap, chan_u32 *len,
		      const struct chan_wait *wait, chan_u64 timeout)
{
	chan_u64 start = wait_start(wait, timeout);
	int ret;

	while ((ret = chan_try_recv(r, buf, cap, len)) == -CHAN_EAGAIN && wait) {
		ret = wait_more(wait, start, timeout);
		if (ret)
			break;
	}
	return ret;
}

int chan_recv(struct chan_reader *r, void *buf, chan_u32 cap, chan_u32 *len,
	      const struct chan_wait *wait)
{
	return chan_recv_timeout(r, buf, cap, len, wait, CHAN_FOREVER);
}
