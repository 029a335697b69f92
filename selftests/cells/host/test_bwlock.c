// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of a cell's limits on the bandwidth lock (cells/runner/
 * bwlock.c, bwlock_limit.c, bwlock_watch.c) on a VM built by hand: no
 * KVM, no memguard. A hold is made by hand on /dev/null, whose ioctls
 * fail, which the runner takes as the end of the hold; a request that
 * passes the limits reaches /dev/memguard and, on the build machine,
 * is refused for want of it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vm_int.h"
#include "kselftest_harness.h"

#define MS	1000000ull

static unsigned char page[CELL_COMM_SIZE] __attribute__((aligned(4096)));

/* One 32-bit write of the register by vCPU 0; true if refused. */
static bool bw_write(struct cell_vm *vm, uint32_t level)
{
	struct kvm_run *run = vm->vcpus[0].run;

	memset(run, 0, sizeof(*run));
	run->exit_reason = KVM_EXIT_MMIO;
	run->mmio.phys_addr = vm->bwlock_gpa;
	run->mmio.is_write = 1;
	run->mmio.len = 4;
	memcpy(run->mmio.data, &level, sizeof(level));
	return cell_bwlock_exit(&vm->vcpus[0]);
}

/* A hold as a served acquisition leaves it, on a file whose ioctls fail. */
static void fake_hold(struct cell_vm *vm, uint32_t level)
{
	pthread_mutex_lock(&vm->bw.lock);
	vm->bw.fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	vm->bw.level = level;
	vm->bw.since = cell_now_ns();
	pthread_cond_signal(&vm->bw.wake);
	pthread_mutex_unlock(&vm->bw.lock);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000l };

	nanosleep(&ts, NULL);
}

FIXTURE(bw) {
	struct cell_vm *vm;
	FILE *log;
};

FIXTURE_VARIANT(bw) {
	bool defaults;		/* no limit keys in the config */
};

FIXTURE_VARIANT_ADD(bw, configured) { .defaults = false };
FIXTURE_VARIANT_ADD(bw, defaults) { .defaults = true };

FIXTURE_SETUP(bw)
{
	struct cg_cell cell = { .bwlock = true };
	struct cell_vm *vm = calloc(1, sizeof(*vm));

	ASSERT_NE(NULL, vm);
	if (!variant->defaults) {
		cell.bwlock_max_hold_ms = (struct cg_u64){ 60, 1 };
		cell.bwlock_min_gap_ms = (struct cg_u64){ 300, 1 };
		cell.bwlock_min_level = (struct cg_u64){ 200, 1 };
	}
	self->vm = vm;
	self->log = tmpfile();
	ASSERT_NE(NULL, self->log);
	snprintf(vm->name, sizeof(vm->name), "rt");
	vm->console = self->log;
	memset(page, 0, sizeof(page));
	vm->comm = (volatile struct cell_comm *)page;
	vm->console_gpa = 0xf0000000ull;
	vm->nr_slots = 1;
	vm->slots[0].size = 1 << 20;
	vm->nr_vcpus = 1;
	vm->vcpus[0].vm = vm;
	vm->vcpus[0].run = calloc(1, sizeof(struct kvm_run));
	ASSERT_NE(NULL, vm->vcpus[0].run);
	pthread_mutex_init(&vm->lock, NULL);
	pthread_cond_init(&vm->cond, NULL);
	cell_bwlock_init(vm, &cell);
	cell_comm_reset(vm);
	cell_bwlock_reset(vm);
	ASSERT_EQ(0, cell_bwlock_watch_start(vm, NULL, 0));
}

FIXTURE_TEARDOWN(bw)
{
	cell_bwlock_watch_stop(self->vm);
	cell_bwlock_destroy(self->vm);
	fclose(self->log);
	pthread_mutex_destroy(&self->vm->lock);
	pthread_cond_destroy(&self->vm->cond);
	free(self->vm->vcpus[0].run);
	free(self->vm);
}

/* The limits reach the comm region: the config's, else limits.h's. */
TEST_F(bw, published)
{
	volatile struct cell_comm *c = self->vm->comm;

	EXPECT_EQ(variant->defaults ? CG_CELL_BWLOCK_HOLD_MS_DEFAULT : 60,
		  c->bwlock_max_hold_ms);
	EXPECT_EQ(variant->defaults ? CG_CELL_BWLOCK_GAP_MS_DEFAULT : 300,
		  c->bwlock_min_gap_ms);
	EXPECT_EQ(variant->defaults ? CG_CELL_BWLOCK_LEVEL_DEFAULT : 200,
		  c->bwlock_min_level);
	EXPECT_EQ(0, c->bwlock_forced);
}

/* Below the floor: refused with a reason, for a change of level too. */
TEST_F(bw, too_low)
{
	struct cell_vm *vm = self->vm;
	uint32_t floor = vm->bw.lim.min_level;
	struct cell_stats st;
	char want[64];

	EXPECT_TRUE(bw_write(vm, 1));
	EXPECT_EQ(CELL_BWLOCK_TOO_LOW, vm->comm->bwlock_status);
	snprintf(want, sizeof(want),
		 "level 1: the cell's bwlock_min_level is %u", floor);
	EXPECT_STREQ(want, (const char *)vm->comm->bwlock_reason);
	EXPECT_TRUE(bw_write(vm, floor - 1));
	EXPECT_EQ(CELL_BWLOCK_TOO_LOW, vm->comm->bwlock_status);
	/* At the floor the limits let it through, to memguard. */
	bw_write(vm, floor);
	EXPECT_NE(CELL_BWLOCK_TOO_LOW, vm->comm->bwlock_status);
	fake_hold(vm, floor);
	EXPECT_TRUE(bw_write(vm, floor - 1));
	EXPECT_EQ(CELL_BWLOCK_TOO_LOW, vm->comm->bwlock_status);
	EXPECT_EQ(floor, vm->comm->bwlock_level);
	cell_bwlock_stats(vm, &st);
	EXPECT_EQ(3, st.bwlock_too_low);
	EXPECT_EQ(0, st.bwlock_too_soon);
}

/* An acquisition within the gap after a release is refused; after, not. */
TEST_F(bw, too_soon)
{
	struct cell_vm *vm = self->vm;
	uint32_t level = vm->bw.lim.min_level;
	uint64_t gap = vm->bw.lim.min_gap_ms * MS;
	struct cell_stats st;

	fake_hold(vm, level);
	EXPECT_FALSE(bw_write(vm, 0));	/* the inmate's release */
	EXPECT_EQ(0, vm->comm->bwlock_level);
	EXPECT_TRUE(bw_write(vm, level));
	EXPECT_EQ(CELL_BWLOCK_TOO_SOON, vm->comm->bwlock_status);
	EXPECT_NE(NULL, strstr((const char *)vm->comm->bwlock_reason,
			       " ms ago: bwlock_min_gap_ms is "));
	/* As if the gap had passed: on to memguard. */
	vm->bw.released = cell_now_ns() - gap - 1;
	bw_write(vm, level);
	EXPECT_NE(CELL_BWLOCK_TOO_SOON, vm->comm->bwlock_status);
	cell_bwlock_stats(vm, &st);
	EXPECT_EQ(1, st.bwlock_too_soon);
}

/*
 * A hold the inmate never ends: the watchdog ends it at max_hold_ms,
 * not before, and says so in the comm region; the gap runs from then.
 */
TEST_F(bw, forced_release)
{
	struct cell_vm *vm = self->vm;
	uint64_t hold = vm->bw.lim.max_hold_ms * MS, t0, t, since;
	uint32_t level = vm->bw.lim.min_level, held;
	struct cell_stats st;
	char line[256], want[64];
	bool said = false;

	fake_hold(vm, level);
	since = vm->bw.since;
	t0 = cell_now_ns();
	sleep_ms(10);
	pthread_mutex_lock(&vm->bw.lock);
	t = cell_now_ns();
	held = vm->bw.level;
	pthread_mutex_unlock(&vm->bw.lock);
	if (t - since < hold)
		EXPECT_EQ(level, held);
	while (!vm->comm->bwlock_forced && cell_now_ns() - t0 < 5000 * MS)
		sleep_ms(1);
	t = cell_now_ns();
	EXPECT_EQ(0, vm->comm->bwlock_level);
	EXPECT_GE(t - since, hold);
	EXPECT_LT(t - since, hold + 2000 * MS);
	EXPECT_EQ(CELL_BWLOCK_FORCED, vm->comm->bwlock_status);
	EXPECT_EQ(1, vm->comm->bwlock_forced);
	snprintf(want, sizeof(want),
		 "held for bwlock_max_hold_ms (%u ms): released",
		 vm->bw.lim.max_hold_ms);
	EXPECT_STREQ(want, (const char *)vm->comm->bwlock_reason);
	cell_bwlock_stats(vm, &st);
	EXPECT_EQ(1, st.bwlock_forced);
	EXPECT_EQ(0, st.bwlock_level);
	EXPECT_STREQ(want, st.bwlock_reason);
	/* Taking it again at once is too soon. */
	EXPECT_TRUE(bw_write(vm, level));
	EXPECT_EQ(CELL_BWLOCK_TOO_SOON, vm->comm->bwlock_status);
	EXPECT_EQ(1, vm->comm->bwlock_forced);
	/* The log says it once. */
	rewind(self->log);
	while (fgets(line, sizeof(line), self->log))
		if (strstr(line, "cell rt: bandwidth lock: hold 1 ended"))
			said = true;
	EXPECT_TRUE(said);
}

/* The cell's end stops the watchdog's business: nothing to force. */
TEST_F(bw, end_while_held)
{
	struct cell_vm *vm = self->vm;

	fake_hold(vm, vm->bw.lim.min_level);
	cell_bwlock_end(vm);
	sleep_ms(vm->bw.lim.max_hold_ms + 50);
	EXPECT_EQ(0, vm->comm->bwlock_level);
	EXPECT_EQ(0, vm->comm->bwlock_forced);
	EXPECT_EQ(0, vm->bw.forced);
}

TEST_HARNESS_MAIN
