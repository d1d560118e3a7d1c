// SPDX-License-Identifier: GPL-2.0
/*
 * Replay a recorded event stream (debugfs "events", saved with cat) through
 * the ledger on the host and print its dump, as "ledger" would have shown
 * it: to study a run offline, or to compare two versions of the ledger on
 * the same events.
 *
 * Usage: replay [--kinds-off] [--outlier-ns NS] FILE
 *   --kinds-off     the module's futex_kinds=0
 *   --outlier-ns NS keep waits and holds of NS or more whole (outlier_ns=)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"
#include "stream_load.h"

static void out_printf(struct lb_out *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(out->priv, fmt, ap);
	va_end(ap);
}

int main(int argc, char **argv)
{
	struct lb_ledger_limits limits = { 0 };
	struct lb_out out = { .printf = out_printf, .priv = stdout };
	struct lb_ledger_opts opts = { .futex_kinds = true };
	struct lb_ledger *l;
	struct lb_event *ev;
	char *end;
	long n, k;
	int i;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "--kinds-off")) {
			opts.futex_kinds = false;
		} else if (!strcmp(argv[i], "--outlier-ns") && i + 2 < argc) {
			opts.outlier_ns = strtoull(argv[++i], &end, 10);
			if (*end || !opts.outlier_ns) {
				fprintf(stderr, "replay: --outlier-ns wants nanoseconds, not '%s'\n",
					argv[i]);
				return 2;
			}
		} else {
			break;
		}
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: replay [--kinds-off] [--outlier-ns NS] FILE\n");
		return 2;
	}
	n = lb_stream_load("replay", argv[i], &ev);
	if (n < 0)
		return 2;
	l = lb_ledger_create(&limits);
	if (!l) {
		fprintf(stderr, "replay: cannot create the ledger\n");
		free(ev);
		return 2;
	}
	lb_ledger_set_opts(l, &opts);
	for (k = 0; k < n; k++)
		lb_ledger_feed(l, &ev[k]);
	/* As the module's readers do: the time locks kept back, applied. */
	lb_ledger_advance(l, 0);
	lb_ledger_dump(l, &out);
	lb_ledger_destroy(l);
	free(ev);
	return 0;
}
