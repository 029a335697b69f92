// SPDX-License-Identifier: GPL-2.0
/*
 * mm-color's mask adapters on the host: mm-color/mask_adapt.c and
 * state.c, compiled against a shim of the kernel headers they include
 * (shim/linux/), with hv-color's parser behind them. What sysfs and the
 * ioctls accept and reject, the errno each rejection gives and the
 * last_cmd_status it leaves, without a VM.
 */
#include <stdio.h>
#include <string.h>

#include "mm_color_int.h"
#include "kselftest_harness.h"

/* A 16-color geometry, as the engine would have set it (geometry.c). */
static void geometry16(void)
{
	memset(&mmc.geo, 0, sizeof(mmc.geo));
	mmc.have_geo = true;
	mmc.nr_colors = 16;
	mmc_set_status("ok");
}

static int parse(const char *s, struct mmc_mask *m)
{
	return mmc_mask_parse(s, m, true);
}

static const char *format(const struct mmc_mask *m)
{
	static char buf[64];

	buf[mmc_mask_format(m, buf, sizeof(buf) - 1)] = '\0';
	return buf;
}

TEST(parse_accepts)
{
	struct mmc_mask m;

	geometry16();
	ASSERT_EQ(0, parse("0-3,8", &m));
	EXPECT_EQ(5, mmc_mask_weight(&m));
	EXPECT_STREQ("0-3,8", format(&m));
	/* one trailing newline, as echo writes it */
	ASSERT_EQ(0, parse("15\n", &m));
	EXPECT_STREQ("15", format(&m));
	ASSERT_EQ(0, parse("0-15", &m));
	EXPECT_EQ(16, mmc_mask_weight(&m));
	ASSERT_EQ(0, parse("8,9,10,11,12,13,14,15", &m));
	EXPECT_STREQ("8-15", format(&m));
	/* success leaves last_cmd_status to the caller */
	EXPECT_STREQ("ok", mmc.status);
}

TEST(parse_rejects_syntax)
{
	static const char *const bad[] = {
		"a", "-1", "3-1", "1-", "0x1", "1;2", "1\n2", "0-3,8\nx", "all",
		"1 - 3", "^1",
	};
	struct mmc_mask m;
	unsigned int i;

	geometry16();
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		mmc_set_status("ok");
		EXPECT_EQ(-EINVAL, parse(bad[i], &m)) TH_LOG("'%s'", bad[i]);
		EXPECT_EQ(0, strncmp(mmc.status, "list: ", 6))
			TH_LOG("'%s': %s", bad[i], mmc.status);
		EXPECT_NE(NULL, strstr(mmc.status, " at byte ")) TH_LOG("%s", mmc.status);
	}
	/* an empty list is no mask */
	EXPECT_EQ(-EINVAL, parse("", &m));
	EXPECT_EQ(0, strncmp(mmc.status, "list: ", 6));
}

TEST(parse_rejects_range)
{
	struct mmc_mask m;

	geometry16();
	/* hv-color knows the color, this geometry does not */
	EXPECT_EQ(-ERANGE, parse("16", &m));
	EXPECT_STREQ("list: color not below nr_colors", mmc.status);
	EXPECT_EQ(-ERANGE, parse("0-16", &m));
	EXPECT_EQ(-ERANGE, parse("3,1023", &m));
	/* beyond every geometry: hv-color's parser says so, with the byte */
	mmc_set_status("ok");
	EXPECT_EQ(-ERANGE, parse("1024", &m));
	EXPECT_NE(NULL, strstr(mmc.status, " at byte 0")) TH_LOG("%s", mmc.status);
	EXPECT_EQ(-ERANGE, parse("4294967296", &m));
}

TEST(parse_without_geometry)
{
	struct mmc_mask m;

	geometry16();
	mmc.have_geo = false;
	EXPECT_EQ(-ENODEV, parse("0", &m));
	EXPECT_STREQ("list: no cache geometry set", mmc.status);
}

TEST(parse_quiet)
{
	struct mmc_mask m;

	geometry16();
	EXPECT_EQ(-EINVAL, mmc_mask_parse("x", &m, false));
	EXPECT_EQ(-ERANGE, mmc_mask_parse("16", &m, false));
	mmc.have_geo = false;
	EXPECT_EQ(-ENODEV, mmc_mask_parse("1", &m, false));
	/* the ioctl's parse does not touch last_cmd_status */
	EXPECT_STREQ("ok", mmc.status);
}

TEST(check)
{
	struct mmc_mask m;

	geometry16();
	hvc_mask_zero(&m.m);
	EXPECT_EQ(-EINVAL, mmc_mask_check(&m));
	hvc_mask_set(&m.m, 15);
	EXPECT_EQ(0, mmc_mask_check(&m));
	hvc_mask_set(&m.m, 16);
	EXPECT_EQ(-ERANGE, mmc_mask_check(&m));
	mmc.have_geo = false;
	EXPECT_EQ(-ENODEV, mmc_mask_check(&m));
}

TEST(from_bits)
{
	u64 bits[MM_COLOR_MAX_COLORS / 64] = { 0x810f };
	struct mmc_mask m;

	geometry16();
	ASSERT_EQ(0, mmc_mask_from_bits(bits, 64, &m));
	EXPECT_STREQ("0-3,8,15", format(&m));
	/* only the bits given count */
	ASSERT_EQ(0, mmc_mask_from_bits(bits, 9, &m));
	EXPECT_STREQ("0-3,8", format(&m));
	EXPECT_EQ(-EINVAL, mmc_mask_from_bits(bits, 0, &m));
	bits[0] = 0;
	EXPECT_EQ(-EINVAL, mmc_mask_from_bits(bits, 64, &m));
	bits[0] = 1ULL << 16;
	EXPECT_EQ(-ERANGE, mmc_mask_from_bits(bits, 64, &m));
	bits[0] = 0;
	bits[15] = 1ULL << 63;
	EXPECT_EQ(-ERANGE, mmc_mask_from_bits(bits, 1024, &m));
	mmc.have_geo = false;
	bits[0] = 1;
	EXPECT_EQ(-ENODEV, mmc_mask_from_bits(bits, 64, &m));
}

TEST(to_bits)
{
	u64 bits[2] = { ~0ULL, ~0ULL }, back[2];
	struct mmc_mask m, again;

	geometry16();
	ASSERT_EQ(0, parse("0-3,8", &m));
	ASSERT_EQ(0, mmc_mask_to_bits(&m, bits, 16));
	EXPECT_EQ(0x10fULL, bits[0]);
	EXPECT_EQ(~0ULL, bits[1]);	/* one word for 16 bits */
	ASSERT_EQ(0, mmc_mask_to_bits(&m, back, 128));
	EXPECT_EQ(0x10fULL, back[0]);
	EXPECT_EQ(0ULL, back[1]);
	ASSERT_EQ(0, mmc_mask_from_bits(back, 128, &again));
	EXPECT_STREQ("0-3,8", format(&again));
	/* a color at or above nbits cannot be told */
	EXPECT_EQ(-ERANGE, mmc_mask_to_bits(&m, bits, 8));
}

TEST(format_short_buffer)
{
	char buf[4] = "xyz";
	struct mmc_mask m;

	geometry16();
	ASSERT_EQ(0, parse("0-3,8,10-11", &m));
	EXPECT_EQ(0, mmc_mask_format(&m, buf, sizeof(buf)));
}

TEST_HARNESS_MAIN
