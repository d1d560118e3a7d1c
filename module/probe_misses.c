// SPDX-License-Identifier: GPL-2.0
/*
 * The probes' misses: hits the kernel skipped (no kretprobe instance left,
 * or another kprobe running on the CPU), less the faults it counted as
 * misses; since load per probe (the "probes" table), and since the last
 * reset in sum (the report's window).
 */
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include "lockblame.h"

/*
 * Read user memory in @p's handler: a kprobe's pre-handler or a kretprobe's
 * entry handler, the probe the kernel takes as running. Before 5.14
 * ("kprobes: Remove kprobe::fault_handler"), x86 counted a
 * page fault taken there as a miss of that kprobe (its nmissed), though the
 * handler went on and lost nothing: 5.10's futex_wake showed 8 "missed"
 * hits in 46-outliers, where the user stacks' frame walk ran off mapped
 * memory. The misses the read added are counted as @p's faults, and
 * lb_probe_missed() leaves them out. A miss on another CPU during the read
 * is counted as a fault too: it erred towards fewer misses only then.
 */
int __kprobes lb_probe_read_user(struct lb_probe *p, void *dst, const void __user *src,
				 size_t n)
{
	/* kp and krp.kp are the same kprobe (the union, and krp's first member). */
	unsigned long missed = READ_ONCE(p->kp.nmissed);

	if (!copy_from_user_nofault(dst, src, n))
		return 0;
	atomic64_add(READ_ONCE(p->kp.nmissed) - missed, &p->faults);
	return -EFAULT;
}

/* @p's kprobe's own misses, less those that were faults in its handler. */
static unsigned long lb_probe_kp_missed(const struct lb_probe *p)
{
	unsigned long faults = atomic64_read(&p->faults);

	return p->kp.nmissed > faults ? p->kp.nmissed - faults : 0;
}

unsigned long lb_probe_missed(const struct lb_probe *p)
{
	if (!p->attached || p->kind == LB_TRACEPOINT)
		return 0;
	if (p->kind == LB_KPROBE)
		return lb_probe_kp_missed(p);
	return p->krp.nmissed + lb_probe_kp_missed(p);
}

/*
 * Of lb_probe_missed(): hits skipped because another kprobe was running on
 * that CPU (the kprobe's own nmissed), not for want of an instance.
 */
unsigned long lb_probe_nested(const struct lb_probe *p)
{
	if (!p->attached || p->kind == LB_TRACEPOINT)
		return 0;
	return lb_probe_kp_missed(p);
}

/* Every probe's faults in its handler (lb_probe_read_user) that the kernel counted as misses. */
unsigned long lb_probes_faults(void)
{
	unsigned long faults = 0;
	const struct lb_probe *p;
	unsigned int i;

	for (i = 0; (p = lb_probe_nth(i)); i++)
		if (p->attached && p->kind != LB_TRACEPOINT)
			faults += atomic64_read(&p->faults);
	return faults;
}

/* Every kretprobe miss of every role since it was planted: hits never seen. */
static unsigned long lb_probes_missed_all(void)
{
	unsigned long missed = 0;
	const struct lb_probe *p;
	unsigned int i;

	for (i = 0; (p = lb_probe_nth(i)); i++)
		missed += lb_probe_missed(p);
	return missed;
}

/* lb_probes_missed_all() at the last lb_probes_mark(). */
static unsigned long lb_probes_missed_base;

/* Start a window (the drain's reset): its misses are those from here on. */
void lb_probes_mark(void)
{
	WRITE_ONCE(lb_probes_missed_base, lb_probes_missed_all());
}

/*
 * The misses of the window. Probes are planted once, so the sum only grows;
 * the base is read first, so a reset racing this errs towards more misses.
 */
unsigned long lb_probes_missed(void)
{
	unsigned long base = READ_ONCE(lb_probes_missed_base);
	unsigned long all = lb_probes_missed_all();

	return all > base ? all - base : 0;
}
