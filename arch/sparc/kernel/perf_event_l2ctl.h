/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The L2 miss source of the UltraSPARC T2+ (Victoria Falls) CPU PMU:
 * config1:0-1 ("l2ctl") of its events, see perf_event_l2ctl.c.
 */
#ifndef _SPARC64_PERF_EVENT_L2CTL_H
#define _SPARC64_PERF_EVENT_L2CTL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/types.h>

/* VF 2.0: at most four nodes (chips), each with its own L2. */
#define SPARC_L2CTL_NODES	4

/* PERF_CONFIG (vf_perf_api 3.0): which L2 misses SL 3 events count. */
#define SPARC_L2CTL_ALL		0
#define SPARC_L2CTL_LOCAL	1
#define SPARC_L2CTL_REMOTE	2
#define SPARC_L2CTL_C2C		3
#define SPARC_L2CTL_MASK	0x3ULL

/* The select group of an encoding SL << 8 | mask, and that of the misses */
#define SPARC_L2CTL_PCR_SL(enc)	(((enc) >> 8) & 0xf)
#define SPARC_L2CTL_SL_MISSES	3

/**
 * struct sparc_l2ctl_ops - how the L2 control registers are reached
 * @get: VFALLS_GET_PERFREG of PerfReg 1, as the calling CPU reaches it
 * @set: VFALLS_SET_PERFREG of PerfReg 1, as the calling CPU reaches it
 * @cpu_socket: the socket id of an online CPU (cpu_data(cpu).sock_id);
 *	NULL where the sockets cannot be told apart
 * @ctx: passed to each
 *
 * The hypervisor's, or a KUnit suite's model of it.
 */
struct sparc_l2ctl_ops {
	unsigned long (*get)(void *ctx, u64 *val);
	unsigned long (*set)(void *ctx, u64 val);
	int (*cpu_socket)(void *ctx, unsigned int cpu);
	void *ctx;
};

/**
 * struct sparc_l2ctl_cpu - what the L2 code knows of one CPU
 * @seen: its socket id when the nodes were last derived, negative if it
 *	was offline then; only tells whether its node has changed since
 * @gone: it is going offline: its node is no longer reached through it
 * @users: CPU-bound events on it that hold a setting
 * @mode: their setting
 * @dead: CPU-bound events opened on it before it last went offline, not
 *	closed yet: perf detaches them for good then, so they hold nothing
 */
struct sparc_l2ctl_cpu {
	int seen;
	bool gone;
	unsigned int users;
	unsigned int mode;
	unsigned int dead;
};

/**
 * struct sparc_l2ctl - the L2 settings of a T2+ system
 * @lock: serialises the fields below
 * @on: the nodes could be told from the CPUs' sockets: l2ctl works
 * @full: CPUs on a fifth socket were seen (logged once)
 * @stale: a CPU came or went since the nodes were derived (or they never
 *	were): derive them again at the next use
 * @used: a miss event was opened: a CPU that comes online has its node
 *	read then
 * @retry: a write failed: bring the nodes with users to their setting at
 *	the next use
 * @nr_nodes: nodes now: the distinct socket ids of the online CPUs
 * @sock: the socket id of each node, smallest first
 * @hw: what each node's PERF_CONFIG holds, or -1 if unknown; "all" where
 *	the domain may not read it
 * @cpu_sock: scratch: each CPU's socket id now, negative if offline
 * @cpu_node: scratch: each CPU's node now, -1 if offline
 * @cpu: per CPU: what its events hold
 * @cpu_hw: per CPU: what its node's PERF_CONFIG holds, -1 if unknown or on
 *	no node, as of the last use; read without @lock
 * @task_users: per-task events holding a setting (on every node)
 * @task_mode: their setting, which a node found later takes too
 * @ops: the hypervisor's calls, or a model's
 * @hp: its CPU hotplug instance, if added
 * @hp_added: @hp was added
 *
 * The nodes are derived again from the CPUs' socket ids at the first use
 * after a CPU came or went, under @lock. What events hold is kept by what
 * they name, a CPU or every node, never by node.
 */
struct sparc_l2ctl {
	struct mutex lock;	/* everything below */
	bool on;
	bool full;
	bool stale;
	bool used;
	bool retry;
	unsigned int nr_nodes;
	int sock[SPARC_L2CTL_NODES];
	int hw[SPARC_L2CTL_NODES];
	int *cpu_sock;
	s8 *cpu_node;
	struct sparc_l2ctl_cpu *cpu;
	s8 *cpu_hw;
	unsigned int task_users;
	unsigned int task_mode;
	const struct sparc_l2ctl_ops *ops;
	struct hlist_node hp;
	bool hp_added;
};

void sparc_l2ctl_init_off(struct sparc_l2ctl *l);
int sparc_l2ctl_init(struct sparc_l2ctl *l);
void sparc_l2ctl_free(struct sparc_l2ctl *l);
int sparc_l2ctl_event_get(struct sparc_l2ctl *l, int cpu, u32 enc,
			  struct perf_event_attr *attr);
int sparc_l2ctl_may_set(struct perf_event_attr *attr);
void sparc_l2ctl_event_put(struct sparc_l2ctl *l, int cpu, u32 enc,
			   u64 config1);
bool sparc_l2ctl_counts(const struct sparc_l2ctl *l, unsigned int cpu,
			u32 enc, u64 config1);
int sparc_l2ctl_get(struct sparc_l2ctl *l, unsigned int node,
		    unsigned int mode);
void sparc_l2ctl_put(struct sparc_l2ctl *l, unsigned int node);
int sparc_l2ctl_nodes(const int *sock, unsigned int nr, s8 *node);

#if IS_ENABLED(CONFIG_KUNIT)
int sparc_l2ctl_init_ops(struct sparc_l2ctl *l,
			 const struct sparc_l2ctl_ops *ops);
#endif

#endif /* _SPARC64_PERF_EVENT_L2CTL_H */
