// SPDX-License-Identifier: GPL-2.0
/*
 * The L2 miss source of the UltraSPARC T2+ (Victoria Falls) CPU PMU.
 *
 * The events of select group SL 3 (IC_miss, DC_miss, L2_imiss,
 * L2_dmiss_ld) count all L2 misses, or only those served from local
 * memory, from remote memory or by cache-to-cache transfers, as
 * PERF_CONFIG of the L2 control register selects (sun4v Hypervisor API,
 * vf_perf_api 3.0). Only the hypervisor can write it: VFALLS_SET_PERFREG
 * of PerfReg 1, which reaches the L2 of the calling strand's node (3.1).
 * One T2+ chip, a node, has one L2 and one such register, shared by all
 * its strands; a system has at most four (2.0).
 *
 * So the setting is taken per node by the events that count on it: an
 * event on a CPU takes its node's, a per-task event takes every node's,
 * since its task may run anywhere. Users asking for the same setting
 * share it; another setting is refused with EBUSY while it is taken. A
 * plain miss event takes "all" too, so that it never silently counts a
 * subset that another user chose.
 *
 * A domain without global perf access (the hypervisor answers ENOACCESS
 * to PerfReg 1 from boot on) cannot change the setting, so its nodes hold
 * the hypervisor's default, all misses: plain miss events count there as
 * they did before, with no call that is bound to be refused, and only a
 * subset fails, with EACCES. Firmware without group 0x205 has no PerfReg
 * 1 call at all: a subset is refused with EOPNOTSUPP there.
 *
 * A subset changes what every event of the node counts, whoever opened
 * it, and keeps other settings out: asking for one needs what a CPU-wide
 * event needs (perf_allow_cpu(): CAP_PERFMON, or perf_event_paranoid of
 * 0 or less), for per-task events as well.
 *
 * The nodes are told apart by the CPUs' socket ids (mdesc.c
 * set_sock_ids()). On sun4v every CPU below the machine description's
 * max-cpus is possible, but only those it lists have a socket id: the
 * others keep sock_id 0, a socket without CPUs, whose setting could never
 * be written. So only online CPUs are mapped, each when it is first seen
 * online: dynamic reconfiguration (ds.c dr_cpu_configure()) marks a CPU
 * present before it fills in its cpu_data.
 */

#define pr_fmt(fmt) "perf: T2+ l2ctl: " fmt

#include <kunit/visibility.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <asm/cpudata.h>
#include <asm/hypervisor.h>

#include "perf_event_l2ctl.h"

/*
 * The hardware: VFALLS_GET/SET_PERFREG of PerfReg 1 and the socket ids of
 * the machine description. The KUnit suite installs a model of them
 * instead, through sparc_l2ctl_init_ops(). (A static stub would not do:
 * the calls are made on a CPU of the node, through an IPI, not in the
 * test's task.)
 */
static unsigned long l2_vf_get(void *ctx, u64 *val)
{
	unsigned long st, v;

	st = sun4v_vfalls_getperf(HV_VF_PERF_L2_CTL, &v);
	if (st == HV_EOK)
		*val = v;
	return st;
}

static unsigned long l2_vf_set(void *ctx, u64 val)
{
	return sun4v_vfalls_setperf(HV_VF_PERF_L2_CTL, val);
}

/* Only equality matters: the nodes are numbered here. */
static int l2_vf_cpu_socket(void *ctx, unsigned int cpu)
{
	return cpu_data(cpu).sock_id;
}

static const struct sparc_l2ctl_ops l2_vf_ops = {
	.get		= l2_vf_get,
	.set		= l2_vf_set,
	.cpu_socket	= l2_vf_cpu_socket,
};

static unsigned long l2_hv_get(const struct sparc_l2ctl *l, u64 *val)
{
	return l->ops->get(l->ops->ctx, val);
}

static unsigned long l2_hv_set(const struct sparc_l2ctl *l, u64 val)
{
	return l->ops->set(l->ops->ctx, val);
}

static int l2_cpu_socket(const struct sparc_l2ctl *l, unsigned int cpu)
{
	return l->ops->cpu_socket(l->ops->ctx, cpu);
}

static int l2_errno(unsigned long status)
{
	switch (status) {
	case HV_EOK:
		return 0;
	case HV_ENOACCESS:
		return -EACCES;
	case HV_EWOULDBLOCK:
		return -EBUSY;
	case HV_EBADTRAP:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

/* One PerfReg 1 call, made on a CPU of the node whose register it is. */
struct l2_call {
	struct sparc_l2ctl *l;
	bool set;
	u64 val;
	unsigned long status;
};

static void l2_here(void *info)
{
	struct l2_call *a = info;

	if (a->set)
		a->status = l2_hv_set(a->l, a->val);
	else
		a->status = l2_hv_get(a->l, &a->val);
}

/*
 * Make the call on an online CPU of @node. Called with the lock held.
 * Return: 0 and the call in *@a, or -ENODEV if no CPU of @node is online.
 */
static int l2_call(struct sparc_l2ctl *l, unsigned int node, struct l2_call *a)
{
	unsigned int cpu;

	a->l = l;
	for_each_online_cpu(cpu) {
		if (l->cpu_node[cpu] != node)
			continue;
		/* -ENXIO: it went offline meanwhile; try another one. */
		if (!smp_call_function_single(cpu, l2_here, a, 1))
			return 0;
	}
	return -ENODEV;
}

/*
 * Set a node's PERF_CONFIG and keep track of what it holds: on failure,
 * read it back, so that the next user knows whether to write. A refused
 * write changed nothing, so what was known stays known. Called with the
 * lock held.
 */
static int l2_set(struct sparc_l2ctl *l, unsigned int node, unsigned int mode)
{
	struct l2_call a = { .set = true, .val = mode };
	unsigned long status;
	int ret;

	ret = l2_call(l, node, &a);
	if (ret) {
		pr_warn_ratelimited("no online CPU on socket %d to write its L2 PERF_CONFIG\n",
				    l->sock[node]);
		return ret;
	}
	if (a.status == HV_EOK) {
		l->hw[node] = mode;
		return 0;
	}
	pr_warn_ratelimited("socket %d: writing L2 PERF_CONFIG (PerfReg 1) failed: status %lu\n",
			    l->sock[node], a.status);
	status = a.status;
	ret = l2_errno(status);
	a = (struct l2_call) { .set = false };
	if (!l2_call(l, node, &a) && a.status == HV_EOK)
		l->hw[node] = a.val & SPARC_L2CTL_MASK;
	else if (status != HV_ENOACCESS)
		l->hw[node] = -1;
	return ret;
}

/*
 * Bring a node found just now to the setting it must hold: what the
 * per-task events hold, or else "all" (a previous user, or the firmware,
 * may have left a subset selected). A node that cannot be written stays
 * unknown and is written by its next user. A node the domain has no
 * access to holds the hypervisor's default, "all" (vf_perf_api 3.0),
 * which only a domain with access can change. Called with the lock held.
 */
static void l2_settle(struct sparc_l2ctl *l, unsigned int node)
{
	struct l2_call a = { .set = false };
	unsigned int mode = SPARC_L2CTL_ALL;

	if (l->task_users)
		mode = l->task_mode;
	l->mode[node] = mode;
	l->users[node] = l->task_users;
	l->hw[node] = -1;
	if (!l2_call(l, node, &a)) {
		if (a.status == HV_EOK) {
			l->hw[node] = a.val & SPARC_L2CTL_MASK;
		} else if (a.status == HV_ENOACCESS) {
			l->hw[node] = SPARC_L2CTL_ALL;
			pr_info_once("no access to L2 PERF_CONFIG (PerfReg 1): miss events count all L2 misses, a nonzero l2ctl is refused\n");
		}
	}
	if (l->hw[node] == mode)
		return;
	if (l->hw[node] != -1)
		pr_info("socket %d: L2 PERF_CONFIG was %d; set to %u\n",
			l->sock[node], l->hw[node], mode);
	l2_set(l, node, mode);
}

/*
 * Give each online CPU seen for the first time its node, and settle a
 * node found that way. A CPU keeps its node: its socket does not change,
 * and events on it hold that node's setting. Called with the lock held.
 */
static void l2_map(struct sparc_l2ctl *l)
{
	unsigned int cpu, node;
	int sock;

	if (!l->on)
		return;
	for_each_online_cpu(cpu) {
		if (l->cpu_node[cpu] >= 0)
			continue;
		sock = l2_cpu_socket(l, cpu);
		if (sock < 0)
			continue;
		for (node = 0; node < l->nr_nodes; node++)
			if (l->sock[node] == sock)
				break;
		if (node < l->nr_nodes) {
			l->cpu_node[cpu] = node;
			continue;
		}
		if (node == SPARC_L2CTL_NODES) {
			if (!l->full)
				pr_warn("CPU %u is on a fifth socket (%d): no l2ctl for it\n",
					cpu, sock);
			l->full = true;
			continue;
		}
		l->sock[node] = sock;
		l->cpu_node[cpu] = node;
		l->nr_nodes = node + 1;
		l2_settle(l, node);
	}
}

/**
 * sparc_l2ctl_nodes() - number the T2+ nodes from the CPUs' socket ids
 * @sock: socket id of each CPU (index: CPU number), as cpu_data(cpu).sock_id
 *	has it (the machine description numbers them from 1, with possible
 *	gaps); negative for a CPU whose socket is unknown or that is offline
 * @nr: number of entries of @sock and @node
 * @node: filled with each CPU's node: the rank of its socket id among the
 *	distinct ids, smallest first (-1 where @sock is negative)
 *
 * How the hypervisor's node numbers (PerfReg 2-17) relate to socket ids is
 * not documented; the numbering only needs to group the CPUs, since each
 * node's PerfReg 1 is written from a CPU of that node.
 *
 * Return: the number of nodes, or -E2BIG for more than four distinct ids.
 */
int sparc_l2ctl_nodes(const int *sock, unsigned int nr, s8 *node)
{
	int ids[SPARC_L2CTL_NODES];
	unsigned int i, j, n = 0;

	for (i = 0; i < nr; i++) {
		if (sock[i] < 0)
			continue;
		for (j = 0; j < n && ids[j] != sock[i]; j++)
			;
		if (j < n)
			continue;
		if (n == ARRAY_SIZE(ids))
			return -E2BIG;
		/* Insert in order: the rank is the index. */
		for (j = n++; j > 0 && ids[j - 1] > sock[i]; j--)
			ids[j] = ids[j - 1];
		ids[j] = sock[i];
	}
	for (i = 0; i < nr; i++) {
		node[i] = -1;
		for (j = 0; sock[i] >= 0 && j < n; j++)
			if (ids[j] == sock[i])
				node[i] = j;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_nodes);

/**
 * sparc_l2ctl_init_off() - set up without the L2 miss source
 * @l: the instance
 *
 * For a T2+ whose firmware has no group 0x205, so no PerfReg 1 call:
 * sparc_l2ctl_event_get() refuses a nonzero l2ctl and makes no call.
 */
void sparc_l2ctl_init_off(struct sparc_l2ctl *l)
{
	memset(l, 0, sizeof(*l));
	mutex_init(&l->lock);
	l->ops = &l2_vf_ops;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_init_off);

/**
 * sparc_l2ctl_init_ops() - number the nodes and reset their L2 settings
 * @l: the instance
 * @ops: how the L2 control registers and the sockets are reached
 *
 * Numbers the nodes from the sockets of the online CPUs (the others are
 * mapped when they are first seen online), then puts every node's
 * PERF_CONFIG back to "all". More than four sockets, or @ops without
 * sockets, leave l2ctl off: sparc_l2ctl_event_get() then refuses a
 * nonzero l2ctl. A node whose PERF_CONFIG the domain may not read holds
 * the hypervisor's default, all misses, and is not written for that.
 * Call with group 0x205 (HV_GRP_VF_CPU) negotiated, else use
 * sparc_l2ctl_init_off().
 *
 * Return: 0, or -ENOMEM.
 */
VISIBLE_IF_KUNIT int sparc_l2ctl_init_ops(struct sparc_l2ctl *l,
					  const struct sparc_l2ctl_ops *ops)
{
	unsigned int cpu, node;
	int *sock, n;

	sparc_l2ctl_init_off(l);
	l->ops = ops;
	if (!ops->cpu_socket)
		return 0;
	sock = kcalloc(nr_cpu_ids, sizeof(*sock), GFP_KERNEL);
	l->cpu_node = kcalloc(nr_cpu_ids, sizeof(*l->cpu_node), GFP_KERNEL);
	if (!sock || !l->cpu_node) {
		kfree(sock);
		kfree(l->cpu_node);
		l->cpu_node = NULL;
		return -ENOMEM;
	}
	mutex_lock(&l->lock);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		sock[cpu] = cpu_online(cpu) ? l2_cpu_socket(l, cpu) : -ENODEV;
	n = sparc_l2ctl_nodes(sock, nr_cpu_ids, l->cpu_node);
	if (n < 0) {
		pr_warn("CPUs on more than %u sockets: no L2 miss source\n",
			SPARC_L2CTL_NODES);
		goto out;
	}
	l->on = true;
	l->nr_nodes = n;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (l->cpu_node[cpu] >= 0)
			l->sock[l->cpu_node[cpu]] = sock[cpu];
	for (node = 0; node < l->nr_nodes; node++)
		l2_settle(l, node);
	/* CPUs that came online meanwhile */
	l2_map(l);
out:
	mutex_unlock(&l->lock);
	kfree(sock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_init_ops);

/**
 * sparc_l2ctl_init() - sparc_l2ctl_init_ops() with the hypervisor's calls
 * @l: the instance
 *
 * Return: 0, or -ENOMEM.
 */
int sparc_l2ctl_init(struct sparc_l2ctl *l)
{
	return sparc_l2ctl_init_ops(l, &l2_vf_ops);
}

/* What sparc_l2ctl_init{,_ops}() allocated; no event may hold a setting. */
void sparc_l2ctl_free(struct sparc_l2ctl *l)
{
	kfree(l->cpu_node);
	l->cpu_node = NULL;
	l->on = false;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_free);

/* sparc_l2ctl_get() with the lock held */
static int __l2_get(struct sparc_l2ctl *l, unsigned int node,
		    unsigned int mode)
{
	int ret = 0;

	if (node >= l->nr_nodes || mode > SPARC_L2CTL_C2C)
		return -EINVAL;
	if (l->users[node] && l->mode[node] != mode)
		ret = -EBUSY;
	else if (!l->users[node] && l->hw[node] != mode)
		ret = l2_set(l, node, mode);
	/*
	 * The default never fails for a refusal: the event counts what the
	 * register holds, as it did before l2ctl existed (l2_set() logged it).
	 */
	if (ret == -EACCES && mode == SPARC_L2CTL_ALL)
		ret = 0;
	if (!ret) {
		l->mode[node] = mode;
		l->users[node]++;
	}
	return ret;
}

/* sparc_l2ctl_put() with the lock held */
static void __l2_put(struct sparc_l2ctl *l, unsigned int node)
{
	if (node < l->nr_nodes && !WARN_ON_ONCE(!l->users[node]) &&
	    !--l->users[node] && l->hw[node] != SPARC_L2CTL_ALL)
		l2_set(l, node, SPARC_L2CTL_ALL);
}

/**
 * sparc_l2ctl_get() - take a node's L2 miss-source setting
 * @l: the instance
 * @node: the node, 0 to the number of nodes minus one
 * @mode: PERF_CONFIG, SPARC_L2CTL_ALL to SPARC_L2CTL_C2C
 *
 * The first user writes the register unless it is known to hold @mode
 * already. Each successful call must be paired with sparc_l2ctl_put().
 * May sleep.
 *
 * Return: 0; -EOPNOTSUPP without node numbering; -EINVAL for a bad @node
 * or @mode; -EBUSY if the node holds another setting; -ENODEV if no CPU of
 * @node is online to write it; or the errno of a failed hypercall
 * (nothing is taken then), -EACCES where the hypervisor refuses it, which
 * it never is for SPARC_L2CTL_ALL.
 */
int sparc_l2ctl_get(struct sparc_l2ctl *l, unsigned int node,
		    unsigned int mode)
{
	int ret;

	if (!l->on)
		return -EOPNOTSUPP;
	mutex_lock(&l->lock);
	l2_map(l);
	ret = __l2_get(l, node, mode);
	mutex_unlock(&l->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_get);

/**
 * sparc_l2ctl_put() - release a node's L2 miss-source setting
 * @l: the instance
 * @node: the node
 *
 * The last user puts the node back to "all L2 misses", the default. If
 * that write fails, what the register then holds is recorded, so the next
 * user writes it. May sleep.
 */
void sparc_l2ctl_put(struct sparc_l2ctl *l, unsigned int node)
{
	mutex_lock(&l->lock);
	__l2_put(l, node);
	mutex_unlock(&l->lock);
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_put);

/**
 * sparc_l2ctl_may_set() - whether the caller may ask for an event's l2ctl
 * @attr: the event's attributes
 *
 * A subset of the misses changes what every event of the node counts:
 * it needs what a CPU-wide event needs.
 *
 * Return: 0 if @attr asks for "all" or the caller has that privilege,
 * -EACCES or an LSM's refusal otherwise.
 */
int sparc_l2ctl_may_set(struct perf_event_attr *attr)
{
	if (!(attr->config1 & SPARC_L2CTL_MASK))
		return 0;
	return perf_allow_cpu();
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_may_set);

/**
 * sparc_l2ctl_event_get() - take the L2 setting a CPU PMU event needs
 * @l: the instance
 * @cpu: the event's CPU, or -1 for a per-task event (every node is taken)
 * @enc: the event's PCR encoding, SL << 8 | mask
 * @attr: the event's attributes; bits 1:0 of config1 are its l2ctl, the
 *	others are reserved
 *
 * Events of select group SL 3 take their node's setting, "all" included;
 * a per-task event holds the setting of every node, including the nodes
 * found while it is open. May sleep.
 *
 * Return: 1 if a setting was taken (release it with
 * sparc_l2ctl_event_put() and the same arguments), 0 if the event needs
 * none, -EINVAL for a reserved config1 bit or a nonzero l2ctl on an event
 * outside SL 3, -EOPNOTSUPP for a nonzero l2ctl when the CPUs' nodes are
 * not known or the firmware has no group 0x205, -EACCES for a nonzero
 * l2ctl asked without the privilege of a CPU-wide event, -ENODEV for a CPU not
 * seen online, -EBUSY if a node holds another setting, -EACCES for a
 * nonzero l2ctl where the hypervisor refuses the domain access, or
 * another errno of sparc_l2ctl_get(). Nothing is taken on error.
 */
int sparc_l2ctl_event_get(struct sparc_l2ctl *l, int cpu, u32 enc,
			  struct perf_event_attr *attr)
{
	unsigned int mode = attr->config1 & SPARC_L2CTL_MASK, node;
	int ret = 0;

	if (attr->config1 & ~SPARC_L2CTL_MASK)
		return -EINVAL;
	if (SPARC_L2CTL_PCR_SL(enc) != SPARC_L2CTL_SL_MISSES)
		return mode ? -EINVAL : 0;
	if (!l->on)
		return mode ? -EOPNOTSUPP : 0;
	ret = sparc_l2ctl_may_set(attr);
	if (ret)
		return ret;

	mutex_lock(&l->lock);
	l2_map(l);
	if (cpu >= 0) {
		if (cpu >= nr_cpu_ids || l->cpu_node[cpu] < 0)
			ret = -ENODEV;
		else
			ret = __l2_get(l, l->cpu_node[cpu], mode);
		goto out;
	}
	if (l->task_users && l->task_mode != mode) {
		ret = -EBUSY;
		goto out;
	}
	for (node = 0; node < l->nr_nodes; node++) {
		ret = __l2_get(l, node, mode);
		if (ret) {
			while (node--)
				__l2_put(l, node);
			goto out;
		}
	}
	l->task_mode = mode;
	l->task_users++;
out:
	mutex_unlock(&l->lock);
	return ret ?: 1;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_event_get);

/**
 * sparc_l2ctl_event_put() - release what sparc_l2ctl_event_get() took
 * @l: the instance
 * @cpu: as given to sparc_l2ctl_event_get()
 * @enc: as given to sparc_l2ctl_event_get()
 * @config1: config1 of the attributes given to sparc_l2ctl_event_get()
 *
 * Call only if that returned 1. May sleep.
 */
void sparc_l2ctl_event_put(struct sparc_l2ctl *l, int cpu, u32 enc,
			   u64 config1)
{
	unsigned int node;

	mutex_lock(&l->lock);
	if (cpu >= 0) {
		if (!WARN_ON_ONCE(cpu >= nr_cpu_ids || l->cpu_node[cpu] < 0))
			__l2_put(l, l->cpu_node[cpu]);
	} else if (!WARN_ON_ONCE(!l->task_users)) {
		l->task_users--;
		for (node = 0; node < l->nr_nodes; node++)
			__l2_put(l, node);
	}
	mutex_unlock(&l->lock);
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_event_put);
