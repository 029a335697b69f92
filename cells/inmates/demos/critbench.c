// SPDX-License-Identifier: GPL-2.0
/*
 * critbench as an inmate: the critical workload of the demo. A pointer
 * chase over a working set (args ws=SIZE, default 256K: a share of the
 * LLC) in a random cyclic order of cache lines, then a stream (read and
 * write, stream=SIZE, default 1M) over the cell's RAM above the image.
 * rounds=N repeats both; accesses=N is the steps of each chase round
 * (default or 0: every line four times). bwlock=PERMILLE holds
 * memguard's bandwidth lock at that level around the measured rounds (the
 * cell's config must allow it: bwlock = true). llc_window=ID (1..1000)
 * makes each measured chase round a window of the shared-LLC model
 * (scripts/llcsim/); the warm-up and the streams stay outside. Results,
 * per access, go to the comm region in hundredths of a cycle of the
 * counter named by cycles_name() (arm64 PMCCNTR, x86 TSC): nothing is
 * printed per round, exits are expensive.
 */
#include <colorguard/llcsim.h>

#include "inmate.h"

#define LINE	64

int inmate_main(void)
{
	uint64_t ws = arg_u64("ws", 256 << 10);
	uint64_t stream = arg_u64("stream", 1 << 20);
	uint64_t rounds = arg_u64("rounds", 3);
	uint64_t bwlock = arg_u64("bwlock", 0);
	uint64_t llc_window = arg_u64("llc_window", 0);
	uint64_t steps = arg_u64("accesses", 0);
	uintptr_t heap = (uintptr_t)__image_end;
	uint64_t end = comm->ram_base + comm->ram_size;
	uint64_t lines, accesses, best_chase = ~0ull, best_stream = ~0ull;
	uint64_t r, t0, t1, sum = 0, sink = 0;
	volatile uint64_t *s;
	uintptr_t *buf;

	if (llc_window > 1000) {
		iprintf("critbench: llc_window=%llu out of range (1..1000)\n",
			(unsigned long long)llc_window);
		return 1;
	}
	if (ws < LINE * 2 || stream < LINE || rounds == 0 ||
	    (uint64_t)heap + ws + stream > end) {
		iprintf("critbench: ws=%llu stream=%llu do not fit the %llu bytes above the image\n",
			(unsigned long long)ws, (unsigned long long)stream,
			(unsigned long long)(end - heap));
		return 1;
	}
	lines = ws / LINE;
	accesses = steps ? steps : lines * 4;
	buf = (uintptr_t *)heap;
	s = (volatile uint64_t *)(uintptr_t)(heap + ws);
	chase_build(buf, lines);
	iprintf("critbench: chase %llu KiB (%llu lines), stream %llu KiB, %llu rounds, counter %s\n",
		(unsigned long long)(ws >> 10), (unsigned long long)lines,
		(unsigned long long)(stream >> 10), (unsigned long long)rounds,
		cycles_name());
	sink += chase_run(buf, lines);		/* warm up */
	if (bwlock) {
		int st = bwlock_acquire(bwlock);

		result_set("bwlock_status", st);
		result_set("bwlock_level", comm->bwlock_level);
		if (st)
			iprintf("critbench: bandwidth lock at %llu refused: %s\n",
				(unsigned long long)bwlock,
				(const char *)comm->bwlock_reason);
	}
	for (r = 0; r < rounds; r++) {
		if (llc_window)
			llcsim_window_start(llc_window);
		t0 = cycles();
		sink += chase_run(buf, accesses);
		t1 = cycles();
		if (llc_window)
			llcsim_window_end();
		if (t1 - t0 < best_chase)
			best_chase = t1 - t0;
		t0 = cycles();
		sum = stream_rw(s, stream, sum);
		t1 = cycles();
		if (t1 - t0 < best_stream)
			best_stream = t1 - t0;
	}
	if (bwlock && comm->bwlock_level)
		result_set("bwlock_release", bwlock_release());
	result_set("ws_bytes", ws);
	result_set("chase_accesses", accesses);
	result_set("chase_cycles", best_chase);
	result_set("chase_cyc_x100", best_chase * 100 / accesses);
	result_set("stream_bytes", stream);
	result_set("stream_cyc_x100", best_stream * 100 / (stream / LINE));
	result_set("rounds", rounds);
	result_set("sink", (sink ^ sum) & 1);
	iprintf("critbench: %llu.%02llu cycles per chase access, %llu.%02llu per stream line (best of %llu)\n",
		(unsigned long long)(best_chase * 100 / accesses / 100),
		(unsigned long long)(best_chase * 100 / accesses % 100),
		(unsigned long long)(best_stream * 100 / (stream / LINE) / 100),
		(unsigned long long)(best_stream * 100 / (stream / LINE) % 100),
		(unsigned long long)rounds);
	return 0;
}
