// SPDX-License-Identifier: GPL-2.0
/*
 * The cell's console: bytes from the console register, a line per vCPU,
 * shown as "[cell] line" with the inmate's text escaped. An inmate must
 * not flood root Linux: at most CELL_CONSOLE_LINES_PER_S lines a second
 * are shown and the rest counted ("N lines dropped"), and a log file
 * (the supervisor's /run/colorguard/<cell>/log, in RAM) is rotated to
 * log.1 once it reaches CELL_CONSOLE_LOG_MAX bytes, so the two files
 * never hold much more than twice that. With the config's
 * console_output = false every line is dropped without a word.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm_int.h"

/* Rename the full log to log.1 and go on in a new one; caller holds lock. */
static void rotate(struct cell_vm *vm)
{
	struct cell_console *con = &vm->con;
	int out = fileno(vm->console), fd;
	char old[sizeof(con->log_path) + 2];
	struct stat st, err;

	if (!con->log_path[0] || fstat(out, &st) ||
	    st.st_size < CELL_CONSOLE_LOG_MAX)
		return;
	snprintf(old, sizeof(old), "%s.1", con->log_path);
	if (rename(con->log_path, old))
		return;
	fd = open(con->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
		  O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	/* stderr too, when it is the same log (the supervisor's). */
	if (!fstat(STDERR_FILENO, &err) && err.st_ino == st.st_ino &&
	    err.st_dev == st.st_dev)
		dup2(fd, STDERR_FILENO);
	dup2(fd, out);
	close(fd);
	fprintf(vm->console, "cell %s: console: log rotated at %u bytes, the older lines are in %s\n",
		vm->name, CELL_CONSOLE_LOG_MAX, old);
}

/* Say how many lines were dropped; caller holds lock. */
static void report_dropped(struct cell_vm *vm)
{
	struct cell_console *con = &vm->con;

	if (!con->dropped)
		return;
	fprintf(vm->console, "cell %s: console: %llu lines dropped (more than %u lines a second)\n",
		vm->name, (unsigned long long)con->dropped,
		CELL_CONSOLE_LINES_PER_S);
	con->dropped = 0;
}

static void show_line(struct cell_vm *vm, const char *line, size_t len)
{
	struct cell_console *con = &vm->con;
	char text[CELL_TEXT_ESCAPED(CELL_CONSOLE_LINE_MAX)];
	uint64_t now = cell_now_ns();

	pthread_mutex_lock(&vm->lock);
	con->lines++;
	if (con->off)
		goto out;
	if (cell_new_second(&con->window_start, now))
		con->window_lines = 0;
	if (con->window_lines >= CELL_CONSOLE_LINES_PER_S) {
		con->dropped++;
		con->dropped_total++;
		goto out;
	}
	con->window_lines++;
	report_dropped(vm);
	cell_text_escape(text, sizeof(text), line, len);
	fprintf(vm->console, "[%s] %s\n", vm->name, text);
	fflush(vm->console);
	rotate(vm);
out:
	pthread_mutex_unlock(&vm->lock);
}

void cell_console_byte(struct cell_vcpu *v, char ch)
{
	if (ch == '\r')
		return;
	if (ch != '\n') {
		if (v->line_len < sizeof(v->line))
			v->line[v->line_len++] = ch;
		if (v->line_len < sizeof(v->line))
			return;
	}
	show_line(v->vm, v->line, v->line_len);
	v->line_len = 0;
}

void cell_console_end(struct cell_vm *vm)
{
	pthread_mutex_lock(&vm->lock);
	report_dropped(vm);
	fflush(vm->console);
	pthread_mutex_unlock(&vm->lock);
}

void cell_console_reset(struct cell_vm *vm)
{
	pthread_mutex_lock(&vm->lock);
	vm->con.window_start = 0;
	vm->con.window_lines = 0;
	vm->con.dropped = 0;
	vm->con.dropped_total = 0;
	vm->con.lines = 0;
	pthread_mutex_unlock(&vm->lock);
}
