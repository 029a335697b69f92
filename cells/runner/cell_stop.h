/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stop signals of the commands that hold a claim (`cell run`,
 * `cell exec`, a cell's supervisor): SIGINT, SIGTERM and SIGHUP. They are
 * blocked from before the claim until everything is given back, so that
 * none cuts a step of the claim or of its release in half; the command
 * takes them where it can act on them: no handler, no flag to poll.
 * Threads made after cell_stop_block() (the vCPUs) inherit the block. A
 * signal ignored when the command starts (nohup; a background job of a
 * shell without job control ignores SIGINT) stays ignored.
 */
#ifndef COLORGUARD_CELL_STOP_H
#define COLORGUARD_CELL_STOP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct cell_vm;

/* The stop signals, as the first call found them. */
void cell_stop_set(sigset_t *set);
/* Block them in the calling thread; the mask before in *old (if not NULL). */
void cell_stop_block(sigset_t *old);
/* A stop signal pending, taken; 0 when none. Never waits. */
int cell_stop_take(void);
/* "SIGINT", "SIGTERM", "SIGHUP" or "signal N". */
const char *cell_stop_name(int sig, char *buf, size_t len);

/*
 * cell_vm_wait() that a stop signal ends too: a thread takes the signals
 * and wakes this one, which fails the cell ("stopped by SIGTERM") and
 * joins its vCPUs itself; *sig is then the signal, else 0. The watchdog
 * timeout (timeout_ms, 0: none) is the thread's too; -ETIMEDOUT as
 * cell_vm_wait().
 */
int cell_stop_wait(struct cell_vm *vm, unsigned int timeout_ms, int *sig);

#endif
