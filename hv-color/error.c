// SPDX-License-Identifier: GPL-2.0
/*
 * hv-color: the errors of the blob parser and the system validator, as
 * struct hvc_error and as one line of text.
 */
#include "hvc_internal.h"

/* A printable copy of a name; "" for one without its NUL */
void hvc_name_copy(char *dst, const char *src)
{
	hvc_u32 i;

	for (i = 0; i < HVC_NAME_LEN && src[i]; i++)
		dst[i] = (src[i] >= ' ' && src[i] <= '~') ? src[i] : '?';
	dst[i < HVC_NAME_LEN ? i : 0] = '\0';
}

/* Fills e, if any, without names or other cell; returns code */
int hvc_error_fill(struct hvc_error *e, int code, int cell, int region,
		   hvc_u32 offset, const char *field, const char *msg)
{
	if (e) {
		e->code = code;
		e->cell = cell;
		e->region = region;
		e->other_cell = -1;
		e->offset = offset;
		e->field = field;
		e->msg = msg;
		e->cell_name[0] = '\0';
		e->other_name[0] = '\0';
	}
	return code;
}

static void sb_cell(struct hvc_sbuf *b, int cell, const char *name)
{
	hvc_sb_num(b, "cell ", (hvc_u32)cell);
	if (name[0]) {
		hvc_sb_str(b, " '");
		hvc_sb_str(b, name);
		hvc_sb_str(b, "'");
	}
}

int hvc_error_format(const struct hvc_error *e, char *buf, hvc_size size)
{
	struct hvc_sbuf b = { .buf = buf, .size = size };

	if (e->cell >= 0) {
		sb_cell(&b, e->cell, e->cell_name);
		hvc_sb_str(&b, " ");
	}
	if (e->region >= 0) {
		hvc_sb_num(&b, "region ", (hvc_u32)e->region);
		hvc_sb_str(&b, " ");
	}
	hvc_sb_str(&b, e->field ? e->field : "?");
	hvc_sb_str(&b, ": ");
	hvc_sb_str(&b, e->msg ? e->msg : "?");
	if (e->other_cell >= 0) {
		hvc_sb_str(&b, " (");
		sb_cell(&b, e->other_cell, e->other_name);
		hvc_sb_str(&b, ")");
	}
	if (e->offset)
		hvc_sb_num(&b, " at byte ", e->offset);
	return hvc_sb_end(&b);
}
