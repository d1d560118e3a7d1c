// SPDX-License-Identifier: GPL-2.0
/*
 * Small text helpers: messages, human time units and the \xNN escaping the
 * ledger uses for task names; and the arrays the reader grows as it reads.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

/* "lockblame: <message>" on stderr, after what stdout already holds. */
static void lbt_vwarn(const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("lockblame: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int lbt_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lbt_vwarn(fmt, ap);
	va_end(ap);
	return code;
}

void lbt_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	lbt_vwarn(fmt, ap);
	va_end(ap);
}

/* @v in @unit with three significant digits: 4.30 s, 67.1 ms, 812 us. */
static void lbt_sig3(char *buf, size_t size, double v, const char *unit)
{
	if (v < 9.995)
		snprintf(buf, size, "%.2f %s", v, unit);
	else if (v < 99.95)
		snprintf(buf, size, "%.1f %s", v, unit);
	else
		snprintf(buf, size, "%.0f %s", v, unit);
}

/* Nanoseconds in the unit a person reads best; zero is plain "0". */
const char *lbt_ns(char *buf, size_t size, uint64_t ns)
{
	if (!ns)
		snprintf(buf, size, "0");
	else if (ns < 1000)
		snprintf(buf, size, "%llu ns", (unsigned long long)ns);
	else if (ns < 999500)
		lbt_sig3(buf, size, ns / 1e3, "us");
	else if (ns < 999500000)
		lbt_sig3(buf, size, ns / 1e6, "ms");
	else
		lbt_sig3(buf, size, ns / 1e9, "s");
	return buf;
}

static int lbt_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Undo the ledger's escaping: \xNN is one byte, anything else stands for itself. */
void lbt_comm_decode(struct lbt_comm *c, const char *s, size_t len)
{
	size_t i = 0;

	c->len = 0;
	while (i < len && c->len < LBT_COMM_MAX) {
		if (s[i] == '\\' && i + 4 <= len && s[i + 1] == 'x' &&
		    lbt_hexval(s[i + 2]) >= 0 && lbt_hexval(s[i + 3]) >= 0) {
			c->b[c->len++] = lbt_hexval(s[i + 2]) << 4 | lbt_hexval(s[i + 3]);
			i += 4;
		} else {
			c->b[c->len++] = s[i++];
		}
	}
}

/* A comm from an event record: NUL-padded, not necessarily NUL-terminated. */
void lbt_comm_from_bytes(struct lbt_comm *c, const char *b, size_t max)
{
	c->len = 0;
	while (c->len < max && c->len < LBT_COMM_MAX && b[c->len]) {
		c->b[c->len] = b[c->len];
		c->len++;
	}
}

/* Escape as the ledger does: bytes outside 0x21..0x7e, '\\' and '=' become \xNN. */
const char *lbt_comm_text(char *buf, size_t size, const unsigned char *b, unsigned int len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	unsigned int i;

	for (i = 0; i < len && o + 5 < size; i++) {
		if (b[i] < 0x21 || b[i] > 0x7e || b[i] == '\\' || b[i] == '=') {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[b[i] >> 4];
			buf[o++] = hex[b[i] & 15];
		} else {
			buf[o++] = b[i];
		}
	}
	buf[o] = '\0';
	return buf;
}

bool lbt_comm_eq(const struct lbt_comm *a, const struct lbt_comm *b)
{
	return a->len == b->len && !memcmp(a->b, b->b, a->len);
}

/*
 * @v with room for @need elements of @size bytes, doubling *@cap as needed:
 * the array, moved or not, or NULL (out of memory; @v is still valid).
 */
void *lbt_grow(void *v, size_t *cap, size_t need, size_t size)
{
	size_t want = *cap ? *cap : 16;
	void *bigger;

	if (need <= *cap)
		return v;
	while (want < need)
		want *= 2;
	bigger = realloc(v, want * size);
	if (bigger)
		*cap = want;
	return bigger;
}
