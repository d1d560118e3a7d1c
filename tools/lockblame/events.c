// SPDX-License-Identifier: GPL-2.0
/*
 * --events: decode the binary event stream (struct lb_stream_header, then
 * struct lb_event records) into one key=value text line per event.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lockblame/abi.h>
#include "lockblame.h"

static_assert(sizeof(struct lb_stream_header) == 24, "stream header layout");
static_assert(sizeof(struct lb_event) == 184, "event record layout");

static const char *const lbt_ev_types[LB_EV_TYPE_MAX] = {
	[LB_EV_WAIT_BEGIN] = "wait_begin",
	[LB_EV_WAIT_END] = "wait_end",
	[LB_EV_RELEASE] = "release",
	[LB_EV_SCOPE_ENTER] = "scope_enter",
	[LB_EV_SCOPE_EXIT] = "scope_exit",
	[LB_EV_SCOPE_WAKE] = "scope_wake",
};

static const char *const lbt_classes[LB_LOCK_CLASS_MAX] = LB_LOCK_CLASS_NAMES;

static const char *const lbt_results[LB_WAIT_RESULT_MAX] = {
	[LB_WAIT_ACQUIRED] = "acquired",
	[LB_WAIT_WOKEN] = "woken",
	[LB_WAIT_TIMEOUT] = "timeout",
	[LB_WAIT_INTERRUPTED] = "interrupted",
	[LB_WAIT_AGAIN] = "again",
	[LB_WAIT_ERROR] = "error",
};

static const char *const lbt_owner_sources[LB_OWNER_SOURCE_MAX] = {
	[LB_OWNER_NONE] = "none",
	[LB_OWNER_LOCK_FIELD] = "lock_field",
	[LB_OWNER_PI_WORD] = "pi_word",
	[LB_OWNER_HEURISTIC] = "heuristic",
	[LB_OWNER_READER_HINT] = "reader_hint",
};

static const struct {
	unsigned int bit;
	const char *name;
} lbt_flags[] = {
	{ LB_EF_READ, "read" },
	{ LB_EF_WRITE, "write" },
	{ LB_EF_SHARED_KEY, "shared_key" },
	{ LB_EF_KTHREAD, "kthread" },
	{ LB_EF_OWNER_KTHREAD, "owner_kthread" },
	{ LB_EF_NOSLEEP, "nosleep" },
	{ LB_EF_THREAD_EXIT, "thread_exit" },
	{ LB_EF_WORD, "word" },
	{ LB_EF_WORD_TID, "word_tid" },
	{ LB_EF_WAKE_MANY, "wake_many" },
	{ LB_EF_RUN_DELAY, "run_delay" },
	{ LB_EF_OWNER_RUN_DELAY, "owner_run_delay" },
	{ LB_EF_LEFT, "left" },
	{ LB_EF_SPAN, "span" },
};

/* The name of enum value @v, or the number when this reader does not know it. */
static const char *lbt_name(const char *const *names, unsigned int max, unsigned int v,
			    char *buf, size_t size)
{
	if (v < max && names[v])
		return names[v];
	snprintf(buf, size, "%u", v);
	return buf;
}

static void lbt_print_flags(FILE *out, unsigned int flags)
{
	bool first = true;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lbt_flags); i++) {
		if (!(flags & lbt_flags[i].bit))
			continue;
		fprintf(out, "%s%s", first ? "" : ",", lbt_flags[i].name);
		first = false;
		flags &= ~lbt_flags[i].bit;
	}
	if (flags)
		fprintf(out, "%s0x%x", first ? "" : ",", flags);
	else if (first)
		fputc('-', out);
}

static void lbt_print_event(FILE *out, const struct lb_event *ev)
{
	char n1[16], n2[16], n3[16], comm[LBT_COMM_BUF], ocomm[LBT_COMM_BUF];
	struct lbt_comm c, oc;

	lbt_comm_from_bytes(&c, ev->task.comm, LB_COMM_LEN);
	lbt_comm_from_bytes(&oc, ev->owner.comm, LB_COMM_LEN);
	fprintf(out, "ts_ns=%llu cpu=%u type=%s class=%s lock=%016llx pid=%d tgid=%d comm=%s result=%s",
		(unsigned long long)ev->ts_ns, ev->cpu,
		lbt_name(lbt_ev_types, LB_EV_TYPE_MAX, ev->type, n1, sizeof(n1)),
		lbt_name(lbt_classes, LB_LOCK_CLASS_MAX, ev->lock_class, n2, sizeof(n2)),
		(unsigned long long)ev->lock, ev->task.pid, ev->task.tgid,
		lbt_comm_text(comm, sizeof(comm), c.b, c.len),
		ev->type == LB_EV_WAIT_END ?
			lbt_name(lbt_results, LB_WAIT_RESULT_MAX, ev->result, n3, sizeof(n3)) : "-");
	fprintf(out, " owner_pid=%d owner_tgid=%d owner_comm=%s owner_source=%s flags=",
		ev->owner.pid, ev->owner.tgid, lbt_comm_text(ocomm, sizeof(ocomm), oc.b, oc.len),
		lbt_name(lbt_owner_sources, LB_OWNER_SOURCE_MAX, ev->owner_source, n1,
			 sizeof(n1)));
	lbt_print_flags(out, ev->flags);
	if (ev->flags & LB_EF_WORD)
		fprintf(out, " word=0x%08x", ev->word);
	fprintf(out, " count=%u stack=%u ustack=%u cpu_ns=%llu owner_cpu_ns=%llu", ev->count,
		ev->stack_id, ev->ustack_id, (unsigned long long)ev->cpu_ns,
		(unsigned long long)ev->owner_cpu_ns);
	fprintf(out, " run_delay_ns=%llu owner_run_delay_ns=%llu",
		(unsigned long long)ev->run_delay_ns, (unsigned long long)ev->owner_run_delay_ns);
	fprintf(out, " cgroup=%llu owner_cgroup=%llu\n", (unsigned long long)ev->task.cgroup,
		(unsigned long long)ev->owner.cgroup);
}

static bool lbt_event_kept(const struct lbt_filter *f, const struct lb_event *ev)
{
	struct lbt_comm c, oc;

	if (f->lock_set && ev->lock != f->lock)
		return false;
	if (!lbt_filter_tasks(f))
		return true;
	lbt_comm_from_bytes(&c, ev->task.comm, LB_COMM_LEN);
	lbt_comm_from_bytes(&oc, ev->owner.comm, LB_COMM_LEN);
	/* A scope_wake's owner is the task it woke: known, with no source. */
	return lbt_filter_event_id(f, ev->task.pid, ev->task.tgid, &c) ||
	       ((ev->owner_source != LB_OWNER_NONE || ev->type == LB_EV_SCOPE_WAKE) &&
		lbt_filter_event_id(f, ev->owner.pid, ev->owner.tgid, &oc));
}

/* Buffered input: large reads, so the live file hands over many records a call. */
struct lbt_reader {
	int fd;
	size_t pos, len;
	unsigned char buf[1 << 16];
};

/* Take up to @len bytes, fewer only at end of input; -1 on a read error. */
static ssize_t lbt_take(struct lbt_reader *r, void *dst, size_t len)
{
	size_t done = 0;

	while (done < len) {
		size_t n = r->len - r->pos;
		ssize_t got;

		if (n) {
			if (n > len - done)
				n = len - done;
			memcpy((char *)dst + done, r->buf + r->pos, n);
			r->pos += n;
			done += n;
			continue;
		}
		got = read(r->fd, r->buf, sizeof(r->buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (!got)
			break;
		r->pos = 0;
		r->len = got;
	}
	return done;
}

static int lbt_check_header(const struct lb_stream_header *h, ssize_t got, const char *name)
{
	if (got < (ssize_t)sizeof(*h))
		return lbt_fail(LBT_EXIT_DATA, "%s: truncated stream header (%zd of %zu bytes)%s",
				name, got, sizeof(*h), got ? "" : ": empty input");
	if (h->magic != LB_STREAM_MAGIC)
		return lbt_fail(LBT_EXIT_DATA,
				"%s: not a lockblame event stream (magic 0x%08x, expected 0x%08x)",
				name, h->magic, LB_STREAM_MAGIC);
	if (h->abi_version < LB_ABI_VERSION_MIN || h->abi_version > LB_ABI_VERSION)
		return lbt_fail(LBT_EXIT_DATA,
				"%s: event stream ABI version %u, this reader understands %u to %u: ABI mismatch between module and tools",
				name, h->abi_version, LB_ABI_VERSION_MIN, LB_ABI_VERSION);
	if (h->header_size < sizeof(*h))
		return lbt_fail(LBT_EXIT_DATA, "%s: stream header size %u, expected at least %zu",
				name, h->header_size, sizeof(*h));
	if (h->record_size != sizeof(struct lb_event))
		return lbt_fail(LBT_EXIT_DATA,
				"%s: event record size %u, this reader expects %zu: ABI mismatch between module and tools",
				name, h->record_size, sizeof(struct lb_event));
	return 0;
}

static int lbt_decode(const struct lbt_opts *o, int fd, const char *name, FILE *out)
{
	static struct lbt_reader rd;
	struct lb_stream_header h;
	unsigned long long n = 0, unknown = 0;
	struct lb_event ev;
	char skip[256];
	ssize_t got;
	int err;

	rd.fd = fd;
	rd.pos = 0;
	rd.len = 0;
	got = lbt_take(&rd, &h, sizeof(h));
	if (got < 0)
		return lbt_fail(LBT_EXIT_RUNTIME, "read %s: %s", name, strerror(errno));
	err = lbt_check_header(&h, got, name);
	if (err)
		return err;
	/* A longer header from a compatible writer: skip what this reader does not know. */
	for (size_t left = h.header_size - sizeof(h); left; ) {
		size_t chunk = left < sizeof(skip) ? left : sizeof(skip);

		got = lbt_take(&rd, skip, chunk);
		if (got != (ssize_t)chunk)
			return lbt_fail(LBT_EXIT_DATA, "%s: truncated stream header", name);
		left -= chunk;
	}
	for (;;) {
		got = lbt_take(&rd, &ev, sizeof(ev));
		if (got < 0)
			return lbt_fail(LBT_EXIT_RUNTIME, "read %s: %s", name, strerror(errno));
		if (!got)
			break;
		if (got < (ssize_t)sizeof(ev))
			return lbt_fail(LBT_EXIT_DATA,
					"%s: truncated stream: record %llu has %zd of %zu bytes",
					name, n + 1, got, sizeof(ev));
		n++;
		if (ev.type < LB_EV_WAIT_BEGIN || ev.type >= LB_EV_TYPE_MAX) {
			unknown++;
			continue;
		}
		if (lbt_event_kept(&o->f, &ev))
			lbt_print_event(out, &ev);
	}
	if (unknown)
		lbt_warn("%s: skipped %llu records of a type this reader does not know", name,
			 unknown);
	if (!n)
		lbt_warn("%s: no events in the stream (nothing contended since it was %s)", name,
			 "last read, or first opened: the module keeps none before that");
	return 0;
}

int lbt_events(const struct lbt_opts *o, FILE *out)
{
	const char *path = o->events_path;
	char *live = NULL;
	int fd, err;

	if (path && !strcmp(path, "-"))
		return lbt_decode(o, STDIN_FILENO, "<stdin>", out);
	if (!path) {
		live = lbt_path(o->dir, "events");
		if (!live)
			return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
		path = live;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		if (live) {
			free(live);
			return lbt_open_diag(o->dir, "events", err);
		}
		return lbt_fail(LBT_EXIT_RUNTIME, "cannot open %s: %s", path, strerror(err));
	}
	err = lbt_decode(o, fd, path, out);
	close(fd);
	free(live);
	return err;
}
