/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ledger's log2 histograms of wait and hold times (ledger_hist.c); part
 * of ledger_internal.h, which includes it.
 */
#ifndef _LOCKBLAME_LEDGER_HIST_H
#define _LOCKBLAME_LEDGER_HIST_H

#include "ledger.h"

#define LB_HIST_BUCKETS		48	/* log2 buckets; the last holds everything >= 2^46 ns */

/*
 * log2 histogram: bucket b holds values v with fls64(v) == b. Buckets are
 * u32: a bucket about to overflow halves them all, which keeps the shape
 * (and so the percentiles) at 4 bytes a bucket; @count stays exact.
 */
struct lb_hist {
	u32 bucket[LB_HIST_BUCKETS];
	u64 count;
	u64 max;
};

void lb_hist_halve(struct lb_hist *h);

/* Inline: every wait's end and every contended hold's adds to one. */
static inline void lb_hist_add(struct lb_hist *h, u64 v)
{
	u32 b = min_t(u32, fls64(v), LB_HIST_BUCKETS - 1);

	if (unlikely(h->bucket[b] == U32_MAX))
		lb_hist_halve(h);
	h->bucket[b]++;
	h->count++;
	if (v > h->max)
		h->max = v;
}

u64 lb_hist_percentile(const struct lb_hist *h, u32 pct);

#endif /* _LOCKBLAME_LEDGER_HIST_H */
