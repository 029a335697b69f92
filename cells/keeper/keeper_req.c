// SPDX-License-Identifier: GPL-2.0
/*
 * One request, from an untrusted client: checked field by field (size,
 * magic, version, op, role, names NUL-terminated in their arrays, spare
 * 0), then OPEN attaches a slot and hands out its descriptors, STAT
 * describes the channels. Every refusal is a reply with a negative errno
 * and a one-line reason; nothing a client sends stops the keeper.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "channels.h"
#include "keeper.h"

/* The STAT text's room: the packet less the reply before it. */
#define STAT_MAX	(CHAN_KEEP_MAX_PACKET - sizeof(struct chan_keep_reply))

static int refuse(struct chan_keep_reply *rep, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(struct chan_keep_reply *rep, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rep->why, sizeof(rep->why), fmt, ap);
	va_end(ap);
	rep->err = err;
	return err;
}

/* A client's name, for a reason: printable, the NUL already checked. */
static const char *shown(const char *name, char *buf, size_t len)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++)
		buf[i] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
	buf[i] = '\0';
	return buf;
}

static bool terminated(const char *name)
{
	return memchr(name, '\0', CHAN_KEEP_NAME_MAX);
}

static int check_req(const struct chan_keep_req *req, size_t len,
		     unsigned int nr_in, struct chan_keep_reply *rep)
{
	unsigned int i;

	if (len != sizeof(*req))
		return refuse(rep, -EINVAL, "a request of %zu bytes: a request is %zu",
			      len, sizeof(*req));
	if (nr_in)
		return refuse(rep, -EINVAL, "%u descriptors sent to the keeper: it takes none",
			      nr_in);
	if (req->magic != CHAN_KEEP_MAGIC)
		return refuse(rep, -EPROTO, "bad magic 0x%08x", req->magic);
	if (req->version != CHAN_KEEP_VERSION)
		return refuse(rep, -EPROTONOSUPPORT, "version %u: this keeper speaks %u",
			      req->version, CHAN_KEEP_VERSION);
	if (!terminated(req->cell) || !terminated(req->channel))
		return refuse(rep, -EINVAL, "a name without its NUL in %u bytes",
			      CHAN_KEEP_NAME_MAX);
	for (i = 0; i < ARRAY_SIZE(req->spare); i++)
		if (req->spare[i])
			return refuse(rep, -EINVAL, "spare[%u] is 0x%x, not 0", i,
				      req->spare[i]);
	if (req->op == CHAN_KEEP_STAT) {
		if (req->role || req->slot || req->cell[0])
			return refuse(rep, -EINVAL, "STAT takes no role, slot or cell");
		return 0;
	}
	if (req->op != CHAN_KEEP_OPEN)
		return refuse(rep, -EOPNOTSUPP, "unknown op %u", req->op);
	if (req->role != CHAN_KEEP_WRITER && req->role != CHAN_KEEP_READER)
		return refuse(rep, -EINVAL, "unknown role %u", req->role);
	return 0;
}

static struct keep_chan *find_chan(struct keeper *k, const char *name)
{
	unsigned int i;

	for (i = 0; i < k->nr_chans; i++)
		if (!strcmp(k->chans[i].cfg->name, name))
			return &k->chans[i];
	return NULL;
}

static int find_cell(const struct keeper *k, const char *name)
{
	unsigned int i;

	for (i = 0; i < k->cfg->nr_cells; i++)
		if (!strcmp(k->cfg->cells[i].name, name))
			return i;
	return -1;
}

/* The cell's part in @ch in @role, or NULL. */
static const struct cg_chan_ref *cell_ref(const struct cg_cell *cell,
					  const struct keep_chan *ch,
					  enum cg_chan_role role)
{
	unsigned int i;

	for (i = 0; i < cell->nr_chan_refs; i++)
		if (cell->chan_refs[i].role == role &&
		    !strcmp(cell->chan_refs[i].name, ch->cfg->name))
			return &cell->chan_refs[i];
	return NULL;
}

/*
 * Root, or the keeper's own user, may open any slot; anyone else that
 * can reach the socket (group colorguard) is a root Linux process.
 */
static int may_open(const struct keeper *k, const struct keep_conn *conn,
		    int cell, struct chan_keep_reply *rep)
{
	if (conn->uid == 0 || conn->uid == k->uid || cell == k->root_cell)
		return 0;
	if (k->root_cell < 0)
		return refuse(rep, -EACCES, "uid %u may open only the root cell's slots, and there is none",
			      (unsigned int)conn->uid);
	return refuse(rep, -EACCES, "uid %u may open only the slots of the root cell \"%s\"",
		      (unsigned int)conn->uid, k->cfg->cells[k->root_cell].name);
}

static void attach(struct keep_chan *ch, struct keep_slot *s, unsigned int peer,
		   struct keep_conn *conn)
{
	s->conn = conn;
	s->pid = conn->pid;
	conn->slots++;
	keep_peers_attach(ch, peer);
}

static int open_writer(struct keep_chan *ch, const struct cg_cell *cell,
		       const struct chan_keep_req *req, struct keep_conn *conn,
		       struct chan_keep_reply *rep, int *fds, unsigned int *nr_fds)
{
	const struct chan_geom *g = &ch->geom;
	unsigned int i, n = 0;
	int ret;

	if (!cell_ref(cell, ch, CG_CHAN_WRITER))
		return refuse(rep, -EPERM, "cell \"%s\" does not write \"%s\"",
			      cell->name, ch->cfg->name);
	if (req->slot && req->slot != ~0u)
		return refuse(rep, -ERANGE, "slot %u: a channel has one writer, slot 0",
			      req->slot);
	if (ch->writer.conn)
		return refuse(rep, -EBUSY, "the writer of \"%s\" is attached (pid %d)",
			      ch->cfg->name, (int)ch->writer.pid);
	ret = keep_mem_reset_ctrl(ch);
	if (ret)
		return refuse(rep, ret, "resetting \"%s\"'s control block: %s",
			      ch->cfg->name, strerror(-ret));
	attach(ch, &ch->writer, 0, conn);
	fds[n++] = ch->region_rw;
	fds[n++] = ch->peers_ro;
	for (i = 0; g->flags && i < g->nr_readers; i++)
		fds[n++] = ch->fb_ro[i];
	for (i = 0; (g->flags & CHAN_F_DOORBELL) && i < g->nr_readers; i++)
		fds[n++] = ch->doorbell[i];
	*nr_fds = n;
	rep->index = 0;
	return 0;
}

static int open_reader(struct keeper *k, struct keep_chan *ch, int cell_idx,
		       const struct chan_keep_req *req, struct keep_conn *conn,
		       struct chan_keep_reply *rep, int *fds, unsigned int *nr_fds)
{
	const struct cg_cell *cell = &k->cfg->cells[cell_idx];
	const struct cg_chan_ref *ref = cell_ref(cell, ch, CG_CHAN_READER);
	unsigned int slot = req->slot, n = 0, idx;
	int first;

	first = cg_chan_first_reader(k->cfg, ch->cfg - k->cfg->channels, cell);
	if (!ref || first < 0)
		return refuse(rep, -EPERM, "cell \"%s\" does not read \"%s\"",
			      cell->name, ch->cfg->name);
	if (slot == ~0u) {
		for (slot = 0; slot < ref->readers.v; slot++)
			if (!ch->reader[first + slot].conn)
				break;
		if (slot == ref->readers.v)
			return refuse(rep, -EBUSY, "all %llu reader slots of cell \"%s\" in \"%s\" are attached",
				      (unsigned long long)ref->readers.v,
				      cell->name, ch->cfg->name);
	}
	if (slot >= ref->readers.v)
		return refuse(rep, -ERANGE, "cell \"%s\" has %llu reader slot%s of \"%s\"",
			      cell->name, (unsigned long long)ref->readers.v,
			      ref->readers.v == 1 ? "" : "s", ch->cfg->name);
	idx = first + slot;
	if (ch->reader[idx].conn)
		return refuse(rep, -EBUSY, "reader slot %u of cell \"%s\" is attached (pid %d)",
			      slot, cell->name, (int)ch->reader[idx].pid);
	attach(ch, &ch->reader[idx], 1 + idx, conn);
	fds[n++] = ch->region_ro;
	fds[n++] = ch->peers_ro;
	fds[n++] = ch->fb_rw[idx];
	if (ch->geom.flags & CHAN_F_DOORBELL)
		fds[n++] = ch->doorbell[idx];
	*nr_fds = n;
	rep->index = idx;
	return 0;
}

static int do_open(struct keeper *k, struct keep_conn *conn,
		   const struct chan_keep_req *req, struct chan_keep_reply *rep,
		   int *fds, unsigned int *nr_fds)
{
	char a[CHAN_KEEP_NAME_MAX], b[CHAN_KEEP_NAME_MAX];
	struct keep_chan *ch = find_chan(k, req->channel);
	int cell = find_cell(k, req->cell), ret;

	if (!ch)
		return refuse(rep, -ENOENT, "no channel \"%s\"",
			      shown(req->channel, a, sizeof(a)));
	if (cell < 0)
		return refuse(rep, -ENOENT, "no cell \"%s\"", shown(req->cell, b, sizeof(b)));
	ret = may_open(k, conn, cell, rep);
	if (ret)
		return ret;
	if (req->role == CHAN_KEEP_WRITER)
		ret = open_writer(ch, &k->cfg->cells[cell], req, conn, rep, fds, nr_fds);
	else
		ret = open_reader(k, ch, cell, req, conn, rep, fds, nr_fds);
	if (!ret)
		rep->geom = ch->geom;
	return ret;
}

static const char *kind_name(const struct chan_geom *g)
{
	return g->kind == CHAN_KIND_QUEUE ? "queue" : "state";
}

static const char *flags_name(const struct chan_geom *g)
{
	switch (g->flags & CHAN_F_ALL) {
	case CHAN_F_RELIABLE:
		return "reliable";
	case CHAN_F_DOORBELL:
		return "doorbell";
	case CHAN_F_ALL:
		return "reliable,doorbell";
	}
	return "-";
}

/* Values from shared memory: anything, printed and never used. */
static uint64_t peek64(const void *base, uint64_t off)
{
	return __atomic_load_n((const uint64_t *)((const char *)base + off),
			       __ATOMIC_RELAXED);
}

struct text {
	char *buf;
	size_t len, cap;
	bool full;
};

static void add(struct text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->cap - t->len) {
		t->full = true;
		t->buf[t->len] = '\0';
		return;
	}
	t->len += n;
}

static void slot_line(struct text *t, const struct keep_chan *ch, unsigned int peer,
		      const struct keep_slot *s)
{
	add(t, " attached=%s pid=%d attaches=%u",
	    s->conn ? "yes" : "no", s->conn ? (int)s->pid : 0,
	    keep_peers_attaches(ch, peer));
}

static void stat_chan(struct keeper *k, const struct keep_chan *ch, struct text *t)
{
	const struct chan_geom *g = &ch->geom;
	const char *name = ch->cfg->name;
	unsigned int i;

	add(t, "channel %s kind=%s flags=%s max_record=%u ring=%llu region=%llu feedback=%llu readers=%u head=%llu tail=%llu epoch=%llu\n",
	    name, kind_name(g), flags_name(g), g->max_record,
	    (unsigned long long)g->ring_size, (unsigned long long)g->writer_size,
	    (unsigned long long)g->feedback_size, g->nr_readers,
	    (unsigned long long)peek64(ch->region, g->ctrl_off),
	    (unsigned long long)peek64(ch->region, g->ctrl_off + 8),
	    (unsigned long long)ch->epoch);
	add(t, "slot %s writer cell=%s", name, k->cfg->cells[ch->writer_cell].name);
	slot_line(t, ch, 0, &ch->writer);
	add(t, "\n");
	for (i = 0; i < g->nr_readers; i++) {
		add(t, "slot %s reader=%u cell=%s slot=%u", name, i,
		    k->cfg->cells[ch->reader_cell[i]].name, ch->reader_slot[i]);
		slot_line(t, ch, 1 + i, &ch->reader[i]);
		add(t, " consumed=%llu\n",
		    (unsigned long long)peek64(ch->fb[i], g->feedback_off));
	}
}

static int do_stat(struct keeper *k, const struct chan_keep_req *req,
		   struct chan_keep_reply *rep, char *text)
{
	struct text t = { .buf = text, .cap = STAT_MAX };
	char a[CHAN_KEEP_NAME_MAX];
	struct keep_chan *one = NULL;
	unsigned int i;

	if (req->channel[0]) {
		one = find_chan(k, req->channel);
		if (!one)
			return refuse(rep, -ENOENT, "no channel \"%s\"",
				      shown(req->channel, a, sizeof(a)));
	}
	text[0] = '\0';
	for (i = 0; i < k->nr_chans; i++)
		if (!one || one == &k->chans[i])
			stat_chan(k, &k->chans[i], &t);
	if (t.full) {
		/* Whole lines only, and a last one that says so. */
		char *nl = strrchr(text, '\n');
		const char *more = "...\n";

		t.len = nl ? (size_t)(nl + 1 - text) : 0;
		if (t.len + strlen(more) > t.cap)
			t.len = t.cap - strlen(more);
		memcpy(text + t.len, more, strlen(more));
		t.len += strlen(more);
	}
	rep->text_len = t.len;
	return 0;
}

size_t keep_request(struct keeper *k, struct keep_conn *conn, const void *buf,
		    size_t len, unsigned int nr_in, void *reply_buf, int *fds,
		    unsigned int *nr_fds)
{
	struct chan_keep_reply *rep = reply_buf;
	struct chan_keep_req req;
	int ret;

	memset(rep, 0, sizeof(*rep));
	rep->magic = CHAN_KEEP_MAGIC;
	rep->version = CHAN_KEEP_VERSION;
	*nr_fds = 0;
	memset(&req, 0, sizeof(req));
	memcpy(&req, buf, len < sizeof(req) ? len : sizeof(req));
	ret = check_req(&req, len, nr_in, rep);
	if (!ret && req.op == CHAN_KEEP_STAT)
		ret = do_stat(k, &req, rep, (char *)(rep + 1));
	else if (!ret)
		ret = do_open(k, conn, &req, rep, fds, nr_fds);
	if (ret) {
		fprintf(stderr, "colorguard chan keep: pid %d uid %u: refused: %s\n",
			(int)conn->pid, (unsigned int)conn->uid, rep->why);
		return sizeof(*rep);
	}
	rep->nr_fds = *nr_fds;
	return sizeof(*rep) + rep->text_len;
}

void keep_release(struct keeper *k, struct keep_conn *conn)
{
	unsigned int i, j;

	for (i = 0; i < k->nr_chans && conn->slots; i++) {
		struct keep_chan *ch = &k->chans[i];

		if (ch->writer.conn == conn) {
			ch->writer.conn = NULL;
			conn->slots--;
			keep_peers_detach(ch, 0);
		}
		for (j = 0; j < ch->geom.nr_readers; j++) {
			if (ch->reader[j].conn != conn)
				continue;
			ch->reader[j].conn = NULL;
			conn->slots--;
			keep_peers_detach(ch, 1 + j);
		}
	}
}
