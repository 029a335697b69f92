// SPDX-License-Identifier: GPL-2.0
/*
 * The config reader's typed access to libconfig settings: each getter
 * checks one setting's type and range and reports what is wrong with it.
 */
#include <libconfig.h>
#include <stdio.h>
#include <string.h>

#include "colorguard.h"
#include "config_int.h"

unsigned int cfg_line(const config_setting_t *s)
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

void cfg_field(struct cfg_ctx *c, const char *prefix, const char *name)
{
	if (prefix && *prefix)
		snprintf(c->field, sizeof(c->field), "%s.%s", prefix, name);
	else
		snprintf(c->field, sizeof(c->field), "%s", name);
}

void cfg_wrong_type(struct cfg_ctx *c, const config_setting_t *s,
		    const char *want)
{
	cg_err(c->d, cfg_line(s), c->label, c->field, "expected %s, got %s",
	       want, type_name(config_setting_type(s)));
}

/* Every member of a group must be one of the known keys. */
void cfg_check_keys(struct cfg_ctx *c, const config_setting_t *group,
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
		cfg_field(c, prefix, name);
		cg_err(c->d, cfg_line(m), c->label, c->field, "unknown key");
	}
}

/* An unsigned number: integer literal, or a string with optional unit. */
void cfg_get_u64(struct cfg_ctx *c, const config_setting_t *group,
		 const char *prefix, const char *name, uint64_t min,
		 uint64_t max, struct cg_u64 *out)
{
	const config_setting_t *s = config_setting_get_member(group, name);
	const char *why;
	long long ll;
	uint64_t v;

	if (!s)
		return;
	cfg_field(c, prefix, name);
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
	case CONFIG_TYPE_INT64:
		ll = config_setting_get_int64(s);
		if (ll < 0) {
			cg_err(c->d, cfg_line(s), c->label, c->field,
			       "must not be negative");
			return;
		}
		v = ll;
		break;
	case CONFIG_TYPE_STRING:
		if (cg_parse_u64(config_setting_get_string(s), &v, &why)) {
			cg_err(c->d, cfg_line(s), c->label, c->field, "%s",
			       why);
			return;
		}
		break;
	default:
		cfg_wrong_type(c, s, "an integer or a string like \"64M\"");
		return;
	}
	if (v < min || v > max) {
		cg_err(c->d, cfg_line(s), c->label, c->field,
		       "%llu out of range (%llu to %llu)",
		       (unsigned long long)v, (unsigned long long)min,
		       (unsigned long long)max);
		return;
	}
	out->v = v;
	out->line = cfg_line(s);
}

void cfg_get_str(struct cfg_ctx *c, const config_setting_t *group,
		 const char *prefix, const char *name, struct cg_str *out)
{
	const config_setting_t *s = config_setting_get_member(group, name);
	const char *v;

	if (!s)
		return;
	cfg_field(c, prefix, name);
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		cfg_wrong_type(c, s, "a string");
		return;
	}
	v = config_setting_get_string(s);
	if (strlen(v) > CG_LIST_MAX) {
		cg_err(c->d, cfg_line(s), c->label, c->field,
		       "longer than %u characters", CG_LIST_MAX);
		return;
	}
	strcpy(out->s, v);
	out->line = cfg_line(s);
}

void cfg_get_bool(struct cfg_ctx *c, const config_setting_t *group,
		  const char *prefix, const char *name, bool *out,
		  unsigned int *line)
{
	const config_setting_t *s = config_setting_get_member(group, name);

	if (!s)
		return;
	cfg_field(c, prefix, name);
	if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
		cfg_wrong_type(c, s, "true or false");
		return;
	}
	*out = config_setting_get_bool(s);
	*line = cfg_line(s);
}

const config_setting_t *cfg_get_group(struct cfg_ctx *c,
				      const config_setting_t *parent,
				      const char *prefix, const char *name)
{
	const config_setting_t *s = config_setting_get_member(parent, name);

	if (!s)
		return NULL;
	cfg_field(c, prefix, name);
	if (config_setting_type(s) != CONFIG_TYPE_GROUP) {
		cfg_wrong_type(c, s, "a group { }");
		return NULL;
	}
	return s;
}

void cfg_missing(struct cfg_ctx *c, unsigned int line, const char *prefix,
		 const char *name)
{
	cfg_field(c, prefix, name);
	cg_err(c->d, line, c->label, c->field, "missing");
}

int cfg_valid_name(const char *s)
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

void cfg_get_name(struct cfg_ctx *c, const config_setting_t *group,
		  const char *prefix, const char *name, char *out,
		  unsigned int *line)
{
	const config_setting_t *s = config_setting_get_member(group, name);

	if (!s)
		return;
	cfg_field(c, prefix, name);
	if (config_setting_type(s) != CONFIG_TYPE_STRING) {
		cfg_wrong_type(c, s, "a string");
	} else if (!cfg_valid_name(config_setting_get_string(s))) {
		cg_err(c->d, cfg_line(s), c->label, c->field,
		       "must be 1 to %d characters of A-Z a-z 0-9 _ - .",
		       CG_NAME_MAX);
	} else {
		strcpy(out, config_setting_get_string(s));
		*line = cfg_line(s);
	}
}

const config_setting_t *cfg_get_list(struct cfg_ctx *c, const config_setting_t *group,
				     const char *name, unsigned int max, const char *what,
				     unsigned int *n)
{
	const config_setting_t *list = config_setting_get_member(group, name);

	*n = 0;
	if (!list)
		return NULL;
	cfg_field(c, NULL, name);
	if (config_setting_type(list) != CONFIG_TYPE_LIST) {
		cfg_wrong_type(c, list, "a list ( )");
		return NULL;
	}
	*n = config_setting_length(list);
	if (*n > max) {
		cg_err(c->d, cfg_line(list), c->label, c->field,
		       "%u %s, at most %u", *n, what, max);
		*n = max;
	}
	return list;
}
