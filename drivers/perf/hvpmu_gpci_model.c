// SPDX-License-Identifier: GPL-2.0
/*
 * Model of PAPR H_GetPerformanceCounterInfo (hcall 0xF080), the hypervisor
 * side of the hv_gpci PMU, for the KUnit tests and the simulated platform.
 *
 * It follows the seed (LoPAR v2.9, "Platform Dependent hcall()s") line by
 * line: the order of the validations (H_Privilege, H_Parameter,
 * H_Not_Available, H_Authority), the parameter block in big-endian, the
 * starting_index semantics and the element layouts. Where Linux's driver
 * (following IBM's non-public getPerfCountInfo documents) differs from the
 * LoPAR text, the model answers with the layout of the firmware version it
 * impersonates: see HVPMU_GPCI_VERSION_EXTENDED.
 */

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf/hvpmu_gpci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <asm/byteorder.h>
#include <asm/unaligned.h>

#define LAB_SLOT	7

enum model_kind { KIND_PROC, KIND_PART, KIND_CHIP };

static enum model_kind ctr_kind(enum hvpmu_gpci_model_ctr ctr)
{
	switch (ctr) {
	case HVPMU_GPCI_M_PROC_TIME:
	case HVPMU_GPCI_M_HPMC1:
	case HVPMU_GPCI_M_HPMC2:
		return KIND_PROC;
	case HVPMU_GPCI_M_ENTITLED ... HVPMU_GPCI_M_RUN_CYCLES:
		return KIND_PART;
	default:
		return KIND_CHIP;
	}
}

static struct hvpmu_gpci_model_entity *
table(struct hvpmu_gpci_model *m, enum model_kind kind, unsigned int *nr)
{
	switch (kind) {
	case KIND_PROC:
		*nr = m->nr_procs;
		return m->procs;
	case KIND_PART:
		*nr = m->nr_parts;
		return m->parts;
	default:
		*nr = m->nr_chips;
		return m->chips;
	}
}

/**
 * hvpmu_gpci_model_init() - a small POWER system with gaps in its tables
 * @m: the model
 * @version: counter_info_version the firmware reports
 *
 * Processors 0-3 and 5-7 (4 is missing, so "first at or after" is visible),
 * the current one is 1; partitions 1, 2, 3 (ours) and 7; chips 0, 1 and 8.
 * Collection is authorised, GA capability only, all counters zero.
 */
void hvpmu_gpci_model_init(struct hvpmu_gpci_model *m, u8 version)
{
	static const u32 proc_ids[] = { 0, 1, 2, 3, 5, 6, 7 };
	static const u32 part_ids[] = { 1, 2, 3, 7 };
	static const u32 chip_ids[] = { 0, 1, 8 };
	unsigned int i;

	memset(m, 0, sizeof(*m));
	raw_spin_lock_init(&m->lock);
	m->implemented = true;
	m->authorised = true;
	m->version = version;
	m->caps = HVPMU_GPCI_CAP_GA;
	m->own_partition = 3;
	m->current_proc = 1;
	for (i = 0; i < ARRAY_SIZE(proc_ids); i++) {
		struct hvpmu_gpci_model_entity *p = &m->procs[i];

		p->id = proc_ids[i];
		p->hw_id = 0x100 + proc_ids[i];
		p->owner = proc_ids[i] < 4 ? 3 : 0xFFFF;
		p->state = proc_ids[i] < 4 ? 6 : 4;	/* dedicated / shared */
		p->chip = proc_ids[i] < 4 ? 0 : 1;
	}
	m->nr_procs = ARRAY_SIZE(proc_ids);
	for (i = 0; i < ARRAY_SIZE(part_ids); i++)
		m->parts[i].id = part_ids[i];
	m->nr_parts = ARRAY_SIZE(part_ids);
	for (i = 0; i < ARRAY_SIZE(chip_ids); i++)
		m->chips[i].id = chip_ids[i];
	m->nr_chips = ARRAY_SIZE(chip_ids);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_model_init);

/* Set (or add to) one counter of one entity: 0, -EINVAL or -ENOENT. */
static int model_update(struct hvpmu_gpci_model *m,
			enum hvpmu_gpci_model_ctr ctr, u32 id, u64 value,
			bool add)
{
	struct hvpmu_gpci_model_entity *t;
	unsigned long flags;
	unsigned int nr, i;
	int ret = -ENOENT;

	if (ctr >= HVPMU_GPCI_M_NR)
		return -EINVAL;
	raw_spin_lock_irqsave(&m->lock, flags);
	t = table(m, ctr_kind(ctr), &nr);
	for (i = 0; i < nr; i++) {
		if (t[i].id == id) {
			t[i].ctr[ctr] = add ? t[i].ctr[ctr] + value : value;
			ret = 0;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return ret;
}

/**
 * hvpmu_gpci_model_set() - set one counter of one entity
 * @m: the model
 * @ctr: the counter; its request decides the table (processor, partition,
 *	chip)
 * @id: the entity's id
 * @value: the new value
 *
 * Return: 0, or -ENOENT if the table has no entity @id.
 */
int hvpmu_gpci_model_set(struct hvpmu_gpci_model *m,
			 enum hvpmu_gpci_model_ctr ctr, u32 id, u64 value)
{
	return model_update(m, ctr, id, value, false);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_model_set);

/**
 * hvpmu_gpci_model_inject() - make calls fail
 * @m: the model
 * @after: how many calls succeed normally first (0: the next call fails)
 * @count: how many calls fail; 0 cancels an injection
 * @rc: the return code they get
 * @detail: the detail_rc written with it (extended layout)
 */
void hvpmu_gpci_model_inject(struct hvpmu_gpci_model *m, unsigned long after,
			     unsigned int count, long rc, u32 detail)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->inj_at = m->calls + after;
	m->inj_count = count;
	m->inj_rc = rc;
	m->inj_detail = detail;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_model_inject);

/**
 * hvpmu_gpci_model_calls() - number of hcalls the model has answered
 * @m: the model
 *
 * Return: the count, including failed calls.
 */
unsigned long hvpmu_gpci_model_calls(struct hvpmu_gpci_model *m)
{
	return READ_ONCE(m->calls);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_model_calls);

static bool extended(const struct hvpmu_gpci_model *m)
{
	return m->version >= HVPMU_GPCI_VERSION_EXTENDED;
}

static void put64(u8 *e, unsigned int off, u64 v)
{
	put_unaligned_be64(v, e + off);
}

/* Element size of each request, in the layout of this firmware version. */
static unsigned int elem_size(const struct hvpmu_gpci_model *m, u32 req)
{
	switch (req) {
	case HVPMU_GPCI_REQ_DISPATCH_BY_PROC:
	case HVPMU_GPCI_REQ_PURR_BY_PART:
		return 0x30;
	case HVPMU_GPCI_REQ_RUN_BY_PART:
		return 0x18;
	case HVPMU_GPCI_REQ_CAPABILITIES:
		return 0x10;
	/*
	 * LoPAR: chip id, 3 reserved words, then an (idle, time) pair per
	 * link. Linux (IBM v1.07): chip id, reserved, one total, then the
	 * idle cycles per link and reserved space.
	 */
	case HVPMU_GPCI_REQ_BUS_ABC:
		return extended(m) ? 0x50 : 0x40;
	case HVPMU_GPCI_REQ_BUS_WXYZ:
		return extended(m) ? 0x60 : 0x50;
	case HVPMU_GPCI_REQ_HPMCX:
		return 0x50;
	}
	return 0;
}

static void fill_elem(const struct hvpmu_gpci_model *m, u32 req,
		      const struct hvpmu_gpci_model_entity *x, u8 *e)
{
	const u64 *c = x->ctr;
	unsigned int i;

	switch (req) {
	case HVPMU_GPCI_REQ_DISPATCH_BY_PROC:
		put64(e, 0x00, c[HVPMU_GPCI_M_PROC_TIME]);
		put_unaligned_be32(x->hw_id, e + 0x08);
		put_unaligned_be16(x->owner, e + 0x0C);
		e[0x0E] = x->state;
		put_unaligned_be32(x->chip, e + 0x10);
		put_unaligned_be32(0, e + 0x14);		/* module */
		put_unaligned_be32(x->chip, e + 0x18);	/* primary domain */
		put_unaligned_be32(0, e + 0x1C);
		put_unaligned_be32(0x00800200, e + 0x20);	/* proc version */
		put_unaligned_be16(x->id, e + 0x24);	/* logical index */
		/* Linux's layout puts the physical index in LoPAR's reserved. */
		if (extended(m))
			put_unaligned_be32(x->id, e + 0x2C);
		break;
	case HVPMU_GPCI_REQ_PURR_BY_PART:
		put64(e, 0x00, x->id);
		for (i = 0; i < 5; i++)
			put64(e, 0x08 + 8 * i, c[HVPMU_GPCI_M_ENTITLED + i]);
		break;
	case HVPMU_GPCI_REQ_RUN_BY_PART:
		put64(e, 0x00, x->id);
		put64(e, 0x08, c[HVPMU_GPCI_M_RUN_INSTR]);
		put64(e, 0x10, c[HVPMU_GPCI_M_RUN_CYCLES]);
		break;
	case HVPMU_GPCI_REQ_BUS_ABC:
	case HVPMU_GPCI_REQ_BUS_WXYZ: {
		bool abc = req == HVPMU_GPCI_REQ_BUS_ABC;
		unsigned int links = abc ? 3 : 4;
		unsigned int idle = abc ? HVPMU_GPCI_M_IDLE_A : HVPMU_GPCI_M_IDLE_W;
		unsigned int time = abc ? HVPMU_GPCI_M_TIME_A : HVPMU_GPCI_M_TIME_W;

		put_unaligned_be32(x->id, e);
		for (i = 0; i < links; i++) {
			if (extended(m)) {
				put64(e, 0x18 + 8 * i, c[idle + i]);
			} else {
				put64(e, 0x10 + 16 * i, c[idle + i]);
				put64(e, 0x18 + 16 * i, c[time + i]);
			}
		}
		if (extended(m))
			put64(e, 0x10, c[abc ? HVPMU_GPCI_M_TOTAL_ABC :
					 HVPMU_GPCI_M_TOTAL_WXYZ]);
		break;
	}
	case HVPMU_GPCI_REQ_HPMCX:
		put_unaligned_be32(x->hw_id, e);
		put64(e, 0x08, m->mmcrh);
		put64(e, 0x18, c[HVPMU_GPCI_M_HPMC1]);
		put64(e, 0x20, c[HVPMU_GPCI_M_HPMC2]);
		break;
	}
}

static bool known_elsewhere(u32 req)
{
	switch (req) {
	case HVPMU_GPCI_REQ_BUS_GX:
	case HVPMU_GPCI_REQ_BUS_MC:
	case HVPMU_GPCI_REQ_CORE_UTIL:
	case HVPMU_GPCI_REQ_PART_QUEUING:
	case HVPMU_GPCI_REQ_SYS_HV_TIMES:
	case HVPMU_GPCI_REQ_SYS_TLBIE:
	case HVPMU_GPCI_REQ_PART_INSTR:
		return true;
	}
	return false;
}

static void count_req(struct hvpmu_gpci_model *m, u32 req)
{
	if (req >= 0x10 && req <= 0x60 && !(req & 0xf))
		m->calls_by_req[req >> 4]++;
	else if (req == HVPMU_GPCI_REQ_HPMCX || req == HVPMU_GPCI_REQ_SET_MMCRH)
		m->calls_by_req[LAB_SLOT]++;
}

/* Returned_values and the header's outputs, in this version's layout. */
static void put_header(const struct hvpmu_gpci_model *m,
		       struct hvpmu_gpci_hdr *h, u32 first, u32 nr, u16 esize,
		       u32 detail)
{
	h->starting_index = cpu_to_be32(first + m->bad_index);
	if (extended(m)) {
		h->returned_values = cpu_to_be16(nr);
		h->detail_rc = cpu_to_be32(detail);
		h->cv_element_size = cpu_to_be16(m->bad_elem_size ?: esize);
	} else {
		/* LoPAR: returned_values is a uint_32 at offset 8. */
		put_unaligned_be32(nr, &h->secondary_index);
	}
	/* LoPAR leaves byte 19 reserved: version 0 reads back as 0. */
	h->version_out = m->version;
}

static long model_call(struct hvpmu_gpci_model *m, u8 *buf,
		       unsigned long size)
{
	struct hvpmu_gpci_hdr *h = (struct hvpmu_gpci_hdr *)buf;
	struct hvpmu_gpci_model_entity *t, one;
	u32 req, idx, own, nr_out = 0, first = 0;
	unsigned int nr, i, esize, room;
	enum model_kind kind;
	bool physical;

	if (m->inj_count && m->calls - 1 >= m->inj_at) {
		m->inj_count--;
		if (extended(m) && size >= HVPMU_GPCI_HDR_SIZE)
			h->detail_rc = cpu_to_be32(m->inj_detail);
		return m->inj_rc;
	}
	if (!m->implemented)
		return HVPMU_H_FUNCTION;

	/* "Validate the getPerformanceInfoParms is accessible" */
	if (((unsigned long)buf & (HVPMU_GPCI_BUF_SIZE - 1)) + size >
	    HVPMU_GPCI_BUF_SIZE) {
		m->misaligned++;
		return HVPMU_H_PRIVILEGE;
	}
	/* "Validate the size and contents", else H_Parameter */
	if (size < HVPMU_GPCI_HDR_SIZE)
		return HVPMU_H_PARAMETER;
	req = be32_to_cpu(h->request);
	idx = be32_to_cpu(h->starting_index);
	count_req(m, req);

	if (req == HVPMU_GPCI_REQ_SET_MMCRH) {
		m->set_mmcrh++;
		if (!(m->caps & HVPMU_GPCI_CAP_LAB) || !extended(m))
			return HVPMU_H_NOT_AVAILABLE;
		if (size < HVPMU_GPCI_HDR_SIZE + 8)
			return HVPMU_H_PARAMETER;
		m->mmcrh = get_unaligned_be64(buf + HVPMU_GPCI_HDR_SIZE);
		return HVPMU_H_SUCCESS;
	}
	esize = elem_size(m, req);
	if (!esize) {
		if (known_elsewhere(req))
			return HVPMU_H_NOT_AVAILABLE;
		m->unknown_req++;
		return HVPMU_H_PARAMETER;
	}
	/* Only the extended layout has a secondary index, unused here. */
	if (extended(m) && h->secondary_index)
		return HVPMU_H_PARAMETER;

	/* "Validate information is available for the firmware level" */
	if (req == HVPMU_GPCI_REQ_CAPABILITIES &&
	    idx != HVPMU_GPCI_INDEX_CURRENT)
		return HVPMU_H_NOT_AVAILABLE;	/* seed: 0x40 needs -1 */
	if (m->version >= HVPMU_GPCI_VERSION_DEPRECATES &&
	    (req == HVPMU_GPCI_REQ_RUN_BY_PART ||
	     req == HVPMU_GPCI_REQ_BUS_ABC || req == HVPMU_GPCI_REQ_BUS_WXYZ))
		return HVPMU_H_NOT_AVAILABLE;
	if (req == HVPMU_GPCI_REQ_HPMCX &&
	    (!(m->caps & HVPMU_GPCI_CAP_LAB) || !extended(m)))
		return HVPMU_H_NOT_AVAILABLE;

	if (req == HVPMU_GPCI_REQ_CAPABILITIES) {
		u8 *e = buf + HVPMU_GPCI_HDR_SIZE;

		memset(e, 0, esize);
		e[0] = m->authorised;
		/* Byte 1 is reserved in LoPAR, the capability mask in Linux. */
		if (extended(m))
			e[1] = m->caps;
		put_header(m, h, m->own_partition, 1, esize, 0);
		return HVPMU_H_SUCCESS;
	}

	switch (req) {
	case HVPMU_GPCI_REQ_DISPATCH_BY_PROC:
	case HVPMU_GPCI_REQ_HPMCX:
		kind = KIND_PROC;
		break;
	case HVPMU_GPCI_REQ_PURR_BY_PART:
	case HVPMU_GPCI_REQ_RUN_BY_PART:
		kind = KIND_PART;
		break;
	default:
		kind = KIND_CHIP;
	}
	t = table(m, kind, &nr);

	/* "Validate partition is permitted", else H_Authority */
	own = kind == KIND_PART ? m->own_partition : HVPMU_GPCI_INDEX_CURRENT;
	physical = kind != KIND_PART ||
		   (idx != HVPMU_GPCI_INDEX_CURRENT && idx != own);
	if (physical && !m->authorised)
		return HVPMU_H_AUTHORITY;

	if (idx == HVPMU_GPCI_INDEX_CURRENT) {
		/* "only information for the current processor/partition" */
		u32 want = kind == KIND_PROC ? m->current_proc :
			   kind == KIND_PART ? m->own_partition : 0;

		if (kind == KIND_CHIP)
			for (i = 0; i < m->nr_procs; i++)
				if (m->procs[i].id == m->current_proc)
					want = m->procs[i].chip;
		for (i = 0; i < nr && t[i].id != want; i++)
			;
		if (i == nr)
			return HVPMU_H_PARAMETER;
		one = t[i];
		t = &one;
		nr = 1;
		i = 0;
	} else {
		/* "the actual first processor/partition id that was found" */
		for (i = 0; i < nr && t[i].id < idx; i++)
			;
	}
	room = (size - HVPMU_GPCI_HDR_SIZE) / esize;
	if (i < nr)
		first = t[i].id;
	else
		first = idx;	/* none found: zero elements (inferred) */
	memset(buf + HVPMU_GPCI_HDR_SIZE, 0, size - HVPMU_GPCI_HDR_SIZE);
	for (; i < nr && nr_out < room; i++, nr_out++)
		fill_elem(m, req, &t[i],
			  buf + HVPMU_GPCI_HDR_SIZE + nr_out * esize);
	/*
	 * More data than room: the elements that fit are returned with
	 * H_Parameter and detail_rc 0x1B (Linux ad86d7ee43b2; the extended
	 * layout only, LoPAR has no detail_rc).
	 */
	if (i < nr && extended(m)) {
		put_header(m, h, first, nr_out, esize,
			   HVPMU_GPCI_DETAIL_BUF_TOO_SMALL);
		return HVPMU_H_PARAMETER;
	}
	put_header(m, h, first, nr_out, esize, 0);
	return HVPMU_H_SUCCESS;
}

/**
 * hvpmu_gpci_model_hcall() - answer one H_GetPerformanceCounterInfo call
 * @m: the model
 * @buf: the parameter block (header and counter_value area)
 * @size: its size in bytes
 *
 * Counts the call, applies an injected error if one is due, then validates
 * and answers as the seed describes.
 *
 * Return: the PAPR return code.
 */
long hvpmu_gpci_model_hcall(struct hvpmu_gpci_model *m, void *buf,
			    unsigned long size)
{
	unsigned long flags;
	long rc;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->calls++;
	rc = model_call(m, buf, size);
	m->last_rc = rc;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return rc;
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_model_hcall);

static long model_ops_hcall(void *ctx, void *buf, unsigned long size)
{
	return hvpmu_gpci_model_hcall(ctx, buf, size);
}

static bool model_ops_lpar(void *ctx)
{
	return true;
}

/* Backend ops whose context is a &struct hvpmu_gpci_model. */
const struct hvpmu_gpci_ops hvpmu_gpci_model_ops = {
	.hcall = model_ops_hcall,
	.lpar_present = model_ops_lpar,
	.owner = THIS_MODULE,
};
EXPORT_SYMBOL_GPL(hvpmu_gpci_model_ops);

/*
 * The simulated platform: hv_gpci on this model, with debugfs files to set
 * counters, inject errors and read the call counters. The line formats are
 * documented in Documentation/admin-guide/perf/hvpmu-gpci.rst.
 */

/* counter_info_version of the simulated firmware: 8 is POWER9/10 PowerVM. */
static unsigned char gpci_sim_version = 8;
module_param(gpci_sim_version, byte, 0444);
MODULE_PARM_DESC(gpci_sim_version,
		 "counter_info_version of the simulated hv_gpci firmware (default 8; below 8 has requests 0x30/0x50/0x60)");

static const char *const sim_kinds[] = {
	[KIND_PROC] = "processor",
	[KIND_PART] = "partition",
	[KIND_CHIP] = "chip",
};

static const char *const sim_ctrs[HVPMU_GPCI_M_NR] = {
	[HVPMU_GPCI_M_PROC_TIME] = "processor_time",
	[HVPMU_GPCI_M_ENTITLED] = "entitled_cycles",
	[HVPMU_GPCI_M_CAPPED] = "capped_cycles",
	[HVPMU_GPCI_M_UNCAPPED] = "uncapped_cycles",
	[HVPMU_GPCI_M_DONATED] = "donated_cycles",
	[HVPMU_GPCI_M_IDLE] = "idle_cycles",
	[HVPMU_GPCI_M_RUN_INSTR] = "run_instructions",
	[HVPMU_GPCI_M_RUN_CYCLES] = "run_cycles",
	[HVPMU_GPCI_M_IDLE_A] = "idle_a",
	[HVPMU_GPCI_M_IDLE_B] = "idle_b",
	[HVPMU_GPCI_M_IDLE_C] = "idle_c",
	[HVPMU_GPCI_M_TIME_A] = "time_a",
	[HVPMU_GPCI_M_TIME_B] = "time_b",
	[HVPMU_GPCI_M_TIME_C] = "time_c",
	[HVPMU_GPCI_M_TOTAL_ABC] = "total_abc",
	[HVPMU_GPCI_M_IDLE_W] = "idle_w",
	[HVPMU_GPCI_M_IDLE_X] = "idle_x",
	[HVPMU_GPCI_M_IDLE_Y] = "idle_y",
	[HVPMU_GPCI_M_IDLE_Z] = "idle_z",
	[HVPMU_GPCI_M_TIME_W] = "time_w",
	[HVPMU_GPCI_M_TIME_X] = "time_x",
	[HVPMU_GPCI_M_TIME_Y] = "time_y",
	[HVPMU_GPCI_M_TIME_Z] = "time_z",
	[HVPMU_GPCI_M_TOTAL_WXYZ] = "total_wxyz",
	[HVPMU_GPCI_M_HPMC1] = "hpmc1",
	[HVPMU_GPCI_M_HPMC2] = "hpmc2",
};

static const struct {
	const char *name;
	long rc;
} sim_rcs[] = {
	{ "H_HARDWARE", HVPMU_H_HARDWARE },
	{ "H_FUNCTION", HVPMU_H_FUNCTION },
	{ "H_PRIVILEGE", HVPMU_H_PRIVILEGE },
	{ "H_PARAMETER", HVPMU_H_PARAMETER },
	{ "H_AUTHORITY", HVPMU_H_AUTHORITY },
	{ "H_NOT_AVAILABLE", HVPMU_H_NOT_AVAILABLE },
};

/* Next blank-separated word of *s, or NULL. */
static char *sim_word(char **s)
{
	char *w;

	do {
		w = strsep(s, " \t");
	} while (w && !*w);
	return w;
}

/* Call @fn on each line of @text; empty lines and "#" comments skipped. */
static int sim_lines(struct hvpmu_gpci_model *m, char *text,
		     int (*fn)(struct hvpmu_gpci_model *m, char *line))
{
	char *line;
	int ret;

	while ((line = strsep(&text, "\n"))) {
		line = strim(line);
		if (!*line || *line == '#')
			continue;
		ret = fn(m, line);
		if (ret)
			return ret;
	}
	return 0;
}

/* "partition 3 entitled_cycles += 1000" or "chip 8 idle_a = 0x10" */
static int sim_inject_line(struct hvpmu_gpci_model *m, char *line)
{
	char *kind, *name, *op, *ids, *vals;
	unsigned int c;
	u64 val;
	u32 id;

	kind = sim_word(&line);
	ids = sim_word(&line);
	name = sim_word(&line);
	op = sim_word(&line);
	vals = sim_word(&line);
	if (!vals || sim_word(&line))
		return -EINVAL;
	for (c = 0; c < HVPMU_GPCI_M_NR; c++)
		if (!strcmp(name, sim_ctrs[c]))
			break;
	if (c == HVPMU_GPCI_M_NR || strcmp(kind, sim_kinds[ctr_kind(c)]))
		return -EINVAL;
	if (kstrtou32(ids, 0, &id) || kstrtou64(vals, 0, &val))
		return -EINVAL;
	if (strcmp(op, "=") && strcmp(op, "+="))
		return -EINVAL;
	return model_update(m, c, id, val, op[0] == '+');
}

/**
 * hvpmu_gpci_sim_inject() - set or advance model counters from text
 * @m: the model
 * @text: NUL-terminated lines "<processor|partition|chip> <id> <counter>
 *	<=|+=> <value>" (modified in place)
 *
 * Lines before a bad one are applied.
 *
 * Return: 0; -EINVAL for a malformed line, an unknown counter or a counter
 * of another kind of entity; -ENOENT for an entity the model has not.
 */
int hvpmu_gpci_sim_inject(struct hvpmu_gpci_model *m, char *text)
{
	return sim_lines(m, text, sim_inject_line);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_sim_inject);

static int sim_rc(const char *s, long *rc)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sim_rcs); i++) {
		if (!strcmp(s, sim_rcs[i].name)) {
			*rc = sim_rcs[i].rc;
			return 0;
		}
	}
	return kstrtol(s, 0, rc);
}

/*
 * "H_AUTHORITY 2 [after 5] [detail 0x1b]", "clear", "collection off|on",
 * "index_skew -1", "element_size 8"
 */
static int sim_error_line(struct hvpmu_gpci_model *m, char *line)
{
	char *w = sim_word(&line), *arg = sim_word(&line), *key;
	unsigned long flags, after = 0;
	unsigned int count;
	u32 detail = 0;
	long rc;
	int ret;

	if (!strcmp(w, "clear") && !arg) {
		raw_spin_lock_irqsave(&m->lock, flags);
		m->inj_count = 0;
		m->bad_index = 0;
		m->bad_elem_size = 0;
		m->authorised = true;
		raw_spin_unlock_irqrestore(&m->lock, flags);
		return 0;
	}
	if (!arg)
		return -EINVAL;
	if (!strcmp(w, "collection")) {
		if (sim_word(&line) ||
		    (strcmp(arg, "on") && strcmp(arg, "off")))
			return -EINVAL;
		WRITE_ONCE(m->authorised, !strcmp(arg, "on"));
		return 0;
	}
	if (!strcmp(w, "index_skew")) {
		s32 skew;

		if (sim_word(&line) || kstrtos32(arg, 0, &skew))
			return -EINVAL;
		WRITE_ONCE(m->bad_index, skew);
		return 0;
	}
	if (!strcmp(w, "element_size")) {
		u16 size;

		if (sim_word(&line) || kstrtou16(arg, 0, &size))
			return -EINVAL;
		WRITE_ONCE(m->bad_elem_size, size);
		return 0;
	}
	if (sim_rc(w, &rc) || rc == HVPMU_H_SUCCESS ||
	    kstrtouint(arg, 0, &count) || !count)
		return -EINVAL;
	while ((key = sim_word(&line))) {
		arg = sim_word(&line);
		if (!arg)
			return -EINVAL;
		if (!strcmp(key, "after"))
			ret = kstrtoul(arg, 0, &after);
		else if (!strcmp(key, "detail"))
			ret = kstrtou32(arg, 0, &detail);
		else
			ret = -EINVAL;
		if (ret)
			return -EINVAL;
	}
	hvpmu_gpci_model_inject(m, after, count, rc, detail);
	return 0;
}

/**
 * hvpmu_gpci_sim_error() - set error conditions of the model from text
 * @m: the model
 * @text: NUL-terminated lines (modified in place): "<rc> <count> [after <n>]
 *	[detail <d>]" fails <count> calls after <n> good ones with <rc>
 *	(H_HARDWARE, H_FUNCTION, H_PRIVILEGE, H_PARAMETER, H_AUTHORITY,
 *	H_NOT_AVAILABLE or a number); "collection off|on" revokes or grants
 *	performance information collection; "index_skew <n>" and
 *	"element_size <n>" corrupt replies (0: off); "clear" undoes all.
 *
 * Lines before a bad one are applied.
 *
 * Return: 0, or -EINVAL for a malformed line.
 */
int hvpmu_gpci_sim_error(struct hvpmu_gpci_model *m, char *text)
{
	return sim_lines(m, text, sim_error_line);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_sim_error);

/**
 * hvpmu_gpci_sim_calls() - print the model's call counters
 * @m: the model
 * @s: where to print, one "name value" per line
 */
void hvpmu_gpci_sim_calls(struct hvpmu_gpci_model *m, struct seq_file *s)
{
	unsigned long by_req[ARRAY_SIZE(m->calls_by_req)];
	unsigned long calls, unknown, mmcrh, misaligned, flags;
	unsigned int i, pending;
	bool authorised;
	long last_rc;

	raw_spin_lock_irqsave(&m->lock, flags);
	calls = m->calls;
	memcpy(by_req, m->calls_by_req, sizeof(by_req));
	unknown = m->unknown_req;
	mmcrh = m->set_mmcrh;
	misaligned = m->misaligned;
	last_rc = m->last_rc;
	pending = m->inj_count;
	authorised = m->authorised;
	raw_spin_unlock_irqrestore(&m->lock, flags);

	seq_printf(s, "hcalls %lu\n", calls);
	for (i = 1; i <= 6; i++)
		seq_printf(s, "request_0x%x0 %lu\n", i, by_req[i]);
	seq_printf(s, "request_lab %lu\n", by_req[LAB_SLOT]);
	seq_printf(s, "unknown_request %lu\nset_mmcrh %lu\nmisaligned %lu\n",
		   unknown, mmcrh, misaligned);
	seq_printf(s, "last_rc %ld\npending_errors %u\ncollection %s\n",
		   last_rc, pending, authorised ? "on" : "off");
	seq_printf(s, "counter_info_version %u\n", m->version);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_sim_calls);

/* The simulated instance; sim_lock orders the files against sim_exit. */
static DEFINE_MUTEX(sim_lock);
static struct hvpmu_gpci_model *sim_model;
static struct hvpmu_gpci_pmu *sim_pmu;
static struct hvpmu_gpci_ops sim_ops;

static ssize_t sim_write(const char __user *ubuf, size_t len,
			 int (*parse)(struct hvpmu_gpci_model *m, char *text))
{
	char *buf;
	int ret;

	if (len > PAGE_SIZE)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&sim_lock);
	ret = sim_model ? parse(sim_model, buf) : -ENODEV;
	mutex_unlock(&sim_lock);
	kfree(buf);
	return ret ?: len;
}

static ssize_t sim_inject_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	return sim_write(ubuf, len, hvpmu_gpci_sim_inject);
}

static ssize_t sim_error_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	return sim_write(ubuf, len, hvpmu_gpci_sim_error);
}

static const struct file_operations sim_inject_fops = {
	.owner = THIS_MODULE,
	.write = sim_inject_write,
	.llseek = noop_llseek,
};

static const struct file_operations sim_error_fops = {
	.owner = THIS_MODULE,
	.write = sim_error_write,
	.llseek = noop_llseek,
};

static int sim_calls_show(struct seq_file *s, void *unused)
{
	int ret = 0;

	mutex_lock(&sim_lock);
	if (sim_model)
		hvpmu_gpci_sim_calls(sim_model, s);
	else
		ret = -ENODEV;
	mutex_unlock(&sim_lock);
	return ret;
}
DEFINE_SHOW_ATTRIBUTE(sim_calls);

/**
 * hvpmu_gpci_sim_start() - hv_gpci on the model, for the simulated platform
 * @dir: debugfs directory for the files inject, error and calls
 * @owner: module owning the PMU: perf pins it while an event is open, so
 *	it must be the module that calls hvpmu_gpci_sim_exit()
 *
 * Use hvpmu_gpci_sim_init(), which passes the caller's module. The model
 * is hvpmu_gpci_model_init()'s system at counter_info_version
 * gpci_sim_version, collection allowed, GA capability.
 *
 * Return: 0; -EBUSY if already started; -ENODEV if the driver is a module
 * and the models are built in; -ENOMEM; or hvpmu_gpci_probe()'s error.
 * Nothing is left registered on error.
 */
int hvpmu_gpci_sim_start(struct dentry *dir, struct module *owner)
{
	struct hvpmu_gpci_model *m;
	struct hvpmu_gpci_pmu *pmu;
	int ret = 0;

	if (!IS_REACHABLE(CONFIG_HVPMU_GPCI))
		return -ENODEV;
	mutex_lock(&sim_lock);
	if (sim_model) {
		ret = -EBUSY;
		goto out;
	}
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m) {
		ret = -ENOMEM;
		goto out;
	}
	hvpmu_gpci_model_init(m, gpci_sim_version);
	sim_ops = hvpmu_gpci_model_ops;
	sim_ops.owner = owner;
	pmu = hvpmu_gpci_probe(&sim_ops, m, "hv_gpci");
	if (IS_ERR(pmu)) {
		kfree(m);
		ret = PTR_ERR(pmu);
		goto out;
	}
	sim_model = m;
	sim_pmu = pmu;
	debugfs_create_file("inject", 0200, dir, NULL, &sim_inject_fops);
	debugfs_create_file("error", 0200, dir, NULL, &sim_error_fops);
	debugfs_create_file("calls", 0444, dir, NULL, &sim_calls_fops);
out:
	mutex_unlock(&sim_lock);
	return ret;
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_sim_start);

/**
 * hvpmu_gpci_sim_exit() - undo hvpmu_gpci_sim_init()
 *
 * Unregisters the PMU (no event may be open: its owner module is pinned
 * while one is), then frees the model. The files stay in the caller's
 * directory, which the caller removes (before or after this call); until
 * then they fail with ENODEV. Safe to call when not started.
 */
void hvpmu_gpci_sim_exit(void)
{
	mutex_lock(&sim_lock);
	if (IS_REACHABLE(CONFIG_HVPMU_GPCI) && sim_pmu)
		hvpmu_gpci_remove(sim_pmu);
	sim_pmu = NULL;
	kfree(sim_model);
	sim_model = NULL;
	mutex_unlock(&sim_lock);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_sim_exit);

/**
 * hvpmu_gpci_sim_pmu() - the simulated hv_gpci PMU
 *
 * Return: the PMU hvpmu_gpci_sim_init() registered, or NULL.
 */
struct hvpmu_gpci_pmu *hvpmu_gpci_sim_pmu(void)
{
	return READ_ONCE(sim_pmu);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_sim_pmu);

/**
 * hvpmu_gpci_sim_model() - the model behind the simulated hv_gpci PMU
 *
 * Return: the model, or NULL when the simulated platform is not up.
 */
struct hvpmu_gpci_model *hvpmu_gpci_sim_model(void)
{
	return READ_ONCE(sim_model);
}
EXPORT_SYMBOL_GPL(hvpmu_gpci_sim_model);

MODULE_LICENSE("GPL");
