// SPDX-License-Identifier: GPL-2.0
/*
 * hvpmu-stress: a syscall-level fuzzer of the hvpmu PMUs under load, run in
 * the end-to-end guest on the simulated platform (hvpmu_sim). For a bounded
 * time, concurrently:
 *
 *  - fuzz workers call perf_event_open() with random attributes, biased to
 *    each PMU's sysfs format fields and out of them, in groups of up to 40
 *    events that mix our PMUs with each other and with software events, on
 *    tasks and on CPUs (offline ones too), then read, ioctl, mmap, fork and
 *    close them in random order;
 *  - readers run "perf stat -I 100" on one pinned event of each PMU in
 *    turn while they inject traffic into its model: the counted total must
 *    equal the injected total;
 *  - a hotplug worker takes the designated CPUs (cpumask) offline and back;
 *  - an injector makes every model fail through its debugfs files and feeds
 *    background traffic;
 *  - the main process holds an event and tries to unload hvpmu_sim (it must
 *    refuse), and now and then unloads it while the fuzzers open its events
 *    and loads it again.
 *
 * The PMUs stressed are those of ours registered when it starts: a guest
 * has what its kernel builds (the x86_64 guest the sun4v ones, the mips
 * guest mips_cm alone); the others are named in a line and left alone.
 *
 * It uses only sysfs, debugfs and the perf ABI, as documented in
 * the Documentation/admin-guide/perf/ pages and
 * tools/testing/hvpmu/SIMULATOR.md; nothing of the drivers'
 * internals. Kernel reports are counted by the host from the guest's
 * console; this program prints "PASS: ..."/"FAIL: ..." lines for what it
 * checks itself.
 *
 * Exact counting while the rest goes on needs three rules, because perf
 * itself loses counts by design in these cases:
 *  - the reader's event is pinned, and while a reader counts, no fuzzed
 *    group that could deschedule it exists (a pinned or exclusive group on
 *    the same PMU; for niagara_mmustat, which lives in the software
 *    context, a pinned or exclusive CPU-bound group in that context), and
 *    no fuzzed DRAM event on its channel: adding one there may write the
 *    channel's event select, and the driver takes the reader's baseline
 *    again after that write, which drops an injection made in between
 *    (sun4v-dram-pmu.rst, "Limits");
 *  - the reader injects only while no CPU is going on- or offline (an
 *    uncore event migrating to another CPU is stopped and started again;
 *    traffic in between is not counted), and into niagara_mmustat only on
 *    CPUs that stayed online since its perf started (perf does not bring a
 *    per-CPU event back after its CPU returned);
 *  - errors are injected into the reader's model only where the PMU's
 *    page promises no loss (a failed read keeps the count), and only while
 *    nothing else could meet them (start and stop of the reader's event);
 *    every other error is injected only while no reader counts on it.
 *
 * Usage: hvpmu-stress [-t seconds] [-a attributes] [-T max-seconds] [-s seed]
 *                     [-w fuzz-workers] [-r readers] [-q reload-seconds]
 *                     [-U] [-L] [-v] [-x r|i|h|u...]
 * (see usage() below).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmu.h"

#define MAX_CPUS	8
#define MAX_WORKERS	16
#define MAX_GROUP	40
#define MAX_ERRNO	134
#define NR_ANOMALIES	8
#define TMPDIR		"/tmp/hvpmu-stress"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Our PMUs, and the simulated platform's model directory of each. */
enum { N2, VF, MMU, CM, NR_OURS };
static const char *const our_name[NR_OURS] = {
	"niagara2_dram", "vfalls_dram", "niagara_mmustat", "mips_cm",
};
static const char *const our_model[NR_OURS] = {
	"sun4v", "sun4v", "mmustat", "mips_cm",
};
/*
 * The module of each model: what an unload under load is also tried on.
 * mips_cm's model is compiled into the simulated platform's front-ends.
 */
static const char *const our_model_module[NR_OURS] = {
	"sun4v_dram_model", "sun4v_dram_model", "sun4v_mmustat_model",
	"hvpmu_sim_lib",
};
/*
 * The PMUs of ours this guest has (registered at the start), as indices
 * into our_name, and how many models were up then: a reload must bring
 * as many back. Set before any worker is forked.
 */
static int ours[NR_OURS], nr_ours, nr_models;
static bool is_ours[NR_OURS];
/* Statistics rows: ours, then software events, then any other type. */
#define ROW_SW		NR_OURS
#define ROW_OTHER	(NR_OURS + 1)
#define NR_ROWS		(NR_OURS + 2)

/* What a reader does now; the fuzzers and the injector look. */
enum { IDLE, WANT, EXACT, TEARDOWN };

/* The event a reader counts, and what its injections name. */
struct exact {
	char event[256];	/* perf event string */
	int chan;		/* sun4v: N2 channel, or VF node * 2 + mcu */
	char what[96];		/* event, counter or buffer-word name */
	unsigned int code;	/* mips_cm event select */
	unsigned int qual;	/* mips_cm qualifier */
	bool cycles;		/* mips_cm cycle counter */
};

struct pmu_shared {
	pthread_mutex_t mu;	/* reader state vs injector */
	bool taken;		/* a reader counts on it */
	int state;
	int busy;		/* fuzzed groups that could deschedule a pinned event */
	int want_chan;		/* sun4v: the channel the reader counts on */
	int chan_busy[8];	/* sun4v: fuzzed events open on each channel */
	struct exact cur;
	/* fuzzing */
	uint64_t tried, opened;
	uint64_t err[MAX_ERRNO];
	/* exact reader */
	uint64_t cycles, checked, aborted, moved, mismatches, not_running;
	uint64_t injected, counted, injections;
	char last_abort[800];
	/* injector */
	uint64_t safe_errors, lossy_errors, parser_lines, parser_refused;
	uint64_t traffic;
};

/* Who stops when the main process quiesces: */
enum { PAUSE_FUZZ, PAUSE_OTHER, NO_PAUSE };

struct shared {
	int stop;
	int pause[2];			/* PAUSE_FUZZ, PAUSE_OTHER */
	int paused[MAX_WORKERS];
	int race;			/* fuzzers open our events only, briefly */
	int race_ack[MAX_WORKERS];
	unsigned int pmu_gen;		/* bumped when hvpmu_sim was reloaded */
	pthread_rwlock_t hotplug;	/* write: a CPU changes state */
	pthread_rwlock_t startup;	/* the same, against perf start-ups */
	sem_t starting;			/* perf start-ups at once */
	unsigned int cpu_gen[MAX_CPUS];
	struct pmu_shared pmu[NR_OURS];
	uint64_t tried[NR_ROWS], opened[NR_ROWS];
	uint64_t err[NR_ROWS][MAX_ERRNO];
	uint64_t ops, ops_err[MAX_ERRNO];
	uint64_t us_open, us_fail, us_close, us_round;
	uint64_t forks, mmaps, set_outputs, victims;
	uint64_t hp_offline, hp_online, hp_refused, hp_ms, hp_max_ms;
	uint64_t unload_tries, unload_refused, unloaded, reloads, reload_fail;
	uint64_t races, race_unloads, race_tries;
	uint64_t anomalies;
	char anomaly[NR_ANOMALIES][640];
	char reload_msg[200];
};

static struct shared *sh;
static bool verbose, race_register, race_sw;
static int nworkers, nreaders = 2;
static uint64_t seed;
static int ncpus;

/* --- small things ------------------------------------------------------- */

struct rng { uint64_t s; };

static uint64_t rnd(struct rng *r)
{
	/* xorshift64* */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dULL;
}

static uint64_t below(struct rng *r, uint64_t n)
{
	return n ? rnd(r) % n : 0;
}

static bool chance(struct rng *r, unsigned int percent)
{
	return below(r, 100) < percent;
}

/*
 * One of the PMUs this guest has, at random (with all of them, the same
 * draw as below(r, NR_OURS): a seed replays as before).
 */
static int pick_ours(struct rng *r)
{
	return ours[below(r, nr_ours)];
}

/* A count whose size is spread over 1 .. 2^bits (log-uniform). */
static uint64_t amount(struct rng *r, unsigned int bits)
{
	unsigned int b = 1 + below(r, bits);

	return (1ULL << (b - 1)) + below(r, 1ULL << (b - 1));
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void msleep(unsigned int ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

static void add(uint64_t *v, uint64_t n)
{
	__atomic_fetch_add(v, n, __ATOMIC_RELAXED);
}

static int load_int(int *v)
{
	return __atomic_load_n(v, __ATOMIC_SEQ_CST);
}

static void store_int(int *v, int n)
{
	__atomic_store_n(v, n, __ATOMIC_SEQ_CST);
}

static void count_errno(uint64_t *hist, int e)
{
	add(&hist[e > 0 && e < MAX_ERRNO ? e : 0], 1);
}

static void anomaly(const char *fmt, ...)
{
	uint64_t n = __atomic_fetch_add(&sh->anomalies, 1, __ATOMIC_SEQ_CST);
	va_list ap;

	if (n >= NR_ANOMALIES)
		return;
	va_start(ap, fmt);
	vsnprintf(sh->anomaly[n], sizeof(sh->anomaly[n]), fmt, ap);
	va_end(ap);
}

static void say(const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	printf("%s\n", buf);
	fflush(stdout);
}

static void mutex_init_shared(pthread_mutex_t *m)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(m, &a);
}

static void lock(pthread_mutex_t *m)
{
	if (pthread_mutex_lock(m) == EOWNERDEAD)
		pthread_mutex_consistent(m);
}

static void unlock(pthread_mutex_t *m)
{
	pthread_mutex_unlock(m);
}

/*
 * CPU hotplug exclusion, bounded so that a lost worker cannot hang us. Two
 * locks, both taken for writing around a CPU's state change: "hotplug"
 * for reading around an injection (short), "startup" for reading while a
 * reader's perf opens its event (seconds under TCG), so that a state
 * change waiting for a start-up does not hold up the injections.
 */
static bool rw_lock(pthread_rwlock_t *l, bool write)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_sec += 30;
	return !(write ? pthread_rwlock_timedwrlock(l, &t) :
		 pthread_rwlock_timedrdlock(l, &t));
}

static bool hp_read_lock(void)
{
	return rw_lock(&sh->hotplug, false);
}

static void hp_unlock(void)
{
	pthread_rwlock_unlock(&sh->hotplug);
}

static bool hp_write_lock(void)
{
	if (!rw_lock(&sh->startup, true))
		return false;
	if (rw_lock(&sh->hotplug, true))
		return true;
	pthread_rwlock_unlock(&sh->startup);
	return false;
}

static void hp_write_unlock(void)
{
	pthread_rwlock_unlock(&sh->hotplug);
	pthread_rwlock_unlock(&sh->startup);
}

/* A worker stops at a safe point while the main process reloads modules. */
static bool quiesce_point(int id, int kind, void (*drop)(void *), void *arg)
{
	if (!load_int(&sh->pause[kind]))
		return false;
	if (drop)
		drop(arg);
	store_int(&sh->paused[id], 1);
	while (load_int(&sh->pause[kind]) && !load_int(&sh->stop))
		msleep(20);
	store_int(&sh->paused[id], 0);
	return true;
}

/* --- the PMUs as sysfs shows them ------------------------------------- */

struct pmus {
	unsigned int gen;
	struct pmu_desc d[NR_OURS];
};

static void pmus_load(struct pmus *p)
{
	int i;

	p->gen = __atomic_load_n(&sh->pmu_gen, __ATOMIC_SEQ_CST);
	for (i = 0; i < NR_OURS; i++)
		pmu_load(&p->d[i], our_name[i]);
}

static int row_of(const struct pmus *p, uint32_t type)
{
	int i;

	for (i = 0; i < NR_OURS; i++)
		if (p->d[i].type >= 0 && (uint32_t)p->d[i].type == type)
			return i;
	return type == PERF_TYPE_SOFTWARE ? ROW_SW : ROW_OTHER;
}

/* A named event that the models can be fed for (no time view, no unit). */
static const struct pmu_event *pick_event(struct rng *r,
					  const struct pmu_desc *d,
					  const char *skip)
{
	const struct pmu_event *e;
	int tries;

	for (tries = 0; tries < 100 && d->nevents; tries++) {
		e = &d->event[below(r, d->nevents)];
		if (skip && strstr(e->name, skip))
			continue;
		return e;
	}
	return NULL;
}

/* --- fuzzing ----------------------------------------------------------- */

struct member {
	union {
		struct perf_event_attr attr;
		unsigned char raw[512];	/* room for sizes past ours */
	};
	int row;
	pid_t pid;
	int cpu;
	unsigned long flags;
	int fd;
	uint64_t id;
	bool have_id;
	uint64_t last;		/* last count read, for the monotonic check */
	bool tracked;
	void *map;
	size_t map_len;
};

struct fuzz {
	int id;
	struct rng r;
	struct pmus p;
	pid_t victim;
	bool victim_holds;	/* forked while a claimed group was open */
	int nr;
	struct member m[MAX_GROUP];
	bool claimed[NR_OURS];
	signed char chan_claim[MAX_GROUP];	/* sun4v: channel counted, or -1 */
	signed char chan_row[MAX_GROUP];	/* ... of which PMU */
	unsigned long rounds;
	int cpumask[NR_OURS];
};

/* A field value: mostly in range, often at the edges, sometimes past. */
static uint64_t field_value(struct rng *r, const struct pmu_field *f)
{
	uint64_t max = field_max(f);

	switch (below(r, 10)) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return max;
	case 3:
		return max + 1;		/* spills into the next bits */
	case 4:
		return below(r, 8);
	default:
		return rnd(r) & max;
	}
}

static uint64_t ask_value(const struct pmu_field *f, void *arg)
{
	struct rng *r = arg;

	/* "?" terms name an entity (channel, partition...): small, mostly */
	return chance(r, 80) ? below(r, 9) : field_value(r, f);
}

/* config, config1, config2 of our PMU d: biased to its layout and past it */
static void fuzz_config(struct rng *r, const struct pmu_desc *d,
			uint64_t cfg[3])
{
	const struct pmu_event *e;
	unsigned int k = below(r, 100), i, n;

	memset(cfg, 0, 3 * sizeof(*cfg));
	if (k < 40 && d->nevents) {
		e = &d->event[below(r, d->nevents)];
		pmu_encode(d, e->terms, cfg, ask_value, r);
	} else if (k < 65 || (k < 75 && !d->nevents)) {
		for (i = 0; i < (unsigned int)d->nfields; i++)
			if (chance(r, 60))
				field_put(&d->field[i], cfg,
					  field_value(r, &d->field[i]));
	} else if (k < 75) {
		e = &d->event[below(r, d->nevents)];
		pmu_encode(d, e->terms, cfg, ask_value, r);
		for (n = 1 + below(r, 3); n; n--)
			cfg[below(r, 3)] ^= 1ULL << below(r, 64);
	} else if (k < 85) {
		cfg[0] = rnd(r);
		cfg[1] = chance(r, 50) ? rnd(r) : 0;
		cfg[2] = chance(r, 20) ? rnd(r) : 0;
	} else {
		for (i = 0; i < (unsigned int)d->nfields; i++)
			field_put(&d->field[i], cfg, chance(r, 50) ?
				  field_max(&d->field[i]) : 0);
		if (chance(r, 20))
			cfg[below(r, 3)] = ~0ULL;
	}
}

static const uint32_t attr_sizes[] = {
	PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
	PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
	PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7,
};

#define RF_ALL	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
		 PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST)

/* The attribute of a member whose type is already in m->attr.type. */
static void fuzz_attr(struct fuzz *f, struct member *m, bool leader)
{
	struct perf_event_attr *a = &m->attr;
	struct rng *r = &f->r;
	uint64_t cfg[3] = { 0 };
	int row = row_of(&f->p, a->type);

	if (row < NR_OURS) {
		fuzz_config(r, &f->p.d[row], cfg);
	} else if (a->type == PERF_TYPE_SOFTWARE) {
		cfg[0] = chance(r, 90) ? below(r, PERF_COUNT_SW_MAX) : rnd(r);
	} else {
		cfg[0] = chance(r, 70) ? below(r, 16) : rnd(r);
		cfg[1] = chance(r, 20) ? rnd(r) : 0;
	}
	a->config = cfg[0];
	a->config1 = cfg[1];
	a->config2 = cfg[2];

	a->size = sizeof(*a);
	if (chance(r, 4)) {
		a->size = attr_sizes[below(r, ARRAY_SIZE(attr_sizes))];
	} else if (chance(r, 2)) {
		a->size = below(r, sizeof(m->raw));
		if (a->size > sizeof(*a) && chance(r, 50))
			m->raw[a->size - 1] = 1;	/* E2BIG */
	}

	a->disabled = chance(r, 40);
	a->inherit = chance(r, 15);
	a->pinned = leader ? chance(r, 15) : chance(r, 2);
	a->exclusive = leader ? chance(r, 6) : chance(r, 1);
	a->exclude_user = chance(r, 8);
	a->exclude_kernel = chance(r, 8);
	a->exclude_hv = chance(r, 8);
	a->exclude_idle = chance(r, 5);
	a->exclude_host = chance(r, 3);
	a->exclude_guest = chance(r, 3);
	a->exclude_callchain_kernel = chance(r, 2);
	a->exclude_callchain_user = chance(r, 2);
	a->inherit_stat = chance(r, 5);
	a->enable_on_exec = chance(r, 5);
	a->remove_on_exec = chance(r, 3);
	a->watermark = chance(r, 3);
	a->precise_ip = chance(r, 5) ? below(r, 4) : 0;
	a->mmap = chance(r, 3);
	a->comm = chance(r, 3);
	a->task = chance(r, 3);
	a->use_clockid = chance(r, 3);
	a->clockid = a->use_clockid ? below(r, 12) : 0;
	/*
	 * Never sigtrap: the kernel would kill the worker with SIGTRAP on an
	 * overflow of a software sampling event, which tests nothing of ours.
	 */
	a->sigtrap = 0;

	if (chance(r, 12)) {
		a->freq = chance(r, 40);
		a->sample_period = a->freq ? 1 + below(r, 4000) :
				   (chance(r, 50) ? 1 + below(r, 100000) : rnd(r));
		a->sample_type = rnd(r) & ((PERF_SAMPLE_MAX - 1) |
					   (chance(r, 5) ? ~0ULL : 0));
		a->wakeup_events = below(r, 4);
	}
	if (chance(r, 70))
		a->read_format = rnd(r) & RF_ALL;
	else if (chance(r, 5))
		a->read_format = rnd(r);
	if (chance(r, 2))
		a->bp_type = rnd(r);
	if (chance(r, 2))
		a->branch_sample_type = rnd(r);
	if (chance(r, 1))
		a->aux_watermark = rnd(r);
}

static uint32_t fuzz_type(struct fuzz *f, int leader_row)
{
	struct rng *r = &f->r;
	unsigned int k = below(r, 100);
	int i;

	if (leader_row >= 0 && leader_row < NR_OURS && k < 55)
		return f->p.d[leader_row].type;
	if (k < 75) {
		i = pick_ours(r);
		if (f->p.d[i].type >= 0)
			return f->p.d[i].type;
	}
	if (k < 92)
		return PERF_TYPE_SOFTWARE;
	if (k < 97)
		return below(r, PERF_TYPE_MAX);
	return chance(r, 50) ? below(r, 64) : (uint32_t)rnd(r);
}

/* The PMU's cpumask CPU, read again every 64 rounds (hotplug moves it). */
static int designated(struct fuzz *f, int row)
{
	if (!(f->rounds % 64) || f->cpumask[row] < 0)
		f->cpumask[row] = pmu_cpumask(our_name[row]);
	return f->cpumask[row];
}

/* The task or CPU the group is opened on. */
static void fuzz_context(struct fuzz *f, int row, pid_t *pid, int *cpu)
{
	struct rng *r = &f->r;
	unsigned int k = below(r, 100);
	static const int odd_cpus[] = { -1, 2, 3, 7, 8, 1000, INT_MIN };

	*pid = -1;
	if (k < 45) {
		*cpu = row < NR_OURS && f->p.d[row].cpu >= 0 && chance(r, 70) ?
		       designated(f, row) : (int)below(r, ncpus);
	} else if (k < 65) {
		*cpu = below(r, ncpus);		/* maybe offline */
	} else if (k < 70) {
		*cpu = odd_cpus[below(r, ARRAY_SIZE(odd_cpus))];
	} else {
		*cpu = chance(r, 70) ? -1 : (int)below(r, ncpus);
		if (k < 85)
			*pid = 0;
		else if (k < 95)
			*pid = f->victim;
		else
			*pid = chance(r, 50) ? 1 : (pid_t)below(r, 1 << 22);
	}
}

/*
 * Would this group deschedule a reader's pinned event of PMU i? (See the
 * rules at the top.) A pinned or exclusive group holding one of its events;
 * for niagara_mmustat any CPU-bound pinned or exclusive group of the
 * software context (every type but the uncore ones).
 */
static bool interferes(struct fuzz *f, int i)
{
	bool pinned = false, cpu_bound = false, has = false;
	int k, row;

	for (k = 0; k < f->nr; k++) {
		struct perf_event_attr *a = &f->m[k].attr;

		pinned |= a->pinned || a->exclusive;
		cpu_bound |= f->m[k].pid == -1;
		row = row_of(&f->p, a->type);
		if (i == MMU)
			has |= row == MMU || row >= NR_OURS;
		else
			has |= row == i;
	}
	return pinned && has && (i != MMU || cpu_bound);
}

/* The value of a format field in config words (field_put()'s inverse). */
static uint64_t field_get(const struct pmu_field *pf, const uint64_t cfg[3])
{
	unsigned int i, w, shift = 0;
	uint64_t v = 0, mask;

	for (i = 0; i < (unsigned int)pf->nr && shift < 64; i++) {
		w = pf->hi[i] - pf->lo[i] + 1;
		mask = w >= 64 ? ~0ULL : (1ULL << w) - 1;
		v |= ((cfg[pf->word] >> pf->lo[i]) & mask) << shift;
		shift += w;
	}
	return v;
}

/*
 * The DRAM channel of a fuzzed sun4v event (as struct exact numbers it),
 * -1 where it names none the driver takes, and with @other, move it to
 * another channel.
 */
static int dram_chan(const struct pmu_desc *d, int i, struct member *m,
		     bool other)
{
	const struct pmu_field *fc = pmu_field(d, i == N2 ? "channel" : "mcu");
	const struct pmu_field *fn = i == VF ? pmu_field(d, "node") : NULL;
	uint64_t cfg[3] = { m->attr.config, m->attr.config1, m->attr.config2 };
	uint64_t c, n = 0;

	if (!fc || (i == VF && !fn))
		return -1;
	c = field_get(fc, cfg);
	if (fn)
		n = field_get(fn, cfg);
	if (other) {
		field_put(fc, cfg, c ^ 1);
		m->attr.config = cfg[0];
		m->attr.config1 = cfg[1];
		m->attr.config2 = cfg[2];
	}
	if (i == N2)
		return c < 4 ? (int)c : -1;
	return c < 2 && n < 2 ? (int)(2 * n + c) : -1;
}

static void chan_count(int i, int c, int n)
{
	__atomic_fetch_add(&sh->pmu[i].chan_busy[c], n, __ATOMIC_SEQ_CST);
}

/*
 * Claim the right to hold such groups, or strip pinned/exclusive. Count
 * the group's DRAM events per channel, and move those on the channel a
 * reader counts on (or is about to) to another channel: the reader waits
 * only for the events opened on its channel before it wanted it.
 */
static void claim(struct fuzz *f)
{
	bool ok = true;
	int i, k, c;

	memset(f->claimed, 0, sizeof(f->claimed));
	for (k = 0; k < f->nr; k++) {
		struct member *m = &f->m[k];

		i = m->row;
		c = i == N2 || i == VF ? dram_chan(&f->p.d[i], i, m, false) : -1;
		f->chan_claim[k] = c;
		if (c < 0)
			continue;
		chan_count(i, c, 1);
		f->chan_row[k] = i;
		/* the reader's channel is stored before its state */
		if (load_int(&sh->pmu[i].state) == IDLE ||
		    load_int(&sh->pmu[i].want_chan) != c)
			continue;
		chan_count(i, c, -1);
		c = dram_chan(&f->p.d[i], i, m, true) < 0 ? -1 :
		    dram_chan(&f->p.d[i], i, m, false);
		f->chan_claim[k] = c;
		if (c >= 0)
			chan_count(i, c, 1);
	}
	for (i = 0; i < NR_OURS; i++) {
		if (!interferes(f, i))
			continue;
		__atomic_fetch_add(&sh->pmu[i].busy, 1, __ATOMIC_SEQ_CST);
		f->claimed[i] = true;
		if (load_int(&sh->pmu[i].state) != IDLE)
			ok = false;
	}
	if (ok)
		return;
	for (i = 0; i < NR_OURS; i++)
		if (f->claimed[i])
			__atomic_fetch_sub(&sh->pmu[i].busy, 1, __ATOMIC_SEQ_CST);
	memset(f->claimed, 0, sizeof(f->claimed));
	for (k = 0; k < f->nr; k++) {
		f->m[k].attr.pinned = 0;
		f->m[k].attr.exclusive = 0;
	}
}

static void victim_kill(struct fuzz *f);

static void release(struct fuzz *f)
{
	int i;

	/*
	 * A victim forked while the group was open holds its fds: the
	 * pinned events stay installed until it dies, and an exact reader
	 * that starts once the claim is gone finds no counter for its own
	 * pinned event (perf stat: "<not counted>").
	 */
	if (f->victim_holds)
		victim_kill(f);
	for (i = 0; i < NR_OURS; i++)
		if (f->claimed[i])
			__atomic_fetch_sub(&sh->pmu[i].busy, 1, __ATOMIC_SEQ_CST);
	memset(f->claimed, 0, sizeof(f->claimed));
	for (i = 0; i < MAX_GROUP; i++) {
		if (f->chan_claim[i] >= 0)
			chan_count(f->chan_row[i], f->chan_claim[i], -1);
		f->chan_claim[i] = -1;
	}
}

static void victim_kill(struct fuzz *f)
{
	if (f->victim > 0) {
		kill(f->victim, SIGKILL);
		waitpid(f->victim, NULL, 0);
	}
	f->victim = 0;
	f->victim_holds = false;
}

/*
 * The task the fuzzer opens task events on. It is forked by the fuzzer,
 * at any moment: it may inherit events and perf mmaps, which then live
 * until it dies.
 */
static void victim_respawn(struct fuzz *f)
{
	volatile unsigned long spin = 0;
	pid_t pid;
	int i;

	victim_kill(f);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpriority(PRIO_PROCESS, 0, 19);
		for (;;) {
			for (i = 0; i < 2000; i++)
				spin++;
			usleep(2000);	/* context switches: task events in and out */
		}
	}
	f->victim = pid > 0 ? pid : 0;
	for (i = 0; i < NR_OURS; i++)
		f->victim_holds |= f->victim && f->claimed[i];
	for (i = 0; i < f->nr; i++)
		f->victim_holds |= f->victim && f->chan_claim[i] >= 0;
	add(&sh->victims, 1);
}

static void member_close(struct member *m)
{
	if (m->map) {
		munmap(m->map, m->map_len);
		m->map = NULL;
	}
	if (m->fd >= 0) {
		close(m->fd);
		m->fd = -1;
	}
}

static void group_close(void *arg)
{
	struct fuzz *f = arg;
	int k;

	for (k = 0; k < f->nr; k++)
		member_close(&f->m[k]);
	f->nr = 0;
	release(f);
}

static void untrack_group(struct fuzz *f)
{
	int k;

	for (k = 0; k < f->nr; k++)
		f->m[k].tracked = false;
}

/* A count of one of our events must not go down, nor jump past 2^62. */
static void check_count(struct member *m, uint64_t v)
{
	if (m->row >= NR_OURS)
		return;
	if (v > (1ULL << 62))
		anomaly("%s config %#llx,%#llx: implausible count %#llx",
			our_name[m->row], (unsigned long long)m->attr.config,
			(unsigned long long)m->attr.config1,
			(unsigned long long)v);
	else if (m->tracked && v < m->last)
		anomaly("%s config %#llx,%#llx: count went down %llu -> %llu",
			our_name[m->row], (unsigned long long)m->attr.config,
			(unsigned long long)m->attr.config1,
			(unsigned long long)m->last, (unsigned long long)v);
	m->last = v;
	m->tracked = true;
}

static void op_read(struct fuzz *f, struct member *m)
{
	uint64_t buf[2 + MAX_GROUP * 3 + 8], rf = m->attr.read_format;
	size_t len = sizeof(buf);
	ssize_t n;
	int k, j, nr;

	if (chance(&f->r, 5))
		len = below(&f->r, 48);
	n = read(m->fd, buf, len);
	add(&sh->ops, 1);
	if (n < 0) {
		count_errno(sh->ops_err, errno);
		return;
	}
	if (n < 8)
		return;
	if (!(rf & PERF_FORMAT_GROUP)) {
		check_count(m, buf[0]);
		return;
	}
	if (!(rf & PERF_FORMAT_ID))
		return;		/* values cannot be told apart */
	nr = buf[0];
	j = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	for (; nr > 0 && (j + 2) * 8 <= n; nr--) {
		for (k = 0; k < f->nr; k++)
			if (f->m[k].fd >= 0 && f->m[k].have_id &&
			    f->m[k].id == buf[j + 1])
				check_count(&f->m[k], buf[j]);
		j += 2 + !!(rf & PERF_FORMAT_LOST);
	}
}

static void op_mmap(struct fuzz *f, struct member *m)
{
	static const size_t pages[] = { 1, 2, 3, 5, 9, 17 };
	struct perf_event_mmap_page *pc;
	size_t len = pages[below(&f->r, 6)] * getpagesize();
	int prot = PROT_READ | (chance(&f->r, 70) ? PROT_WRITE : 0);
	void *p;

	if (m->map)
		return;
	p = mmap(NULL, len, prot, MAP_SHARED, m->fd, 0);
	add(&sh->ops, 1);
	if (p == MAP_FAILED) {
		count_errno(sh->ops_err, errno);
		return;
	}
	add(&sh->mmaps, 1);
	m->map = p;
	m->map_len = len;
	pc = p;
	/* Our PMUs offer no user-space counter access (no rdpmc). */
	if (m->row < NR_OURS && pc->index)
		anomaly("%s config %#llx: mmap page index %u (rdpmc?)",
			our_name[m->row], (unsigned long long)m->attr.config,
			pc->index);
}

static void op_fork(void)
{
	volatile unsigned long spin = 0;
	pid_t pid;
	int i;

	pid = fork();
	if (pid == 0) {
		for (i = 0; i < 10000; i++)
			spin++;
		_exit(0);
	}
	if (pid > 0) {
		waitpid(pid, NULL, 0);
		add(&sh->forks, 1);
	}
}

static struct member *any_open(struct fuzz *f)
{
	int k, start = below(&f->r, f->nr ? f->nr : 1);

	for (k = 0; k < f->nr; k++) {
		struct member *m = &f->m[(start + k) % f->nr];

		if (m->fd >= 0)
			return m;
	}
	return NULL;
}

static struct member *any_mapped(struct fuzz *f)
{
	int k, start = below(&f->r, f->nr ? f->nr : 1);

	for (k = 0; k < f->nr; k++) {
		struct member *m = &f->m[(start + k) % f->nr];

		if (m->fd >= 0 && m->map)
			return m;
	}
	return NULL;
}

static void fuzz_ops(struct fuzz *f)
{
	struct rng *r = &f->r;
	unsigned int n = below(r, 24), op;
	struct member *m, *o;
	uint64_t v;
	int ret;

	while (n--) {
		m = any_open(f);
		if (!m)
			return;
		op = below(r, 100);
		ret = 0;
		if (op < 30) {
			op_read(f, m);
			continue;
		} else if (op < 40) {
			ret = ioctl(m->fd, PERF_EVENT_IOC_ENABLE,
				    chance(r, 30) ? PERF_IOC_FLAG_GROUP : 0);
		} else if (op < 48) {
			ret = ioctl(m->fd, PERF_EVENT_IOC_DISABLE,
				    chance(r, 30) ? PERF_IOC_FLAG_GROUP : 0);
		} else if (op < 54) {
			ret = ioctl(m->fd, PERF_EVENT_IOC_RESET,
				    chance(r, 30) ? PERF_IOC_FLAG_GROUP : 0);
			untrack_group(f);
		} else if (op < 58) {
			v = chance(r, 50) ? below(r, 100000) : rnd(r);
			ret = ioctl(m->fd, PERF_EVENT_IOC_PERIOD, &v);
		} else if (op < 60) {
			ret = ioctl(m->fd, PERF_EVENT_IOC_REFRESH, (int)below(r, 3));
		} else if (op < 64) {
			/* into a buffer: an event that has one, mostly */
			o = chance(r, 80) ? any_mapped(f) : NULL;
			if (!o)
				o = any_open(f);
			ret = ioctl(m->fd, PERF_EVENT_IOC_SET_OUTPUT,
				    o && chance(r, 80) ? o->fd : -1);
			if (!ret)
				add(&sh->set_outputs, 1);
		} else if (op < 66) {
			ret = ioctl(m->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, (int)below(r, 2));
		} else if (op < 67) {
			ret = ioctl(m->fd, PERF_EVENT_IOC_SET_FILTER,
				    chance(r, 50) ? "" : "common_pid == 1 && x");
		} else if (op < 68) {
			ret = ioctl(m->fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
				    &f->m[below(r, f->nr)].attr);
		} else if (op < 69) {
			ret = ioctl(m->fd, PERF_EVENT_IOC_SET_BPF, (int)below(r, 16));
		} else if (op < 70) {
			ret = ioctl(m->fd, _IO('$', below(r, 16)), (unsigned long)below(r, 4));
		} else if (op < 74) {
			ret = ioctl(m->fd, PERF_EVENT_IOC_ID, &v);
		} else if (op < 80) {
			op_mmap(f, m);
			continue;
		} else if (op < 82) {
			struct pollfd p = { .fd = m->fd, .events = POLLIN };

			ret = poll(&p, 1, 0);
		} else if (op < 84) {
			ret = prctl(chance(r, 50) ? PR_TASK_PERF_EVENTS_DISABLE :
				    PR_TASK_PERF_EVENTS_ENABLE);
		} else if (op < 87) {
			op_fork();
			continue;
		} else if (op < 91) {
			member_close(m);	/* maybe the leader, before its siblings */
			continue;
		} else if (op < 99) {
			msleep(below(r, 20));	/* polls, hotplug, rotation go on */
			continue;
		} else {
			victim_respawn(f);	/* its task events die with it */
			continue;
		}
		add(&sh->ops, 1);
		if (ret < 0)
			count_errno(sh->ops_err, errno);
	}
}

/*
 * One group: generate, claim, open, then mostly close at once (most
 * attributes are refused or accepted and that is all there is to see),
 * sometimes operate on it first.
 */
static void fuzz_round(struct fuzz *f)
{
	struct rng *r = &f->r;
	int leader_row, k, fd, group_fd, lead_fd = -1, row;
	double t0;
	pid_t pid;
	int cpu;
	struct member *m;

	f->nr = chance(r, 70) ? 1 + below(r, 4) : 1 + below(r, MAX_GROUP);
	memset(f->m, 0, sizeof(f->m[0]) * f->nr);
	m = &f->m[0];
	m->attr.type = fuzz_type(f, -1);
	if (chance(r, 60)) {		/* mostly one of ours leads */
		k = pick_ours(r);
		if (f->p.d[k].type >= 0)
			m->attr.type = f->p.d[k].type;
	}
	leader_row = row_of(&f->p, m->attr.type);
	fuzz_context(f, leader_row, &pid, &cpu);
	for (k = 0; k < f->nr; k++) {
		m = &f->m[k];
		if (k)
			m->attr.type = fuzz_type(f, leader_row);
		fuzz_attr(f, m, k == 0);
		m->row = row_of(&f->p, m->attr.type);
		m->pid = pid;
		m->cpu = cpu;
		m->fd = -1;
		if (chance(r, 3))		/* a sibling elsewhere */
			fuzz_context(f, m->row, &m->pid, &m->cpu);
		m->flags = PERF_FLAG_FD_CLOEXEC;
		if (chance(r, 5))
			m->flags |= PERF_FLAG_FD_NO_GROUP;
		if (chance(r, 2))
			m->flags = rnd(r) & 0xf;
	}
	claim(f);

	for (k = 0; k < f->nr; k++) {
		m = &f->m[k];
		row = m->row;
		group_fd = k == 0 ? -1 : lead_fd;
		if (k && chance(r, 5))
			group_fd = chance(r, 50) ? -1 : (int)below(r, 64);
		if (k == 0 && chance(r, 2))
			group_fd = below(r, 64);
		t0 = now();
		fd = perf_open(&m->attr, m->pid, m->cpu, group_fd, m->flags);
		add(fd < 0 ? &sh->us_fail : &sh->us_open, (now() - t0) * 1e6);
		add(&sh->tried[row], 1);
		if (row < NR_OURS)
			add(&sh->pmu[row].tried, 1);
		if (fd < 0) {
			count_errno(sh->err[row], -fd);
			if (row < NR_OURS)
				count_errno(sh->pmu[row].err, -fd);
			continue;
		}
		add(&sh->opened[row], 1);
		if (row < NR_OURS)
			add(&sh->pmu[row].opened, 1);
		m->fd = fd;
		if (k == 0)
			lead_fd = fd;
		if (m->attr.read_format & PERF_FORMAT_ID)
			m->have_id = !ioctl(fd, PERF_EVENT_IOC_ID, &m->id);
	}
	if (chance(r, 15))
		fuzz_ops(f);
	else if (f->m[0].fd >= 0 && chance(r, 30))
		op_read(f, &f->m[0]);
	/* close in random order */
	t0 = now();
	for (k = f->nr; k > 0; k--)
		member_close(&f->m[below(r, f->nr)]);
	group_close(f);
	add(&sh->us_close, (now() - t0) * 1e6);
}

/*
 * While the main process unloads hvpmu_sim: events of our PMUs only,
 * opened and closed at once, so that the unload can succeed between two
 * opens and meets event_init of its own PMUs. No software event unless -U
 * asks: on Linux 6.1 perf_pmu_unregister() holds pmus_lock across
 * synchronize_srcu(), and perf_swevent_init() takes pmus_lock inside
 * perf_init_event()'s SRCU read section, so perf core itself deadlocks.
 */
static void race_round(struct fuzz *f)
{
	struct member *m = &f->m[0];
	int i = pick_ours(&f->r), fd;

	memset(m, 0, sizeof(*m));
	if (race_sw && chance(&f->r, 50)) {
		/* Counted by a software hlist: its init takes pmus_lock. */
		m->attr.type = PERF_TYPE_SOFTWARE;
		m->attr.size = sizeof(m->attr);
		m->attr.config = PERF_COUNT_SW_PAGE_FAULTS;
		fd = perf_open(&m->attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		add(&sh->tried[ROW_SW], 1);
		if (fd < 0) {
			count_errno(sh->err[ROW_SW], -fd);
			return;
		}
		add(&sh->opened[ROW_SW], 1);
		close(fd);
		return;
	}
	if (f->p.d[i].type < 0) {
		msleep(5);
		return;
	}
	m->attr.type = f->p.d[i].type;
	fuzz_attr(f, m, true);
	m->row = i;
	fuzz_context(f, i, &m->pid, &m->cpu);
	fd = perf_open(&m->attr, m->pid, m->cpu, -1, PERF_FLAG_FD_CLOEXEC);
	add(&sh->tried[i], 1);
	add(&sh->pmu[i].tried, 1);
	if (fd < 0) {
		count_errno(sh->err[i], -fd);
		count_errno(sh->pmu[i].err, -fd);
		return;
	}
	add(&sh->opened[i], 1);
	add(&sh->pmu[i].opened, 1);
	m->fd = fd;
	if (chance(&f->r, 50))
		op_read(f, m);
	close(fd);
}

/* Before a pause: nothing of ours may stay open, in the victim neither. */
static void fuzz_drop(void *arg)
{
	struct fuzz *f = arg;

	group_close(f);
	victim_kill(f);
}

static void fuzz_worker(int id)
{
	struct fuzz *f = calloc(1, sizeof(*f));
	double t0;

	/*
	 * The fuzzers take what CPU time is left: the readers' perf must start
	 * within seconds, not minutes, on two emulated CPUs.
	 */
	setpriority(PRIO_PROCESS, 0, 5);
	f->id = id;
	memset(f->chan_claim, -1, sizeof(f->chan_claim));
	f->r.s = seed * 0x9e3779b97f4a7c15ULL + id + 1;
	memset(f->cpumask, 0xff, sizeof(f->cpumask));
	pmus_load(&f->p);
	victim_respawn(f);
	while (!load_int(&sh->stop)) {
		if (quiesce_point(id, PAUSE_FUZZ, fuzz_drop, f)) {
			victim_respawn(f);
			pmus_load(&f->p);
		}
		if (f->p.gen != __atomic_load_n(&sh->pmu_gen, __ATOMIC_SEQ_CST))
			pmus_load(&f->p);
		if (load_int(&sh->race)) {
			if (!load_int(&sh->race_ack[id])) {
				victim_kill(f);	/* nothing of ours may stay open */
				store_int(&sh->race_ack[id], 1);
			}
			race_round(f);
			continue;
		}
		if (load_int(&sh->race_ack[id])) {
			store_int(&sh->race_ack[id], 0);
			victim_respawn(f);
		}
		t0 = now();
		f->rounds++;
		fuzz_round(f);
		add(&sh->us_round, (now() - t0) * 1e6);
		if (chance(&f->r, 1))
			victim_respawn(f);
	}
	group_close(f);
	/*
	 * victim_kill(), not kill(): group_close() may have killed the victim
	 * already and left f->victim 0, and kill(0, SIGKILL) would kill this
	 * whole process group, the guest's script included.
	 */
	victim_kill(f);
	_exit(0);
}

/* --- what each model is fed, per the PMU pages ------------------------- */

/*
 * PerfReg numbers of the sun4v DRAM registers (sun4v Hypervisor API, the
 * perf register tables of NIAGARA2_GET_PERFREG and VFALLS_GET_PERFREG):
 * Niagara2 channel c has its control at 1 + 2c and its counter at 2 + 2c;
 * Victoria Falls node n, MCU m (chan = 2n + m) at 2 + 2chan and 3 + 2chan.
 */
static int sun4v_ctl(int pmu, int chan)
{
	return pmu == N2 ? 1 + 2 * chan : 2 + 2 * chan;
}

static const char *const sun4v_status[] = {
	"EINVAL", "EBADTRAP", "EWOULDBLOCK", "ENOACCESS", "ENOTSUPPORTED",
};
static const char *const mmustat_calls[] = { "info", "conf", "alloc", "map" };
static const char *const cm_faults[] = {
	"dead", "state_loss", "ovf_stop", "ov_stuck", "spurious_irq",
};

/* Choose what the reader of PMU i counts; false if nothing fits. */
static bool exact_choose(struct rng *r, const struct pmu_desc *d, int i,
			 struct exact *x)
{
	const struct pmu_event *e;
	const char *c;
	int node, mcu;

	memset(x, 0, sizeof(*x));
	switch (i) {
	case N2:
		e = pick_event(r, d, NULL);
		if (!e)
			return false;
		x->chan = below(r, 4);
		snprintf(x->what, sizeof(x->what), "%s", e->name);
		snprintf(x->event, sizeof(x->event), "%s/%s,channel=%d/D",
			 d->name, e->name, x->chan);
		return true;
	case VF:
		e = pick_event(r, d, NULL);
		if (!e)
			return false;
		node = below(r, 2);	/* the simulated T2+ has nodes 0, 1 */
		mcu = below(r, 2);
		x->chan = 2 * node + mcu;
		snprintf(x->what, sizeof(x->what), "%s", e->name);
		snprintf(x->event, sizeof(x->event), "%s/%s,node=%d,mcu=%d/D",
			 d->name, e->name, node, mcu);
		return true;
	case MMU:
		e = pick_event(r, d, "_time_");
		if (!e)
			return false;
		snprintf(x->what, sizeof(x->what), "%s", e->name);
		snprintf(x->event, sizeof(x->event), "%s/%s/D", d->name, e->name);
		return true;
	case CM:
		e = pick_event(r, d, NULL);
		if (!e)
			return false;
		x->cycles = !strcmp(e->name, "cycles");
		snprintf(x->what, sizeof(x->what), "%s", e->name);
		if (x->cycles) {
			snprintf(x->event, sizeof(x->event), "%s/cycles/D", d->name);
		} else {
			c = strstr(e->terms, "event=");
			if (!c)
				return false;
			x->code = strtoul(c + 6, NULL, 0);
			x->qual = chance(r, 30) ? 0 : (uint32_t)rnd(r);
			snprintf(x->event, sizeof(x->event), "%s/%s,qualifier=%#x/D",
				 d->name, e->name, x->qual);
		}
		return true;
	}
	return false;
}

/* Feed n events of the reader's kind (on CPU cpu for mmustat). */
static int exact_inject(int i, const struct exact *x, int cpu, uint64_t n)
{
	switch (i) {
	case N2:
		return sim_write("sun4v", "inject", "niagara2_dram channel %d %s %" PRIu64,
				 x->chan, x->what, n);
	case VF:
		return sim_write("sun4v", "inject",
				 "vfalls_dram node %d mcu %d %s %" PRIu64,
				 x->chan / 2, x->chan % 2, x->what, n);
	case MMU:
		return sim_write("mmustat", "inject", "cpu %d %s += %" PRIu64,
				 cpu, x->what, n);
	case CM:
		if (x->cycles)
			return sim_write("mips_cm", "inject", "cycles %" PRIu64, n);
		return sim_write("mips_cm", "inject", "%s %#x %" PRIu64, x->what,
				 x->qual, n);
	}
	return -EINVAL;
}

/*
 * How much one injection may carry. The sun4v counters are 31 bits wide
 * and polled every 100 ms (MODELS.md, sun4v sysfs: "a counter must not
 * advance by 2^31 between two polls"): at most 2^28 at a time, one every
 * 50 ms or more. The mips_cm model feeds large counts in steps that wait
 * for the driver's poll (SIMULATOR.md, mips_cm); mmustat words are
 * 64 bits wide.
 */
static unsigned int inject_bits(int i)
{
	switch (i) {
	case N2:
	case VF:
		return 28;
	case CM:
		return 34;
	default:
		return 40;
	}
}

/* Clear every error condition the injector may have left on PMU i. */
static void errors_clear(int i, const bool *foreign)
{
	unsigned int k;

	switch (i) {
	case N2:
	case VF:
		sim_write("sun4v", "error", "%s off", our_name[i]);
		sim_write("sun4v", "error", "%s access 1", our_name[i]);
		sim_write("sun4v", "error", "%s htaccess 1", our_name[i]);
		break;
	case MMU:
		/* status 0 disarms a pending error */
		for (k = 0; k < 4; k++)
			sim_write("mmustat", "error", "%s 0", mmustat_calls[k]);
		for (k = 0; foreign && k < MAX_CPUS; k++)
			if (foreign[k])
				sim_write("mmustat", "conf", "cpu %u off", k);
		break;
	case CM:
		for (k = 0; k < 5; k++)
			sim_write("mips_cm", "fault", "%s off", cm_faults[k]);
		break;
	}
}

/* --- exact-count readers ------------------------------------------------ */

struct reader {
	int id;			/* worker slot */
	int pmu;
	struct rng r;
	struct pmus p;
	char out[96], ready[96], stop[96], err[96];
	pid_t perf;
	/* mmustat: the CPUs perf counts on, and their hotplug generation */
	bool cpu_ok[MAX_CPUS];	/* online when perf started */
	unsigned int gen[MAX_CPUS];
	uint64_t injected;
	double lockwait;	/* waiting for CPU state changes */
	char log[2048];
	size_t loglen;
};

static pid_t start_perf(struct reader *rd, const struct exact *x)
{
	char script[256];
	pid_t pid;
	int fd;

	snprintf(script, sizeof(script),
		 "touch %s; while [ ! -e %s ]; do usleep 20000; done",
		 rd->ready, rd->stop);
	pid = fork();
	if (pid)
		return pid;
	fd = open(rd->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	execlp("perf", "perf", "stat", "-I", "100", "-x,", "--no-scale",
	       "--summary", "-a", "-o", rd->out, "-e", x->event, "--",
	       "/bin/sh", "-c", script, (char *)NULL);
	_exit(127);
}

/* The first line of perf's messages that says something, for a report. */
static void first_error(const char *path, char *buf, size_t len)
{
	char text[4096], *line, *save = NULL;

	buf[0] = '\0';
	if (read_text(path, text, sizeof(text)) <= 0)
		return;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!*line || strstr(line, "dmesg"))
			continue;
		snprintf(buf, len, "%s", line);
		if (strstr(line, "rror") || strstr(line, "not"))
			return;
	}
}

/*
 * The lines of perf's output that name @event, newest last, joined with
 * " | " into @buf: what a report shows when no summary could be parsed.
 */
static void event_lines(const char *path, const char *event, char *buf,
			size_t len)
{
	char text[1 << 16], *line, *save = NULL;
	const char *last[3] = { NULL, NULL, NULL };
	int i, n = 0;

	snprintf(buf, len, "no line names the event");
	if (read_text(path, text, sizeof(text)) <= 0) {
		snprintf(buf, len, "no output file");
		return;
	}
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strstr(line, event))
			last[n++ % 3] = line;
	for (i = n > 3 ? n - 3 : 0; i < n; i++) {
		size_t used = i == (n > 3 ? n - 3 : 0) ? 0 : strlen(buf);

		snprintf(buf + used, len - used, "%s%s", used ? " | " : "",
			 last[i % 3]);
	}
}

/*
 * perf stat -I -x, --summary output: "time,count,unit,event,runtime,pcnt,,"
 * per interval and "summary,count,..." at the end. The event string holds
 * commas, so the event is found between two separators.
 */
static int parse_perf(const char *path, const char *event, uint64_t *sum,
		      uint64_t *summary, int *intervals, int *not_running)
{
	char text[1 << 16], key[300], *line, *save = NULL, *c, *ev, *after;
	bool have_summary = false;

	*sum = *summary = 0;
	*intervals = *not_running = 0;
	if (read_text(path, text, sizeof(text)) <= 0)
		return -1;
	snprintf(key, sizeof(key), ",%s,", event);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ev = strstr(line, key);
		if (!ev || line[0] == '#')
			continue;
		c = strchr(line, ',');		/* after time / "summary" */
		if (!c)
			continue;
		after = ev + strlen(key);	/* runtime,pcnt,... */
		if (c[1] < '0' || c[1] > '9') {
			(*not_running)++;	/* <not counted>, <not supported> */
			continue;
		}
		if (strstr(line, "summary") == line + strspn(line, " ")) {
			*summary = strtoull(c + 1, NULL, 10);
			have_summary = true;
			continue;
		}
		(*intervals)++;
		*sum += strtoull(c + 1, NULL, 10);
		c = strchr(after, ',');		/* pcnt */
		if (c && strncmp(c + 1, "100.00", 6))
			(*not_running)++;
	}
	return have_summary ? 0 : -1;
}

static void logf_(struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	if (rd->loglen >= sizeof(rd->log) - 64)
		return;
	va_start(ap, fmt);
	rd->loglen += vsnprintf(rd->log + rd->loglen, sizeof(rd->log) - rd->loglen,
				fmt, ap);
	va_end(ap);
}

/* One injection of the reader's traffic, under the hotplug read lock. */
static void exact_one(struct reader *rd, struct pmu_shared *ps,
		      const struct exact *x)
{
	uint64_t n = amount(&rd->r, inject_bits(rd->pmu));
	bool big = false;
	int cpu = -1, c, tries;
	double t0;

	if ((rd->pmu == N2 || rd->pmu == VF) && chance(&rd->r, 2)) {
		n = 1500000000ULL + below(&rd->r, 100000000);	/* < 2^31 */
		big = true;
	}
	t0 = now();
	if (!hp_read_lock())
		return;
	rd->lockwait += now() - t0;
	if (rd->pmu == MMU) {
		for (tries = 0; tries < 8 && cpu < 0; tries++) {
			c = below(&rd->r, ncpus);
			if (rd->cpu_ok[c] && sh->cpu_gen[c] == rd->gen[c])
				cpu = c;
		}
		if (cpu < 0) {
			hp_unlock();
			return;
		}
	}
	if (!exact_inject(rd->pmu, x, cpu, n)) {
		rd->injected += n;
		add(&ps->injections, 1);
		logf_(rd, " %s%" PRIu64, cpu >= 0 ? (cpu ? "c1:" : "c0:") : "", n);
	}
	hp_unlock();
	/* after a large sun4v count, more than a few polls before the next */
	msleep(big ? 1000 : 50 + below(&rd->r, 200));
}

static void reader_cycle(struct reader *rd)
{
	struct pmu_shared *ps = &sh->pmu[rd->pmu];
	const struct pmu_desc *d = &rd->p.d[rd->pmu];
	uint64_t sum, summary;
	int intervals, not_running, status = 0, k, i;
	double t0, until, t_busy, t_start = 0;
	struct exact x;
	char msg[512];
	bool ready, moved;

	if (d->type < 0 || !exact_choose(&rd->r, d, rd->pmu, &x)) {
		msleep(500);
		return;
	}
	/*
	 * No new pinned/exclusive fuzzed groups, nor DRAM events on its
	 * channel; wait for the old ones.
	 */
	lock(&ps->mu);
	store_int(&ps->want_chan, x.chan);
	store_int(&ps->state, WANT);
	unlock(&ps->mu);
	t0 = now();
	while ((load_int(&ps->busy) ||
		(x.chan >= 0 && (rd->pmu == N2 || rd->pmu == VF) &&
		 load_int(&ps->chan_busy[x.chan]))) &&
	       now() - t0 < 60 && !load_int(&sh->stop))
		msleep(10);
	t_busy = now() - t0;
	lock(&ps->mu);
	errors_clear(rd->pmu, NULL);
	ps->cur = x;
	store_int(&ps->state, EXACT);
	unlock(&ps->mu);

	unlink(rd->ready);
	unlink(rd->stop);
	unlink(rd->out);
	rd->injected = 0;
	rd->lockwait = 0;
	rd->loglen = 0;
	logf_(rd, "injected:");
	add(&ps->cycles, 1);

	/*
	 * perf must open its event while no CPU changes state: a cycle with
	 * a hotplug operation during perf's start-up is not counted.
	 */
	ready = false;
	moved = false;
	/* two perf start-ups at a time: each needs seconds of CPU here */
	while (sem_wait(&sh->starting) && errno == EINTR)
		;
	if (rw_lock(&sh->startup, false)) {
		for (i = 0; i < ncpus; i++) {
			rd->cpu_ok[i] = cpu_online(i);
			rd->gen[i] = sh->cpu_gen[i];
		}
		t0 = now();
		rd->perf = start_perf(rd, &x);
		for (k = 0; k < 1200 && !ready; k++) {
			if (waitpid(rd->perf, &status, WNOHANG) == rd->perf) {
				rd->perf = 0;
				break;
			}
			ready = !access(rd->ready, F_OK);
			if (!ready)
				msleep(50);
		}
		t_start = now() - t0;
		for (i = 0; i < ncpus; i++)
			moved |= sh->cpu_gen[i] != rd->gen[i];
		pthread_rwlock_unlock(&sh->startup);
	}
	sem_post(&sh->starting);
	if (ready && !moved) {
		until = now() + 3 + below(&rd->r, 5000) / 1000.0;
		while (now() < until && !load_int(&sh->stop))
			exact_one(rd, ps, &x);
	}

	/* nothing may fail at the reader's stop */
	lock(&ps->mu);
	store_int(&ps->state, TEARDOWN);
	errors_clear(rd->pmu, NULL);
	unlock(&ps->mu);
	close(open(rd->stop, O_WRONLY | O_CREAT, 0644));
	if (rd->perf > 0) {
		for (k = 0; k < 600; k++) {
			if (waitpid(rd->perf, &status, WNOHANG) == rd->perf)
				break;
			msleep(50);
		}
		if (k == 600) {
			kill(rd->perf, SIGKILL);
			waitpid(rd->perf, &status, 0);
		}
		rd->perf = 0;
	}
	lock(&ps->mu);
	store_int(&ps->state, IDLE);
	unlock(&ps->mu);

	if (moved) {
		add(&ps->aborted, 1);
		add(&ps->moved, 1);
		if (verbose)
			say("    %s: a CPU changed state during perf's start-up",
			    x.event);
		return;
	}
	if (!ready || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    parse_perf(rd->out, x.event, &sum, &summary, &intervals,
		       &not_running)) {
		first_error(rd->err, msg, sizeof(msg));
		/* perf succeeded: show what it printed instead of a summary */
		if (ready && WIFEXITED(status) && !WEXITSTATUS(status))
			event_lines(rd->out, x.event, msg, sizeof(msg));
		add(&ps->aborted, 1);
		snprintf(ps->last_abort, sizeof(ps->last_abort), "%s: %s (%s,"
			 " exit %d, start-up %.1f s)", x.event,
			 msg[0] ? msg : "no message", ready ? "started" :
			 "did not start", WIFEXITED(status) ?
			 WEXITSTATUS(status) : -WTERMSIG(status), t_start);
		if (verbose)
			say("    abort: %s", ps->last_abort);
		/* a cycle that could not start counted nothing: fine */
		if (ready && rd->injected)
			anomaly("%s: perf stat failed after %" PRIu64 " was injected: %s",
				x.event, rd->injected, msg);
		return;
	}
	if (verbose)
		say("    %s: busy wait %.1f s, start-up %.1f s, hotplug wait"
		    " %.1f s, injected %" PRIu64 " counted %" PRIu64
		    " (%d intervals)", x.event, t_busy, t_start, rd->lockwait,
		    rd->injected, summary, intervals);
	/*
	 * perf stat -a aggregates niagara_mmustat over the CPUs: one that went
	 * offline stops running there, by design (perf does not bring it back).
	 */
	for (i = 0; rd->pmu == MMU && i < ncpus; i++)
		if (sh->cpu_gen[i] != rd->gen[i])
			not_running = 0;
	add(&ps->checked, 1);
	add(&ps->injected, rd->injected);
	add(&ps->counted, summary);
	if (not_running)
		add(&ps->not_running, 1);
	if (sum != rd->injected || summary != rd->injected || not_running) {
		add(&ps->mismatches, 1);
		anomaly("%s: injected %" PRIu64 ", intervals sum %" PRIu64
			" (%d), summary %" PRIu64 ", %d not running",
			x.event, rd->injected, sum, intervals, summary,
			not_running);
		say("MISMATCH %s: injected %" PRIu64 ", intervals %" PRIu64
		    ", summary %" PRIu64 "; %s", x.event, rd->injected, sum,
		    summary, rd->log);
	}
}

static void reader_drop(void *arg)
{
	(void)arg;
}

/*
 * The next PMU no other reader counts on, round robin over ours[] from
 * position *@next, which then points past it.
 */
static int reader_take(int *next)
{
	int k, i;

	for (k = 0; k < nr_ours; k++) {
		i = ours[(*next + k) % nr_ours];
		lock(&sh->pmu[i].mu);
		if (!sh->pmu[i].taken) {
			sh->pmu[i].taken = true;
			unlock(&sh->pmu[i].mu);
			*next = (*next + k + 1) % nr_ours;
			return i;
		}
		unlock(&sh->pmu[i].mu);
	}
	return -1;
}

/*
 * A reader counts on each PMU in turn, one perf stat at a time: perf takes
 * seconds of CPU to start here, and a fifth of a CPU while it reads every
 * 100 ms, so a few readers share the PMUs (-r).
 */
static void reader_worker(int id, int first)
{
	struct reader *rd = calloc(1, sizeof(*rd));
	int next = first;

	rd->id = id;
	rd->r.s = seed * 0x9e3779b97f4a7c15ULL + 1000 + first;
	snprintf(rd->out, sizeof(rd->out), TMPDIR "/reader%d.out", first);
	snprintf(rd->ready, sizeof(rd->ready), TMPDIR "/reader%d.ready", first);
	snprintf(rd->stop, sizeof(rd->stop), TMPDIR "/reader%d.stop", first);
	snprintf(rd->err, sizeof(rd->err), TMPDIR "/reader%d.err", first);
	pmus_load(&rd->p);
	while (!load_int(&sh->stop)) {
		if (quiesce_point(id, PAUSE_OTHER, reader_drop, rd) ||
		    rd->p.gen != __atomic_load_n(&sh->pmu_gen, __ATOMIC_SEQ_CST))
			pmus_load(&rd->p);
		rd->pmu = reader_take(&next);
		if (rd->pmu < 0) {
			msleep(200);
			continue;
		}
		reader_cycle(rd);
		lock(&sh->pmu[rd->pmu].mu);
		sh->pmu[rd->pmu].taken = false;
		unlock(&sh->pmu[rd->pmu].mu);
		/* idle a while: pinned and exclusive fuzzed groups then */
		msleep(200 + below(&rd->r, 800));
	}
	_exit(0);
}

/* --- CPU hotplug ----------------------------------------------------------- */

static int set_online(int cpu, int on)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return write_text(path, on ? "1" : "0");
}

/* How long CPU state changes take (milliseconds): all, and the longest. */
static void hp_time(double secs)
{
	uint64_t ms = secs * 1000;

	add(&sh->hp_ms, ms);
	if (ms > __atomic_load_n(&sh->hp_max_ms, __ATOMIC_RELAXED))
		__atomic_store_n(&sh->hp_max_ms, ms, __ATOMIC_RELAXED);
}

static void hotplug_worker(void)
{
	struct rng r = { seed * 0x9e3779b97f4a7c15ULL + 2000 };
	int cpu, i, ret;
	double t0;

	while (!load_int(&sh->stop)) {
		msleep(300 + below(&r, 1700));
		i = pick_ours(&r);
		cpu = chance(&r, 75) ? pmu_cpumask(our_name[i]) : -1;
		if (cpu < 0)
			cpu = below(&r, ncpus);
		if (!hp_write_lock())
			continue;
		t0 = now();
		sh->cpu_gen[cpu]++;
		ret = set_online(cpu, 0);
		hp_time(now() - t0);
		hp_write_unlock();
		if (ret) {
			add(&sh->hp_refused, 1);	/* the last CPU, say */
			continue;
		}
		add(&sh->hp_offline, 1);
		/* events on it: ENODEV; back online even when stopping */
		msleep(100 + below(&r, 1400));
		while (!hp_write_lock())
			;
		t0 = now();
		ret = set_online(cpu, 1);
		hp_time(now() - t0);
		sh->cpu_gen[cpu]++;
		hp_write_unlock();
		if (ret)
			anomaly("cpu%d did not come back online: %s", cpu,
				strerror(-ret));
		else
			add(&sh->hp_online, 1);
	}
	_exit(0);
}

/* --- error injection and background traffic ------------------------------ */

static const char *const parser_words[] = {
	"niagara2_dram", "vfalls_dram", "channel", "node", "mcu", "get", "set",
	"any", "off", "on", "access", "htaccess", "cpu", "foreign", "+=", "<=",
	"after", "detail", "partition", "processor", "chip", "clear",
	"collection", "index_skew", "element_size", "cycles", "mem_reads",
	"request_count", "dtsb_hits_ctx0_8k", "entitled_cycles", "dead",
	"EINVAL", "H_HARDWARE", "0x", "-1", "4294967296", "18446744073709551616",
	"", " ", "\t", "#", "\n",
};

/* A line for a model's file that is mostly wrong, sometimes almost right. */
static void parser_line(struct rng *r, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int k, words = below(r, 8);

	buf[0] = '\0';
	for (k = 0; k < words && n < len - 40; k++) {
		if (chance(r, 25))
			n += snprintf(buf + n, len - n, "%s%llu", k ? " " : "",
				      (unsigned long long)below(r, 1ULL << 32));
		else
			n += snprintf(buf + n, len - n, "%s%s", k ? " " : "",
				      parser_words[below(r, ARRAY_SIZE(parser_words))]);
	}
	if (chance(r, 3)) {
		memset(buf, 'x', len - 1);	/* too long for any model */
		buf[len - 1] = '\0';
	}
}

static const char *const model_files[][4] = {
	[N2] = { "error", "inject" }, [VF] = { "error", "inject" },
	[MMU] = { "error", "conf", "inject" }, [CM] = { "fault", "inject" },
};

/* While no reader counts on PMU i: anything its page lists, and then some. */
static void errors_lossy(struct rng *r, int i)
{
	bool foreign[MAX_CPUS] = { false };
	struct pmu_shared *ps = &sh->pmu[i];
	const char *model = our_model[i], *file;
	unsigned int k, n = 1 + below(r, 3);
	char line[300];
	int ret = -EINVAL, c;

	for (; n; n--) {
		switch (i) {
		case N2:
		case VF:
			if (chance(r, 15))
				ret = sim_write(model, "error", "%s %s 0", our_name[i],
						chance(r, 50) ? "access" : "htaccess");
			else if (chance(r, 40))
				ret = sim_write(model, "error", "%s %s any %s %u %u",
						our_name[i], chance(r, 50) ? "get" : "set",
						sun4v_status[below(r, 5)],
						(unsigned int)(1 + below(r, 5)),
						(unsigned int)below(r, 4));
			else
				ret = sim_write(model, "error", "%s %s %u %s %u %u",
						our_name[i], chance(r, 50) ? "get" : "set",
						(unsigned int)below(r, 20),
						sun4v_status[below(r, 5)],
						(unsigned int)(1 + below(r, 5)),
						(unsigned int)below(r, 4));
			break;
		case MMU:
			if (chance(r, 35)) {
				c = below(r, ncpus);
				ret = sim_write(model, "conf", "cpu %d foreign %u", c,
						(unsigned int)below(r, 4));
				foreign[c] = true;
			} else {
				ret = sim_write(model, "error", "%s %u after %u",
						mmustat_calls[below(r, 4)],
						(unsigned int)(1 + below(r, 15)),
						(unsigned int)below(r, 4));
			}
			break;
		case CM:
			ret = sim_write(model, "fault", "%s on", cm_faults[below(r, 5)]);
			break;
		}
		if (!ret)
			add(&ps->lossy_errors, 1);
	}
	/* the parsers, with lines no test writes */
	for (k = below(r, 4); k; k--) {
		file = model_files[i][below(r, i == MMU ? 3 : 2)];
		parser_line(r, line, sizeof(line));
		ret = sim_write(model, file, "%s", line);
		add(&ps->parser_lines, 1);
		if (ret)
			add(&ps->parser_refused, 1);
	}
	msleep(200 + below(r, 1300));	/* the fuzzers meet the errors */
	errors_clear(i, foreign);
}

/*
 * While a reader counts on PMU i: only errors its page says lose nothing,
 * and none its start or stop could meet (see the top of the file).
 */
static void errors_safe(struct rng *r, int i)
{
	struct pmu_shared *ps = &sh->pmu[i];
	long long before, pending;
	unsigned int after = below(r, 3);
	int reg, ret = -1;
	double t0;

	switch (i) {
	case N2:
	case VF:
		/* a failing read keeps the count: registers of other channels */
		do {
			reg = 1 + below(r, i == N2 ? 8 : 16);
			if (i == VF)
				reg++;
		} while (reg == sun4v_ctl(i, ps->cur.chan) ||
			 reg == sun4v_ctl(i, ps->cur.chan) + 1);
		ret = sim_write("sun4v", "error", "%s %s %d %s %u %u", our_name[i],
				chance(r, 60) ? "get" : "set", reg,
				sun4v_status[below(r, 5)],
				(unsigned int)(1 + below(r, 3)),
				(unsigned int)below(r, 3));
		break;
	case CM:
		/* SIMULATOR.md, mips_cm: no effect without an interrupt */
		ret = sim_write("mips_cm", "fault", "spurious_irq on");
		break;
	case MMU:
		/*
		 * A failing INFO (MODELS.md, mmustat) at a read loses nothing;
		 * no CPU changes state until it was met, so it cannot meet the
		 * stop and start of a migration.
		 */
		if (!hp_read_lock())
			return;
		before = sim_calls("mmustat", "info");
		ret = sim_write("mmustat", "error", "info %u after %u",
				(unsigned int)(1 + below(r, 15)), after);
		t0 = now();
		while (!ret && now() - t0 < 3) {
			pending = sim_calls("mmustat", "info") <= before + after;
			if (!pending)
				break;
			msleep(20);
		}
		errors_clear(i, NULL);
		hp_unlock();
		break;
	}
	if (!ret)
		add(&ps->safe_errors, 1);
}

/* Traffic no reader counts, for the fuzzers' events (counters wrap too). */
static void background_traffic(struct rng *r, int i)
{
	struct pmu_shared *ps = &sh->pmu[i];
	const struct exact *x = &ps->cur;
	bool exact = load_int(&ps->state) != IDLE;
	static const char *const dram_ev[] = {
		"mem_reads", "mem_writes", "mem_read_write", "rd_queue_latency",
		"wr_queue_latency", "rw_queue_latency", "wb_buf_hits",
	};
	static const char *const sizes[] = { "8k", "64k", "4m", "256m" };
	static const int cm_events[] = {
		0, 1, 2, 3, 4, 5, 6, 8, 9, 0x10, 0x11,
	};
	char word[40];
	int ch, ret = -1, id;

	switch (i) {
	case N2:
	case VF:
		ch = below(r, 4);
		if (exact && ch == x->chan)
			return;
		if (i == N2)
			ret = sim_write("sun4v", "inject", "niagara2_dram channel %d %s %llu",
					ch, dram_ev[below(r, 7)],
					(unsigned long long)amount(r, 28));
		else
			ret = sim_write("sun4v", "inject", "vfalls_dram node %d mcu %d %s %llu",
					ch / 2, ch % 2, dram_ev[below(r, 7)],
					(unsigned long long)amount(r, 28));
		break;
	case MMU:
		snprintf(word, sizeof(word), "%ctsb_%s_%s_%s", chance(r, 50) ? 'i' : 'd',
			 chance(r, 50) ? "hits" : "ticks", chance(r, 50) ? "ctx0" : "ctxnon0",
			 sizes[below(r, 4)]);
		if (exact && !strcmp(word, x->what))
			return;
		ret = sim_write("mmustat", "inject", "cpu %d %s += %llu",
				(int)below(r, ncpus), word,
				(unsigned long long)amount(r, 32));
		break;
	case CM:
		if (chance(r, 30)) {
			if (exact && x->cycles)
				return;
			ret = sim_write("mips_cm", "inject", "cycles %llu",
					(unsigned long long)amount(r, 31));
		} else {
			id = cm_events[below(r, ARRAY_SIZE(cm_events))];
			if (exact && !x->cycles && (unsigned int)id == x->code)
				return;
			ret = sim_write("mips_cm", "inject", "%d %#x %llu", id,
					chance(r, 50) ? 0 : (unsigned int)below(r, 16),
					(unsigned long long)amount(r, 31));
		}
		break;
	}
	if (!ret)
		add(&ps->traffic, 1);
}

static void injector_worker(int id)
{
	struct rng r = { seed * 0x9e3779b97f4a7c15ULL + 3000 };
	struct pmu_shared *ps;
	int i, state;

	while (!load_int(&sh->stop)) {
		quiesce_point(id, PAUSE_OTHER, NULL, NULL);
		i = pick_ours(&r);
		ps = &sh->pmu[i];
		lock(&ps->mu);
		state = load_int(&ps->state);
		if (chance(&r, 60))
			background_traffic(&r, i);
		else if (state == IDLE)
			errors_lossy(&r, i);
		else if (state == EXACT)
			errors_safe(&r, i);
		unlock(&ps->mu);
		msleep(below(&r, 100));
	}
	_exit(0);
}

/* --- module unload and reload -------------------------------------------- */

/* Users before what they use: hvpmu_sim, its front-ends, models, drivers. */
static const char *const our_modules[] = {
	"hvpmu_sim", "hvpmu_sim_lib",
	"sun4v_mmustat_model", "sun4v_dram_model",
	"sun4v_dram_pmu", "mips_cm_pmu", "sun4v_mmustat_pmu",
};

struct workers {
	int n;
	pid_t pid[MAX_WORKERS + 1];
	const char *what[MAX_WORKERS + 1];
	int kind[MAX_WORKERS + 1];	/* PAUSE_FUZZ, PAUSE_OTHER, NO_PAUSE */
	bool alive[MAX_WORKERS + 1];
	int status[MAX_WORKERS + 1];
};

static int rmmod(const char *name)
{
	return syscall(SYS_delete_module, name, O_NONBLOCK) ? -errno : 0;
}

static int modprobe(const char *name)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execlp("modprobe", "modprobe", name, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int models_up(void)
{
	char buf[512], *p = buf;
	int n = 0;

	if (read_text(SIM_DIR "/models", buf, sizeof(buf)) <= 0)
		return 0;
	while ((p = strstr(p, " up\n"))) {
		n++;
		p++;
	}
	return n;
}

static void reload_failed(const char *fmt, ...)
{
	va_list ap;

	add(&sh->reload_fail, 1);
	va_start(ap, fmt);
	vsnprintf(sh->reload_msg, sizeof(sh->reload_msg), fmt, ap);
	va_end(ap);
	say("    reload: %s", sh->reload_msg);
}

static void bump_gen(void)
{
	__atomic_add_fetch(&sh->pmu_gen, 1, __ATOMIC_SEQ_CST);
}

/*
 * The main process's own event of ours: hvpmu_sim cannot go while it is
 * open. niagara_mmustat's, per task, where the guest has it (CPU hotplug
 * leaves it alone); else the first event of the first PMU of ours, on its
 * cpumask CPU (opened while no CPU changes state; the driver moves it
 * when that CPU goes), disabled so that it takes no counter from the
 * fuzzers and readers.
 */
static int pin_fd = -1;
static int pin_pmu = -1;

static void pin_open(void)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	uint64_t cfg[3] = { 0 };
	struct pmu_desc d;
	int cpu = -1;

	if (pin_fd >= 0 || pin_pmu < 0 || pmu_load(&d, our_name[pin_pmu]) ||
	    !d.nevents)
		return;
	a.type = d.type;
	pmu_encode(&d, d.event[0].terms, cfg, NULL, NULL);
	a.config = cfg[0];
	a.config1 = cfg[1];
	a.config2 = cfg[2];
	if (pin_pmu == MMU) {
		pin_fd = perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	} else {
		a.disabled = 1;
		if (!hp_read_lock()) {
			anomaly("%s/%s/ on the main process: no CPU hotplug"
				" pause within 30 s", d.name, d.event[0].name);
			return;
		}
		cpu = pmu_cpumask(d.name);
		pin_fd = perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		hp_unlock();
	}
	if (pin_fd < 0) {
		anomaly("%s/%s/ on the main process (cpu %d): %s", d.name,
			d.event[0].name, cpu, strerror(-pin_fd));
		pin_fd = -1;
	}
}

static void pin_close(void)
{
	if (pin_fd >= 0)
		close(pin_fd);
	pin_fd = -1;
}

/*
 * While events come and go and the main process holds one of its own:
 * hvpmu_sim, and the models under it, must refuse to go. With -U nothing
 * is held: an unload then races every open, software events included.
 */
static void unload_attempt(struct rng *r, bool pinned)
{
	const char *name = chance(r, 80) ? "hvpmu_sim" :
			   our_model_module[pin_pmu >= 0 ? pin_pmu : ours[0]];
	int ret;

	if (pinned && pin_fd < 0)
		return;
	add(&sh->unload_tries, 1);
	ret = rmmod(name);
	if (ret) {
		add(&sh->unload_refused, 1);
		if (ret != -EWOULDBLOCK && ret != -EBUSY)
			anomaly("rmmod %s: unexpected %s", name, strerror(-ret));
		return;
	}
	add(&sh->unloaded, 1);
	if (pinned)
		anomaly("rmmod %s succeeded while an event of %s was open",
			name, our_name[pin_pmu]);
	pin_close();
	msleep(below(r, 500));
	if (modprobe("hvpmu_sim"))
		anomaly("modprobe hvpmu_sim failed after an unload");
	bump_gen();
	if (pinned)
		pin_open();
}

static bool all_paused(struct workers *w, int kind)
{
	int k;

	for (k = 0; k < w->n; k++)
		if (w->kind[k] == kind && w->alive[k] &&
		    !load_int(&sh->paused[k]))
			return false;
	return true;
}

static bool all_racing(struct workers *w)
{
	int k;

	for (k = 0; k < w->n; k++)
		if (w->kind[k] == PAUSE_FUZZ && w->alive[k] &&
		    !load_int(&sh->race_ack[k]))
			return false;
	return true;
}

static bool wait_for(struct workers *w, bool (*cond)(struct workers *, int),
		     int kind, const char *what)
{
	double t0 = now();

	while (!cond(w, kind) && now() - t0 < 120)
		msleep(20);
	if (cond(w, kind))
		return true;
	reload_failed("%s did not pause within 120 s", what);
	return false;
}

static bool racing(struct workers *w, int kind)
{
	(void)kind;
	return all_racing(w);
}

/* After hvpmu_sim went: the rest of ours too, then everything back. */
static void reload_modules(void)
{
	unsigned int k;
	int ret;

	for (k = 1; k < ARRAY_SIZE(our_modules); k++) {
		ret = rmmod(our_modules[k]);
		if (ret && ret != -ENOENT) {
			reload_failed("rmmod %s after hvpmu_sim: %s",
				      our_modules[k], strerror(-ret));
			break;
		}
	}
	if (modprobe("hvpmu_sim"))
		reload_failed("modprobe hvpmu_sim");
	else if (models_up() != nr_models)
		reload_failed("%d models up after the reload, want %d",
			      models_up(), nr_models);
	else
		add(&sh->reloads, 1);
}

/*
 * hvpmu_sim goes while the fuzzers keep opening events of its PMUs (the
 * readers and the injector paused, the fuzzers in race mode). If no moment
 * without an open event comes within 5 s, the fuzzers pause too: with
 * nothing open, it must go. Then it comes back with every model up.
 */
static void unload_race(struct workers *w, struct rng *r)
{
	char buf[4096], *line;
	double t0;
	int ret = -1, tries;

	add(&sh->races, 1);
	store_int(&sh->race, 1);
	store_int(&sh->pause[PAUSE_OTHER], 1);
	if (!wait_for(w, all_paused, PAUSE_OTHER, "the readers and the injector") ||
	    !wait_for(w, racing, PAUSE_FUZZ, "the fuzzers (race mode)"))
		goto out;
	pin_close();
	for (t0 = now(); now() - t0 < 5; msleep(5 + below(r, 30))) {
		add(&sh->race_tries, 1);
		ret = rmmod("hvpmu_sim");
		if (!ret) {
			add(&sh->race_unloads, 1);
			break;
		}
	}
	/*
	 * Linux 6.1's perf_pmu_register() publishes a PMU's type before its
	 * contexts exist: an open of that type meanwhile uses a context with
	 * no reference (refcount_t: addition on 0). The reload therefore
	 * happens with the fuzzers paused, unless -L asks to show that.
	 */
	if (ret || !race_register) {
		store_int(&sh->pause[PAUSE_FUZZ], 1);
		if (!wait_for(w, all_paused, PAUSE_FUZZ, "the fuzzers"))
			goto out;
	}
	if (ret) {
		for (tries = 0; tries < 20; tries++) {
			ret = rmmod("hvpmu_sim");
			if (!ret || ret == -ENOENT)
				break;
			msleep(100);
		}
	}
	if (ret && ret != -ENOENT) {
		read_text("/proc/modules", buf, sizeof(buf));
		line = strstr(buf, "hvpmu_sim ");
		if (line && strchr(line, '\n'))
			*strchr(line, '\n') = '\0';
		reload_failed("rmmod hvpmu_sim with no event open: %s (%s)",
			      strerror(-ret), line ? line : "?");
		goto out;
	}
	reload_modules();
out:
	bump_gen();
	store_int(&sh->race, 0);
	store_int(&sh->pause[PAUSE_FUZZ], 0);
	store_int(&sh->pause[PAUSE_OTHER], 0);
	pin_open();
}

/* --- the report ------------------------------------------------------------- */

static int npass, nfail;

static void result(bool ok, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	say("%s: stress: %s", ok ? "PASS" : "FAIL", buf);
	if (ok)
		npass++;
	else
		nfail++;
}

static void errno_hist(char *buf, size_t len, const uint64_t *hist)
{
	size_t n = 0;
	int e;

	buf[0] = '\0';
	for (e = 0; e < MAX_ERRNO && n < len - 40; e++)
		if (hist[e])
			n += snprintf(buf + n, len - n, " %s %llu",
				      e ? strerrorname_np(e) : "other",
				      (unsigned long long)hist[e]);
	if (!n)
		snprintf(buf, len, " -");
}

static uint64_t total_tried(void)
{
	uint64_t t = 0;
	int i;

	for (i = 0; i < NR_ROWS; i++)
		t += __atomic_load_n(&sh->tried[i], __ATOMIC_RELAXED);
	return t;
}

static void report(double secs, uint64_t target, struct workers *w)
{
	static const char *const rows[NR_ROWS] = {
		"niagara2_dram", "vfalls_dram", "niagara_mmustat", "mips_cm",
		"software", "other types",
	};
	uint64_t tried = total_tried(), m;
	bool ok;
	char h[1024];
	int i, k;

	say("");
	say("seed %#llx (replay: make stress STRESS_SEED=%#llx; the"
	    " interleaving of the workers differs)", (unsigned long long)seed,
	    (unsigned long long)seed);
	say("%.0f s, %llu attributes tried (%.0f/s), %d fuzz workers",
	    secs, (unsigned long long)tried, tried / secs, nworkers);
	say("perf_event_open per PMU: tried, opened, errno histogram");
	for (i = 0; i < NR_ROWS; i++) {
		if (i < NR_OURS && !is_ours[i])
			continue;
		errno_hist(h, sizeof(h), sh->err[i]);
		say("  %-16s %9llu %9llu %s", rows[i],
		    (unsigned long long)sh->tried[i],
		    (unsigned long long)sh->opened[i], h);
	}
	errno_hist(h, sizeof(h), sh->ops_err);
	say("other calls %llu (mmaps %llu, SET_OUTPUT %llu, forks %llu,"
	    " victims %llu), errno:%s", (unsigned long long)sh->ops,
	    (unsigned long long)sh->mmaps, (unsigned long long)sh->set_outputs,
	    (unsigned long long)sh->forks, (unsigned long long)sh->victims, h);
	if (verbose) {
		uint64_t open = 0, fail;

		for (i = 0; i < NR_ROWS; i++)
			open += sh->opened[i];
		fail = tried - open;
		say("time: rounds %.1f s; successful opens %.1f s (%.0f us each),"
		    " failed %.1f s (%.0f us each), closes %.1f s",
		    sh->us_round / 1e6, sh->us_open / 1e6,
		    sh->us_open / (open + !open + 0.0), sh->us_fail / 1e6,
		    sh->us_fail / (fail + !fail + 0.0), sh->us_close / 1e6);
	}
	say("exact counts (perf stat -I 100 -a, one pinned event, traffic injected):");
	for (k = 0; k < nr_ours; k++) {
		struct pmu_shared *ps = &sh->pmu[i = ours[k]];

		say("  %-16s %llu runs: %llu checked, %llu not started (%llu:"
		    " hotplug during perf's start-up), %llu injections;"
		    " injected %llu counted %llu", our_name[i],
		    (unsigned long long)ps->cycles,
		    (unsigned long long)ps->checked,
		    (unsigned long long)ps->aborted,
		    (unsigned long long)ps->moved,
		    (unsigned long long)ps->injections,
		    (unsigned long long)ps->injected,
		    (unsigned long long)ps->counted);
		if (ps->aborted)
			say("    last abort: %s", ps->last_abort);
	}
	say("models: errors (lossy while no reader / safe while one counts),"
	    " parser lines (refused), background injections");
	for (k = 0; k < nr_ours; k++) {
		struct pmu_shared *ps = &sh->pmu[i = ours[k]];

		say("  %-16s %6llu / %-6llu %6llu (%llu) %8llu", our_name[i],
		    (unsigned long long)ps->lossy_errors,
		    (unsigned long long)ps->safe_errors,
		    (unsigned long long)ps->parser_lines,
		    (unsigned long long)ps->parser_refused,
		    (unsigned long long)ps->traffic);
	}
	say("hotplug: %llu offline, %llu online, %llu refused; a state change"
	    " took %.0f ms on average, %llu ms at most",
	    (unsigned long long)sh->hp_offline, (unsigned long long)sh->hp_online,
	    (unsigned long long)sh->hp_refused, sh->hp_ms /
	    (double)(sh->hp_offline + sh->hp_online + sh->hp_refused + !sh->hp_ms),
	    (unsigned long long)sh->hp_max_ms);
	say("unload: %llu attempts under load (%llu refused, %llu unloaded);"
	    " %llu races: %llu rmmod calls while fuzzers opened events, %llu"
	    " unloads among them, %llu reloads", (unsigned long long)sh->unload_tries,
	    (unsigned long long)sh->unload_refused,
	    (unsigned long long)sh->unloaded, (unsigned long long)sh->races,
	    (unsigned long long)sh->race_tries,
	    (unsigned long long)sh->race_unloads,
	    (unsigned long long)sh->reloads);
	say("");

	result(!target || tried >= target, "%llu attributes tried%s",
	       (unsigned long long)tried, target ? " (target reached)" : "");
	if (target && tried < target)
		say("    target was %llu", (unsigned long long)target);
	for (k = 0; k < nr_ours; k++) {
		i = ours[k];
		result(sh->pmu[i].opened > 0, "%s: %llu of %llu attributes opened",
		       our_name[i], (unsigned long long)sh->pmu[i].opened,
		       (unsigned long long)sh->pmu[i].tried);
	}
	for (k = 0; k < nr_ours; k++) {
		struct pmu_shared *ps = &sh->pmu[i = ours[k]];

		ok = ps->checked > 0 && !ps->mismatches &&
		     ps->injected == ps->counted;
		result(ok, "%s: exact counts over %llu perf stat -I 100 runs:"
		       " injected %llu, counted %llu, %llu mismatches",
		       our_name[i], (unsigned long long)ps->checked,
		       (unsigned long long)ps->injected,
		       (unsigned long long)ps->counted,
		       (unsigned long long)ps->mismatches);
	}
	m = sh->anomalies;
	result(!m, "%llu anomalies (counts going down, perf stat failing after"
	       " an injection, CPUs not coming back, odd rmmod errors)",
	       (unsigned long long)m);
	for (i = 0; i < NR_ANOMALIES && (uint64_t)i < m; i++)
		say("    %s", sh->anomaly[i]);
	ok = true;
	for (k = 0; k < nr_ours; k++)
		ok &= sh->pmu[ours[k]].lossy_errors + sh->pmu[ours[k]].safe_errors > 0;
	result(ok, "error injection reached every model");
	/* A guest of one CPU (sparc64's sun4u): no CPU can go offline. */
	if (ncpus < 2)
		say("SKIP: stress: CPU offline/online cycles: one CPU, none to take over the designated one (%llu offlines refused)",
		    (unsigned long long)sh->hp_refused);
	else
		result(sh->hp_offline > 0 && sh->hp_online == sh->hp_offline,
		       "%llu CPU offline/online cycles of the designated CPUs",
		       (unsigned long long)sh->hp_offline);
	result(sh->unload_tries > 0 && sh->unload_refused == sh->unload_tries,
	       "rmmod hvpmu_sim/%s refused while an event of %s is open:"
	       " %llu of %llu attempts under load",
	       our_model_module[pin_pmu], our_name[pin_pmu],
	       (unsigned long long)sh->unload_refused,
	       (unsigned long long)sh->unload_tries);
	result(sh->races > 0 && sh->reloads == sh->races && !sh->reload_fail,
	       "hvpmu_sim unloaded %llu times (%llu while its events were being"
	       " opened) and came back with every model up (%d)%s%s",
	       (unsigned long long)sh->reloads,
	       (unsigned long long)sh->race_unloads, nr_models,
	       sh->reload_fail ? ": " : "", sh->reload_fail ? sh->reload_msg : "");
	ok = true;
	for (i = 0; i < w->n; i++) {
		if (w->alive[i] || (WIFEXITED(w->status[i]) &&
				    !WEXITSTATUS(w->status[i])))
			continue;
		ok = false;
		say("    %s (pid %d) %s %d", w->what[i], w->pid[i],
		    WIFSIGNALED(w->status[i]) ? "killed by signal" : "exited",
		    WIFSIGNALED(w->status[i]) ? WTERMSIG(w->status[i]) :
		    WEXITSTATUS(w->status[i]));
	}
	result(ok, "every worker ended normally");
}

/* --- main ---------------------------------------------------------------- */

static void spawn(struct workers *w, const char *what, int kind,
		  void (*fn)(int id, int arg), int arg)
{
	int k = w->n++;
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fn(k, arg);
		_exit(0);
	}
	w->pid[k] = pid;
	w->what[k] = what;
	w->kind[k] = kind;
	w->alive[k] = pid > 0;
}

static void run_fuzz(int id, int arg)
{
	(void)arg;
	fuzz_worker(id);
}

static void run_reader(int id, int pmu)
{
	reader_worker(id, pmu);
}

static void run_hotplug(int id, int arg)
{
	(void)id;
	(void)arg;
	hotplug_worker();
}

static void run_injector(int id, int arg)
{
	(void)arg;
	injector_worker(id);
}

/* Collect the workers that ended; early says whether they should not have. */
static void reap(struct workers *w, bool early)
{
	int k, status;

	for (k = 0; k < w->n; k++) {
		if (!w->alive[k])
			continue;
		if (waitpid(w->pid[k], &status, WNOHANG) == w->pid[k]) {
			w->alive[k] = false;
			w->status[k] = status;
			if (early || !WIFEXITED(status) || WEXITSTATUS(status))
				say("    worker %s (pid %d) ended early", w->what[k],
				    w->pid[k]);
		}
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: hvpmu-stress [-t seconds] [-a attributes] "
		"[-T max-seconds] [-s seed] [-w fuzz-workers] [-r readers] "
		"[-q reload-seconds] [-U] [-L] [-v]\n"
		"  -U: also unload hvpmu_sim while software events are opened"
		" (deadlocks Linux 6.1's perf core without patch 0003)\n"
		"  -L: also load hvpmu_sim while the fuzzers open events (Linux"
		" 6.1's perf core without patch 0004 uses a context with no"
		" reference)\n"
		"  -v: a line per exact-count run, where the fuzzers' time goes\n"
		"  -x: without readers (r), injector (i), hotplug (h), unloads (u)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	double duration = 60, max_duration = 0, reload_every = 45, t0, t;
	double next_progress = 10;
	pthread_rwlockattr_t rwa;
	struct workers w = { 0 };
	bool unload_races_sw = false;
	const char *without = "";
	uint64_t target = 0;
	double next_unload, next_reload;
	struct rng r;
	int opt, i;

	seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	nworkers = 3;
	while ((opt = getopt(argc, argv, "t:a:T:s:w:r:q:ULvx:")) != -1) {
		switch (opt) {
		case 't':
			duration = atof(optarg);
			break;
		case 'a':
			target = strtoull(optarg, NULL, 0);
			break;
		case 'T':
			max_duration = atof(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'w':
			nworkers = atoi(optarg);
			break;
		case 'r':
			nreaders = atoi(optarg);
			break;
		case 'q':
			reload_every = atof(optarg);
			break;
		case 'U':
			unload_races_sw = true;
			race_sw = true;
			break;
		case 'L':
			race_register = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'x':
			without = optarg;
			break;
		default:
			usage();
		}
	}
	if (nworkers < 1 || nreaders < 1 || nreaders > NR_OURS ||
	    nworkers > MAX_WORKERS - NR_OURS - 2 || duration <= 0)
		usage();
	if (!seed)
		seed = 1;
	if (max_duration < duration)
		max_duration = target ? 3 * duration : duration;
	ncpus = nr_cpus();
	if (ncpus > MAX_CPUS)
		ncpus = MAX_CPUS;
	r.s = seed;

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	pthread_rwlockattr_init(&rwa);
	pthread_rwlockattr_setpshared(&rwa, PTHREAD_PROCESS_SHARED);
	pthread_rwlockattr_setkind_np(&rwa, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&sh->hotplug, &rwa);
	pthread_rwlock_init(&sh->startup, &rwa);
	sem_init(&sh->starting, 1, 2);
	for (i = 0; i < NR_OURS; i++)
		mutex_init_shared(&sh->pmu[i].mu);
	mkdir(TMPDIR, 0755);
	signal(SIGPIPE, SIG_IGN);

	/* the PMUs of ours this guest has (see the top) */
	for (i = 0; i < NR_OURS; i++) {
		struct pmu_desc d;

		if (pmu_load(&d, our_name[i])) {
			say("    %s: not registered: not stressed", our_name[i]);
			continue;
		}
		if (d.cpu < 0 && i != MMU)
			say("    %s: no cpumask", our_name[i]);
		ours[nr_ours++] = i;
		is_ours[i] = true;
	}
	nr_models = models_up();
	if (!nr_ours || !nr_models) {
		result(false, "%d of our PMUs registered, %d models up:"
		       " nothing to stress", nr_ours, nr_models);
		return 1;
	}
	pin_pmu = is_ours[MMU] ? MMU : ours[0];
	/* a reader per PMU at most: the others would only wait */
	if (nreaders > nr_ours)
		nreaders = nr_ours;
	say("hvpmu-stress: seed %#llx, %.0f s (at most %.0f s)%s, %d CPUs,"
	    " %d fuzz workers, %d exact-count readers, hotplug, injector, unload;"
	    " %d PMUs, %d models", (unsigned long long)seed, duration,
	    max_duration, target ? ", until the attribute target" : "", ncpus,
	    nworkers, nreaders, nr_ours, nr_models);

	next_unload = 3 + below(&r, 5);
	next_reload = reload_every < duration / 2 ? reload_every : duration / 2;
	for (i = 0; i < nworkers; i++)
		spawn(&w, "fuzz", PAUSE_FUZZ, run_fuzz, 0);
	for (i = 0; i < nreaders && !strchr(without, 'r'); i++)
		spawn(&w, "reader", PAUSE_OTHER, run_reader, i * nr_ours / nreaders);
	if (!strchr(without, 'i'))
		spawn(&w, "injector", PAUSE_OTHER, run_injector, 0);
	if (!strchr(without, 'h'))
		spawn(&w, "hotplug", NO_PAUSE, run_hotplug, 0);
	if (strchr(without, 'u')) {
		next_unload = 1e9;
		next_reload = 1e9;
	}

	if (!unload_races_sw)
		pin_open();
	t0 = now();
	for (;;) {
		t = now() - t0;
		if ((t >= duration && (!target || total_tried() >= target)) ||
		    t >= max_duration)
			break;
		if (t >= next_progress) {
			uint64_t n = 0, c = 0;

			for (i = 0; i < NR_OURS; i++) {
				n += sh->pmu[i].checked;
				c += sh->pmu[i].mismatches;
			}
			say("[%4.0fs] %llu attributes, %llu exact runs (%llu"
			    " mismatches), %llu hotplug cycles, %llu anomalies",
			    t, (unsigned long long)total_tried(),
			    (unsigned long long)n, (unsigned long long)c,
			    (unsigned long long)sh->hp_offline,
			    (unsigned long long)sh->anomalies);
			next_progress += 10;
		}
		if (t >= next_unload) {
			unload_attempt(&r, !unload_races_sw);
			next_unload = t + 3 + below(&r, 5);
		}
		if (t >= next_reload) {
			unload_race(&w, &r);
			next_reload = now() - t0 + reload_every;
		}
		reap(&w, true);
		msleep(100);
	}
	t = now() - t0;
	pin_close();
	store_int(&sh->stop, 1);
	t0 = now();
	for (;;) {
		bool any = false;

		reap(&w, false);
		for (i = 0; i < w.n; i++)
			any |= w.alive[i];
		if (!any)
			break;
		if (now() - t0 > 120) {
			/* a worker stuck in the kernel cannot even be killed */
			for (i = 0; i < w.n; i++)
				if (w.alive[i]) {
					say("    worker %s (pid %d) did not stop: killed",
					    w.what[i], w.pid[i]);
					kill(w.pid[i], SIGKILL);
				}
			msleep(2000);
			reap(&w, false);
			break;
		}
		msleep(100);
	}
	for (i = 0; i < ncpus; i++)
		if (!cpu_online(i))
			set_online(i, 1);
	for (i = 0; i < nr_ours; i++)
		errors_clear(ours[i], NULL);
	report(t, target, &w);
	return nfail ? 1 : 0;
}
