// SPDX-License-Identifier: GPL-2.0
/*
 * hvpmu-bench: what the hvpmu PMUs cost, on the simulated platform in the
 * e2e guests (make bench: the x86_64 guest, mips_cm's rows from the mips
 * guest, hv_gpci's from the ppc64le guest), each measuring the PMUs it
 * has registered. Every figure is printed beside a reference
 * measured in the same run, because absolute times under QEMU TCG on a
 * debug kernel mean nothing:
 *
 *  - read() of one event vs read() of cpu-clock, the reader pinned to the
 *    event's CPU;
 *  - for an uncore PMU (one with a cpumask), read() of one event from
 *    another CPU vs from the event's: the line "cross-cpu-read <pmu>
 *    <ratio>" (1 when perf core reads on the calling CPU, about the cost
 *    of an IPI more when it must ask the event's CPU);
 *  - hypervisor calls (or register accesses) per group read and per
 *    interval of perf stat -I 100, for a group and for the same events
 *    opened separately, from the models' debugfs "calls" files;
 *  - expirations per second of our hrtimers (any hrtimer whose function
 *    lies in one of our modules, counted with the timer:hrtimer_expire_entry
 *    tracepoint) with no event and with one event counting, beside the poll
 *    rate each PMU needs given its counter width and the worst-case event
 *    rate its documentation states;
 *  - perf_event_open() + close() of one event vs of cpu-clock.
 *
 * Usage: hvpmu-bench [-r rounds]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../stress/pmu.h"

#define MAX_EV		6
#define TRACEFS		"/sys/kernel/tracing"

/*
 * What each PMU is measured with, and what its page says about counter
 * width and worst-case rate (the Documentation/admin-guide/perf/ pages;
 * the details in tools/testing/hvpmu/MODELS.md).
 */
struct bench {
	const char *pmu;
	const char *ev[MAX_EV];		/* "event,term=value" */
	int nev;
	const char *calls_what;		/* what the model counts */
	long long (*calls)(const char *pmu);
	int width;			/* counter bits, 64: no wrap */
	double worst_per_s;		/* events per second, 0: none stated */
	const char *worst_src;
	const char *period_src;		/* how often it polls */
	double period_ms;		/* 0: read from sysfs poll_period_ms */
	const char *floor;		/* fewest calls a group read needs */
};

static long long sun4v_calls(const char *pmu)
{
	return sim_calls_sum("sun4v", pmu, "get") + sim_calls_sum("sun4v", pmu, "set");
}

static long long mmustat_calls(const char *pmu)
{
	(void)pmu;
	return sim_calls_sum("mmustat", "", "info") + sim_calls_sum("mmustat", "", "conf");
}

static long long cm_calls(const char *pmu)
{
	(void)pmu;
	return sim_calls_sum("mips_cm", "", "reads") + sim_calls_sum("mips_cm", "", "writes");
}

static long long gpci_calls(const char *pmu)
{
	(void)pmu;
	return sim_calls("gpci", "hcalls");
}

static const struct bench benches[] = {
	{
		"niagara2_dram",
		{ "mem_reads,channel=0", "mem_writes,channel=0",
		  "mem_reads,channel=1", "mem_writes,channel=1" }, 4,
		"hcalls", sun4v_calls, 31, 21e9,
		"\"at most about 21 events per nanosecond\"",
		"sysfs poll_period_ms", 0,
		"floor 2: one counter register per channel",
	}, {
		"vfalls_dram",
		{ "mem_reads,node=0,mcu=0", "mem_writes,node=0,mcu=0",
		  "mem_reads,node=0,mcu=1", "mem_writes,node=0,mcu=1" }, 4,
		"hcalls", sun4v_calls, 31, 21e9,
		"\"at most about 21 events per nanosecond\"",
		"sysfs poll_period_ms", 0,
		"floor 2: one counter register per MCU",
	}, {
		"niagara_mmustat",
		{ "dtsb_hits_ctx0_8k", "dtsb_hits_ctxnon0_8k",
		  "itsb_hits_ctx0_8k", "itsb_hits_ctxnon0_8k" }, 4,
		"hcalls", mmustat_calls, 64, 0, "64-bit words", "no poll", -1,
		"floor 0 (same task, no switch), else 1 INFO",
	}, {
		"mips_cm",
		{ "cycles", "request_count,qualifier=0x1",
		  "sharing_miss,qualifier=0x2" }, 3,
		"register accesses", cm_calls, 32, 4.3e9,
		"\"one event per CM clock at up to ~4.3 GHz\"",
		"the simulated platform's", 10,
		"floor 5 polled: control check, 3 counters, status",
	}, {
		"hv_gpci",
		{ "entitled_capped_uncapped_donated_idle_timebase_by_partition_entitled_cycles,sibling_part_id=3",
		  "entitled_capped_uncapped_donated_idle_timebase_by_partition_consumed_capped_cycles,sibling_part_id=3",
		  "entitled_capped_uncapped_donated_idle_timebase_by_partition_consumed_uncapped_cycles,sibling_part_id=3",
		  "entitled_capped_uncapped_donated_idle_timebase_by_partition_cycles_donated,sibling_part_id=3",
		  "entitled_capped_uncapped_donated_idle_timebase_by_partition_purr_idle_cycles,sibling_part_id=3" }, 5,
		"hcalls", gpci_calls, 64, 0, "64-bit counters", "no poll", -1,
		"floor 1: one request",
	},
};
#define NR_BENCH	(int)(sizeof(benches) / sizeof(benches[0]))

static int rounds = 20;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* "name,term=value,..." of PMU d: the named event's terms, then ours. */
static int encode(const struct pmu_desc *d, const char *spec,
		  struct perf_event_attr *a)
{
	char name[128], *comma;
	const struct pmu_event *e;
	uint64_t cfg[3] = { 0 };

	snprintf(name, sizeof(name), "%s", spec);
	comma = strchr(name, ',');
	if (comma)
		*comma++ = '\0';
	e = pmu_event(d, name);
	if (!e || pmu_encode(d, e->terms, cfg, NULL, NULL) ||
	    (comma && pmu_encode(d, comma, cfg, NULL, NULL)))
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = d->type;
	a->config = cfg[0];
	a->config1 = cfg[1];
	a->config2 = cfg[2];
	return 0;
}

static int open_sw(int cpu)
{
	struct perf_event_attr a = {
		.size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};

	return perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Nanoseconds per read() of fd, median over rounds of 200. */
static void read_batches(int fd, double *ns, int n)
{
	uint64_t buf[64];
	double t0;
	int k, i;

	for (k = 0; k < n; k++) {
		t0 = now();
		for (i = 0; i < 200; i++)
			if (read(fd, buf, sizeof(buf)) <= 0)
				return;
		ns[k] = (now() - t0) * 1e9 / 200;
	}
}

struct row {
	char what[96];
	char ours[64];
	char ref[64];
	char note[192];
};

static struct row table[64];
static int nrows;

static void row(const char *what, const char *note, const char *fmt_ours,
		double ours, const char *fmt_ref, double ref)
{
	struct row *r = &table[nrows++];

	snprintf(r->what, sizeof(r->what), "%s", what);
	snprintf(r->ours, sizeof(r->ours), fmt_ours, ours);
	snprintf(r->ref, sizeof(r->ref), fmt_ref, ref);
	snprintf(r->note, sizeof(r->note), "%s", note);
}

/* read() of the PMU's first event vs cpu-clock, both on its CPU. */
static void bench_read(const struct bench *b, const struct pmu_desc *d, int cpu)
{
	double ours[64], ref[64], o, s;
	struct perf_event_attr a;
	int fd, sw, k;
	char what[96], note[96];

	if (encode(d, b->ev[0], &a))
		return;
	fd = perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	sw = open_sw(cpu);
	if (fd < 0 || sw < 0) {
		printf("    %s: cannot open %s or cpu-clock on cpu%d\n", b->pmu,
		       b->ev[0], cpu);
		goto out;
	}
	pin(cpu);
	/* interleaved, so that the machine's mood hits both alike */
	for (k = 0; k < rounds; k++) {
		read_batches(fd, &ours[k], 1);
		read_batches(sw, &ref[k], 1);
	}
	o = median(ours, rounds);
	s = median(ref, rounds);
	snprintf(what, sizeof(what), "%s: read() of one event", b->pmu);
	snprintf(note, sizeof(note), "ratio %.2f (goal <= 1.5)", o / s);
	row(what, note, "%.0f ns", o, "cpu-clock %.0f ns", s);
out:
	if (fd >= 0)
		close(fd);
	if (sw >= 0)
		close(sw);
}

/*
 * read() of one event from another CPU vs from the event's own, rounds
 * interleaved; prints "cross-cpu-read <pmu> <ratio>" for make bench.
 */
static void bench_cross_read(const struct bench *b, const struct pmu_desc *d,
			     int cpu, int ncpu)
{
	double local[64], cross[64], o, s;
	struct perf_event_attr a;
	char what[96], note[96];
	int fd, k, other = cpu ? 0 : 1;

	if (ncpu < 2) {
		printf("    %s: one CPU: no cross-CPU read\n", b->pmu);
		return;
	}
	if (encode(d, b->ev[0], &a))
		return;
	fd = perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		printf("    %s: cannot open %s on cpu%d\n", b->pmu, b->ev[0], cpu);
		return;
	}
	for (k = 0; k < rounds; k++) {
		pin(cpu);
		read_batches(fd, &local[k], 1);
		pin(other);
		read_batches(fd, &cross[k], 1);
	}
	pin(cpu);
	close(fd);
	o = median(cross, rounds);
	s = median(local, rounds);
	snprintf(what, sizeof(what), "%s: read() from cpu%d, event on cpu%d",
		 b->pmu, other, cpu);
	snprintf(note, sizeof(note), "ratio %.2f", o / s);
	row(what, note, "%.0f ns", o, "%.0f ns", s);
	/* the reference's CPU is the event's: put it in the format */
	snprintf(table[nrows - 1].ref, sizeof(table[nrows - 1].ref),
		 "from cpu%d %.0f ns", cpu, s);
	printf("cross-cpu-read %s %.2f\n", b->pmu, o / s);
}

/* Model calls per second with the events open and nobody reading. */
static double background_rate(const struct bench *b, double secs)
{
	long long c0 = b->calls(b->pmu);
	double t0 = now();

	usleep(secs * 1e6);
	return (b->calls(b->pmu) - c0) / (now() - t0);
}

/* Calls per read: a group of every event, and each event on its own. */
static void bench_group_read(const struct bench *b, const struct pmu_desc *d,
			     int cpu)
{
	struct perf_event_attr a;
	uint64_t buf[64];
	int fds[MAX_EV], n = 0, k, i, reads = 200;
	double bg, t0, dt, group = -1, sep = -1;
	long long c0;
	char what[96];

	for (int pass = 0; pass < 2; pass++) {
		n = 0;
		for (k = 0; k < b->nev; k++) {
			if (encode(d, b->ev[k], &a))
				break;
			if (!pass)
				a.read_format = PERF_FORMAT_GROUP;
			fds[n] = perf_open(&a, -1, cpu, pass || !n ? -1 : fds[0],
					   PERF_FLAG_FD_CLOEXEC);
			if (fds[n] < 0)
				break;
			n++;
		}
		if (n != b->nev) {
			printf("    %s: cannot open event %d of %d (%s)\n", b->pmu,
			       n + 1, b->nev, strerror(-fds[n]));
			goto close;
		}
		pin(cpu);
		bg = background_rate(b, 1);
		c0 = b->calls(b->pmu);
		t0 = now();
		for (i = 0; i < reads; i++)
			for (k = 0; k < (pass ? n : 1); k++)
				if (read(fds[k], buf, sizeof(buf)) <= 0)
					goto close;
		dt = now() - t0;
		*(pass ? &sep : &group) = (b->calls(b->pmu) - c0 - bg * dt) / reads;
close:
		for (k = 0; k < n; k++)
			close(fds[k]);
		if (n != b->nev)
			return;
	}
	snprintf(what, sizeof(what), "%s: %s per read of %d events",
		 b->pmu, b->calls_what, b->nev);
	row(what, b->floor, "group %.1f", group, "separate %.1f", sep);
}

/* perf stat -I 100 for secs seconds: model calls, intervals printed. */
static int perf_stat(const char *events, double secs, long long *calls,
		     const struct bench *b)
{
	char cmd[2048], out[] = "/tmp/hvpmu-bench.out", line[512];
	long long c0 = b->calls(b->pmu);
	int n = 0, status;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "perf stat -I 100 -x, -a -o %s %s -- "
		 "sleep %.1f > /dev/null 2>&1", out, events, secs);
	status = system(cmd);
	*calls = b->calls(b->pmu) - c0;
	if (status)
		return -1;
	f = fopen(out, "r");
	if (!f)
		return -1;
	/* one line per event per interval; count the first event's */
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, b->ev[0]))
			n++;
	fclose(f);
	return n;
}

/*
 * Calls per interval of perf stat -I 100: the difference between a 3 s and
 * a 1 s run, per extra interval, so that opening and closing cancel out.
 * It includes the polls of that time; reads alone are the rest.
 */
static void bench_interval(const struct bench *b)
{
	char group[1536], sep[1536], what[96];
	double per[2];
	long long c1, c3;
	int n1, n3, k, pass;
	size_t g = 0, s = 0;

	g += snprintf(group + g, sizeof(group) - g, "-e '{");
	for (k = 0; k < b->nev; k++) {
		g += snprintf(group + g, sizeof(group) - g, "%s%s/%s/",
			      k ? "," : "", b->pmu, b->ev[k]);
		s += snprintf(sep + s, sizeof(sep) - s, "-e %s/%s/ ", b->pmu,
			      b->ev[k]);
	}
	snprintf(group + g, sizeof(group) - g, "}'");
	for (pass = 0; pass < 2; pass++) {
		n1 = perf_stat(pass ? sep : group, 1, &c1, b);
		n3 = perf_stat(pass ? sep : group, 3, &c3, b);
		if (n1 < 0 || n3 <= n1) {
			printf("    %s: perf stat -I 100 failed\n", b->pmu);
			return;
		}
		per[pass] = (double)(c3 - c1) / (n3 - n1);
	}
	snprintf(what, sizeof(what), "%s: %s per perf stat -I 100 interval",
		 b->pmu, b->calls_what);
	row(what, "polls included", "group %.1f", per[0], "separate %.1f",
	    per[1]);
}

/*
 * One of our modules: the drivers (mips_cm_pmu, sun4v_dram_pmu, ...), the
 * models (*_model) and the simulated platform
 * (hvpmu_sim*). The drivers' modules were once all named hvpmu_*; matching
 * that alone missed the drivers' own poll timers.
 */
static bool our_module(const char *name)
{
	size_t n = strlen(name);

	return !strncmp(name, "hvpmu_", 6) ||
	       (n > 4 && !strcmp(name + n - 4, "_pmu")) ||
	       (n > 6 && !strcmp(name + n - 6, "_model"));
}

/*
 * Expirations per second of hrtimers whose function lies in one of our
 * modules (/proc/modules gives where each is), on every CPU.
 */
static int open_timer_counters(int *fds, int ncpu)
{
	char buf[8192], filter[2048], name[64], *line, *save = NULL;
	unsigned long long addr, size;
	size_t n = 0;
	int id, cpu;
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_TRACEPOINT };

	if (read_text(TRACEFS "/events/timer/hrtimer_expire_entry/id", buf,
		      sizeof(buf)) <= 0)
		return -ENOENT;
	id = atoi(buf);
	if (read_text("/proc/modules", buf, sizeof(buf)) <= 0)
		return -ENOENT;
	filter[0] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%63s %llu %*s %*s %*s %llx", name, &size,
			   &addr) != 3 || !our_module(name))
			continue;
		n += snprintf(filter + n, sizeof(filter) - n,
			      "%s(function >= 0x%llx && function < 0x%llx)",
			      n ? " || " : "", addr, addr + size);
	}
	if (!n)
		return -ENOENT;
	a.config = id;
	for (cpu = 0; cpu < ncpu; cpu++) {
		fds[cpu] = perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fds[cpu] < 0)
			return fds[cpu];
		if (ioctl(fds[cpu], PERF_EVENT_IOC_SET_FILTER, filter))
			return -errno;
	}
	return 0;
}

static double timer_rate(int *fds, int ncpu, double secs)
{
	uint64_t v0 = 0, v1 = 0, v;
	double t0;
	int cpu;

	for (cpu = 0; cpu < ncpu; cpu++)
		if (read(fds[cpu], &v, sizeof(v)) == sizeof(v))
			v0 += v;
	t0 = now();
	usleep(secs * 1e6);
	for (cpu = 0; cpu < ncpu; cpu++)
		if (read(fds[cpu], &v, sizeof(v)) == sizeof(v))
			v1 += v;
	return (v1 - v0) / (now() - t0);
}

static void bench_timers(const struct bench *b, const struct pmu_desc *d,
			 int cpu, int *tfds, int ncpu)
{
	double idle, counting, need, period = b->period_ms;
	struct perf_event_attr a;
	char what[96], note[160], path[128], buf[32];
	int fd;

	if (encode(d, b->ev[0], &a))
		return;
	idle = timer_rate(tfds, ncpu, 2);
	fd = perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		printf("    %s: cannot open %s: %s\n", b->pmu, b->ev[0],
		       strerror(-fd));
		return;
	}
	counting = timer_rate(tfds, ncpu, 3);
	close(fd);
	if (!period) {
		snprintf(path, sizeof(path), PMU_DIR "/%s/poll_period_ms", b->pmu);
		period = read_text(path, buf, sizeof(buf)) > 0 ? atof(buf) : -1;
	}
	/* a counter must be read before it advances by 2^width */
	need = b->width < 64 ? b->worst_per_s / (double)(1ULL << b->width) : 0;
	snprintf(what, sizeof(what), "%s: our hrtimer expirations per second",
		 b->pmu);
	if (period > 0)
		snprintf(note, sizeof(note), "needs >= %.2f/s (%d-bit, %s);"
			 " polls every %.0f ms (%s): %.0f/s", need, b->width,
			 b->worst_src, period, b->period_src, 1000 / period);
	else
		snprintf(note, sizeof(note), "needs 0/s (%s)", b->worst_src);
	row(what, note, "counting %.1f", counting, "idle %.1f", idle);
}

/* perf_event_open() + close() of the first event vs of cpu-clock. */
static void bench_open(const struct bench *b, const struct pmu_desc *d, int cpu)
{
	double ours[64], ref[64], t0;
	struct perf_event_attr a;
	char what[96], note[64];
	int k, i, fd;

	if (encode(d, b->ev[0], &a))
		return;
	pin(cpu);
	for (k = 0; k < rounds; k++) {
		t0 = now();
		for (i = 0; i < 20; i++) {
			fd = perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
			if (fd < 0)
				return;
			close(fd);
		}
		ours[k] = (now() - t0) * 1e6 / 20;
		t0 = now();
		for (i = 0; i < 20; i++) {
			fd = open_sw(cpu);
			if (fd < 0)
				return;
			close(fd);
		}
		ref[k] = (now() - t0) * 1e6 / 20;
	}
	snprintf(what, sizeof(what), "%s: perf_event_open() + close()", b->pmu);
	snprintf(note, sizeof(note), "ratio %.2f",
		 median(ours, rounds) / median(ref, rounds));
	row(what, note, "%.0f us", median(ours, rounds), "cpu-clock %.0f us",
	    median(ref, rounds));
}

int main(int argc, char **argv)
{
	int opt, i, cpu, ncpu = nr_cpus(), tfds[8] = { -1 }, tret;
	struct pmu_desc d;

	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt != 'r' || (rounds = atoi(optarg)) < 3 || rounds > 64) {
			fprintf(stderr, "usage: hvpmu-bench [-r rounds (3-64)]\n");
			return 2;
		}
	}
	if (ncpu > 8)
		ncpu = 8;
	tret = open_timer_counters(tfds, ncpu);
	if (tret)
		printf("    no hrtimer counts: timer:hrtimer_expire_entry: %s\n",
		       strerror(-tret));
	for (i = 0; i < NR_BENCH; i++) {
		const struct bench *b = &benches[i];

		/* each guest has some of them: no rows, not a failure */
		if (pmu_load(&d, b->pmu)) {
			printf("    %s: not registered here: its rows skipped\n",
			       b->pmu);
			continue;
		}
		/* uncore PMUs count on their cpumask CPU; mmustat per CPU, 0 */
		cpu = d.cpu >= 0 ? d.cpu : 0;
		bench_read(b, &d, cpu);
		if (d.cpu >= 0)
			bench_cross_read(b, &d, cpu, ncpu);
		bench_open(b, &d, cpu);
		bench_group_read(b, &d, cpu);
		bench_interval(b);
		if (!tret)
			bench_timers(b, &d, cpu, tfds, ncpu);
	}

	printf("\n%-62s %-22s %-22s %s\n", "figure", "ours", "reference (same run)",
	       "");
	for (i = 0; i < nrows; i++)
		printf("%-62s %-22s %-22s %s\n", table[i].what, table[i].ours,
		       table[i].ref, table[i].note);
	return nrows ? 0 : 1;
}
