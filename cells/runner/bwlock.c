// SPDX-License-Identifier: GPL-2.0
/*
 * memguard's bandwidth lock for a cell: the inmate writes a level to the
 * register next to its console once per transition (include/colorguard/
 * cell_comm.h), the runner takes or releases the lock on the cell's own
 * /dev/memguard file. Everything the cell writes is untrusted: a bad
 * request is refused with a reason and changes nothing. The runner's own
 * copy of the state is the truth; the comm region only mirrors it, since
 * the inmate can write there too. At most one acquisition per cell, and
 * none after the cell ends: its file is closed then, which ends every
 * acquisition it had (as it does when the runner dies). A change of
 * level is one MEMGUARD_BWLOCK_SET_LEVEL, so that no period boundary
 * finds the lock free in between (a release then an acquisition left it
 * free for a moment, and a boundary then gave the other CPUs their whole
 * budgets for a period). The cell's limits (bwlock_limit.c) are checked
 * before memguard is asked; the watchdog (bwlock_watch.c) ends a hold
 * that reaches the longest the cell may keep it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <colorguard/memguard.h>

#include "vm_int.h"

#define MEMGUARD_DEV		"/dev/memguard"
/* Lines about the lock printed per run: a flood must not flood the log. */
#define BWLOCK_LINES_MAX	16

void cell_bwlock_init(struct cell_vm *vm, const struct cg_cell *cell)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&vm->bw.lock, NULL);
	/* The watchdog's deadlines are cell_now_ns()'s: the same clock. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&vm->bw.wake, &ca);
	pthread_condattr_destroy(&ca);
	vm->bw.fd = -1;
	vm->bw.allowed = cell->bwlock;
	cell_bwlock_limits_of(cell, &vm->bw.lim);
	vm->bwlock_gpa = vm->console_gpa + CELL_BWLOCK_REG_OFFSET;
}

/* Mirror the runner's state into the comm region; caller holds bw.lock. */
static void publish(struct cell_vm *vm)
{
	const struct cell_comm_bwlock_view b = {
		.level = vm->bw.level,
		.status = vm->bw.status,
		.requests = vm->bw.requests,
		.acquired = vm->bw.acquired,
		.refused = vm->bw.refused,
		.forced = vm->bw.forced,
		.reason = vm->bw.reason,
	};

	cell_comm_put_bwlock(vm, &b);
}

static void say(struct cell_vm *vm, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(struct cell_vm *vm, const char *fmt, ...)
{
	va_list ap;

	if (vm->bw.lines >= BWLOCK_LINES_MAX)
		return;
	pthread_mutex_lock(&vm->lock);
	fprintf(vm->console, "cell %s: bandwidth lock: ", vm->name);
	if (++vm->bw.lines == BWLOCK_LINES_MAX) {
		fprintf(vm->console, "%u messages, the rest of this run's not shown\n",
			BWLOCK_LINES_MAX);
	} else {
		va_start(ap, fmt);
		vfprintf(vm->console, fmt, ap);
		va_end(ap);
		fputc('\n', vm->console);
	}
	fflush(vm->console);
	pthread_mutex_unlock(&vm->lock);
}

/* A new run: nothing held, counters from zero. */
void cell_bwlock_reset(struct cell_vm *vm)
{
	pthread_mutex_lock(&vm->bw.lock);
	vm->bw.ended = 0;
	vm->bw.level = 0;
	vm->bw.status = CELL_BWLOCK_NONE;
	vm->bw.requests = 0;
	vm->bw.acquired = 0;
	vm->bw.refused = 0;
	vm->bw.forced = 0;
	vm->bw.too_soon = 0;
	vm->bw.too_low = 0;
	vm->bw.released = 0;
	vm->bw.lines = 0;
	vm->bw.window_start = 0;
	vm->bw.window_count = 0;
	vm->bw.held_ns = 0;
	vm->bw.reason[0] = '\0';
	publish(vm);
	pthread_mutex_unlock(&vm->bw.lock);
}

static void held_until(struct cell_vm *vm, uint64_t now)
{
	if (vm->bw.level)
		vm->bw.held_ns += now - vm->bw.since;
	vm->bw.level = 0;
}

static void refuse(struct cell_vm *vm, enum cell_bwlock_status st,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse(struct cell_vm *vm, enum cell_bwlock_status st,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(vm->bw.reason, sizeof(vm->bw.reason), fmt, ap);
	va_end(ap);
	vm->bw.status = st;
	vm->bw.refused++;
	say(vm, "request %u refused: %s", vm->bw.requests, vm->bw.reason);
}

static int open_device(struct cell_vm *vm)
{
	if (vm->bw.fd >= 0)
		return 0;
	vm->bw.fd = open(MEMGUARD_DEV, O_RDWR | O_CLOEXEC);
	if (vm->bw.fd >= 0)
		return 0;
	if (errno == ENOENT || errno == ENXIO || errno == ENODEV)
		refuse(vm, CELL_BWLOCK_NO_DEVICE,
		       "no %s (memguard.ko not loaded)", MEMGUARD_DEV);
	else
		refuse(vm, CELL_BWLOCK_NO_DEVICE, "%s: %s", MEMGUARD_DEV,
		       strerror(errno));
	return -1;
}

/*
 * The cell's one acquisition ends: RELEASE, or close if that fails. The
 * gap to the next acquisition runs from now. -ETIMEDOUT: memguard had
 * ended it already (its bwlock_max_hold_ms).
 */
static int release(struct cell_vm *vm, uint64_t now)
{
	int ret = 0;

	if (ioctl(vm->bw.fd, MEMGUARD_BWLOCK_RELEASE)) {
		ret = -errno;
		close(vm->bw.fd);
		vm->bw.fd = -1;
	}
	held_until(vm, now);
	vm->bw.released = now;
	return ret;
}

/* At most CELL_BWLOCK_RATE_MAX acquisitions in a window of a second. */
static int flooding(struct cell_vm *vm, uint64_t now)
{
	if (cell_new_second(&vm->bw.window_start, now))
		vm->bw.window_count = 0;
	return vm->bw.window_count >= CELL_BWLOCK_RATE_MAX;
}

/* One write of the register; caller holds bw.lock. */
static void request(struct cell_vm *vm, unsigned int len, uint32_t level)
{
	struct memguard_bwlock l = { .kind = MEMGUARD_BWLOCK_PERMILLE };
	uint64_t now = cell_now_ns();
	uint32_t old = vm->bw.level;
	enum cell_bwlock_status st;
	char why[CELL_COMM_BWLOCK_REASON_MAX];

	vm->bw.requests++;
	if (len != CELL_BWLOCK_REG_SIZE) {
		refuse(vm, CELL_BWLOCK_BAD_ACCESS,
		       "write of %u bytes: the register takes 32-bit writes",
		       len);
		return;
	}
	if (vm->bw.ended) {
		refuse(vm, CELL_BWLOCK_STOPPING, "the cell is ending");
		return;
	}
	if (!vm->bw.allowed) {
		refuse(vm, CELL_BWLOCK_NOT_ALLOWED,
		       "not allowed: the cell's config lacks bwlock = true");
		return;
	}
	if (level > MEMGUARD_BWLOCK_PERMILLE_MAX) {
		refuse(vm, CELL_BWLOCK_BAD_LEVEL,
		       "level %u: 0 releases, 1..%u acquires", level,
		       MEMGUARD_BWLOCK_PERMILLE_MAX);
		return;
	}
	if (!level) {
		if (!old) {
			refuse(vm, CELL_BWLOCK_NOT_HELD,
			       "release while the cell holds nothing");
			return;
		}
		/* Releases are never rate limited: they only give back. */
		release(vm, now);
		vm->bw.status = CELL_BWLOCK_OK;
		say(vm, "released (held at %u per mille)", old);
		return;
	}
	if (level == old) {
		vm->bw.status = CELL_BWLOCK_OK;	/* nothing to change */
		return;
	}
	st = cell_bwlock_limit_check(&vm->bw.lim, level, old, vm->bw.released,
				     now, why, sizeof(why));
	if (st != CELL_BWLOCK_OK) {
		if (st == CELL_BWLOCK_TOO_SOON)
			vm->bw.too_soon++;
		else
			vm->bw.too_low++;
		refuse(vm, st, "%s", why);
		return;
	}
	if (flooding(vm, now)) {
		refuse(vm, CELL_BWLOCK_FLOOD,
		       "more than %u acquisitions in a second",
		       CELL_BWLOCK_RATE_MAX);
		return;
	}
	if (open_device(vm))
		return;
	vm->bw.window_count++;
	/*
	 * A change replaces the acquisition in place: the cell never nests,
	 * and the lock stays held from the old level to the new one.
	 */
	l.value = level;
	if (old && ioctl(vm->bw.fd, MEMGUARD_BWLOCK_SET_LEVEL, &l)) {
		if (errno == ETIMEDOUT) {
			/* memguard ended the hold: bwlock_max_hold_ms. */
			held_until(vm, now);
			vm->bw.released = now;
			refuse(vm, CELL_BWLOCK_FAILED,
			       "%s: held longer than memguard's bwlock_max_hold_ms, released by memguard",
			       MEMGUARD_DEV);
		} else {
			refuse(vm, CELL_BWLOCK_FAILED, "%s: change to %u: %s",
			       MEMGUARD_DEV, level, strerror(errno));
		}
		return;
	}
	if (old) {
		vm->bw.level = level;
		vm->bw.acquired++;
		vm->bw.status = CELL_BWLOCK_OK;
		say(vm, "level %u per mille (was %u)", level, old);
		return;
	}
	if (ioctl(vm->bw.fd, MEMGUARD_BWLOCK_ACQUIRE, &l)) {
		refuse(vm, CELL_BWLOCK_FAILED, "%s: acquire at %u: %s",
		       MEMGUARD_DEV, level, strerror(errno));
		return;
	}
	vm->bw.since = now;
	vm->bw.level = level;
	vm->bw.acquired++;
	vm->bw.status = CELL_BWLOCK_OK;
	/* A new deadline for the watchdog. */
	pthread_cond_signal(&vm->bw.wake);
	say(vm, "taken at %u per mille", level);
}

void cell_bwlock_expire(struct cell_vm *vm, uint64_t now)
{
	uint32_t old = vm->bw.level;

	if (!old || vm->bw.ended)
		return;
	if (release(vm, now) == -ETIMEDOUT)
		snprintf(vm->bw.reason, sizeof(vm->bw.reason),
			 "ended by memguard's own bwlock_max_hold_ms");
	else
		snprintf(vm->bw.reason, sizeof(vm->bw.reason),
			 "held for bwlock_max_hold_ms (%u ms): released",
			 vm->bw.lim.max_hold_ms);
	vm->bw.forced++;
	vm->bw.status = CELL_BWLOCK_FORCED;
	publish(vm);
	say(vm, "hold %u ended (at %u per mille): %s", vm->bw.forced, old,
	    vm->bw.reason);
}

bool cell_bwlock_exit(struct cell_vcpu *v)
{
	struct kvm_run *run = v->run;
	struct cell_vm *vm = v->vm;
	uint32_t level = 0, refused = 0;

	pthread_mutex_lock(&vm->bw.lock);
	if (!run->mmio.is_write) {
		/* Reads change nothing and are not counted: the level held. */
		memset(run->mmio.data, 0, sizeof(run->mmio.data));
		memcpy(run->mmio.data, &vm->bw.level,
		       run->mmio.len < 4 ? run->mmio.len : 4);
	} else {
		memcpy(&level, run->mmio.data, sizeof(level));
		refused = vm->bw.refused;
		request(vm, run->mmio.len, level);
		refused = vm->bw.refused != refused;
		publish(vm);
	}
	pthread_mutex_unlock(&vm->bw.lock);
	return refused;
}

/*
 * The cell ends (stopped, failed, shut down) or is destroyed: close the
 * file, which ends its acquisition whatever state it is in; refuse every
 * request until the next start.
 */
void cell_bwlock_end(struct cell_vm *vm)
{
	uint32_t old;

	pthread_mutex_lock(&vm->bw.lock);
	vm->bw.ended = 1;
	old = vm->bw.level;
	held_until(vm, cell_now_ns());
	if (vm->bw.fd >= 0) {
		close(vm->bw.fd);
		vm->bw.fd = -1;
	}
	publish(vm);
	if (old)
		say(vm, "released at the cell's end (held at %u per mille)", old);
	pthread_mutex_unlock(&vm->bw.lock);
}

void cell_bwlock_stats(struct cell_vm *vm, struct cell_stats *st)
{
	pthread_mutex_lock(&vm->bw.lock);
	st->bwlock_allowed = vm->bw.allowed;
	st->bwlock_level = vm->bw.level;
	st->bwlock_requests = vm->bw.requests;
	st->bwlock_acquired = vm->bw.acquired;
	st->bwlock_refused = vm->bw.refused;
	st->bwlock_forced = vm->bw.forced;
	st->bwlock_too_soon = vm->bw.too_soon;
	st->bwlock_too_low = vm->bw.too_low;
	st->bwlock_max_hold_ms = vm->bw.lim.max_hold_ms;
	st->bwlock_min_gap_ms = vm->bw.lim.min_gap_ms;
	st->bwlock_min_level = vm->bw.lim.min_level;
	st->bwlock_held_ns = vm->bw.held_ns +
		(vm->bw.level ? cell_now_ns() - vm->bw.since : 0);
	snprintf(st->bwlock_reason, sizeof(st->bwlock_reason), "%s",
		 vm->bw.reason);
	pthread_mutex_unlock(&vm->bw.lock);
}

/* After cell_bwlock_watch_stop(): nobody waits on wake any more. */
void cell_bwlock_destroy(struct cell_vm *vm)
{
	cell_bwlock_end(vm);
	pthread_cond_destroy(&vm->bw.wake);
	pthread_mutex_destroy(&vm->bw.lock);
}
