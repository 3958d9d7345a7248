// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the T2+ L2 miss source of the CPU PMU
 * (perf_event_l2ctl.c). The hypervisor is a model of VFALLS_GET/SET_PERFREG
 * of PerfReg 1 (sun4v Hypervisor API, vf_perf_api 3.0-3.1): one L2
 * control register per node, reached by the calls made on a CPU of that
 * node; the nodes are the distinct socket ids, in an order that is not
 * documented, so the model offers both. The cases that need two CPUs or
 * CPU hotplug skip on a machine without them.
 *
 * Safe on a real T2+: every case sets up an instance of its own on its
 * own model (sparc_l2ctl_init_ops()), so no case calls the hypervisor.
 * The hotplug cases take CPU 1 offline and bring it back (the suite's
 * exit brings it back after a case that stopped half-way too), which,
 * as any CPU hotplug, runs the CPU PMU's own callbacks: where events
 * hold an L2 setting then, CPU 1's node is written as it comes back.
 * The model knows the first MODEL_CPUS CPUs; the others are on no node.
 */

#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/cred.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <asm/hypervisor.h>

#include "perf_event_l2ctl.h"

#define MODEL_CPUS	64

/* CPU PMU encodings (SL << 8 | mask): SL 3 misses and one SL 2 event. */
#define ENC_L2_IMISS	0x310
#define ENC_L2_DMISS_LD	0x320
#define ENC_DC_MISS	0x302
#define ENC_INSTR_CNT	0x2fd
/* VF 3.0: PERF_CONFIG values in the order the document gives them. */
#define L2_ALL		0
#define L2_LOCAL	1
#define L2_REMOTE	2
#define L2_C2C		3

/**
 * struct l2_model - a modelled T2+ hypervisor, PerfReg 1 only
 * @lock: serialises the calls, which come through IPIs
 * @sock: socket id of each CPU, from 1 as the machine description numbers
 *	them; 0 for a CPU it does not list (on no node). It names the CPU's
 *	chip, which the CPU keeps while it is online.
 * @label: what cpu_socket() answers instead of @sock where @relabelled:
 *	mdesc.c set_sock_ids() ranks the sockets again, in machine
 *	description order, at each dynamic reconfiguration, so the id of
 *	the same chip can change
 * @relabelled: answer @label
 * @nodes_descending: node numbers in decreasing socket id order
 * @access: the domain's perfctraccess; false = ENOACCESS
 * @l2ctl: PERF_CONFIG of each node
 * @gets: GET calls made
 * @sets: SET calls made
 * @socket_reads: cpu_socket() calls made
 * @inj_status: the status of the injected failures of SET
 * @inj_skip: SET calls that still succeed first
 * @inj_count: SET calls that fail
 * @bad: calls made on a CPU that is on no node
 * @ops: what the instance calls
 * @l: the instance under test
 */
struct l2_model {
	raw_spinlock_t lock;
	int sock[MODEL_CPUS];
	int label[MODEL_CPUS];
	bool relabelled;
	bool nodes_descending;
	bool access;
	u64 l2ctl[SPARC_L2CTL_NODES];
	unsigned long gets;
	unsigned long sets;
	unsigned long socket_reads;
	unsigned long inj_status;
	unsigned int inj_skip;
	unsigned int inj_count;
	unsigned long bad;
	struct sparc_l2ctl_ops ops;
	struct sparc_l2ctl l;
};

/*
 * The node of a CPU: the rank of its socket id among the distinct ids, in
 * increasing (or, as the other reading, decreasing) order; -ENODEV for a
 * CPU with socket id 0 (not in the machine description).
 */
static int model_node_locked(struct l2_model *m, unsigned int cpu)
{
	int mine, node = 0;
	unsigned int i, j;

	if (cpu >= MODEL_CPUS || m->sock[cpu] <= 0)
		return -ENODEV;
	mine = m->sock[cpu];
	for (i = 0; i < MODEL_CPUS; i++) {
		int s = m->sock[i];

		if (s <= 0 || s == mine ||
		    (m->nodes_descending ? s < mine : s > mine))
			continue;
		for (j = 0; j < i && m->sock[j] != s; j++)
			;
		if (j == i)
			node++;
	}
	return node < SPARC_L2CTL_NODES ? node : -ENODEV;
}

static int model_node(struct l2_model *m, unsigned int cpu)
{
	unsigned long flags;
	int node;

	raw_spin_lock_irqsave(&m->lock, flags);
	node = model_node_locked(m, cpu);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return node;
}

/* VF 3.1: PerfReg 1 is the calling strand's node's. */
static int model_local_node(struct l2_model *m)
{
	int node = model_node_locked(m, raw_smp_processor_id());

	if (node >= 0)
		return node;
	m->bad++;
	return 0;
}

static unsigned long model_get(void *ctx, u64 *val)
{
	struct l2_model *m = ctx;
	unsigned long flags, status = HV_EOK;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->gets++;
	if (m->access)
		*val = m->l2ctl[model_local_node(m)];
	else
		status = HV_ENOACCESS;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return status;
}

static unsigned long model_set(void *ctx, u64 val)
{
	struct l2_model *m = ctx;
	unsigned long flags, status = HV_EOK;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->sets++;
	if (!m->access) {
		status = HV_ENOACCESS;
	} else if (m->inj_count && !m->inj_skip) {
		m->inj_count--;
		status = m->inj_status;
	} else {
		if (m->inj_count)
			m->inj_skip--;
		/* VF 2.3: only bits 1:0 are PERF_CONFIG. */
		m->l2ctl[model_local_node(m)] = val & SPARC_L2CTL_MASK;
	}
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return status;
}

static int model_cpu_socket(void *ctx, unsigned int cpu)
{
	struct l2_model *m = ctx;

	m->socket_reads++;
	if (cpu >= MODEL_CPUS || m->sock[cpu] < 0)
		return -ENODEV;
	if (READ_ONCE(m->relabelled))
		return READ_ONCE(m->label[cpu]);
	return READ_ONCE(m->sock[cpu]);
}

/* A freshly booted one-chip system: every CPU on socket 1. */
static struct l2_model *model_new(struct kunit *test)
{
	struct l2_model *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	unsigned int cpu;

	KUNIT_ASSERT_NOT_NULL(test, m);
	test->priv = m;
	raw_spin_lock_init(&m->lock);
	m->access = true;
	for (cpu = 0; cpu < MODEL_CPUS; cpu++)
		m->sock[cpu] = 1;
	m->ops = (struct sparc_l2ctl_ops) {
		.get = model_get,
		.set = model_set,
		.cpu_socket = model_cpu_socket,
		.ctx = m,
	};
	return m;
}

/* The next @count SET calls after @skip fail with @status. */
static void model_inject(struct l2_model *m, unsigned long status,
			 unsigned int skip, unsigned int count)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->inj_status = status;
	m->inj_skip = skip;
	m->inj_count = count;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/* CPU 1 is offline and not present because a case took it away. */
static bool l2_cpu1_taken;

static void l2_up(struct kunit *test, struct l2_model *m)
{
	KUNIT_ASSERT_EQ(test, sparc_l2ctl_init_ops(&m->l, &m->ops), 0);
}

static void l2_down(struct l2_model *m)
{
	sparc_l2ctl_free(&m->l);
}

/* The modelled L2 control register that a call made on @cpu reaches. */
static u64 l2_of_cpu(struct kunit *test, struct l2_model *m, unsigned int cpu)
{
	int node = model_node(m, cpu);

	KUNIT_ASSERT_GE(test, node, 0);
	return m->l2ctl[node];
}

/* CPUs 0 and 1 on two sockets, as a two-way T5140 (ids from 1). */
static bool two_sockets(struct l2_model *m, int sock0, int sock1)
{
	unsigned int cpu;

	if (num_online_cpus() < 2 || !cpu_online(0) || !cpu_online(1))
		return false;
	for (cpu = 0; cpu < MODEL_CPUS; cpu++)
		m->sock[cpu] = cpu & 1 ? sock1 : sock0;
	return true;
}

static int ev_get(struct l2_model *m, int cpu, u32 enc, u64 config1)
{
	struct perf_event_attr attr = { .config1 = config1 };

	return sparc_l2ctl_event_get(&m->l, cpu, enc, &attr);
}

static void ev_put(struct l2_model *m, int cpu, u32 enc, u64 config1)
{
	sparc_l2ctl_event_put(&m->l, cpu, enc, config1);
}

/* ev_put(), where ev_get() returned @taken: only if that took something. */
static void ev_put_taken(struct l2_model *m, int taken, int cpu, u32 enc,
			 u64 config1)
{
	if (taken == 1)
		ev_put(m, cpu, enc, config1);
}

/* A call made on @cpu, through the model's ops, as the code makes it. */
struct model_call {
	struct l2_model *m;
	u64 val;
	unsigned long status;
};

static void model_set_here(void *info)
{
	struct model_call *a = info;

	a->status = a->m->ops.set(a->m, a->val);
}

/*
 * The model itself: VF 3.1, PerfReg 1 reaches the L2 of the calling
 * strand's node, whichever way the nodes are numbered.
 */
static void l2_test_model_local(struct kunit *test)
{
	struct l2_model *m = model_new(test);
	struct model_call a = { .m = m };
	unsigned int desc;

	if (!two_sockets(m, 2, 1))
		kunit_skip(test, "needs CPUs 0 and 1 online");
	/* Sockets 2 and 1: increasing order puts CPU 1 on node 0. */
	KUNIT_EXPECT_EQ(test, model_node(m, 0), 1);
	KUNIT_EXPECT_EQ(test, model_node(m, 1), 0);
	m->nodes_descending = true;
	KUNIT_EXPECT_EQ(test, model_node(m, 0), 0);
	KUNIT_EXPECT_EQ(test, model_node(m, 1), 1);
	for (desc = 0; desc < 2; desc++) {
		m->nodes_descending = desc;
		memset(m->l2ctl, 0, sizeof(m->l2ctl));
		a.val = 0x7;	/* only bits 1:0 are PERF_CONFIG (VF 2.3) */
		KUNIT_ASSERT_EQ(test, smp_call_function_single(1, model_set_here,
							       &a, 1), 0);
		KUNIT_EXPECT_EQ(test, a.status, (unsigned long)HV_EOK);
		KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), 3ULL);
		KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), 0ULL);
		a.val = 1;
		KUNIT_ASSERT_EQ(test, smp_call_function_single(0, model_set_here,
							       &a, 1), 0);
		KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), 1ULL);
		KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), 3ULL);
	}
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
}

/* The numbers of vf_perf_api 3.0-3.2, typed in, against the kernel's. */
static void l2_test_spec_numbers(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, HV_VF_PERF_SPARC_CTL, 0);
	KUNIT_EXPECT_EQ(test, HV_VF_PERF_L2_CTL, 1);
	KUNIT_EXPECT_EQ(test, HV_FAST_VF_GET_PERFREG, 0x106);
	KUNIT_EXPECT_EQ(test, HV_FAST_VF_SET_PERFREG, 0x107);
	KUNIT_EXPECT_EQ(test, HV_GRP_VF_CPU, 0x205);
	KUNIT_EXPECT_EQ(test, SPARC_L2CTL_ALL, 0);
	KUNIT_EXPECT_EQ(test, SPARC_L2CTL_LOCAL, 1);
	KUNIT_EXPECT_EQ(test, SPARC_L2CTL_REMOTE, 2);
	KUNIT_EXPECT_EQ(test, SPARC_L2CTL_C2C, 3);
	KUNIT_EXPECT_EQ(test, SPARC_L2CTL_NODES, 4);
}

/* L2 PERF_CONFIG: shared per node, -EBUSY on conflict, back to "all". */
static void l2_test_get(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	if (!two_sockets(m, 1, 2))
		kunit_skip(test, "needs CPUs 0 and 1 online");
	l2_up(test, m);
	m->sets = 0;
	/* Nodes 0 and 1: the sockets of CPU 0 and CPU 1. */
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 1, 4), -EINVAL);
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 2, 0), -EINVAL);
	/* "all" is what the register holds: no write. */
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 1, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 1, L2_REMOTE), -EBUSY);
	sparc_l2ctl_put(&m->l, 1);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);

	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 1, L2_REMOTE), 0);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 1, L2_REMOTE), 0);
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 1, L2_LOCAL), -EBUSY);
	KUNIT_EXPECT_EQ(test, m->sets, 1UL);
	sparc_l2ctl_put(&m->l, 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
	sparc_l2ctl_put(&m->l, 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->sets, 2UL);

	/* A failed write takes nothing. */
	model_inject(m, HV_ENOACCESS, 0, 1);
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 1, L2_C2C), -EACCES);
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 1, L2_LOCAL), 0);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_LOCAL);
	sparc_l2ctl_put(&m->l, 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * The nodes of the CPUs come from their socket ids as the machine
 * description numbers them (mdesc.c set_sock_ids(): from 1, with gaps
 * where sockets have no CPU of ours), one node per distinct id in
 * increasing order, at most four (vf_perf_api 2.0).
 */
static void l2_test_nodes(struct kunit *test)
{
	static const struct {
		const char *what;
		int sock[8];
		int nr;
		s8 node[8];
	} layouts[] = {
		{ "T5140, 2 sockets", { 1, 1, 1, 1, 2, 2, 2, 2 }, 2,
		  { 0, 0, 0, 0, 1, 1, 1, 1 } },
		{ "T5440, 4 sockets", { 1, 2, 3, 4, 1, 2, 3, 4 }, 4,
		  { 0, 1, 2, 3, 0, 1, 2, 3 } },
		{ "4 sockets, CPUs numbered backwards", { 4, 4, 3, 3, 2, 2, 1, 1 }, 4,
		  { 3, 3, 2, 2, 1, 1, 0, 0 } },
		{ "guest on sockets 2 and 4", { 4, 2, 4, 2, -1, -1, -1, -1 }, 2,
		  { 1, 0, 1, 0, -1, -1, -1, -1 } },
		{ "one socket", { 1, 1, 1, 1, 1, 1, 1, 1 }, 1,
		  { 0, 0, 0, 0, 0, 0, 0, 0 } },
		{ "no socket known", { -1, -1, -1, -1, -1, -1, -1, -1 }, 0,
		  { -1, -1, -1, -1, -1, -1, -1, -1 } },
		{ "five sockets", { 1, 2, 3, 4, 5, 1, 2, 3 }, -E2BIG },
	};
	unsigned int i, j;
	s8 node[8];

	for (i = 0; i < ARRAY_SIZE(layouts); i++) {
		KUNIT_EXPECT_EQ_MSG(test, sparc_l2ctl_nodes(layouts[i].sock, 8, node),
				    layouts[i].nr, "%s", layouts[i].what);
		for (j = 0; layouts[i].nr >= 0 && j < 8; j++)
			KUNIT_EXPECT_EQ_MSG(test, node[j], layouts[i].node[j],
					    "%s, CPU %u", layouts[i].what, j);
	}
}

/*
 * Per-CPU and per-task events share one numbering of the nodes. A
 * two-way T5140 has socket ids 1 and 2 (or any two ids, gaps allowed);
 * how the hypervisor numbers its nodes is unknown, so the model tries
 * both orders. Whatever the numbers, a setting must reach the L2 control
 * register of the CPU the event counts on.
 */
static void l2_test_numbering(struct kunit *test)
{
	static const int socks[][2] = { { 1, 2 }, { 5, 2 } };
	struct l2_model *m;
	unsigned int s, desc;

	for (s = 0; s < ARRAY_SIZE(socks); s++) {
		for (desc = 0; desc < 2; desc++) {
			m = model_new(test);
			if (!two_sockets(m, socks[s][0], socks[s][1]))
				kunit_skip(test, "needs CPUs 0 and 1 online");
			m->nodes_descending = desc;
			l2_up(test, m);

			/* A per-task event takes every node. */
			KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_REMOTE), 1);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_REMOTE);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
			/* ... so a per-CPU event sees its setting. */
			KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_LOCAL), -EBUSY);
			/* A plain one opens, holds nothing, counts nowhere. */
			KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_DC_MISS, L2_ALL), 0);
			KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 1, ENC_DC_MISS,
								    L2_ALL));
			KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_DMISS_LD, L2_REMOTE), 1);
			ev_put(m, -1, ENC_L2_IMISS, L2_REMOTE);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
			ev_put(m, 1, ENC_L2_DMISS_LD, L2_REMOTE);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);

			/* Per-CPU events on the two sockets are independent. */
			KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), 1);
			KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_C2C), 1);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_LOCAL);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_C2C);
			/* A per-task event needs both: refused, nothing kept. */
			KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_LOCAL), -EBUSY);
			ev_put(m, 0, ENC_L2_IMISS, L2_LOCAL);
			ev_put(m, 1, ENC_L2_IMISS, L2_C2C);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);

			/* A failed write on the second node undoes the first. */
			model_inject(m, HV_ENOACCESS, 1, 1);
			KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_REMOTE), -EACCES);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
			KUNIT_EXPECT_EQ(test, m->bad, 0UL);
			l2_down(m);
		}
	}
}

/*
 * Take CPU 1 offline, and with @absent out of the present mask too, as
 * sparc64's __cpu_die() does on sun4v once the hypervisor stopped the CPU.
 * Skips the test if it cannot go offline.
 */
static void l2_take_cpu1(struct kunit *test, bool absent)
{
	int ret = remove_cpu(1);

	if (ret)
		kunit_skip(test, "CPU 1 cannot go offline (%d)", ret);
	l2_cpu1_taken = true;
	if (absent)
		set_cpu_present(1, false);
}

/*
 * CPU 0 on socket 1, CPU 1 a CPU the machine description does not list
 * (offline, not present, socket id 0); then set up. Skips the test if
 * CPU 1 cannot be taken offline.
 */
static void l2_up_cpu1_absent(struct kunit *test, struct l2_model *m)
{
	unsigned int cpu;

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || !cpu_online(0) ||
	    !cpu_online(1))
		kunit_skip(test, "needs CPU hotplug and CPUs 0 and 1 online");
	for (cpu = 0; cpu < MODEL_CPUS; cpu++)
		m->sock[cpu] = 0;
	m->sock[0] = 1;
	l2_take_cpu1(test, true);
	l2_up(test, m);
}

/*
 * CPUs 0 and 1 on sockets 1 and 2, then set up. Skips the test without
 * CPU hotplug or without CPUs 0 and 1 online.
 */
static struct l2_model *l2_up_two_hotplug(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	if (!IS_ENABLED(CONFIG_HOTPLUG_CPU) || !two_sockets(m, 1, 2))
		kunit_skip(test, "needs CPU hotplug and CPUs 0 and 1 online");
	l2_up(test, m);
	return m;
}

/*
 * Dynamic reconfiguration adds CPU 1 on socket @sock as ds.c
 * dr_cpu_configure() does: present, then its cpu_data, then add_cpu().
 */
static void l2_add_cpu1(struct kunit *test, struct l2_model *m, int sock)
{
	set_cpu_present(1, true);
	m->sock[1] = sock;
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	l2_cpu1_taken = false;
}

/*
 * On sun4v every CPU below the machine description's max-cpus is possible,
 * but only the CPUs it lists are present and have a socket id; cpu_data()
 * of the others keeps sock_id 0. A logical domain given fewer CPUs than
 * that must not get a socket without CPUs: its L2 setting could never be
 * written, so every per-task miss event (perf stat -e cache-misses <cmd>)
 * failed with ENODEV. CPU 1 plays such a CPU here: offline, not present,
 * socket id 0. Dynamic reconfiguration then adds it as ds.c
 * dr_cpu_configure() does (present, then its cpu_data, then add_cpu()), on
 * the socket of CPU 0: it must share CPU 0's L2 setting.
 */
static void l2_test_absent_cpu(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	l2_up_cpu1_absent(test, m);

	/* One L2 (CPU 0's): a per-task miss event opens, and takes a subset. */
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_DMISS_LD, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_DMISS_LD, L2_REMOTE), 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_REMOTE);
	ev_put(m, -1, ENC_L2_DMISS_LD, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	/* An event on the absent CPU has no L2 to take. */
	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_LOCAL), -ENODEV);

	l2_add_cpu1(test, m, 1);
	/* The same L2 as CPU 0: one setting for both. */
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), 1);
	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_REMOTE), -EBUSY);
	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_LOCAL), 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_LOCAL);
	ev_put(m, 0, ENC_L2_IMISS, L2_LOCAL);
	ev_put(m, 1, ENC_L2_IMISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * A CPU added after setup on a socket of its own gets an L2 of its own,
 * reset to "all" first (a previous user may have left a subset), and
 * per-task events that hold a setting take it there too, so that what
 * they count does not depend on where the task runs.
 */
static void l2_test_added_socket(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	l2_up_cpu1_absent(test, m);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_C2C), 1);

	/* Socket 2; a previous user left "remote" in its L2 register. */
	m->sock[1] = 2;
	m->l2ctl[model_node(m, 1)] = L2_REMOTE;
	l2_add_cpu1(test, m, 2);
	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_LOCAL), -EBUSY);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_C2C);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_C2C);
	ev_put(m, -1, ENC_L2_IMISS, L2_C2C);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	/* Two L2s now: independent per-CPU settings. */
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), 1);
	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_REMOTE), 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
	ev_put(m, 0, ENC_L2_IMISS, L2_LOCAL);
	ev_put(m, 1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * A CPU of a new socket comes online while per-task events hold "remote",
 * and the hypervisor refuses the first writes of its L2 (any status but
 * EOK may come back from VFALLS_SET_PERFREG, vf_perf_api 3.1; EWOULDBLOCK
 * here). Its register keeps "all", so an event may not claim "remote"
 * there: the open that finds the node fails if the write still does not
 * go through, the event already open does not count on that node, and a
 * later open writes it again.
 */
static void l2_test_added_socket_refused(struct kunit *test)
{
	struct l2_model *m = model_new(test);
	int t;

	l2_up_cpu1_absent(test, m);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_REMOTE), 1);
	/*
	 * The write when CPU 1 comes online, and the next open's two (the
	 * node's retry and the open's own): refused.
	 */
	model_inject(m, HV_EWOULDBLOCK, 0, 3);
	m->sets = 0;
	l2_add_cpu1(test, m, 2);
	KUNIT_EXPECT_EQ(test, m->sets, 1UL);
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_REMOTE));
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_DMISS_LD, L2_REMOTE), -EBUSY);
	KUNIT_EXPECT_EQ(test, m->sets, 3UL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	/* Meanwhile the event open does not count on CPU 1 ("all" would). */
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_REMOTE));
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_L2_IMISS, L2_REMOTE));
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_ALL));

	/* The next open writes it again; it goes through. */
	m->sets = 0;
	t = ev_get(m, 1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, t, 1);
	KUNIT_EXPECT_EQ(test, m->sets, 1UL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_REMOTE);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_REMOTE));
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_LOCAL));
	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_LOCAL), -EBUSY);
	ev_put_taken(m, t, 1, ENC_L2_IMISS, L2_REMOTE);
	ev_put(m, -1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);

	/*
	 * Refused once only, when CPU 1 comes online: the next open writes
	 * it again, and counts "remote" there.
	 */
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_REMOTE), 1);
	l2_take_cpu1(test, false);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_DC_MISS, L2_REMOTE), 1);
	model_inject(m, HV_EWOULDBLOCK, 0, 1);
	m->sets = 0;
	l2_add_cpu1(test, m, 2);
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_REMOTE));
	t = ev_get(m, -1, ENC_DC_MISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, t, 1);
	KUNIT_EXPECT_EQ(test, m->sets, 2UL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_REMOTE));
	ev_put_taken(m, t, -1, ENC_DC_MISS, L2_REMOTE);
	ev_put(m, -1, ENC_DC_MISS, L2_REMOTE);
	ev_put(m, 0, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * Not an SL 3 event: needs nothing, may not ask for a subset; config1
 * bits above 1:0 are reserved.
 */
static void l2_test_event(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	l2_up(test, m);
	m->sets = 0;
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_INSTR_CNT, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_INSTR_CNT, L2_LOCAL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_INSTR_CNT, 0x8), -EINVAL);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, 0x4), -EINVAL);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, BIT_ULL(63) | 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);
	/* One socket: every CPU shares node 0. */
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), 1);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_DC_MISS, L2_LOCAL), 1);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_LOCAL);
	ev_put(m, 0, ENC_L2_IMISS, L2_LOCAL);
	ev_put(m, -1, ENC_DC_MISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_ALL);
	l2_down(m);

	/*
	 * A model that cannot tell the CPUs' sockets: no l2ctl, but plain
	 * miss events (generic cache-misses) still open. Set-up says so, and
	 * the CPU PMU then shows no format/l2ctl, since every nonzero value
	 * would fail.
	 */
	m = model_new(test);
	m->ops.cpu_socket = NULL;
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_init_ops(&m->l, &m->ops), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 0, L2_LOCAL), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);
	l2_down(m);
}

/*
 * Set-up makes no call: a machine where perf is never used gets no IPI
 * and no hypercall for l2ctl, nor does one whose events never count L2
 * misses. PERF_CONFIG is read and reset to "all" by the first event that
 * counts them, and a failed write-back leaves the real state on record,
 * so that the next plain miss event writes "all" instead of counting a
 * subset.
 */
static void l2_test_reset(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	/* A previous user left "remote"; every CPU on socket 1. */
	m->l2ctl[0] = L2_REMOTE;
	l2_up(test, m);
	KUNIT_EXPECT_EQ(test, m->gets, 0UL);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_INSTR_CNT, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_INSTR_CNT, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, m->gets, 0UL);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_REMOTE);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_DC_MISS, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->gets, 1UL);
	KUNIT_EXPECT_EQ(test, m->sets, 1UL);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_ALL));

	/* The write-back to "all" fails: the register keeps "c2c". */
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_C2C), 1);
	model_inject(m, HV_ENOACCESS, 0, 1);
	ev_put(m, 0, ENC_L2_IMISS, L2_C2C);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_C2C);
	/*
	 * A plain miss event puts "all" back before it counts (on CPU 0: the
	 * sparc64 run has no other).
	 */
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_ALL));
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_DC_MISS, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_ALL);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_ALL));

	/*
	 * Write-back and read-back both refused: "local" stays on record, so
	 * no plain event counts there, and the next one writes "all".
	 */
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), 1);
	m->access = false;
	ev_put(m, 0, ENC_L2_IMISS, L2_LOCAL);
	m->access = true;
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_LOCAL);
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 0, ENC_L2_IMISS, L2_ALL));
	m->sets = 0;
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->sets, 1UL);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_L2_IMISS, L2_ALL));
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * A domain without global perf-counters access: the hypervisor refuses
 * every PerfReg 1 read and write from boot on (ENOACCESS without the
 * domain's perfctraccess, vf_perf_api 3.2). Nothing in the domain can
 * have changed its nodes' PERF_CONFIG, which holds the hypervisor's
 * default, all L2 misses (vf_perf_api 3.0): the miss events that ask for
 * that (no l2ctl, or l2ctl=0) open and count, as they did before l2ctl
 * existed, with no hypercall that is bound to be refused. Only a subset
 * fails, with EACCES, and takes nothing.
 */
static void l2_test_no_access(struct kunit *test)
{
	struct l2_model *m = model_new(test);
	int t[5];

	m->access = false;
	l2_up(test, m);
	/* Set-up reads, is refused, and writes nothing. */
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);

	/* cache-misses, per CPU and per task, and L2_dmiss_ld */
	t[0] = ev_get(m, 0, ENC_DC_MISS, L2_ALL);
	t[1] = ev_get(m, -1, ENC_DC_MISS, L2_ALL);
	t[2] = ev_get(m, -1, ENC_L2_DMISS_LD, L2_ALL);
	KUNIT_EXPECT_EQ(test, t[0], 0);
	KUNIT_EXPECT_EQ(test, t[1], 0);
	KUNIT_EXPECT_EQ(test, t[2], 0);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_INSTR_CNT, L2_ALL), 0);
	/* They count: the node holds the default. */
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_ALL));
	ev_put_taken(m, t[0], 0, ENC_DC_MISS, L2_ALL);
	ev_put_taken(m, t[1], -1, ENC_DC_MISS, L2_ALL);
	ev_put_taken(m, t[2], -1, ENC_L2_DMISS_LD, L2_ALL);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);

	/* A subset cannot be written: EACCES, nothing taken ... */
	m->sets = 0;
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), -EACCES);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_REMOTE), -EACCES);
	KUNIT_EXPECT_EQ(test, m->sets, 2UL);
	/* ... and "all" still opens after such a refusal, with no write. */
	t[3] = ev_get(m, 0, ENC_L2_IMISS, L2_ALL);
	t[4] = ev_get(m, -1, ENC_L2_IMISS, L2_ALL);
	KUNIT_EXPECT_EQ(test, t[3], 0);
	KUNIT_EXPECT_EQ(test, t[4], 0);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_L2_IMISS, L2_ALL));
	ev_put_taken(m, t[3], 0, ENC_L2_IMISS, L2_ALL);
	ev_put_taken(m, t[4], -1, ENC_L2_IMISS, L2_ALL);
	KUNIT_EXPECT_EQ(test, m->sets, 2UL);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * A subset changes what every event of the node counts: it needs what a
 * CPU-wide event needs. The case drops its own task's capabilities (the
 * credentials of the test's task only, nothing global); where
 * perf_event_paranoid lets everyone open CPU-wide events it cannot show a
 * refusal and skips. Without the privilege, a nonzero l2ctl is refused
 * with EACCES, per CPU and per task, before any hypervisor call, and
 * "all" still opens.
 */
static void l2_test_privilege(struct kunit *test)
{
	struct perf_event_attr remote = { .config1 = L2_REMOTE };
	struct l2_model *m = model_new(test);
	const struct cred *old;
	struct cred *cred;
	int t[2], want;

	l2_up(test, m);
	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_clear(cred->cap_effective);
	old = override_creds(cred);
	want = sparc_l2ctl_may_set(&remote);
	m->sets = 0;
	t[0] = ev_get(m, 0, ENC_L2_IMISS, L2_REMOTE);
	t[1] = ev_get(m, -1, ENC_L2_DMISS_LD, L2_LOCAL);
	revert_creds(old);
	put_cred(cred);
	if (!want) {
		ev_put_taken(m, t[0], 0, ENC_L2_IMISS, L2_REMOTE);
		ev_put_taken(m, t[1], -1, ENC_L2_DMISS_LD, L2_LOCAL);
		l2_down(m);
		kunit_skip(test, "perf_event_paranoid allows CPU-wide events to all");
	}
	KUNIT_EXPECT_EQ(test, want, -EACCES);
	KUNIT_EXPECT_EQ(test, t[0], -EACCES);
	KUNIT_EXPECT_EQ(test, t[1], -EACCES);
	ev_put_taken(m, t[0], 0, ENC_L2_IMISS, L2_REMOTE);
	ev_put_taken(m, t[1], -1, ENC_L2_DMISS_LD, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);

	/* "all" needs nothing more than the event itself. */
	cred = prepare_creds();
	KUNIT_ASSERT_NOT_NULL(test, cred);
	cap_clear(cred->cap_effective);
	old = override_creds(cred);
	t[0] = ev_get(m, 0, ENC_L2_IMISS, L2_ALL);
	t[1] = ev_get(m, -1, ENC_DC_MISS, L2_ALL);
	revert_creds(old);
	put_cred(cred);
	KUNIT_EXPECT_EQ(test, t[0], 0);
	KUNIT_EXPECT_EQ(test, t[1], 0);
	ev_put_taken(m, t[0], 0, ENC_L2_IMISS, L2_ALL);
	ev_put_taken(m, t[1], -1, ENC_DC_MISS, L2_ALL);

	/* With it (the test's own credentials), the same events open. */
	t[0] = ev_get(m, 0, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, t[0], 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_REMOTE);
	ev_put_taken(m, t[0], 0, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * The same on a two-way T5240 guest, whose per-task events take both
 * nodes: a per-task cache-misses event ("perf stat -e cache-misses
 * <cmd>") must not fail on either.
 */
static void l2_test_no_access_nodes(struct kunit *test)
{
	struct l2_model *m = model_new(test);
	int t[4];

	if (!two_sockets(m, 1, 2))
		kunit_skip(test, "needs CPUs 0 and 1 online");
	m->access = false;
	l2_up(test, m);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);
	t[0] = ev_get(m, -1, ENC_DC_MISS, L2_ALL);
	t[1] = ev_get(m, 0, ENC_L2_DMISS_LD, L2_ALL);
	t[2] = ev_get(m, 1, ENC_L2_IMISS, L2_ALL);
	KUNIT_EXPECT_EQ(test, t[0], 0);
	KUNIT_EXPECT_EQ(test, t[1], 0);
	KUNIT_EXPECT_EQ(test, t[2], 0);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_ALL));
	ev_put_taken(m, t[0], -1, ENC_DC_MISS, L2_ALL);
	ev_put_taken(m, t[1], 0, ENC_L2_DMISS_LD, L2_ALL);
	ev_put_taken(m, t[2], 1, ENC_L2_IMISS, L2_ALL);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);

	/* A per-task subset is refused on the first node, nothing kept. */
	m->sets = 0;
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_REMOTE), -EACCES);
	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_C2C), -EACCES);
	t[3] = ev_get(m, -1, ENC_DC_MISS, L2_ALL);
	KUNIT_EXPECT_EQ(test, t[3], 0);
	ev_put_taken(m, t[3], -1, ENC_DC_MISS, L2_ALL);
	KUNIT_EXPECT_EQ(test, m->sets, 2UL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * The model itself: a relabelled CPU answers its new socket id, but its
 * calls still reach the L2 of the chip it is on.
 */
static void l2_test_model_relabel(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	m->sock[0] = 1;
	m->sock[1] = 2;
	m->label[0] = 2;
	m->label[1] = 1;
	KUNIT_EXPECT_EQ(test, m->ops.cpu_socket(m, 0), 1);
	m->relabelled = true;
	KUNIT_EXPECT_EQ(test, m->ops.cpu_socket(m, 0), 2);
	KUNIT_EXPECT_EQ(test, m->ops.cpu_socket(m, 1), 1);
	KUNIT_EXPECT_EQ(test, model_node(m, 0), 0);
	KUNIT_EXPECT_EQ(test, model_node(m, 1), 1);
}

/*
 * Every CPU of a socket goes away: offlined, or removed by dynamic
 * reconfiguration (ldm remove-vcpu: offline, then not present; its
 * cpu_data keeps the old socket id). Its L2 is out of reach and no task
 * runs there, so per-task events take the L2s left, a subset included.
 * When a CPU of it comes back, its L2 gets the setting that per-task
 * events hold, whatever was left in it meanwhile.
 */
static void l2_test_socket_removed(struct kunit *test)
{
	struct l2_model *m;
	unsigned int dr;
	int ret, t;

	for (dr = 0; dr < 2; dr++) {
		m = l2_up_two_hotplug(test);
		l2_take_cpu1(test, dr);

		t = ev_get(m, -1, ENC_L2_IMISS, L2_REMOTE);
		KUNIT_EXPECT_EQ_MSG(test, t, 1, "dr %u", dr);
		KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_REMOTE);
		KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_REMOTE),
				-ENODEV);
		ev_put_taken(m, t, -1, ENC_L2_IMISS, L2_REMOTE);
		KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);

		/* CPU 1's L2 was left at "local" while it was away. */
		t = ev_get(m, -1, ENC_L2_IMISS, L2_C2C);
		KUNIT_EXPECT_EQ_MSG(test, t, 1, "dr %u", dr);
		m->l2ctl[model_node(m, 1)] = L2_LOCAL;
		l2_add_cpu1(test, m, 2);
		ret = ev_get(m, 1, ENC_L2_IMISS, L2_LOCAL);
		KUNIT_EXPECT_EQ_MSG(test, ret, t == 1 ? -EBUSY : 1, "dr %u", dr);
		ev_put_taken(m, ret, 1, ENC_L2_IMISS, L2_LOCAL);
		if (t == 1)
			KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_C2C);
		ev_put_taken(m, t, -1, ENC_L2_IMISS, L2_C2C);
		KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
		KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
		KUNIT_EXPECT_EQ(test, m->bad, 0UL);
		l2_down(m);
	}
}

/*
 * Dynamic reconfiguration adds CPU 1, of another chip whose socket comes
 * first in the new machine description: set_sock_ids() ranks the sockets
 * again, so CPU 1's chip gets socket id 1, which was CPU 0's, and CPU 0's
 * becomes 2. A CPU's node must follow the id it has now: CPU 1's L2 takes
 * the per-task setting and is put back with it, and CPU 0's setting
 * stays on CPU 0's L2.
 */
static void l2_test_renumbered(struct kunit *test)
{
	struct l2_model *m = model_new(test);
	int t;

	l2_up_cpu1_absent(test, m);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), 1);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_DC_MISS, L2_LOCAL), 1);

	/* CPU 1's chip; a previous user left "remote" in its L2. */
	m->sock[1] = 2;
	m->l2ctl[model_node(m, 1)] = L2_REMOTE;
	m->label[0] = 2;
	m->label[1] = 1;
	m->relabelled = true;
	l2_add_cpu1(test, m, 2);

	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_C2C), -EBUSY);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_LOCAL);
	ev_put(m, -1, ENC_DC_MISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);

	/* Two L2s: CPU 1's takes a setting of its own. */
	t = ev_get(m, 1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, t, 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_LOCAL);
	ev_put(m, 0, ENC_L2_IMISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	if (t == 1) {
		KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
		ev_put(m, 1, ENC_L2_IMISS, L2_REMOTE);
	}
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * Dynamic reconfiguration removes CPU 1 and adds it back on a strand of
 * CPU 0's chip (socket id 1): one L2 for both now, whatever CPU 1 was on
 * before.
 */
static void l2_test_moved_cpu(struct kunit *test)
{
	struct l2_model *m = l2_up_two_hotplug(test);
	int t;

	l2_take_cpu1(test, true);
	l2_add_cpu1(test, m, 1);

	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_REMOTE), 1);
	t = ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, t, -EBUSY);
	ev_put_taken(m, t, 0, ENC_L2_IMISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_REMOTE);
	ev_put(m, 1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * The sockets are ranked again while both CPUs stay online (a CPU was
 * added elsewhere): ids 1 and 2 swap. A setting held on one L2 stays
 * there, and each CPU's events still reach its own L2.
 */
static void l2_test_relabel_online(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	if (!two_sockets(m, 1, 2))
		kunit_skip(test, "needs CPUs 0 and 1 online");
	l2_up(test, m);
	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_REMOTE), 1);
	m->label[0] = 2;
	m->label[1] = 1;
	m->relabelled = true;
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_ALL), 0);
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 0, ENC_L2_IMISS, L2_ALL));
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_ALL));
	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_LOCAL), -EBUSY);
	ev_put(m, 0, ENC_L2_IMISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
	ev_put(m, 1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * A CPU of a new socket comes online while only plain miss events are
 * open, which hold nothing: its L2, where a previous user left "remote",
 * is read and put back to "all" as it comes online, so that they count
 * there, and count all misses.
 */
static void l2_test_added_socket_plain(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	l2_up_cpu1_absent(test, m);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_DC_MISS, L2_ALL), 0);
	m->sock[1] = 2;
	m->l2ctl[model_node(m, 1)] = L2_REMOTE;
	l2_add_cpu1(test, m, 2);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 1, ENC_DC_MISS, L2_ALL));
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_ALL));
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * A CPU comes back online while per-task events hold a subset, on a chip
 * whose L2 was left at another setting meanwhile. Its L2 takes the
 * events' setting as the CPU comes online, before any other open, so the
 * events count that subset there from the start; while the CPU is away,
 * nothing claims that its L2 holds anything.
 */
static void l2_test_cpu_back(struct kunit *test)
{
	struct l2_model *m = l2_up_two_hotplug(test);
	int t;

	t = ev_get(m, -1, ENC_L2_IMISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, t, 1);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_LOCAL));
	l2_take_cpu1(test, false);
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_LOCAL));
	m->l2ctl[model_node(m, 1)] = L2_REMOTE;
	l2_add_cpu1(test, m, 2);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_LOCAL);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 1, ENC_L2_IMISS, L2_LOCAL));
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_L2_IMISS, L2_LOCAL));
	ev_put_taken(m, t, -1, ENC_L2_IMISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * A CPU-bound event's CPU goes offline: perf detaches the event for good,
 * so it holds no setting any more, though its fd is still open. When the
 * CPU comes back, here on the other chip, another setting may be taken
 * there, and the detached event's close releases nothing a live one
 * holds.
 */
static void l2_test_dead_holder(struct kunit *test)
{
	struct l2_model *m = l2_up_two_hotplug(test);
	int t;

	KUNIT_EXPECT_EQ(test, ev_get(m, 1, ENC_L2_IMISS, L2_LOCAL), 1);
	l2_take_cpu1(test, true);
	l2_add_cpu1(test, m, 1);
	t = ev_get(m, 1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, t, 1);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
	/* The detached event closes: the live one keeps its setting. */
	ev_put(m, 1, ENC_L2_IMISS, L2_LOCAL);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 1), (u64)L2_REMOTE);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), -EBUSY);
	ev_put_taken(m, t, 1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, l2_of_cpu(test, m, 0), (u64)L2_ALL);
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * A plain miss event (cache-misses, l2ctl 0) holds nothing: it never keeps
 * a subset out, whoever opened it, and it counts only where its node
 * holds "all", so never a subset that another user chose. Other select
 * groups are not concerned.
 */
static void l2_test_plain_holds_nothing(struct kunit *test)
{
	struct l2_model *m = model_new(test);
	int t;

	l2_up(test, m);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_DC_MISS, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_ALL), 0);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_ALL));
	t = ev_get(m, -1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, t, 1);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_REMOTE);
	KUNIT_EXPECT_FALSE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_ALL));
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_REMOTE));
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_INSTR_CNT, L2_ALL));
	/* A plain open meanwhile writes nothing. */
	m->sets = 0;
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_DC_MISS, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_REMOTE);
	ev_put_taken(m, t, -1, ENC_L2_IMISS, L2_REMOTE);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_ALL);
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_ALL));
	KUNIT_EXPECT_EQ(test, m->bad, 0UL);
	l2_down(m);
}

/*
 * Opening and closing miss events while the CPUs stay put reads no socket
 * id and makes no call once the nodes are known and hold the setting:
 * the nodes are derived again only after a CPU came or went.
 */
static void l2_test_steady(struct kunit *test)
{
	struct l2_model *m = model_new(test);
	unsigned int i;

	l2_up(test, m);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_DC_MISS, L2_ALL), 0);
	m->gets = 0;
	m->sets = 0;
	m->socket_reads = 0;
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_DC_MISS, L2_ALL), 0);
		KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_ALL), 0);
	}
	KUNIT_EXPECT_EQ(test, m->socket_reads, 0UL);
	KUNIT_EXPECT_EQ(test, m->gets, 0UL);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);
	KUNIT_EXPECT_EQ(test, m->l2ctl[0], (u64)L2_ALL);
	l2_down(m);
}

/*
 * A T2+ whose firmware offers group 0x202 but not 0x205 (pcr.c falls back
 * to it): no VFALLS_GET/SET_PERFREG to call, so no l2ctl. Every event
 * opens as before, a nonzero l2ctl is refused, and the model is never
 * called.
 */
static void l2_test_no_api(struct kunit *test)
{
	struct l2_model *m = model_new(test);

	sparc_l2ctl_init_off(&m->l);
	m->l.ops = &m->ops;
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_DC_MISS, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_DMISS_LD, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_INSTR_CNT, L2_ALL), 0);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, L2_LOCAL), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ev_get(m, -1, ENC_L2_IMISS, L2_C2C), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_INSTR_CNT, L2_LOCAL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ev_get(m, 0, ENC_L2_IMISS, 0x4), -EINVAL);
	KUNIT_EXPECT_EQ(test, sparc_l2ctl_get(&m->l, 0, L2_LOCAL), -EOPNOTSUPP);
	/* Nothing known, nothing gated. */
	KUNIT_EXPECT_TRUE(test, sparc_l2ctl_counts(&m->l, 0, ENC_DC_MISS, L2_ALL));
	KUNIT_EXPECT_EQ(test, m->gets, 0UL);
	KUNIT_EXPECT_EQ(test, m->sets, 0UL);
	l2_down(m);
}

static struct kunit_case l2_test_cases[] = {
	KUNIT_CASE(l2_test_spec_numbers),
	KUNIT_CASE(l2_test_model_local),
	KUNIT_CASE(l2_test_nodes),
	KUNIT_CASE(l2_test_get),
	KUNIT_CASE(l2_test_numbering),
	KUNIT_CASE(l2_test_absent_cpu),
	KUNIT_CASE(l2_test_added_socket),
	KUNIT_CASE(l2_test_added_socket_refused),
	KUNIT_CASE(l2_test_event),
	KUNIT_CASE(l2_test_reset),
	KUNIT_CASE(l2_test_no_access),
	KUNIT_CASE(l2_test_no_access_nodes),
	KUNIT_CASE(l2_test_privilege),
	KUNIT_CASE(l2_test_no_api),
	KUNIT_CASE(l2_test_model_relabel),
	KUNIT_CASE(l2_test_socket_removed),
	KUNIT_CASE(l2_test_renumbered),
	KUNIT_CASE(l2_test_moved_cpu),
	KUNIT_CASE(l2_test_relabel_online),
	KUNIT_CASE(l2_test_added_socket_plain),
	KUNIT_CASE(l2_test_cpu_back),
	KUNIT_CASE(l2_test_dead_holder),
	KUNIT_CASE(l2_test_steady),
	KUNIT_CASE(l2_test_plain_holds_nothing),
	{}
};

/*
 * After every case, one that stopped half-way included: CPU 1 present and
 * online again if the case took it away, and what the case's instance
 * allocated freed (sparc_l2ctl_free() may be called twice).
 */
static void l2_test_exit(struct kunit *test)
{
	struct l2_model *m = test->priv;

	if (l2_cpu1_taken) {
		set_cpu_present(1, true);
		if (add_cpu(1))
			kunit_err(test, "CPU 1 could not be brought back online\n");
		l2_cpu1_taken = false;
	}
	if (m)
		sparc_l2ctl_free(&m->l);
}

static struct kunit_suite l2_test_suite = {
	.name		= "sparc64_l2ctl",
	.exit		= l2_test_exit,
	.test_cases	= l2_test_cases,
};

kunit_test_suite(l2_test_suite);

MODULE_DESCRIPTION("KUnit tests of the UltraSPARC T2+ L2 miss source (l2ctl)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
