// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs and debugfs helpers of hvpmu-stress and hvpmu-bench (see pmu.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu.h"

int read_text(const char *path, char *buf, size_t len)
{
	ssize_t n, got = 0;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)got < len - 1) {
		n = read(fd, buf + got, len - 1 - got);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		got += n;
	}
	close(fd);
	buf[got] = '\0';
	return got;
}

int write_text(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

int sim_write(const char *model, const char *file, const char *fmt, ...)
{
	char path[128], line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), SIM_DIR "/%s/%s", model, file);
	return write_text(path, line);
}

static int sim_calls_text(const char *model, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), SIM_DIR "/%s/calls", model);
	return read_text(path, buf, len);
}

long long sim_calls(const char *model, const char *key)
{
	size_t klen = strlen(key);
	char buf[4096], *line;

	if (sim_calls_text(model, buf, sizeof(buf)) < 0)
		return -1;
	for (line = buf; line && *line; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, key, klen) && line[klen] == ' ')
			return strtoll(line + klen + 1, NULL, 0);
	}
	return -1;
}

long long sim_calls_sum(const char *model, const char *prefix,
			const char *word)
{
	char buf[4096], *save = NULL, *line, *tok, *s2;
	long long sum = 0;

	if (sim_calls_text(model, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		s2 = NULL;
		for (tok = strtok_r(line, " ", &s2); tok;
		     tok = strtok_r(NULL, " ", &s2)) {
			if (strcmp(tok, word))
				continue;
			tok = strtok_r(NULL, " ", &s2);
			if (!tok)
				break;
			sum += strtoll(tok, NULL, 0);
		}
	}
	return sum;
}

int perf_open(void *attr, pid_t pid, int cpu, int group_fd,
	      unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);

	return fd < 0 ? -errno : (int)fd;
}

int pmu_cpumask(const char *name)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), PMU_DIR "/%s/cpumask", name);
	if (read_text(path, buf, sizeof(buf)) <= 0 || buf[0] < '0' ||
	    buf[0] > '9')
		return -1;
	return atoi(buf);
}

/* "config1:0-15,32-47" */
static int parse_format(struct pmu_field *f, char *text)
{
	char *p = text, *end;
	unsigned long lo, hi;

	if (!strncmp(p, "config2:", 8)) {
		f->word = 2;
		p += 8;
	} else if (!strncmp(p, "config1:", 8)) {
		f->word = 1;
		p += 8;
	} else if (!strncmp(p, "config:", 7)) {
		f->word = 0;
		p += 7;
	} else {
		return -EINVAL;
	}
	f->nr = 0;
	f->width = 0;
	while (*p && *p != '\n') {
		if (f->nr == PMU_MAX_RANGES)
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		if (end == p || hi < lo || hi > 63)
			return -EINVAL;
		f->lo[f->nr] = lo;
		f->hi[f->nr] = hi;
		f->width += hi - lo + 1;
		f->nr++;
		p = *end == ',' ? end + 1 : end;
	}
	return f->nr ? 0 : -EINVAL;
}

int pmu_load(struct pmu_desc *p, const char *name)
{
	char path[384], buf[256];
	struct dirent *de;
	DIR *d;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->type = -1;
	snprintf(path, sizeof(path), PMU_DIR "/%s/type", name);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return -ENOENT;
	p->type = atoi(buf);
	p->cpu = pmu_cpumask(name);

	snprintf(path, sizeof(path), PMU_DIR "/%s/format", name);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && p->nfields < PMU_MAX_FIELDS) {
		struct pmu_field *f = &p->field[p->nfields];

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", name,
			 de->d_name);
		snprintf(f->name, sizeof(f->name), "%.*s",
			 (int)sizeof(f->name) - 1, de->d_name);
		if (read_text(path, buf, sizeof(buf)) > 0 &&
		    !parse_format(f, buf))
			p->nfields++;
	}
	closedir(d);

	snprintf(path, sizeof(path), PMU_DIR "/%s/events", name);
	d = opendir(path);
	if (!d)
		return 0;		/* a PMU may have no named events */
	while ((de = readdir(d)) && p->nevents < PMU_MAX_EVENTS) {
		struct pmu_event *e = &p->event[p->nevents];
		char *nl;

		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue;	/* .unit, .scale */
		snprintf(path, sizeof(path), PMU_DIR "/%s/events/%s", name,
			 de->d_name);
		if (read_text(path, e->terms, sizeof(e->terms)) <= 0)
			continue;
		nl = strchr(e->terms, '\n');
		if (nl)
			*nl = '\0';
		snprintf(e->name, sizeof(e->name), "%.*s",
			 (int)sizeof(e->name) - 1, de->d_name);
		p->nevents++;
	}
	closedir(d);
	return 0;
}

const struct pmu_field *pmu_field(const struct pmu_desc *p, const char *name)
{
	int i;

	for (i = 0; i < p->nfields; i++)
		if (!strcmp(p->field[i].name, name))
			return &p->field[i];
	return NULL;
}

const struct pmu_event *pmu_event(const struct pmu_desc *p, const char *name)
{
	int i;

	for (i = 0; i < p->nevents; i++)
		if (!strcmp(p->event[i].name, name))
			return &p->event[i];
	return NULL;
}

uint64_t field_max(const struct pmu_field *f)
{
	return f->width >= 64 ? ~0ULL : (1ULL << f->width) - 1;
}

void field_put(const struct pmu_field *f, uint64_t cfg[3], uint64_t val)
{
	unsigned int i, bit, w;
	uint64_t mask;

	for (i = 0; i < (unsigned int)f->nr; i++) {
		bit = f->lo[i];
		w = f->hi[i] - f->lo[i] + 1;
		mask = w >= 64 ? ~0ULL : (1ULL << w) - 1;
		cfg[f->word] &= ~(mask << bit);
		cfg[f->word] |= (val & mask) << bit;
		val = w >= 64 ? 0 : val >> w;
	}
}

int pmu_encode(const struct pmu_desc *p, const char *terms, uint64_t cfg[3],
	       uint64_t (*ask)(const struct pmu_field *f, void *arg),
	       void *arg)
{
	char buf[256], *save = NULL, *t, *eq;
	const struct pmu_field *f;
	uint64_t v;

	snprintf(buf, sizeof(buf), "%s", terms);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		eq = strchr(t, '=');
		if (eq)
			*eq++ = '\0';
		if (!strcmp(t, "config") || !strcmp(t, "config1") ||
		    !strcmp(t, "config2")) {
			cfg[t[6] ? t[6] - '0' : 0] = eq ? strtoull(eq, NULL, 0) : 1;
			continue;
		}
		f = pmu_field(p, t);
		if (!f)
			return -EINVAL;
		if (eq && !strcmp(eq, "?"))
			v = ask ? ask(f, arg) : 0;
		else
			v = eq ? strtoull(eq, NULL, 0) : 1;
		field_put(f, cfg, v);
	}
	return 0;
}

int nr_cpus(void)
{
	char buf[64], *dash;

	if (read_text("/sys/devices/system/cpu/possible", buf, sizeof(buf)) <= 0)
		return 1;
	dash = strchr(buf, '-');
	return dash ? atoi(dash + 1) + 1 : 1;
}

int cpu_online(int cpu)
{
	char path[96], buf[8];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return cpu == 0;	/* a CPU without the file cannot go offline */
	return buf[0] == '1';
}
