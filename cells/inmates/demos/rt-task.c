// SPDX-License-Identifier: GPL-2.0
/*
 * rt-task: a periodic real-time task whose job is the critical workload
 * (periodic.c, workload.c): each period (period_us=, default 1000) for
 * jobs= jobs (default 1000) it chases accesses= steps (default: every
 * line once) through a random cycle over ws= bytes (default 64K: a share
 * of the LLC), then streams over stream= bytes (default 16K). spin_us=
 * adds that much busy time to each job (an overrun on purpose).
 * llc_window=ID (1..1000) makes each job a window of the shared-LLC model
 * (scripts/llcsim/: its modelled time is the job's, where guest time is
 * TCG's); bwlock=PERMILLE holds the bandwidth lock over all jobs
 * (bwlock_acquire(); results bwlock_status, 0 when served, and
 * bwlock_forced, the runner's forced releases). publish=NAME publishes
 * each job's number and execution time on the cell's state channel NAME
 * as a line of text ("job 7 exec_ns 5120"), which a root Linux reader
 * shows with `colorguard chan cat`. Results,
 * written once at the end (no exit per job): jobs, period_ns,
 * deadline_ns (the period), misses (jobs that ended after it), early;
 * release-to-start latency lat_min_ns, lat_mean_ns, lat_max_ns;
 * execution exec_min_ns, exec_mean_ns and wcet_ns (the longest seen);
 * response (release to end) resp_min_ns, resp_mean_ns, resp_max_ns and
 * jitter_ns (max - min); rate_mhz (jobs started per second, by the
 * inmate's clock); ws_bytes, stream_bytes, chase_accesses.
 */
#include <colorguard/llcsim.h>

#include "inmate.h"
#include "inmate_chan.h"

#define LINE	64

struct rt_job {
	uintptr_t *chase;
	volatile uint64_t *stream;
	uint64_t accesses, stream_bytes, spin_ticks, sink;
	unsigned int llc_window;	/* 0: no model window */
	struct cell_chan *out;		/* publish=: the state channel, or NULL */
	uint64_t published, publish_errors;
};

/* Append v in decimal at p; the end of what was written. */
static char *put_dec(char *p, uint64_t v)
{
	char d[20];
	int n = 0;

	do {
		d[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	while (n)
		*p++ = d[--n];
	return p;
}

static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

/* After the job: its number and execution time, a line for a reader. */
static void publish(struct rt_job *j, uint32_t n, uint64_t exec_ticks)
{
	char line[64], *p = line;

	p = put_str(p, "job ");
	p = put_dec(p, n);
	p = put_str(p, " exec_ns ");
	p = put_dec(p, ticks_to_ns(exec_ticks));
	if (cell_chan_publish(j->out, line, p - line))
		j->publish_errors++;
	else
		j->published++;
}

static void rt_job(uint32_t n, void *arg)
{
	struct rt_job *j = arg;
	uint64_t start = ticks();

	if (j->llc_window)
		llcsim_window_start(j->llc_window);
	j->sink += chase_run(j->chase, j->accesses);
	j->sink = stream_rw(j->stream, j->stream_bytes, j->sink);
	while (j->spin_ticks && ticks() - start < j->spin_ticks)
		;
	if (j->llc_window)
		llcsim_window_end();
	if (j->out)
		publish(j, n, ticks() - start);
}

int inmate_main(void)
{
	uint64_t period_us = arg_u64("period_us", 1000);
	uint64_t jobs = arg_u64("jobs", 1000);
	uint64_t ws = arg_u64("ws", 64 << 10);
	uint64_t stream = arg_u64("stream", 16 << 10);
	uint64_t spin_us = arg_u64("spin_us", 0);
	uint64_t llc_window = arg_u64("llc_window", 0);
	uint64_t bwlock = arg_u64("bwlock", 0);
	int bwlock_status = 0;
	uintptr_t heap = (uintptr_t)__image_end;
	uint64_t end = comm->ram_base + comm->ram_size;
	struct rt_job j = { 0 };
	struct periodic_task t = { 0 };
	struct periodic_stats st;
	static struct cell_chan out;
	char name[CELL_CHAN_NAME_MAX];

	if (!period_us || period_us > 10000000 || !jobs || jobs > 1000000 ||
	    ws < LINE * 2 || stream < LINE || spin_us > 10000000 ||
	    llc_window > 1000 || bwlock > 1000)
		inmate_fault(1, 0, 0, 0,
			     "period_us, jobs, ws, stream, spin_us, llc_window or bwlock out of range");
	if ((uint64_t)heap + ws + stream > end)
		inmate_fault(1, 0, 0, 0, "ws + stream do not fit the RAM above the image");
	if (timer_init(0))
		inmate_fault(2, 0, 0, 0, "no local timer (or no tick rate)");
	j.chase = (uintptr_t *)heap;
	j.stream = (volatile uint64_t *)(heap + ws);
	j.accesses = arg_u64("accesses", ws / LINE);
	j.stream_bytes = stream;
	j.spin_ticks = ns_to_ticks(spin_us * 1000);
	j.llc_window = llc_window;
	chase_build(j.chase, ws / LINE);
	if (!arg_str("publish", name, sizeof(name))) {
		if (cell_chan_open(&out, name) || out.role != CELL_CHAN_WRITER ||
		    out.g.kind != CHAN_KIND_STATE || out.g.max_record < 64)
			inmate_fault(5, 0, 0, 0,
				     "publish= names no state channel this cell writes (64 B values)");
		j.out = &out;
	}
	iprintf("rt-task: %llu jobs every %llu us, chase %llu KiB x %llu, stream %llu KiB, %s timer, %s\n",
		(unsigned long long)jobs, (unsigned long long)period_us,
		(unsigned long long)(ws >> 10), (unsigned long long)j.accesses,
		(unsigned long long)(stream >> 10), timer_mode(), irq_chip());
	t.period_ns = period_us * 1000;
	t.jobs = jobs;
	t.job = rt_job;
	t.arg = &j;
	if (bwlock) {
		bwlock_status = bwlock_acquire(bwlock);
		if (bwlock_status < 0)
			inmate_fault(4, 0, 0, 0, "bwlock= in a cell without bwlock = true");
	}
	/*
	 * Warm up both buffers after the last exit before the jobs (the
	 * console line, the lock): a first job that fetches its buffers
	 * from DRAM, or finds them evicted by the host's exit path, would
	 * be the observed WCET of every run (under the LLC model, solo,
	 * 1.9-2.7x the steady state's).
	 */
	j.sink += chase_run(j.chase, ws / LINE);
	j.sink = stream_rw(j.stream, stream, j.sink);
	if (periodic_run(&t, &st))
		inmate_fault(3, 0, 0, 0, "the periodic timer did not start");
	if (bwlock && !bwlock_status)
		bwlock_release();
	periodic_report(&st);
	if (bwlock) {
		result_set("bwlock_status", bwlock_status);
		result_set("bwlock_forced", comm->bwlock_forced);
	}
	if (j.out) {
		result_set("published", j.published);
		result_set("publish_errors", j.publish_errors);
	}
	result_set("ws_bytes", ws);
	result_set("stream_bytes", stream);
	result_set("chase_accesses", j.accesses);
	result_set("sink", j.sink & 1);
	return 0;
}
