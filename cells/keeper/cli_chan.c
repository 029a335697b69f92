// SPDX-License-Identifier: GPL-2.0
/*
 * `colorguard chan ...`: the subcommand table, `chan keep` (the keeper
 * in the foreground) and the keeper's view of the channels, `chan ls`
 * and `chan stat` (its STAT text). `cat` and `send` are cli_rw.c's.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <colorguard/chan_linux.h>

#include "cli_chan.h"
#include "colorguard.h"
#include "keeper.h"

static const char chan_usage_text[] =
"usage: colorguard chan keep CONFIG [--socket PATH] [--no-color]\n"
"       colorguard chan ls [--socket PATH]\n"
"       colorguard chan stat [NAME] [--socket PATH]\n"
"       colorguard chan cat NAME --cell CELL [--slot N] [-n COUNT]\n"
"                           [--timeout MS] [--hex] [--socket PATH]\n"
"       colorguard chan send NAME --cell CELL [--timeout MS]\n"
"                            [--socket PATH] [TEXT...]\n"
"  keep   check CONFIG as `cell run` does, make every channel's memory once\n"
"         (mm-color shared objects in the channel's colors) and hand it out\n"
"         on the keeper's socket, in the foreground; READY=1 to the service\n"
"         manager once listening; SIGTERM and SIGINT stop it\n"
"  ls     the channels and who holds each slot\n"
"  stat   all the keeper knows of channel NAME (default: of every one)\n"
"  cat    read NAME as a reader slot of CELL: each record (a state channel:\n"
"         each new value) on a line, text with bytes that are not printable\n"
"         escaped (\\n, \\t, \\\\, \\xHH), or --hex; its counts on stderr at the end\n"
"  send   write NAME as CELL: each TEXT one record (default: each line of\n"
"         standard input); on a state channel each is published\n"
"  --cell CELL     the config's cell this end is (root Linux: the root cell)\n"
"  --slot N        cat: which of CELL's reader slots, from 0 (default: the\n"
"                  first free one)\n"
"  -n COUNT        cat: stop after COUNT records\n"
"  --timeout MS    cat: give up when nothing came for MS ms; send: wait at\n"
"                  most MS ms for a reliable reader's room (default: forever)\n"
"  --socket PATH   the keeper's socket (default: $COLORGUARD_CHAN_SOCK, else\n"
"                  " CHAN_KEEP_SOCK ")\n"
"  --no-color      control run: memfds of any color instead of /dev/mm-color\n"
"Exit status: 0 done, 1 refused, failed, timed out or broken, 2 usage,\n"
"128+N cat stopped by signal N.\n";

void chan_usage(FILE *f)
{
	fputs(chan_usage_text, f);
}

int chan_usage_error(const char *msg)
{
	fprintf(stderr, "colorguard chan: %s\n%s", msg, chan_usage_text);
	return CHAN_EXIT_USAGE;
}

static int cmd_keep(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "no-color", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct keep_opts o = { 0 };
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o.sock_path = optarg;
			break;
		case 'n':
			o.no_color = true;
			break;
		case 'h':
			chan_usage(stdout);
			return 0;
		default:
			return chan_usage_error("keep: bad option");
		}
	}
	if (optind + 1 != argc)
		return chan_usage_error("keep: needs exactly one CONFIG");
	o.config = argv[optind];
	return keeper_run(&o);
}

/* STAT's text of one channel or all; NULL on failure (said on stderr). */
static char *stat_text(const char *sock, const char *channel)
{
	char *text = malloc(CHAN_KEEP_MAX_PACKET + 1);
	char why[256];
	int ret;

	if (!text)
		return NULL;
	ret = cg_chan_keeper_stat(sock, channel, text, CHAN_KEEP_MAX_PACKET + 1,
				  why, sizeof(why));
	if (ret) {
		fprintf(stderr, "colorguard chan: %s\n", why);
		free(text);
		return NULL;
	}
	return text;
}

/* The value of " KEY=" in @line, up to the next blank. */
static void field(const char *line, const char *key, char *out, size_t len)
{
	char pat[32];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	out[0] = '\0';
	if (!p)
		return;
	p += strlen(pat);
	n = strcspn(p, " \n");
	if (n >= len)
		n = len - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* One slot of `ls`: cell (and its slot), and the pid holding it. */
static void ls_slot(const char *line, bool reader)
{
	char cell[64], slot[16], attached[8], pid[16];

	field(line, "cell", cell, sizeof(cell));
	field(line, "slot", slot, sizeof(slot));
	field(line, "attached", attached, sizeof(attached));
	field(line, "pid", pid, sizeof(pid));
	printf(" %s%s%s", cell, reader ? "/" : "", reader ? slot : "");
	if (!strcmp(attached, "yes"))
		printf("(pid %s)", pid);
}

/* ls: one line a channel, its writer then its readers. */
static void ls_print(char *text)
{
	char *line, *save = NULL, name[64], kind[16], flags[32];
	bool any = false;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "channel ", 8)) {
			if (sscanf(line + 8, "%63s", name) != 1)
				continue;
			if (any)
				putchar('\n');
			any = true;
			field(line, "kind", kind, sizeof(kind));
			field(line, "flags", flags, sizeof(flags));
			printf("%-16s %-5s %-17s", name, kind, flags);
		} else if (!strncmp(line, "slot ", 5) && any) {
			bool reader = strstr(line, " reader=");

			if (!reader)
				printf(" writer");
			else if (strstr(line, " reader=0 "))
				printf(" readers");
			ls_slot(line, reader);
		}
	}
	if (any)
		putchar('\n');
}

static int cmd_stat(int argc, char **argv, bool ls)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *sock = NULL, *name = NULL;
	char *text;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			sock = optarg;
			break;
		case 'h':
			chan_usage(stdout);
			return 0;
		default:
			return chan_usage_error("bad option");
		}
	}
	if (argc - optind > (ls ? 0 : 1))
		return chan_usage_error(ls ? "ls: takes no NAME" : "stat: takes at most one NAME");
	if (optind < argc)
		name = argv[optind];
	if (name && strlen(name) >= CHAN_KEEP_NAME_MAX)
		return chan_usage_error("stat: NAME too long");
	text = stat_text(sock, name);
	if (!text)
		return CHAN_EXIT_FAILED;
	if (ls) {
		printf("%-16s %-5s %-17s %s\n", "CHANNEL", "KIND", "FLAGS",
		       "SLOTS (pid: attached)");
		ls_print(text);
	} else {
		fputs(text, stdout);
	}
	free(text);
	return fflush(stdout) ? CHAN_EXIT_FAILED : 0;
}

static int cmd_ls(int argc, char **argv)
{
	return cmd_stat(argc, argv, true);
}

static int cmd_stat_all(int argc, char **argv)
{
	return cmd_stat(argc, argv, false);
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} chan_cmds[] = {
	{ "keep", cmd_keep },
	{ "ls", cmd_ls },
	{ "stat", cmd_stat_all },
	{ "cat", chan_cmd_cat },
	{ "send", chan_cmd_send },
};

int cg_chan_main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		chan_usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? CHAN_EXIT_USAGE : 0;
	}
	for (i = 0; i < ARRAY_SIZE(chan_cmds); i++)
		if (!strcmp(argv[1], chan_cmds[i].name))
			return chan_cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "colorguard chan: unknown subcommand %s\n", argv[1]);
	return CHAN_EXIT_USAGE;
}
