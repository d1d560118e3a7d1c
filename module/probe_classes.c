// SPDX-License-Identifier: GPL-2.0
/*
 * What the planted probes see of each lock class: blind (a required role,
 * or every role, missing), partly seen (an optional role missing), and the
 * classes' names as the "probes" and "stats" files show them.
 */
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include "lockblame.h"

static const char * const lb_class_names[LB_LOCK_CLASS_MAX] = LB_LOCK_CLASS_NAMES;

static void lb_class_coverage(u32 *blind, u32 *partial)
{
	u32 served = 0, seen = 0;
	const struct lb_probe *p;
	unsigned int i;

	*blind = 0;
	*partial = 0;
	for (i = 0; (p = lb_probe_nth(i)); i++) {
		u8 c = p->lock_class;

		if (!c)
			continue;
		if (p->stands_in_for)
			continue;	/* counted with the role it serves */
		served |= BIT(c);
		if (lb_probe_served(p))
			seen |= BIT(c);
		else if (p->required)
			*blind |= BIT(c);
		else
			*partial |= BIT(c);
	}
	*blind |= served & ~seen;
	*partial &= ~*blind;
}

/* Bit c set (BIT(LB_LOCK_*)): lockblame sees nothing of lock class c. */
u32 lb_blind_classes(void)
{
	u32 blind, partial;

	lb_class_coverage(&blind, &partial);
	return blind;
}
EXPORT_SYMBOL_IF_KUNIT(lb_blind_classes);

/* Bit c set: an optional probe of class c is absent, some of it is unseen. */
u32 lb_partial_classes(void)
{
	u32 blind, partial;

	lb_class_coverage(&blind, &partial);
	return partial;
}
EXPORT_SYMBOL_IF_KUNIT(lb_partial_classes);

const char *lb_lock_class_name(u8 lock_class)
{
	if (lock_class < LB_LOCK_CLASS_MAX && lb_class_names[lock_class])
		return lb_class_names[lock_class];
	return "?";
}
EXPORT_SYMBOL_IF_KUNIT(lb_lock_class_name);

/* "futex,mutex" for a class mask, "-" for none. */
void lb_classes_show(struct seq_file *m, u32 classes)
{
	bool first = true;
	u8 c;

	if (!classes) {
		seq_putc(m, '-');
		return;
	}
	for (c = 1; c < LB_LOCK_CLASS_MAX; c++) {
		if (!(classes & BIT(c)))
			continue;
		seq_printf(m, "%s%s", first ? "" : ",", lb_lock_class_name(c));
		first = false;
	}
}
