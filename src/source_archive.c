// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * source_archive.c - csftop's samples from a PCP archive (csftop -a), see
 * source.h.  Built with Performance Co-Pilot only.
 */
#include <config.h>

#include "replay.h"
#include "source.h"

static int archive_read(struct source *s, size_t k, struct model *m)
{
	struct replay *rp = s->rp;
	int err;

	err = replay_read(rp, k);
	if (err)
		return err;
	s->time_ns = replay_time(rp, k);
	/* the archive's clock, as its last sample read gave it */
	s->clock_name = rp->clock;
	return model_sample(m, rp->snaps, NULL, rp->nsnaps, rp->cpus,
			    rp->ncpus, s->time_ns);
}

static size_t archive_count(const struct source *s)
{
	return s->rp->nsamples;
}

static void archive_close(struct source *s)
{
	replay_close(s->rp);
}

static const struct source_ops archive_ops = {
	.to_ns = replay_to_ns,
	.read = archive_read,
	.count = archive_count,
	.strerror = replay_strerror,
	.close = archive_close,
};

void source_archive(struct source *s, struct replay *rp, const char *name)
{
	*s = (struct source){
		.ops = &archive_ops,
		.name = name,
		.rp = rp,
		.clock_name = rp->clock,
	};
}
