// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs interface under /sys/kernel/debug/lockblame: report, ledger,
 * outliers, probes, stats, stacks and events to read, control to write.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/timekeeping.h>
#include "lockblame.h"
#include "ledger.h"

static struct dentry *lb_dir;
static struct lb_ringset *lb_rings;

static __printf(2, 3) void lb_seq_out(struct lb_out *out, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	seq_vprintf(out->priv, fmt, args);
	va_end(args);
}

static void lb_show_header(struct seq_file *m)
{
	u64 now = ktime_get_mono_fast_ns();
	u64 window = now - lb_drain_start_ns();
	struct lb_ring_counts c;
	struct lb_loss loss;
	u32 blind, partial;

	lb_rings_sum(lb_rings, &c);
	seq_printf(m, "lockblame %s (abi %d): window %llu.%03llu s, probes %u of %u planted\n",
		   LB_VERSION, LB_ABI_VERSION, window / NSEC_PER_SEC,
		   (window % NSEC_PER_SEC) / NSEC_PER_MSEC, lb_probes_attached(),
		   lb_probes_total());
	seq_printf(m, "events: generated %llu, recorded %llu, dropped %llu%s\n",
		   c.generated, c.recorded, lb_ring_dropped(&c),
		   lb_enabled() ? "" : " (tracing disabled)");
	if (lb_loss_get(&loss))
		seq_printf(m, "data: partial, %llu events lost (ring full %llu, nested %llu, nokey %llu; kretprobe missed %llu; filter evicted %llu; ledger tables dropped %llu)\n",
			   loss.total, loss.ring[LB_DROP_FULL], loss.ring[LB_DROP_NESTED],
			   loss.ring[LB_DROP_NOKEY], loss.kretprobe_missed,
			   loss.filter_evicted, loss.ledger_dropped);
	else
		seq_puts(m, "data: complete, no event lost\n");
	lb_drop_locks_show(m);
	blind = lb_blind_classes();
	partial = lb_partial_classes();
	if (blind | partial) {
		seq_puts(m, "coverage: blind ");
		lb_classes_show(m, blind);
		seq_puts(m, ", partly seen ");
		lb_classes_show(m, partial);
		seq_puts(m, " (probes absent: see probes)\n");
	}
}

/*
 * report and ledger are formatted whole while the drain waits for its lock.
 * seq_file starts with a page and, when the text does not fit, throws it
 * away and formats it all again in twice the room: a 200 KiB ledger took six
 * passes, and the rings filled meanwhile. Each file opens with the room its
 * last text needed instead, so one pass is the rule.
 */
static size_t lb_report_room = PAGE_SIZE, lb_ledger_room = PAGE_SIZE;

static void lb_room_learn(struct seq_file *m)
{
	size_t *room = m->private;

	if (!seq_has_overflowed(m))
		WRITE_ONCE(*room, PAGE_ALIGN(m->count + m->count / 4 + 1));
}

static int lb_report_show(struct seq_file *m, void *v)
{
	struct lb_out out = { .printf = lb_seq_out, .priv = m };

	lb_drain_lock();
	lb_show_header(m);
	lb_ledger_report(lb_drain_ledger(), &out);
	lb_drain_unlock();
	lb_room_learn(m);
	return 0;
}

/* report and ledger: single_open with the room @room last needed. */
#define LB_SIZED_FOPS(name)							\
static int name##_open(struct inode *inode, struct file *file)			\
{										\
	return single_open_size(file, name##_show, &name##_room,		\
				READ_ONCE(name##_room));			\
}										\
static const struct file_operations name##_fops = {				\
	.owner = THIS_MODULE,							\
	.open = name##_open,							\
	.read = seq_read,							\
	.llseek = seq_lseek,							\
	.release = single_release,						\
}

LB_SIZED_FOPS(lb_report);

static int lb_ledger_show(struct seq_file *m, void *v)
{
	struct lb_out out = { .printf = lb_seq_out, .priv = m };

	lb_drain_lock();
	lb_ledger_dump(lb_drain_ledger(), &out);
	lb_drain_unlock();
	lb_room_learn(m);
	return 0;
}

LB_SIZED_FOPS(lb_ledger);

static int lb_outliers_show(struct seq_file *m, void *v)
{
	struct lb_out out = { .printf = lb_seq_out, .priv = m };

	lb_drain_lock();
	lb_ledger_outliers(lb_drain_ledger(), &out);
	lb_drain_unlock();
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lb_outliers);

static int lb_probes_file_show(struct seq_file *m, void *v)
{
	lb_probes_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lb_probes_file);

static int lb_stats_show(struct seq_file *m, void *v)
{
	struct lb_ledger_totals t;
	u64 bytes;

	lb_drain_now();
	lb_show_header(m);
	lb_rings_show(lb_rings, m);
	lb_drain_show(m);
	lb_stream_show(m);
	lb_probes_show(m);
	seq_printf(m, "kretprobe_missed %lu\n", lb_probes_missed());
	/* Since load: faults the kernel counted as misses (before 5.14), left out above. */
	seq_printf(m, "kprobe_faults_not_missed %lu\n", lb_probes_faults());
	seq_puts(m, "blind_classes ");
	lb_classes_show(m, lb_blind_classes());
	seq_puts(m, "\npartial_classes ");
	lb_classes_show(m, lb_partial_classes());
	seq_printf(m, "\nexact %d\n", lb_data_exact());
	lb_drain_lock();
	lb_ledger_totals(lb_drain_ledger(), &t);
	lb_drain_unlock();
	seq_printf(m, "ledger events %llu late %llu unmatched %llu evicted_locks %llu evicted_tasks %llu dropped_waiters %llu dropped_pairs %llu\n",
		   t.events, t.late_events, t.unmatched_events, t.evicted_locks,
		   t.evicted_tasks, t.dropped_waiters, t.dropped_pairs);
	seq_printf(m, "ledger wait_ns %llu blame_ns %llu pending_ns %llu unattributed_ns %llu\n",
		   t.wait_ns, t.blame_ns, t.pending_ns, t.unattributed_ns);
	seq_printf(m, "memory rings %llu stacks %llu stream %llu ledger %llu bytes\n",
		   lb_rings_bytes(lb_rings), lb_stacks_bytes(), lb_stream_bytes(),
		   lb_ledger_bytes(lb_drain_ledger()));
	/* All of it, with the filter's and the futex probes' tables. */
	bytes = lb_rings_bytes(lb_rings) + lb_stacks_bytes() + lb_stream_bytes() +
		lb_ledger_bytes(lb_drain_ledger()) + lb_filter_bytes() + lb_futex_bytes() +
		lb_names_bytes();
	seq_printf(m, "memory_total %llu bytes, %llu per cpu (with filter %llu futex_slots %llu names %llu; the kernel's kretprobe_pools below not counted)\n",
		   bytes, div_u64(bytes, num_possible_cpus()), lb_filter_bytes(),
		   lb_futex_bytes(), lb_names_bytes());
	lb_kretprobe_pools_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lb_stats);

static int lb_stacks_file_show(struct seq_file *m, void *v)
{
	lb_stacks_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lb_stacks_file);

static int lb_names_file_show(struct seq_file *m, void *v)
{
	lb_names_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lb_names_file);

static int lb_scopes_file_show(struct seq_file *m, void *v)
{
	lb_scopes_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(lb_scopes_file);

static int lb_control_show_file(struct seq_file *m, void *v)
{
	lb_control_show(m);
	return 0;
}

static int lb_control_open(struct inode *inode, struct file *file)
{
	return single_open(file, lb_control_show_file, NULL);
}

static ssize_t lb_control_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	char buf[LB_CONTROL_MAX];
	size_t i;
	int err;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	/* One line of printable ASCII: a NUL, control or 8-bit byte is an error. */
	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if ((c < 0x20 || c > 0x7e) && c != '\t' && !(c == '\n' && i == len - 1))
			return -EINVAL;
	}
	err = lb_control_exec(buf);
	return err ? err : len;
}

static const struct file_operations lb_control_fops = {
	.owner = THIS_MODULE,
	.open = lb_control_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = lb_control_write,
};

int lb_debugfs_init(struct lb_ringset *rings)
{
	lb_rings = rings;
	lb_dir = debugfs_create_dir("lockblame", NULL);
	if (IS_ERR(lb_dir))
		return PTR_ERR(lb_dir);
	debugfs_create_file("report", 0400, lb_dir, NULL, &lb_report_fops);
	debugfs_create_file("ledger", 0400, lb_dir, NULL, &lb_ledger_fops);
	debugfs_create_file("outliers", 0400, lb_dir, NULL, &lb_outliers_fops);
	debugfs_create_file("probes", 0400, lb_dir, NULL, &lb_probes_file_fops);
	debugfs_create_file("stats", 0400, lb_dir, NULL, &lb_stats_fops);
	debugfs_create_file("stacks", 0400, lb_dir, NULL, &lb_stacks_file_fops);
	debugfs_create_file("names", 0400, lb_dir, NULL, &lb_names_file_fops);
	debugfs_create_file("scopes", 0400, lb_dir, NULL, &lb_scopes_file_fops);
	debugfs_create_file("control", 0600, lb_dir, NULL, &lb_control_fops);
	debugfs_create_file("events", 0400, lb_dir, NULL, &lb_stream_fops);
	return 0;
}

void lb_debugfs_exit(void)
{
	debugfs_remove_recursive(lb_dir);
	lb_dir = NULL;
}
