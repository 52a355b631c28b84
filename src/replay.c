// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * replay.c - samples from a PCP archive of csf metrics (replay.h).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pcp/pmapi.h>

#include "archive_label.h"
#include "i18n.h"
#include "metrics.h"
#include "replay.h"

#define NSEC 1000000000ull

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NSEC + (uint64_t)ts->tv_nsec;
}

static struct timespec ns_ts(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / NSEC),
			       .tv_nsec = (long)(ns % NSEC) };

	return ts;
}

void replay_close(struct replay *r)
{
	if (r->ctx >= 0)
		pmDestroyContext(r->ctx);
	free(r->pmids);
	free(r->metrics);
	free(r->types);
	free(r->times);
	free(r->snaps);
	free(r->cpus);
	memset(r, 0, sizeof(*r));
	r->ctx = -1;
}

const char *replay_strerror(int err)
{
	return pmErrStr(err);
}

/* The csf metrics the archive has: cpu and thread ones, and the clock. */
static int find_metrics(struct replay *r)
{
	const char **names = calloc(nr_metrics, sizeof(*names));
	char (*full)[64] = calloc(nr_metrics, sizeof(*full));
	pmID *ids = calloc(nr_metrics, sizeof(*ids));
	int n = 0, err = 0;

	r->pmids = calloc(nr_metrics, sizeof(*r->pmids));
	r->metrics = calloc(nr_metrics, sizeof(*r->metrics));
	r->types = calloc(nr_metrics, sizeof(*r->types));
	if (!names || !full || !ids || !r->pmids || !r->metrics ||
	    !r->types) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nr_metrics; i++) {
		const struct metric *m = &metrics[i];

		if (m->cluster != CL_CPU && m->cluster != CL_THREAD &&
		    !(m->cluster == CL_MODULE && m->item == IT_M_CLOCK))
			continue;
		snprintf(full[n], sizeof(full[n]), "csf.%s", m->name);
		names[n] = full[n];
		r->metrics[n++] = m;
	}
	/* names the archive lacks come back as PM_ID_NULL */
	err = pmLookupName(n, names, ids);
	if (err < 0 && err != PM_ERR_NAME)
		goto out;
	err = 0;
	for (int i = 0; i < n; i++) {
		pmDesc d;

		if (ids[i] == PM_ID_NULL)
			continue;
		err = pmLookupDesc(ids[i], &d);
		if (err < 0)
			goto out;
		err = 0;
		r->types[r->npmids] = d.type;
		if (r->metrics[i]->cluster == CL_THREAD)
			r->have_threads = 1;
		r->metrics[r->npmids] = r->metrics[i];
		r->pmids[r->npmids++] = ids[i];
	}
out:
	free(names);
	free(full);
	free(ids);
	return err;
}

/* The time of the next record at or after @from that has pmids[@key]. */
static int next_record(struct replay *r, int key, const struct timespec *from,
		       struct timespec *at)
{
	pmHighResResult *res;
	int err = pmSetModeHighRes(PM_MODE_FORW, from, NULL);

	if (err < 0)
		return err;
	err = pmFetchHighRes(1, (pmID *)&r->pmids[key], &res);
	if (err < 0)
		return err;
	*at = res->timestamp;
	pmFreeHighResResult(res);
	return 0;
}

/*
 * libpcp 6.0.3 dies of SIGSEGV in __pmLogLoadInDom() on some corrupt
 * .meta files (pmdumplog(1) as well): open the archive in a child first,
 * so that csftop can say so instead of dying.  1 if the child did not
 * come back from pmNewContext() (a signal, or a sanitizer's exit).
 */
#define PROBE_OPENED 0
#define PROBE_REFUSED 3

static int kills_reader(const char *archive)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		struct rlimit none = { 0, 0 };

		/* a core file of the probe would only be litter */
		setrlimit(RLIMIT_CORE, &none);
		_exit(pmNewContext(PM_CONTEXT_ARCHIVE, archive) < 0 ?
		      PROBE_REFUSED : PROBE_OPENED);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;	/* no probe: open it as it is */
	return !WIFEXITED(status) || (WEXITSTATUS(status) != PROBE_OPENED &&
				      WEXITSTATUS(status) != PROBE_REFUSED);
}

/*
 * The times of the records in [@from, @to] that have the key metric: the
 * samples when no step is given.  Jitter in pmlogger's timer makes any
 * fixed step gain or lose a record over an archive.  0, PM_ERR_EOL (none)
 * or an error.
 */
static int scan_records(struct replay *r, const struct timespec *from,
			const struct timespec *to)
{
	size_t cap = 0;
	int err = pmSetModeHighRes(PM_MODE_FORW, from, NULL);

	while (err >= 0) {
		pmHighResResult *res;
		uint64_t t;

		err = pmFetchHighRes(1, (pmID *)&r->pmids[r->key], &res);
		if (err < 0)
			break;
		t = ts_ns(&res->timestamp);
		pmFreeHighResResult(res);
		if (t > ts_ns(to))
			break;
		if (r->nsamples == cap) {
			uint64_t *v;

			cap = cap ? 2 * cap : 256;
			v = realloc(r->times, cap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			r->times = v;
		}
		r->times[r->nsamples++] = t;
	}
	if (err < 0 && err != PM_ERR_EOL)
		return err;
	if (!r->nsamples)
		return PM_ERR_EOL;
	r->start_ns = r->times[0];
	/* the mean step: the interval shown, and the pace of playing */
	r->step_ns = r->nsamples > 1 ? (r->times[r->nsamples - 1] -
					r->start_ns) / (r->nsamples - 1) : NSEC;
	return 0;
}

/*
 * A label's host name and time zone are ASCII text, as pmlogger and
 * LOGIMPORT(3) write them.  Anything else means the label was damaged,
 * which no libpcp version refuses on its own: the label's strings are
 * fixed-size fields, and damage there leaves every record readable.
 */
static int label_text(const char *s, size_t size, int may_be_empty)
{
	size_t n = strnlen(s, size);

	if (n == size || (!n && !may_be_empty))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
			return 0;
	return 1;
}

static int label_sane(const pmHighResLogLabel *l)
{
	return label_text(l->hostname, sizeof(l->hostname), 0) &&
	       label_text(l->timezone, sizeof(l->timezone), 1) &&
	       label_text(l->zoneinfo, sizeof(l->zoneinfo), 1);
}

/*
 * The archive's label and end, once the label is known sound: text where
 * text belongs, and the same in every file of the archive.
 */
static int read_label(const char *archive, pmHighResLogLabel *label,
		      struct timespec *end, char *msg, size_t msglen)
{
	char why[512] = "";
	int err = pmGetHighResArchiveLabel(label);

	if (!err)
		err = pmGetHighResArchiveEnd(end);
	if (err < 0) {
		snprintf(msg, msglen, _("cannot read archive %s: %s"), archive,
			 pmErrStr(err));
		return err;
	}
	if (!label_sane(label)) {
		snprintf(msg, msglen, _("cannot read archive %s: its label is "
			 "damaged (the host name or time zone is not text)"),
			 archive);
		return -EILSEQ;
	}
	err = archive_labels_agree(archive, why, sizeof(why));
	if (err)
		snprintf(msg, msglen, _("cannot read archive %s: it is damaged "
			 "(the label of %s is not the archive's)"), archive,
			 why);
	return err;
}

/*
 * The metric whose records the samples fall on: a thread counter, as a
 * thread is in a sample when it has a value of it (interpolation carries
 * discrete values such as csf.thread.tgid past the thread's end); the
 * first metric when the archive has no threads.
 */
static int sample_key(const struct replay *r)
{
	int key;

	for (key = 0; key < r->npmids && r->have_threads; key++)
		if (r->metrics[key]->cluster == CL_THREAD &&
		    r->metrics[key]->sem == PM_SEM_COUNTER)
			return key;
	return 0;
}

int replay_open(struct replay *r, const char *archive, const char *start,
		const char *finish, unsigned int step_ms, char *msg,
		size_t msglen)
{
	pmHighResLogLabel label;
	struct timespec end, wstart, wend, woff, first;
	char *why = NULL;
	int key, err;

	memset(r, 0, sizeof(*r));
	if (kills_reader(archive)) {
		snprintf(msg, msglen, _("cannot read archive %s: it is corrupt "
			 "(reading its metadata crashed libpcp)"), archive);
		r->ctx = -1;
		return -EILSEQ;
	}
	r->ctx = pmNewContext(PM_CONTEXT_ARCHIVE, archive);
	if (r->ctx < 0) {
		err = r->ctx;
		snprintf(msg, msglen, _("cannot open archive %s: %s"), archive,
			 pmErrStr(err));
		return err;
	}
	err = find_metrics(r);
	if (!err && !r->npmids)
		err = PM_ERR_NAME;
	if (err) {
		snprintf(msg, msglen, _("%s has no csf metrics (record them "
			 "with pmdacsf's pmlogconf groups, pmdacsf(1)): %s"),
			 archive, pmErrStr(err));
		goto fail;
	}
	err = read_label(archive, &label, &end, msg, msglen);
	if (err)
		goto fail;
	r->log_start_ns = ts_ns(&label.start);
	r->log_end_ns = ts_ns(&end);
	err = pmParseHighResTimeWindow(start, finish, NULL, NULL, &label.start,
				       &end, &wstart, &wend, &woff, &why);
	if (err < 0) {
		snprintf(msg, msglen, _("bad time window: %s"),
			 why ? why : pmErrStr(err));
		free(why);
		goto fail;
	}
	free(why);
	r->key = key = sample_key(r);
	err = step_ms ? next_record(r, key, &wstart, &first) :
		  scan_records(r, &wstart, &wend);
	if (err == PM_ERR_EOL || (!err && step_ms &&
				  ts_ns(&first) > ts_ns(&wend))) {
		snprintf(msg, msglen, _("%s has no csf samples in that time "
			 "window"), archive);
		err = PM_ERR_EOL;
		goto fail;
	}
	if (err < 0) {
		snprintf(msg, msglen, _("cannot read archive %s: %s"), archive,
			 pmErrStr(err));
		goto fail;
	}
	if (step_ms) {
		r->start_ns = ts_ns(&first);
		r->step_ns = (uint64_t)step_ms * 1000000;
		r->nsamples = (ts_ns(&wend) - r->start_ns) / r->step_ns + 1;
	}
	snprintf(r->clock, sizeof(r->clock), "unknown");
	return 0;
fail:
	replay_close(r);
	return err;
}

/* @ns as local time, to the second */
static const char *clock_text(uint64_t ns, char *buf, size_t len)
{
	time_t sec = (time_t)(ns / NSEC);
	struct tm tm;

	if (!localtime_r(&sec, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, len, "?");
	return buf;
}

int replay_parse_time(const struct replay *r, const char *text,
		      uint64_t *t_ns, char *msg, size_t msglen)
{
	struct timespec first = ns_ts(r->log_start_ns);
	struct timespec last = ns_ts(r->log_end_ns);
	struct timespec at, until, off;
	char *why = NULL;

	if (pmParseHighResTimeWindow(text, NULL, NULL, NULL, &first, &last,
				     &at, &until, &off, &why) < 0) {
		snprintf(msg, msglen, "%s", why ? why : _("not a time"));
		free(why);
		return -EINVAL;
	}
	free(why);
	*t_ns = ts_ns(&at);
	if (*t_ns < r->log_start_ns || *t_ns > r->log_end_ns) {
		char from[32], to[32];

		snprintf(msg, msglen, _("outside the archive, %s to %s"),
			 clock_text(r->log_start_ns, from, sizeof(from)),
			 clock_text(r->log_end_ns, to, sizeof(to)));
		return -ERANGE;
	}
	return 0;
}

size_t replay_find(const struct replay *r, uint64_t t_ns)
{
	size_t k;

	if (t_ns <= r->start_ns)
		return 0;
	if (r->times) {
		size_t lo = 0, hi = r->nsamples - 1;

		/* the last record at or before @t_ns */
		while (lo < hi) {
			size_t mid = lo + (hi - lo + 1) / 2;

			if (r->times[mid] <= t_ns)
				lo = mid;
			else
				hi = mid - 1;
		}
		return lo;
	}
	k = (size_t)((t_ns - r->start_ns) / r->step_ns);
	return k < r->nsamples ? k : r->nsamples - 1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_snap_tid(const void *key, const void *elem)
{
	uint32_t tid = *(const uint32_t *)key;
	uint32_t t = ((const struct csf_snap *)elem)->tid;

	return (tid > t) - (tid < t);
}

/* The threads of @res, in tid order, each set to its defaults. */
static int make_threads(struct replay *r, const pmHighResResult *res,
			uint64_t now)
{
	size_t n = 0, k = 0;
	uint32_t *tids;

	const pmValueSet *vs = res->vset[r->key];

	if (r->have_threads && vs->numval > 0)
		n = (size_t)vs->numval;
	tids = malloc((n ? n : 1) * sizeof(*tids));
	if (!tids)
		return -ENOMEM;
	for (size_t j = 0; j < n; j++)
		tids[k++] = (uint32_t)vs->vlist[j].inst;
	qsort(tids, n, sizeof(*tids), cmp_u32);
	if (n > r->snaps_cap) {
		struct csf_snap *s = realloc(r->snaps, n * sizeof(*s));

		if (!s) {
			free(tids);
			return -ENOMEM;
		}
		r->snaps = s;
		r->snaps_cap = n;
	}
	r->nsnaps = 0;
	for (size_t i = 0; i < n; i++) {
		struct csf_snap *s = &r->snaps[r->nsnaps];

		if (i && tids[i] == tids[i - 1])
			continue;
		memset(s, 0, sizeof(*s));
		s->tid = tids[i];
		s->tgid = tids[i];
		s->now = now;
		r->nsnaps++;
	}
	free(tids);
	return 0;
}

static int make_cpus(struct replay *r, const pmHighResResult *res,
		     uint64_t now)
{
	unsigned int n = 0;

	for (int i = 0; i < res->numpmid; i++) {
		const pmValueSet *vs = res->vset[i];

		if (r->metrics[i]->cluster == CL_CPU)
			for (int j = 0; j < vs->numval; j++)
				if (vs->vlist[j].inst >= 0 &&
				    (unsigned int)vs->vlist[j].inst >= n)
					n = (unsigned int)vs->vlist[j].inst + 1;
	}
	if (n > r->cpus_cap) {
		struct csf_cpu_snap *c = realloc(r->cpus, n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		r->cpus = c;
		r->cpus_cap = n;
	}
	r->ncpus = n;
	for (unsigned int i = 0; i < n; i++) {
		memset(&r->cpus[i], 0, sizeof(r->cpus[i]));
		r->cpus[i].now = now;
		r->cpus[i].stat_time = now;
	}
	return 0;
}

/* Where value @v of metric @i of the result goes, or NULL. */
static void *target(struct replay *r, int i, const pmValue *v)
{
	uint32_t inst = (uint32_t)v->inst;

	switch (r->metrics[i]->cluster) {
	case CL_CPU:
		return v->inst >= 0 && inst < r->ncpus ? &r->cpus[inst] : NULL;
	case CL_THREAD:
		return bsearch(&inst, r->snaps, r->nsnaps, sizeof(*r->snaps),
			       cmp_snap_tid);
	}
	return NULL;
}

int replay_read(struct replay *r, size_t k)
{
	struct timespec at = ns_ts(replay_time(r, k));
	struct timespec step = ns_ts(r->step_ns);
	pmHighResResult *res;
	uint64_t now = replay_time(r, k);
	int err;

	err = pmSetModeHighRes(PM_MODE_INTERP, &at, &step);
	if (err < 0)
		return err;
	err = pmFetchHighRes(r->npmids, (pmID *)r->pmids, &res);
	if (err < 0)
		return err;
	err = make_threads(r, res, now);
	if (!err)
		err = make_cpus(r, res, now);
	for (int i = 0; i < res->numpmid && !err; i++) {
		const struct metric *m = r->metrics[i];
		const pmValueSet *vs = res->vset[i];

		for (int j = 0; j < vs->numval && !err; j++) {
			void *dst = m->cluster == CL_MODULE ? NULL :
				    target(r, i, &vs->vlist[j]);
			pmAtomValue a;

			err = pmExtractValue(vs->valfmt, &vs->vlist[j],
					     r->types[i], &a, m->type);
			if (err < 0)
				break;
			err = 0;
			if (m->cluster == CL_MODULE)
				snprintf(r->clock, sizeof(r->clock), "%s",
					 a.cp);
			else if (dst)
				err = metric_put(m, dst, &a);
			if (m->type == PM_TYPE_STRING)
				free(a.cp);
		}
	}
	pmFreeHighResResult(res);
	if (err)
		return err;
	r->pos = k;
	return 0;
}
