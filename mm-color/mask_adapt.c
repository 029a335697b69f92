// SPDX-License-Identifier: GPL-2.0
/*
 * Masks from and to userspace's forms: the list syntax goes through
 * hv-color's parser and formatter, bitmaps are copied bit by bit, and
 * mmc_mask_check() holds every mask against the geometry in use.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "mm_color_int.h"

/**
 * mmc_mask_check() - whether a mask names colors of this geometry
 * @mask: a mask from userspace
 *
 * Return: 0, -ENODEV without a geometry, -EINVAL for an empty mask,
 * -ERANGE for a color not below nr_colors.
 */
int mmc_mask_check(const struct mmc_mask *mask)
{
	if (!mmc.have_geo)
		return -ENODEV;
	if (hvc_mask_empty(&mask->m))
		return -EINVAL;
	if (!hvc_mask_fits(&mask->m, mmc.nr_colors))
		return -ERANGE;
	return 0;
}

/**
 * mmc_mask_parse() - a color list from sysfs or the ioctl
 * @buf: the text, NUL-terminated (hv-color accepts one trailing newline)
 * @mask: the result
 * @report: put the reason into last_cmd_status
 *
 * Called with mmc.lock held.
 *
 * Return: 0, -ENODEV without a geometry, -EINVAL for bad syntax or an
 * empty list, -ERANGE for a color not below nr_colors.
 */
int mmc_mask_parse(const char *buf, struct mmc_mask *mask, bool report)
{
	struct hvc_parse_error perr = {};
	size_t len = strlen(buf);
	int err;

	if (!mmc.have_geo) {
		if (report)
			mmc_set_status("list: no cache geometry set");
		return -ENODEV;
	}
	/* Parse against every color hv-color knows: ERANGE is ours to say. */
	err = hvc_mask_parse(&mask->m, buf, len, HVC_MAX_COLORS, &perr);
	if (err) {
		if (report)
			mmc_set_status("list: %s at byte %u", perr.reason ?
				       perr.reason : "malformed", perr.pos);
		return err == -HVC_EINVAL ? -EINVAL : -ERANGE;
	}
	err = mmc_mask_check(mask);
	if (err && report)
		mmc_set_status("list: %s", err == -ERANGE ?
			       "color not below nr_colors" : "empty list");
	return err;
}

/**
 * mmc_mask_from_bits() - a mask from MM_COLOR_SET_BITMAP's words
 * @bits: bitmap words, 64 colors each
 * @nbits: the bits given
 * @mask: the result
 *
 * Called with mmc.lock held.
 *
 * Return: as mmc_mask_check() for the result.
 */
int mmc_mask_from_bits(const u64 *bits, u32 nbits, struct mmc_mask *mask)
{
	u32 c;

	hvc_mask_zero(&mask->m);
	for (c = 0; c < nbits; c++)
		if (bits[c / 64] & (1ULL << (c % 64)))
			hvc_mask_set(&mask->m, c);
	return mmc_mask_check(mask);
}

/**
 * mmc_mask_to_bits() - a mask as bitmap words for MM_COLOR_GET_BITMAP
 * @mask: the mask
 * @bits: room for DIV_ROUND_UP(@nbits, 64) words
 * @nbits: the bits to write
 *
 * Return: 0.
 */
int mmc_mask_to_bits(const struct mmc_mask *mask, u64 *bits, u32 nbits)
{
	u32 c;

	if (!hvc_mask_fits(&mask->m, nbits))
		return -ERANGE;	/* a color at or above nbits */
	memset(bits, 0, DIV_ROUND_UP(nbits, 64) * sizeof(u64));
	for (c = 0; c < nbits; c++)
		if (hvc_mask_test(&mask->m, c))
			bits[c / 64] |= 1ULL << (c % 64);
	return 0;
}

/**
 * mmc_mask_weight() - colors in a mask
 * @mask: the mask
 *
 * Return: the number of colors.
 */
u32 mmc_mask_weight(const struct mmc_mask *mask)
{
	return hvc_mask_weight(&mask->m);
}

/**
 * mmc_mask_format() - a mask as its shortest list, for sysfs
 * @mask: the mask
 * @buf: the text
 * @size: bytes of @buf
 *
 * Return: the length, 0 if @buf is too small.
 */
int mmc_mask_format(const struct mmc_mask *mask, char *buf, size_t size)
{
	int n = hvc_mask_format(&mask->m, buf, size);

	return n < 0 ? 0 : n;
}
