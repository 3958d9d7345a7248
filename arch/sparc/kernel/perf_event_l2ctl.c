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
 * So a subset is taken per node by the events that ask for it: an event
 * on a CPU takes its node's, a per-task event takes every node's, since
 * its task may run anywhere. Users asking for the same subset share it;
 * another is refused with EBUSY while it is taken. A plain miss event
 * (l2ctl 0, "all") takes nothing, so that it never keeps a subset out,
 * whoever opened it; it counts only on CPUs whose node holds "all" (the
 * CPU PMU's add() asks sparc_l2ctl_counts()), so that it never silently
 * counts a subset that another user chose.
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
 * be written. So only online CPUs count, and only by the socket id they
 * have at the first use after a CPU came or went: dynamic reconfiguration
 * (ds.c dr_cpu_configure()) marks a CPU present before it fills in its
 * cpu_data, and ranks the sockets again (see l2_sync()).
 *
 * Nothing is called before the first event that needs a setting: a
 * machine where perf is never used gets no IPI and no hypercall for it.
 */

#define pr_fmt(fmt) "perf: T2+ l2ctl: " fmt

#include <kunit/visibility.h>
#include <linux/cpuhotplug.h>
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
 * Make the call on an online CPU of @node. Called with the lock held,
 * after l2_sync().
 * Return: 0 and the call in *@a, or -ENODEV if no CPU of @node is online.
 */
static int l2_call(struct sparc_l2ctl *l, unsigned int node, struct l2_call *a)
{
	unsigned int cpu;

	a->l = l;
	for_each_online_cpu(cpu) {
		if (cpu >= nr_cpu_ids || l->cpu_node[cpu] != node)
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
	l->retry = true;
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
 * The events holding @node's setting now: the per-task events and those
 * bound to its online CPUs. Their setting goes to *@mode, "all" if none.
 * Holders that disagree can only come from a CPU that the machine moved
 * to another chip while its events were open: the setting of the node's
 * other holders stays, and the moved CPU's events with another subset do
 * not count there (logged if @warn; see sparc_l2ctl_counts()).
 */
static unsigned int l2_users(struct sparc_l2ctl *l, unsigned int node,
			     unsigned int *mode, bool warn)
{
	unsigned int cpu, users = l->task_users;

	*mode = users ? l->task_mode : SPARC_L2CTL_ALL;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (l->cpu_node[cpu] != node || !l->cpu[cpu].users)
			continue;
		if (!users)
			*mode = l->cpu[cpu].mode;
		else if (warn && l->cpu[cpu].mode != *mode)
			pr_warn_ratelimited("CPU %u moved to socket %d, whose L2 PERF_CONFIG is %u: its events asked for %u\n",
					    cpu, l->sock[node], *mode,
					    l->cpu[cpu].mode);
		users += l->cpu[cpu].users;
	}
	return users;
}

/*
 * Bring a node found just now to the setting it must hold: what its
 * users hold, or else "all" (a previous user, or the firmware, may have
 * left a subset selected). A node that cannot be written stays unknown
 * and is written again at the next use. A node the domain has no access to
 * holds the hypervisor's default, "all" (vf_perf_api 3.0), which only a
 * domain with access can change. Called with the lock held.
 */
static void l2_settle(struct sparc_l2ctl *l, unsigned int node)
{
	struct l2_call a = { .set = false };
	unsigned int mode;

	l2_users(l, node, &mode, true);
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

/* Whether @cpu reaches its node: online, and not on its way out. */
static bool l2_cpu_up(const struct sparc_l2ctl *l, unsigned int cpu)
{
	return cpu_online(cpu) && !l->cpu[cpu].gone;
}

/*
 * Derive the nodes from the socket ids that the CPUs have now; mark in
 * @changed those to read again. Called with the lock held.
 *
 * PERF_CONFIG belongs to a physical chip and is reached only from a strand
 * of that chip (sun4v Hypervisor API, vf_perf_api 3.1), but a socket id
 * names a chip only until the next dynamic reconfiguration, which ranks
 * the sockets again (mdesc.c set_sock_ids()) and may bind a virtual CPU
 * to a strand of another chip. So nothing is kept by socket id or node
 * across such a change: the events' settings are kept by what the events
 * name (a CPU, or every node), and what a node's register holds is
 * trusted only while its CPUs keep the socket id they had when it was
 * read. Any other node, new, renumbered or with a CPU that came (back)
 * online, is read again and brought to what its users hold. A socket
 * whose CPUs have all gone is no node: no task runs there.
 *
 * A reconfiguration ranks the sockets again only when it adds CPUs, which
 * then come online, so this is done at the first use after a CPU came or
 * went (@stale, set by the hotplug callbacks below); a new ranking on its
 * own changes the ids, not which CPUs share a chip. set_sock_ids() writes
 * the ids CPU by CPU under no lock this code could take, so an open during
 * dr_cpu_configure() may group the CPUs from a mix of old and new ids; the
 * CPU that comes online after it marks the nodes stale again.
 *
 * Whether another logical domain on the same chip can change PERF_CONFIG
 * is not documented; what a node holds is read again only when one of its
 * CPUs comes online, or after a failed write.
 */
static void l2_derive(struct sparc_l2ctl *l, bool *changed)
{
	int old_sock[SPARC_L2CTL_NODES], old_hw[SPARC_L2CTL_NODES];
	unsigned int cpu, node, old, old_nr = l->nr_nodes;
	int n, max;

	memcpy(old_sock, l->sock, sizeof(old_sock));
	memcpy(old_hw, l->hw, sizeof(old_hw));
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		l->cpu_sock[cpu] = l2_cpu_up(l, cpu) ? l2_cpu_socket(l, cpu) :
						       -ENODEV;
	/* VF 2.0 has at most four nodes: leave the CPUs of any more out. */
	while ((n = sparc_l2ctl_nodes(l->cpu_sock, nr_cpu_ids,
				      l->cpu_node)) < 0) {
		max = -1;
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			max = max_t(int, max, l->cpu_sock[cpu]);
		if (!l->full)
			pr_warn("CPUs on a fifth socket (%d): no l2ctl for them\n",
				max);
		l->full = true;
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			if (l->cpu_sock[cpu] == max)
				l->cpu_sock[cpu] = -ENODEV;
	}
	l->nr_nodes = n;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (l->cpu_node[cpu] < 0)
			continue;
		node = l->cpu_node[cpu];
		l->sock[node] = l->cpu_sock[cpu];
		if (l->cpu[cpu].seen != l->cpu_sock[cpu])
			changed[node] = true;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		l->cpu[cpu].seen = l->cpu_sock[cpu];
	for (node = 0; node < l->nr_nodes; node++) {
		l->hw[node] = -1;
		for (old = 0; old < old_nr; old++)
			if (old_sock[old] == l->sock[node])
				l->hw[node] = old_hw[old];
	}
}

/*
 * Bring the nodes up to date before a use: derive them again if a CPU
 * came or went, and write again any node whose write failed while it had
 * users, until it takes their setting. Called with the lock held.
 */
static void l2_sync(struct sparc_l2ctl *l)
{
	bool changed[SPARC_L2CTL_NODES] = { };
	unsigned int node, mode;

	if (l->stale) {
		l->stale = false;
		l2_derive(l, changed);
	} else if (!l->retry) {
		return;
	}
	l->retry = false;
	for (node = 0; node < l->nr_nodes; node++) {
		if (changed[node])
			l2_settle(l, node);
		else if (l2_users(l, node, &mode, false) &&
			 l->hw[node] != mode)
			l2_set(l, node, mode);
	}
}

/*
 * What each CPU's node holds now, for sparc_l2ctl_counts(). Called with
 * the lock held, after l2_sync() and any write, before it is dropped.
 */
static void l2_publish(struct sparc_l2ctl *l)
{
	unsigned int cpu;
	int node;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		node = l->cpu_node[cpu];
		WRITE_ONCE(l->cpu_hw[cpu], node < 0 ? -1 : l->hw[node]);
	}
}

/*
 * Put "all" back on the nodes that no event holds now. Called with the
 * lock held, after l2_sync(): after a holder was dropped, and when a
 * plain miss event is opened.
 */
static void l2_idle(struct sparc_l2ctl *l)
{
	unsigned int node, held;

	for (node = 0; node < l->nr_nodes; node++)
		if (!l2_users(l, node, &held, false) &&
		    l->hw[node] != SPARC_L2CTL_ALL)
			l2_set(l, node, SPARC_L2CTL_ALL);
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

/*
 * A CPU came online: its node is derived again now if miss events were
 * ever opened, else at the first one. Its register is read, and set to
 * what events hold there or else "all", so that they count on it from the
 * start: the CPU PMU's add() schedules a miss event only where its CPU's
 * node is known to hold its l2ctl. Runs on that CPU, which is online.
 */
static int l2_cpu_online(unsigned int cpu, struct hlist_node *hp)
{
	struct sparc_l2ctl *l = hlist_entry_safe(hp, struct sparc_l2ctl, hp);

	mutex_lock(&l->lock);
	if (cpu < nr_cpu_ids)
		l->cpu[cpu].gone = false;
	l->stale = true;
	if (l->used) {
		l2_sync(l);
		l2_idle(l);
		l2_publish(l);
	}
	mutex_unlock(&l->lock);
	return 0;
}

/*
 * A CPU is going offline: its node is no longer reached through it. It is
 * still online here, so it is marked, not left to cpu_online(). Whatever
 * chip it comes back on, its node is read again then. The events bound
 * to it are detached by perf for good (perf_event_exit_cpu()) and never
 * count again, so they hold no setting from now on: another may be taken
 * there when the CPU returns, perhaps on another chip.
 */
static int l2_cpu_offline(unsigned int cpu, struct hlist_node *hp)
{
	struct sparc_l2ctl *l = hlist_entry_safe(hp, struct sparc_l2ctl, hp);

	mutex_lock(&l->lock);
	if (cpu < nr_cpu_ids) {
		l->cpu[cpu].gone = true;
		l->cpu[cpu].seen = -ENODEV;
		l->cpu[cpu].dead += l->cpu[cpu].users;
		l->cpu[cpu].users = 0;
		WRITE_ONCE(l->cpu_hw[cpu], -1);
	}
	l->stale = true;
	mutex_unlock(&l->lock);
	return 0;
}

static DEFINE_MUTEX(l2_hp_lock);
static int l2_hp_state = CPUHP_INVALID;

/* The hotplug state of every instance, set up with the first one. */
static int l2_hp_add(struct sparc_l2ctl *l)
{
	int ret = 0;

	mutex_lock(&l2_hp_lock);
	if (l2_hp_state == CPUHP_INVALID) {
		ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN,
					      "perf/sparc/l2ctl:online",
					      l2_cpu_online, l2_cpu_offline);
		if (ret > 0)
			l2_hp_state = ret;
	}
	mutex_unlock(&l2_hp_lock);
	if (ret < 0)
		return ret;
	ret = cpuhp_state_add_instance_nocalls(l2_hp_state, &l->hp);
	l->hp_added = !ret;
	return ret;
}

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
 * sparc_l2ctl_init_ops() - set up the L2 miss source
 * @l: the instance
 * @ops: how the L2 control registers and the sockets are reached
 *
 * Checks that the nodes can be told from the sockets of the online CPUs:
 * more than four sockets, or @ops without sockets, leave l2ctl off, as
 * sparc_l2ctl_init_off() does: sparc_l2ctl_event_get() then refuses every
 * nonzero l2ctl, so the CPU PMU shows no format/l2ctl. Makes no call:
 * the first event that takes a setting reads every node's PERF_CONFIG and
 * puts it back to "all" unless it holds that (a previous user or the
 * firmware may have left a subset); a node found later is read when it is
 * found. A node whose PERF_CONFIG the domain may not read holds the
 * hypervisor's default, all misses, and is not written for that. Call
 * with group 0x205 (HV_GRP_VF_CPU) negotiated, else use
 * sparc_l2ctl_init_off(). May sleep.
 *
 * Return: 0 if l2ctl can be used; -EOPNOTSUPP if it is off; -ENOMEM, or
 * the error of the CPU hotplug state.
 */
VISIBLE_IF_KUNIT int sparc_l2ctl_init_ops(struct sparc_l2ctl *l,
					  const struct sparc_l2ctl_ops *ops)
{
	unsigned int cpu;
	int ret = 0;

	sparc_l2ctl_init_off(l);
	l->ops = ops;
	if (!ops->cpu_socket)
		return -EOPNOTSUPP;
	l->cpu_sock = kcalloc(nr_cpu_ids, sizeof(*l->cpu_sock), GFP_KERNEL);
	l->cpu_node = kcalloc(nr_cpu_ids, sizeof(*l->cpu_node), GFP_KERNEL);
	l->cpu = kcalloc(nr_cpu_ids, sizeof(*l->cpu), GFP_KERNEL);
	l->cpu_hw = kcalloc(nr_cpu_ids, sizeof(*l->cpu_hw), GFP_KERNEL);
	if (!l->cpu_sock || !l->cpu_node || !l->cpu || !l->cpu_hw) {
		sparc_l2ctl_free(l);
		return -ENOMEM;
	}
	/* Before the CPUs are looked at: a CPU that comes or goes is seen. */
	ret = l2_hp_add(l);
	if (ret) {
		sparc_l2ctl_free(l);
		return ret;
	}
	mutex_lock(&l->lock);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		l->cpu_sock[cpu] = cpu_online(cpu) ? l2_cpu_socket(l, cpu) :
						     -ENODEV;
		/* Not seen yet: every node is read at the first use. */
		l->cpu[cpu].seen = -ENODEV;
		l->cpu_hw[cpu] = -1;
	}
	if (sparc_l2ctl_nodes(l->cpu_sock, nr_cpu_ids, l->cpu_node) < 0) {
		pr_warn("CPUs on more than %u sockets: no L2 miss source\n",
			SPARC_L2CTL_NODES);
		ret = -EOPNOTSUPP;
	} else {
		l->on = true;
		l->stale = true;
	}
	mutex_unlock(&l->lock);
	if (ret)
		sparc_l2ctl_free(l);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_init_ops);

/**
 * sparc_l2ctl_init() - sparc_l2ctl_init_ops() with the hypervisor's calls
 * @l: the instance
 *
 * Return: 0 if l2ctl can be used; -EOPNOTSUPP if it is off; -ENOMEM.
 */
int sparc_l2ctl_init(struct sparc_l2ctl *l)
{
	return sparc_l2ctl_init_ops(l, &l2_vf_ops);
}

/* What sparc_l2ctl_init{,_ops}() allocated; no event may hold a setting. */
void sparc_l2ctl_free(struct sparc_l2ctl *l)
{
	if (l->hp_added)
		cpuhp_state_remove_instance_nocalls(l2_hp_state, &l->hp);
	l->hp_added = false;
	kfree(l->cpu_sock);
	kfree(l->cpu_node);
	kfree(l->cpu);
	kfree(l->cpu_hw);
	l->cpu_sock = NULL;
	l->cpu_node = NULL;
	l->cpu = NULL;
	l->cpu_hw = NULL;
	l->on = false;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_free);

/*
 * Whether @mode may be taken on @node, writing it unless the node is
 * known to hold it: 0, or the errno. A node with users may not hold their
 * setting yet (found while they held it, and its write refused): an event
 * may not claim a setting that its node does not hold. The caller records
 * the holder. Called with the lock held, after l2_sync().
 */
static int __l2_get(struct sparc_l2ctl *l, unsigned int node,
		    unsigned int mode)
{
	unsigned int held, users = l2_users(l, node, &held, false);
	int ret = 0;

	if (users && held != mode)
		ret = -EBUSY;
	else if (l->hw[node] != mode)
		ret = l2_set(l, node, mode);
	/*
	 * The default never fails for a refusal: the event counts what the
	 * register holds, as it did before l2ctl existed (l2_set() logged it).
	 */
	if (ret == -EACCES && mode == SPARC_L2CTL_ALL)
		ret = 0;
	return ret;
}

/* Take @mode for the events bound to @cpu. Called with the lock held. */
static int l2_cpu_get(struct sparc_l2ctl *l, unsigned int cpu,
		      unsigned int mode)
{
	int ret;

	if (cpu >= nr_cpu_ids || l->cpu_node[cpu] < 0)
		return -ENODEV;
	ret = __l2_get(l, l->cpu_node[cpu], mode);
	if (!ret) {
		l->cpu[cpu].mode = mode;
		l->cpu[cpu].users++;
	}
	return ret;
}

/**
 * sparc_l2ctl_get() - take a node's L2 miss-source setting
 * @l: the instance
 * @node: the node, 0 to the number of nodes minus one, numbered by socket
 *	id, smallest first, among the online CPUs now
 * @mode: PERF_CONFIG, SPARC_L2CTL_ALL to SPARC_L2CTL_C2C
 *
 * As an event bound to the node's first online CPU. The first user writes
 * the register unless it is known to hold @mode already. Each successful
 * call must be paired with sparc_l2ctl_put(). May sleep.
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
	unsigned int cpu;
	int ret = -EINVAL;

	if (!l->on)
		return -EOPNOTSUPP;
	if (mode > SPARC_L2CTL_C2C)
		return -EINVAL;
	mutex_lock(&l->lock);
	l2_sync(l);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (l->cpu_node[cpu] == node) {
			ret = l2_cpu_get(l, cpu, mode);
			break;
		}
	}
	l2_publish(l);
	mutex_unlock(&l->lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_get);

/**
 * sparc_l2ctl_put() - release a node's L2 miss-source setting
 * @l: the instance
 * @node: the node, as sparc_l2ctl_get() numbers it now
 *
 * The last user puts the node back to "all L2 misses", the default. If
 * that write fails, what the register then holds is recorded, so the next
 * user writes it. May sleep.
 */
void sparc_l2ctl_put(struct sparc_l2ctl *l, unsigned int node)
{
	unsigned int cpu;

	if (WARN_ON_ONCE(!l->on))
		return;
	mutex_lock(&l->lock);
	l2_sync(l);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (l->cpu_node[cpu] == node && l->cpu[cpu].users) {
			l->cpu[cpu].users--;
			break;
		}
	}
	WARN_ON_ONCE(cpu == nr_cpu_ids);
	l2_idle(l);
	l2_publish(l);
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
 * @cpu: the CPU of an event in a CPU's context, or -1 for a per-task event,
 *	bound to a CPU or not (every node is taken)
 * @enc: the event's PCR encoding, SL << 8 | mask
 * @attr: the event's attributes; bits 1:0 of config1 are its l2ctl, the
 *	others are reserved
 *
 * Events of select group SL 3 with a nonzero l2ctl take their node's
 * setting: an event on a CPU holds that of the node its CPU is on now, a
 * per-task event that of every node, including the nodes found while it
 * is open. One with l2ctl 0 takes nothing, but puts "all" back on the
 * nodes that no event holds, and counts only where its node holds "all"
 * (sparc_l2ctl_counts()). May sleep.
 *
 * Return: 1 if a setting was taken (release it with
 * sparc_l2ctl_event_put() and the same arguments), 0 if the event takes
 * none, -EINVAL for a reserved config1 bit or a nonzero l2ctl on an event
 * outside SL 3, -EOPNOTSUPP for a nonzero l2ctl when the CPUs' nodes are
 * not known or the firmware has no group 0x205, -EACCES for a nonzero
 * l2ctl asked without the privilege of a CPU-wide event, -ENODEV for a
 * CPU that is offline or on a fifth socket (nonzero l2ctl), -EBUSY if a
 * node holds another setting, -EACCES for a nonzero l2ctl where the hypervisor
 * refuses the domain access, or another errno of sparc_l2ctl_get().
 * Nothing is taken on error.
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
	l->used = true;
	l2_sync(l);
	if (!mode) {
		/*
		 * Holds nothing; puts "all" back where no event holds a subset
		 * (a previous user or the firmware may have left one).
		 */
		l2_idle(l);
		goto out;
	}
	if (cpu >= 0) {
		ret = l2_cpu_get(l, cpu, mode);
		goto out;
	}
	if (l->task_users && l->task_mode != mode) {
		ret = -EBUSY;
		goto out;
	}
	for (node = 0; node < l->nr_nodes; node++) {
		ret = __l2_get(l, node, mode);
		if (ret) {
			/* Undo the writes to the nodes before. */
			l2_idle(l);
			goto out;
		}
	}
	l->task_mode = mode;
	l->task_users++;
out:
	l2_publish(l);
	mutex_unlock(&l->lock);
	if (ret)
		return ret;
	return mode ? 1 : 0;
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
	mutex_lock(&l->lock);
	if (cpu >= 0 && !WARN_ON_ONCE(cpu >= nr_cpu_ids)) {
		/*
		 * Which close is a detached event's is not known: count those
		 * first, so that a live hold is never dropped early (at worst
		 * one outlives its event until the last detached one closes).
		 */
		if (l->cpu[cpu].dead)
			l->cpu[cpu].dead--;
		else if (!WARN_ON_ONCE(!l->cpu[cpu].users))
			l->cpu[cpu].users--;
	} else if (cpu < 0 && !WARN_ON_ONCE(!l->task_users)) {
		l->task_users--;
	}
	l2_sync(l);
	l2_idle(l);
	l2_publish(l);
	mutex_unlock(&l->lock);
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_event_put);

/**
 * sparc_l2ctl_counts() - whether an event may count on a CPU now
 * @l: the instance
 * @cpu: the CPU it is to count on
 * @enc: its PCR encoding, SL << 8 | mask
 * @config1: its config1, accepted by sparc_l2ctl_event_get() for it or,
 *	for an inherited copy, for its parent
 *
 * A miss event (select group SL 3) counts only where the CPU's node's
 * PERF_CONFIG holds its l2ctl: a node found while per-task events held a
 * subset, whose write the hypervisor refused, counts all misses until a
 * write goes through, and the events must not report those as their
 * subset; a plain miss event ("all") holds nothing, and must not count a
 * subset that another user chose. Nor does either count where what the
 * node holds is not known (a write and the read back both failed). Such
 * events are not scheduled there meanwhile, which shows as a running time
 * below the enabled time; to perf core that is a group that does not fit,
 * so the groups after it in that pass are not scheduled either, and a
 * pinned event goes to error state.
 *
 * Context: any; takes no lock (the CPU PMU's add()).
 * Return: true if the event may count on @cpu.
 */
bool sparc_l2ctl_counts(const struct sparc_l2ctl *l, unsigned int cpu,
			u32 enc, u64 config1)
{
	unsigned int mode = config1 & SPARC_L2CTL_MASK;

	if (!READ_ONCE(l->on) ||
	    SPARC_L2CTL_PCR_SL(enc) != SPARC_L2CTL_SL_MISSES)
		return true;
	if (cpu >= nr_cpu_ids)
		return !mode;
	return READ_ONCE(l->cpu_hw[cpu]) == mode;
}
EXPORT_SYMBOL_IF_KUNIT(sparc_l2ctl_counts);
