// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the hv_gpci PMU against the model of
 * H_GetPerformanceCounterInfo, through the real perf core.
 *
 * Cases named gpci_model_* test the model itself, not the driver. Expected
 * values are typed in from the seed (LoPAR "Platform Dependent hcall()s",
 * H_GetPerformanceCounterInfo) or, for parity with Linux, taken from the
 * kernel tree's own arch/powerpc/perf/hv-gpci.h and hv-gpci-requests.h
 * (gpci_test_parity).
 */

#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/perf/pmu_uncore.h>
#include "hv_gpci_model.h"
#include <linux/perf/pmu_format.h>
#include <linux/perf_event.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "pmu_format_kunit.h"

/*
 * The oracle of gpci_test_parity: Linux's own generator of its named
 * events (hv_gpci_event_attrs_v6[] for counter_info_version below 8,
 * hv_gpci_event_attrs[] from 8), from the tree this is built in. The path
 * is relative to the tree's include/ directory; our own include directory,
 * searched first, has no arch/.
 */
#include <../arch/powerpc/perf/hv-gpci.h>

#define GT_NAME		"hv_gpci_test"
#define GT_MAX_EV	64

static struct {
	struct hv_gpci_model *m;
	struct hv_gpci_pmu *g;
	struct perf_event *ev[GT_MAX_EV];
} gt;

static int gt_init(struct kunit *test)
{
	int ret;

	/* PMUs of this suite designate the first CPU: they register there */
	ret = set_cpus_allowed_ptr(current,
				   cpumask_of(cpumask_first(cpu_online_mask)));
	if (ret)
		return ret;
	gt.m = hv_gpci_model_alloc(6);
	return gt.m ? 0 : -ENOMEM;
}

static void gt_close_all(void)
{
	unsigned int i;

	for (i = 0; i < GT_MAX_EV; i++) {
		if (gt.ev[i])
			perf_event_release_kernel(gt.ev[i]);
		gt.ev[i] = NULL;
	}
}

static void gt_remove(void)
{
	gt_close_all();
	if (gt.g)
		hv_gpci_pmu_remove(gt.g);
	gt.g = NULL;
}

static void gt_exit(struct kunit *test)
{
	gt_remove();
	hv_gpci_model_free(gt.m);
	gt.m = NULL;
}

static struct hv_gpci_pmu *gt_probe(void)
{
	return hv_gpci_pmu_probe(&hv_gpci_model_ops, gt.m, GT_NAME);
}

/* Probe a PMU on the model as it is. */
static void gt_probe_model(struct kunit *test)
{
	struct hv_gpci_pmu *g;

	gt_remove();
	g = gt_probe();
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(g), "%pe", g);
	gt.g = g;
}

/* (Re)start the model at @version and probe a PMU on it. */
static void gt_start(struct kunit *test, u8 version, u8 caps)
{
	gt_remove();
	hv_gpci_model_init(gt.m, version);
	gt.m->caps = caps;
	gt_probe_model(test);
}

/* The attribute group called @name of @pmu, as perf_pmu_register() got it. */
static const struct attribute_group *gt_group(struct pmu *pmu,
					      const char *name)
{
	const struct attribute_group **g = pmu->attr_groups;

	for (; *g; g++)
		if ((*g)->name && !strcmp((*g)->name, name))
			return *g;
	return NULL;
}

/* The format field called @name (@len bytes), as perf finds it. */
static const struct pmu_format_attr *gt_field(const char *name, size_t len)
{
	const struct attribute_group *g = gt_group(hv_gpci_pmu_to_pmu(gt.g),
						   "format");
	struct attribute **a;

	for (a = g ? g->attrs : NULL; a && *a; a++)
		if (strlen((*a)->name) == len && !strncmp((*a)->name, name, len))
			return container_of(*a, struct pmu_format_attr,
					    attr.attr);
	return NULL;
}

/*
 * Build an attribute from an event's sysfs terms, "?" becoming @q, placing
 * each value where the field's format file says, as perf does.
 */
static void gt_parse(struct kunit *test, const char *terms, u64 q,
		     struct perf_event_attr *attr)
{
	char *buf = kunit_kzalloc(test, 256, GFP_KERNEL), *s, *t;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	strscpy(buf, terms, 256);
	memset(attr, 0, sizeof(*attr));
	attr->type = hv_gpci_pmu_to_pmu(gt.g)->type;
	attr->size = sizeof(*attr);
	s = buf;
	while ((t = strsep(&s, ","))) {
		char *eq = strchr(t, '=');
		const struct pmu_format_attr *f;
		u64 v = q, *w;

		KUNIT_ASSERT_NOT_NULL(test, eq);
		f = gt_field(t, eq - t);
		KUNIT_ASSERT_NOT_NULL_MSG(test, f, "term %s", t);
		if (strcmp(eq + 1, "?"))
			KUNIT_ASSERT_EQ(test, kstrtou64(eq + 1, 0, &v), 0);
		w = f->word == PMU_FORMAT_CONFIG1 ? &attr->config1 :
		    f->word == PMU_FORMAT_CONFIG2 ? &attr->config2 :
		    &attr->config;
		*w = (*w & ~f->mask) | ((v << __ffs64(f->mask)) & f->mask);
	}
}

/* The value of term @name in "a=1,b=?,..." (U64_MAX for "?", or absent) */
static u64 gt_term(const char *terms, const char *name, bool *present)
{
	size_t len = strlen(name);
	const char *t = terms;
	u64 v = U64_MAX;

	*present = false;
	while (t && *t) {
		if (!strncmp(t, name, len) && t[len] == '=') {
			char num[24];
			size_t n = strcspn(t + len + 1, ",");

			*present = true;
			if (n >= sizeof(num))
				return U64_MAX;
			memcpy(num, t + len + 1, n);
			num[n] = '\0';
			if (strcmp(num, "?") && kstrtou64(num, 0, &v))
				v = U64_MAX - 1;
			return v;
		}
		t = strchr(t, ',');
		if (t)
			t++;
	}
	return v;
}

static void gt_raw(struct perf_event_attr *attr, u32 req, u32 idx, u16 sec,
		   u8 ver, u8 len, u32 off)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = hv_gpci_pmu_to_pmu(gt.g)->type;
	attr->size = sizeof(*attr);
	attr->config = FIELD_PREP(HV_GPCI_PMU_CONFIG_REQUEST, req) |
		       FIELD_PREP(HV_GPCI_PMU_CONFIG_STARTING_INDEX, idx);
	attr->config1 = FIELD_PREP(HV_GPCI_PMU_CONFIG1_SECONDARY_INDEX, sec) |
			FIELD_PREP(HV_GPCI_PMU_CONFIG1_COUNTER_INFO_VERSION, ver) |
			FIELD_PREP(HV_GPCI_PMU_CONFIG1_LENGTH, len) |
			FIELD_PREP(HV_GPCI_PMU_CONFIG1_OFFSET, off);
}

/* Open through the perf core on @cpu; the slot keeps it for cleanup. */
static struct perf_event *gt_open_cpu(struct perf_event_attr *attr, int cpu)
{
	struct perf_event *ev;
	unsigned int i;

	ev = perf_event_create_kernel_counter(attr, cpu, NULL, NULL, NULL);
	if (IS_ERR(ev))
		return ev;
	for (i = 0; i < GT_MAX_EV; i++) {
		if (!gt.ev[i]) {
			gt.ev[i] = ev;
			return ev;
		}
	}
	perf_event_release_kernel(ev);
	return ERR_PTR(-ENOSPC);
}

static struct perf_event *gt_open(struct perf_event_attr *attr)
{
	return gt_open_cpu(attr, 0);
}

static void gt_close(struct perf_event *ev)
{
	unsigned int i;

	for (i = 0; i < GT_MAX_EV; i++)
		if (gt.ev[i] == ev)
			gt.ev[i] = NULL;
	perf_event_release_kernel(ev);
}

static u64 gt_read(struct perf_event *ev)
{
	u64 enabled, running;

	return perf_event_read_value(ev, &enabled, &running);
}

static struct device_attribute *gt_dev_attr(const char *group,
					    const char *name)
{
	const struct attribute_group **g = hv_gpci_pmu_to_pmu(gt.g)->attr_groups;
	struct device *dev = hv_gpci_pmu_to_pmu(gt.g)->dev;
	struct attribute **a;
	int i;

	for (; *g; g++) {
		if ((*g)->name ? !group || strcmp((*g)->name, group) : !!group)
			continue;
		for (a = (*g)->attrs, i = 0; *a; a++, i++) {
			if (strcmp((*a)->name, name))
				continue;
			/* a file is there only if .is_visible says so */
			if ((*g)->is_visible &&
			    !(*g)->is_visible(&dev->kobj, *a, i))
				return NULL;
			return container_of(*a, struct device_attribute, attr);
		}
	}
	return NULL;
}

/* What reading a sysfs file of the PMU gives, and its return value. */
static const char *gt_show_ret(struct kunit *test, const char *group,
			       const char *name, ssize_t *ret)
{
	struct device_attribute *da = gt_dev_attr(group, name);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	*ret = -ENOENT;
	if (!da)
		return "(none)";
	*ret = da->show(hv_gpci_pmu_to_pmu(gt.g)->dev, da, buf);
	return buf;
}

static const char *gt_show(struct kunit *test, const char *group,
			   const char *name)
{
	ssize_t ret;

	return gt_show_ret(test, group, name, &ret);
}

/* What events/<name> holds without its newline, or NULL for no file. */
static const char *gt_our_event(struct kunit *test, const char *name)
{
	struct pmu *pmu = hv_gpci_pmu_to_pmu(gt.g);
	const struct attribute_group *g = gt_group(pmu, "events");
	char *s;

	KUNIT_ASSERT_NOT_NULL(test, g);
	s = pmu_kunit_group_file(test, pmu->dev, g, name);
	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

/* Number of files in events/. */
static unsigned int gt_nr_events(struct kunit *test, struct pmu *pmu)
{
	const struct attribute_group *g = gt_group(pmu, "events");

	KUNIT_ASSERT_NOT_NULL(test, g);
	return pmu_kunit_count(pmu->dev, g);
}

/*
 * The @i-th file of events/ (in the group's order, of those its
 * .is_visible shows), or NULL past the last one.
 */
static struct attribute *gt_event_attr(struct kunit *test, unsigned int i)
{
	struct pmu *pmu = hv_gpci_pmu_to_pmu(gt.g);
	const struct attribute_group *g = gt_group(pmu, "events");
	unsigned int j;

	KUNIT_ASSERT_NOT_NULL(test, g);
	for (j = 0; g->attrs[j]; j++) {
		if (g->is_visible &&
		    !g->is_visible(&pmu->dev->kobj, g->attrs[j], j))
			continue;
		if (!i--)
			return g->attrs[j];
	}
	return NULL;
}

static const char *gt_event_name(struct kunit *test, unsigned int i)
{
	struct attribute *a = gt_event_attr(test, i);

	return a ? a->name : NULL;
}

/* ---- Tables typed in from the seed (issue 10: no shared header) ---- */

/*
 * Performance_Counter_Info_Parms (seed): Requested_Information uint_32 at
 * 0, starting_index int_32 at 4, returned_values uint_32 at 8, reserved
 * uint_32 at 12, reserved uint_64[2] at 16, counter_value at 32.
 */
static const struct {
	const char *what;
	size_t driver;
	size_t seed;
} gt_seed_header[] = {
	{ "Requested_Information", offsetof(struct hv_gpci_pmu_hdr, request), 0 },
	{ "starting_index", offsetof(struct hv_gpci_pmu_hdr, starting_index), 4 },
	{ "returned_values (LoPAR)", offsetof(struct hv_gpci_pmu_hdr, secondary_index), 8 },
	{ "reserved uint_32", offsetof(struct hv_gpci_pmu_hdr, detail_rc), 12 },
	{ "reserved uint_64[2]", offsetof(struct hv_gpci_pmu_hdr, cv_element_size), 16 },
	{ "counter_value", sizeof(struct hv_gpci_pmu_hdr), 32 },
	{ "counter_value (HDR_SIZE)", HV_GPCI_PMU_HDR_SIZE, 32 },
};

/* Request codes and the hcall token (seed). */
static const struct {
	u32 driver;
	u32 seed;
} gt_seed_codes[] = {
	{ HV_GPCI_PMU_HCALL, 0xF080 },
	{ HV_GPCI_PMU_REQ_DISPATCH_BY_PROC, 0x00000010 },
	{ HV_GPCI_PMU_REQ_PURR_BY_PART, 0x00000020 },
	{ HV_GPCI_PMU_REQ_RUN_BY_PART, 0x00000030 },
	{ HV_GPCI_PMU_REQ_CAPABILITIES, 0x00000040 },
	{ HV_GPCI_PMU_REQ_BUS_ABC, 0x00000050 },
	{ HV_GPCI_PMU_REQ_BUS_WXYZ, 0x00000060 },
	{ HV_GPCI_PMU_REQ_SET_MMCRH, 0x80001000 },
	{ HV_GPCI_PMU_REQ_HPMCX, 0x80002000 },
};

/*
 * Return codes: the seed names H_Success, H_Privilege, H_Parameter,
 * H_Not_Available, H_Authority (and LoPAR's syntax H_Hardware); their
 * values are PAPR's, typed in from Linux's asm/hvcall.h.
 */
static const struct {
	long driver;
	long papr;
} gt_seed_rcs[] = {
	{ HV_GPCI_H_SUCCESS, 0 }, { HV_GPCI_H_HARDWARE, -1 },
	{ HV_GPCI_H_FUNCTION, -2 }, { HV_GPCI_H_PRIVILEGE, -3 },
	{ HV_GPCI_H_PARAMETER, -4 }, { HV_GPCI_H_AUTHORITY, -10 },
	{ HV_GPCI_H_NOT_AVAILABLE, 3 },
};

/*
 * Element sizes the seed's field lists add up to, and the last entity of
 * the model's system for each (so the reply holds one element).
 */
static const struct {
	u32 req;
	u32 size;
	u32 last;
} gt_seed_sizes[] = {
	{ 0x10, 0x30, 7 },	/* u64 u32 u16 u8 u8 5xu32 u16 u8[10] */
	{ 0x20, 0x30, 7 },	/* 6 x u64 */
	{ 0x30, 0x18, 7 },	/* 3 x u64 */
	{ 0x50, 0x40, 8 },	/* u32 u32[3] 6 x u64 */
	{ 0x60, 0x50, 8 },	/* u32 u32[3] 8 x u64 */
};

/* Every literal of the seed against the driver's and the model's view. */
static void gpci_test_seed_literals(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	struct perf_event_attr attr;
	unsigned int i;
	u8 *e;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < ARRAY_SIZE(gt_seed_header); i++)
		KUNIT_EXPECT_EQ_MSG(test, gt_seed_header[i].driver,
				    gt_seed_header[i].seed, "%s",
				    gt_seed_header[i].what);
	for (i = 0; i < ARRAY_SIZE(gt_seed_codes); i++)
		KUNIT_EXPECT_EQ(test, gt_seed_codes[i].driver,
				gt_seed_codes[i].seed);
	for (i = 0; i < ARRAY_SIZE(gt_seed_rcs); i++)
		KUNIT_EXPECT_EQ(test, gt_seed_rcs[i].driver, gt_seed_rcs[i].papr);

	/* model: the LoPAR block at the seed's offsets, big-endian */
	hv_gpci_model_init(gt.m, 0);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, 0x1122334455667788);
	put_unaligned_be32(0x10, buf + 0);
	put_unaligned_be32(5, buf + 4);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 4), 5U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 8), 3U); /* 5, 6, 7 */
	e = buf + 32;
	/* uint64 time; uint32 hw id; uint16 owner; uint8 state; ... */
	KUNIT_EXPECT_EQ(test, get_unaligned_be64(e + 0x00), 0x1122334455667788ULL);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(e + 0x08), 0x105U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(e + 0x0C), 0xFFFFU);
	KUNIT_EXPECT_EQ(test, e[0x0E], 0x04);	/* Shared */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(e + 0x10), 1U);	/* chip */
	KUNIT_EXPECT_EQ(test, get_unaligned_be16(e + 0x24), 5U);
	/* the second element starts at the seed's size, 0x30 */
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(e + 0x30 + 0x08), 0x106U);

	/* the driver: the seed's element sizes bound offset + length */
	for (i = 0; i < ARRAY_SIZE(gt_seed_sizes); i++) {
		u32 req = gt_seed_sizes[i].req, size = gt_seed_sizes[i].size;
		struct perf_event *ev;

		gt_start(test, 0, 0);
		gt_raw(&attr, req, gt_seed_sizes[i].last, 0, 0, 8, size - 8);
		ev = gt_open(&attr);
		KUNIT_EXPECT_FALSE_MSG(test, IS_ERR(ev), "0x%x at 0x%x", req,
				       size - 8);
		gt_raw(&attr, req, gt_seed_sizes[i].last, 0, 0, 1, size);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(gt_open(&attr)),
				    -EINVAL, "0x%x at 0x%x", req, size);
	}
}

/* ---- model ---- */

/* model: version_in under both readings, per-CPU -1, every request */
static void gpci_model_requests(struct kunit *test)
{
	static const struct { u32 req; u16 size; } reqs[] = {
		{ 0x10, 0x30 }, { 0x20, 0x30 }, { 0x30, 0x18 }, { 0x50, 0x50 },
		{ 0x60, 0x60 }, { 0x70, 0xB0 }, { 0x80, 0x50 }, { 0x90, 0x20 },
		{ 0x91, 0x10 }, { 0x94, 0x30 }, { 0x95, 0x10 }, { 0xA0, 0x0C },
		{ 0xB0, 0x10 }, { 0xB1, 0x10 }, { 0xC0, 0x20 }, { 0xD0, 0x10 },
		{ 0xE0, 0x50 }, { 0xF0, 0x20 }, { 0xF4, 0x10 }, { 0x100, 0x18 },
	};
	u8 *buf = kunit_kzalloc(test, HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	struct hv_gpci_pmu_hdr *h = (void *)buf;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	hv_gpci_model_init(gt.m, 6);
	for (i = 0; i < ARRAY_SIZE(reqs); i++) {
		memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
		h->request = cpu_to_be32(reqs[i].req);
		h->starting_index = cpu_to_be32(0xffffffff);
		KUNIT_EXPECT_EQ_MSG(test, hv_gpci_model_hcall(gt.m, buf, 4096),
				    0L, "0x%x", reqs[i].req);
		KUNIT_EXPECT_EQ_MSG(test, be16_to_cpu(h->cv_element_size),
				    reqs[i].size, "0x%x", reqs[i].req);
		/* the current partition's 4 virtual processors, else one */
		KUNIT_EXPECT_EQ_MSG(test, be16_to_cpu(h->returned_values),
				    reqs[i].req == 0xA0 ? 4U : 1U, "0x%x",
				    reqs[i].req);
	}
	/* 0x30..0x94 deprecated from 8 (Linux 03f7c1d2a49a) */
	hv_gpci_model_init(gt.m, 8);
	memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
	h->request = cpu_to_be32(0x94);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096),
			(long)HV_GPCI_H_NOT_AVAILABLE);

	/* version_in honoured: 5 asked, 5 answered, 0xF4 (from 6) missing */
	memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
	h->request = cpu_to_be32(0x20);
	h->starting_index = cpu_to_be32(3);
	h->version_in = 5;
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, h->version_out, 5);
	h->request = cpu_to_be32(0xF4);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096),
			(long)HV_GPCI_H_NOT_AVAILABLE);
	/* a newer version than the firmware's, or 0: the firmware's */
	h->request = cpu_to_be32(0x20);
	h->version_in = 9;
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, h->version_out, 8);
	h->version_in = 0;
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, h->version_out, 8);
	/* the other reading: version_in ignored */
	gt.m->version_in = HV_GPCI_PMU_M_IGNORE_VERSION_IN;
	h->request = cpu_to_be32(0xF4);
	h->starting_index = cpu_to_be32(0xffffffff);
	h->version_in = 5;
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, h->version_out, 8);

	/* -1: the processor (and chip) of the calling CPU (any CPU here) */
	for (i = 0; i < HV_GPCI_PMU_MODEL_MAX_CPUS; i++)
		gt.m->cpu_proc[i] = 6;
	memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
	h->request = cpu_to_be32(0x10);
	h->starting_index = cpu_to_be32(0xffffffff);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 6U);
	hv_gpci_model_init(gt.m, 6);
	for (i = 0; i < HV_GPCI_PMU_MODEL_MAX_CPUS; i++)
		gt.m->cpu_proc[i] = 2;
	h->request = cpu_to_be32(0x70);
	h->starting_index = cpu_to_be32(0xffffffff);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 0U);

	/* HPMCx (lab): the seed's u32 + u32 + 8 x u64 */
	gt.m->caps |= HV_GPCI_PMU_CAP_LAB;
	memset(buf, 0, HV_GPCI_PMU_BUF_SIZE);
	h->request = cpu_to_be32(0x80002000);
	h->starting_index = cpu_to_be32(0);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0x48U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 32 + 0x48), 0x101U);
}

/* model: big-endian block, starting_index, LoPAR header, accessibility */
static void gpci_model_block(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 2 * HV_GPCI_PMU_BUF_SIZE, GFP_KERNEL);
	struct hv_gpci_pmu_hdr *h = (void *)buf;
	u8 *e = buf + HV_GPCI_PMU_HDR_SIZE;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_TRUE(test, IS_ALIGNED((unsigned long)buf, 4096));
	hv_gpci_model_init(gt.m, 6);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_CAPPED, 7, 0x0102030405060708);
	h->request = cpu_to_be32(0x20);
	h->starting_index = cpu_to_be32(4);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->starting_index), 7U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->returned_values), 1U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0x30U);
	KUNIT_EXPECT_EQ(test, h->version_out, 6);
	KUNIT_EXPECT_EQ(test, e[0x07], 7);
	KUNIT_EXPECT_EQ(test, e[0x10], 0x01);
	KUNIT_EXPECT_EQ(test, e[0x17], 0x08);

	/* a smaller block: the elements that fit, H_PARAMETER/0x1B */
	h->starting_index = cpu_to_be32(1);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 32 + 0x60),
			(long)HV_GPCI_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->detail_rc), 0x1BU);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->returned_values), 2U);

	/* LoPAR layout: returned_values is a 32-bit field at offset 8 */
	hv_gpci_model_init(gt.m, 0);
	memset(buf, 0, 4096);
	h->request = cpu_to_be32(0x10);
	h->starting_index = cpu_to_be32(2);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096), 0L);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + 8), 5U);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(h->cv_element_size), 0U);
	KUNIT_EXPECT_EQ(test, get_unaligned_be32(e + 0x30 + 8), 0x103U);

	/* a block crossing a 4 KiB boundary is not accessible */
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf + 8, 4096),
			(long)HV_GPCI_H_PRIVILEGE);
	/* capabilities only for the caller itself */
	memset(buf, 0, 4096);
	h->request = cpu_to_be32(0x40);
	h->starting_index = cpu_to_be32(0);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096),
			(long)HV_GPCI_H_NOT_AVAILABLE);
	h->request = cpu_to_be32(0x12345);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_hcall(gt.m, buf, 4096),
			(long)HV_GPCI_H_PARAMETER);
	KUNIT_EXPECT_EQ(test, gt.m->unknown_req, 1UL);
	KUNIT_EXPECT_EQ(test, gt.m->calls, 4UL);
}

/* ---- driver: sysfs ---- */

static const char gt_donated[] =
	"entitled_capped_uncapped_donated_idle_timebase_by_partition_cycles_donated";

/*
 * Every format file, as Linux's hv-gpci.c declares them (its
 * EVENT_DEFINE_RANGE_FORMAT()s): perf parses event strings with these.
 */
static const char *const gt_abi_format[][2] = {
	{ "request", "config:0-31\n" },
	{ "starting_index", "config:32-63\n" },
	{ "phys_processor_idx", "config:32-63\n" },
	{ "sibling_part_id", "config:32-63\n" },
	{ "hw_chip_id", "config:32-63\n" },
	{ "partition_id", "config:32-63\n" },
	{ "secondary_index", "config1:0-15\n" },
	{ "counter_info_version", "config1:16-23\n" },
	{ "length", "config1:24-31\n" },
	{ "offset", "config1:32-63\n" },
};

static void gpci_test_format(struct kunit *test)
{
	unsigned long calls;
	unsigned int i;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(gt_abi_format); i++)
		KUNIT_EXPECT_STREQ(test, gt_show(test, "format", gt_abi_format[i][0]),
				   gt_abi_format[i][1]);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "events", gt_donated),
			   "request=0x20,sibling_part_id=?,counter_info_version=0x8,length=8,offset=0x20\n");
	/* probe: 0x40 (capabilities), 0x10 (counter_info_version) */
	KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(gt.m), 2UL);

	calls = hv_gpci_model_calls(gt.m);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "version"), "0x6\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "kernel_version"),
			   "0x8\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "ga"), "1\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "lab"), "0\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "expanded"), "0\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "collect_privileged"), "1\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "read_errors"),
			   "0\n");
	/* read freshly, as Linux: one hcall per capability file */
	KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(gt.m), calls + 5);

	/* an HMC change or a migration shows at once */
	gt.m->authorised = false;
	gt.m->caps = HV_GPCI_PMU_CAP_GA | HV_GPCI_PMU_CAP_EXPANDED;
	gt.m->version = 8;
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "collect_privileged"), "0\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "expanded"), "1\n");
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "version"), "0x8\n");
	/* the hcall failing: EIO, as Linux */
	hv_gpci_model_inject(gt.m, 0, 1, HV_GPCI_H_HARDWARE, 0);
	{
		ssize_t ret;

		gt_show_ret(test, "interface", "ga", &ret);
		KUNIT_EXPECT_EQ(test, ret, (ssize_t)-EIO);
	}
	/* not a POWER10: no system information files */
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "processor_bus_topology"), "(none)");
}

/* ---- driver: sysfs format/ and events/, byte for byte ---- */

/* Firmware classes of the named events: which ones events/ shows. */
enum { GT_ABI_LOPAR, GT_ABI_EXT, GT_ABI_DEPR };
#define GT_ABI_UP_TO_7	(BIT(GT_ABI_LOPAR) | BIT(GT_ABI_EXT))
#define GT_ABI_ALL	(GT_ABI_UP_TO_7 | BIT(GT_ABI_DEPR))

/*
 * Event files by class (LoPAR layout below counter_info_version 3, the
 * extended one from 3, the deprecating firmware from 8), typed in as
 * users read them: term order, hex spelling ("0xA0", "0x0") and all. A
 * class that no entry of a name covers shows no such file. Every event
 * of the 8+ class is here, and one or more of each request and layout of
 * the others.
 */
static const struct {
	u8 classes;
	const char *name;
	const char *str;
} gt_abi_events[] = {
	{ GT_ABI_ALL,
	  "dispatch_timebase_by_processor_processor_time_in_timebase_cycles",
	  "request=0x10,phys_processor_idx=?,counter_info_version=0x8,length=8,offset=0x0\n",
	},
	{ GT_ABI_ALL,
	  "entitled_capped_uncapped_donated_idle_timebase_by_partition_entitled_cycles",
	  "request=0x20,sibling_part_id=?,counter_info_version=0x8,length=8,offset=0x8\n",
	},
	{ GT_ABI_ALL,
	  "entitled_capped_uncapped_donated_idle_timebase_by_partition_consumed_capped_cycles",
	  "request=0x20,sibling_part_id=?,counter_info_version=0x8,length=8,offset=0x10\n",
	},
	{ GT_ABI_ALL,
	  "entitled_capped_uncapped_donated_idle_timebase_by_partition_consumed_uncapped_cycles",
	  "request=0x20,sibling_part_id=?,counter_info_version=0x8,length=8,offset=0x18\n",
	},
	{ GT_ABI_ALL,
	  "entitled_capped_uncapped_donated_idle_timebase_by_partition_cycles_donated",
	  "request=0x20,sibling_part_id=?,counter_info_version=0x8,length=8,offset=0x20\n",
	},
	{ GT_ABI_ALL,
	  "entitled_capped_uncapped_donated_idle_timebase_by_partition_purr_idle_cycles",
	  "request=0x20,sibling_part_id=?,counter_info_version=0x8,length=8,offset=0x28\n",
	},
	{ GT_ABI_ALL,
	  "partition_hypervisor_queuing_times_time_waiting_for_entitlement",
	  "request=0xE0,partition_id=?,counter_info_version=0x8,length=8,offset=0x8\n",
	},
	{ GT_ABI_ALL,
	  "partition_hypervisor_queuing_times_times_waited_for_entitlement",
	  "request=0xE0,partition_id=?,counter_info_version=0x8,length=8,offset=0x10\n",
	},
	{ GT_ABI_ALL,
	  "partition_hypervisor_queuing_times_time_waiting_for_phys_processor",
	  "request=0xE0,partition_id=?,counter_info_version=0x8,length=8,offset=0x18\n",
	},
	{ GT_ABI_ALL,
	  "partition_hypervisor_queuing_times_times_waited_for_phys_processor",
	  "request=0xE0,partition_id=?,counter_info_version=0x8,length=8,offset=0x20\n",
	},
	{ GT_ABI_ALL,
	  "partition_hypervisor_queuing_times_dispatches_on_home_core",
	  "request=0xE0,partition_id=?,counter_info_version=0x8,length=8,offset=0x28\n",
	},
	{ GT_ABI_ALL,
	  "partition_hypervisor_queuing_times_dispatches_on_home_primary_affinity_domain",
	  "request=0xE0,partition_id=?,counter_info_version=0x8,length=8,offset=0x30\n",
	},
	{ GT_ABI_ALL,
	  "partition_hypervisor_queuing_times_dispatches_on_home_secondary_affinity_domain",
	  "request=0xE0,partition_id=?,counter_info_version=0x8,length=8,offset=0x38\n",
	},
	{ GT_ABI_ALL,
	  "partition_hypervisor_queuing_times_dispatches_off_home_secondary_affinity_domain",
	  "request=0xE0,partition_id=?,counter_info_version=0x8,length=8,offset=0x40\n",
	},
	{ GT_ABI_ALL,
	  "partition_hypervisor_queuing_times_dispatches_on_dedicated_processor_donating_cycles",
	  "request=0xE0,partition_id=?,counter_info_version=0x8,length=8,offset=0x48\n",
	},
	{ GT_ABI_ALL,
	  "system_hypervisor_times_time_spent_to_dispatch_virtual_processors",
	  "request=0xF0,starting_index=0xffffffff,counter_info_version=0x8,length=8,offset=0x0\n",
	},
	{ GT_ABI_ALL,
	  "system_hypervisor_times_time_spent_processing_virtual_processor_timers",
	  "request=0xF0,starting_index=0xffffffff,counter_info_version=0x8,length=8,offset=0x8\n",
	},
	{ GT_ABI_ALL,
	  "system_hypervisor_times_time_spent_managing_partitions_over_entitlement",
	  "request=0xF0,starting_index=0xffffffff,counter_info_version=0x8,length=8,offset=0x10\n",
	},
	{ GT_ABI_ALL,
	  "system_hypervisor_times_time_spent_on_system_management",
	  "request=0xF0,starting_index=0xffffffff,counter_info_version=0x8,length=8,offset=0x18\n",
	},
	{ GT_ABI_ALL,
	  "system_tlbie_count_and_time_tlbie_instructions_issued",
	  "request=0xF4,starting_index=0xffffffff,counter_info_version=0x8,length=8,offset=0x0\n",
	},
	{ GT_ABI_ALL,
	  "system_tlbie_count_and_time_time_spent_issuing_tlbies",
	  "request=0xF4,starting_index=0xffffffff,counter_info_version=0x8,length=8,offset=0x8\n",
	},
	{ GT_ABI_ALL,
	  "partition_instruction_count_and_time_instructions_performed",
	  "request=0x100,partition_id=?,counter_info_version=0x8,length=8,offset=0x8\n",
	},
	{ GT_ABI_ALL,
	  "partition_instruction_count_and_time_time_collected",
	  "request=0x100,partition_id=?,counter_info_version=0x8,length=8,offset=0x10\n",
	},
	{ GT_ABI_UP_TO_7,
	  "run_instructions_run_cycles_by_partition_instructions_completed",
	  "request=0x30,sibling_part_id=?,counter_info_version=0x8,length=8,offset=0x8\n",
	},
	{ GT_ABI_UP_TO_7,
	  "run_instructions_run_cycles_by_partition_cycles",
	  "request=0x30,sibling_part_id=?,counter_info_version=0x8,length=8,offset=0x10\n",
	},
	{ GT_ABI_UP_TO_7,
	  "processor_bus_utilization_gx_links_gx0_in_address_cycles",
	  "request=0x70,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0x10\n",
	},
	{ GT_ABI_UP_TO_7,
	  "processor_bus_utilization_gx_links_gx1_out_bus_cycles",
	  "request=0x70,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0xA0\n",
	},
	{ GT_ABI_UP_TO_7,
	  "processor_bus_utilization_gx_links_gx1_out_cycles_total",
	  "request=0x70,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0xA8\n",
	},
	{ GT_ABI_UP_TO_7,
	  "processor_bus_utilization_mc_links_mc0_write",
	  "request=0x80,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0x20\n",
	},
	{ GT_ABI_UP_TO_7,
	  "processor_bus_utilization_mc_links_mc1_writes",
	  "request=0x80,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0x40\n",
	},
	{ GT_ABI_UP_TO_7,
	  "processor_core_utilization_purr_cycles",
	  "request=0x94,phys_processor_idx=?,counter_info_version=0x8,length=8,offset=0x18\n",
	},
	{ GT_ABI_UP_TO_7,
	  "processor_core_utilization_instructions_completed",
	  "request=0x94,phys_processor_idx=?,counter_info_version=0x8,length=8,offset=0x28\n",
	},
	/* 0x50/0x60: the seed's layout below 3, Linux's from 3 to 7 */
	{ BIT(GT_ABI_EXT),
	  "processor_bus_utilization_abc_links_total_link_cycles",
	  "request=0x50,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0x10\n",
	},
	{ BIT(GT_ABI_LOPAR),
	  "processor_bus_utilization_abc_links_idle_cycles_for_a_link",
	  "request=0x50,hw_chip_id=?,length=8,offset=0x10\n",
	},
	{ BIT(GT_ABI_EXT),
	  "processor_bus_utilization_abc_links_idle_cycles_for_a_link",
	  "request=0x50,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0x18\n",
	},
	{ BIT(GT_ABI_LOPAR),
	  "processor_bus_utilization_abc_links_time_for_a_link",
	  "request=0x50,hw_chip_id=?,length=8,offset=0x18\n",
	},
	{ BIT(GT_ABI_LOPAR),
	  "processor_bus_utilization_abc_links_idle_cycles_for_c_link",
	  "request=0x50,hw_chip_id=?,length=8,offset=0x30\n",
	},
	{ BIT(GT_ABI_EXT),
	  "processor_bus_utilization_abc_links_idle_cycles_for_c_link",
	  "request=0x50,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0x28\n",
	},
	{ BIT(GT_ABI_LOPAR),
	  "processor_bus_utilization_abc_links_time_for_c_link",
	  "request=0x50,hw_chip_id=?,length=8,offset=0x38\n",
	},
	{ BIT(GT_ABI_EXT),
	  "processor_bus_utilization_wxyz_links_total_link_cycles",
	  "request=0x60,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0x10\n",
	},
	{ BIT(GT_ABI_LOPAR),
	  "processor_bus_utilization_wxyz_links_idle_cycles_for_w_link",
	  "request=0x60,hw_chip_id=?,length=8,offset=0x10\n",
	},
	{ BIT(GT_ABI_EXT),
	  "processor_bus_utilization_wxyz_links_idle_cycles_for_w_link",
	  "request=0x60,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0x18\n",
	},
	{ BIT(GT_ABI_LOPAR),
	  "processor_bus_utilization_wxyz_links_idle_cycles_for_z_link",
	  "request=0x60,hw_chip_id=?,length=8,offset=0x40\n",
	},
	{ BIT(GT_ABI_EXT),
	  "processor_bus_utilization_wxyz_links_idle_cycles_for_z_link",
	  "request=0x60,hw_chip_id=?,counter_info_version=0x8,length=8,offset=0x30\n",
	},
	{ BIT(GT_ABI_LOPAR),
	  "processor_bus_utilization_wxyz_links_time_for_z_link",
	  "request=0x60,hw_chip_id=?,length=8,offset=0x48\n",
	},
};

/* The contents @name shows in @class, or NULL for no such file. */
static const char *gt_abi_want(const char *name, unsigned int class)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gt_abi_events); i++)
		if ((gt_abi_events[i].classes & BIT(class)) &&
		    !strcmp(gt_abi_events[i].name, name))
			return gt_abi_events[i].str;
	return NULL;
}

/*
 * format/ and events/ as users read them, for firmware of every class and
 * at the class boundaries: the file names, their exact bytes, the number
 * of event files (Linux's 67 below 8 and 23 from 8; below 3, 7 more for
 * the seed's 0x50/0x60 layout and 2 fewer). A mismatch here breaks perf
 * command lines and scripts that read these files.
 */
static void gpci_test_sysfs_abi(struct kunit *test)
{
	static const struct { u8 version; u8 class; unsigned int nr; } fw[] = {
		{ 0, GT_ABI_LOPAR, 72 }, { 2, GT_ABI_LOPAR, 72 },
		{ 3, GT_ABI_EXT, 67 }, { 7, GT_ABI_EXT, 67 },
		{ 8, GT_ABI_DEPR, 23 }, { 9, GT_ABI_DEPR, 23 },
	};
	unsigned int v, i, n;

	for (v = 0; v < ARRAY_SIZE(fw); v++) {
		const struct attribute_group *format, *events;
		struct device *dev;

		gt_start(test, fw[v].version, HV_GPCI_PMU_CAP_GA);
		dev = hv_gpci_pmu_to_pmu(gt.g)->dev;
		format = gt_group(hv_gpci_pmu_to_pmu(gt.g), "format");
		events = gt_group(hv_gpci_pmu_to_pmu(gt.g), "events");
		KUNIT_ASSERT_NOT_NULL(test, format);
		KUNIT_ASSERT_NOT_NULL(test, events);

		KUNIT_EXPECT_EQ_MSG(test, pmu_kunit_count(dev, format),
				    (unsigned int)ARRAY_SIZE(gt_abi_format),
				    "version %u", fw[v].version);
		for (i = 0; i < ARRAY_SIZE(gt_abi_format); i++)
			KUNIT_EXPECT_STREQ_MSG(test,
					       pmu_kunit_group_file(test, dev, format,
								    gt_abi_format[i][0]),
					       gt_abi_format[i][1], "version %u: %s",
					       fw[v].version, gt_abi_format[i][0]);

		KUNIT_EXPECT_EQ_MSG(test, pmu_kunit_count(dev, events), fw[v].nr,
				    "version %u", fw[v].version);
		for (i = 0, n = 0; i < ARRAY_SIZE(gt_abi_events); i++) {
			const char *name = gt_abi_events[i].name;
			const char *want = gt_abi_want(name, fw[v].class);
			const char *got = pmu_kunit_group_file(test, dev, events,
								name);

			if (!want) {
				KUNIT_EXPECT_NULL_MSG(test, got, "version %u: %s",
						      fw[v].version, name);
				continue;
			}
			if (gt_abi_events[i].classes & BIT(fw[v].class))
				n++;
			KUNIT_EXPECT_NOT_NULL_MSG(test, got, "version %u: %s",
						  fw[v].version, name);
			if (got)
				KUNIT_EXPECT_STREQ_MSG(test, got, want,
						       "version %u: %s",
						       fw[v].version, name);
		}
		/* from 8 on, every file events/ shows is in the table */
		if (fw[v].class == GT_ABI_DEPR)
			KUNIT_EXPECT_EQ(test, n, fw[v].nr);
	}
}

/*
 * The self-check of the format and event tables that the probe made
 * before they were static: names perf can parse, one run of bits per
 * field, aliases with exactly starting_index's bits, unique event names,
 * terms that name fields, each once, with values that fit. One name has
 * two events (0x50/0x60, per layout) of which .is_visible shows one, so
 * the events are checked as each firmware class shows them. Every event
 * is also within the ranges of event_init.
 */
static void gpci_test_tables(struct kunit *test)
{
	static const u8 versions[] = { 0, 3, 8 };
	unsigned int v, i, nr;

	for (v = 0; v < ARRAY_SIZE(versions); v++) {
		const struct attribute_group *format;
		struct attribute **shown;
		struct pmu *pmu;

		gt_start(test, versions[v], HV_GPCI_PMU_CAP_GA);
		pmu = hv_gpci_pmu_to_pmu(gt.g);
		format = gt_group(pmu, "format");
		KUNIT_ASSERT_NOT_NULL(test, format);
		nr = gt_nr_events(test, pmu);
		shown = kunit_kcalloc(test, nr + 1, sizeof(*shown), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, shown);
		for (i = 0; i < nr; i++) {
			struct perf_event_attr attr;

			shown[i] = gt_event_attr(test, i);
			KUNIT_ASSERT_NOT_NULL(test, shown[i]);
			gt_parse(test, gt_our_event(test, shown[i]->name), 0,
				 &attr);
			KUNIT_EXPECT_EQ_MSG(test,
					    hv_gpci_pmu_attr_check(gt.g, &attr),
					    0, "version %u: %s", versions[v],
					    shown[i]->name);
		}
		KUNIT_EXPECT_NULL(test, gt_event_attr(test, nr));
		pmu_kunit_check_tables(test, format->attrs, shown);
	}
}

/* ---- driver: parity with Linux's named events ---- */

struct gt_version_param {
	u8 version;
	u8 version_in;
	const char *desc;
};

static const struct gt_version_param gt_versions[] = {
	{ 0, HV_GPCI_PMU_M_HONOUR_VERSION_IN, "v0 LoPAR" },
	{ 3, HV_GPCI_PMU_M_HONOUR_VERSION_IN, "v3" },
	{ 5, HV_GPCI_PMU_M_HONOUR_VERSION_IN, "v5" },
	{ 6, HV_GPCI_PMU_M_HONOUR_VERSION_IN, "v6 honours version_in" },
	{ 6, HV_GPCI_PMU_M_IGNORE_VERSION_IN, "v6 ignores version_in" },
	{ 8, HV_GPCI_PMU_M_HONOUR_VERSION_IN, "v8 honours version_in" },
	{ 8, HV_GPCI_PMU_M_IGNORE_VERSION_IN, "v8 ignores version_in" },
	{ 9, HV_GPCI_PMU_M_HONOUR_VERSION_IN, "v9 honours version_in" },
	{ 9, HV_GPCI_PMU_M_IGNORE_VERSION_IN, "v9 ignores version_in" },
};

static void gt_version_desc(const struct gt_version_param *p, char *desc)
{
	strscpy(desc, p->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gt_version, gt_versions, gt_version_desc);

static void gt_start_param(struct kunit *test)
{
	const struct gt_version_param *p = test->param_value;

	gt_remove();
	hv_gpci_model_init(gt.m, p->version);
	gt.m->version_in = p->version_in;
	gt_probe_model(test);
}

/*
 * Below counter_info_version 3 the 0x50/0x60 events follow the seed (an
 * idle and a time value per link), not Linux: these are the only events
 * allowed to differ there, with the seed's offsets, and the time_for_*
 * ones are the only additions.
 */
static const struct {
	const char *name;
	u32 seed_offset;	/* 0: absent in the LoPAR layout */
} gt_lopar_events[] = {
	{ "processor_bus_utilization_abc_links_total_link_cycles", 0 },
	{ "processor_bus_utilization_abc_links_idle_cycles_for_a_link", 0x10 },
	{ "processor_bus_utilization_abc_links_time_for_a_link", 0x18 },
	{ "processor_bus_utilization_abc_links_idle_cycles_for_b_link", 0x20 },
	{ "processor_bus_utilization_abc_links_time_for_b_link", 0x28 },
	{ "processor_bus_utilization_abc_links_idle_cycles_for_c_link", 0x30 },
	{ "processor_bus_utilization_abc_links_time_for_c_link", 0x38 },
	{ "processor_bus_utilization_wxyz_links_total_link_cycles", 0 },
	{ "processor_bus_utilization_wxyz_links_idle_cycles_for_w_link", 0x10 },
	{ "processor_bus_utilization_wxyz_links_time_for_w_link", 0x18 },
	{ "processor_bus_utilization_wxyz_links_idle_cycles_for_x_link", 0x20 },
	{ "processor_bus_utilization_wxyz_links_time_for_x_link", 0x28 },
	{ "processor_bus_utilization_wxyz_links_idle_cycles_for_y_link", 0x30 },
	{ "processor_bus_utilization_wxyz_links_time_for_y_link", 0x38 },
	{ "processor_bus_utilization_wxyz_links_idle_cycles_for_z_link", 0x40 },
	{ "processor_bus_utilization_wxyz_links_time_for_z_link", 0x48 },
};

static int gt_lopar_event(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gt_lopar_events); i++)
		if (!strcmp(gt_lopar_events[i].name, name))
			return i;
	return -1;
}

static const char *const gt_terms[] = {
	"request", "starting_index", "phys_processor_idx", "sibling_part_id",
	"hw_chip_id", "partition_id", "secondary_index",
	"counter_info_version", "length", "offset",
};

/*
 * For each firmware version: events/ holds every event Linux's generator
 * (the tree's hv-gpci.h and hv-gpci-requests.h) shows for that version,
 * with the same name and the same value for every term (request, index
 * term and its value or "?", counter_info_version, length, offset), and
 * nothing else; below version 3 the seed's 0x50/0x60 layout instead.
 */
static void gpci_test_parity(struct kunit *test)
{
	const struct gt_version_param *p = test->param_value;
	struct attribute **lx = p->version >= 8 ? hv_gpci_event_attrs :
				hv_gpci_event_attrs_v6;
	unsigned int i, t, n_lx = 0, found = 0, lopar = 0, nr;
	const char *name;

	gt_start_param(test);
	nr = gt_nr_events(test, hv_gpci_pmu_to_pmu(gt.g));
	for (i = 0; lx[i]; i++, n_lx++) {
		struct perf_pmu_events_attr *la =
			container_of(lx[i], struct perf_pmu_events_attr,
				     attr.attr);
		const char *name = lx[i]->name;
		const char *e = gt_our_event(test, name);
		int lp = gt_lopar_event(name);

		if (p->version < HV_GPCI_PMU_VERSION_EXTENDED && lp >= 0) {
			bool there;

			lopar++;
			if (!gt_lopar_events[lp].seed_offset) {
				KUNIT_EXPECT_NULL_MSG(test, e, "%s", name);
				continue;
			}
			KUNIT_ASSERT_NOT_NULL_MSG(test, e, "%s", name);
			KUNIT_EXPECT_EQ_MSG(test, gt_term(e, "offset", &there),
					    (u64)gt_lopar_events[lp].seed_offset,
					    "%s", name);
			found++;
			continue;
		}
		KUNIT_EXPECT_NOT_NULL_MSG(test, e, "%s missing on version %u",
					  name, p->version);
		if (!e)
			continue;
		found++;
		for (t = 0; t < ARRAY_SIZE(gt_terms); t++) {
			bool in_lx, in_ours;
			u64 v_lx = gt_term(la->event_str, gt_terms[t], &in_lx);
			u64 v_ours = gt_term(e, gt_terms[t], &in_ours);

			KUNIT_EXPECT_EQ_MSG(test, in_ours, in_lx, "%s: %s",
					    name, gt_terms[t]);
			KUNIT_EXPECT_EQ_MSG(test, v_ours, v_lx,
					    "%s: %s (Linux: %s, ours: %s)",
					    name, gt_terms[t], la->event_str, e);
		}
	}
	KUNIT_EXPECT_EQ(test, n_lx, p->version >= 8 ? 23U : 67U);
	if (p->version >= HV_GPCI_PMU_VERSION_EXTENDED) {
		KUNIT_EXPECT_EQ(test, nr, n_lx);
		KUNIT_EXPECT_EQ(test, found, n_lx);
	} else {
		/* 9 of Linux's are the seed's, plus its 7 time_for_* events */
		KUNIT_EXPECT_EQ(test, lopar, 9U);
		KUNIT_EXPECT_EQ(test, nr, found + 7);
		for (i = 0; (name = gt_event_name(test, i)); i++)
			if (strstr(name, "_time_for_"))
				KUNIT_EXPECT_GE(test, gt_lopar_event(name), 0);
	}
	/* Linux's capability bits and current version (hv-gpci.h) */
	KUNIT_EXPECT_EQ(test, HV_GPCI_PMU_CAP_GA, HV_GPCI_CM_GA);
	KUNIT_EXPECT_EQ(test, HV_GPCI_PMU_CAP_EXPANDED, HV_GPCI_CM_EXPANDED);
	KUNIT_EXPECT_EQ(test, HV_GPCI_PMU_CAP_LAB, HV_GPCI_CM_LAB);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "kernel_version"),
			   __stringify(COUNTER_INFO_VERSION_CURRENT) "\n");
}

/* ---- driver: every named event counts exactly ---- */

/*
 * Where each counter is, per request: offset in the extended layout and
 * in the LoPAR one (seed: 0x10-0x60; Linux's hv-gpci-requests.h: others).
 */
#define NA 0xffff
static const struct {
	u32 req;
	u16 ext;
	u16 lopar;
	enum hv_gpci_model_ctr ctr;
} gt_layout[] = {
	{ 0x10, 0x00, 0x00, HV_GPCI_PMU_M_PROC_TIME },
	{ 0x20, 0x08, 0x08, HV_GPCI_PMU_M_ENTITLED },
	{ 0x20, 0x10, 0x10, HV_GPCI_PMU_M_CAPPED },
	{ 0x20, 0x18, 0x18, HV_GPCI_PMU_M_UNCAPPED },
	{ 0x20, 0x20, 0x20, HV_GPCI_PMU_M_DONATED },
	{ 0x20, 0x28, 0x28, HV_GPCI_PMU_M_IDLE },
	{ 0x30, 0x08, 0x08, HV_GPCI_PMU_M_RUN_INSTR },
	{ 0x30, 0x10, 0x10, HV_GPCI_PMU_M_RUN_CYCLES },
	{ 0x50, 0x10, NA, HV_GPCI_PMU_M_TOTAL_ABC },
	{ 0x50, 0x18, 0x10, HV_GPCI_PMU_M_IDLE_A },
	{ 0x50, NA, 0x18, HV_GPCI_PMU_M_TIME_A },
	{ 0x50, 0x20, 0x20, HV_GPCI_PMU_M_IDLE_B },
	{ 0x50, NA, 0x28, HV_GPCI_PMU_M_TIME_B },
	{ 0x50, 0x28, 0x30, HV_GPCI_PMU_M_IDLE_C },
	{ 0x50, NA, 0x38, HV_GPCI_PMU_M_TIME_C },
	{ 0x60, 0x10, NA, HV_GPCI_PMU_M_TOTAL_WXYZ },
	{ 0x60, 0x18, 0x10, HV_GPCI_PMU_M_IDLE_W },
	{ 0x60, NA, 0x18, HV_GPCI_PMU_M_TIME_W },
	{ 0x60, 0x20, 0x20, HV_GPCI_PMU_M_IDLE_X },
	{ 0x60, NA, 0x28, HV_GPCI_PMU_M_TIME_X },
	{ 0x60, 0x28, 0x30, HV_GPCI_PMU_M_IDLE_Y },
	{ 0x60, NA, 0x38, HV_GPCI_PMU_M_TIME_Y },
	{ 0x60, 0x30, 0x40, HV_GPCI_PMU_M_IDLE_Z },
	{ 0x60, NA, 0x48, HV_GPCI_PMU_M_TIME_Z },
	{ 0x94, 0x08, NA, HV_GPCI_PMU_M_CORE_ANY_THREAD },
	{ 0x94, 0x10, NA, HV_GPCI_PMU_M_CORE_TIMEBASE },
	{ 0x94, 0x18, NA, HV_GPCI_PMU_M_CORE_PURR },
	{ 0x94, 0x20, NA, HV_GPCI_PMU_M_CORE_SUM_THREADS },
	{ 0x94, 0x28, NA, HV_GPCI_PMU_M_CORE_INSTR },
	{ 0xE0, 0x08, NA, HV_GPCI_PMU_M_Q_WAIT_ENT_TIME },
	{ 0xE0, 0x10, NA, HV_GPCI_PMU_M_Q_WAIT_ENT_TIMES },
	{ 0xE0, 0x18, NA, HV_GPCI_PMU_M_Q_WAIT_PROC_TIME },
	{ 0xE0, 0x20, NA, HV_GPCI_PMU_M_Q_WAIT_PROC_TIMES },
	{ 0xE0, 0x28, NA, HV_GPCI_PMU_M_Q_HOME_CORE },
	{ 0xE0, 0x30, NA, HV_GPCI_PMU_M_Q_HOME_PRIMARY },
	{ 0xE0, 0x38, NA, HV_GPCI_PMU_M_Q_HOME_SECONDARY },
	{ 0xE0, 0x40, NA, HV_GPCI_PMU_M_Q_OFF_SECONDARY },
	{ 0xE0, 0x48, NA, HV_GPCI_PMU_M_Q_DEDICATED_DONATING },
	{ 0xF0, 0x00, NA, HV_GPCI_PMU_M_SYS_DISPATCH },
	{ 0xF0, 0x08, NA, HV_GPCI_PMU_M_SYS_VP_TIMERS },
	{ 0xF0, 0x10, NA, HV_GPCI_PMU_M_SYS_OVER_ENT },
	{ 0xF0, 0x18, NA, HV_GPCI_PMU_M_SYS_MANAGEMENT },
	{ 0xF4, 0x00, NA, HV_GPCI_PMU_M_TLBIE_COUNT },
	{ 0xF4, 0x08, NA, HV_GPCI_PMU_M_TLBIE_TIME },
	{ 0x100, 0x08, NA, HV_GPCI_PMU_M_PI_INSTR },
	{ 0x100, 0x10, NA, HV_GPCI_PMU_M_PI_TIME },
};

static int gt_layout_ctr(u32 req, u32 off, bool ext)
{
	unsigned int i;

	/* 0x70, 0x80: 8-byte counters from 0x10, in the model's order */
	if (req == 0x70 && ext && off >= 0x10 && off <= 0xA8 && !(off & 7))
		return HV_GPCI_PMU_M_GX_FIRST + (off - 0x10) / 8;
	if (req == 0x80 && ext && off >= 0x10 && off <= 0x48 && !(off & 7))
		return HV_GPCI_PMU_M_MC_FIRST + (off - 0x10) / 8;
	for (i = 0; i < ARRAY_SIZE(gt_layout); i++)
		if (gt_layout[i].req == req &&
		    (ext ? gt_layout[i].ext : gt_layout[i].lopar) == off)
			return gt_layout[i].ctr;
	return -1;
}

/* The entity an event of counter @c is opened on: one past a gap. */
static u32 gt_entity(enum hv_gpci_model_ctr c)
{
	switch (hv_gpci_model_ctr_kind(c)) {
	case HV_GPCI_PMU_K_PROC:
		return 5;
	case HV_GPCI_PMU_K_PART:
		return 7;
	case HV_GPCI_PMU_K_CHIP:
		return 8;
	default:
		return 0;
	}
}

/* Give every counter of every entity a distinct value, moved by @step. */
static void gt_fill(u64 base, u64 step)
{
	unsigned int c;

	for (c = 0; c < HV_GPCI_PMU_M_NR; c++)
		hv_gpci_model_set(gt.m, c, gt_entity(c),
				  base + c * 1000003ULL + (c + 1) * step);
}

/* Requests the model has from version 3 (0xF4: 6) on; see the model. */
static bool gt_available(u32 req, u8 version)
{
	switch (req) {
	case 0x10: case 0x20: case 0x30: case 0x50: case 0x60:
		return true;
	case 0xF4:
		return version >= 6;
	default:
		return version >= 3;
	}
}

static void gpci_test_named(struct kunit *test)
{
	const struct gt_version_param *p = test->param_value;
	bool ext = p->version >= HV_GPCI_PMU_VERSION_EXTENDED;
	unsigned int i, opened = 0, nr;
	const char *name;

	gt_start_param(test);
	nr = gt_nr_events(test, hv_gpci_pmu_to_pmu(gt.g));
	KUNIT_EXPECT_GT(test, nr, 0U);
	for (i = 0; (name = gt_event_name(test, i)); i++) {
		const char *terms = gt_our_event(test, name);
		struct perf_event_attr attr;
		struct perf_event *ev;
		unsigned long calls;
		u64 step = 7919 * (i + 1);
		bool there;
		u32 req = gt_term(terms, "request", &there);
		u32 off = gt_term(terms, "offset", &there);
		int c;

		if (!gt_available(req, p->version)) {
			/* the firmware lacks it: "<not supported>" in perf */
			gt_parse(test, terms, 0, &attr);
			ev = gt_open(&attr);
			KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(ev),
					    -EOPNOTSUPP, "%s", name);
			if (!IS_ERR(ev))
				gt_close(ev);
			continue;
		}
		c = gt_layout_ctr(req, off, ext);
		KUNIT_ASSERT_GE_MSG(test, c, 0, "%s: no counter at 0x%x of 0x%x",
				    name, off, req);
		gt_parse(test, terms, gt_entity(c), &attr);
		gt_fill(1ULL << 40, 0);
		ev = gt_open(&attr);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(ev), "%s: %pe", name, ev);
		opened++;
		/* every counter moves differently: a wrong offset shows */
		gt_fill(1ULL << 40, step);
		calls = hv_gpci_model_calls(gt.m);
		KUNIT_EXPECT_EQ_MSG(test, gt_read(ev), (c + 1) * step, "%s", name);
		KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(gt.m), calls + 1);
		/* the version its layout was written for, as Linux's */
		if (ext)
			KUNIT_EXPECT_EQ_MSG(test, gt.m->last_version_in,
					    strstr(terms, "counter_info_version=0x8") ?
					    8 : 0, "%s", name);
		gt_close(ev);
	}
	kunit_info(test, "%u of %u named events counted\n", opened, nr);
	KUNIT_EXPECT_EQ(test, gt.m->misaligned, 0UL);
	KUNIT_EXPECT_EQ(test, gt.m->unknown_req, 0UL);
}

/* ---- driver: errors ---- */

/* What perf_event_open() returns for each hcall result (Linux's errnos) */
static const struct {
	long rc;
	int err;
} gt_init_rcs[] = {
	{ HV_GPCI_H_PRIVILEGE, -EINVAL },
	{ HV_GPCI_H_PARAMETER, -EINVAL },
	{ HV_GPCI_H_NOT_AVAILABLE, -EOPNOTSUPP },
	{ HV_GPCI_H_AUTHORITY, -EPERM },
	{ HV_GPCI_H_FUNCTION, -EINVAL },
	{ HV_GPCI_H_HARDWARE, -EINVAL },
	{ -9999, -EINVAL },
};

/* And what the probe returns (no PMU), per result of request 0x40 */
static const struct {
	long rc;
	int err;
} gt_probe_rcs[] = {
	{ HV_GPCI_H_PRIVILEGE, -EIO },
	{ HV_GPCI_H_PARAMETER, -EINVAL },
	{ HV_GPCI_H_NOT_AVAILABLE, -EOPNOTSUPP },
	{ HV_GPCI_H_AUTHORITY, -EPERM },
	{ HV_GPCI_H_FUNCTION, -ENODEV },
	{ HV_GPCI_H_HARDWARE, -EIO },
	{ -9999, -EIO },
};

static void gpci_test_errors_probe(struct kunit *test)
{
	struct hv_gpci_pmu *g;
	unsigned int i;

	gt_remove();
	for (i = 0; i < ARRAY_SIZE(gt_probe_rcs); i++) {
		hv_gpci_model_inject(gt.m, 0, 1, gt_probe_rcs[i].rc, 0);
		g = gt_probe();
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(g), gt_probe_rcs[i].err);
		if (!IS_ERR(g))
			hv_gpci_pmu_remove(g);
	}
	/* QEMU pseries: no GPCI at all */
	gt.m->implemented = false;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_probe()), -ENODEV);
	/* nothing was left registered under the name */
	gt.m->implemented = true;
	g = gt_probe();
	KUNIT_ASSERT_FALSE(test, IS_ERR(g));
	gt.g = g;
}

/*
 * perf stat shows "<not supported>" and goes on for EINVAL, EOPNOTSUPP,
 * ENOENT, ENOSYS, ENXIO; anything else but EPERM/EACCES aborts the run.
 */
static void gpci_test_errno(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int i;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(gt_init_rcs); i++) {
		gt_raw(&attr, 0x20, 7, 0, 0, 8, 0x8);
		hv_gpci_model_inject(gt.m, 0, 1, gt_init_rcs[i].rc, 0);
		ev = gt_open(&attr);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(ev), gt_init_rcs[i].err,
				    "rc %ld", gt_init_rcs[i].rc);
		if (!IS_ERR(ev))
			gt_close(ev);
	}
	/* an absent index (IBM's test suite uses hw_chip_id=12) */
	gt_raw(&attr, 0x50, 12, 0, 8, 8, 0x18);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	/* processor 4 does not exist: the model answers with processor 5 */
	gt_raw(&attr, 0x10, 4, 0, 8, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	/* nothing at or after 100: zero elements */
	gt_raw(&attr, 0x10, 100, 0, 8, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	/* past the data of the reply (partition 7 is the last) */
	gt_raw(&attr, 0x20, 7, 0, 8, 8, 0x30);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	/* sampling, exclude bits, per task: as the core / Linux */
	gt_raw(&attr, 0x20, 7, 0, 8, 8, 0x8);
	attr.sample_period = 1000;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EOPNOTSUPP);
	gt_raw(&attr, 0x20, 7, 0, 8, 8, 0x8);
	attr.exclude_guest = 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	gt_raw(&attr, 0x20, 7, 0, 8, 8, 0x8);
	attr.config2 = 1;
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
}

/* A failed read, enable or disable keeps the count continuous. */
static void gpci_test_errors_read(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int i, errs = 0;
	char want[16];

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(gt_init_rcs); i++) {
		u64 v = 1000;

		hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, v);
		gt_raw(&attr, 0x10, 5, 0, 0, 8, 0);
		ev = gt_open(&attr);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
		hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, v + 500);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 500ULL);

		/* read fails: the previous value, no zero-then-jump */
		hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, v + 800);
		hv_gpci_model_inject(gt.m, 0, 1, gt_init_rcs[i].rc, 0);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 500ULL);
		hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, v + 900);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 900ULL);

		/* disable fails to read: the count stays, later reads agree */
		hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, v + 950);
		hv_gpci_model_inject(gt.m, 0, 1, gt_init_rcs[i].rc, 0);
		perf_event_disable(ev);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 900ULL);

		/* enable fails to read: counting starts at the next good read */
		hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, v + 2000);
		hv_gpci_model_inject(gt.m, 0, 1, gt_init_rcs[i].rc, 0);
		perf_event_enable(ev);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 900ULL);
		hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, v + 2100);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 1000ULL);

		/* a good disable/enable cycle excludes the disabled time */
		perf_event_disable(ev);
		hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, v + 5000);
		perf_event_enable(ev);
		hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, v + 5001);
		KUNIT_EXPECT_EQ(test, gt_read(ev), 1001ULL);
		gt_close(ev);
		errs += 3;
	}
	/* counted, and shown */
	snprintf(want, sizeof(want), "%u\n", errs);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "read_errors"),
			   want);
}

/* The reply is checked before any byte of it is used. */
static void gpci_test_robust(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	/* a 4-byte value, offset 0xc of the low half: wraps at 32 bits */
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_ENTITLED, 7, 0xfffffff0);
	gt_raw(&attr, 0x20, 7, 0, 0, 4, 0xc);
	ev = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_ENTITLED, 7, 0x100000010ULL);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x20ULL);

	/* wrong index echoed, short element, changed layout: value kept */
	gt.m->bad_index = 1;
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_ENTITLED, 7, 0x100000030ULL);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x20ULL);
	gt.m->bad_index = 0;
	gt.m->bad_elem_size = 0xc;
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x20ULL);
	gt.m->bad_elem_size = 0;
	gt.m->version = 0;
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x20ULL);
	gt.m->version = 6;
	KUNIT_EXPECT_EQ(test, gt_read(ev), 0x40ULL);
	gt_close(ev);

	/* the reply's cv_element_size bounds offsets at event_init */
	gt.m->bad_elem_size = 0x20;
	gt_raw(&attr, 0x20, 7, 0, 8, 8, 0x20);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	gt_raw(&attr, 0x20, 7, 0, 8, 8, 0x18);
	KUNIT_EXPECT_FALSE(test, IS_ERR(gt_open(&attr)));
	gt.m->bad_elem_size = 0;
	/* 0x30 is deprecated from version 8: the firmware says so */
	gt_start(test, 8, HV_GPCI_PMU_CAP_GA);
	gt_raw(&attr, 0x30, 7, 0, 0, 8, 0x8);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EOPNOTSUPP);
}

/* Raw requests and fields Linux passes to the hypervisor. */
static void gpci_test_raw(struct kunit *test)
{
	static const struct { u32 req; u32 idx; u32 off; u8 len; } ok[] = {
		{ 0x40, 0xffffffff, 0, 1 },	/* collect_privileged */
		{ 0x90, 0, 0x1c, 4 },
		{ 0x91, 5, 4, 4 },
		{ 0x94, 5, 0x28, 8 },
		{ 0x95, 0, 4, 1 },
		{ 0xA0, 3, 0, 2 },
		{ 0xB0, 1, 7, 1 },
		{ 0xB1, 0xffffffff, 0xb, 1 },	/* lparcfg's affinity score */
		{ 0xC0, 0xffffffff, 0, 8 },
		{ 0xD0, 8, 4, 4 },
	};
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int i;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		gt_raw(&attr, ok[i].req, ok[i].idx, 0, 0, ok[i].len, ok[i].off);
		ev = gt_open(&attr);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(ev), 0,
				    "request 0x%x", ok[i].req);
		if (!IS_ERR(ev)) {
			KUNIT_EXPECT_EQ(test, gt_read(ev), 0ULL);
			gt_close(ev);
		}
	}
	/* a secondary index on the seed's requests goes to the firmware */
	gt_raw(&attr, 0x20, 7, 1, 8, 8, 0x8);
	ev = gt_open(&attr);
	KUNIT_EXPECT_FALSE(test, IS_ERR(ev));

	/* offsets past the first element: the next processor's data */
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 6, 100);
	gt_raw(&attr, 0x10, 5, 0, 8, 8, 0x30);
	ev = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 6, 175);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 75ULL);
	/* ... and the hcall asks for two elements: 32 + 2 x 0x30 bytes */
	KUNIT_EXPECT_EQ(test, gt.m->last_size, 32UL + 0x60);
	gt_close(ev);
	/* Linux's limit: offset + length within 4064 bytes */
	gt_raw(&attr, 0x10, 0, 0, 8, 8, 4064 - 8);
	KUNIT_EXPECT_EQ(test, hv_gpci_pmu_attr_check(gt.g, &attr), 0);
	gt_raw(&attr, 0x10, 0, 0, 8, 8, 4064 - 7);
	KUNIT_EXPECT_EQ(test, hv_gpci_pmu_attr_check(gt.g, &attr), -EINVAL);
	/* an unknown request: the firmware says no (H_PARAMETER) */
	gt_raw(&attr, 0x12, 0, 0, 8, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	KUNIT_EXPECT_EQ(test, gt.m->unknown_req, 1UL);
}

/*
 * The ranges of event_init, before any hcall: every bit of config2 (no
 * field there), length 1 to 8, offset and offset + length within the
 * 4064 bytes of counter_value; all -EINVAL, as Linux, also for lab-range
 * requests, which are refused for their range before their request.
 */
static void gpci_test_config_ranges(struct kunit *test)
{
	static const struct {
		u32 req;
		u8 len;
		u32 off;
		int err;
	} cases[] = {
		{ 0x10, 1, 0, 0 },
		{ 0x10, 8, 0, 0 },
		{ 0x10, 0, 0, -EINVAL },
		{ 0x10, 9, 0, -EINVAL },
		{ 0x10, 255, 0, -EINVAL },
		{ 0x10, 1, 4063, 0 },
		{ 0x10, 1, 4064, -EINVAL },
		{ 0x10, 8, 4057, -EINVAL },
		{ 0x10, 8, 0xffffffff, -EINVAL },
		{ 0x80002000, 8, 0, -EOPNOTSUPP },	/* no lab capability */
		{ 0x80002000, 0, 0, -EINVAL },
		{ 0x80002000, 8, 4064, -EINVAL },
		{ 0x80001000, 8, 0, -EINVAL },		/* Set MMCRH: never */
	};
	struct perf_event_attr attr;
	unsigned long calls;
	unsigned int i;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		gt_raw(&attr, cases[i].req, 5, 0, 8, cases[i].len, cases[i].off);
		KUNIT_EXPECT_EQ_MSG(test, hv_gpci_pmu_attr_check(gt.g, &attr),
				    cases[i].err, "request 0x%x length %u offset %u",
				    cases[i].req, cases[i].len, cases[i].off);
	}
	for (i = 0; i < 64; i++) {
		gt_raw(&attr, 0x10, 5, 0, 8, 8, 0);
		attr.config2 = BIT_ULL(i);
		KUNIT_EXPECT_EQ_MSG(test, hv_gpci_pmu_attr_check(gt.g, &attr),
				    -EINVAL, "config2 bit %u", i);
	}
	/* through perf_event_open(): refused before the hypervisor is asked */
	calls = hv_gpci_model_calls(gt.m);
	gt_raw(&attr, 0x10, 5, 0, 8, 0, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	gt_raw(&attr, 0x10, 5, 0, 8, 9, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(gt.m), calls);
}

/* More processors than fit in 4 KiB: H_Parameter/0x1B still has ours. */
static void gpci_test_big_table(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;
	unsigned int i;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	for (i = 0; i < HV_GPCI_PMU_MODEL_MAX_ENTITIES; i++)
		gt.m->ent[HV_GPCI_PMU_K_PROC][i].id = i;
	gt.m->nr[HV_GPCI_PMU_K_PROC] = HV_GPCI_PMU_MODEL_MAX_ENTITIES;
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 0, 1);
	gt_raw(&attr, 0x10, 0, 0, 0, 8, 0);
	ev = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	KUNIT_EXPECT_EQ(test, gt.m->last_rc, (long)HV_GPCI_H_PARAMETER);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 0, 4);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 3ULL);
	/* the read asked for one element only */
	KUNIT_EXPECT_EQ(test, gt.m->last_size, 32UL + 0x30);
	gt_close(ev);
}

static void gpci_test_authority(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	gt.m->authorised = false;
	gt_raw(&attr, 0x10, 5, 0, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EPERM);
	gt_raw(&attr, 0x20, 2, 0, 0, 8, 0x8);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EPERM);
	/* our own partition needs no permission */
	gt_raw(&attr, 0x20, 3, 0, 0, 8, 0x8);
	ev = gt_open(&attr);
	KUNIT_EXPECT_FALSE(test, IS_ERR(ev));
	gt_close_all();

	/* 0x10 refused at probe: the version of 0x40 picks the events */
	gt.m->authorised = false;
	gt_probe_model(test);
	KUNIT_EXPECT_EQ(test, gt_nr_events(test, hv_gpci_pmu_to_pmu(gt.g)), 67U);
}

static void gpci_test_lab(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	gt_raw(&attr, HV_GPCI_PMU_REQ_HPMCX, 5, 0, 0, 8, 0x18);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, hv_gpci_pmu_lab_enable(gt.g, true), -EOPNOTSUPP);

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA | HV_GPCI_PMU_CAP_LAB);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "lab"), "1\n");
	gt_raw(&attr, HV_GPCI_PMU_REQ_HPMCX, 5, 0, 0, 8, 0x18);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EPERM);
	KUNIT_EXPECT_EQ(test, hv_gpci_pmu_lab_enable(gt.g, true), 0);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_HPMC1, 5, 70);
	ev = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_HPMC1, 5, 95);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 25ULL);
	gt_close(ev);
	/* the seed's element is 0x48 bytes: current HPMC4 is the last */
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_HPMC4_NOW, 7, 1);
	gt_raw(&attr, HV_GPCI_PMU_REQ_HPMCX, 7, 0, 0, 8, 0x40);
	ev = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev));
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_HPMC4_NOW, 7, 11);
	KUNIT_EXPECT_EQ(test, gt_read(ev), 10ULL);
	gt_close(ev);
	gt_raw(&attr, HV_GPCI_PMU_REQ_HPMCX, 7, 0, 0, 8, 0x48);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	/* Set MMCRH writes hypervisor state: never, even with lab enabled */
	gt_raw(&attr, HV_GPCI_PMU_REQ_SET_MMCRH, 0, 0, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	gt_raw(&attr, 0x80003000, 0, 0, 0, 8, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EINVAL);
	KUNIT_EXPECT_EQ(test, gt.m->set_mmcrh, 0UL);
	KUNIT_EXPECT_EQ(test, hv_gpci_pmu_lab_enable(gt.g, false), 0);
	gt_raw(&attr, HV_GPCI_PMU_REQ_HPMCX, 5, 0, 0, 8, 0x18);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(gt_open(&attr)), -EPERM);
}

/* ---- driver: the CPU perf asks for ---- */

static void gpci_test_cpu(struct kunit *test)
{
	struct perf_event_attr attr;
	struct perf_event *ev0, *ev1;

	if (!cpu_online(1))
		kunit_skip(test, "needs CPU 1");
	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	/* CPU 0 runs on processor 1 (chip 0), CPU 1 on processor 5 (chip 1) */
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 1, 1000);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, 5000);
	gt_raw(&attr, 0x10, 0xffffffff, 0, 8, 8, 0);
	ev0 = gt_open_cpu(&attr, 0);
	ev1 = gt_open_cpu(&attr, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev0));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev1));
	/* no rebinding to the designated CPU: -C 1 means CPU 1 */
	KUNIT_EXPECT_EQ(test, ev0->cpu, 0);
	KUNIT_EXPECT_EQ(test, ev1->cpu, 1);
	KUNIT_EXPECT_EQ(test, gt.m->last_cpu, 1U);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 1, 1010);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 5, 5500);
	KUNIT_EXPECT_EQ(test, gt_read(ev0), 10ULL);
	KUNIT_EXPECT_EQ(test, gt_read(ev1), 500ULL);
	KUNIT_EXPECT_EQ(test, gt.m->last_cpu, 1U);
	gt_close_all();

	/* chips: -1 is the chip of the CPU's processor */
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_IDLE_A, 0, 10);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_IDLE_A, 1, 20);
	gt_raw(&attr, 0x50, 0xffffffff, 0, 8, 8, 0x18);
	ev0 = gt_open_cpu(&attr, 0);
	ev1 = gt_open_cpu(&attr, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev0));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev1));
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_IDLE_A, 0, 13);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_IDLE_A, 1, 27);
	KUNIT_EXPECT_EQ(test, gt_read(ev0), 3ULL);
	KUNIT_EXPECT_EQ(test, gt_read(ev1), 7ULL);
	/* the cpumask still names one CPU for perf -a */
	KUNIT_EXPECT_STREQ(test, gt_show(test, NULL, "cpumask"), "0\n");
}

/* ---- driver: one snapshot per group operation ---- */

/*
 * Through the real perf core: installing or enabling a CPU event
 * reschedules every flexible event of the CPU (ctx_resched(): between
 * pmu_disable() and pmu_enable(), each stopped and started again). The
 * model's counters move by @tick on every hcall, so a count that lost the
 * hcalls between a stop and its restart is visible.
 */
static void gpci_test_resched(struct kunit *test)
{
	struct perf_event *ev[5];
	struct perf_event_attr attr;
	unsigned long calls;
	unsigned int i;

	gt_start(test, 8, HV_GPCI_PMU_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		gt_raw(&attr, 0x20, 3, 0, 8, 8, 0x8 + 8 * i);
		calls = hv_gpci_model_calls(gt.m);
		ev[i] = gt_open(&attr);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev[i]));
		/* event_init, then one for all the stops and starts */
		KUNIT_EXPECT_EQ_MSG(test, hv_gpci_model_calls(gt.m),
				    calls + 2, "opening event %u", i);
	}

	gt.m->tick = 1000;
	calls = hv_gpci_model_calls(gt.m);
	perf_event_disable(ev[0]);	/* group_sched_out(): one stop */
	perf_event_enable(ev[0]);	/* ctx_resched(): 4 stops, 5 starts */
	KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(gt.m), calls + 2);
	/* the other four never stopped counting: not a tick lost */
	for (i = 1; i < ARRAY_SIZE(ev); i++)
		KUNIT_EXPECT_EQ_MSG(test, gt_read(ev[i]), 2000ULL + 1000 * i,
				    "event %u", i);
	/* ev[0] missed the tick between its stop and its start */
	KUNIT_EXPECT_EQ(test, gt_read(ev[0]), 1000ULL + 5000);
	gt.m->tick = 0;
}

struct gt_txn {
	struct pmu *pmu;
	struct perf_event **ev;
	unsigned int n;
	unsigned int op;
};

#define GT_READ		0	/* __perf_event_read() of a group */
#define GT_ADD		1	/* group_sched_in() */
#define GT_DEL		2	/* group_sched_out() */
#define GT_ROTATE	3	/* group_sched_out(), group_sched_in() */
#define GT_CANCEL	4	/* group_sched_in() failing */

/* perf core's sequences of pmu callbacks, on the events' CPU (replay) */
static void gt_txn_fn(void *info)
{
	struct gt_txn *t = info;
	struct pmu *pmu = t->pmu;
	unsigned int i;

	switch (t->op) {
	case GT_READ:
		pmu->start_txn(pmu, PERF_PMU_TXN_READ);
		for (i = 0; i < t->n; i++)
			pmu->read(t->ev[i]);
		pmu->commit_txn(pmu);
		break;
	case GT_ADD:
		pmu->start_txn(pmu, PERF_PMU_TXN_ADD);
		for (i = 0; i < t->n; i++)
			pmu->add(t->ev[i], PERF_EF_START);
		pmu->commit_txn(pmu);
		break;
	case GT_DEL:
		pmu->pmu_disable(pmu);
		for (i = 0; i < t->n; i++)
			pmu->del(t->ev[i], 0);
		pmu->pmu_enable(pmu);
		break;
	case GT_ROTATE:
		pmu->pmu_disable(pmu);
		for (i = 0; i < t->n; i++)
			pmu->del(t->ev[i], 0);
		pmu->start_txn(pmu, PERF_PMU_TXN_ADD);
		for (i = 0; i < t->n; i++)
			pmu->add(t->ev[i], PERF_EF_START);
		pmu->commit_txn(pmu);
		pmu->pmu_enable(pmu);
		break;
	case GT_CANCEL:
		pmu->start_txn(pmu, PERF_PMU_TXN_ADD);
		for (i = 0; i < t->n; i++)
			pmu->add(t->ev[i], PERF_EF_START);
		for (i = t->n; i-- > 0;)
			pmu->del(t->ev[i], 0);
		pmu->cancel_txn(pmu);
		break;
	}
}

static unsigned long gt_txn(struct perf_event **ev, unsigned int n,
			    unsigned int op)
{
	struct gt_txn t = { .pmu = ev[0]->pmu, .ev = ev, .n = n, .op = op };
	unsigned long calls = hv_gpci_model_calls(gt.m);

	smp_call_function_single(ev[0]->cpu, gt_txn_fn, &t, 1);
	return hv_gpci_model_calls(gt.m) - calls;
}

/*
 * perf_event_create_kernel_counter() cannot make groups: these replay
 * perf core's sequences of callbacks (replay, not the core itself) on
 * events the core keeps disabled. 40 events (more than 32) of three keys.
 */
static void gpci_test_txn_replay(struct kunit *test)
{
	struct perf_event *ev[40];
	struct perf_event_attr attr;
	unsigned int i;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		/* partition 2 (offsets 0x8-0x28), processor 0, partition 7 */
		if (i % 8 < 5)
			gt_raw(&attr, 0x20, 2, 0, 8, 8, 0x8 + 8 * (i % 8));
		else if (i % 8 < 7)
			gt_raw(&attr, 0x10, 0, 0, 8, 8, 0);
		else
			gt_raw(&attr, 0x20, 7, 0, 8, 8, 0x8);
		attr.disabled = 1;
		ev[i] = gt_open(&attr);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ev[i]));
	}
	gt.m->tick = 1000;

	/* start of a group: one hcall per key, all primed at once */
	KUNIT_EXPECT_EQ(test, gt_txn(ev, ARRAY_SIZE(ev), GT_ADD), 3UL);
	/* group read: one snapshot per key */
	KUNIT_EXPECT_EQ(test, gt_txn(ev, ARRAY_SIZE(ev), GT_READ), 3UL);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		KUNIT_EXPECT_EQ_MSG(test, gt_read(ev[i]), 3000ULL, "event %u",
				    i);
	/* rotation: stops and starts share the snapshot, nothing lost */
	KUNIT_EXPECT_EQ(test, gt_txn(ev, ARRAY_SIZE(ev), GT_ROTATE), 3UL);
	/* stop of a group */
	KUNIT_EXPECT_EQ(test, gt_txn(ev, ARRAY_SIZE(ev), GT_DEL), 3UL);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		KUNIT_EXPECT_EQ_MSG(test, gt_read(ev[i]), 3000ULL + 6000,
				    "event %u", i);
	/* a group that fails to go on: no hcall at all */
	KUNIT_EXPECT_EQ(test, gt_txn(ev, ARRAY_SIZE(ev), GT_CANCEL), 0UL);
	KUNIT_EXPECT_EQ(test, gt_read(ev[0]), 9000ULL);
	gt.m->tick = 0;

	/* a failed hcall in the commit keeps the values of its key only */
	KUNIT_EXPECT_EQ(test, gt_txn(ev, 8, GT_ADD), 3UL);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_ENTITLED, 2, (1 << 20) +
			     hv_gpci_model_get(gt.m, HV_GPCI_PMU_M_ENTITLED, 2));
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_PROC_TIME, 0, (1 << 20) +
			     hv_gpci_model_get(gt.m, HV_GPCI_PMU_M_PROC_TIME, 0));
	hv_gpci_model_inject(gt.m, 0, 1, HV_GPCI_H_HARDWARE, 0);
	KUNIT_EXPECT_EQ(test, gt_txn(ev, 8, GT_READ), 3UL);
	KUNIT_EXPECT_EQ(test, gt_read(ev[0]), 9000ULL);
	KUNIT_EXPECT_EQ(test, gt_read(ev[5]), 9000ULL + (1 << 20));
	/* and the next good group read catches up: counts are continuous */
	KUNIT_EXPECT_EQ(test, gt_txn(ev, 8, GT_READ), 3UL);
	KUNIT_EXPECT_EQ(test, gt_read(ev[0]), 9000ULL + (1 << 20));
	KUNIT_EXPECT_EQ(test, gt_txn(ev, 8, GT_DEL), 3UL);
}

struct gt_nested {
	struct perf_event *ev;
	u64 before, after;
	unsigned long calls;
	int done;
};

/* An NMI arriving while the buffer is in use: the event's read() */
static void gt_nested_read(void *arg)
{
	struct gt_nested *n = arg;

	if (n->done++)
		return;
	n->before = local64_read(&n->ev->count);
	n->calls = hv_gpci_model_calls(gt.m);
	n->ev->pmu->read(n->ev);
	n->after = local64_read(&n->ev->count);
	n->calls = hv_gpci_model_calls(gt.m) - n->calls;
}

static void gpci_test_nested_read(struct kunit *test)
{
	struct gt_nested n = {};
	struct perf_event_attr attr;
	struct perf_event *ev1, *ev2;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA);
	gt_raw(&attr, 0x20, 3, 0, 8, 8, 0x8);
	ev1 = gt_open(&attr);
	gt_raw(&attr, 0x20, 3, 0, 8, 8, 0x10);
	ev2 = gt_open(&attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev1));
	KUNIT_ASSERT_FALSE(test, IS_ERR(ev2));
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_CAPPED, 3, 50);
	KUNIT_EXPECT_EQ(test, gt_read(ev2), 50ULL);
	hv_gpci_model_set(gt.m, HV_GPCI_PMU_M_CAPPED, 3, 80);

	n.ev = ev2;
	gt.m->hook_arg = &n;
	WRITE_ONCE(gt.m->hook, gt_nested_read);
	gt_read(ev1);
	WRITE_ONCE(gt.m->hook, NULL);
	KUNIT_EXPECT_EQ(test, n.done, 1);
	/* no hcall from inside one, the previous value, an error counted */
	KUNIT_EXPECT_EQ(test, n.calls, 0UL);
	KUNIT_EXPECT_EQ(test, n.after, n.before);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "read_errors"),
			   "1\n");
	/* the next read catches up */
	KUNIT_EXPECT_EQ(test, gt_read(ev2), 80ULL);
}

/* ---- driver: the system information files (Linux 6.6+) ---- */

static void gpci_test_sysinfo(struct kunit *test)
{
	static const char *const files[] = {
		"processor_bus_topology", "processor_config",
		"affinity_domain_via_virtual_processor",
		"affinity_domain_via_domain", "affinity_domain_via_partition",
	};
	/* the model's elements (inferred layouts, see the model) */
	static const char topology[] =
		"00000000000000030000000000000000\n"
		"00000001000000030000000000000000\n"
		"00000008000000030000000000000000\n";
	static const char domain[] =
		"00000000000000040000000000000000\n"
		"00010000000000030000000000000000\n"
		"00080000000000000000000000000000\n";
	static const char partition[] =
		"00010000000000000000005a00010008\n"
		"0000000100000064\n\n"
		"00020000000000000000005b00010008\n"
		"0000000100000064\n\n"
		"00030000000000000000005c00010008\n"
		"0000000000000064\n\n"
		"00070000000000000000005d00010008\n"
		"0000000100000064\n\n";
	char *vp = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned long calls;
	unsigned int i, p, v, n = 0;
	ssize_t ret;

	KUNIT_ASSERT_NOT_NULL(test, vp);
	gt_remove();
	hv_gpci_model_init(gt.m, 8);
	gt.m->power10 = true;
	gt_probe_model(test);
	/* probe: 0x40, 0x10, and one call per file */
	KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(gt.m), 7UL);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "processor_bus_topology"), topology);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "affinity_domain_via_domain"), domain);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "affinity_domain_via_partition"),
			   partition);
	/* processors 0-3 (chip 0, partition 3, dedicated), 5-7 (shared) */
	for (p = 0; p < 8; p++)
		if (p != 4)
			n += scnprintf(vp + n, PAGE_SIZE - n,
				       "%08x%08x%08x00800200%04x%02x%026x\n",
				       p, 0x100 + p, p < 4 ? 0 : 1,
				       p < 4 ? 3 : 0xffff, p < 4 ? 6 : 4, 0);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", "processor_config"),
			   vp);
	n = 0;

	/* partitions 1, 2, 3 (4 virtual processors) and 7 */
	for (p = 0; p < 4; p++) {
		static const u16 parts[] = { 1, 2, 3, 7 };

		for (v = 0; v < (parts[p] == 3 ? 4 : 2); v++)
			n += scnprintf(vp + n, PAGE_SIZE - n,
				       "%04x%04x%08x%08x\n", parts[p], v, v & 1,
				       0x10 + v);
	}
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "affinity_domain_via_virtual_processor"),
			   vp);

	/* a firmware answering 2 elements a call: the same, in pages */
	gt.m->max_elems = 2;
	calls = hv_gpci_model_calls(gt.m);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "processor_bus_topology"), topology);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(gt.m), calls + 2);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "affinity_domain_via_virtual_processor"),
			   vp);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "affinity_domain_via_domain"), domain);
	calls = hv_gpci_model_calls(gt.m);
	KUNIT_EXPECT_STREQ(test, gt_show(test, "interface",
					 "affinity_domain_via_partition"),
			   partition);
	KUNIT_EXPECT_EQ(test, hv_gpci_model_calls(gt.m), calls + 3);
	gt.m->max_elems = 0;

	/* no permission: EPERM, as Linux */
	gt.m->authorised = false;
	gt_show_ret(test, "interface", "processor_bus_topology", &ret);
	KUNIT_EXPECT_EQ(test, ret, (ssize_t)-EPERM);
	gt.m->authorised = true;
	/*
	 * more than a page of text: EFBIG, and nothing written past it. The
	 * full table is 4224 bytes of text, which pages of 8 KiB (sparc64)
	 * or more hold.
	 */
	for (i = 0; i < HV_GPCI_PMU_MODEL_MAX_ENTITIES; i++)
		gt.m->ent[HV_GPCI_PMU_K_CHIP][i].id = i;
	gt.m->nr[HV_GPCI_PMU_K_CHIP] = HV_GPCI_PMU_MODEL_MAX_ENTITIES;
	gt_show_ret(test, "interface", "processor_bus_topology", &ret);
	KUNIT_EXPECT_EQ(test, ret,
			PAGE_SIZE < 4224 ? (ssize_t)-EFBIG : (ssize_t)4224);

	/* created only if every request answers: all or none */
	hv_gpci_model_init(gt.m, 8);
	gt.m->power10 = true;
	hv_gpci_model_inject(gt.m, 4, 1, HV_GPCI_H_HARDWARE, 0);
	gt_probe_model(test);
	for (i = 0; i < ARRAY_SIZE(files); i++)
		KUNIT_EXPECT_STREQ(test, gt_show(test, "interface", files[i]),
				   "(none)");
	/* H_AUTHORITY at probe: created (the permission may come later) */
	hv_gpci_model_init(gt.m, 8);
	gt.m->power10 = true;
	gt.m->authorised = false;
	gt_probe_model(test);
	for (i = 0; i < ARRAY_SIZE(files); i++)
		KUNIT_EXPECT_NE_MSG(test, strcmp(gt_show(test, "interface",
							 files[i]), "(none)"),
				    0, "%s", files[i]);
}

/* ---- driver: randomised attributes ---- */

static void gt_random_attr(struct rnd_state *rs, struct perf_event_attr *attr)
{
	static const u32 reqs[] = {
		0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x80, 0x94, 0xE0,
		0xF0, 0xF4, 0x100, 0x80001000, 0x80002000, 0x90, 0x0, 0x11,
		0x80003000,
	};
	static const u32 ids[] = { 0, 1, 2, 3, 5, 7, 8, 0xffffffff };
	u32 r = prandom_u32_state(rs);
	/* mostly plausible values, so that many pass and reach the model */
	u32 req = r & 3 ? reqs[prandom_u32_state(rs) % ARRAY_SIZE(reqs)] :
		  prandom_u32_state(rs);
	u32 idx = (r >> 2) & 3 ? ids[(r >> 20) % ARRAY_SIZE(ids)] :
		  prandom_u32_state(rs);
	u16 sec = (r >> 4) & 7 ? 0 : prandom_u32_state(rs);
	u8 ver = (r >> 7) & 3 ? 8 : prandom_u32_state(rs) % 12;
	u8 len = (r >> 9) & 7 ? 1 + (r >> 12) % 8 : prandom_u32_state(rs);
	u32 off = (r >> 15) & 7 ? 8 * ((r >> 24) % 12) : prandom_u32_state(rs);

	gt_raw(attr, req, idx, sec, ver, len, off);
	if (!(prandom_u32_state(rs) % 32))
		attr->config2 = BIT_ULL(prandom_u32_state(rs) % 64);
}

/* What Linux's event_init and our lab gate accept, typed in. */
static void gt_check_accepted(struct kunit *test, struct perf_event_attr *a)
{
	u32 req = a->config, off = a->config1 >> 32;
	u8 len = a->config1 >> 24;

	KUNIT_EXPECT_TRUE(test, len >= 1 && len <= 8);
	KUNIT_EXPECT_LE(test, (u64)off + len, 4064ULL);
	KUNIT_EXPECT_EQ(test, a->config2, 0ULL);
	KUNIT_EXPECT_TRUE_MSG(test, !(req & 0x80000000), "request 0x%x", req);
}

static void gpci_test_random(struct kunit *test)
{
	unsigned int i, accepted = 0, opened = 0;
	struct perf_event_attr attr;
	struct rnd_state rs;
	struct perf_event *ev;

	gt_start(test, 6, HV_GPCI_PMU_CAP_GA | HV_GPCI_PMU_CAP_LAB);
	prandom_seed_state(&rs, 0x6b636970ULL);
	for (i = 0; i < 100000; i++) {
		int ret;

		gt_random_attr(&rs, &attr);
		ret = hv_gpci_pmu_attr_check(gt.g, &attr);
		if (ret) {
			KUNIT_EXPECT_TRUE_MSG(test, ret == -EINVAL ||
					      ret == -EOPNOTSUPP ||
					      ret == -EPERM, "%d", ret);
			continue;
		}
		accepted++;
		gt_check_accepted(test, &attr);
	}
	kunit_info(test, "attr_check: %u of 100000 accepted\n", accepted);
	KUNIT_EXPECT_GT(test, accepted, 10000U);

	for (i = 0; i < 3000; i++) {
		gt_random_attr(&rs, &attr);
		ev = gt_open(&attr);
		if (IS_ERR(ev)) {
			long err = PTR_ERR(ev);

			/* never one that makes perf stat abort but EPERM */
			KUNIT_EXPECT_TRUE_MSG(test, err == -EINVAL ||
					      err == -EOPNOTSUPP ||
					      err == -EPERM, "%ld", err);
			continue;
		}
		opened++;
		gt_check_accepted(test, &attr);
		gt_read(ev);
		gt_close(ev);
	}
	kunit_info(test, "perf core: %u of 3000 opened\n", opened);
	KUNIT_EXPECT_GT(test, opened, 100U);
	/* nothing lab-only or state-changing reached the hypervisor */
	KUNIT_EXPECT_EQ(test, gt.m->set_mmcrh, 0UL);
	KUNIT_EXPECT_EQ(test, gt.m->misaligned, 0UL);
}

static struct kunit_case gpci_cases[] = {
	KUNIT_CASE(gpci_model_block),
	KUNIT_CASE(gpci_model_requests),
	KUNIT_CASE(gpci_test_seed_literals),
	KUNIT_CASE(gpci_test_format),
	KUNIT_CASE(gpci_test_sysfs_abi),
	KUNIT_CASE(gpci_test_tables),
	KUNIT_CASE_PARAM(gpci_test_parity, gt_version_gen_params),
	KUNIT_CASE_PARAM(gpci_test_named, gt_version_gen_params),
	KUNIT_CASE(gpci_test_errors_probe),
	KUNIT_CASE(gpci_test_errno),
	KUNIT_CASE(gpci_test_errors_read),
	KUNIT_CASE(gpci_test_robust),
	KUNIT_CASE(gpci_test_raw),
	KUNIT_CASE(gpci_test_config_ranges),
	KUNIT_CASE(gpci_test_big_table),
	KUNIT_CASE(gpci_test_authority),
	KUNIT_CASE(gpci_test_lab),
	KUNIT_CASE(gpci_test_cpu),
	KUNIT_CASE(gpci_test_resched),
	KUNIT_CASE(gpci_test_txn_replay),
	KUNIT_CASE(gpci_test_nested_read),
	KUNIT_CASE(gpci_test_sysinfo),
	KUNIT_CASE(gpci_test_random),
	{}
};

static struct kunit_suite gpci_suite = {
	.name = "hv_gpci_pmu",
	.init = gt_init,
	.exit = gt_exit,
	.test_cases = gpci_cases,
};

kunit_test_suite(gpci_suite);

MODULE_DESCRIPTION("KUnit tests of the hv_gpci PMU");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
