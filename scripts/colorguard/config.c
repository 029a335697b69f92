// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a system config with libconfig into struct cg_config. Only the
 * shape is checked here (known keys, types, number ranges, lengths); the
 * color and system rules are hv-color's and run later.
 */
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "colorguard.h"

struct ctx {
	struct cg_diag *d;
	const char *label;	/* cell label or NULL */
	char field[96];		/* e.g. "memory[1].size" */
};

static unsigned int line_of(const config_setting_t *s)
{
	return config_setting_source_line(s);
}

static const char *type_name(int type)
{
	switch (type) {
	case CONFIG_TYPE_GROUP:
		return "a group { }";
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		return "an integer";
	case CONFIG_TYPE_FLOAT:
		return "a floating-point number";
	case CONFIG_TYPE_STRING:
		return "a string";
	case CONFIG_TYPE_BOOL:
		return "a boolean";
	case CONFIG_TYPE_ARRAY:
		return "an array [ ]";
	case CONFIG_TYPE_LIST:
		return "a list ( )";
	}
	return "an unknown value";
}

static void set_field(struct ctx *c, const char *prefix, const char *name)
{
	if (prefix && *prefix)
		snprintf(c->field, sizeof(c->field), "%s.%s", prefix, name);
	else
		snprintf(c->field, sizeof(c->field), "%s", name);
}

static void wrong_type(struct ctx *c, const config_setting_t *s,
		       const char *want)
{
	cg_err(c->d, line_of(s), c->label, c->field, "expected %s, got %s",
	       want, type_name(config_setting_type(s)));
}

/* Every member of a group must be one of the known keys. */
static void check_keys(struct ctx *c, const config_setting_t *group,
		       const char *prefix, const char *const *known)
{
	int i, n = config_setting_length(group);

	for (i = 0; i < n; i++) {
		const config_setting_t *m = config_setting_get_elem(group, i);
		const char *name = config_setting_name(m);
		const char *const *k;

		for (k = known; *k; k++)
			if (!strcmp(*k, name))
				break;
		if (*k)
			continue;
		set_field(c, prefix, name);
		cg_err(c->d, line_of(m), c->label, c->field, "unknown key");
	}
}

/* An unsigned number: integer literal, or a string with optional unit. */
static void get_u64(struct ctx *c, const config_setting_t *group,
		    const char *prefix, const char *name, uint64_t min,
		    uint64_t max, struct cg_u64 *out)
{
	const config_setting_t *s = config_setting_get_member(group, name);
	const char *why;
	long long ll;
	uint64_t v;

	if (!s)
		return;
	set_field(c, prefix, name);
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		ll = config_setting_get_int64(s);
		if (ll < 0) {
			cg_err(c->d, line_of(s), c->label, c->field,
			       "must not be negative");
			return;
		}
		v = ll;
		break;
	case CONFIG_TYPE_STRING:
		if (cg_parse_u64(config_setting_get_string(s), &v, &why)) {
			cg_err(c->d, line_of(s), c->label, c->field, "%s", why);
			return;
		}
		break;
	default:
		wrong_type(c, s, "an integer or a string like \"64M\"");
		return;
	}
	if (v < min || v > max) {
		cg_err(c->d, line_of(s), c->label, c->field,
		       "%llu out of range (%llu to %llu)",
		       (unsigned long long)v, (unsigned long long)min,
		       (unsigned long long)max);
		return;
	}
	out->v = v;
	out->line = line_of(s);
}

static void get_str(struct ctx *c, const config_setting_t *group,
		    const char *prefix, const char *name, struct cg_str *out)
{
	const config_setting_t *s = config_setting_get_member(group, name);
	const char *v;

	if (!s)
		return;
	set_field(c, prefix, name);
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		wrong_type(c, s, "a string");
		return;
	}
	v = config_setting_get_string(s);
	if (strlen(v) > CG_LIST_MAX) {
		cg_err(c->d, line_of(s), c->label, c->field,
		       "longer than %u characters", CG_LIST_MAX);
		return;
	}
	strcpy(out->s, v);
	out->line = line_of(s);
}

static void get_bool(struct ctx *c, const config_setting_t *group,
		     const char *prefix, const char *name, bool *out,
		     unsigned int *line)
{
	const config_setting_t *s = config_setting_get_member(group, name);

	if (!s)
		return;
	set_field(c, prefix, name);
	if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
		wrong_type(c, s, "true or false");
		return;
	}
	*out = config_setting_get_bool(s);
	*line = line_of(s);
}

static const config_setting_t *get_group(struct ctx *c,
					 const config_setting_t *parent,
					 const char *prefix, const char *name)
{
	const config_setting_t *s = config_setting_get_member(parent, name);

	if (!s)
		return NULL;
	set_field(c, prefix, name);
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		wrong_type(c, s, "a group { }");
		return NULL;
	}
	return s;
}

static void missing(struct ctx *c, unsigned int line, const char *prefix,
		    const char *name)
{
	set_field(c, prefix, name);
	cg_err(c->d, line, c->label, c->field, "missing");
}

static const char *const llc_keys[] = {
	"size", "ways", "line_size", "sets", "way_size", "pages_per_color", NULL
};

static void read_llc(struct ctx *c, const config_setting_t *root,
		     struct cg_llc *llc)
{
	const config_setting_t *g = get_group(c, root, NULL, "llc");

	if (!g)
		return;
	llc->line = line_of(g);
	check_keys(c, g, "llc", llc_keys);
	get_u64(c, g, "llc", "size", 1, 1ull << 40, &llc->size);
	get_u64(c, g, "llc", "ways", 1, 1024, &llc->ways);
	get_u64(c, g, "llc", "line_size", CG_LINE_SIZE_MIN, CG_LINE_SIZE_MAX,
		&llc->line_size);
	get_u64(c, g, "llc", "sets", 1, 1ull << 32, &llc->sets);
	get_u64(c, g, "llc", "way_size", 1, 1ull << 40, &llc->way_size);
	get_u64(c, g, "llc", "pages_per_color", 1, 1024, &llc->pages_per_color);
}

static const char *const region_keys[] = {
	"phys", "virt", "size", "span", "colored", NULL
};

static void read_region(struct ctx *c, const config_setting_t *s,
			unsigned int idx, struct cg_region *r)
{
	char prefix[32];

	snprintf(prefix, sizeof(prefix), "memory[%u]", idx);
	r->line = line_of(s);
	r->colored = true;
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		snprintf(c->field, sizeof(c->field), "%s", prefix);
		wrong_type(c, s, "a group { }");
		return;
	}
	check_keys(c, s, prefix, region_keys);
	get_u64(c, s, prefix, "phys", 0, UINT64_MAX, &r->phys);
	get_u64(c, s, prefix, "virt", 0, UINT64_MAX, &r->virt);
	get_u64(c, s, prefix, "size", 1, UINT64_MAX, &r->size);
	get_u64(c, s, prefix, "span", 1, UINT64_MAX, &r->span);
	get_bool(c, s, prefix, "colored", &r->colored, &r->colored_line);
	if (!config_setting_get_member(s, "phys"))
		missing(c, r->line, prefix, "phys");
	if (!config_setting_get_member(s, "size"))
		missing(c, r->line, prefix, "size");
}

static const char *const cell_keys[] = {
	"name", "type", "cpus", "colors", "read_mbps", "write_mbps", "memory",
	"image", "args", "comm", "console", "autostart", "bwlock",
	"console_output", "exit_rate", NULL
};

static int valid_name(const char *s)
{
	size_t n = strlen(s), i;

	if (n == 0 || n > CG_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ||
		      ch == '.'))
			return 0;
	}
	return 1;
}

static void read_cell(struct ctx *c, const config_setting_t *s,
		      unsigned int idx, struct cg_cell *cell)
{
	const config_setting_t *v;
	unsigned int i, n;

	cell->line = line_of(s);
	cell->type = CG_CELL_NORMAL;
	snprintf(cell->label, sizeof(cell->label), "cells[%u]", idx);
	c->label = cell->label;
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		c->label = NULL;
		snprintf(c->field, sizeof(c->field), "cells[%u]", idx);
		wrong_type(c, s, "a group { }");
		return;
	}

	v = config_setting_get_member(s, "name");
	set_field(c, NULL, "name");
	if (!v) {
		cg_err(c->d, cell->line, c->label, c->field, "missing");
	} else if (config_setting_type(v) != CONFIG_TYPE_STRING) {
		wrong_type(c, v, "a string");
	} else if (!valid_name(config_setting_get_string(v))) {
		cg_err(c->d, line_of(v), c->label, c->field,
		       "must be 1 to %d characters of A-Z a-z 0-9 _ - .",
		       CG_NAME_MAX);
	} else {
		strcpy(cell->name, config_setting_get_string(v));
		cell->name_line = line_of(v);
		snprintf(cell->label, sizeof(cell->label), "cell \"%s\"",
			 cell->name);
	}

	check_keys(c, s, NULL, cell_keys);

	v = config_setting_get_member(s, "type");
	set_field(c, NULL, "type");
	if (!v) {
		cg_err(c->d, cell->line, c->label, c->field,
		       "missing (root, critical or normal)");
	} else if (config_setting_type(v) != CONFIG_TYPE_STRING) {
		wrong_type(c, v, "a string");
	} else {
		const char *t = config_setting_get_string(v);

		cell->type_line = line_of(v);
		if (!strcmp(t, "root"))
			cell->type = CG_CELL_ROOT;
		else if (!strcmp(t, "critical"))
			cell->type = CG_CELL_CRITICAL;
		else if (!strcmp(t, "normal"))
			cell->type = CG_CELL_NORMAL;
		else
			cg_err(c->d, line_of(v), c->label, c->field,
			       "must be root, critical or normal");
	}

	get_str(c, s, NULL, "cpus", &cell->cpus);
	if (!config_setting_get_member(s, "cpus"))
		missing(c, cell->line, NULL, "cpus");
	get_str(c, s, NULL, "colors", &cell->colors);
	if (!config_setting_get_member(s, "colors"))
		missing(c, cell->line, NULL, "colors");
	get_u64(c, s, NULL, "read_mbps", 1, CG_MBPS_MAX, &cell->read_mbps);
	get_u64(c, s, NULL, "write_mbps", 1, CG_MBPS_MAX, &cell->write_mbps);
	get_str(c, s, NULL, "image", &cell->image);
	if (cell->image.line && !cell->image.s[0])
		cg_err(c->d, cell->image.line, c->label, "image", "empty path");
	get_str(c, s, NULL, "args", &cell->args);
	if (strlen(cell->args.s) > CG_ARGS_MAX)
		cg_err(c->d, cell->args.line, c->label, "args",
		       "longer than %u characters", CG_ARGS_MAX);
	/* Page-aligned guest addresses below 2^48; the runner checks overlap. */
	get_u64(c, s, NULL, "comm", 0, (1ull << 48) - 4096, &cell->comm);
	if (cell->comm.line && (cell->comm.v & 4095))
		cg_err(c->d, cell->comm.line, c->label, "comm",
		       "0x%llx is not page aligned",
		       (unsigned long long)cell->comm.v);
	get_u64(c, s, NULL, "console", 0, (1ull << 48) - 1, &cell->console);
	get_bool(c, s, NULL, "autostart", &cell->autostart,
		 &cell->autostart_line);
	if (cell->autostart && cell->type == CG_CELL_ROOT)
		cg_err(c->d, cell->autostart_line, c->label, "autostart",
		       "the root cell is root Linux itself: nothing to start");
	get_bool(c, s, NULL, "bwlock", &cell->bwlock, &cell->bwlock_line);
	if (cell->bwlock && cell->type == CG_CELL_ROOT)
		cg_err(c->d, cell->bwlock_line, c->label, "bwlock",
		       "the root cell is root Linux itself: its tasks open /dev/memguard");
	get_u64(c, s, NULL, "exit_rate", CG_EXIT_RATE_MIN, CG_EXIT_RATE_MAX,
		&cell->exit_rate);
	if (cell->exit_rate.line && cell->type == CG_CELL_ROOT)
		cg_err(c->d, cell->exit_rate.line, c->label, "exit_rate",
		       "the root cell is root Linux itself: it makes no exits");
	get_bool(c, s, NULL, "console_output", &cell->console_output,
		 &cell->console_output_line);
	if (cell->console_output_line && cell->type == CG_CELL_ROOT)
		cg_err(c->d, cell->console_output_line, c->label,
		       "console_output",
		       "the root cell is root Linux itself: it has no cell console");

	v = config_setting_get_member(s, "memory");
	set_field(c, NULL, "memory");
	if (!v) {
		cg_err(c->d, cell->line, c->label, c->field, "missing");
	} else if (config_setting_type(v) != CONFIG_TYPE_LIST) {
		wrong_type(c, v, "a list ( )");
	} else {
		cell->memory_line = line_of(v);
		n = config_setting_length(v);
		if (n == 0)
			cg_err(c->d, line_of(v), c->label, c->field,
			       "needs at least one region");
		if (n > CG_MAX_REGIONS) {
			cg_err(c->d, line_of(v), c->label, c->field,
			       "%u regions, at most %u", n, CG_MAX_REGIONS);
			n = CG_MAX_REGIONS;
		}
		for (i = 0; i < n; i++)
			read_region(c, config_setting_get_elem(v, i), i,
				    &cell->regions[i]);
		cell->nr_regions = n;
	}
	c->label = NULL;
}

static const char *const top_keys[] = {
	"llc", "hypervisor", "memguard", "cma", "cells", NULL
};

static const char *const cma_names[CG_CMA_NR] = {
	[CG_CMA_QUARANTINE] = "quarantine",
	[CG_CMA_KEEP] = "keep",
};

const char *cg_cma_name(enum cg_cma mode)
{
	return mode > CG_CMA_UNSET && mode < CG_CMA_NR ? cma_names[mode] : "?";
}

enum cg_cma cg_cma_mode(const struct cg_config *cfg)
{
	unsigned int i;

	if (cfg->cma != CG_CMA_UNSET)
		return cfg->cma;
	for (i = 0; i < cfg->nr_cells; i++)
		if (cfg->cells[i].type == CG_CELL_CRITICAL)
			return CG_CMA_QUARANTINE;
	return CG_CMA_KEEP;
}

static void read_cma(struct ctx *c, const config_setting_t *root,
		     struct cg_config *cfg)
{
	const config_setting_t *s = config_setting_get_member(root, "cma");
	const char *v;
	int m;

	if (!s)
		return;
	set_field(c, NULL, "cma");
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		wrong_type(c, s, "a string");
		return;
	}
	v = config_setting_get_string(s);
	for (m = CG_CMA_UNSET + 1; m < CG_CMA_NR; m++) {
		if (strcmp(v, cma_names[m]))
			continue;
		cfg->cma = m;
		cfg->cma_line = line_of(s);
		return;
	}
	cg_err(c->d, line_of(s), NULL, c->field, "must be \"%s\" or \"%s\"",
	       cma_names[CG_CMA_QUARANTINE], cma_names[CG_CMA_KEEP]);
}

static const char *const hv_keys[] = { "colors", NULL };
static const char *const mg_keys[] = { "period_us", NULL };

static void read_root(struct ctx *c, const config_setting_t *root,
		      struct cg_config *cfg)
{
	const config_setting_t *g, *cells;
	unsigned int i, j, n;

	check_keys(c, root, NULL, top_keys);
	read_llc(c, root, &cfg->llc);

	g = get_group(c, root, NULL, "hypervisor");
	if (g) {
		check_keys(c, g, "hypervisor", hv_keys);
		get_str(c, g, "hypervisor", "colors", &cfg->hv_colors);
	}

	cfg->period_us.v = CG_PERIOD_US_DEFAULT;
	g = get_group(c, root, NULL, "memguard");
	if (g) {
		check_keys(c, g, "memguard", mg_keys);
		get_u64(c, g, "memguard", "period_us", CG_PERIOD_US_MIN,
			CG_PERIOD_US_MAX, &cfg->period_us);
	}

	read_cma(c, root, cfg);

	cells = config_setting_get_member(root, "cells");
	set_field(c, NULL, "cells");
	if (!cells) {
		cg_err(c->d, 0, NULL, c->field, "missing");
		return;
	}
	if (config_setting_type(cells) != CONFIG_TYPE_LIST) {
		wrong_type(c, cells, "a list ( )");
		return;
	}
	cfg->cells_line = line_of(cells);
	n = config_setting_length(cells);
	if (n == 0)
		cg_err(c->d, line_of(cells), NULL, c->field, "no cells");
	if (n > CG_MAX_CELLS) {
		cg_err(c->d, line_of(cells), NULL, c->field,
		       "%u cells, at most %u", n, CG_MAX_CELLS);
		n = CG_MAX_CELLS;
	}
	for (i = 0; i < n; i++)
		read_cell(c, config_setting_get_elem(cells, i), i,
			  &cfg->cells[i]);
	cfg->nr_cells = n;

	for (i = 0; i < n; i++) {
		if (!cfg->cells[i].name[0])
			continue;
		for (j = 0; j < i; j++) {
			if (strcmp(cfg->cells[i].name, cfg->cells[j].name))
				continue;
			cg_err(c->d, cfg->cells[i].name_line,
			       cfg->cells[i].label, "name",
			       "same name as the cell on line %u",
			       cfg->cells[j].name_line);
			break;
		}
	}
}

int cg_config_parse(struct cg_diag *d, const char *text, size_t len,
		    struct cg_config *cfg)
{
	struct ctx c = { .d = d };
	unsigned int before = d->errors;
	config_t lc;

	memset(cfg, 0, sizeof(*cfg));
	if (strlen(text) != len) {
		cg_err(d, 0, NULL, NULL, "contains a NUL byte");
		return -EINVAL;
	}
	/* Refuse what libconfig would misread or follow before it runs. */
	if (cg_guard_text(d, text, len))
		return -EINVAL;

	config_init(&lc);
	if (config_read_string(&lc, text) != CONFIG_TRUE) {
		cg_err(d, config_error_line(&lc), NULL, NULL, "%s",
		       config_error_text(&lc));
		config_destroy(&lc);
		return -EINVAL;
	}
	read_root(&c, config_root_setting(&lc), cfg);
	config_destroy(&lc);
	return d->errors == before ? 0 : -EINVAL;
}

int cg_config_load(struct cg_diag *d, const char *path, struct cg_config *cfg)
{
	struct stat st;
	size_t len = 0;
	char *text;
	ssize_t got = 0;
	int fd, ret, err;

	memset(cfg, 0, sizeof(*cfg));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		cg_err(d, 0, NULL, NULL, "%s", strerror(err));
		return -err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		cg_err(d, 0, NULL, NULL, "not a regular file");
		close(fd);
		return -EINVAL;
	}
	text = malloc(CG_MAX_CONFIG_BYTES + 1);
	if (!text) {
		close(fd);
		cg_err(d, 0, NULL, NULL, "out of memory");
		return -ENOMEM;
	}
	/* Read one byte past the limit to tell "too big" from "just fits". */
	while (len <= CG_MAX_CONFIG_BYTES) {
		got = read(fd, text + len, CG_MAX_CONFIG_BYTES + 1 - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += got;
	}
	close(fd);
	if (got < 0) {
		cg_err(d, 0, NULL, NULL, "read: %s", strerror(errno));
		free(text);
		return -EIO;
	}
	if (len > CG_MAX_CONFIG_BYTES) {
		cg_err(d, 0, NULL, NULL, "larger than %u bytes",
		       CG_MAX_CONFIG_BYTES);
		free(text);
		return -EFBIG;
	}
	text[len] = '\0';
	ret = cg_config_parse(d, text, len, cfg);
	free(text);
	return ret;
}
