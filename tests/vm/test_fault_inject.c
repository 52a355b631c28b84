// SPDX-License-Identifier: MIT
/*
 * test_fault_inject - every allocation on the path of open(thread-self)
 * fails once, in turn, and each failure is clean: ENOMEM to the caller, the
 * thread left unregistered, nothing leaked, the module still usable.
 *
 * How (Documentation/fault-injection/fault-injection.rst of 7.3): writing N
 * to /proc/thread-self/fail-nth makes the N-th should_fail() call of this
 * task fail, whatever the capability; reading it back gives 0 once the
 * fault was injected, else what is left of N.  For n = 1, 2, ... a fresh
 * thread (so unregistered) arms n and opens thread-self; the sweep ends at
 * the first n the call does not reach, which must succeed.
 *
 * failslab and fail_page_alloc look at fail-nth only after their own
 * filters, and their defaults hide exactly the allocations the module
 * makes: ignore-gfp-wait=Y skips every allocation that may sleep
 * (GFP_KERNEL), and fail_page_alloc's min-order=1 skips order-0 pages
 * (alloc_page()).  The test sets both to let them fail and restores them.
 * verbose=1 names the capability of each injected fault in dmesg without
 * a stack dump (the default, 2, prints "Call Trace:", which the host
 * rightly treats as trouble).
 *
 * Leaks are looked for where they would show: the cpu header's nr_threads
 * and nr_allocated; the module's private cap count (csf_nr_entries, not
 * published), by filling the cap afterwards; and the slab caches of the
 * path, with the sweep repeated LEAK_ROUNDS times so that one object per
 * failure stands out of the noise (free pages too, but only coarsely:
 * see the check).  KASAN (the debug kernel)
 * holds freed objects in a quarantine, which counts as allocated in
 * /proc/slabinfo: writing to /sys/kernel/slab/<cache>/shrink empties it
 * for that cache (kmem_cache_shrink() -> kasan_cache_shrink()).
 *
 * Kernels without fault injection (Debian's: no CONFIG_FAULT_INJECTION)
 * have no fail-nth: the test says SKIP and passes, except on the kernel
 * named "debug" ($CSF_VM_KERNEL, from tests/vm/run.sh), whose config asks
 * for it: there a missing fail-nth fails.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "coarse_stat_fs.h"
#include "vmtest.h"

#define DEBUGFS "/sys/kernel/debug"
#define FAIL_NTH "/proc/thread-self/fail-nth"
/* Far more than the path has (six to eight): a sweep that never ends is a bug. */
#define MAX_POINTS 64
/*
 * Sweeps repeated for the leak count: one object lost per failure at one
 * point is LEAK_ROUNDS of them.  The noise is not small on 7.x: objects
 * held in the per-CPU sheaves and the node's barn count as allocated in
 * /proc/slabinfo, and shrinking does not give them back; +-20..60 was
 * seen over 40 sweeps whatever their number, and a kfree() left out of
 * the module's alloc_page() failure path (40 objects) hid in it.  200
 * sweeps take ~25 s on the debug kernel, the only one that runs them.
 */
#define LEAK_ROUNDS 200

static int debug_kernel(void)
{
	return !strcmp(vm_env("CSF_VM_KERNEL", ""), "debug");
}

/* ---- the fault-injection knobs ------------------------------------------- */

/* what the test needs, and the kernel's default (lib/fault-inject.c, mm/) */
static const struct knob {
	const char *path;
	const char *value, *dflt;
} knobs[] = {
	{ DEBUGFS "/failslab/ignore-gfp-wait", "N", "Y" },
	{ DEBUGFS "/failslab/verbose", "1", "2" },
	/* the messages name the capability; 10 per 5 s would hide most */
	{ DEBUGFS "/failslab/verbose_ratelimit_burst", "1000000", "10" },
	{ DEBUGFS "/fail_page_alloc/ignore-gfp-wait", "N", "Y" },
	{ DEBUGFS "/fail_page_alloc/min-order", "0", "1" },
	{ DEBUGFS "/fail_page_alloc/verbose", "1", "2" },
	{ DEBUGFS "/fail_page_alloc/verbose_ratelimit_burst", "1000000", "10" },
};
#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))

/* 1: fault injection is there and armed for GFP_KERNEL; 0: skip. */
static int arm_knobs(void)
{
	size_t i;
	int err;

	if (access(FAIL_NTH, F_OK) != 0) {
		ck_assert_msg(!debug_kernel(),
			      "%s missing on the debug kernel (CONFIG_FAULT_INJECTION and CONFIG_FAULT_INJECTION_DEBUG_FS are in tests/vm/debug.config)",
			      FAIL_NTH);
		vm_note("SKIP: %s missing: this kernel has no fault injection (kernel %s)",
			FAIL_NTH, vm_env("CSF_VM_KERNEL", "?"));
		return 0;
	}
	if (access(DEBUGFS "/failslab", F_OK) != 0)
		mount("debugfs", DEBUGFS, "debugfs", 0, NULL);
	for (i = 0; i < NKNOBS; i++) {
		err = access(knobs[i].path, W_OK) ? -errno : 0;
		ck_assert_msg(!err, "%s: %s (FAILSLAB, FAIL_PAGE_ALLOC and FAULT_INJECTION_DEBUG_FS are needed)",
			      knobs[i].path, strerror(-err));
		err = vm_write_file(knobs[i].path, knobs[i].value);
		ck_assert_msg(!err, "write %s to %s: %s", knobs[i].value,
			      knobs[i].path, strerror(-err));
	}
	return 1;
}

/* ---- one attempt: a fresh thread, fail-nth armed, open ------------------ */

struct attempt {
	const char *path;		/* what to open */
	const struct csf_cpu_header *hdr;
	uint64_t threads0;		/* nr_threads before */
	unsigned int n;
	/* results */
	int fd_ok, err, injected;
	unsigned int left;		/* fail-nth read back */
	char problem[200];		/* first inconsistency seen inside */
};

static void *attempt_thread(void *arg)
{
	struct attempt *a = arg;
	char num[16], back[16];
	int ff, fd, len;
	ssize_t r;

	len = snprintf(num, sizeof(num), "%u", a->n);
	ff = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	if (ff < 0) {
		snprintf(a->problem, sizeof(a->problem), "open %s: %s",
			 FAIL_NTH, strerror(errno));
		return NULL;
	}
	/*
	 * Between arming fail-nth and the open, nothing else may allocate on
	 * this task's behalf, such as the page table of a stack page fault.
	 */
	vm_touch_stack(16384);
	if (write(ff, num, len) != len) {
		snprintf(a->problem, sizeof(a->problem), "arm fail-nth: %s",
			 strerror(errno));
		close(ff);
		return NULL;
	}
	fd = open(a->path, O_RDONLY | O_CLOEXEC);
	a->err = fd < 0 ? errno : 0;
	r = pread(ff, back, sizeof(back) - 1, 0);
	/* disarm before anything else can allocate */
	if (write(ff, "0", 1) != 1 && !a->problem[0])
		snprintf(a->problem, sizeof(a->problem), "disarm: %s",
			 strerror(errno));
	close(ff);
	if (r <= 0) {
		snprintf(a->problem, sizeof(a->problem), "read fail-nth back: %s",
			 r < 0 ? strerror(errno) : "empty");
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	back[r] = '\0';
	a->left = (unsigned int)strtoul(back, NULL, 10);
	a->injected = a->left == 0;
	a->fd_ok = fd >= 0;

	if (fd >= 0) {
		const struct csf_thread_page *tp = NULL;
		void *m = MAP_FAILED;

		if (strstr(a->path, "thread-self")) {
			m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
			tp = m == MAP_FAILED ? NULL : m;
		}
		if (strstr(a->path, "thread-self") && !tp)
			snprintf(a->problem, sizeof(a->problem),
				 "mmap after a successful open: %s",
				 strerror(errno));
		else if (tp && (tp->magic != CSF_THREAD_MAGIC ||
				tp->tid != (uint32_t)gettid()))
			snprintf(a->problem, sizeof(a->problem),
				 "page magic %#x tid %u, want %#x %d",
				 tp->magic, tp->tid, CSF_THREAD_MAGIC,
				 (int)gettid());
		else if (tp && vm_load64(&a->hdr->nr_threads) != a->threads0 + 1)
			snprintf(a->problem, sizeof(a->problem),
				 "registered, nr_threads %" PRIu64 " (was %" PRIu64 ")",
				 vm_load64(&a->hdr->nr_threads), a->threads0);
		if (m != MAP_FAILED)
			munmap(m, 4096);
		close(fd);
	} else {
		struct stat st;
		char tid[32];

		/* A failed open registered nothing, not even for a moment. */
		snprintf(tid, sizeof(tid), "threads/%d", (int)gettid());
		if (vm_load64(&a->hdr->nr_threads) != a->threads0)
			snprintf(a->problem, sizeof(a->problem),
				 "failed open, yet nr_threads %" PRIu64 " (was %" PRIu64 ")",
				 vm_load64(&a->hdr->nr_threads), a->threads0);
		/* stat, not access(): that allocates a cred, freed by RCU */
		else if (stat(vm_path(tid), &st) == 0)
			snprintf(a->problem, sizeof(a->problem),
				 "failed open, yet %s exists", tid);
	}
	return NULL;
}

static void attempt(struct attempt *a)
{
	pthread_t t;

	a->threads0 = vm_load64(&a->hdr->nr_threads);
	a->fd_ok = a->err = a->injected = 0;
	a->left = 0;
	a->problem[0] = '\0';
	ck_assert_int_eq(pthread_create(&t, NULL, attempt_thread, a), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_msg(!a->problem[0], "fail-nth %u, open %s: %s", a->n,
		      a->path, a->problem);
}

/* ---- which capability failed: dmesg ------------------------------------ */

static int kmsg = -1;

static void kmsg_open(void)
{
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);
}

/* The "name X" of the fault-injection messages since the last call. */
static void kmsg_faults(char *out, size_t len)
{
	char rec[1024];
	ssize_t n;

	out[0] = '\0';
	if (kmsg < 0)
		return;
	while ((n = read(kmsg, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		char *p;

		if (n <= 0)
			continue;	/* overrun: records lost, go on */
		rec[n] = '\0';
		p = strstr(rec, "name ");
		if (p && strstr(rec, "interval")) {
			p += 5;
			p[strcspn(p, ",")] = '\0';
			snprintf(out + strlen(out), len - strlen(out), "%s%s",
				 out[0] ? "+" : "", p);
		}
	}
}

/* ---- the sweep --------------------------------------------------------- */

struct sweep {
	unsigned int points;	/* faults injected that failed the call */
	unsigned int pages;	/* ... of them fail_page_alloc's */
	unsigned int tolerated;	/* faults injected the call survived */
	char trail[512];	/* "1:failslab 2:failslab ...", from dmesg,
				 * which may name a fault one attempt late */
};

/*
 * A fault the call survives is an allocation that may fail, such as the
 * one KASAN's stack depot makes now and then for a new pool (GFP_NOWAIT |
 * __GFP_NOWARN: no message).  It is a one-off: the same n is tried again
 * so that it does not take the place of a real point, which would then go
 * untested (seen: the inode allocation of the lookup).
 */
#define RETRIES 3

/*
 * n = 1, 2, ... until the call no longer reaches the n-th injection point;
 * that one must succeed.  Every injected fault that fails the call must
 * fail it with ENOMEM.
 */
static void sweep(const char *path, const struct csf_cpu_header *hdr,
		  struct sweep *s, int verbose)
{
	struct attempt a = { .path = path, .hdr = hdr };
	char what[128];

	memset(s, 0, sizeof(*s));
	for (a.n = 1; a.n <= MAX_POINTS; a.n++) {
		int tries = 0;

		do {
			attempt(&a);
			kmsg_faults(what, sizeof(what));
		} while (a.injected && a.fd_ok && ++tries < RETRIES);
		if (!a.injected) {
			ck_assert_msg(a.fd_ok,
				      "fail-nth %u not reached (%u left), yet open %s failed: %s",
				      a.n, a.left, path, strerror(a.err));
			return;
		}
		if (a.fd_ok) {
			s->tolerated++;
		} else {
			ck_assert_msg(a.err == ENOMEM,
				      "fault %u (%s) on open %s: %s, want ENOMEM",
				      a.n, what[0] ? what : "?", path,
				      strerror(a.err));
			s->points++;
			if (strstr(what, "fail_page_alloc"))
				s->pages++;
		}
		if (verbose)
			snprintf(s->trail + strlen(s->trail),
				 sizeof(s->trail) - strlen(s->trail), "%s%u:%s%s",
				 a.n > 1 ? " " : "", a.n, what[0] ? what : "?",
				 a.fd_ok ? "(survived)" : "");
	}
	ck_abort_msg("open %s still fails at fault %u", path, MAX_POINTS);
}

/* ---- leak accounting ----------------------------------------------------- */

#define MAX_CACHES 512

/* The kmalloc cache of the registry entry (entry_cache_find()). */
static char entry_cache[40];

/*
 * What open(thread-self) allocates from: names_cache (getname), filp,
 * dentry, inode_cache (the lookup's new_inode), and of the kmalloc caches
 * only the registry entry's: the others move with whatever else the
 * kernel does (kmalloc-64 grew by 114 over the 200 sweeps, the host
 * loaded).  Its page is counted by nr_allocated and MemFree.
 */
static int on_path(const char *cache)
{
	return !strcmp(cache, entry_cache) || !strcmp(cache, "filp") ||
	       !strcmp(cache, "dentry") || !strcmp(cache, "inode_cache") ||
	       !strcmp(cache, "names_cache");
}

/* Exited threads' entries go at sched_process_free, after a grace period. */
static void wait_counters(const struct csf_cpu_header *h, uint64_t threads,
			  uint64_t alloc)
{
	int waited;

	for (waited = 0; (vm_load64(&h->nr_threads) != threads ||
			  vm_load64(&h->nr_allocated) != alloc) && waited < 5000;
	     waited += 10)
		vm_sleep_ms(10);
	ck_assert_msg(vm_load64(&h->nr_threads) == threads &&
		      vm_load64(&h->nr_allocated) == alloc,
		      "cpu header: nr_threads %" PRIu64 " nr_allocated %" PRIu64
		      ", want %" PRIu64 " %" PRIu64 " (5 s after the last exit)",
		      vm_load64(&h->nr_threads), vm_load64(&h->nr_allocated), threads,
		      alloc);
}

static void settle(const struct csf_cpu_header *h, uint64_t threads,
		   uint64_t alloc)
{
	wait_counters(h, threads, alloc);
	/*
	 * The other RCU-freed objects of the exited threads (task_struct...):
	 * the debug kernel under TCG took more than 200 ms.
	 */
	vm_sleep_ms(1000);
	vm_shrink_slabs();
}

/* ---- the cap: csf_nr_entries must be back where it was ------------------- */

struct holder {
	pthread_barrier_t *done;
	const char *path;
	int fd, err;
};

static void *hold_registration(void *arg)
{
	struct holder *h = arg;

	h->fd = open(h->path, O_RDONLY | O_CLOEXEC);
	h->err = h->fd < 0 ? errno : 0;
	pthread_barrier_wait(h->done);
	if (h->fd >= 0)
		close(h->fd);
	return NULL;
}

/*
 * Exactly max_threads - nr_allocated more registrations fit, and the next
 * one gets ENOSPC: a failure path that kept its slot in the cap count
 * (which is not in the header) would make one fewer fit.
 */
static void assert_cap_intact(const struct csf_cpu_header *hdr,
			      const char *path)
{
	long i, n = (long)hdr->max_threads - (long)vm_load64(&hdr->nr_allocated) + 1;
	pthread_barrier_t done;
	struct holder *hs;
	pthread_t *t;
	pthread_attr_t attr;
	long ok = 0, full = 0;

	ck_assert_msg(n > 1 && n <= 4097,
		      "cap check: %ld registrations to try (max_threads %u)", n,
		      hdr->max_threads);
	hs = calloc(n, sizeof(*hs));
	t = calloc(n, sizeof(*t));
	ck_assert(hs && t);
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	pthread_barrier_init(&done, NULL, (unsigned int)n + 1);
	for (i = 0; i < n; i++) {
		hs[i].done = &done;
		hs[i].path = path;
		ck_assert_int_eq(pthread_create(&t[i], &attr, hold_registration,
						&hs[i]), 0);
	}
	pthread_barrier_wait(&done);
	for (i = 0; i < n; i++) {
		pthread_join(t[i], NULL);
		if (!hs[i].err)
			ok++;
		else if (hs[i].err == ENOSPC)
			full++;
		else
			ck_abort_msg("registration %ld: %s", i,
				     strerror(hs[i].err));
	}
	vm_note("cap: %ld of %ld registrations fit (max_threads %u), %ld ENOSPC",
		ok, n, hdr->max_threads, full);
	ck_assert_int_eq(ok, n - 1);
	ck_assert_int_eq(full, 1);
	pthread_barrier_destroy(&done);
	pthread_attr_destroy(&attr);
	free(hs);
	free(t);
}

/*
 * The kmalloc cache that grows by one object per registration: ENTRY_PROBE
 * threads, created first, register together between two reads of
 * /proc/slabinfo, so that what creating a thread allocates is not counted.
 * The smallest such cache, within a quarter, is the entry's (kmalloc-96 on
 * Debian's kernels, more with lockdep's map in the raw spinlock).
 */
#define ENTRY_PROBE 128

static void *register_between(void *arg)
{
	struct holder *h = arg;

	pthread_barrier_wait(h->done);		/* created, not registered */
	h->fd = open(h->path, O_RDONLY | O_CLOEXEC);
	h->err = h->fd < 0 ? errno : 0;
	pthread_barrier_wait(h->done);		/* registered */
	pthread_barrier_wait(h->done);		/* counted */
	if (h->fd >= 0)
		close(h->fd);
	return NULL;
}

static void entry_cache_find(const char *path)
{
	static struct vm_slab a[MAX_CACHES], b[MAX_CACHES];
	struct holder hs[ENTRY_PROBE];
	pthread_t t[ENTRY_PROBE];
	pthread_barrier_t done;
	long best = -1;
	int na, nb, i, j;

	pthread_barrier_init(&done, NULL, ENTRY_PROBE + 1);
	for (i = 0; i < ENTRY_PROBE; i++) {
		hs[i].done = &done;
		hs[i].path = path;
		ck_assert_int_eq(pthread_create(&t[i], NULL, register_between,
						&hs[i]), 0);
	}
	vm_shrink_slabs();
	na = vm_slab_read(a, MAX_CACHES);
	pthread_barrier_wait(&done);
	pthread_barrier_wait(&done);
	vm_shrink_slabs();
	nb = vm_slab_read(b, MAX_CACHES);
	pthread_barrier_wait(&done);
	for (i = 0; i < ENTRY_PROBE; i++) {
		pthread_join(t[i], NULL);
		ck_assert_msg(!hs[i].err, "probe registration %d: %s", i,
			      strerror(hs[i].err));
	}
	pthread_barrier_destroy(&done);
	for (i = 0; i < nb; i++)
		for (j = 0; j < na; j++) {
			long d = b[i].active - a[j].active;

			if (strcmp(b[i].name, a[j].name) ||
			    strncmp(b[i].name, "kmalloc-", 8) ||
			    d < ENTRY_PROBE - ENTRY_PROBE / 4 ||
			    d > ENTRY_PROBE + ENTRY_PROBE / 4 ||
			    (best >= 0 && b[i].objsize >= best))
				continue;
			best = b[i].objsize;
			snprintf(entry_cache, sizeof(entry_cache), "%.39s",
				 b[i].name);
			vm_note("registry entry: %s (%ld bytes), %+ld objects for %d registrations",
				b[i].name, b[i].objsize, d, ENTRY_PROBE);
		}
	ck_assert_msg(best >= 0,
		      "no kmalloc cache grew by one object per registration (%d)",
		      ENTRY_PROBE);
}

/* ---- still usable -------------------------------------------------------- */

static void *snap_thread(void *arg)
{
	struct csf_snap a, b;
	int *err = arg;

	*err = csf_thread_snap(&a);
	if (!*err) {
		vm_sleep_ms(2);
		*err = csf_thread_snap(&b);
	}
	if (!*err && (b.tid != (uint32_t)gettid() ||
		      b.state != CSF_STATE_RUNNING || b.now < a.now))
		*err = -EPROTO;
	return NULL;
}

static void assert_usable(void)
{
	struct csf_cpu_snap cpus[2];
	pthread_t t;
	int err = 0;

	ck_assert_int_eq(pthread_create(&t, NULL, snap_thread, &err), 0);
	pthread_join(t, NULL);
	ck_assert_msg(!err, "csf_thread_snap after the faults: %s",
		      csf_strerror(err));
	err = csf_cpu_snap(cpus, 1);
	ck_assert_msg(err >= 1, "csf_cpu_snap after the faults: %s",
		      csf_strerror(err));
}

/* ---- the test ------------------------------------------------------------ */

START_TEST(registration_faults_are_clean)
{
	static struct vm_slab before[MAX_CACHES], after[MAX_CACHES];
	char self[512], dir[512];
	struct vm_cpu_page c;
	struct sweep s, ctl;
	uint64_t threads0, alloc0;
	unsigned int ctl_min, self_min, self_max;
	long free0, free1;
	unsigned int hist[MAX_POINTS + 1];
	int nb, na, i, j, round, mode_n;

	/* 50-60 s on the debug kernel, and the clock mode changes nothing */
	if (!vm_once_per_boot()) {
		vm_note("SKIP: runs once per boot, in the first clock mode");
		return;
	}
	snprintf(self, sizeof(self), "%s", vm_path("thread-self"));
	snprintf(dir, sizeof(dir), "%s", vm_path("threads"));
	if (!arm_knobs())
		return;
	kmsg_open();
	vm_cpu_map(&c);
	threads0 = vm_load64(&c.hdr->nr_threads);
	alloc0 = vm_load64(&c.hdr->nr_allocated);

	/*
	 * The control: threads/, looked up like thread-self (the fs keeps
	 * no unused dentry, so both lookups allocate a dentry and an inode)
	 * and opened without any allocation of the module's: the difference
	 * is the module's share.
	 */
	ctl_min = UINT_MAX;
	for (round = 0; round < 3; round++) {
		sweep(dir, c.hdr, &ctl, 1);
		vm_note("open(threads/): %u injection points, %u survived: %s",
			ctl.points, ctl.tolerated, ctl.trail);
		ck_assert_msg(!ctl.pages, "threads/ allocated a page");
		if (ctl.points < ctl_min)
			ctl_min = ctl.points;
	}
	sweep(self, c.hdr, &s, 1);
	vm_note("open(thread-self): %u injection points, all ENOMEM, %u survived: %s",
		s.points, s.tolerated, s.trail);
	wait_counters(c.hdr, threads0, alloc0);
	self_min = self_max = s.points;
	memset(hist, 0, sizeof(hist));
	hist[s.points]++;

	/* The same sweep LEAK_ROUNDS times, counted. */
	settle(c.hdr, threads0, alloc0);
	nb = vm_slab_read(before, MAX_CACHES);
	if (nb > 0) {
		entry_cache_find(self);
		settle(c.hdr, threads0, alloc0);
		nb = vm_slab_read(before, MAX_CACHES);
	}
	free0 = vm_meminfo_kb("MemFree");
	for (round = 0; round < LEAK_ROUNDS; round++) {
		struct sweep r;

		sweep(self, c.hdr, &r, 0);
		hist[r.points]++;
		if (r.points < self_min)
			self_min = r.points;
		if (r.points > self_max)
			self_max = r.points;
	}
	/*
	 * Extra points mostly add: a second path_openat() when the RCU walk
	 * gives up (-ECHILD: the file, the dentry and the inode are
	 * allocated again), which the stack traces of verbose=2 showed: 6 to
	 * 8 failing points per sweep, at the same six call sites.  Rarely
	 * one goes missing (5 seen once in 201 sweeps: a point survived
	 * RETRIES times), so the count most sweeps give is the path's own,
	 * and the module's are its difference with threads/.
	 */
	for (i = 0, mode_n = 0; i <= MAX_POINTS; i++)
		if (hist[i] > hist[mode_n])
			mode_n = i;
	vm_note("over %d sweeps: open(thread-self) %u to %u points, %d in %u sweeps; open(threads/) %u: the registration itself (csf_self_open) %d",
		LEAK_ROUNDS + 1, self_min, self_max, mode_n, hist[mode_n],
		ctl_min, mode_n - (int)ctl_min);
	ck_assert_msg(mode_n >= (int)ctl_min + 2,
		      "open(thread-self) failed at %d points in most sweeps, open(threads/) at %u: the module's own two allocations (kzalloc, alloc_page) were not both reached",
		      mode_n, ctl_min);
	settle(c.hdr, threads0, alloc0);
	na = vm_slab_read(after, MAX_CACHES);
	free1 = vm_meminfo_kb("MemFree");
	vm_note("%d sweeps (%u failed opens): MemFree %ld -> %ld kB (%+ld)",
		LEAK_ROUNDS, LEAK_ROUNDS * s.points, free0, free1,
		free1 - free0);
	if (nb > 0 && na > 0) {
		for (i = 0; i < na; i++)
			for (j = 0; j < nb; j++) {
				long d;

				if (strcmp(after[i].name, before[j].name))
					continue;
				d = after[i].active - before[j].active;
				if (d)
					vm_note("  slab %s (%ld bytes): %+ld objects",
						after[i].name, after[i].objsize, d);
				/*
				 * Only the caches of the six call sites:
				 * the others move with the threads' own
				 * lives (vmap_area: kernel stacks give
				 * their ranges back lazily, +900..1100
				 * seen over 200 sweeps; maple_node: their
				 * stacks' VMAs, +-30).
				 */
				if (!on_path(after[i].name))
					continue;
				ck_assert_msg(d < LEAK_ROUNDS / 2,
					      "slab %s grew by %ld objects over %d sweeps: a leak on a failure path?",
					      after[i].name, d, LEAK_ROUNDS);
			}
	} else {
		vm_note("no /proc/slabinfo: slab counts not checked");
	}
	/*
	 * Free pages are only a coarse check: over the sweeps MemFree moved
	 * by -0.5 to +11 MB (per-CPU page lists, the threads' kernel
	 * stacks), more than the 800 kB of a page lost at one point.  The
	 * module's pages are counted exactly by nr_allocated (above), and
	 * no fault point of the module comes after its alloc_page().
	 */
	ck_assert_msg(free0 - free1 < 16L * 1024,
		      "MemFree dropped by %ld kB over %d sweeps", free0 - free1,
		      LEAK_ROUNDS);

	assert_cap_intact(c.hdr, self);
	wait_counters(c.hdr, threads0, alloc0);
	assert_usable();
	wait_counters(c.hdr, threads0, alloc0);
	vm_cpu_unmap(&c);
}
END_TEST

int main(void)
{
	const TTest *const tests[] = {
		registration_faults_are_clean,
		NULL,
	};
	int rc = vm_run_tests("fault_inject", tests);

	/* the test ran in a child, which may have died: defaults back */
	if (!access(FAIL_NTH, F_OK)) {
		size_t i;

		for (i = 0; i < NKNOBS; i++)
			vm_write_file(knobs[i].path, knobs[i].dflt);
	}
	return rc;
}
