// SPDX-License-Identifier: GPL-2.0
/*
 * Module parameters: each one's default and bounds are written once, in
 * config_list.h. They are checked together before anything is allocated,
 * and only then copied into the one struct lb_config the stages read.
 * Nothing is clamped: a value out of bounds fails the load with -EINVAL.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/stringify.h>
#include <linux/log2.h>
#include "lockblame.h"
#include "ledger_internal.h"

/* The values as given at load, defaults where none was. */
#define LB_PARAM(name, def, ...) static unsigned int lb_param_##name = (def)
#include "config_list.h"
#undef LB_PARAM

#define LB_PARAM(name, ...) module_param_named(name, lb_param_##name, uint, 0444)
#include "config_list.h"
#undef LB_PARAM

#define LB_PARAM(name, def, min, max, what)					\
	MODULE_PARM_DESC(name, what ", [" __stringify(min) ", " __stringify(max) "] (" \
			 __stringify(def) ")")
#include "config_list.h"
#undef LB_PARAM

static bool lb_param_stacks;
module_param_named(stacks, lb_param_stacks, bool, 0444);
MODULE_PARM_DESC(stacks, "Record kernel (and futex user) stacks at waits and releases (0)");

static char *lb_param_skip;
module_param_named(skip, lb_param_skip, charp, 0444);
MODULE_PARM_DESC(skip, "Probe roles not to plant, comma-separated (as if this kernel lacked them); their lock classes are reported blind. An unknown role fails the load");

static struct lb_config lb_params;

static int lb_param_check(const char *name, unsigned int v, unsigned int def,
			  unsigned int min, unsigned int max)
{
	if (v >= min && v <= max)
		return 0;
	pr_err("%s=%u invalid: [%u, %u] (default %u)\n", name, v, min, max, def);
	return -EINVAL;
}

/* Every bound, then the one rule a range cannot say, then the roles to skip. */
static int lb_params_check(void)
{
	int err = 0;

#define LB_PARAM(name, def, min, max, ...)					\
	(err = err ?: lb_param_check(#name, lb_param_##name, (def), (min), (max)))
#include "config_list.h"
#undef LB_PARAM
	if (err)
		return err;
	if (!is_power_of_2(lb_param_ring_events)) {
		pr_err("ring_events=%u invalid: a power of 2 in [%u, %u]\n",
		       lb_param_ring_events, LB_RING_EVENTS_MIN, LB_RING_EVENTS_MAX);
		return -EINVAL;
	}
	return lb_probes_skip(lb_param_skip);
}

/* Check the parameters; only values that passed become the configuration. */
int lb_config_check(void)
{
	int err = lb_params_check();

	if (err)
		return err;
#define LB_PARAM(name, ...) lb_params.name = lb_param_##name
#include "config_list.h"
#undef LB_PARAM
	lb_params.stacks = lb_param_stacks;
	return 0;
}

/* The parameters as loaded; valid once lb_config_check() accepted them. */
const struct lb_config *lb_config(void)
{
	return &lb_params;
}

/* The ledger's table sizes, as its create call takes them. */
void lb_config_limits(const struct lb_config *cfg, struct lb_ledger_limits *limits)
{
	*limits = (struct lb_ledger_limits) {
		.max_locks = cfg->max_locks,
		.max_tasks = cfg->max_tasks,
		.max_waiters = cfg->max_waiters,
		.max_pairs = cfg->max_pairs,
		.max_chain_depth = cfg->max_chain_depth,
		.max_sleepers = cfg->max_sleepers,
	};
}
