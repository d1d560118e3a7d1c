// SPDX-License-Identifier: GPL-2.0
/*
 * The ledger's values as text, for its report and its dump: task names
 * escaped, durations and counts in a few characters, lock class names, and
 * the report's lines, wrapped before 100 columns.
 */
#include "ledger_internal.h"

/*
 * Escape a comm so that it is one printable token: bytes outside 0x21..0x7e,
 * '\\' and '=' become \xNN. It may be up to LB_COMM_LEN bytes, NUL-padded.
 */
void lb_escape_comm(char *dst, const char *comm)
{
	lb_escape_str(dst, comm, LB_COMM_LEN);
}

/* The same for any string of up to @max bytes (@dst holds 4 * @max + 1). */
void lb_escape_str(char *dst, const char *src, u32 max)
{
	static const char hex[] = "0123456789abcdef";
	u32 i, n = 0;

	for (i = 0; i < max && src[i]; i++) {
		u8 c = src[i];

		if (c < 0x21 || c > 0x7e || c == '\\' || c == '=') {
			dst[n++] = '\\';
			dst[n++] = 'x';
			dst[n++] = hex[c >> 4];
			dst[n++] = hex[c & 15];
		} else {
			dst[n++] = c;
		}
	}
	dst[n] = '\0';
}

/* A duration in at most 8 characters: 999ns, 999.9us, 999.9ms, 999.99s, 9999s, 99999h. */
const char *lb_fmt_ns(char *buf, size_t size, u64 ns)
{
	if (ns < 1000)
		snprintf(buf, size, "%lluns", ns);
	else if (ns < 1000000)
		snprintf(buf, size, "%llu.%lluus", div_u64(ns, 1000), div_u64(ns, 100) % 10);
	else if (ns < 1000000000)
		snprintf(buf, size, "%llu.%llums", div_u64(ns, 1000000),
			 div_u64(ns, 100000) % 10);
	else if (ns < 1000000000000ULL)
		snprintf(buf, size, "%llu.%02llus", div_u64(ns, 1000000000),
			 div_u64(ns, 10000000) % 100);
	else if (ns < 100000000000000ULL)
		snprintf(buf, size, "%llus", div_u64(ns, 1000000000));
	else
		snprintf(buf, size, "%lluh", div64_u64(ns, 3600000000000ULL));
	return buf;
}

/* A count in at most 5 characters: 9999, then 1234k, 1234M, ... */
const char *lb_fmt_count(char *buf, size_t size, u64 n)
{
	static const char suffix[] = " kMGTPE";
	u32 s = 0;

	while (n >= 10000) {
		n = div_u64(n, 1000);
		s++;
	}
	if (s)
		snprintf(buf, size, "%llu%c", n, suffix[s]);
	else
		snprintf(buf, size, "%llu", n);
	return buf;
}

static const char *const lb_class_names[LB_LOCK_CLASS_MAX] = LB_LOCK_CLASS_NAMES;

const char *lb_class_name(u8 lock_class)
{
	if (lock_class < LB_LOCK_CLASS_MAX && lb_class_names[lock_class])
		return lb_class_names[lock_class];
	return "unknown";
}

/* @part of @whole (not 0) in whole percent, rounded. */
static u64 lb_pct(u64 part, u64 whole)
{
	return div64_u64(min(part, whole) * 200 + whole, 2 * whole);
}

/*
 * Why a task's or a lock's holds were slow, as "on/run/slp" percentages of
 * the hold time: on a CPU, runnable waiting for one, asleep. A share not
 * measured is "?" when none of it was; a part not measured leaves them
 * short of 100.
 */
const char *lb_fmt_split(char *buf, size_t size, const struct lb_split_ns *h)
{
	u64 measured = h->hold - h->cpu_unknown;
	bool no_rq = measured == h->on + h->runnable_unknown && h->runnable_unknown;

	if (!h->hold || !measured)
		snprintf(buf, size, h->hold ? "?" : "-");
	else if (no_rq)
		snprintf(buf, size, "%llu/?/?", lb_pct(h->on, h->hold));
	else
		snprintf(buf, size, "%llu/%llu/%llu", lb_pct(h->on, h->hold),
			 lb_pct(h->runnable, h->hold), lb_pct(lb_split_sleeping(h), h->hold));
	return buf;
}

/* Report lines */

static void lb_line_indent(struct lb_line *ln, u32 indent)
{
	memset(ln->buf, ' ', indent);
	ln->buf[indent] = '\0';
	ln->len = indent;
	ln->empty = true;
}

/* Start a line indented by @first; its continuations are indented by @cont. */
void lb_line_start(struct lb_line *ln, struct lb_out *out, u32 first, u32 cont)
{
	ln->out = out;
	ln->cont = cont;
	lb_line_indent(ln, first);
}

void lb_line_end(struct lb_line *ln)
{
	if (!ln->empty)
		ln->out->printf(ln->out, "%s\n", ln->buf);
	lb_line_indent(ln, ln->cont);
}

/* Append @sep and an item; if it does not fit, end the line at @sep's punctuation. */
void lb_line_item(struct lb_line *ln, const char *sep, const char *fmt, ...)
{
	char item[LB_COLS + 1];
	u32 n, s, punct;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(item, sizeof(item), fmt, ap);
	va_end(ap);
	n = strlen(item);
	s = ln->empty ? 0 : strlen(sep);
	if (!ln->empty && ln->len + s + n > LB_COLS) {
		punct = min_t(u32, strcspn(sep, " "), LB_COLS - ln->len);
		memcpy(ln->buf + ln->len, sep, punct);
		ln->len += punct;
		ln->buf[ln->len] = '\0';
		lb_line_end(ln);
		s = 0;
	}
	n = min_t(u32, n, LB_COLS - ln->len - s);
	memcpy(ln->buf + ln->len, sep, s);
	memcpy(ln->buf + ln->len + s, item, n);
	ln->len += s + n;
	ln->buf[ln->len] = '\0';
	ln->empty = false;
}
