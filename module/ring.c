// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU event rings: one producer (the probes on that CPU, with preemption
 * off), one consumer (the drain). Re-entry on a CPU and a full ring are
 * counted drops, never corruption: generated == recorded + dropped per CPU.
 */
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/seq_file.h>
#include <linux/log2.h>
#include "lockblame.h"

struct lb_ring {
	struct lb_event *buf;
	unsigned long mask;		/* capacity - 1, capacity a power of 2 */
	unsigned long head;		/* next slot the producer writes */
	unsigned long tail;		/* next slot the consumer reads */
	int nesting;			/* probes active on this CPU */
	u64 generated;			/* events the probes tried to record */
	u64 recorded;			/* events committed to the ring */
	u64 dropped[LB_DROP_CAUSE_MAX];
	u64 by_type[LB_EV_TYPE_MAX];
};

static struct lb_ring __percpu *lb_rings;
static unsigned long lb_ring_capacity;

static const char * const lb_drop_names[LB_DROP_CAUSE_MAX] = {
	[LB_DROP_FULL] = "full",
	[LB_DROP_NESTED] = "nested",
	[LB_DROP_NOKEY] = "nokey",
};

static const char * const lb_type_names[LB_EV_TYPE_MAX] = {
	[LB_EV_WAIT_BEGIN] = "wait_begin",
	[LB_EV_WAIT_END] = "wait_end",
	[LB_EV_RELEASE] = "release",
};

int lb_rings_alloc(unsigned int events_per_cpu)
{
	int cpu;

	if (events_per_cpu < 64 || events_per_cpu > (1U << 20) ||
	    !is_power_of_2(events_per_cpu)) {
		pr_err("lockblame: ring_events=%u invalid: a power of 2 in [64, 1048576]\n",
		       events_per_cpu);
		return -EINVAL;
	}
	lb_rings = alloc_percpu(struct lb_ring);
	if (!lb_rings)
		return -ENOMEM;
	lb_ring_capacity = events_per_cpu;
	for_each_possible_cpu(cpu) {
		struct lb_ring *r = per_cpu_ptr(lb_rings, cpu);

		r->buf = vzalloc_node(array_size(events_per_cpu, sizeof(*r->buf)),
				      cpu_to_node(cpu));
		if (!r->buf) {
			lb_rings_free();
			return -ENOMEM;
		}
		r->mask = events_per_cpu - 1;
	}
	return 0;
}

void lb_rings_free(void)
{
	int cpu;

	if (!lb_rings)
		return;
	for_each_possible_cpu(cpu)
		vfree(per_cpu_ptr(lb_rings, cpu)->buf);
	free_percpu(lb_rings);
	lb_rings = NULL;
}

/*
 * Reserve the next slot of this CPU's ring. Preemption stays off until
 * lb_ring_commit() so the slot and the counters stay on one CPU; a NULL
 * return has already counted the drop and re-enabled preemption.
 */
struct lb_event *lb_ring_reserve(void)
{
	struct lb_ring *r;
	unsigned long head;

	preempt_disable_notrace();
	this_cpu_inc(lb_rings->generated);
	if (this_cpu_inc_return(lb_rings->nesting) > 1) {
		this_cpu_inc(lb_rings->dropped[LB_DROP_NESTED]);
		goto drop;
	}
	r = this_cpu_ptr(lb_rings);
	head = r->head;
	if (head - smp_load_acquire(&r->tail) > r->mask) {
		this_cpu_inc(lb_rings->dropped[LB_DROP_FULL]);
		goto drop;
	}
	return &r->buf[head & r->mask];
drop:
	this_cpu_dec(lb_rings->nesting);
	preempt_enable_notrace();
	return NULL;
}
NOKPROBE_SYMBOL(lb_ring_reserve);

void lb_ring_commit(struct lb_event *ev)
{
	struct lb_ring *r = this_cpu_ptr(lb_rings);

	if (ev->type < LB_EV_TYPE_MAX)
		r->by_type[ev->type]++;
	r->recorded++;
	/* Publish the record before the consumer can see the new head. */
	smp_store_release(&r->head, r->head + 1);
	this_cpu_dec(lb_rings->nesting);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(lb_ring_commit);

/* Count an event that could not be built at all (e.g. its key was lost). */
void lb_ring_drop(enum lb_drop_cause cause)
{
	preempt_disable_notrace();
	this_cpu_inc(lb_rings->generated);
	this_cpu_inc(lb_rings->dropped[cause]);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(lb_ring_drop);

/* Consumer side: only the drain calls these, serialised by its mutex. */
unsigned int lb_ring_avail(int cpu)
{
	struct lb_ring *r = per_cpu_ptr(lb_rings, cpu);

	return smp_load_acquire(&r->head) - r->tail;
}

const struct lb_event *lb_ring_at(int cpu, unsigned int i)
{
	struct lb_ring *r = per_cpu_ptr(lb_rings, cpu);

	return &r->buf[(r->tail + i) & r->mask];
}

void lb_ring_consume(int cpu, unsigned int n)
{
	struct lb_ring *r = per_cpu_ptr(lb_rings, cpu);

	/* The slots are read before the producer may reuse them. */
	smp_store_release(&r->tail, r->tail + n);
}

u64 lb_rings_bytes(void)
{
	return (u64)num_possible_cpus() *
	       (lb_ring_capacity * sizeof(struct lb_event) + sizeof(struct lb_ring));
}

static u64 lb_ring_dropped(const struct lb_ring *r)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < LB_DROP_CAUSE_MAX; i++)
		sum += READ_ONCE(r->dropped[i]);
	return sum;
}

u64 lb_rings_total(int what)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct lb_ring *r = per_cpu_ptr(lb_rings, cpu);

		if (what == LB_TOTAL_GENERATED)
			sum += READ_ONCE(r->generated);
		else if (what == LB_TOTAL_RECORDED)
			sum += READ_ONCE(r->recorded);
		else
			sum += lb_ring_dropped(r);
	}
	return sum;
}

void lb_rings_show(struct seq_file *m)
{
	int cpu, i;

	seq_printf(m, "ring_capacity %lu events per cpu, %zu bytes per event\n",
		   lb_ring_capacity, sizeof(struct lb_event));
	for_each_possible_cpu(cpu) {
		struct lb_ring *r = per_cpu_ptr(lb_rings, cpu);
		/* Read the outcomes before the attempts: generated >= their sum. */
		u64 recorded = READ_ONCE(r->recorded);
		u64 dropped = lb_ring_dropped(r);
		u64 generated = READ_ONCE(r->generated);

		seq_printf(m, "cpu%d generated %llu recorded %llu dropped %llu fill %lu",
			   cpu, generated, recorded, dropped,
			   READ_ONCE(r->head) - READ_ONCE(r->tail));
		for (i = 0; i < LB_DROP_CAUSE_MAX; i++)
			seq_printf(m, " drop_%s %llu", lb_drop_names[i],
				   READ_ONCE(r->dropped[i]));
		for (i = 1; i < LB_EV_TYPE_MAX; i++)
			seq_printf(m, " %s %llu", lb_type_names[i],
				   READ_ONCE(r->by_type[i]));
		seq_putc(m, '\n');
	}
}
