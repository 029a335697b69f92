// SPDX-License-Identifier: GPL-2.0
/* The inmate library's common part: comm region, console, args, results. */
#include "inmate.h"

#include "../../cell_comm_check.h"

volatile struct cell_comm *comm;
static volatile uint8_t *console;
static volatile uint32_t *bwlock_reg;

void *memset(void *s, int c, size_t n)
{
	volatile unsigned char *p = s;	/* no call back into memset */

	while (n--)
		*p++ = c;
	return s;
}

void *memcpy(void *d, const void *s, size_t n)
{
	volatile unsigned char *dp = d;
	const unsigned char *sp = s;

	while (n--)
		*dp++ = *sp++;
	return d;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			break;
	}
	return 0;
}

void console_putc(char c)
{
	if (console)
		*console = c;
}

void console_puts(const char *s)
{
	while (*s)
		console_putc(*s++);
}

static void put_u64(uint64_t v, unsigned int base, int width, char pad)
{
	char buf[24];
	int n = 0;

	do {
		unsigned int d = v % base;

		buf[n++] = d < 10 ? '0' + d : 'a' + d - 10;
		v /= base;
	} while (v);
	while (n < width--)
		console_putc(pad);
	while (n)
		console_putc(buf[--n]);
}

/* %s %c %d %u %x %p with l/ll and a zero-padded width. */
void iprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		int lng = 0, width = 0;
		char pad = ' ';
		uint64_t u;
		int64_t s;

		if (*fmt != '%') {
			console_putc(*fmt);
			continue;
		}
		fmt++;
		if (*fmt == '0')
			pad = '0';
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + *fmt++ - '0';
		while (*fmt == 'l') {
			lng++;
			fmt++;
		}
		switch (*fmt) {
		case 's':
			console_puts(va_arg(ap, const char *));
			break;
		case 'c':
			console_putc(va_arg(ap, int));
			break;
		case 'd':
			s = lng > 1 ? va_arg(ap, long long) :
			    lng ? va_arg(ap, long) : va_arg(ap, int);
			if (s < 0) {
				console_putc('-');
				s = -s;
			}
			put_u64(s, 10, width, pad);
			break;
		case 'u':
		case 'x':
			u = lng > 1 ? va_arg(ap, unsigned long long) :
			    lng ? va_arg(ap, unsigned long) :
			    va_arg(ap, unsigned int);
			put_u64(u, *fmt == 'x' ? 16 : 10, width, pad);
			break;
		case 'p':
			console_puts("0x");
			put_u64((uintptr_t)va_arg(ap, void *), 16, 0, ' ');
			break;
		case '%':
			console_putc('%');
			break;
		default:
			console_putc('?');
			break;
		}
	}
	va_end(ap);
}

/* Find "name=" at the start of a word of the argument string. */
static const char *arg_find(const char *name)
{
	const char *a = (const char *)comm->args;
	size_t n = strlen(name);
	size_t i;

	for (i = 0; i < CELL_COMM_ARGS_MAX && a[i]; i++) {
		if ((i == 0 || a[i - 1] == ' ') && !strncmp(a + i, name, n) &&
		    a[i + n] == '=')
			return a + i + n + 1;
	}
	return NULL;
}

int arg_str(const char *name, char *buf, size_t len)
{
	const char *v = arg_find(name);
	size_t i = 0;

	if (!v || !len)
		return -1;
	while (v[i] && v[i] != ' ' && i + 1 < len) {
		buf[i] = v[i];
		i++;
	}
	buf[i] = '\0';
	return 0;
}

uint64_t arg_u64(const char *name, uint64_t def)
{
	const char *v = arg_find(name);
	unsigned int base = 10;
	uint64_t x = 0;

	if (!v || !*v || *v == ' ')
		return def;
	if (v[0] == '0' && v[1] == 'x') {
		base = 16;
		v += 2;
	}
	for (; *v && *v != ' '; v++) {
		unsigned int d;

		if (*v >= '0' && *v <= '9')
			d = *v - '0';
		else if (base == 16 && *v >= 'a' && *v <= 'f')
			d = *v - 'a' + 10;
		else
			break;
		x = x * base + d;
	}
	switch (*v) {
	case 'K':
		x <<= 10;
		break;
	case 'M':
		x <<= 20;
		break;
	case 'G':
		x <<= 30;
		break;
	}
	return x;
}

int result_set(const char *name, uint64_t value)
{
	volatile struct cell_comm_result *r;
	uint32_t i, n = comm->results_count;
	size_t len = strlen(name);

	if (len >= CELL_COMM_NAME_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		if (!strncmp((const char *)comm->results[i].name, name,
			     CELL_COMM_NAME_MAX)) {
			comm->results[i].value = value;
			return 0;
		}
	}
	if (n >= CELL_COMM_RESULTS_MAX)
		return -1;
	r = &comm->results[n];
	memset((void *)r->name, 0, CELL_COMM_NAME_MAX);
	memcpy((void *)r->name, name, len);
	r->value = value;
	mb();			/* the entry before the count that shows it */
	comm->results_count = n + 1;
	return 0;
}

/* The runner serves the write before the next instruction runs. */
static int bwlock_write(uint32_t level)
{
	if (!bwlock_reg)
		return -1;
	mb();		/* the inmate's writes before the transition */
	*bwlock_reg = level;
	mb();		/* the runner's outcome after it */
	return comm->bwlock_status == CELL_BWLOCK_OK ? 0 :
	       (int)comm->bwlock_status;
}

int bwlock_acquire(uint32_t permille)
{
	return bwlock_write(permille);
}

int bwlock_release(void)
{
	return bwlock_write(0);
}

int shutdown_requested(void)
{
	return comm->msg_to_cell == CELL_MSG_SHUTDOWN_REQUEST;
}

void shutdown_reply(int accept)
{
	comm->msg_to_cell = CELL_MSG_NONE;
	mb();		/* the request taken before the reply that ends it */
	comm->reply_from_cell = accept ? CELL_REPLY_SHUTDOWN_OK :
					 CELL_REPLY_SHUTDOWN_DENIED;
	mb();		/* the reply out before whatever the cell does next */
}

static int use_pmu;

uint64_t cycles(void)
{
	return use_pmu ? arch_cycles() : arch_ticks();
}

uint64_t ticks(void)
{
	return arch_ticks();
}

uint64_t tick_hz(void)
{
	return arch_tick_hz();
}

const char *cycles_name(void)
{
#if defined(__aarch64__)
	return use_pmu ? "PMCCNTR" : "CNTVCT";
#else
	return "TSC";
#endif
}

void inmate_exit(void)
{
	/* Done unless failed: the x86 runner then stops on any vCPU's hlt. */
	if (comm && comm->inmate_state != CELL_INMATE_FAILED)
		comm->inmate_state = CELL_INMATE_DONE;
	mb();		/* the final state visible before the vCPU stops */
	arch_stop();
}

/* x86: the GS base of vCPU n points at entry n (this_cpu reads %gs:0). */
const uint32_t inmate_cpu_ids[INMATE_MAX_CPUS] = { 0, 1, 2, 3, 4, 5, 6, 7 };

/*
 * What smp_start_cpu() gives each secondary: in .data, not in the bss
 * that vCPU 0 clears while the x86 secondaries already poll it.
 */
static void (*volatile smp_entry[INMATE_MAX_CPUS])(void)
	__attribute__((section(".data")));

int smp_start_cpu(unsigned int cpu, void (*entry)(void))
{
	if (!cpu || cpu >= comm->nr_cpus || cpu >= INMATE_MAX_CPUS ||
	    smp_entry[cpu] || !entry)
		return -1;
	smp_entry[cpu] = entry;
	mb();			/* everything vCPU 0 wrote before the entry */
	if (arch_smp_start(cpu)) {
		smp_entry[cpu] = NULL;
		return -1;
	}
	return 0;
}

/* Called by the entry code of vCPUs 1.., on their own stack. */
void inmate_secondary(uintptr_t cpu);
void inmate_secondary(uintptr_t cpu)
{
	void (*entry)(void);

	while (!(entry = smp_entry[cpu]))
		arch_smp_wait();
	mb();			/* pairs with smp_start_cpu()'s */
	arch_secondary_init();
	entry();
	arch_cpu_off();
}

void inmate_fault(uint64_t code, uint64_t addr, uint64_t pc, uint64_t extra,
		  const char *reason)
{
	size_t n = strlen(reason);

	if (n >= sizeof(comm->fault_reason))
		n = sizeof(comm->fault_reason) - 1;
	comm->fault_info[0] = code;
	comm->fault_info[1] = addr;
	comm->fault_info[2] = pc;
	comm->fault_info[3] = extra;
	memcpy((void *)comm->fault_reason, reason, n);
	comm->fault_reason[n] = '\0';
	comm->fault_cpu = this_cpu;
	mb();		/* the fault's details before the state that shows them */
	comm->inmate_state = CELL_INMATE_FAILED;
	iprintf("FAULT on vCPU %u: %s (code 0x%llx addr 0x%llx pc 0x%llx)\n",
		this_cpu, reason, (unsigned long long)code,
		(unsigned long long)addr, (unsigned long long)pc);
	inmate_exit();
}

/* Called by the entry code of vCPU 0, stack set, MMU on (arm64). */
void inmate_start(uintptr_t comm_addr, uintptr_t cpu);
void inmate_start(uintptr_t comm_addr, uintptr_t cpu)
{
	volatile struct cell_comm *c = (volatile struct cell_comm *)comm_addr;
	int ret;

	(void)cpu;		/* 0: this_cpu reads it from the entry's setup */
	memset(__bss_start, 0, __bss_end - __bss_start);
	/* Nothing is trusted before signature and revision match. */
	if (strncmp((const char *)c->signature, CELL_COMM_SIGNATURE, 8) ||
	    c->revision != CELL_COMM_REVISION)
		arch_stop();
	comm = c;
	/* A console that is off costs an exit a byte for nothing. */
	if (!(c->flags & CELL_COMM_F_NO_CONSOLE))
		console = (volatile uint8_t *)(uintptr_t)c->console;
	bwlock_reg = (volatile uint32_t *)(uintptr_t)c->bwlock_reg;
	use_pmu = !!(c->flags & CELL_COMM_F_PMU);
	arch_init();
	c->inmate_state = CELL_INMATE_STARTED;
	mb();		/* started before anything inmate_main() writes */
	ret = inmate_main();
	if (ret)
		inmate_fault(ret, 0, 0, 0, "inmate_main returned an error");
	c->inmate_state = CELL_INMATE_DONE;
	inmate_exit();
}
