// SPDX-License-Identifier: GPL-2.0
/*
 * Log2 histograms of wait and hold times, and percentiles read from them.
 */
#include "ledger_internal.h"

/* A bucket is about to overflow (lb_hist_add): halve them all. */
void lb_hist_halve(struct lb_hist *h)
{
	u32 i;

	/* A non-empty bucket stays non-empty: its range was seen. */
	for (i = 0; i < LB_HIST_BUCKETS; i++)
		h->bucket[i] = h->bucket[i] / 2 + (h->bucket[i] & 1);
}

/* The largest value bucket @b can hold. */
static u64 lb_hist_upper(u32 b)
{
	if (b >= LB_HIST_BUCKETS - 1)
		return U64_MAX;
	return b ? (1ULL << b) - 1 : 0;
}

/*
 * The @pct percentile: the upper bound of the bucket holding that rank, so
 * within a factor of two above the true value; never above the exact max.
 */
u64 lb_hist_percentile(const struct lb_hist *h, u32 pct)
{
	u64 rank, seen = 0, total = 0;
	u32 b;

	if (!h->count)
		return 0;
	/* The buckets' sum: @count once they were halved. */
	for (b = 0; b < LB_HIST_BUCKETS; b++)
		total += h->bucket[b];
	/* rank = ceil(total * pct / 100), at least 1 */
	rank = max_t(u64, 1, div_u64(total * pct + 99, 100));
	for (b = 0; b < LB_HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen >= rank)
			return min(lb_hist_upper(b), h->max);
	}
	return h->max;
}
