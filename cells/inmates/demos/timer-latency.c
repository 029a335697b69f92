// SPDX-License-Identifier: GPL-2.0
/*
 * timer-latency: a periodic local timer at hz= (default 1000) for
 * samples= ticks (default 1000, at most 32768); per tick the latency is
 * ticks() when the interrupt's handling began minus the deadline it was
 * armed for. vCPU 0 halts between ticks (in the kernel, no exit).
 * timer=oneshot uses the count-down (x86: the LAPIC's, arm64: CNTV_TVAL)
 * instead of the deadline (TSC-deadline mode, CNTV_CVAL).
 * Results, written once at the end (no exit per sample):
 *   count, period_ns, tick_khz (the rate of ticks(): the TSC, CNTVCT),
 *   mode (1 deadline, 2 one-shot), x2apic (x86 only);
 *   lat_min_ns, lat_mean_ns, lat_p99_ns, lat_max_ns;
 *   missed: ticks armed when their deadline had passed already (a late
 *   handler; they fire at once, none is dropped);
 *   lost: deadlines that never reached the handler (the one after the
 *   last seen was not last + period); early: handled before the deadline
 *   (latency 0; KVM may fire its LAPIC timer up to its timer advance
 *   early), early_max_ns by how much at most;
 *   rate_mhz: ticks per second in mHz, measured with ticks() from the
 *   first handler to the last;
 *   lat_log2_K: ticks with a latency in [2^K, 2^(K+1)) ns (K 0: < 2 ns).
 */
#include "inmate.h"

#define MAX_SAMPLES	32768

static uint32_t lat[MAX_SAMPLES];	/* ticks(), saturated */
static volatile uint32_t n;
static uint32_t want;
static uint64_t period, prev, first, last, lost, early, early_max;

static void tick(uint64_t deadline, uint64_t now)
{
	uint64_t d;

	if (n >= want)
		return;
	if (n && deadline != prev + period)
		lost += deadline > prev ? (deadline - prev) / period - 1 : 1;
	prev = deadline;
	if (now < deadline) {
		early++;
		if (deadline - now > early_max)
			early_max = deadline - now;
		d = 0;
	} else {
		d = now - deadline;
	}
	if (!n)
		first = now;
	last = now;
	lat[n] = d > 0xffffffffull ? 0xffffffffu : d;
	n = n + 1;
	if (n == want)
		timer_stop();
}

/* Heapsort: no libc, and it is done once after the run. */
static void sift(uint32_t *a, uint32_t i, uint32_t len)
{
	for (;;) {
		uint32_t c = 2 * i + 1, t;

		if (c >= len)
			return;
		if (c + 1 < len && a[c + 1] > a[c])
			c++;
		if (a[i] >= a[c])
			return;
		t = a[i];
		a[i] = a[c];
		a[c] = t;
		i = c;
	}
}

static void sort(uint32_t *a, uint32_t len)
{
	uint32_t i, t;

	for (i = len / 2; i-- > 0;)
		sift(a, i, len);
	for (i = len; i-- > 1;) {
		t = a[0];
		a[0] = a[i];
		a[i] = t;
		sift(a, 0, i);
	}
}

static unsigned int log2_of(uint64_t v)
{
	unsigned int k = 0;

	while (v >>= 1)
		k++;
	return k;
}

int inmate_main(void)
{
	uint64_t hz = arg_u64("hz", 1000), sum = 0;
	uint32_t hist[64] = { 0 };
	char mode[16] = "", name[CELL_COMM_NAME_MAX];
	unsigned int i, k;

	want = arg_u64("samples", 1000);
	if (!want || want > MAX_SAMPLES || !hz || hz > 1000000)
		inmate_fault(1, 0, 0, 0, "samples= or hz= out of range");
	arg_str("timer", mode, sizeof(mode));
	if (timer_init(strncmp(mode, "oneshot", 8) ? 0 : TIMER_ONESHOT))
		inmate_fault(2, 0, 0, 0, "no local timer (or no tick rate)");
	period = ns_to_ticks(1000000000ull / hz);
	iprintf("timer-latency: %u ticks at %llu Hz, %s timer, %s\n", want,
		(unsigned long long)hz, timer_mode(), irq_chip());
	irq_disable();
	if (timer_start(1000000000ull / hz, tick))
		inmate_fault(3, 0, 0, 0, "timer_start failed");
	while (n < want)
		wait_for_interrupt();
	timer_stop();

	sort(lat, want);
	for (i = 0; i < want; i++) {
		uint64_t ns = ticks_to_ns(lat[i]);

		sum += ns;
		hist[ns ? log2_of(ns) : 0]++;
	}
	result_set("count", n);
	result_set("period_ns", ticks_to_ns(period));
	result_set("tick_khz", tick_hz() / 1000);
	result_set("mode", timer_mode()[0] == 'o' ? 2 : 1);
#if defined(__x86_64__)
	result_set("x2apic", apic_x2());
#endif
	result_set("lat_min_ns", ticks_to_ns(lat[0]));
	result_set("lat_mean_ns", sum / want);
	result_set("lat_p99_ns", ticks_to_ns(lat[(want * 99 + 99) / 100 - 1]));
	result_set("lat_max_ns", ticks_to_ns(lat[want - 1]));
	result_set("missed", timer_missed());
	result_set("lost", lost);
	result_set("early", early);
	result_set("early_max_ns", ticks_to_ns(early_max));
	result_set("rate_mhz", want > 1 && last > first ?
		   (uint64_t)(want - 1) * 1000ull * tick_hz() /
		   (last - first) : 0);
	for (k = 0; k < 64; k++) {
		if (!hist[k])
			continue;
		name[0] = '\0';
		memcpy(name, "lat_log2_", 9);
		name[9] = '0' + k / 10;
		name[10] = '0' + k % 10;
		name[11] = '\0';
		result_set(name, hist[k]);
	}
	return 0;
}
