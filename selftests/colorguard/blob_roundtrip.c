// SPDX-License-Identifier: GPL-2.0
/*
 * compile -> blob -> hv-color's parser, in process: the blob the tool
 * writes for examples/board4.cfg parses back to the cells, masks, regions
 * and budgets written in that file (values typed in here, not derived),
 * passes the system validator, and every truncation or trailing byte is
 * refused.
 */
#include <stdlib.h>
#include <string.h>

#include <colorguard/hv_color.h>

#include "kselftest_harness.h"

#include "colorguard.h"
#include "system_int.h"

static struct cg_system *load(const char *name)
{
	struct cg_diag d = { .file = name, .out = stderr };
	struct cg_config *cfg = calloc(1, sizeof(*cfg));
	struct cg_system *sys = NULL;
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", CG_EXAMPLES, name);
	if (cfg && !cg_config_load(&d, path, cfg))
		sys = cg_system_build(&d, cfg, "/nonexistent");
	free(cfg);
	return sys;
}

static void expect_mask(struct __test_metadata *_metadata,
			const struct hvc_mask *m, const char *list)
{
	char buf[HVC_MASK_LIST_MAX];

	ASSERT_LE(0, hvc_mask_format(m, buf, sizeof(buf)));
	ASSERT_STREQ(list, buf);
}

FIXTURE(board4) {
	struct cg_system *sys;
	void *blob;
	size_t len;
	struct hvc_system *parsed;
};

FIXTURE_SETUP(board4)
{
	self->sys = load("board4.cfg");
	ASSERT_NE(NULL, self->sys);
	ASSERT_EQ(0, cg_hv_sys_blob(self->sys->hv, &self->blob, &self->len));
	self->parsed = calloc(1, sizeof(*self->parsed));
	ASSERT_NE(NULL, self->parsed);
}

FIXTURE_TEARDOWN(board4)
{
	free(self->parsed);
	free(self->blob);
	cg_system_free(self->sys);
}

TEST_F(board4, parses_back_to_the_config)
{
	struct hvc_system *s = self->parsed;
	struct hvc_error err = { 0 };
	const struct hvc_region_desc *r;

	ASSERT_EQ(0, hvc_blob_parse(s, self->blob, self->len, &err));
	/* 2M / 16 ways = 128K per way, 32 colors of 4K */
	EXPECT_EQ(128 * 1024, s->geo.way_size);
	EXPECT_EQ(32, s->geo.nr_colors);
	expect_mask(_metadata, &s->hv_colors, "0-3");
	ASSERT_EQ(3, s->nr_cells);
	ASSERT_EQ(4, s->nr_regions);

	EXPECT_STREQ("linux", s->cells[0].name);
	EXPECT_EQ(HVC_CELL_ROOT, s->cells[0].flags);
	expect_mask(_metadata, &s->cells[0].cpus, "0-1");
	expect_mask(_metadata, &s->cells[0].colors, "8-23");
	EXPECT_EQ(1000, s->cells[0].read_mbps);
	EXPECT_EQ(500, s->cells[0].write_mbps);
	ASSERT_EQ(2, s->cells[0].nr_regions);
	r = &s->regions[s->cells[0].first_region];
	EXPECT_EQ(0x80000000ull, r[0].host_base);
	EXPECT_EQ(1ull << 30, r[0].host_size);
	EXPECT_EQ(512ull << 20, r[0].cell_size);
	EXPECT_EQ(HVC_REGION_COLORED, r[0].flags);
	EXPECT_EQ(0xc0000000ull, r[1].host_base);
	EXPECT_EQ(16ull << 20, r[1].cell_size);
	EXPECT_EQ(0, r[1].flags);

	EXPECT_STREQ("rt", s->cells[1].name);
	EXPECT_EQ(HVC_CELL_CRITICAL, s->cells[1].flags);
	expect_mask(_metadata, &s->cells[1].cpus, "2");
	expect_mask(_metadata, &s->cells[1].colors, "24-31");
	EXPECT_EQ(0, s->cells[1].read_mbps);
	r = &s->regions[s->cells[1].first_region];
	EXPECT_EQ(0x100000000ull, r->host_base);
	EXPECT_EQ(0, r->cell_base);
	/* 64M at 8 of 32 colors needs 256M of host span */
	EXPECT_EQ(256ull << 20, r->host_size);
	EXPECT_EQ(64ull << 20, r->cell_size);

	EXPECT_STREQ("gui", s->cells[2].name);
	EXPECT_EQ(0, s->cells[2].flags);
	expect_mask(_metadata, &s->cells[2].cpus, "3");
	expect_mask(_metadata, &s->cells[2].colors, "4-7");
	EXPECT_EQ(400, s->cells[2].read_mbps);
	EXPECT_EQ(200, s->cells[2].write_mbps);

	EXPECT_EQ(0, hvc_system_validate(s, NULL, 0, NULL));
}

TEST_F(board4, truncations_are_refused)
{
	struct hvc_error err;
	size_t n;

	for (n = 0; n < self->len; n++) {
		memset(&err, 0, sizeof(err));
		ASSERT_NE(0, hvc_blob_parse(self->parsed, self->blob, n, &err))
			TH_LOG("a blob cut to %zu of %zu bytes was accepted",
			       n, self->len);
	}
}

TEST_F(board4, trailing_garbage_is_refused)
{
	unsigned char *longer = malloc(self->len + 1);
	struct hvc_error err = { 0 };

	ASSERT_NE(NULL, longer);
	memcpy(longer, self->blob, self->len);
	longer[self->len] = 0;
	EXPECT_NE(0, hvc_blob_parse(self->parsed, longer, self->len + 1, &err));
	free(longer);
}

TEST(vm2_blob_validates)
{
	struct cg_system *sys = load("vm2.cfg");
	struct hvc_system *s = calloc(1, sizeof(*s));
	void *blob;
	size_t len;

	ASSERT_NE(NULL, sys);
	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, cg_hv_sys_blob(sys->hv, &blob, &len));
	ASSERT_EQ(0, hvc_blob_parse(s, blob, len, NULL));
	EXPECT_EQ(16, s->geo.nr_colors);
	EXPECT_EQ(2, s->nr_cells);
	EXPECT_EQ(0, hvc_system_validate(s, NULL, 0, NULL));
	free(blob);
	free(s);
	cg_system_free(sys);
}

TEST_HARNESS_MAIN
