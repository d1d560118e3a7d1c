/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ledger's outliers (ledger_outliers.c): the worst cases, kept whole,
 * and what each wait notes for them as it goes. Part of ledger_internal.h,
 * which includes it.
 */
#ifndef _LOCKBLAME_LEDGER_OUTLIERS_H
#define _LOCKBLAME_LEDGER_OUTLIERS_H

void lb_outlier_stretch_end(struct lb_ledger *l, struct lb_waiter *w);

/*
 * @w's stretch under its current holder is over: see lb_outlier_stretch_end,
 * which has nothing to do while outliers are not kept.
 */
static inline void lb_outlier_stretch_over(struct lb_ledger *l, struct lb_waiter *w)
{
	if (w->top_ns && w->cur_holder == w->top_holder && w->cur_ns == w->top_ns &&
	    l->opts.outlier_ns)
		lb_outlier_stretch_end(l, w);
}

/* @ns of @w's waiting is @holder's blame; inline: every pair charge comes here. */
static inline void lb_outlier_note_blame(struct lb_waiter *w, s32 holder, u64 ns)
{
	if (w->cur_holder == holder && !w->cur_closed) {
		w->cur_ns += ns;
	} else {
		w->cur_holder = holder;
		w->cur_ns = ns;
		w->cur_closed = false;
	}
	if (w->cur_ns > w->top_ns) {
		w->top_holder = w->cur_holder;
		w->top_ns = w->cur_ns;
		w->top_rel = 0;
		w->top_rel_wanted = false;
	}
}

void lb_outlier_take_blame(struct lb_waiter *w, s32 holder, u64 ns);
void lb_outlier_wait(struct lb_ledger *l, struct lb_waiter *w);
void lb_outlier_hold(struct lb_ledger *l, struct lb_lock *lock, const struct lb_task *r);
void lb_outliers_settle_kept(struct lb_ledger *l, struct lb_lock *lock);
void lb_outliers_note_releases(struct lb_ledger *l, struct lb_lock *lock);

/*
 * @lock's release was just recorded (lb_outliers_settle_kept). Inline: every
 * release comes here, and it has nothing to do unless outliers are kept or
 * some still want a release.
 */
static inline void lb_outliers_settle(struct lb_ledger *l, struct lb_lock *lock)
{
	if (l->opts.outlier_ns || l->outliers_owed)
		lb_outliers_settle_kept(l, lock);
}

#endif /* _LOCKBLAME_LEDGER_OUTLIERS_H */
