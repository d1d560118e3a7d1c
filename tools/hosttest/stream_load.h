/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load a recorded event stream (debugfs "events", saved with cat) into
 * memory: for replay and ledger_bench. Returns the number of events and sets
 * *@events (free() it), or returns -1 having said why on stderr: not a stream
 * of this ABI, a cut record, or a read error.
 */
#ifndef LB_STREAM_LOAD_H
#define LB_STREAM_LOAD_H

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "lockblame/abi.h"


static inline long lb_stream_load(const char *prog, const char *path, struct lb_event **events)
{
	struct lb_stream_header h;
	struct lb_event *ev = NULL, *grown;
	size_t cap = 0, n = 0, got = 0;
	FILE *f = fopen(path, "rb");

	if (!f) {
		perror(path);
		return -1;
	}
	if (fread(&h, sizeof(h), 1, f) != 1 || h.magic != LB_STREAM_MAGIC ||
	    h.abi_version < LB_ABI_VERSION_MIN || h.abi_version > LB_ABI_VERSION ||
	    h.header_size != sizeof(h) ||
	    h.record_size != sizeof(*ev)) {
		fprintf(stderr, "%s: %s: not a lockblame event stream of ABI %u to %u\n",
			prog, path, LB_ABI_VERSION_MIN, LB_ABI_VERSION);
		fclose(f);
		return -1;
	}
	for (;;) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			grown = realloc(ev, cap * sizeof(*ev));
			if (!grown) {
				got = 1;	/* reported as a read error */
				break;
			}
			ev = grown;
		}
		got = fread(&ev[n], 1, h.record_size, f);
		if (got != h.record_size)
			break;
		n++;
	}
	if (got || ferror(f)) {
		fprintf(stderr, "%s: %s: read error or a cut record after %zu events\n",
			prog, path, n);
		free(ev);
		fclose(f);
		return -1;
	}
	fclose(f);
	*events = ev;
	return (long)n;
}

#endif /* LB_STREAM_LOAD_H */
