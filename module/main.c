// SPDX-License-Identifier: GPL-2.0
/*
 * lockblame: who holds the contended lock (the cause) and who merely waits
 * (the victims). Load and unload: each stage set up in the order of the
 * data flow, then the probes, then the debugfs files (the only step after
 * the probes, and the last that can fail); torn down the other way round.
 */
#include <linux/module.h>
#include "lockblame.h"

/* The rings the probes write and the drain reads, for the lifetime of the module. */
static struct lb_ringset *lb_rings;

static int lb_init_stages(const struct lb_config *cfg)
{
	int err;

	lb_stacks_init(cfg->stack_entries);
	/* Off by default: the table is allocated when stacks are first on. */
	if (cfg->stacks) {
		err = lb_stacks_alloc();
		if (err)
			goto free_stacks;
	}
	err = lb_names_alloc();
	if (err)
		goto free_stacks;
	err = lb_futex_init();
	if (err)
		goto free_names;
	/* The FIFO is allocated at the first open of "events". */
	lb_stream_init(cfg->stream_events, lb_drain_now);
	err = lb_drain_init(lb_rings, cfg);
	if (err)
		goto free_stream;
	err = lb_probes_install();
	if (err)
		goto free_drain;
	/*
	 * The files last, when nothing after them can fail. A file opened
	 * while init may still fail holds a module reference that a failed
	 * load does not wait for: its release() would run in freed memory.
	 */
	err = lb_debugfs_init(lb_rings);
	if (err)
		goto remove_probes;
	return 0;

remove_probes:
	lb_probes_remove();
free_drain:
	lb_drain_exit();
free_stream:
	lb_stream_exit();
	lb_futex_exit();
free_names:
	lb_names_free();
free_stacks:
	lb_stacks_free();
	return err;
}

static int __init lb_init(void)
{
	const struct lb_config *cfg = lb_config();
	int err;

	err = lb_config_check();
	if (err)
		return err;
	err = lb_probes_selftest();
	if (err)
		return err;
	lb_rings = lb_ringset_create(cfg->ring_events, lb_drain_kick);
	if (IS_ERR(lb_rings))
		return PTR_ERR(lb_rings);
	lb_event_init(lb_rings, cfg->stacks);
	err = lb_init_stages(cfg);
	if (err) {
		lb_ringset_destroy(lb_rings);
		return err;
	}
	lb_drain_start();
	pr_info("%u of %u probes planted, %u events per CPU ring\n",
		lb_probes_attached(), lb_probes_total(), cfg->ring_events);
	return 0;
}

static void __exit lb_exit(void)
{
	/* Probes first: after this no handler runs and the rings are quiet. */
	lb_probes_remove();
	lb_debugfs_exit();
	/* No control file now: no scope can be added; after this none runs. */
	lb_scopes_clear();
	lb_drain_exit();
	lb_stream_exit();
	lb_futex_exit();
	lb_names_free();
	lb_stacks_free();
	lb_ringset_destroy(lb_rings);
}

module_init(lb_init);
module_exit(lb_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("lockblame developers");
MODULE_DESCRIPTION("Contended-lock cause and victim attribution");
MODULE_VERSION(LB_VERSION);
