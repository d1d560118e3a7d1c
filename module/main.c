// SPDX-License-Identifier: GPL-2.0
/*
 * lockblame: who holds the contended lock (the cause) and who merely waits
 * (the victims). Module parameters, load and unload.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include "lockblame.h"
#include "ledger.h"
#include "ledger_internal.h"

unsigned int lb_ring_events = 4096;
module_param_named(ring_events, lb_ring_events, uint, 0444);
MODULE_PARM_DESC(ring_events, "Events per CPU ring, a power of 2 in [64, 1048576] (4096)");

unsigned int lb_max_blocked = 4096;
module_param_named(max_blocked, lb_max_blocked, uint, 0444);
MODULE_PARM_DESC(max_blocked,
		 "Tasks blocked at once in one kernel lock slowpath or PI futex, [16, 65536] (4096)");

unsigned int lb_drain_ms = 100;
module_param_named(drain_ms, lb_drain_ms, uint, 0444);
MODULE_PARM_DESC(drain_ms, "Interval of the periodic drain in ms, [10, 10000] (100)");

bool lb_stacks;
module_param_named(stacks, lb_stacks, bool, 0444);
MODULE_PARM_DESC(stacks, "Record kernel (and futex user) stacks at waits and releases (0)");

static unsigned int lb_stack_entries = 1024;
module_param_named(stack_entries, lb_stack_entries, uint, 0444);
MODULE_PARM_DESC(stack_entries, "Distinct stacks stored, [16, 1048576] (1024)");

static unsigned int lb_stream_events = 4096;
module_param_named(stream_events, lb_stream_events, uint, 0444);
MODULE_PARM_DESC(stream_events, "Events buffered for debugfs \"events\", 0 disables, max 4194304 (4096)");

static struct lb_ledger_limits lb_limits = {
	.max_locks = 256,
	.max_tasks = 1024,
	.max_waiters = 1024,
	.max_pairs = 2048,
	.max_chain_depth = 8,
	.max_sleepers = 2048,
};
module_param_named(max_locks, lb_limits.max_locks, uint, 0444);
MODULE_PARM_DESC(max_locks, "Locks the ledger tracks at once, [8, 1048576] (256)");
module_param_named(max_tasks, lb_limits.max_tasks, uint, 0444);
MODULE_PARM_DESC(max_tasks, "Tasks the ledger tracks at once, [8, 1048576] (1024)");
module_param_named(max_waiters, lb_limits.max_waiters, uint, 0444);
MODULE_PARM_DESC(max_waiters, "Outstanding waits the ledger tracks at once, [8, 1048576] (1024)");
module_param_named(max_pairs, lb_limits.max_pairs, uint, 0444);
MODULE_PARM_DESC(max_pairs, "Holder/victim pairs the ledger keeps, [8, 4194304] (2048)");
module_param_named(max_chain_depth, lb_limits.max_chain_depth, uint, 0444);
MODULE_PARM_DESC(max_chain_depth, "How far blame follows a holder that waits itself, [1, 16] (8)");
module_param_named(max_sleepers, lb_limits.max_sleepers, uint, 0444);
MODULE_PARM_DESC(max_sleepers,
		 "Tasks kept for event waits, futex sleeps not contention, [8, 1048576] (2048)");

static char *lb_skip;
module_param_named(skip, lb_skip, charp, 0444);
MODULE_PARM_DESC(skip, "Probe roles not to plant, comma-separated (as if this kernel lacked them); their lock classes are reported blind. An unknown role fails the load");

static int lb_check_params(void)
{
	const struct lb_ledger_limits *l = &lb_limits;

	if (lb_drain_ms < 10 || lb_drain_ms > 10000) {
		pr_err("lockblame: drain_ms=%u invalid: [10, 10000]\n", lb_drain_ms);
		return -EINVAL;
	}
	if (lb_max_blocked < 16 || lb_max_blocked > 65536) {
		pr_err("lockblame: max_blocked=%u invalid: [16, 65536]\n", lb_max_blocked);
		return -EINVAL;
	}
	if (lb_limits.max_sleepers < 8 || lb_limits.max_sleepers > (1U << 20)) {
		pr_err("lockblame: max_sleepers=%u invalid: [8, 1048576]\n",
		       lb_limits.max_sleepers);
		return -EINVAL;
	}
	if (lb_stream_events > (1U << 22)) {
		pr_err("lockblame: stream_events=%u invalid: at most 4194304\n", lb_stream_events);
		return -EINVAL;
	}
	if (l->max_locks < 8 || l->max_tasks < 8 || l->max_waiters < 8 || l->max_pairs < 8 ||
	    l->max_locks > (1U << 20) || l->max_tasks > (1U << 20) ||
	    l->max_waiters > (1U << 20) || l->max_pairs > (1U << 22)) {
		pr_err("lockblame: ledger limits invalid: max_locks/tasks/waiters in [8, 1048576], max_pairs in [8, 4194304]\n");
		return -EINVAL;
	}
	/* The ledger cuts chains at LB_CHAIN_DEPTH_MAX: more would be ignored. */
	if (l->max_chain_depth < 1 || l->max_chain_depth > LB_CHAIN_DEPTH_MAX) {
		pr_err("lockblame: max_chain_depth=%u invalid: [1, %u]\n", l->max_chain_depth,
		       LB_CHAIN_DEPTH_MAX);
		return -EINVAL;
	}
	return lb_probes_skip(lb_skip);
}

static int __init lb_init(void)
{
	int err;

	err = lb_check_params();
	if (err)
		return err;
	err = lb_probes_selftest();
	if (err)
		return err;
	lb_event_init();
	lb_rings = lb_ringset_create(lb_ring_events, lb_drain_kick);
	if (IS_ERR(lb_rings))
		return PTR_ERR(lb_rings);
	err = lb_stacks_alloc(lb_stack_entries);
	if (err)
		goto free_rings;
	err = lb_futex_init();
	if (err)
		goto free_stacks;
	err = lb_drain_init(&lb_limits, lb_stream_events);
	if (err)
		goto free_futex;
	err = lb_debugfs_init();
	if (err)
		goto free_drain;
	err = lb_probes_install();
	if (err)
		goto free_debugfs;
	lb_drain_start();
	pr_info("lockblame: %u of %u probes planted, %u events per CPU ring\n",
		lb_probes_attached(), lb_probe_count, lb_ring_events);
	return 0;

free_debugfs:
	lb_debugfs_exit();
free_drain:
	lb_drain_exit();
free_futex:
	lb_futex_exit();
free_stacks:
	lb_stacks_free();
free_rings:
	lb_ringset_destroy(lb_rings);
	return err;
}

static void __exit lb_exit(void)
{
	/* Probes first: after this no handler runs and the rings are quiet. */
	lb_probes_remove();
	lb_debugfs_exit();
	lb_drain_exit();
	lb_futex_exit();
	lb_stacks_free();
	lb_ringset_destroy(lb_rings);
}

module_init(lb_init);
module_exit(lb_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("lockblame developers");
MODULE_DESCRIPTION("Contended-lock cause and victim attribution");
MODULE_VERSION(LB_VERSION);
