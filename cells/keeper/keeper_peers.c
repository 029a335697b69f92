// SPDX-License-Identifier: GPL-2.0
/*
 * The peers page, which only the keeper writes and every side reads
 * concurrently: each attach and detach stores the peer's state (and on
 * attach its attaches count), the peer's epoch and then the page's epoch,
 * each with release ordering, so that a side that loads a new value
 * with acquire sees what was stored before it (the reset control block
 * before a writer's new attaches count).
 */
#include "keeper.h"

static void store32(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static void store64(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

void keep_peers_init(struct keep_chan *ch)
{
	struct chan_peers *p = ch->peers;
	unsigned int i;

	/* A fresh object is zeroed: every peer absent, never attached. */
	for (i = 0; i < 1 + ch->geom.nr_readers; i++)
		store32(&p->peer[i].state, CHAN_PEER_ABSENT);
	store32(&p->nr_peers, 1 + ch->geom.nr_readers);
	ch->epoch = 0;
	store64(&p->epoch, 0);
}

static void publish(struct keep_chan *ch, unsigned int peer, uint32_t state,
		    uint32_t attaches)
{
	struct chan_peer *p = &ch->peers->peer[peer];

	ch->epoch++;
	store32(&p->state, state);
	store32(&p->attaches, attaches);
	store64(&p->epoch, ch->epoch);
	store64(&ch->peers->epoch, ch->epoch);
}

uint32_t keep_peers_attaches(const struct keep_chan *ch, unsigned int peer)
{
	/* The keeper's own page: nobody else writes it. */
	return __atomic_load_n(&ch->peers->peer[peer].attaches, __ATOMIC_RELAXED);
}

void keep_peers_attach(struct keep_chan *ch, unsigned int peer)
{
	publish(ch, peer, CHAN_PEER_ATTACHED, keep_peers_attaches(ch, peer) + 1);
}

void keep_peers_detach(struct keep_chan *ch, unsigned int peer)
{
	publish(ch, peer, CHAN_PEER_ABSENT, keep_peers_attaches(ch, peer));
}
