// SPDX-License-Identifier: GPL-2.0
/*
 * The binary event stream, debugfs "events": a FIFO the drain fills with
 * every event it feeds the ledger from the first open on, read by one open
 * description at a time (header first, then whole records, each consumed
 * once it reached the reader's buffer).
 */
#include <linux/fs.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/seq_file.h>
#include <linux/cpumask.h>
#include "lockblame.h"

/* The FIFO: the drain writes, the reader of "events" consumes. */
static DEFINE_SPINLOCK(lb_stream_lock);
static struct lb_event *lb_stream_buf;
static unsigned int lb_stream_cap;	/* 0 until the FIFO is allocated */
/*
 * stream_events: the FIFO's size once it is allocated, at the first open of
 * "events". Until then the drain tees nothing: a host that never reads the
 * stream does not spend 736 KiB (4,096 records) on it.
 */
static unsigned int lb_stream_want;
static DEFINE_MUTEX(lb_stream_alloc_mutex);
static u64 lb_stream_head, lb_stream_tail, lb_stream_dropped;
static u64 lb_stream_start_ns;		/* the header's clock at load or reset */
static atomic_t lb_stream_readers = ATOMIC_INIT(0);
/* Brings the FIFO up to date before a read: the drain, given at init. */
static void (*lb_stream_catch_up)(void);

/*
 * What one open description has read so far. Its readers are serialised:
 * two threads reading one descriptor get disjoint records, and a record is
 * consumed only once it reached the reader's buffer (a fault leaves it for
 * the next read).
 */
struct lb_stream_reader {
	struct mutex lock;	/* serialises the readers of this open */
	size_t hdr_off;		/* header bytes already read */
};

void lb_stream_init(unsigned int events, void (*catch_up)(void))
{
	lb_stream_catch_up = catch_up;
	lb_stream_want = events;
}

/* The FIFO, allocated at the first open; it stays until the module goes. */
static int lb_stream_alloc(void)
{
	struct lb_event *buf;
	int err = 0;

	mutex_lock(&lb_stream_alloc_mutex);
	if (READ_ONCE(lb_stream_cap))
		goto out;
	buf = vmalloc(array_size(lb_stream_want, sizeof(*buf)));
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	spin_lock(&lb_stream_lock);
	lb_stream_buf = buf;
	lb_stream_tail = lb_stream_head;
	WRITE_ONCE(lb_stream_cap, lb_stream_want);
	spin_unlock(&lb_stream_lock);
out:
	mutex_unlock(&lb_stream_alloc_mutex);
	return err;
}

void lb_stream_exit(void)
{
	vfree(lb_stream_buf);
	lb_stream_buf = NULL;
	lb_stream_cap = 0;
}

/* From the drain, for each event it feeds the ledger. */
void lb_stream_push(const struct lb_event *ev)
{
	/* Set once, under the lock, with the buffer: a 0 here may skip one. */
	if (!READ_ONCE(lb_stream_cap))
		return;
	spin_lock(&lb_stream_lock);
	if (lb_stream_head - lb_stream_tail >= lb_stream_cap) {
		lb_stream_dropped++;
	} else {
		lb_stream_buf[lb_stream_head % lb_stream_cap] = *ev;
		lb_stream_head++;
	}
	spin_unlock(&lb_stream_lock);
}

/* Forget what is buffered; the header's clock starts again at @start_ns. */
void lb_stream_discard(u64 start_ns)
{
	spin_lock(&lb_stream_lock);
	lb_stream_tail = lb_stream_head;
	lb_stream_start_ns = start_ns;
	spin_unlock(&lb_stream_lock);
}

u64 lb_stream_bytes(void)
{
	return (u64)READ_ONCE(lb_stream_cap) * sizeof(*lb_stream_buf);
}

void lb_stream_show(struct seq_file *m)
{
	spin_lock(&lb_stream_lock);
	seq_printf(m, "stream capacity %u buffered %llu dropped %llu%s\n", lb_stream_want,
		   lb_stream_head - lb_stream_tail, lb_stream_dropped,
		   !lb_stream_want ? " (off: stream_events=0)" :
		   !lb_stream_cap ? " (allocated at the first open of events)" : "");
	spin_unlock(&lb_stream_lock);
}

static int lb_stream_open(struct inode *inode, struct file *file)
{
	struct lb_stream_reader *r;
	int err;

	if (!lb_stream_want)
		return -ENODEV;
	err = lb_stream_alloc();
	if (err)
		return err;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	if (atomic_cmpxchg(&lb_stream_readers, 0, 1)) {
		kfree(r);
		return -EBUSY;
	}
	mutex_init(&r->lock);
	file->private_data = r;
	return stream_open(inode, file);
}

static int lb_stream_release(struct inode *inode, struct file *file)
{
	struct lb_stream_reader *r = file->private_data;

	mutex_destroy(&r->lock);
	kfree(r);
	atomic_set(&lb_stream_readers, 0);
	return 0;
}

static ssize_t lb_stream_read_header(struct lb_stream_reader *r, char __user *buf, size_t len)
{
	struct lb_stream_header hdr = {
		.magic = LB_STREAM_MAGIC,
		.abi_version = LB_ABI_VERSION,
		.header_size = sizeof(hdr),
		.record_size = sizeof(struct lb_event),
		.nr_cpus = num_possible_cpus(),
	};
	size_t n = min(len, sizeof(hdr) - r->hdr_off);

	spin_lock(&lb_stream_lock);
	hdr.start_ns = lb_stream_start_ns;
	spin_unlock(&lb_stream_lock);
	if (copy_to_user(buf, (char *)&hdr + r->hdr_off, n))
		return -EFAULT;
	r->hdr_off += n;
	return n;
}

/* Copy out the oldest record and consume it; 0 when there is none. */
static ssize_t lb_stream_read_record(char __user *buf)
{
	struct lb_event ev;
	u64 tail;

	spin_lock(&lb_stream_lock);
	tail = lb_stream_tail;
	if (tail == lb_stream_head) {
		spin_unlock(&lb_stream_lock);
		return 0;
	}
	ev = lb_stream_buf[tail % lb_stream_cap];
	spin_unlock(&lb_stream_lock);
	/* May fault and sleep: no spinlock held. */
	if (copy_to_user(buf, &ev, sizeof(ev)))
		return -EFAULT;
	spin_lock(&lb_stream_lock);
	/* A reset in between emptied the FIFO: the copy stands alone. */
	if (lb_stream_tail == tail)
		lb_stream_tail++;
	spin_unlock(&lb_stream_lock);
	return sizeof(ev);
}

/* Header first, then whole records, consumed once they are copied out. */
static ssize_t lb_stream_read_locked(struct lb_stream_reader *r, char __user *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	if (r->hdr_off < sizeof(struct lb_stream_header)) {
		n = lb_stream_read_header(r, buf, len);
		if (n < 0)
			return n;
		done += n;
	}
	while (len - done >= sizeof(struct lb_event)) {
		n = lb_stream_read_record(buf + done);
		if (n < 0)
			return done ? done : n;
		if (!n)
			break;
		done += n;
	}
	return done;
}

/* A stream (stream_open): there is no position, @ppos is NULL. */
static ssize_t lb_stream_read(struct file *file, char __user *buf, size_t len, loff_t *ppos)
{
	struct lb_stream_reader *r = file->private_data;
	ssize_t ret;

	lb_stream_catch_up();
	if (mutex_lock_interruptible(&r->lock))
		return -ERESTARTSYS;
	ret = lb_stream_read_locked(r, buf, len);
	mutex_unlock(&r->lock);
	return ret;
}

const struct file_operations lb_stream_fops = {
	.owner = THIS_MODULE,
	.open = lb_stream_open,
	.read = lb_stream_read,
	.release = lb_stream_release,
};
