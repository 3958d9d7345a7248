/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What hvpmu-stress and hvpmu-bench know about a PMU: only what sysfs
 * (/sys/bus/event_source/devices/<pmu>/{type,cpumask,format,events}) and
 * the simulated platform's debugfs files say, so that they keep working
 * whatever the drivers do inside.
 */
#ifndef HVPMU_TEST_PMU_H
#define HVPMU_TEST_PMU_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PMU_DIR		"/sys/bus/event_source/devices"
#define SIM_DIR		"/sys/kernel/debug/hvpmu_sim"

#define PMU_MAX_FIELDS	16
#define PMU_MAX_EVENTS	64
#define PMU_MAX_RANGES	4

/* One format/ file: "config1:0-15" or "config:0-3,8-11". */
struct pmu_field {
	char name[32];
	int word;			/* 0 config, 1 config1, 2 config2 */
	int nr;				/* ranges */
	unsigned char lo[PMU_MAX_RANGES], hi[PMU_MAX_RANGES];
	unsigned int width;		/* bits over all ranges */
};

/* One events/ file (not .unit/.scale): "event=0x0,channel=?". */
struct pmu_event {
	char name[96];
	char terms[192];
};

struct pmu_desc {
	char name[32];
	int type;			/* -1: not registered */
	int cpu;			/* first CPU of cpumask, -1: no cpumask */
	int nfields;
	struct pmu_field field[PMU_MAX_FIELDS];
	int nevents;
	struct pmu_event event[PMU_MAX_EVENTS];
};

/* pmu_load() - read a PMU's sysfs; 0, or -errno (-ENOENT: not registered) */
int pmu_load(struct pmu_desc *p, const char *name);
/* pmu_cpumask() - the first CPU of the PMU's cpumask now, or -1 */
int pmu_cpumask(const char *name);
/* pmu_field() - the field called @name, or NULL */
const struct pmu_field *pmu_field(const struct pmu_desc *p, const char *name);
/* pmu_event() - the named event @name, or NULL */
const struct pmu_event *pmu_event(const struct pmu_desc *p, const char *name);
/* field_max() - the largest value the field's bits hold */
uint64_t field_max(const struct pmu_field *f);
/* field_put() - store @val (truncated to the field) into config words */
void field_put(const struct pmu_field *f, uint64_t cfg[3], uint64_t val);

/*
 * pmu_encode() - config words of an event string's terms ("event=0x0,
 * channel=?"); "?" takes the value @ask(field, arg) returns. Terms naming
 * config, config1 or config2 set the whole word. Returns 0, or -EINVAL for
 * a term that names no field.
 */
int pmu_encode(const struct pmu_desc *p, const char *terms, uint64_t cfg[3],
	       uint64_t (*ask)(const struct pmu_field *f, void *arg),
	       void *arg);

/* read_text() - a whole small file as a string; length, or -errno */
int read_text(const char *path, char *buf, size_t len);
/* write_text() - one write() of @text to @path; 0, or -errno */
int write_text(const char *path, const char *text);
/* sim_write() - one line to hvpmu_sim/<model>/<file>; 0, or -errno */
int sim_write(const char *model, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * sim_calls() - the value after "<key> " on the first line of
 * hvpmu_sim/<model>/calls that starts with @key, e.g. ("gpci", "hcalls")
 * or ("sun4v", "niagara2_dram get"); -1 when absent.
 */
long long sim_calls(const char *model, const char *key);
/*
 * sim_calls_sum() - the sum of the numbers that follow each word @word in
 * hvpmu_sim/<model>/calls, on lines starting with @prefix ("" for all),
 * e.g. ("mips_cm", "", "reads"); -1 when the file cannot be read.
 */
long long sim_calls_sum(const char *model, const char *prefix,
			const char *word);

/* perf_open() - perf_event_open(2); the fd, or -errno */
int perf_open(void *attr, pid_t pid, int cpu, int group_fd,
	      unsigned long flags);

/* CPUs the guest has (possible), and whether one is online now. */
int nr_cpus(void);
int cpu_online(int cpu);

#endif
