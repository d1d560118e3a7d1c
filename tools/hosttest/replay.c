// SPDX-License-Identifier: GPL-2.0
/*
 * Replay a recorded event stream (debugfs "events", saved with cat) through
 * the ledger on the host and print its dump, as "ledger" would have shown
 * it: to study a run offline, or to compare two versions of the ledger on
 * the same events.
 *
 * Usage: replay [--kinds-off] FILE
 */
#include <stdio.h>
#include <string.h>

#include "ledger.h"

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
	struct lb_stream_header h;
	struct lb_ledger *l;
	struct lb_event ev;
	bool kinds = true;
	unsigned long n = 0;
	size_t got;
	int rc = 0;
	FILE *f;
	int i = 1;

	if (argc > 1 && !strcmp(argv[1], "--kinds-off")) {
		kinds = false;
		i++;
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: replay [--kinds-off] FILE\n");
		return 2;
	}
	f = fopen(argv[i], "rb");
	if (!f) {
		perror(argv[i]);
		return 2;
	}
	if (fread(&h, sizeof(h), 1, f) != 1 || h.magic != LB_STREAM_MAGIC ||
	    h.abi_version != LB_ABI_VERSION || h.header_size != sizeof(h) ||
	    h.record_size != sizeof(ev)) {
		fprintf(stderr, "replay: %s: not a lockblame event stream of ABI %u\n",
			argv[i], LB_ABI_VERSION);
		fclose(f);
		return 2;
	}
	l = lb_ledger_create(&limits);
	if (!l) {
		fprintf(stderr, "replay: cannot create the ledger\n");
		fclose(f);
		return 2;
	}
	lb_ledger_set_futex_kinds(l, kinds);
	while ((got = fread(&ev, 1, sizeof(ev), f)) == sizeof(ev)) {
		lb_ledger_feed(l, &ev);
		n++;
	}
	if (got || ferror(f)) {
		fprintf(stderr, "replay: %s: read error or a cut record after %lu events\n",
			argv[i], n);
		rc = 2;
	} else {
		lb_ledger_dump(l, &out);
	}
	fclose(f);
	lb_ledger_destroy(l);
	return rc;
}
