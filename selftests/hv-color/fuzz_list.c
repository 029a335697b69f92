// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the list parser. Any input either fails with a known
 * code and a position inside it, or parses to a mask that formats and
 * parses back to itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <colorguard/hv_color.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned int widths[] = { 1024, 64, 8, 1 };
	char buf[HVC_MASK_LIST_MAX];
	struct hvc_parse_error e;
	struct hvc_mask m, back;
	unsigned int i;
	int ret, n;

	for (i = 0; i < ARRAY_SIZE(widths); i++) {
		memset(&e, 0, sizeof(e));
		hvc_mask_zero(&m);
		hvc_mask_set(&m, 5);
		back = m;
		ret = hvc_mask_parse(&m, (const char *)data, size, widths[i], &e);
		if (ret) {
			if (ret != -HVC_EINVAL && ret != -HVC_ERANGE &&
			    ret != -HVC_EOVERFLOW)
				abort();
			if (e.code != ret || e.pos > size || !e.reason)
				abort();
			if (!hvc_mask_equal(&m, &back))
				abort();	/* changed on error */
			continue;
		}
		if (!hvc_mask_fits(&m, widths[i]))
			abort();
		n = hvc_mask_format(&m, buf, sizeof(buf));
		if (n < 0 || (size_t)n != strlen(buf))
			abort();
		if (hvc_mask_parse(&back, buf, n, widths[i], NULL) ||
		    !hvc_mask_equal(&m, &back))
			abort();
	}
	return 0;
}
