// SPDX-License-Identifier: GPL-2.0
/*
 * Where the futex probes find a futex's key without probing get_futex_key():
 * in the waiter's struct futex_q (compat.h: where the key is in it), or, for
 * a private futex, computed as get_futex_key() makes it.
 */
#include <linux/kprobes.h>
#include <linux/futex.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include "lockblame.h"
#include "probe_futex.h"
#include "compat.h"

/*
 * A private futex's key as get_futex_key() makes it: the task's mm, the
 * word's page and its offset in the page.
 */
bool __kprobes lb_futex_private_lock(unsigned long uaddr, u64 *lock)
{
	unsigned long offset = uaddr % PAGE_SIZE;

	if (!current->mm)
		return false;
	*lock = lb_lock_id3((u64)(unsigned long)current->mm, uaddr - offset, offset);
	return true;
}

/* The key in the futex_q at @q (compat.h: where the key is in it). */
bool __kprobes lb_futex_q_key(unsigned long q, union futex_key *key)
{
	return q && !copy_from_kernel_nofault(key, (void *)(q + LB_FUTEX_Q_KEY_OFFSET),
					      sizeof(*key));
}

/*
 * @key as a slot key. A private key names the current task's mm: anything
 * else was not read from a futex_q's key (a layout compat.h does not know).
 */
bool __kprobes lb_futex_key_fill(const union futex_key *key, struct lb_futex_key *k)
{
	bool shared = lb_futex_key_shared(key);

	if (!shared && !lb_futex_key_mine(key))
		return false;
	k->lock = lb_lock_id3(key->both.ptr, key->both.word, key->both.offset);
	k->flags = shared ? LB_EF_SHARED_KEY : 0;
	return true;
}

/*
 * futex_wait_setup() returned 0: does its caller sleep next? futex_wait()
 * and futex_wait_requeue_pi() keep their futex_q on their stack and go on to
 * futex_wait_queue() (futex_do_wait() since 6.16); io_uring (6.7 and later)
 * keeps it elsewhere and its task goes on running. Before 6.16 a requeue-PI
 * wait whose target key is the same futex is refused (-EINVAL) after
 * futex_wait_setup() returned; since, futex_wait_setup() refuses it itself.
 */
bool __kprobes lb_futex_sleeps_next(unsigned long q, const union futex_key *key)
{
	union futex_key *target, k2;

	if (!object_is_on_stack((void *)q))
		return false;
	if (copy_from_kernel_nofault(&target, (void *)(q + LB_FUTEX_Q_REQUEUE_PI_KEY_OFFSET),
				     sizeof(target)))
		return false;
	if (!target)
		return true;
	if (copy_from_kernel_nofault(&k2, target, sizeof(k2)))
		return false;
	return k2.both.word != key->both.word || k2.both.ptr != key->both.ptr ||
	       k2.both.offset != key->both.offset;
}
