// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmdacsf.c - the coarse_stat_fs agent for Performance Co-Pilot.
 *
 * One binary, two ways to run: a daemon under pmcd (main()), or a DSO that
 * pmcd or pmSpecLocalPMDA(3) loads (csf_init()).  The pages are read the
 * way csftop reads them, through the library's monitor session
 * (csf_session_read(3)): there is no second reader of the ABI here.  One
 * sample is taken per fetch or instance request, whatever it asks for.
 *
 * Instance domains:
 *   cpu      "cpuN", instance N
 *   thread   "TID COMM", instance TID: registered threads that live
 *   process  "TGID COMM", instance TGID (COMM: the leader's, or that of
 *            its lowest registered thread): processes with a live
 *            registered thread
 *
 * A process's totals follow csf_group_add(3)'s rule, as csftop's process
 * rows do: its live threads' plus those of its threads that exited while
 * the agent watched, so that they never go back as threads come and go (a
 * counter that went back would read as a wrap).
 *
 * Every metric is one entry of metrics[] (metrics.c): its name, PMID,
 * type, semantics, units, help and where it is in a snapshot.  The PMNS
 * and the help text that pmcd and newhelp read are written from that table
 * (pmdacsf --pmns, --helptext), so they cannot disagree with it, and
 * csftop -a reads archives with it.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "coarse_stat_fs.h"
#include "domain.h"
#include "metrics.h"


/* What a process instance adds up. */
struct proc {
	struct csf_group sum;		/* csf_group_add(3)'s rule */
	unsigned int nthreads;
	const struct csf_snap *name_from;	/* whose comm names it */
};

/*
 * An instance's name, "ID COMM", and what it was made from: rewritten
 * only when those change, as formatting them all at every fetch was a
 * large part of its cost.
 */
struct inst_name {
	char s[40];
	int id;
	char comm[16];
};

static void name_instance(pmdaInstid *in, struct inst_name *nm, int id,
			  const char *comm)
{
	if (nm->id != id || memcmp(nm->comm, comm, sizeof(nm->comm)) ||
	    !nm->s[0]) {
		nm->id = id;
		memcpy(nm->comm, comm, sizeof(nm->comm));
		snprintf(nm->s, sizeof(nm->s), "%d %.15s", id, comm);
	}
	in->i_inst = id;
	in->i_name = nm->s;
}

/*
 * A value's block, of the size of the longest value the agent serves: a
 * comm (15 bytes and a NUL), a state or a clock name, a 64-bit number.
 */
union vblock {
	pmValueBlock vb;
	char bytes[PM_VAL_HDR_SIZE + 24];
};

static pmdaMetric *metrictab;
static pmdaIndom indomtab[NR_INDOMS] = {
	{ CPU_INDOM, 0, NULL },
	{ THREAD_INDOM, 0, NULL },
	{ PROC_INDOM, 0, NULL },
};

static struct agent {
	struct csf_session *ses;
	struct csf_sample smp;		/* the last sample read */
	int open;			/* a sample read: values to serve */
	int said_unmounted;		/* the log line was written */
	struct csf_module_stats mod;
	/* instances: one pmdaInstid and name per entry */
	pmdaInstid *cpu_ids, *thread_ids, *proc_ids;
	struct inst_name *cpu_names, *thread_names, *proc_names;
	/* live threads, sorted by tid, pointing into s.snaps */
	const struct csf_snap **live, **by_tgid;
	size_t nlive;
	struct proc *procs;		/* sorted by tgid */
	size_t nprocs;
	/* by position in live[]: the waits of a fetch that asks for them */
	struct thread_waits *waits;
	size_t cap;			/* of the arrays of threads and procs */
	struct csf_gone gone;		/* exited threads' sums */
	pid_t *folded;			/* exited tids already in ag.gone */
	size_t nfolded;
	pid_t *folding;			/* the next sample's, then swapped */
	/* a fetch's result, and the client's instances of each domain, by
	 * position in indomtab[] */
	size_t *sel[NR_INDOMS], nsel[NR_INDOMS];
	pmResult *res;
	int nres;
} ag;

static void log_unmounted(int err)
{
	if (ag.said_unmounted)
		return;
	/* csf_strerror() says what to do about it */
	pmNotifyErr(LOG_WARNING, "%s; no values until then: the agent tries "
		    "again at every fetch", csf_strerror(err));
	ag.said_unmounted = 1;
}

/* Room for @n threads (and so processes) in every array that holds them. */
static int reserve(size_t n)
{
	size_t cap = ag.cap ? ag.cap : 64;

	if (n <= ag.cap)
		return 0;
	while (cap < n)
		cap *= 2;
	/* zeroed: a name is rewritten when its id or comm differs */
#define RESIZE(p)							\
	do {								\
		void *q = realloc(p, cap * sizeof(*(p)));		\
		if (!q)							\
			return -ENOMEM;					\
		p = q;							\
		memset(p + ag.cap, 0, (cap - ag.cap) * sizeof(*(p)));	\
	} while (0)
	RESIZE(ag.live);
	RESIZE(ag.by_tgid);
	RESIZE(ag.thread_ids);
	RESIZE(ag.thread_names);
	RESIZE(ag.procs);
	RESIZE(ag.proc_ids);
	RESIZE(ag.proc_names);
	RESIZE(ag.folded);
	RESIZE(ag.folding);
	RESIZE(ag.waits);
#undef RESIZE
	ag.cap = cap;
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static int cmp_tgid(const void *a, const void *b)
{
	const struct csf_snap *x = *(const struct csf_snap *const *)a;
	const struct csf_snap *y = *(const struct csf_snap *const *)b;

	if (x->tgid != y->tgid)
		return (x->tgid > y->tgid) - (x->tgid < y->tgid);
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* Whether process @tgid is among procs[], which are sorted by tgid. */
static int proc_shown(const void *arg, uint32_t tgid)
{
	size_t lo = 0, hi = ag.nprocs;

	(void)arg;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ag.procs[mid].sum.tgid == tgid)
			return 1;
		if (ag.procs[mid].sum.tgid < tgid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/*
 * Fold the threads that exited since the last sample into ag.gone, once
 * each: a session may give an exited thread's page in more than one
 * sample (csf_session_read(3)).
 */
static int fold_exited(void)
{
	size_t n = 0;
	pid_t *folded;
	int err = reserve(ag.smp.nthreads);

	if (err)
		return err;
	folded = ag.folding;
	for (size_t i = 0; i < ag.smp.nthreads; i++) {
		const struct csf_snap *t = &ag.smp.threads[i];
		pid_t tid = (pid_t)t->tid;
		struct csf_group g;

		if (t->state != CSF_STATE_EXITED)
			continue;
		folded[n++] = tid;
		if (bsearch(&tid, ag.folded, ag.nfolded, sizeof(pid_t),
			    cmp_pid))
			continue;
		g = csf_group_of_snap(t);
		if (csf_gone_add(&ag.gone, &g))
			return -ENOMEM;
	}
	/* the exited pages still mapped stay folded; the rest are gone */
	qsort(folded, n, sizeof(*folded), cmp_pid);
	ag.folding = ag.folded;
	ag.folded = folded;
	ag.nfolded = n;
	return 0;
}

/* The live threads, and the processes they make up with ag.gone. */
static int build_instances(void)
{
	size_t n = 0, np = 0;
	int err = reserve(ag.smp.nthreads);

	if (err)
		return err;
	for (size_t i = 0; i < ag.smp.nthreads; i++)
		if (ag.smp.threads[i].state != CSF_STATE_EXITED)
			ag.live[n++] = &ag.smp.threads[i];
	ag.nlive = n;
	for (size_t i = 0; i < n; i++)
		name_instance(&ag.thread_ids[i], &ag.thread_names[i],
			      (int)ag.live[i]->tid, ag.live[i]->comm);
	indomtab[THREAD_INDOM].it_numinst = (int)n;
	indomtab[THREAD_INDOM].it_set = ag.thread_ids;

	memcpy(ag.by_tgid, ag.live, n * sizeof(*ag.by_tgid));
	/* a process's threads mostly have consecutive tids: often sorted */
	for (size_t i = 1; i < n; i++)
		if (cmp_tgid(&ag.by_tgid[i - 1], &ag.by_tgid[i]) > 0) {
			qsort(ag.by_tgid, n, sizeof(*ag.by_tgid), cmp_tgid);
			break;
		}
	for (size_t i = 0; i < n; i++) {
		const struct csf_snap *t = ag.by_tgid[i];
		struct proc *p = &ag.procs[np ? np - 1 : 0];
		struct csf_group g = csf_group_of_snap(t);

		if (!np || p->sum.tgid != t->tgid) {
			const struct csf_group *gone;

			p = &ag.procs[np++];
			memset(p, 0, sizeof(*p));
			p->sum.tgid = t->tgid;
			p->name_from = t;
			gone = csf_gone_find(&ag.gone, t->tgid);
			if (gone)
				p->sum = *gone;
		}
		if (t->tid == t->tgid)
			p->name_from = t;
		p->nthreads++;
		csf_group_add(&p->sum, &g);
	}
	ag.nprocs = np;
	for (size_t i = 0; i < np; i++)
		name_instance(&ag.proc_ids[i], &ag.proc_names[i],
			      (int)ag.procs[i].sum.tgid,
			      ag.procs[i].name_from->comm);
	indomtab[PROC_INDOM].it_numinst = (int)np;
	indomtab[PROC_INDOM].it_set = ag.proc_ids;
	csf_gone_keep(&ag.gone, proc_shown, NULL);
	return 0;
}

static int cpu_instances(void)
{
	unsigned int n = ag.smp.ncpus;

	ag.cpu_ids = calloc(n ? n : 1, sizeof(*ag.cpu_ids));
	ag.cpu_names = calloc(n ? n : 1, sizeof(*ag.cpu_names));
	if (!ag.cpu_ids || !ag.cpu_names)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		ag.cpu_ids[i].i_inst = (int)i;
		snprintf(ag.cpu_names[i].s, sizeof(ag.cpu_names[i].s), "cpu%u",
			 i);
		ag.cpu_ids[i].i_name = ag.cpu_names[i].s;
	}
	indomtab[CPU_INDOM].it_numinst = (int)n;
	indomtab[CPU_INDOM].it_set = ag.cpu_ids;
	return 0;
}

/* Take one sample; 0, or a negative errno and no instances. */
static int refresh(void)
{
	int err;

	if (!ag.ses) {
		err = csf_session_open(&ag.ses);
		if (err) {
			log_unmounted(err);
			return err;
		}
		if (ag.said_unmounted)
			pmNotifyErr(LOG_INFO, "coarse_stat_fs is mounted: "
				    "values again");
		ag.said_unmounted = 0;
	}
	err = csf_session_read(ag.ses, &ag.smp);
	if (!err && !ag.open) {
		err = cpu_instances();
		ag.open = !err;
	}
	if (!err)
		err = csf_module_stats(&ag.mod);
	if (!err)
		err = fold_exited();
	if (!err)
		err = build_instances();
	if (err) {
		indomtab[THREAD_INDOM].it_numinst = 0;
		indomtab[PROC_INDOM].it_numinst = 0;
		pmNotifyErr(LOG_ERR, "reading the pages: %s",
			    csf_strerror(err));
	}
	return err;
}

static pmAtomValue u64(uint64_t v)
{
	pmAtomValue a = { .ull = v };

	return a;
}

static pmAtomValue u32(uint32_t v)
{
	pmAtomValue a = { .ul = v };

	return a;
}

static pmAtomValue str(const char *s)
{
	pmAtomValue a = { .cp = (char *)s };

	return a;
}

static pmAtomValue proc_value(unsigned int item, const struct proc *p)
{
	if (item < CSF_NR_STATES)
		return u64(p->sum.time_ns[item]);
	switch (item) {
	case IT_NVCSW:
		return u64(p->sum.nvcsw);
	case IT_NIVCSW:
		return u64(p->sum.nivcsw);
	case IT_WAKEUPS:
		return u64(p->sum.wakeups);
	case IT_MIGRATIONS:
		return u64(p->sum.migrations);
	}
	return u32(p->nthreads);
}

static pmAtomValue module_value(unsigned int item)
{
	switch (item) {
	case IT_M_THREADS:
		return u64(ag.mod.nr_threads);
	case IT_M_PAGES:
		return u64(ag.mod.nr_allocated);
	case IT_M_MAX:
		return u32(ag.mod.max_threads);
	case IT_M_GEN:
		return u64(ag.mod.generation);
	case IT_M_CLOCK:
		return str(csf_clock_name(csf_clock()));
	}
	return u32(ag.smp.denied);
}

/* The value of @m for the @pos-th instance of its domain. */
static pmAtomValue value_at(const struct metric *m, size_t pos)
{
	switch (m->cluster) {
	case CL_CPU:
		return metric_get(m, &ag.smp.cpus[pos]);
	case CL_THREAD:
		return metric_get(m, ag.live[pos]);
	case CL_WAITS:
		return metric_get(m, &ag.waits[pos]);
	case CL_PROC:
		return proc_value(m->item, &ag.procs[pos]);
	}
	return module_value(m->item);
}

/* pmAddProfile(3)'s rule: does the client's @prof ask for @inst of @indom? */
static int in_profile(const pmProfile *prof, pmInDom indom, int inst)
{
	const pmInDomProfile *p = NULL;

	if (!prof)
		return 1;
	for (int i = 0; i < prof->profile_len && !p; i++)
		if (prof->profile[i].indom == indom)
			p = &prof->profile[i];
	if (!p)
		return prof->state == PM_PROFILE_INCLUDE;
	for (int i = 0; i < p->instances_len; i++)
		if (p->instances[i] == inst)
			return p->state != PM_PROFILE_INCLUDE;
	return p->state == PM_PROFILE_INCLUDE;
}

/* The positions in indomtab[@k] of the instances @prof asks for. */
static int select_instances(unsigned int k, const pmProfile *prof)
{
	const pmdaIndom *in = &indomtab[k];
	size_t *v = realloc(ag.sel[k], (in->it_numinst ? in->it_numinst : 1) *
			    sizeof(*v));

	if (!v)
		return -ENOMEM;
	ag.sel[k] = v;
	ag.nsel[k] = 0;
	for (int i = 0; i < in->it_numinst; i++)
		if (in_profile(prof, in->it_indom, in->it_set[i].i_inst))
			v[ag.nsel[k]++] = (size_t)i;
	return 0;
}

static const struct metric *find_metric(pmID pmid)
{
	for (size_t i = 0; i < nr_metrics; i++)
		if (metrictab[i].m_desc.pmid == pmid)
			return &metrics[i];
	return NULL;
}

/* Fill @vset's values of @m, taking the blocks it needs from @b on. */
static void put_values(pmValueSet *vset, const struct metric *m,
		       union vblock *b)
{
	int null = m->indom == PM_INDOM_NULL;
	size_t n = null ? 1 : ag.nsel[m->indom];

	vset->numval = (int)n;
	vset->valfmt = m->type == PM_TYPE_U32 ? PM_VAL_INSITU : PM_VAL_SPTR;
	for (size_t j = 0; j < n; j++) {
		size_t pos = null ? 0 : ag.sel[m->indom][j];
		pmAtomValue a = value_at(m, pos);
		pmValue *v = &vset->vlist[j];

		v->inst = null ? (int)PM_IN_NULL :
			indomtab[m->indom].it_set[pos].i_inst;
		if (m->type == PM_TYPE_U32) {
			v->value.lval = (int)a.ul;
			continue;
		}
		v->value.pval = &b->vb;
		b->vb.vtype = (unsigned int)m->type;
		if (m->type == PM_TYPE_STRING) {
			size_t len = strnlen(a.cp, sizeof(b->bytes) -
					     PM_VAL_HDR_SIZE - 1);

			memcpy(b->vb.vbuf, a.cp, len);
			b->vb.vbuf[len] = '\0';
			b->vb.vlen = (unsigned int)(PM_VAL_HDR_SIZE + len + 1);
		} else {
			memcpy(b->vb.vbuf, &a.ull, sizeof(a.ull));
			b->vb.vlen = PM_VAL_HDR_SIZE + sizeof(a.ull);
		}
		b++;
	}
}

/*
 * The result of a fetch, made here rather than by pmdaFetch(), which
 * asks a callback for each value, walks an instance domain twice for
 * each metric and allocates a block for each 64-bit value (its cost:
 * doc/measurements.md, "The PCP agent").  Each value set is one
 * malloc(), as __pmFreeResultValues() frees it, with the blocks of its
 * 64-bit and string values after its values: PM_VAL_SPTR, which it does
 * not free apart.  They live as long as the set, which a local context's
 * caller keeps past the next fetch (__pmFetchLocal()).
 */
/*
 * The waits of the threads the client asks for, once for every waits
 * metric of the fetch: five quantiles of a thread's histograms, not one
 * per value.
 */
static void fetch_waits(void)
{
	for (size_t j = 0; j < ag.nsel[THREAD_INDOM]; j++) {
		size_t pos = ag.sel[THREAD_INDOM][j];
		size_t k = (size_t)(ag.live[pos] - ag.smp.threads);

		thread_waits_of(&ag.waits[pos], ag.smp.lasts[k]);
	}
}

static int csf_fetch(int n, pmID *pmids, pmResult **resp, pmdaExt *pmda)
{
	int picked[NR_INDOMS] = { 0 }, waits = 0;

	refresh();
	if (n > ag.nres) {
		pmResult *r = realloc(ag.res, sizeof(*r) + (size_t)(n - 1) *
				      sizeof(r->vset[0]));

		if (!r)
			return -ENOMEM;
		ag.res = r;
		ag.nres = n;
	}
	memset(&ag.res->timestamp, 0, sizeof(ag.res->timestamp));
	ag.res->numpmid = n;
	for (int i = 0; i < n; i++) {
		const struct metric *m = find_metric(pmids[i]);
		size_t nv = 0, nb = 0, head;
		pmValueSet *vset;

		if (m && ag.open) {
			if (m->indom == PM_INDOM_NULL) {
				nv = 1;
			} else {
				if (!picked[m->indom] &&
				    select_instances(m->indom, pmda->e_prof))
					goto nomem;
				picked[m->indom] = 1;
				nv = ag.nsel[m->indom];
			}
			if (m->cluster == CL_WAITS && !waits++)
				fetch_waits();
			nb = m->type == PM_TYPE_U32 ? 0 : nv;
		}
		head = sizeof(*vset) + (nv > 1 ? nv - 1 : 0) *
			sizeof(vset->vlist[0]);
		vset = malloc(head + nb * sizeof(union vblock));
		if (!vset)
			goto nomem;
		ag.res->vset[i] = vset;
		vset->pmid = pmids[i];
		vset->valfmt = PM_VAL_INSITU;
		if (!m)
			vset->numval = PM_ERR_PMID;
		else if (!ag.open)
			vset->numval = PM_ERR_AGAIN;
		else
			put_values(vset, m, (union vblock *)((char *)vset + head));
		continue;
nomem:
		while (i-- > 0)
			free(ag.res->vset[i]);
		return -ENOMEM;
	}
	*resp = ag.res;
	return 0;
}

static int csf_instance(pmInDom indom, int inst, char *name,
			pmInResult **result, pmdaExt *pmda)
{
	refresh();
	return pmdaInstance(indom, inst, name, result, pmda);
}

/* --pmns and --helptext: the files pmcd and newhelp read, from metrics[]. */
static void print_pmns(void)
{
	const char *groups[] = { "cpu", "cpu.stat", "thread", "thread.time",
				 "thread.waits", "thread.waits.runnable",
				 "thread.waits.all", "thread.waker",
				 "thread.preemptor", "proc", "proc.time",
				 "module", "agent" };
	const char *top[] = { "cpu", "thread", "proc", "module", "agent" };

	printf("/* written by pmdacsf --pmns from its metric table */\n\n");
	printf("csf {\n");
	for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
		printf("\t%s\n", top[i]);
	printf("}\n");
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		size_t len = strlen(groups[g]);

		printf("\ncsf.%s {\n", groups[g]);
		/* subgroups first, then the metrics directly under it */
		for (size_t s = 0; s < sizeof(groups) / sizeof(groups[0]); s++)
			if (!strncmp(groups[s], groups[g], len) &&
			    groups[s][len] == '.' &&
			    !strchr(groups[s] + len + 1, '.'))
				printf("\t%s\n", groups[s] + len + 1);
		for (size_t i = 0; i < nr_metrics; i++) {
			const char *n = metrics[i].name;

			if (!strncmp(n, groups[g], len) && n[len] == '.' &&
			    !strchr(n + len + 1, '.'))
				printf("\t%s\t%u:%u:%u\n", n + len + 1, CSF,
				       metrics[i].cluster, metrics[i].item);
		}
		printf("}\n");
	}
}

/* @text in lines of at most 72 columns: newhelp splits longer ones. */
static void print_wrapped(const char *text)
{
	while (*text) {
		size_t n = strlen(text), cut = n;

		if (n > 72) {
			cut = 72;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (!cut)
				cut = 72;
		}
		printf("%.*s\n", (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
	}
}

static void print_helptext(void)
{
	printf("# written by pmdacsf --helptext from its metric table\n");
	for (size_t i = 0; i < nr_metrics; i++) {
		printf("\n@ csf.%s %s\n", metrics[i].name, metrics[i].oneline);
		print_wrapped(metrics[i].help);
	}
	printf("\n@ %u.%u cpu instance domain\nCPUs by number: cpuN.\n",
	       CSF, CPU_INDOM);
	printf("\n@ %u.%u thread instance domain\nRegistered live threads: "
	       "\"TID COMM\", instance TID.\n", CSF, THREAD_INDOM);
	printf("\n@ %u.%u process instance domain\nProcesses with a "
	       "registered live thread: \"TGID COMM\", instance TGID.\n",
	       CSF, PROC_INDOM);
}

/* The DSO's entry point, as pmcd.conf and pmSpecLocalPMDA name it. */
void __PMDA_INIT_CALL csf_init(pmdaInterface *dp);

static int is_dso = 1;
static char helppath[MAXPATHLEN];

void __PMDA_INIT_CALL csf_init(pmdaInterface *dp)
{
	if (is_dso) {
		int sep = pmPathSeparator();

		pmsprintf(helppath, sizeof(helppath), "%s%c" "csf" "%c" "help",
			  pmGetConfig("PCP_PMDAS_DIR"), sep, sep);
		pmdaDSO(dp, PMDA_INTERFACE_7, "csf DSO", helppath);
	}
	if (dp->status != 0)
		return;
	metrictab = calloc(nr_metrics, sizeof(*metrictab));
	if (!metrictab) {
		dp->status = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < nr_metrics; i++) {
		metrictab[i].m_user = NULL;
		metrictab[i].m_desc.pmid = PMDA_PMID(metrics[i].cluster,
						     metrics[i].item);
		metrictab[i].m_desc.type = metrics[i].type;
		metrictab[i].m_desc.indom = metrics[i].indom;
		metrictab[i].m_desc.sem = metrics[i].sem;
		metrictab[i].m_desc.units = metrics[i].units;
	}
	dp->version.any.fetch = csf_fetch;
	dp->version.any.instance = csf_instance;
	pmdaInit(dp, indomtab, NR_INDOMS, metrictab, (int)nr_metrics);
}

static pmLongOptions longopts[] = {
	PMDA_OPTIONS_HEADER("Options"),
	PMOPT_DEBUG,
	PMDAOPT_DOMAIN,
	PMDAOPT_HELPTEXT,
	PMDAOPT_LOGFILE,
	PMDAOPT_USERNAME,
	{ "all", 0, 'A', 0, "register every thread of the machine, now and "
	  "from then on (as root)" },
	PMOPT_HELP,
	PMDA_OPTIONS_TEXT("\nAnd alone, to write the files the agent is "
			  "installed with:"),
	{ "pmns", 0, 0, 0, "print the PMNS of the csf metrics" },
	{ "helptext", 0, 0, 0, "print their help text, for newhelp" },
	PMDA_OPTIONS_END
};

static pmdaOptions opts = {
	.short_options = "AD:d:h:l:U:?",
	.long_options = longopts,
};

/* -A: the whole machine, asked for before the identity changes. */
static void attach_all(void)
{
	int err = csf_attach_all();

	if (err)
		pmNotifyErr(LOG_WARNING, "-A: the whole machine: %s",
			    csf_strerror(err));
	else
		pmNotifyErr(LOG_INFO, "-A: every thread of the machine is "
			    "registered, and every new one will be");
}

int main(int argc, char **argv)
{
	int sep = pmPathSeparator();
	pmdaInterface dispatch;
	int c, all = 0;

	if (argc == 2 && !strcmp(argv[1], "--pmns")) {
		print_pmns();
		return fflush(stdout) ? 1 : 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--helptext")) {
		print_helptext();
		return fflush(stdout) ? 1 : 0;
	}
	is_dso = 0;
	pmSetProgname(argv[0]);
	pmsprintf(helppath, sizeof(helppath), "%s%c" "csf" "%c" "help",
		  pmGetConfig("PCP_PMDAS_DIR"), sep, sep);
	pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), CSF,
		   "csf.log", helppath);
	while ((c = pmdaGetOptions(argc, argv, &opts, &dispatch)) != EOF)
		if (c == 'A')
			all = 1;
	if (opts.errors) {
		pmdaUsageMessage(&opts);
		return 1;
	}
	pmdaOpenLog(&dispatch);
	if (all)
		attach_all();
	/* root by default, to map every user's pages, as pmdaproc does */
	if (opts.username)
		pmSetProcessIdentity(opts.username);
	pmdaConnect(&dispatch);
	csf_init(&dispatch);
	pmdaMain(&dispatch);
	return 0;
}
