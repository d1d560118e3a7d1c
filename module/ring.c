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
#include <linux/seqlock.h>
#include <linux/module.h>
#include "lockblame.h"
#include "ring_record.h"

/*
 * The slots (ring_record.h) and, beside them, the identity tables: the
 * producer's and the drain's copy.
 */
struct lb_ring_mem {
	struct lb_ring_ids sent;	/* what the producer wrote to the ring */
	struct lb_ring_ids seen;	/* what the drain read from it */
	union lb_ring_slot buf[];
};

struct lb_ring {
	struct lb_ring_mem *mem;
	unsigned long mask;		/* capacity - 1, capacity a power of 2 */
	unsigned long head;		/* next slot the producer writes */
	unsigned long tail;		/* next slot the consumer reads */
	int nesting;			/* probes active on this CPU */
	bool kicked;			/* a drain was asked for since the last consume */
	bool urged;			/* a rescue was asked for since the last consume */
	struct lb_ring_counts counts;	/* since the ring was made */
	struct lb_ring_counts base;	/* counts at the last lb_rings_mark() */
	struct lb_event draft;		/* the event a probe builds, until its commit */
	/* The drain's: the event rebuilt from slot @out_at (absolute), if any. */
	struct lb_event out;
	unsigned long out_at;
};

struct lb_ringset {
	struct lb_ring __percpu *rings;
	unsigned long capacity;
	void (*filling)(bool urgent);	/* called from the producer, any context */
	seqcount_t base_seq;		/* a reader sees every CPU's base from one mark */
};

static const char * const lb_drop_names[LB_DROP_CAUSE_MAX] = {
	[LB_DROP_FULL] = "full",
	[LB_DROP_NESTED] = "nested",
	[LB_DROP_NOKEY] = "nokey",
};

static const char * const lb_type_names[LB_EV_TYPE_MAX] = {
	[LB_EV_WAIT_BEGIN] = "wait_begin",
	[LB_EV_WAIT_END] = "wait_end",
	[LB_EV_RELEASE] = "release",
	[LB_EV_SCOPE_ENTER] = "scope_enter",
	[LB_EV_SCOPE_EXIT] = "scope_exit",
	[LB_EV_SCOPE_WAKE] = "scope_wake",
};

struct lb_ringset *lb_ringset_create(unsigned int events_per_cpu, void (*filling)(bool urgent))
{
	struct lb_ringset *set;
	int cpu;

	if (events_per_cpu < LB_RING_EVENTS_MIN || events_per_cpu > LB_RING_EVENTS_MAX ||
	    !is_power_of_2(events_per_cpu)) {
		pr_err("ring_events=%u invalid: a power of 2 in [%u, %u]\n", events_per_cpu,
		       LB_RING_EVENTS_MIN, LB_RING_EVENTS_MAX);
		return ERR_PTR(-EINVAL);
	}
	set = kzalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		return ERR_PTR(-ENOMEM);
	set->rings = alloc_percpu(struct lb_ring);
	if (!set->rings) {
		kfree(set);
		return ERR_PTR(-ENOMEM);
	}
	set->capacity = events_per_cpu;
	set->filling = filling;
	seqcount_init(&set->base_seq);
	for_each_possible_cpu(cpu) {
		struct lb_ring *r = per_cpu_ptr(set->rings, cpu);

		r->mem = vzalloc_node(struct_size(r->mem, buf, events_per_cpu), cpu_to_node(cpu));
		if (!r->mem) {
			lb_ringset_destroy(set);
			return ERR_PTR(-ENOMEM);
		}
		r->mask = events_per_cpu - 1;
		r->out_at = ULONG_MAX;
	}
	return set;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ringset_create);

void lb_ringset_destroy(struct lb_ringset *set)
{
	int cpu;

	if (IS_ERR_OR_NULL(set))
		return;
	for_each_possible_cpu(cpu)
		vfree(per_cpu_ptr(set->rings, cpu)->mem);
	free_percpu(set->rings);
	kfree(set);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ringset_destroy);

/*
 * Ask for a drain (@urgent: the rescuer), once until the drain consumed from
 * this ring: a kick per event of a full ring was an interrupt per event (a
 * third of a million in 20 s of stress-ng), and the drain was running anyway.
 */
static void __kprobes lb_ring_ask(struct lb_ringset *set, bool *asked, bool urgent)
{
	if (set->filling && !READ_ONCE(*asked)) {
		WRITE_ONCE(*asked, true);
		set->filling(urgent);
	}
}

/*
 * Reserve room for an event in this CPU's ring: the event to fill, which
 * lb_ring_commit() packs into the ring. Preemption stays off until then so
 * the room and the counters stay on one CPU; a NULL return has already
 * counted the drop and re-enabled preemption.
 */
struct lb_event *__kprobes lb_ring_reserve(struct lb_ringset *set)
{
	struct lb_ring __percpu *rings = set->rings;
	struct lb_ring *r;
	unsigned long head;

	preempt_disable_notrace();
	this_cpu_inc(rings->counts.generated);
	if (this_cpu_inc_return(rings->nesting) > 1) {
		this_cpu_inc(rings->counts.dropped[LB_DROP_NESTED]);
		goto drop;
	}
	r = this_cpu_ptr(rings);
	head = r->head;
	/* Pairs with lb_ring_consume(): a slot is free once tail passed it. */
	if (head - smp_load_acquire(&r->tail) > r->mask) {
		this_cpu_inc(rings->counts.dropped[LB_DROP_FULL]);
		/* A full ring commits nothing: ask for the drain here too. */
		lb_ring_ask(set, &r->kicked, false);
		lb_ring_ask(set, &r->urged, true);
		goto drop;
	}
	return &r->draft;
drop:
	this_cpu_dec(rings->nesting);
	preempt_enable_notrace();
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_reserve);

/*
 * Pack @ev into the ring, with the identities it names that the ring has
 * not carried yet. False: they did not fit in a ring nearly full, and the
 * event is a counted drop (ring full).
 */
bool __kprobes lb_ring_commit(struct lb_ringset *set, struct lb_event *ev)
{
	struct lb_ring *r = this_cpu_ptr(set->rings);
	unsigned long fill, head = r->head;
	bool ok;

	/* Pairs with lb_ring_consume(), as in lb_ring_reserve(). */
	fill = head - smp_load_acquire(&r->tail);
	ok = fill + LB_RING_SLOTS_MAX <= r->mask + 1 ||
	     fill + lb_ring_pack_slots(&r->mem->sent, ev) <= r->mask + 1;
	if (!ok) {
		r->counts.dropped[LB_DROP_FULL]++;
		lb_ring_ask(set, &r->kicked, false);
		lb_ring_ask(set, &r->urged, true);
		goto out;
	}
	head = lb_ring_pack(r->mem->buf, r->mask, r->head, &r->mem->sent, ev);
	r->counts.identities += head - r->head - 1;
	if (ev->type < LB_EV_TYPE_MAX)
		r->counts.by_type[ev->type]++;
	r->counts.recorded++;
	/* Publish the slots before the consumer can see the new head. */
	smp_store_release(&r->head, head);
	/*
	 * A quarter full: ask for a drain now rather than at the next period,
	 * early enough that the drain's wakeup latency does not fill the rest.
	 * Half full: this CPU's drainer has not come (a real-time task above it
	 * holds the CPU), ask the rescuer.
	 */
	fill = head - READ_ONCE(r->tail);
	if (fill >= (r->mask + 1) / 4)
		lb_ring_ask(set, &r->kicked, false);
	if (fill >= (r->mask + 1) / 2)
		lb_ring_ask(set, &r->urged, true);
out:
	this_cpu_dec(set->rings->nesting);
	preempt_enable_notrace();
	return ok;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_commit);

/* Count an event that could not be built at all (e.g. its key was lost). */
void __kprobes lb_ring_drop(struct lb_ringset *set, enum lb_drop_cause cause)
{
	preempt_disable_notrace();
	this_cpu_inc(set->rings->counts.generated);
	this_cpu_inc(set->rings->counts.dropped[cause]);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_drop);

/* Consumer side: one consumer at a time (the drain holds its mutex). */
unsigned int lb_ring_avail(struct lb_ringset *set, int cpu)
{
	struct lb_ring *r = per_cpu_ptr(set->rings, cpu);

	/* Pairs with lb_ring_commit(): records up to head are written. */
	return smp_load_acquire(&r->head) - r->tail;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_avail);

/*
 * The first event at or after slot *@i of @cpu's ring (counted from its
 * tail), below @avail; NULL if none. The identities before it are read on
 * the way, and *@i is left at the event, so that the next call returns it
 * again until the caller moves past it.
 */
const struct lb_event *lb_ring_next(struct lb_ringset *set, int cpu, unsigned int *i,
				    unsigned int avail)
{
	struct lb_ring *r = per_cpu_ptr(set->rings, cpu);
	unsigned long at;

	for (; *i < avail; (*i)++) {
		at = r->tail + *i;
		if (at == r->out_at)
			return &r->out;
		if (lb_ring_unpack(&r->mem->buf[at & r->mask], &r->mem->seen, cpu, &r->out)) {
			r->out_at = at;
			return &r->out;
		}
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_next);

/*
 * Hand @n read slots back to the producer while a batch goes on; the kick
 * stays spent, so a ring that stays filled does not interrupt per event.
 */
void lb_ring_release(struct lb_ringset *set, int cpu, unsigned int n)
{
	struct lb_ring *r = per_cpu_ptr(set->rings, cpu);

	/* The slots are read before the producer may reuse them. */
	smp_store_release(&r->tail, r->tail + n);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_release);

/* The end of a batch: the slots back, and the next fill may kick again. */
void lb_ring_consume(struct lb_ringset *set, int cpu, unsigned int n)
{
	lb_ring_release(set, cpu, n);
	WRITE_ONCE(per_cpu_ptr(set->rings, cpu)->kicked, false);
	WRITE_ONCE(per_cpu_ptr(set->rings, cpu)->urged, false);
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_consume);

/* One CPU's counters since the ring was made; outcomes read before the attempts. */
static void lb_ring_counts_raw(struct lb_ring *r, struct lb_ring_counts *c)
{
	int i;

	c->recorded = READ_ONCE(r->counts.recorded);
	for (i = 0; i < LB_DROP_CAUSE_MAX; i++)
		c->dropped[i] = READ_ONCE(r->counts.dropped[i]);
	for (i = 0; i < LB_EV_TYPE_MAX; i++)
		c->by_type[i] = READ_ONCE(r->counts.by_type[i]);
	c->identities = READ_ONCE(r->counts.identities);
	/* Outcomes before attempts: generated >= recorded + dropped. */
	smp_rmb();
	c->generated = READ_ONCE(r->counts.generated);
	c->fill = READ_ONCE(r->head) - READ_ONCE(r->tail);
}

/*
 * A snapshot of one CPU's counters since the last lb_rings_mark() (the
 * report's window); fill is the ring's now. generated >= recorded + dropped,
 * equal when no event is on its way.
 */
void lb_ring_counts(struct lb_ringset *set, int cpu, struct lb_ring_counts *c)
{
	struct lb_ring *r = per_cpu_ptr(set->rings, cpu);
	struct lb_ring_counts b;
	unsigned int seq;
	int i;

	/* The counts after the base they are taken from: a mark between retries. */
	do {
		seq = read_seqcount_begin(&set->base_seq);
		b = r->base;
		lb_ring_counts_raw(r, c);
	} while (read_seqcount_retry(&set->base_seq, seq));
	c->generated -= b.generated;
	c->recorded -= b.recorded;
	for (i = 0; i < LB_DROP_CAUSE_MAX; i++)
		c->dropped[i] -= b.dropped[i];
	for (i = 0; i < LB_EV_TYPE_MAX; i++)
		c->by_type[i] -= b.by_type[i];
	c->identities -= b.identities;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_counts);

/*
 * Start a window: the counts from here on. An event already counted as
 * generated but not yet recorded or dropped belongs to the window, where its
 * outcome will be counted: the base's generated is its outcomes' sum.
 * Callers serialise (the drain's mutex).
 */
void lb_rings_mark(struct lb_ringset *set)
{
	struct lb_ring_counts c;
	int cpu;

	preempt_disable();
	write_seqcount_begin(&set->base_seq);
	for_each_possible_cpu(cpu) {
		struct lb_ring *r = per_cpu_ptr(set->rings, cpu);

		lb_ring_counts_raw(r, &c);
		c.generated = c.recorded + lb_ring_dropped(&c);
		c.fill = 0;
		r->base = c;
	}
	write_seqcount_end(&set->base_seq);
	preempt_enable();
}
EXPORT_SYMBOL_IF_KUNIT(lb_rings_mark);

u64 lb_ring_dropped(const struct lb_ring_counts *c)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < LB_DROP_CAUSE_MAX; i++)
		sum += c->dropped[i];
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(lb_ring_dropped);

void lb_rings_sum(struct lb_ringset *set, struct lb_ring_counts *sum)
{
	struct lb_ring_counts c;
	int cpu, i;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		lb_ring_counts(set, cpu, &c);
		sum->generated += c.generated;
		sum->recorded += c.recorded;
		sum->fill += c.fill;
		for (i = 0; i < LB_DROP_CAUSE_MAX; i++)
			sum->dropped[i] += c.dropped[i];
		for (i = 0; i < LB_EV_TYPE_MAX; i++)
			sum->by_type[i] += c.by_type[i];
		sum->identities += c.identities;
	}
}
EXPORT_SYMBOL_IF_KUNIT(lb_rings_sum);

u64 lb_rings_bytes(struct lb_ringset *set)
{
	struct lb_ring_mem *mem;

	return (u64)num_possible_cpus() *
	       (struct_size(mem, buf, set->capacity) + sizeof(struct lb_ring));
}

void lb_rings_show(struct lb_ringset *set, struct seq_file *m)
{
	struct lb_ring_counts c;
	int cpu, i;

	seq_printf(m, "ring_capacity %lu slots per cpu, %zu bytes per event\n",
		   set->capacity, sizeof(union lb_ring_slot));
	for_each_possible_cpu(cpu) {
		lb_ring_counts(set, cpu, &c);
		seq_printf(m, "cpu%d generated %llu recorded %llu dropped %llu fill %llu",
			   cpu, c.generated, c.recorded, lb_ring_dropped(&c), c.fill);
		for (i = 0; i < LB_DROP_CAUSE_MAX; i++)
			seq_printf(m, " drop_%s %llu", lb_drop_names[i], c.dropped[i]);
		for (i = 1; i < LB_EV_TYPE_MAX; i++)
			seq_printf(m, " %s %llu", lb_type_names[i], c.by_type[i]);
		seq_printf(m, " identities %llu\n", c.identities);
	}
}
