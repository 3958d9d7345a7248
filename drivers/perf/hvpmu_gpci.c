// SPDX-License-Identifier: GPL-2.0
/*
 * hv_gpci: counters of PAPR H_GetPerformanceCounterInfo (hcall 0xF080).
 *
 * A drop-in successor of arch/powerpc/perf/hv-gpci.c: same PMU name, same
 * format fields, and the same named events where the layouts agree. Beyond
 * it: a group read costs one hcall per distinct (request, starting_index,
 * secondary_index, version) and all its values come from one snapshot; a
 * failed hcall keeps the previous value; the reply's index, element count
 * and element size are checked before a byte is used; layouts are chosen
 * by the counter_info_version the firmware reports; request codes are
 * whitelisted and the lab-only ones are out of reach of ordinary events;
 * hcall errors become distinct errnos with a log line naming the cause.
 *
 * The driver is arch-neutral: the hypervisor is reached only through
 * &struct hvpmu_gpci_ops (the powerpc glue, or the model in the tests).
 */

#define pr_fmt(fmt) "hv_gpci: " fmt

#include <linux/align.h>
#include <linux/capability.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/perf/hvpmu.h>
#include <linux/perf/hvpmu_gpci.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <asm/unaligned.h>

/* Most events of ours one group may hold: the read transaction's slots. */
#define GPCI_MAX_GROUP		32

/* hw.state bit: no good start value yet; the next good read sets it. */
#define GPCI_HES_UNPRIMED	0x100

enum gpci_field {
	F_REQUEST,
	F_STARTING_INDEX,
	F_PHYS_PROCESSOR_IDX,
	F_SIBLING_PART_ID,
	F_HW_CHIP_ID,
	F_PARTITION_ID,
	F_SECONDARY_INDEX,
	F_COUNTER_INFO_VERSION,
	F_LENGTH,
	F_OFFSET,
};

/* Linux's layout, bit for bit, so existing event strings keep working. */
static const struct hvpmu_field gpci_fields[] = {
	[F_REQUEST] = HVPMU_FIELD("request", HVPMU_CONFIG, 0, 32),
	[F_STARTING_INDEX] = HVPMU_FIELD("starting_index", HVPMU_CONFIG, 32, 32),
	[F_PHYS_PROCESSOR_IDX] = HVPMU_FIELD("phys_processor_idx", HVPMU_CONFIG,
					     32, 32, .alias_of = "starting_index"),
	[F_SIBLING_PART_ID] = HVPMU_FIELD("sibling_part_id", HVPMU_CONFIG, 32, 32,
					  .alias_of = "starting_index"),
	[F_HW_CHIP_ID] = HVPMU_FIELD("hw_chip_id", HVPMU_CONFIG, 32, 32,
				     .alias_of = "starting_index"),
	[F_PARTITION_ID] = HVPMU_FIELD("partition_id", HVPMU_CONFIG, 32, 32,
				       .alias_of = "starting_index"),
	[F_SECONDARY_INDEX] = HVPMU_FIELD("secondary_index", HVPMU_CONFIG1, 0, 16),
	[F_COUNTER_INFO_VERSION] = HVPMU_FIELD("counter_info_version",
					       HVPMU_CONFIG1, 16, 8),
	[F_LENGTH] = HVPMU_FIELD("length", HVPMU_CONFIG1, 24, 8,
				 .min = 1, .max = 8),
	[F_OFFSET] = HVPMU_FIELD("offset", HVPMU_CONFIG1, 32, 32,
				 .max = HVPMU_GPCI_MAX_DATA - 1),
};

/* Which firmware versions show an event (see gpci_variant()). */
#define V_LOPAR		BIT(0)	/* version < HVPMU_GPCI_VERSION_EXTENDED */
#define V_EXT		BIT(1)	/* extended layout, not yet deprecating */
#define V_DEPR		BIT(2)	/* version >= HVPMU_GPCI_VERSION_DEPRECATES */

/*
 * Named events: every counter of the seed's request types. Names are
 * Linux's where it has the counter, so existing event strings keep working.
 * counter_info_version is left 0: the driver then asks for the version the
 * firmware reports, whose layout these offsets are for.
 */
#define GPCI_EV(_name, _req, _idx, _off, _var)				\
	{ .name = _name, .variants = (_var),				\
	  .terms = "request=" #_req "," _idx "=?,offset=" #_off ",length=8" }

#define EV_10(n, o)	GPCI_EV("dispatch_timebase_by_processor_" n, 0x10, \
				"phys_processor_idx", o, 0)
#define EV_20(n, o)	GPCI_EV("entitled_capped_uncapped_donated_idle_timebase_by_partition_" n, \
				0x20, "sibling_part_id", o, 0)
#define EV_30(n, o)	GPCI_EV("run_instructions_run_cycles_by_partition_" n, \
				0x30, "sibling_part_id", o, V_LOPAR | V_EXT)
#define EV_50(n, o, v)	GPCI_EV("processor_bus_utilization_abc_links_" n, \
				0x50, "hw_chip_id", o, v)
#define EV_60(n, o, v)	GPCI_EV("processor_bus_utilization_wxyz_links_" n, \
				0x60, "hw_chip_id", o, v)

static const struct hvpmu_event gpci_events[] = {
	EV_10("processor_time_in_timebase_cycles", 0x0),
	EV_20("entitled_cycles", 0x8),
	EV_20("consumed_capped_cycles", 0x10),
	EV_20("consumed_uncapped_cycles", 0x18),
	EV_20("cycles_donated", 0x20),
	EV_20("purr_idle_cycles", 0x28),
	EV_30("instructions_completed", 0x8),
	EV_30("cycles", 0x10),
	/* LoPAR: an (idle, time) pair per link from 0x10 */
	EV_50("idle_cycles_for_a_link", 0x10, V_LOPAR),
	EV_50("time_for_a_link", 0x18, V_LOPAR),
	EV_50("idle_cycles_for_b_link", 0x20, V_LOPAR),
	EV_50("time_for_b_link", 0x28, V_LOPAR),
	EV_50("idle_cycles_for_c_link", 0x30, V_LOPAR),
	EV_50("time_for_c_link", 0x38, V_LOPAR),
	EV_60("idle_cycles_for_w_link", 0x10, V_LOPAR),
	EV_60("time_for_w_link", 0x18, V_LOPAR),
	EV_60("idle_cycles_for_x_link", 0x20, V_LOPAR),
	EV_60("time_for_x_link", 0x28, V_LOPAR),
	EV_60("idle_cycles_for_y_link", 0x30, V_LOPAR),
	EV_60("time_for_y_link", 0x38, V_LOPAR),
	EV_60("idle_cycles_for_z_link", 0x40, V_LOPAR),
	EV_60("time_for_z_link", 0x48, V_LOPAR),
	/* Extended (Linux): one total at 0x10, then idle cycles per link */
	EV_50("total_link_cycles", 0x10, V_EXT),
	EV_50("idle_cycles_for_a_link", 0x18, V_EXT),
	EV_50("idle_cycles_for_b_link", 0x20, V_EXT),
	EV_50("idle_cycles_for_c_link", 0x28, V_EXT),
	EV_60("total_link_cycles", 0x10, V_EXT),
	EV_60("idle_cycles_for_w_link", 0x18, V_EXT),
	EV_60("idle_cycles_for_x_link", 0x20, V_EXT),
	EV_60("idle_cycles_for_y_link", 0x28, V_EXT),
	EV_60("idle_cycles_for_z_link", 0x30, V_EXT),
};

#define GPCI_R_SECONDARY	BIT(0)	/* may carry a secondary_index */
#define GPCI_R_LAB		BIT(1)	/* lab only: needs cap and root */
#define GPCI_R_NEVER		BIT(2)	/* never from an event */

/**
 * struct gpci_req - a request code the driver knows
 * @code: Requested_Information
 * @size_lopar: element size in the LoPAR layout; 0 if LoPAR lacks it
 * @size_ext: element size in the extended layout (for requests known only
 *	from Linux: the size of Linux's layout)
 * @flags: GPCI_R_*
 */
struct gpci_req {
	u32 code;
	u16 size_lopar;
	u16 size_ext;
	u8 flags;
};

static const struct gpci_req gpci_reqs[] = {
	{ HVPMU_GPCI_REQ_DISPATCH_BY_PROC, 0x30, 0x30, 0 },
	{ HVPMU_GPCI_REQ_PURR_BY_PART, 0x30, 0x30, 0 },
	{ HVPMU_GPCI_REQ_RUN_BY_PART, 0x18, 0x18, 0 },
	/* internal: read once at probe */
	{ HVPMU_GPCI_REQ_CAPABILITIES, 0x10, 0x10, GPCI_R_NEVER },
	{ HVPMU_GPCI_REQ_BUS_ABC, 0x40, 0x50, 0 },
	{ HVPMU_GPCI_REQ_BUS_WXYZ, 0x50, 0x60, 0 },
	{ HVPMU_GPCI_REQ_BUS_GX, 0, 0xB0, GPCI_R_SECONDARY },
	{ HVPMU_GPCI_REQ_BUS_MC, 0, 0x50, GPCI_R_SECONDARY },
	{ HVPMU_GPCI_REQ_CORE_UTIL, 0, 0x30, GPCI_R_SECONDARY },
	{ HVPMU_GPCI_REQ_PART_QUEUING, 0, 0x50, GPCI_R_SECONDARY },
	{ HVPMU_GPCI_REQ_SYS_HV_TIMES, 0, 0x20, GPCI_R_SECONDARY },
	{ HVPMU_GPCI_REQ_SYS_TLBIE, 0, 0x10, GPCI_R_SECONDARY },
	{ HVPMU_GPCI_REQ_PART_INSTR, 0, 0x18, GPCI_R_SECONDARY },
	/* writes MMCRH on every processor: a read must never do that */
	{ HVPMU_GPCI_REQ_SET_MMCRH, 0, 0, GPCI_R_NEVER },
	{ HVPMU_GPCI_REQ_HPMCX, 0, 0x50, GPCI_R_LAB },
};

/* A read transaction: the events read() queued, served at commit. */
struct gpci_txn {
	unsigned int flags;
	unsigned int nr;
	struct perf_event *ev[GPCI_MAX_GROUP];
};

/**
 * struct hvpmu_gpci_pmu - one hv_gpci PMU
 * @uncore: the perf PMU with its designated CPU
 * @ops: the backend
 * @ctx: the backend's context
 * @lock: serialises use of @buf (reads, event_init probes)
 * @buf: the 4 KiB-aligned parameter block
 * @txn: per-CPU read transaction
 * @version: counter_info_version reported by the 0x40 request at probe
 * @caps: capability byte of the 0x40 reply (HVPMU_GPCI_CAP_*)
 * @collect_privileged: the LPAR may read other partitions' data
 * @lab_enabled: root allowed the lab-only HPMCx request
 * @hcalls: hcalls issued
 * @read_errors: reads that kept the previous value
 * @events: the named events shown for @version
 * @enc: field table and @events
 * @attrs: sysfs format/ and events/
 * @groups: sysfs attribute groups of the PMU
 */
struct hvpmu_gpci_pmu {
	struct hvpmu_uncore uncore;
	const struct hvpmu_gpci_ops *ops;
	void *ctx;
	raw_spinlock_t lock;
	u8 *buf;
	struct gpci_txn __percpu *txn;
	u8 version;
	u8 caps;
	bool collect_privileged;
	bool lab_enabled;
	atomic64_t hcalls;
	atomic64_t read_errors;
	struct hvpmu_event *events;
	struct hvpmu_encoding enc;
	struct hvpmu_attrs attrs;
	const struct attribute_group *groups[5];
};

static struct hvpmu_gpci_pmu *to_gpci(struct pmu *pmu)
{
	return container_of(hvpmu_uncore_from_pmu(pmu), struct hvpmu_gpci_pmu,
			    uncore);
}

static const struct gpci_req *gpci_find_req(u32 code)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gpci_reqs); i++)
		if (gpci_reqs[i].code == code)
			return &gpci_reqs[i];
	return NULL;
}

static bool gpci_ext(u8 version)
{
	return version >= HVPMU_GPCI_VERSION_EXTENDED;
}

static u16 gpci_req_size(const struct gpci_req *r, u8 version)
{
	return gpci_ext(version) ? r->size_ext : r->size_lopar;
}

static u32 gpci_variant(u8 version)
{
	if (!gpci_ext(version))
		return V_LOPAR;
	if (version < HVPMU_GPCI_VERSION_DEPRECATES)
		return V_EXT;
	return V_DEPR;
}

/* How each return code is explained to the user and which errno it is. */
static const struct {
	long rc;
	int err;
	const char *cause;
} gpci_rcs[] = {
	{ HVPMU_H_PRIVILEGE, -EIO,
	  "H_PRIVILEGE: the hypervisor cannot access the parameter block" },
	{ HVPMU_H_PARAMETER, -EINVAL,
	  "H_PARAMETER: the hypervisor rejected the request or its index" },
	{ HVPMU_H_NOT_AVAILABLE, -EOPNOTSUPP,
	  "H_NOT_AVAILABLE: not provided by this firmware level or platform" },
	/* the HMC partition property that grants the permission */
	{ HVPMU_H_AUTHORITY, -EPERM,
	  "H_AUTHORITY: this LPAR lacks permission: enable \"Allow performance information collection\" for it on the HMC",
	},
	{ HVPMU_H_FUNCTION, -ENODEV,
	  "H_FUNCTION: the hypervisor does not implement H_GetPerformanceCounterInfo" },
	{ HVPMU_H_HARDWARE, -EIO, "H_HARDWARE: hardware error" },
};

static const char *gpci_rc_cause(long rc)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(gpci_rcs); i++)
		if (gpci_rcs[i].rc == rc)
			return gpci_rcs[i].cause;
	return "unexpected return code";
}

static int gpci_rc_errno(long rc)
{
	unsigned int i;

	if (rc == HVPMU_H_SUCCESS)
		return 0;
	for (i = 0; i < ARRAY_SIZE(gpci_rcs); i++)
		if (gpci_rcs[i].rc == rc)
			return gpci_rcs[i].err;
	return -EIO;
}

/* The request key of an event: what one hcall answers. */
struct gpci_key {
	u32 request;
	u32 index;
	u16 secondary;
	u8 version;
};

static struct gpci_key gpci_event_key(struct perf_event *event)
{
	const struct perf_event_attr *a = &event->attr;

	return (struct gpci_key) {
		.request = hvpmu_field_get(&gpci_fields[F_REQUEST], a),
		.index = hvpmu_field_get(&gpci_fields[F_STARTING_INDEX], a),
		.secondary = hvpmu_field_get(&gpci_fields[F_SECONDARY_INDEX], a),
		/* effective version, fixed at event_init */
		.version = event->hw.config_base,
	};
}

static bool gpci_same_key(struct perf_event *a, struct perf_event *b)
{
	struct gpci_key x = gpci_event_key(a), y = gpci_event_key(b);

	return x.request == y.request && x.index == y.index &&
	       x.secondary == y.secondary && x.version == y.version;
}

/* One hcall for @key into @gpci->buf. Caller holds @gpci->lock. */
static long gpci_hcall(struct hvpmu_gpci_pmu *gpci, const struct gpci_key *key)
{
	struct hvpmu_gpci_hdr *h = (struct hvpmu_gpci_hdr *)gpci->buf;
	long rc;

	lockdep_assert_held(&gpci->lock);
	memset(gpci->buf, 0, HVPMU_GPCI_BUF_SIZE);
	h->request = cpu_to_be32(key->request);
	h->starting_index = cpu_to_be32(key->index);
	if (gpci_ext(gpci->version)) {
		h->secondary_index = cpu_to_be16(key->secondary);
		h->version_in = key->version;
	}
	rc = gpci->ops->hcall(gpci->ctx, gpci->buf, HVPMU_GPCI_BUF_SIZE);
	atomic64_inc(&gpci->hcalls);
	/* Not all elements fitted; the first ones, which we read, did. */
	if (rc == HVPMU_H_PARAMETER && gpci_ext(gpci->version) &&
	    be32_to_cpu(h->detail_rc) == HVPMU_GPCI_DETAIL_BUF_TOO_SMALL)
		rc = HVPMU_H_SUCCESS;
	return rc;
}

static int gpci_hcall_errno(const struct gpci_key *key, long rc)
{
	if (rc == HVPMU_H_SUCCESS)
		return 0;
	pr_warn_ratelimited("request 0x%x index 0x%x: %s (rc %ld)\n",
			    key->request, key->index, gpci_rc_cause(rc), rc);
	return gpci_rc_errno(rc);
}

/*
 * Take @event's value out of the reply in @gpci->buf, after checking that
 * the reply is about the entity asked for, in the layout the event was set
 * up for, and long enough for offset + length.
 */
static int gpci_extract(struct hvpmu_gpci_pmu *gpci, struct perf_event *event,
			u64 *val)
{
	const struct hvpmu_gpci_hdr *h = (void *)gpci->buf;
	const struct perf_event_attr *a = &event->attr;
	struct gpci_key key = gpci_event_key(event);
	u32 off = hvpmu_field_get(&gpci_fields[F_OFFSET], a);
	u32 len = hvpmu_field_get(&gpci_fields[F_LENGTH], a);
	const struct gpci_req *r = gpci_find_req(key.request);
	u32 got = be32_to_cpu(h->starting_index);
	u8 vout = h->version_out;
	u32 nvals, esize;
	const u8 *p;

	if (gpci_ext(vout) != gpci_ext(event->hw.idx)) {
		pr_warn_ratelimited("request 0x%x: reply layout changed (counter_info_version %u, was %u); reopen the event\n",
				    key.request, vout, (u8)event->hw.idx);
		return -EIO;
	}
	if (gpci_ext(vout)) {
		nvals = be16_to_cpu(h->returned_values);
		esize = be16_to_cpu(h->cv_element_size) ?: r->size_ext;
	} else {
		/* LoPAR: returned_values is a uint_32 at offset 8 */
		nvals = get_unaligned_be32(&h->secondary_index);
		esize = r->size_lopar;
	}
	if (!nvals || (key.index != HVPMU_GPCI_INDEX_CURRENT &&
		       got != key.index)) {
		pr_info_ratelimited("request 0x%x: no entity with index 0x%x\n",
				    key.request, key.index);
		return -ENODEV;
	}
	if (off + len > esize || esize > HVPMU_GPCI_MAX_DATA) {
		pr_warn_ratelimited("request 0x%x: element of %u bytes cannot hold offset 0x%x length %u\n",
				    key.request, esize, off, len);
		return -EIO;
	}
	p = gpci->buf + HVPMU_GPCI_HDR_SIZE + off;
	*val = 0;
	while (len--)
		*val = (*val << 8) | *p++;
	return 0;
}

/* Fold a good value into the count; an error keeps the previous one. */
static void gpci_account(struct hvpmu_gpci_pmu *gpci, struct perf_event *event,
			 int err, u64 now)
{
	u32 len = hvpmu_field_get(&gpci_fields[F_LENGTH], &event->attr);

	if (err) {
		atomic64_inc(&gpci->read_errors);
		return;
	}
	if (event->hw.state & GPCI_HES_UNPRIMED) {
		local64_set(&event->hw.prev_count, now);
		event->hw.state &= ~GPCI_HES_UNPRIMED;
		return;
	}
	/* Values shorter than 8 bytes wrap at their width. */
	hvpmu_counter_fold(event, now, 8 * len);
}

static void gpci_update(struct hvpmu_gpci_pmu *gpci, struct perf_event *event)
{
	struct gpci_key key = gpci_event_key(event);
	unsigned long flags;
	u64 now = 0;
	int err;

	raw_spin_lock_irqsave(&gpci->lock, flags);
	err = gpci_hcall_errno(&key, gpci_hcall(gpci, &key));
	if (!err)
		err = gpci_extract(gpci, event, &now);
	raw_spin_unlock_irqrestore(&gpci->lock, flags);
	gpci_account(gpci, event, err, now);
}

static void gpci_start(struct perf_event *event, int flags)
{
	event->hw.state = GPCI_HES_UNPRIMED;
	gpci_update(to_gpci(event->pmu), event);
}

static void gpci_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	if (flags & PERF_EF_UPDATE)
		gpci_update(to_gpci(event->pmu), event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int gpci_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		gpci_start(event, flags);
	return 0;
}

static void gpci_del(struct perf_event *event, int flags)
{
	gpci_stop(event, PERF_EF_UPDATE);
}

static void gpci_read(struct perf_event *event)
{
	struct hvpmu_gpci_pmu *gpci = to_gpci(event->pmu);
	struct gpci_txn *txn = this_cpu_ptr(gpci->txn);

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	/* In a read transaction, commit_txn() reads the whole group. */
	if ((txn->flags & PERF_PMU_TXN_READ) && txn->nr < GPCI_MAX_GROUP) {
		txn->ev[txn->nr++] = event;
		return;
	}
	gpci_update(gpci, event);
}

static void gpci_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct gpci_txn *txn = this_cpu_ptr(to_gpci(pmu)->txn);

	txn->flags = flags;
	txn->nr = 0;
}

static void gpci_cancel_txn(struct pmu *pmu)
{
	struct gpci_txn *txn = this_cpu_ptr(to_gpci(pmu)->txn);

	txn->flags = 0;
	txn->nr = 0;
}

/* One hcall per distinct key; every event of a key reads the same reply. */
static int gpci_commit_txn(struct pmu *pmu)
{
	struct hvpmu_gpci_pmu *gpci = to_gpci(pmu);
	struct gpci_txn *txn = this_cpu_ptr(gpci->txn);
	unsigned int i, j;

	if (!(txn->flags & PERF_PMU_TXN_READ))
		goto out;
	for (i = 0; i < txn->nr; i++) {
		struct perf_event *lead = txn->ev[i];
		struct gpci_key key;
		unsigned long flags;
		int err;

		if (!lead)
			continue;
		key = gpci_event_key(lead);
		raw_spin_lock_irqsave(&gpci->lock, flags);
		err = gpci_hcall_errno(&key, gpci_hcall(gpci, &key));
		for (j = i; j < txn->nr; j++) {
			struct perf_event *ev = txn->ev[j];
			u64 now = 0;
			int e = err;

			if (!ev || !gpci_same_key(lead, ev))
				continue;
			if (!e)
				e = gpci_extract(gpci, ev, &now);
			gpci_account(gpci, ev, e, now);
			txn->ev[j] = NULL;
		}
		raw_spin_unlock_irqrestore(&gpci->lock, flags);
	}
out:
	txn->flags = 0;
	txn->nr = 0;
	return 0;
}

/**
 * hvpmu_gpci_attr_check() - the checks of event_init that need no hcall
 * @gpci: the PMU
 * @attr: the event attribute
 *
 * Unknown bits and out-of-range fields, unknown request codes, requests
 * that are internal or write hypervisor state, lab-only requests unless the
 * firmware has the lab capability and root enabled them, a secondary index
 * where the request has none, and offset + length beyond the request's
 * element.
 *
 * Return: 0, -EINVAL, -EOPNOTSUPP (not on this firmware) or -EPERM (lab
 * request not enabled).
 */
int hvpmu_gpci_attr_check(struct hvpmu_gpci_pmu *gpci,
			  const struct perf_event_attr *attr)
{
	const struct gpci_req *r;
	u32 off, len;
	u16 size;
	int ret;

	ret = hvpmu_config_check(&gpci->enc, attr);
	if (ret)
		return ret;
	r = gpci_find_req(hvpmu_field_get(&gpci_fields[F_REQUEST], attr));
	if (!r || (r->flags & GPCI_R_NEVER))
		return -EINVAL;
	if (r->flags & GPCI_R_LAB) {
		if (!(gpci->caps & HVPMU_GPCI_CAP_LAB))
			return -EOPNOTSUPP;
		if (!READ_ONCE(gpci->lab_enabled))
			return -EPERM;
	}
	size = gpci_req_size(r, gpci->version);
	if (!size)
		return -EOPNOTSUPP;
	if (hvpmu_field_get(&gpci_fields[F_SECONDARY_INDEX], attr) &&
	    (!gpci_ext(gpci->version) || !(r->flags & GPCI_R_SECONDARY)))
		return -EINVAL;
	off = hvpmu_field_get(&gpci_fields[F_OFFSET], attr);
	len = hvpmu_field_get(&gpci_fields[F_LENGTH], attr);
	if (off + len > size)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_attr_check);

static int gpci_event_init(struct perf_event *event)
{
	struct hvpmu_gpci_pmu *gpci = to_gpci(event->pmu);
	struct perf_event *leader = event->group_leader, *sib;
	unsigned int n = 1;
	struct gpci_key key;
	unsigned long flags;
	u64 now;
	u8 ver;
	int ret;

	ret = hvpmu_uncore_event_init(&gpci->uncore, event);
	if (ret)
		return ret;
	ret = hvpmu_gpci_attr_check(gpci, &event->attr);
	if (ret)
		return ret;

	/* Each of our events in a group needs a transaction slot. */
	if (leader != event && leader->pmu == event->pmu)
		n++;
	for_each_sibling_event(sib, leader)
		n += sib->pmu == event->pmu;
	if (n > GPCI_MAX_GROUP)
		return -EINVAL;

	/* 0 asks for the version the firmware reported; below 3 it is 0. */
	ver = hvpmu_field_get(&gpci_fields[F_COUNTER_INFO_VERSION],
			      &event->attr) ?: gpci->version;
	if (!gpci_ext(ver))
		ver = 0;
	event->hw.config_base = ver;

	/*
	 * Ask once now, so that a missing entity, a refused permission or a
	 * request this firmware lacks is an errno from perf_event_open(), and
	 * learn the reply's layout version.
	 */
	key = gpci_event_key(event);
	raw_spin_lock_irqsave(&gpci->lock, flags);
	ret = gpci_hcall_errno(&key, gpci_hcall(gpci, &key));
	if (!ret) {
		event->hw.idx = ((struct hvpmu_gpci_hdr *)gpci->buf)->version_out;
		ret = gpci_extract(gpci, event, &now);
	}
	raw_spin_unlock_irqrestore(&gpci->lock, flags);
	return ret;
}

#define GPCI_IFACE_ATTR(_name, _fmt, _expr)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	struct hvpmu_gpci_pmu *gpci = to_gpci(dev_get_drvdata(dev));	\
									\
	return sysfs_emit(buf, _fmt "\n", _expr);			\
}									\
static DEVICE_ATTR_RO(_name)

/* The highest counter_info_version whose layouts the driver knows. */
static ssize_t kernel_version_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "0x%x\n", HVPMU_GPCI_VERSION_DEPRECATES);
}
static DEVICE_ATTR_RO(kernel_version);

/* Read once at probe; Linux issued an hcall on every read of these. */
GPCI_IFACE_ATTR(version, "0x%x", gpci->version);
GPCI_IFACE_ATTR(ga, "%d", !!(gpci->caps & HVPMU_GPCI_CAP_GA));
GPCI_IFACE_ATTR(expanded, "%d", !!(gpci->caps & HVPMU_GPCI_CAP_EXPANDED));
GPCI_IFACE_ATTR(lab, "%d", !!(gpci->caps & HVPMU_GPCI_CAP_LAB));
GPCI_IFACE_ATTR(collect_privileged, "%d", gpci->collect_privileged);

static ssize_t lab_events_enabled_show(struct device *dev,
				       struct device_attribute *attr,
				       char *buf)
{
	struct hvpmu_gpci_pmu *gpci = to_gpci(dev_get_drvdata(dev));

	return sysfs_emit(buf, "%d\n", READ_ONCE(gpci->lab_enabled));
}

static ssize_t lab_events_enabled_store(struct device *dev,
					struct device_attribute *attr,
					const char *buf, size_t count)
{
	struct hvpmu_gpci_pmu *gpci = to_gpci(dev_get_drvdata(dev));
	bool on;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtobool(buf, &on);
	if (!ret)
		ret = hvpmu_gpci_lab_enable(gpci, on);
	return ret ?: count;
}
static DEVICE_ATTR_ADMIN_RW(lab_events_enabled);

static struct attribute *gpci_iface_attrs[] = {
	&dev_attr_kernel_version.attr,
	&dev_attr_version.attr,
	&dev_attr_ga.attr,
	&dev_attr_expanded.attr,
	&dev_attr_lab.attr,
	&dev_attr_collect_privileged.attr,
	&dev_attr_lab_events_enabled.attr,
	NULL,
};

static const struct attribute_group gpci_iface_group = {
	.name = "interface",
	.attrs = gpci_iface_attrs,
};

/**
 * hvpmu_gpci_lab_enable() - allow or forbid the lab-only HPMCx request
 * @gpci: the PMU
 * @enable: allow it
 *
 * Events already open are not affected; new events with request 0x80002000
 * are accepted only while enabled. Set MMCRH (0x80001000) writes
 * hypervisor state and is never reachable from an event.
 *
 * Return: 0, or -EOPNOTSUPP if the firmware lacks the lab capability.
 */
int hvpmu_gpci_lab_enable(struct hvpmu_gpci_pmu *gpci, bool enable)
{
	if (enable && !(gpci->caps & HVPMU_GPCI_CAP_LAB))
		return -EOPNOTSUPP;
	WRITE_ONCE(gpci->lab_enabled, enable);
	if (enable)
		pr_notice("lab-only request 0x%x enabled by root\n",
			  HVPMU_GPCI_REQ_HPMCX);
	return 0;
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_lab_enable);

/* Request 0x40 once: version, capabilities and permission. */
static int gpci_read_caps(struct hvpmu_gpci_pmu *gpci)
{
	const struct hvpmu_gpci_hdr *h = (void *)gpci->buf;
	struct gpci_key key = {
		.request = HVPMU_GPCI_REQ_CAPABILITIES,
		.index = HVPMU_GPCI_INDEX_CURRENT,
	};
	const u8 *e = gpci->buf + HVPMU_GPCI_HDR_SIZE;
	unsigned long flags;
	long rc;

	raw_spin_lock_irqsave(&gpci->lock, flags);
	/* The reply's layout is not known yet: send the LoPAR header. */
	rc = gpci_hcall(gpci, &key);
	if (rc == HVPMU_H_SUCCESS) {
		gpci->version = h->version_out;
		gpci->collect_privileged = e[0];
		/* byte 1 is reserved in LoPAR, the capability mask after */
		gpci->caps = gpci_ext(gpci->version) ? e[1] : 0;
	}
	raw_spin_unlock_irqrestore(&gpci->lock, flags);

	if (rc == HVPMU_H_FUNCTION) {
		pr_info("%s; no hv_gpci PMU\n", gpci_rc_cause(rc));
		return -ENODEV;
	}
	if (rc != HVPMU_H_SUCCESS) {
		pr_warn("capabilities (request 0x40): %s (rc %ld); no hv_gpci PMU\n",
			gpci_rc_cause(rc), rc);
		return gpci_rc_errno(rc);
	}
	return 0;
}

static int gpci_build_events(struct hvpmu_gpci_pmu *gpci)
{
	u32 variant = gpci_variant(gpci->version);
	unsigned int i, n = 0;

	gpci->events = kcalloc(ARRAY_SIZE(gpci_events), sizeof(*gpci->events),
			       GFP_KERNEL);
	if (!gpci->events)
		return -ENOMEM;
	/* Names repeat across layouts: keep only this firmware's. */
	for (i = 0; i < ARRAY_SIZE(gpci_events); i++)
		if (!gpci_events[i].variants ||
		    (gpci_events[i].variants & variant))
			gpci->events[n++] = gpci_events[i];
	gpci->enc = (struct hvpmu_encoding) {
		.fields = gpci_fields,
		.nr_fields = ARRAY_SIZE(gpci_fields),
		.events = gpci->events,
		.nr_events = n,
	};
	return hvpmu_attrs_build(&gpci->attrs, &gpci->enc, U32_MAX);
}

static void gpci_free(struct hvpmu_gpci_pmu *gpci)
{
	hvpmu_attrs_free(&gpci->attrs);
	kfree(gpci->events);
	free_percpu(gpci->txn);
	kfree(gpci->buf);
	kfree(gpci);
}

/**
 * hvpmu_gpci_probe() - find GPCI and register an hv_gpci PMU on it
 * @ops: the backend; @ops->hcall is required
 * @ctx: the backend's context, passed to every op
 * @name: the PMU's name, normally "hv_gpci"
 *
 * Reads the capabilities (request 0x40) once, picks the layouts and named
 * events for the firmware's counter_info_version and registers the PMU.
 * When the hypervisor lacks the hcall (H_FUNCTION, e.g. QEMU), logs one
 * info line and registers nothing.
 *
 * Return: the PMU, or an ERR_PTR: -ENODEV (no LPAR, no GPCI), -EPERM,
 * -EOPNOTSUPP, -EINVAL, -EIO (the capabilities request failed as logged),
 * -ENOMEM, or the error of the registration. Nothing stays registered or
 * allocated on error.
 */
struct hvpmu_gpci_pmu *hvpmu_gpci_probe(const struct hvpmu_gpci_ops *ops,
					void *ctx, const char *name)
{
	struct hvpmu_gpci_pmu *gpci;
	int ret = -ENOMEM;

	if (!ops || !ops->hcall || !name)
		return ERR_PTR(-EINVAL);
	if (ops->lpar_present && !ops->lpar_present(ctx))
		return ERR_PTR(-ENODEV);

	gpci = kzalloc(sizeof(*gpci), GFP_KERNEL);
	if (!gpci)
		return ERR_PTR(-ENOMEM);
	gpci->ops = ops;
	gpci->ctx = ctx;
	INIT_LIST_HEAD(&gpci->attrs.mem);	/* gpci_free() before the build */
	raw_spin_lock_init(&gpci->lock);
	/* kmalloc() aligns power-of-two sizes naturally: never crosses 4K */
	gpci->buf = kmalloc(HVPMU_GPCI_BUF_SIZE, GFP_KERNEL);
	gpci->txn = alloc_percpu(struct gpci_txn);
	if (!gpci->buf || !gpci->txn)
		goto err;
	if (WARN_ON(!IS_ALIGNED((unsigned long)gpci->buf, HVPMU_GPCI_BUF_SIZE)))
		goto err;

	ret = gpci_read_caps(gpci);
	if (ret)
		goto err;
	ret = gpci_build_events(gpci);
	if (ret)
		goto err;

	gpci->groups[0] = &gpci->attrs.format;
	gpci->groups[1] = &gpci->attrs.events;
	gpci->groups[2] = &gpci_iface_group;
	gpci->groups[3] = &hvpmu_uncore_cpumask_group;
	gpci->uncore.pmu = (struct pmu) {
		.module = ops->owner,
		.task_ctx_nr = perf_invalid_context,
		.event_init = gpci_event_init,
		.add = gpci_add,
		.del = gpci_del,
		.start = gpci_start,
		.stop = gpci_stop,
		.read = gpci_read,
		.start_txn = gpci_start_txn,
		.commit_txn = gpci_commit_txn,
		.cancel_txn = gpci_cancel_txn,
		.attr_groups = gpci->groups,
		.capabilities = PERF_PMU_CAP_NO_EXCLUDE |
				PERF_PMU_CAP_NO_INTERRUPT,
	};
	ret = hvpmu_uncore_register(&gpci->uncore, name);
	if (ret) {
		pr_err("%s: registration failed (%d)\n", name, ret);
		goto err;
	}
	pr_info("%s: counter_info_version 0x%x, %u named events, collect_privileged %d\n",
		name, gpci->version, gpci->enc.nr_events,
		gpci->collect_privileged);
	return gpci;
err:
	gpci_free(gpci);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_probe);

/**
 * hvpmu_gpci_remove() - unregister and free a PMU from hvpmu_gpci_probe()
 * @gpci: the PMU; no event may be open on it any more
 */
void hvpmu_gpci_remove(struct hvpmu_gpci_pmu *gpci)
{
	hvpmu_uncore_unregister(&gpci->uncore);
	gpci_free(gpci);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_remove);

/**
 * hvpmu_gpci_encoding() - the field table and named events in use
 * @gpci: the PMU
 *
 * Return: the encoding behind sysfs format/ and events/ (tests parse it).
 */
const struct hvpmu_encoding *hvpmu_gpci_encoding(struct hvpmu_gpci_pmu *gpci)
{
	return &gpci->enc;
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_encoding);

/**
 * hvpmu_gpci_to_pmu() - the perf PMU of an hv_gpci instance
 * @gpci: the PMU
 *
 * Return: the &struct pmu, e.g. for its type.
 */
struct pmu *hvpmu_gpci_to_pmu(struct hvpmu_gpci_pmu *gpci)
{
	return &gpci->uncore.pmu;
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_to_pmu);

/**
 * hvpmu_gpci_hcalls() - number of hcalls the PMU has issued
 * @gpci: the PMU
 *
 * Return: the count since probe, including the capabilities request.
 */
u64 hvpmu_gpci_hcalls(struct hvpmu_gpci_pmu *gpci)
{
	return atomic64_read(&gpci->hcalls);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_hcalls);

MODULE_DESCRIPTION("PAPR H_GetPerformanceCounterInfo (hv_gpci) PMU");
MODULE_LICENSE("GPL");
