// SPDX-License-Identifier: GPL-2.0
/*
 * lb_floor: the cost floor of probing lockblame's symbols. It plants empty
 * kprobes and kretprobes on the symbols it is given (those lockblame planted,
 * read from its debugfs "probes" file by tools/bench/realtools) and counts
 * probed calls (kprobe and kretprobe entries), as lockblame counts its hits.
 * Its kretprobes always run their (empty) return handler. Nothing else.
 *
 *   insmod lb_floor.ko kprobes=sym,... kretprobes=sym,... [maxactive=N]
 *   cat /sys/kernel/debug/lb_floor/hits
 */
#include <linux/debugfs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#define LB_FLOOR_MAX 32

static char *kprobes;
module_param(kprobes, charp, 0400);
MODULE_PARM_DESC(kprobes, "comma-separated symbols to kprobe");
static char *kretprobes;
module_param(kretprobes, charp, 0400);
MODULE_PARM_DESC(kretprobes, "comma-separated symbols to kretprobe");
static unsigned int maxactive = 4096;
module_param(maxactive, uint, 0400);
MODULE_PARM_DESC(maxactive, "kretprobe instances (lockblame's max_blocked default)");

static DEFINE_PER_CPU(u64, lb_floor_hits);
static struct kprobe *lb_floor_kps[LB_FLOOR_MAX];
static struct kretprobe *lb_floor_krps[LB_FLOOR_MAX];
static unsigned int lb_floor_nkp, lb_floor_nkrp;
static struct dentry *lb_floor_dir;

static int lb_floor_pre(struct kprobe *kp, struct pt_regs *regs)
{
	this_cpu_inc(lb_floor_hits);
	return 0;
}

/* A call is one hit, as in lockblame: the entry counts, the return does not. */
static int lb_floor_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	this_cpu_inc(lb_floor_hits);
	return 0;
}

static int lb_floor_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

static int lb_floor_hits_show(struct seq_file *m, void *v)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(lb_floor_hits, cpu);
	seq_printf(m, "%llu\n", sum);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lb_floor_hits);

static void lb_floor_unplant(void)
{
	unsigned int i;

	for (i = 0; i < lb_floor_nkp; i++) {
		unregister_kprobe(lb_floor_kps[i]);
		kfree(lb_floor_kps[i]->symbol_name);
		kfree(lb_floor_kps[i]);
	}
	for (i = 0; i < lb_floor_nkrp; i++) {
		unregister_kretprobe(lb_floor_krps[i]);
		kfree(lb_floor_krps[i]->kp.symbol_name);
		kfree(lb_floor_krps[i]);
	}
	lb_floor_nkp = 0;
	lb_floor_nkrp = 0;
}

static int lb_floor_kprobe(const char *sym)
{
	struct kprobe *kp;
	int err;

	if (lb_floor_nkp == LB_FLOOR_MAX)
		return -E2BIG;
	kp = kzalloc(sizeof(*kp), GFP_KERNEL);
	if (!kp)
		return -ENOMEM;
	kp->symbol_name = kstrdup(sym, GFP_KERNEL);
	kp->pre_handler = lb_floor_pre;
	err = kp->symbol_name ? register_kprobe(kp) : -ENOMEM;
	if (err) {
		kfree(kp->symbol_name);
		kfree(kp);
		return err;
	}
	lb_floor_kps[lb_floor_nkp++] = kp;
	return 0;
}

static int lb_floor_kretprobe(const char *sym)
{
	struct kretprobe *krp;
	int err;

	if (lb_floor_nkrp == LB_FLOOR_MAX)
		return -E2BIG;
	krp = kzalloc(sizeof(*krp), GFP_KERNEL);
	if (!krp)
		return -ENOMEM;
	krp->kp.symbol_name = kstrdup(sym, GFP_KERNEL);
	krp->entry_handler = lb_floor_entry;
	krp->handler = lb_floor_ret;
	krp->maxactive = max_t(unsigned int, maxactive, 4 * num_possible_cpus());
	err = krp->kp.symbol_name ? register_kretprobe(krp) : -ENOMEM;
	if (err) {
		kfree(krp->kp.symbol_name);
		kfree(krp);
		return err;
	}
	lb_floor_krps[lb_floor_nkrp++] = krp;
	return 0;
}

/* Plants one probe per comma-separated symbol in list, with plant(). */
static int lb_floor_plant(const char *list, int (*plant)(const char *))
{
	char *copy, *s, *sym;
	int err = 0;

	if (!list || !*list)
		return 0;
	copy = kstrdup(list, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	s = copy;
	while (!err && (sym = strsep(&s, ",")))
		if (*sym) {
			err = plant(sym);
			if (err)
				pr_err("lb_floor: %s: error %d\n", sym, err);
		}
	kfree(copy);
	return err;
}

static int __init lb_floor_init(void)
{
	int err;

	err = lb_floor_plant(kprobes, lb_floor_kprobe);
	if (!err)
		err = lb_floor_plant(kretprobes, lb_floor_kretprobe);
	if (err) {
		lb_floor_unplant();
		return err;
	}
	lb_floor_dir = debugfs_create_dir("lb_floor", NULL);
	debugfs_create_file("hits", 0400, lb_floor_dir, NULL, &lb_floor_hits_fops);
	pr_info("lb_floor: %u kprobes, %u kretprobes\n", lb_floor_nkp, lb_floor_nkrp);
	return 0;
}

static void __exit lb_floor_exit(void)
{
	debugfs_remove(lb_floor_dir);
	lb_floor_unplant();
}

module_init(lb_floor_init);
module_exit(lb_floor_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Empty kprobes on lockblame's symbols: the probing cost floor");
