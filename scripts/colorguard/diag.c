// SPDX-License-Identifier: GPL-2.0
/* Error messages in the one format: CONFIG:LINE: cell "name": field: reason */
#include <stdarg.h>

#include "colorguard.h"

void cg_err(struct cg_diag *d, unsigned int line, const char *cell,
	    const char *field, const char *fmt, ...)
{
	va_list ap;

	d->errors++;
	if (!d->out)
		return;
	if (line)
		fprintf(d->out, "%s:%u: ", d->file, line);
	else
		fprintf(d->out, "%s: ", d->file);
	if (cell)
		fprintf(d->out, "%s: ", cell);
	if (field)
		fprintf(d->out, "%s: ", field);
	va_start(ap, fmt);
	vfprintf(d->out, fmt, ap);
	va_end(ap);
	fputc('\n', d->out);
}
