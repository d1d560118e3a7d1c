// SPDX-License-Identifier: GPL-2.0
/*
 * lb-torture: abuse for lockblame's debugfs interface, run in the QEMU guest.
 * Prints one TAP line per check ("ok - ..." / "not ok - ... # why").
 *
 *   lb-torture control [-n N] [-s SEED] DIR   random and mutated control writes
 *   lb-torture events [-d MS] DIR             two readers on one events descriptor
 *   lb-torture comm [-d MS] DIR               odd comms, escaped in ledger and report
 *   lb-torture flood [-d MS] [-t THREADS] [-a N] [-r PRIO]  a hot mutex, many tiny holds;
 *                                             N threads of futex waits that never sleep,
 *                                             at SCHED_FIFO PRIO with -r
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <lockblame/abi.h>

#define FUZZ_MAX	4096

static unsigned int failures;

static void tap(bool ok, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void tap(bool ok, const char *what, const char *fmt, ...)
{
	va_list ap;

	if (ok) {
		printf("ok - %s\n", what);
	} else {
		printf("not ok - %s # ", what);
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
		putchar('\n');
		failures++;
	}
	fflush(stdout);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* xorshift64*: reproducible from the seed printed on failure. */
static uint64_t rng_state = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned int rndn(unsigned int n)
{
	return n ? rnd() % n : 0;
}

static char *path_of(const char *dir, const char *name)
{
	static char buf[8][512];
	static unsigned int i;
	char *p = buf[i++ % 8];

	snprintf(p, 512, "%s/%s", dir, name);
	return p;
}

/* A whole file into @buf (NUL-terminated); its length, -1 on error. */
static ssize_t slurp(const char *path, char *buf, size_t size)
{
	size_t n = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while (n < size - 1 && (r = read(fd, buf + n, size - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return n;
}

/* ---- control ---- */

/* The module's idea of whitespace inside a command (strsep on " \t"). */
static bool is_sep(char c)
{
	return c == ' ' || c == '\t';
}

/* kstrtos32(s, 10) > 0: an optional '+', digits only, in range. */
static bool valid_tgid(const char *s)
{
	long long v = 0;

	if (*s == '+')
		s++;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (*s - '0');
		if (v > INT_MAX)
			return false;
	}
	return v > 0;
}

/* strim(): leading and trailing whitespace removed, in place. */
static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

/*
 * The specification of a valid control write, independent of the module's
 * parser: one line of printable ASCII (tabs allowed, a final newline), at most
 * LB_CONTROL_MAX - 1 bytes, one of the documented commands.
 */
static bool control_valid(const char *buf, size_t len)
{
	char cmd[LB_CONTROL_MAX], *verb, *args, *tok;
	size_t i;

	if (!len || len >= LB_CONTROL_MAX)
		return false;
	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if ((c < 0x20 || c > 0x7e) && c != '\t' && !(c == '\n' && i == len - 1))
			return false;
	}
	memcpy(cmd, buf, len);
	cmd[len] = '\0';
	verb = trim(cmd);
	for (args = verb; *args && !is_sep(*args); args++)
		;
	if (*args) {
		*args++ = '\0';
		args = trim(args);
	} else {
		args = NULL;
	}
	if (!strcmp(verb, "filter")) {
		if (!args || !*args)
			return false;
		if (!strcmp(args, "clear"))
			return true;
		while (*args) {
			tok = args;
			while (*args && !is_sep(*args))
				args++;
			if (*args)
				*args++ = '\0';
			if (!*tok)
				continue;
			if (!strncmp(tok, "tgid=", 5)) {
				if (!valid_tgid(tok + 5))
					return false;
			} else if (!strncmp(tok, "comm=", 5)) {
				if (!tok[5] || strlen(tok + 5) >= LB_COMM_LEN)
					return false;
			} else {
				return false;
			}
		}
		return true;
	}
	if (!strcmp(verb, "stacks"))
		return args && (!strcmp(args, "on") || !strcmp(args, "off"));
	/* "scope add" needs a real file: only "scope clear" is valid here. */
	if (!strcmp(verb, "scope"))
		return args && !strcmp(args, "clear");
	if (args && *args)
		return false;
	return !strcmp(verb, "enable") || !strcmp(verb, "disable") || !strcmp(verb, "reset");
}

static const char *const seeds[] = {
	"enable", "disable", "reset", "stacks on", "stacks off", "filter clear",
	"filter tgid=1", "filter comm=lb-culprit", "filter tgid=42 comm=x",
	"filter comm=a=b", "filter tgid=+7", "filter tgid=2147483647",
	"filter tgid=2147483648", "filter tgid=0", "filter tgid=-1", "filter comm=",
	"filter comm=0123456789abcde", "filter comm=0123456789abcdef", "filter",
	"stacks", "stacks maybe", "reset now", "enable\t", " \tdisable \t",
	"filter  clear", "filter clear x", "filter\ttgid=5\tcomm=y",
};

static const char alphabet[] = "abcdefgilmnoprstuwxz =+-0123456789\t\n\0\x01\x7f\xff,";

/* A command: a seed, mutated or not, or random bytes; of length 0..4096. */
static size_t fuzz_command(char *buf)
{
	size_t len, i, n;

	switch (rndn(4)) {
	case 0:	/* random bytes, mostly from the command alphabet */
		len = rndn(8) ? rndn(40) : rndn(FUZZ_MAX + 1);
		for (i = 0; i < len; i++)
			buf[i] = rndn(4) ? alphabet[rndn(sizeof(alphabet) - 1)] : (char)rnd();
		return len;
	default:	/* a seed, perhaps with a newline, then mutations */
		i = rndn(sizeof(seeds) / sizeof(seeds[0]));
		len = strlen(seeds[i]);
		memcpy(buf, seeds[i], len);
		if (rndn(2))
			buf[len++] = '\n';
		for (n = rndn(4); n; n--) {
			switch (rndn(5)) {
			case 0:	/* flip a byte */
				if (len)
					buf[rndn(len)] = alphabet[rndn(sizeof(alphabet) - 1)];
				break;
			case 1:	/* insert a byte */
				if (len < FUZZ_MAX) {
					i = rndn(len + 1);
					memmove(buf + i + 1, buf + i, len - i);
					buf[i] = rndn(3) ? alphabet[rndn(sizeof(alphabet) - 1)] : (char)rnd();
					len++;
				}
				break;
			case 2:	/* cut */
				len = rndn(len + 1);
				break;
			case 3:	/* pad to a long length */
				n = rndn(FUZZ_MAX - len + 1);
				memset(buf + len, rndn(2) ? ' ' : 'a', n);
				len += n;
				n = 1;
				break;
			default:	/* a NUL somewhere */
				if (len)
					buf[rndn(len)] = '\0';
				break;
			}
		}
		return len;
	}
}

/* The control file's state lines; last_error and comments left out. */
static void control_state(const char *path, char *out, size_t size)
{
	char text[4096], *line, *save = NULL;
	size_t n = 0;

	out[0] = '\0';
	if (slurp(path, text, sizeof(text)) < 0)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !strncmp(line, "last_error", 10))
			continue;
		n += snprintf(out + n, size - n, "%s;", line);
		if (n >= size)
			break;
	}
}

static void show_bytes(char *out, size_t size, const char *buf, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 5 < size && i < 60; i++) {
		unsigned char c = buf[i];

		n += snprintf(out + n, size - n, c >= 0x21 && c < 0x7f && c != '\\' ? "%c" : "\\x%02x", c);
	}
	if (i < len)
		snprintf(out + n, size - n, "...(%zu bytes)", len);
}

static int cmd_control(int argc, char **argv)
{
	unsigned long iters = 10000, i, accepted = 0, rejected = 0, split = 0, faulted = 0;
	unsigned long bad_accept = 0, bad_reject = 0, bad_change = 0, bad_errno = 0;
	char before[1024], after[1024], shown[400], what[128];
	static char buf[FUZZ_MAX + 1];
	uint64_t seed = now_ns() % 1000000007;
	const char *path;
	void *hole;
	int opt, fd;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			iters = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			seed = strtoull(optarg, NULL, 0);
		else
			return 2;
	}
	if (optind != argc - 1)
		return 2;
	path = path_of(argv[optind], "control");
	rng_state = (seed + 1) * 0x9e3779b97f4a7c15ULL;
	fd = open(path, O_RDWR);
	if (fd < 0) {
		tap(false, "control: open", "%s: %s", path, strerror(errno));
		return 1;
	}
	/* An unmapped page: the kernel must fault cleanly on it. */
	hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	control_state(path, before, sizeof(before));
	for (i = 0; i < iters; i++) {
		size_t len = fuzz_command(buf), part = len;
		bool valid, pieces = len > 1 && !rndn(10);
		const char *src = buf;
		ssize_t w;
		int err;

		if (pieces) {
			/* A partial write: the first piece alone, then the rest. */
			part = 1 + rndn(len - 1);
			split++;
		}
again:
		valid = control_valid(src, part);
		if (!rndn(50) && part) {
			/* The command from unmapped memory: -EFAULT, nothing changes. */
			w = write(fd, hole, part);
			err = errno;
			control_state(path, after, sizeof(after));
			faulted++;
			if (w >= 0 || (err != EFAULT && err != EINVAL)) {
				bad_errno++;
				snprintf(what, sizeof(what), "control: write from an unmapped buffer (%zu bytes)", part);
				tap(false, what, "returned %zd errno %d, want EFAULT", w, err);
			}
			if (strcmp(before, after)) {
				bad_change++;
				tap(false, "control: a faulting write changes nothing", "before '%s' after '%s'", before, after);
				strcpy(before, after);
			}
			continue;
		}
		if (!rndn(8)) {
			/* A positioned write: control is a stream (ESPIPE), unchanged. */
			w = pwrite(fd, src, part, (off_t)rndn(1 << 20));
			err = errno;
			control_state(path, after, sizeof(after));
			if (w >= 0 || err != ESPIPE) {
				bad_errno++;
				tap(false, "control: pwrite refused with ESPIPE", "returned %zd errno %d", w, err);
			}
			if (strcmp(before, after)) {
				bad_change++;
				tap(false, "control: a pwrite changes nothing", "before '%s' after '%s'", before, after);
				strcpy(before, after);
			}
			continue;
		}
		/* Somewhere in the file: the position must not matter. */
		if (!rndn(4))
			lseek(fd, (off_t)rndn(4096), SEEK_SET);
		w = write(fd, src, part);
		err = errno;
		if (w == (ssize_t)part && part) {
			accepted++;
			if (!valid) {
				bad_accept++;
				show_bytes(shown, sizeof(shown), src, part);
				tap(false, "control: an invalid command is rejected", "accepted '%s' (seed %llu, #%lu)",
				    shown, (unsigned long long)seed, i);
			}
			control_state(path, before, sizeof(before));
		} else {
			rejected++;
			control_state(path, after, sizeof(after));
			if (part && (w >= 0 || err != EINVAL)) {
				bad_errno++;
				show_bytes(shown, sizeof(shown), src, part);
				tap(false, "control: a rejected command gets -EINVAL",
				    "'%s': returned %zd errno %d", shown, w, err);
			} else if (valid) {
				bad_reject++;
				show_bytes(shown, sizeof(shown), src, part);
				tap(false, "control: a valid command is accepted", "rejected '%s' (seed %llu, #%lu)",
				    shown, (unsigned long long)seed, i);
			}
			if (strcmp(before, after)) {
				bad_change++;
				show_bytes(shown, sizeof(shown), src, part);
				tap(false, "control: a rejected command changes nothing",
				    "'%s': before '%s' after '%s'", shown, before, after);
				strcpy(before, after);
			}
		}
		if (pieces && src == buf) {
			src = buf + part;
			part = len - part;
			goto again;
		}
		if (failures > 20)
			break;
	}
	close(fd);
	/* Leave lockblame as the scripts expect it. */
	fd = open(path, O_WRONLY);
	if (fd >= 0) {
		if (write(fd, "filter clear", 12) < 0 || write(fd, "stacks off", 10) < 0 ||
		    write(fd, "enable", 6) < 0)
			tap(false, "control: restored", "%s", strerror(errno));
		close(fd);
	}
	snprintf(what, sizeof(what), "control: %lu fuzzed writes (seed %llu)", i, (unsigned long long)seed);
	tap(!bad_accept && !bad_reject && !bad_change && !bad_errno, what,
	    "%lu invalid accepted, %lu valid rejected, %lu rejected changed state, %lu wrong errno",
	    bad_accept, bad_reject, bad_change, bad_errno);
	printf("# control: %lu accepted, %lu rejected, %lu split, %lu from unmapped memory\n",
	       accepted, rejected, split, faulted);
	return failures ? 1 : 0;
}

/* ---- load: a hot pthread mutex ---- */

static pthread_mutex_t hot = PTHREAD_MUTEX_INITIALIZER;
static volatile bool stop;
static const char *thread_name;

static void *hammer(void *arg)
{
	unsigned long n = 0;
	volatile unsigned int spin;

	if (thread_name)
		prctl(PR_SET_NAME, thread_name);
	(void)arg;
	while (!stop) {
		pthread_mutex_lock(&hot);
		for (spin = 0; spin < 200; spin++)
			;
		pthread_mutex_unlock(&hot);
		if (!(++n & 15))
			sched_yield();
	}
	return NULL;
}

/*
 * Futex waits that find the value changed: a wait begin and end per
 * syscall, nothing sleeps, as fast as the CPU goes. Fills small rings.
 */
/* SCHED_FIFO priority of the eagain threads (flood -r), 0: not real-time. */
static int eagain_prio;

static void *eagain(void *arg)
{
	static int word;
	struct sched_param sp = { .sched_priority = eagain_prio };

	(void)arg;
	/*
	 * Above lockblame's drainers (SCHED_FIFO 1), a thread that never sleeps
	 * keeps them off its CPU: the rings must fill (RT throttling leaves the
	 * rest of the system 5%).
	 */
	if (eagain_prio && pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
		fprintf(stderr, "lb-torture: SCHED_FIFO %d refused\n", eagain_prio);
	while (!stop)
		syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
	return NULL;
}

static void load(unsigned int threads, unsigned int ms, pthread_t *th)
{
	unsigned int i;

	stop = false;
	for (i = 0; i < threads; i++)
		pthread_create(&th[i], NULL, hammer, NULL);
	if (ms) {
		usleep(ms * 1000);
		stop = true;
		for (i = 0; i < threads; i++)
			pthread_join(th[i], NULL);
	}
}

static int cmd_flood(int argc, char **argv)
{
	unsigned int ms = 1000, threads = 4, fast = 0, i;
	pthread_t th[64], ft[64];
	int opt;

	while ((opt = getopt(argc, argv, "d:t:a:r:")) != -1) {
		if (opt == 'd')
			ms = atoi(optarg);
		else if (opt == 't')
			threads = atoi(optarg);
		else if (opt == 'a')
			fast = atoi(optarg);
		else if (opt == 'r')
			eagain_prio = atoi(optarg);
		else
			return 2;
	}
	if (threads < 1 || threads > 64 || fast > 64 || eagain_prio < 0 || eagain_prio > 99)
		return 2;
	stop = false;
	for (i = 0; i < fast; i++)
		pthread_create(&ft[i], NULL, eagain, NULL);
	load(threads, ms, th);
	for (i = 0; i < fast; i++)
		pthread_join(ft[i], NULL);
	return 0;
}

/* ---- events: two readers on one descriptor ---- */

struct key {
	uint64_t ts;
	int32_t pid;
	uint16_t cpu;
	uint8_t type;
};

static struct key *keys;
static size_t nkeys, capkeys;
static pthread_mutex_t keys_lock = PTHREAD_MUTEX_INITIALIZER;
static int events_fd;
static volatile bool readers_stop;
static unsigned long efaults;

static void keep(const struct lb_event *ev, size_t n)
{
	size_t i;

	pthread_mutex_lock(&keys_lock);
	if (nkeys + n > capkeys) {
		capkeys = (nkeys + n) * 2;
		keys = realloc(keys, capkeys * sizeof(*keys));
		if (!keys)
			abort();
	}
	for (i = 0; i < n; i++)
		keys[nkeys++] = (struct key){ ev[i].ts_ns, ev[i].task.pid, ev[i].cpu, ev[i].type };
	pthread_mutex_unlock(&keys_lock);
}

static void *reader(void *arg)
{
	static __thread struct lb_event buf[64];
	void *hole = arg;
	ssize_t r;

	while (!readers_stop) {
		if (hole && !rndn(4)) {
			/* Into unmapped memory: EFAULT, and the records stay. */
			r = read(events_fd, hole, sizeof(buf));
			if (r < 0 && errno == EFAULT)
				__atomic_add_fetch(&efaults, 1, __ATOMIC_RELAXED);
			continue;
		}
		r = read(events_fd, buf, sizeof(struct lb_event) * (1 + rndn(64)));
		if (r > 0) {
			if (r % sizeof(struct lb_event)) {
				tap(false, "events: whole records", "read %zd bytes", r);
				return NULL;
			}
			keep(buf, r / sizeof(struct lb_event));
		} else {
			usleep(1000);
		}
	}
	return NULL;
}

static int cmp_key(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct key));
}

/* "name N" from the stats text: N, or -1. */
static long long stat_num(const char *text, const char *name)
{
	const char *p = strstr(text, name);

	return p ? strtoll(p + strlen(name), NULL, 10) : -1;
}

static int cmd_events(int argc, char **argv)
{
	struct lb_stream_header hdr;
	unsigned int ms = 1500, i, round;
	long long drained = -1, dropped0, dropped = -1, buffered = -1;
	static char stats[65536];
	const char *dir;
	size_t dups = 0;
	pthread_t rd[2], th[4];
	void *hole;
	int opt, ctl;

	while ((opt = getopt(argc, argv, "d:")) != -1) {
		if (opt == 'd')
			ms = atoi(optarg);
		else
			return 2;
	}
	if (optind != argc - 1)
		return 2;
	dir = argv[optind];
	memset(&hdr, 0, sizeof(hdr));
	ctl = open(path_of(dir, "control"), O_WRONLY);
	if (ctl < 0 || write(ctl, "reset", 5) != 5) {
		tap(false, "events: reset", "%s", strerror(errno));
		return 1;
	}
	slurp(path_of(dir, "stats"), stats, sizeof(stats));
	dropped0 = stat_num(stats, "stream capacity");
	dropped0 = stat_num(strstr(stats, "stream capacity") ?: "", " dropped ");
	events_fd = open(path_of(dir, "events"), O_RDONLY);
	if (events_fd < 0) {
		tap(false, "events: open", "%s", strerror(errno));
		return 1;
	}
	if (read(events_fd, &hdr, sizeof(hdr)) != sizeof(hdr) || hdr.magic != LB_STREAM_MAGIC ||
	    hdr.record_size != sizeof(struct lb_event)) {
		tap(false, "events: header", "magic %x record_size %u", hdr.magic, hdr.record_size);
		return 1;
	}
	tap(open(path_of(dir, "events"), O_RDONLY) < 0 && errno == EBUSY,
	    "events: a second open is refused (EBUSY)", "it was not");
	hole = mmap(NULL, 1 << 16, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	readers_stop = false;
	pthread_create(&rd[0], NULL, reader, hole);
	pthread_create(&rd[1], NULL, reader, hole);
	load(4, ms, th);
	if (write(ctl, "disable", 7) != 7)
		tap(false, "events: disable", "%s", strerror(errno));
	usleep(200000);
	readers_stop = true;
	pthread_join(rd[0], NULL);
	pthread_join(rd[1], NULL);
	/* Read to the end, until the drain has nothing more to add. */
	for (round = 0; round < 10; round++) {
		struct lb_event buf[64];
		ssize_t r;

		while ((r = read(events_fd, buf, sizeof(buf))) > 0)
			keep(buf, r / sizeof(struct lb_event));
		slurp(path_of(dir, "stats"), stats, sizeof(stats));
		drained = stat_num(stats, "drained ");
		dropped = stat_num(strstr(stats, "stream capacity") ?: "", " dropped ");
		buffered = stat_num(stats, " buffered ");
		if (!buffered)
			break;
	}
	if (write(ctl, "enable", 6) != 6)
		tap(false, "events: enable", "%s", strerror(errno));
	close(ctl);
	qsort(keys, nkeys, sizeof(*keys), cmp_key);
	for (i = 1; i < nkeys; i++)
		dups += !cmp_key(&keys[i - 1], &keys[i]);
	tap(!dups, "events: two readers on one descriptor get no record twice",
	    "%zu duplicates among %zu", dups, nkeys);
	tap(efaults > 0, "events: reads into unmapped memory fail with EFAULT", "none did");
	tap(drained > 0 && buffered == 0 &&
	    (long long)nkeys == drained - (dropped - dropped0),
	    "events: every drained record read or counted as dropped",
	    "read %zu, drained %lld, stream dropped %lld, buffered %lld", nkeys, drained,
	    dropped - dropped0, buffered);
	printf("# events: %zu read by two readers, %lu reads faulted, %lld dropped by the stream\n",
	       nkeys, efaults, dropped - dropped0);
	close(events_fd);
	return failures ? 1 : 0;
}

/* ---- comm: names with spaces, '=', control bytes ---- */

static int cmd_comm(int argc, char **argv)
{
	static const char *const names[] = { "a b=c", "tab\there", "ctl\x01\x1b[2J", "x=y z=" };
	static char text[1 << 20];
	unsigned int ms = 400, n, i;
	const char *dir, *files[] = { "ledger", "report", "stacks", "probes", "stats", "control" };
	pthread_t th[2];
	ssize_t len;
	int opt, ctl;

	while ((opt = getopt(argc, argv, "d:")) != -1) {
		if (opt == 'd')
			ms = atoi(optarg);
		else
			return 2;
	}
	if (optind != argc - 1)
		return 2;
	dir = argv[optind];
	ctl = open(path_of(dir, "control"), O_WRONLY);
	if (ctl < 0 || write(ctl, "reset", 5) != 5 || write(ctl, "stacks on", 9) != 9) {
		tap(false, "comm: reset", "%s", strerror(errno));
		return 1;
	}
	for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		thread_name = names[n];
		load(2, ms / 4, th);
	}
	thread_name = NULL;
	if (write(ctl, "stacks off", 10) != 10)
		tap(false, "comm: stacks off", "%s", strerror(errno));
	close(ctl);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char what[96];
		size_t bad = 0, k;

		len = slurp(path_of(dir, files[i]), text, sizeof(text));
		for (k = 0; len > 0 && k < (size_t)len; k++) {
			unsigned char c = text[k];

			bad += (c < 0x20 && c != '\n' && c != '\t') || c > 0x7e;
		}
		snprintf(what, sizeof(what), "comm: %s is printable text with odd comms about", files[i]);
		tap(len > 0 && !bad, what, "%zd bytes, %zu not printable", len, bad);
	}
	/* In the ledger, each odd comm is one field: escaped, never split. */
	len = slurp(path_of(dir, "ledger"), text, sizeof(text));
	for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
		char want[64], what[128];
		const char *s;
		size_t k = 0;

		k = snprintf(want, sizeof(want), "comm=");
		for (s = names[n]; *s && k + 5 < sizeof(want); s++) {
			unsigned char c = *s;

			if (c > 0x20 && c < 0x7f && c != '\\' && c != '=')
				want[k++] = c;
			else
				k += snprintf(want + k, sizeof(want) - k, "\\x%02x", c);
		}
		want[k] = '\0';
		snprintf(what, sizeof(what), "comm: task %d escaped in the ledger as %s", n, want);
		/* '=' may be kept or escaped: accept either spelling. */
		if (strstr(text, want)) {
			tap(true, what, "-");
		} else {
			char alt[64];
			size_t a = 0;

			a = snprintf(alt, sizeof(alt), "comm=");
			for (s = names[n]; *s && a + 5 < sizeof(alt); s++) {
				unsigned char c = *s;

				if (c > 0x20 && c < 0x7f && c != '\\')
					alt[a++] = c;
				else
					a += snprintf(alt + a, sizeof(alt) - a, "\\x%02x", c);
			}
			alt[a] = '\0';
			tap(strstr(text, alt), what, "neither %s nor %s in the ledger", want, alt);
		}
	}
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		goto usage;
	rng_state ^= (uint64_t)getpid() << 20 ^ now_ns();
	if (!strcmp(argv[1], "control"))
		return cmd_control(argc - 1, argv + 1);
	if (!strcmp(argv[1], "events"))
		return cmd_events(argc - 1, argv + 1);
	if (!strcmp(argv[1], "comm"))
		return cmd_comm(argc - 1, argv + 1);
	if (!strcmp(argv[1], "flood"))
		return cmd_flood(argc - 1, argv + 1);
usage:
	fprintf(stderr, "usage: lb-torture control|events|comm|flood [options] [DIR]\n");
	return 2;
}
