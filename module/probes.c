// SPDX-License-Identifier: GPL-2.0
/*
 * The probe roles of every family, walked as one table (each probe_*.c owns
 * its rows: probe_table.h), and the code that plants, removes, self-tests
 * and describes them.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/seq_file.h>
#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/tracepoint.h>
#include "lockblame.h"

/*
 * Each role serves one lock class: without a required role the class is
 * blind, without an optional one partly seen. Candidates are tried in
 * order; -ENOENT moves to the next one. A family's stand-ins serve its own
 * roles.
 */
static const struct lb_probe_family *const lb_families[] = {
	&lb_futex_family, &lb_mutex_family, &lb_rwsem_family,
};

/* Row @i of every family's table in turn, or NULL past the last. */
struct lb_probe *lb_probe_nth(unsigned int i)
{
	unsigned int f;

	for (f = 0; f < ARRAY_SIZE(lb_families); f++) {
		if (i < lb_families[f]->count)
			return &lb_families[f]->table[i];
		i -= lb_families[f]->count;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(lb_probe_nth);

unsigned int lb_probes_total(void)
{
	unsigned int f, n = 0;

	for (f = 0; f < ARRAY_SIZE(lb_families); f++)
		n += lb_families[f]->count;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(lb_probes_total);

struct lb_probe *lb_probe_find(const char *role)
{
	struct lb_probe *p;
	unsigned int i;

	for (i = 0; (p = lb_probe_nth(i)); i++)
		if (!strcmp(p->role, role))
			return p;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(lb_probe_find);

/*
 * skip=ROLE[,ROLE...]: plant none of these roles, as on a kernel that lacks
 * their symbols; a skipped role, required or not, leaves its lock classes
 * blind but lets the module load. An unknown role fails the load.
 */
int lb_probes_skip(const char *list)
{
	char role[32];
	const char *s = list, *end;
	struct lb_probe *p;
	unsigned int i;
	size_t n;

	for (i = 0; (p = lb_probe_nth(i)); i++)
		p->skipped = false;
	while (s && *s) {
		end = strchrnul(s, ',');
		n = end - s;
		if (!n || n >= sizeof(role)) {
			pr_err("skip=%s: empty or overlong role name\n", list);
			return -EINVAL;
		}
		memcpy(role, s, n);
		role[n] = '\0';
		p = lb_probe_find(role);
		if (!p) {
			pr_err("skip=%s: no probe role '%s' (see the probes file for the roles)\n",
			       list, role);
			return -EINVAL;
		}
		p->skipped = true;
		s = *end ? end + 1 : end;
	}
	return 0;
}

/*
 * Kretprobes on calls a task never sleeps in waiting for another task: it
 * holds the instance only while it runs the call (a page fault or a
 * preemption at most), so the kernel's default pool is enough: max(10,
 * 2 x CPUs) (kprobes.rst: NR_CPUS for a call that keeps the CPU, twice that
 * for preemption). A call that runs out is counted in "missed" and its key
 * in nokey. Since 6.7 the pool is an objpool whose every CPU holds a ring of
 * roundup_pow_of_two(maxactive) pointers: max_blocked (4,096) on one of these
 * cost 32 KiB a CPU each, for instances never used at once.
 */
static const char * const lb_short_calls[] = { "futex_key", "futex_setup", "futex_wake" };

static bool lb_probe_short_call(const struct lb_probe *p)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lb_short_calls); i++)
		if (!strcmp(p->role, lb_short_calls[i]))
			return true;
	return false;
}

/* The rest (mutex_lock, rwsem down, futex_lock_pi, ...) hold theirs asleep. */
static unsigned int lb_maxactive(const struct lb_probe *p)
{
	unsigned int dflt = max_t(unsigned int, 10, 2 * num_possible_cpus());

	if (lb_probe_short_call(p))
		return dflt;
	return max_t(unsigned int, lb_config()->max_blocked, 4 * num_possible_cpus());
}

#ifndef _LINUX_OBJPOOL_H
/* SLUB's kmalloc size classes: powers of two, and 96 and 192. */
static size_t lb_kmalloc_class(size_t size)
{
	if (size > 64 && size <= 96)
		return 96;
	if (size > 128 && size <= 192)
		return 192;
	return roundup_pow_of_two(max_t(size_t, size, 8));
}
#endif

/*
 * What register_kretprobe() allocated for @p's instances, as the kernel
 * sizes it. An instance is struct kretprobe_instance and data_size bytes.
 * Since 6.7 (linux/objpool.h) they live in an objpool: for each possible CPU
 * one vmalloc'd (so page-rounded) block of a ring of
 * roundup_pow_of_two(maxactive) pointers and that CPU's share of the
 * instances, and an array of nr_cpu_ids block pointers. Before, each
 * instance was one kmalloc.
 */
static u64 lb_kretprobe_pool_bytes(const struct lb_probe *p)
{
	size_t obj = sizeof(struct kretprobe_instance) + p->krp.data_size;
	unsigned int n = p->krp.maxactive;
#ifdef _LINUX_OBJPOOL_H
	unsigned int cpus = num_possible_cpus(), i;
	size_t ring = sizeof(struct objpool_slot) + roundup_pow_of_two(n) * sizeof(void *);
	u64 bytes = (u64)nr_cpu_ids * sizeof(void *);

	obj = ALIGN(obj, sizeof(long));
	for (i = 0; i < cpus; i++)
		bytes += PAGE_ALIGN(ring + obj * (n / cpus + (i < n % cpus)));
	return bytes;
#else
	return (u64)n * lb_kmalloc_class(obj);
#endif
}

/* The planted kretprobes' pools, all of them. */
u64 lb_kretprobe_pools_bytes(void)
{
	const struct lb_probe *p;
	unsigned int i;
	u64 bytes = 0;

	for (i = 0; (p = lb_probe_nth(i)); i++)
		if (p->attached && p->kind == LB_KRETPROBE)
			bytes += lb_kretprobe_pool_bytes(p);
	return bytes;
}

struct lb_tp_lookup {
	const char *name;
	struct tracepoint *tp;
};

static void lb_tp_match(struct tracepoint *tp, void *priv)
{
	struct lb_tp_lookup *q = priv;

	if (!strcmp(tp->name, q->name))
		q->tp = tp;
}

/* Tracepoints are found by name: modules may not link to them all. NULL: none. */
struct tracepoint *lb_tracepoint_find(const char *name)
{
	struct lb_tp_lookup q = { .name = name };

	for_each_kernel_tracepoint(lb_tp_match, &q);
	return q.tp;
}

static int lb_tracepoint_register(struct lb_probe *p, const char *name)
{
	struct tracepoint *tp = lb_tracepoint_find(name);
	int err;

	if (!tp)
		return -ENOENT;
	err = tracepoint_probe_register(tp, p->tp_probe, p);
	if (!err)
		p->tp = tp;
	return err;
}

/* Registration writes into the struct: refill it before every attempt. */
static int lb_probe_register(struct lb_probe *p, const char *sym)
{
	if (p->kind == LB_TRACEPOINT)
		return lb_tracepoint_register(p, sym);
	if (p->kind == LB_KPROBE) {
		memset(&p->kp, 0, sizeof(p->kp));
		p->kp.symbol_name = sym;
		p->kp.pre_handler = p->pre;
		return register_kprobe(&p->kp);
	}
	memset(&p->krp, 0, sizeof(p->krp));
	p->krp.kp.symbol_name = sym;
	p->krp.entry_handler = p->entry;
	p->krp.handler = p->ret;
	p->krp.data_size = p->data_size;
	p->krp.maxactive = lb_maxactive(p);
	return register_kretprobe(&p->krp);
}

static void lb_probe_unregister(struct lb_probe *p)
{
	if (!p->attached)
		return;
	if (p->kind == LB_TRACEPOINT) {
		tracepoint_probe_unregister(p->tp, p->tp_probe, p);
		/* No call of the probe may be running once it is gone. */
		tracepoint_synchronize_unregister();
		p->tp = NULL;
	} else if (p->kind == LB_KPROBE) {
		unregister_kprobe(&p->kp);
	} else {
		unregister_kretprobe(&p->krp);
	}
}

int lb_probe_plant(struct lb_probe *p)
{
	unsigned int i;
	int err = -ENOENT;

	p->attached = NULL;
	atomic64_set(&p->hits, 0);
	atomic64_set(&p->mismatches, 0);
	atomic64_set(&p->faults, 0);
	for (i = 0; i < LB_MAX_CANDIDATES && p->candidates[i]; i++) {
		/* Handlers may run as soon as it is registered: layout first. */
		p->layout = p->cand_args[i] ? p->cand_args[i] : &p->args;
		err = lb_probe_register(p, p->candidates[i]);
		if (!err) {
			p->attached = p->candidates[i];
			p->returns_int = p->int_candidates & BIT(i);
			break;
		}
		if (err != -ENOENT)
			break;
	}
	p->error = err;
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(lb_probe_plant);

void lb_probe_unplant(struct lb_probe *p)
{
	lb_probe_unregister(p);
	p->attached = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(lb_probe_unplant);

void lb_probes_remove_table(struct lb_probe *table, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		lb_probe_unplant(&table[i]);
}
EXPORT_SYMBOL_IF_KUNIT(lb_probes_remove_table);

/* A stand-in of @table planted for @p's role, or NULL. */
static struct lb_probe *lb_probe_standin_of(struct lb_probe *table, unsigned int n,
					    const struct lb_probe *p)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (table[i].stands_in_for && table[i].attached &&
		    !strcmp(table[i].stands_in_for, p->role))
			return &table[i];
	return NULL;
}

/* The stand-in planted for @p's role, in @p's own family, or NULL. */
static struct lb_probe *lb_probe_standin(const struct lb_probe *p)
{
	unsigned int f;

	for (f = 0; f < ARRAY_SIZE(lb_families); f++) {
		const struct lb_probe_family *fam = lb_families[f];

		if (p >= fam->table && p < fam->table + fam->count)
			return lb_probe_standin_of(fam->table, fam->count, p);
	}
	return NULL;
}

/*
 * @p found no symbol: plant its stand-ins, except skipped ones. 0 when one
 * serves it, -ENOENT when none exists, -ENODEV when every one was skipped.
 */
static int lb_probe_plant_standins(struct lb_probe *table, unsigned int n,
				   const struct lb_probe *p)
{
	int err = -ENOENT;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct lb_probe *q = &table[i];

		if (!q->stands_in_for || strcmp(q->stands_in_for, p->role))
			continue;
		if (q->skipped) {
			err = err ? -ENODEV : 0;
			continue;
		}
		if (!lb_probe_plant(q)) {
			pr_info("probe %s: no symbol on this kernel; %s stands in, on %s\n",
				p->role, q->role, q->attached);
			err = 0;
		}
	}
	return err;
}

/* Mark @p skipped: not planted, its lock class blind or partly seen. */
static void lb_probe_mark_skipped(struct lb_probe *p)
{
	p->attached = NULL;
	p->error = -ENOENT;
	pr_info("probe %s not planted (skip=): lock class %s is %s\n", p->role,
		lb_lock_class_name(p->lock_class), p->required ? "blind" : "partly seen");
}

/*
 * Plant every probe of @table. A missing optional probe is reported and
 * skipped; a missing required one is served by its stand-ins where the table
 * has some, else removes what was planted and fails. Stand-ins are planted
 * only for a role that found no symbol, skipped or not (as on a kernel
 * without it).
 */
int lb_probes_install_table(struct lb_probe *table, unsigned int n)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		table[i].attached = NULL;
		table[i].error = 0;
	}
	for (i = 0; i < n; i++) {
		struct lb_probe *p = &table[i];

		if (p->stands_in_for)
			continue;
		err = p->skipped ? -ENOENT : lb_probe_plant(p);
		if (!err)
			continue;
		if (err == -ENOENT) {
			int standin = lb_probe_plant_standins(table, n, p);

			if (!standin)
				continue;
			if (p->skipped || standin == -ENODEV) {
				lb_probe_mark_skipped(p);
				continue;
			}
		}
		if (p->required) {
			pr_err("required probe %s: %s (%d)\n", p->role,
			       err == -ENOENT ? "no candidate symbol on this kernel" :
			       "registration failed", err);
			lb_probes_remove_table(table, n);
			return err;
		}
		pr_info("optional probe %s not planted (%d)\n", p->role, err);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(lb_probes_install_table);

/* @p, or a stand-in for it, is planted: its part of the lock class is seen. */
bool lb_probe_served(const struct lb_probe *p)
{
	return p->attached ||
	       (!p->stands_in_for && lb_probe_standin(p));
}
EXPORT_SYMBOL_IF_KUNIT(lb_probe_served);

int lb_probes_install(void)
{
	unsigned int f;
	int err;

	for (f = 0; f < ARRAY_SIZE(lb_families); f++) {
		err = lb_probes_install_table(lb_families[f]->table, lb_families[f]->count);
		if (err) {
			while (f--)
				lb_probes_remove_table(lb_families[f]->table,
						       lb_families[f]->count);
			return err;
		}
	}
	return 0;
}

void lb_probes_remove(void)
{
	unsigned int f;

	for (f = 0; f < ARRAY_SIZE(lb_families); f++)
		lb_probes_remove_table(lb_families[f]->table, lb_families[f]->count);
}

unsigned int lb_probes_attached(void)
{
	const struct lb_probe *p;
	unsigned int i, n = 0;

	for (i = 0; (p = lb_probe_nth(i)); i++)
		n += !!p->attached;
	return n;
}

/* Self-test: prove kprobes fire on this kernel before planting the real ones. */
static atomic_t lb_selftest_hits = ATOMIC_INIT(0);

static noinline int lb_selftest_target(int x)
{
	/* Keep the call: the compiler must not fold it into the caller. */
	barrier();
	return x + 1;
}

static int lb_selftest_pre(struct kprobe *kp, struct pt_regs *regs)
{
	atomic_inc(&lb_selftest_hits);
	return 0;
}

int lb_probes_selftest(void)
{
	struct kprobe kp = {
		.addr = (kprobe_opcode_t *)lb_selftest_target,
		.pre_handler = lb_selftest_pre,
	};
	int err;

	err = register_kprobe(&kp);
	if (err) {
		pr_err("kprobe self-test cannot register (%d)\n", err);
		return err;
	}
	atomic_set(&lb_selftest_hits, 0);
	lb_selftest_target(1);
	unregister_kprobe(&kp);
	if (atomic_read(&lb_selftest_hits) != 1) {
		pr_err("kprobe self-test: handler ran %d times, not 1\n",
		       atomic_read(&lb_selftest_hits));
		return -EIO;
	}
	return 0;
}

/* The "probes" file, and the probes' part of "stats": one row per role. */
void lb_probes_show(struct seq_file *m)
{
	static const char * const kinds[] = {
		[LB_KPROBE] = "kprobe", [LB_KRETPROBE] = "kretprobe",
		[LB_TRACEPOINT] = "tracepoint",
	};
	struct lb_probe *p;
	unsigned int i;

	seq_printf(m, "%-26s %-10s %-9s %-40s %10s %8s %10s %8s\n", "role", "kind",
		   "need", "symbol", "hits", "missed", "mismatch", "nested");
	for (i = 0; (p = lb_probe_nth(i)); i++) {
		char state[48], need[40];

		if (p->attached)
			scnprintf(state, sizeof(state), "%s", p->attached);
		else if (lb_probe_served(p))
			scnprintf(state, sizeof(state), "via:%s",
				  lb_probe_standin(p)->role);
		else if (p->stands_in_for && !p->skipped && !p->error)
			scnprintf(state, sizeof(state), "unused");
		else if (p->skipped)
			scnprintf(state, sizeof(state), "absent (skipped)");
		else if (p->error == -ENOENT)
			scnprintf(state, sizeof(state), "absent");
		else
			scnprintf(state, sizeof(state), "error(%d)", p->error);
		if (p->stands_in_for)
			scnprintf(need, sizeof(need), "for:%s", p->stands_in_for);
		else
			scnprintf(need, sizeof(need), "%s", p->required ? "required" : "optional");
		seq_printf(m, "%-26s %-10s %-9s %-40s %10lld %8lu %10lld %8lu\n", p->role,
			   kinds[p->kind], need, state,
			   (long long)atomic64_read(&p->hits), lb_probe_missed(p),
			   (long long)atomic64_read(&p->mismatches), lb_probe_nested(p));
	}
}

/*
 * The "stats" lines of the kretprobes' instance pools: what each planted
 * kretprobe's maxactive made the kernel allocate, and the sum.
 */
void lb_kretprobe_pools_show(struct seq_file *m)
{
	const struct lb_probe *p;
	unsigned int i;

	for (i = 0; (p = lb_probe_nth(i)); i++)
		if (p->attached && p->kind == LB_KRETPROBE)
			seq_printf(m, "kretprobe_pool %s maxactive %d bytes %llu\n", p->role,
				   p->krp.maxactive, lb_kretprobe_pool_bytes(p));
	seq_printf(m, "memory kretprobe_pools %llu bytes, %llu per cpu\n",
		   lb_kretprobe_pools_bytes(),
		   div_u64(lb_kretprobe_pools_bytes(), num_possible_cpus()));
}
