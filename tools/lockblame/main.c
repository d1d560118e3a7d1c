// SPDX-License-Identifier: GPL-2.0
/*
 * lockblame: the command-line reader of the lockblame module's debugfs files;
 * parses the options and runs the one output they ask for.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <lockblame/abi.h>
#include "lockblame.h"

#ifndef LOCKBLAME_VERSION
#define LOCKBLAME_VERSION "unknown"
#endif

enum {
	OPT_DOT = 256, OPT_PID, OPT_TGID, OPT_COMM, OPT_LOCK, OPT_ROLE, OPT_RESET,
	OPT_ENABLE, OPT_DISABLE, OPT_STACKS, OPT_REPORT, OPT_PROMETHEUS, OPT_NO_SYMBOLS, OPT_BY_CGROUP,
	OPT_FILTER_CGROUP, OPT_OUTLIERS, OPT_OUTLIER_NS,
};

static const struct option lbt_longopts[] = {
	{ "dir", required_argument, NULL, 'd' },
	{ "top", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'j' },
	{ "folded", no_argument, NULL, 'f' },
	{ "dot", no_argument, NULL, OPT_DOT },
	{ "events", optional_argument, NULL, 'e' },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'c' },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tgid", required_argument, NULL, OPT_TGID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "lock", required_argument, NULL, OPT_LOCK },
	{ "role", required_argument, NULL, OPT_ROLE },
	{ "reset", no_argument, NULL, OPT_RESET },
	{ "enable", no_argument, NULL, OPT_ENABLE },
	{ "disable", no_argument, NULL, OPT_DISABLE },
	{ "stacks", required_argument, NULL, OPT_STACKS },
	{ "report", no_argument, NULL, OPT_REPORT },
	{ "prometheus", no_argument, NULL, OPT_PROMETHEUS },
	{ "no-symbols", no_argument, NULL, OPT_NO_SYMBOLS },
	{ "by-cgroup", no_argument, NULL, OPT_BY_CGROUP },
	{ "filter-cgroup", required_argument, NULL, OPT_FILTER_CGROUP },
	{ "outliers", no_argument, NULL, OPT_OUTLIERS },
	{ "outlier-ns", required_argument, NULL, OPT_OUTLIER_NS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void lbt_usage(FILE *out)
{
	fputs("usage: lockblame [options]\n"
	      "       lockblame [-d DIR] scope add|list|clear|auto|resolve ...\n"
	      "Who made whom wait on contended locks (futex, mutex, rwsem): causes and victims.\n"
	      "\n"
	      "Output (one of):\n"
	      "  (default)              processes, tasks, locks, chains and deadlocks by blame\n"
	      "  -j, --json             the whole ledger as one JSON document\n"
	      "  -f, --folded           folded stacks for flame graphs (causes by blame, victims by wait)\n"
	      "      --dot              graphviz graph: holder -> victim edges weighted by blame\n"
	      "  -e, --events [FILE|-]  decode the binary event stream (default: the live one)\n"
	      "      --report           the module's own report, as it is\n"
	      "      --prometheus       a node_exporter textfile: blame, wait and hold per process\n"
	      "                         (the -n busiest, the rest as tgid=\"other\"), verdicts\n"
	      "      --by-cgroup        blame, wait and hold per cgroup (v2), and blame between\n"
	      "                         cgroups: holder's cgroup -> victim's cgroup\n"
	      "      --outliers         the worst waits and holds kept whole, longest first:\n"
	      "                         victim, holder, the hold's split, root, both stacks\n"
	      "  -i, --interval SECS    live view: per-task blame and wait added every SECS;\n"
	      "                         with --json, one JSON object per line per sample\n"
	      "  -c, --count N          with --interval: stop after N samples\n"
	      "\n"
	      "Selection:\n"
	      "  -n, --top N            rows per table (10)\n"
	      "      --pid PID          one task (thread id)\n"
	      "      --tgid TGID        one process\n"
	      "      --comm NAME        tasks named NAME (\\xNN escapes allowed)\n"
	      "      --lock ID          one lock (hex id as the ledger prints it)\n"
	      "      --role cause|victim|event  folded and JSON stacks of one side only;\n"
	      "                         folded --role event: the event waits (not contention)\n"
	      "      --no-symbols       name futexes \"comm:0xADDR\", without reading /proc/PID/maps\n"
	      "                         and the mapped ELF symbol tables\n"
	      "\n"
	      "Control (write to the module's control file, then exit):\n"
	      "      --reset | --enable | --disable | --stacks on|off\n"
	      "      --outlier-ns N     keep waits and holds of N ns or more whole (0: off)\n"
	      "      --filter-cgroup PATH|ID  record only waits whose waiter or owner is in\n"
	      "                         that cgroup (v2 path or id); --filter-cgroup clear\n"
	      "\n"
	      "Lock scopes (a function a caller runs to take a runtime's lock; see lockblame(8)):\n"
	      "  scope add BINARY SYMBOL [--else SYMBOL] [--lock-arg N] [--deref OFF:LEN]\n"
	      "            [--shared] [--span] [--name NAME]\n"
	      "                         plant one: SYMBOL a function (also from the binary's\n"
	      "                         debug file, by build ID), or a file offset (0x...)\n"
	      "  scope list | scope clear\n"
	      "  scope auto [--dry-run] [--profiles DIR]  the profiles' scopes of this host\n"
	      "  scope resolve BINARY SYMBOL  the file offset (usdt:PROVIDER:NAME: each site)\n"
	      "\n"
	      "  -d, --dir PATH         lockblame's debugfs directory (env LOCKBLAME_DIR,\n"
	      "                         default " LBT_DEFAULT_DIR ")\n"
	      "  -h, --help  -V, --version\n"
	      "Exit status: 0 ok, 1 module, permission or I/O trouble, 2 bad usage or input.\n",
	      out);
}

static int lbt_usage_error(const char *fmt, const char *arg)
{
	fputs("lockblame: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\nTry 'lockblame --help'.\n", stderr);
	return LBT_EXIT_DATA;
}

static bool lbt_parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return !errno && !*end;
}

static bool lbt_parse_s32(const char *s, int32_t *v)
{
	unsigned long n;

	if (!lbt_parse_ulong(s, &n) || n < 1 || n > INT32_MAX)
		return false;
	*v = n;
	return true;
}

static bool lbt_parse_lock(const char *s, uint64_t *v)
{
	char *end;

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	if (!*s || strlen(s) > 16 || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 16);
	return !errno && !*end;
}

static int lbt_set_mode(struct lbt_opts *o, enum lbt_mode m, const char *name)
{
	if (o->mode != LBT_SUMMARY && o->mode != m)
		return lbt_usage_error("%s cannot be combined with another output or control option",
				       name);
	o->mode = m;
	return 0;
}

static int lbt_add_control(struct lbt_opts *o, const char *cmd)
{
	int err = lbt_set_mode(o, LBT_CONTROL, "a control option");

	if (err)
		return err;
	if (o->ncontrol == LBT_MAX_CONTROL)
		return lbt_usage_error("too many control options%s", "");
	o->control[o->ncontrol++] = cmd;
	return 0;
}

/* "filter cgroup=ID" for a cgroup v2 path or id; "filter clear" for clear. */
static int lbt_filter_cgroup(struct lbt_opts *o, const char *arg)
{
	static char cmd[48];
	uint64_t id;
	int err;

	if (!strcmp(arg, "clear"))
		return lbt_add_control(o, "filter clear");
	err = lbt_cgroup_parse(arg, &id);
	if (err)
		return lbt_usage_error("--filter-cgroup wants a cgroup v2 path or id, not '%s'",
				       arg);
	snprintf(cmd, sizeof(cmd), "filter cgroup=%llu", (unsigned long long)id);
	return lbt_add_control(o, cmd);
}

/* "outlier_ns=N" for a decimal N. */
static int lbt_outlier_ns(struct lbt_opts *o, const char *arg)
{
	static char cmd[48];
	unsigned long long ns;
	char *end;

	errno = 0;
	ns = strtoull(arg, &end, 10);
	if (!*arg || *arg == '-' || *end || errno)
		return lbt_usage_error("--outlier-ns wants a number of ns, not '%s'", arg);
	snprintf(cmd, sizeof(cmd), "outlier_ns=%llu", ns);
	return lbt_add_control(o, cmd);
}

static int lbt_parse_args(struct lbt_opts *o, int argc, char **argv)
{
	unsigned long n;
	bool count_set = false;
	char *end;
	int c, err = 0;

	while ((c = getopt_long(argc, argv, "+d:n:jfe::i:c:hV", lbt_longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dir = optarg;
			break;
		case 'n':
			if (!lbt_parse_ulong(optarg, &n) || !n || n > 1000000)
				return lbt_usage_error("-n wants a row count, not '%s'", optarg);
			o->top = n;
			break;
		case 'j':
			err = lbt_set_mode(o, LBT_JSON, "--json");
			break;
		case 'f':
			err = lbt_set_mode(o, LBT_FOLDED, "--folded");
			break;
		case OPT_DOT:
			err = lbt_set_mode(o, LBT_DOT, "--dot");
			break;
		case 'e':
			err = lbt_set_mode(o, LBT_EVENTS, "--events");
			o->events_path = optarg;
			/* "--events FILE" as well as "--events=FILE". */
			if (!optarg && optind < argc &&
			    (argv[optind][0] != '-' || !strcmp(argv[optind], "-")))
				o->events_path = argv[optind++];
			break;
		case OPT_REPORT:
			err = lbt_set_mode(o, LBT_REPORT, "--report");
			break;
		case OPT_PROMETHEUS:
			err = lbt_set_mode(o, LBT_PROMETHEUS, "--prometheus");
			break;
		case OPT_OUTLIERS:
			err = lbt_set_mode(o, LBT_OUTLIERS, "--outliers");
			break;
		case OPT_OUTLIER_NS:
			err = lbt_outlier_ns(o, optarg);
			break;
		case OPT_BY_CGROUP:
			err = lbt_set_mode(o, LBT_BY_CGROUP, "--by-cgroup");
			break;
		case OPT_FILTER_CGROUP:
			err = lbt_filter_cgroup(o, optarg);
			break;
		case 'i':
			errno = 0;
			o->interval = strtod(optarg, &end);
			if (errno || *end || !(o->interval >= 0.01 && o->interval <= 86400))
				return lbt_usage_error("--interval wants seconds (0.01 to 86400), not '%s'",
						       optarg);
			break;
		case 'c':
			if (!lbt_parse_ulong(optarg, &n) || !n)
				return lbt_usage_error("--count wants a positive number, not '%s'",
						       optarg);
			o->count = n;
			count_set = true;
			break;
		case OPT_PID:
			if (!lbt_parse_s32(optarg, &o->f.pid))
				return lbt_usage_error("--pid wants a thread id, not '%s'", optarg);
			o->f.pid_set = true;
			break;
		case OPT_TGID:
			if (!lbt_parse_s32(optarg, &o->f.tgid))
				return lbt_usage_error("--tgid wants a process id, not '%s'",
						       optarg);
			o->f.tgid_set = true;
			break;
		case OPT_COMM:
			if (!*optarg)
				return lbt_usage_error("--comm wants a name%s", "");
			lbt_comm_decode(&o->f.comm, optarg, strlen(optarg));
			o->f.comm_set = true;
			break;
		case OPT_LOCK:
			if (!lbt_parse_lock(optarg, &o->f.lock))
				return lbt_usage_error("--lock wants a hex lock id, not '%s'",
						       optarg);
			o->f.lock_set = true;
			break;
		case OPT_ROLE:
			if (strcmp(optarg, "cause") && strcmp(optarg, "victim") &&
			    strcmp(optarg, "event"))
				return lbt_usage_error("--role is cause, victim or event, not '%s'",
						       optarg);
			o->f.role = optarg;
			break;
		case OPT_RESET:
			err = lbt_add_control(o, "reset");
			break;
		case OPT_ENABLE:
			err = lbt_add_control(o, "enable");
			break;
		case OPT_DISABLE:
			err = lbt_add_control(o, "disable");
			break;
		case OPT_NO_SYMBOLS:
			o->no_symbols = true;
			break;
		case OPT_STACKS:
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				return lbt_usage_error("--stacks is on or off, not '%s'", optarg);
			err = lbt_add_control(o, strcmp(optarg, "on") ? "stacks off" : "stacks on");
			break;
		case 'h':
			lbt_usage(stdout);
			exit(0);
		case 'V':
			printf("lockblame %s (ledger format v%d, event ABI %d)\n",
			       LOCKBLAME_VERSION, LB_LEDGER_VERSION, LB_ABI_VERSION);
			exit(0);
		default:
			fputs("Try 'lockblame --help'.\n", stderr);
			return LBT_EXIT_DATA;
		}
		if (err)
			return err;
	}
	if (optind < argc && !strcmp(argv[optind], "scope")) {
		err = lbt_set_mode(o, LBT_SCOPE, "scope");
		if (err)
			return err;
		o->sub_argc = argc - optind - 1;
		o->sub_argv = argv + optind + 1;
		optind = argc;
	}
	if (optind < argc)
		return lbt_usage_error("unexpected argument '%s'", argv[optind]);
	if (count_set && !o->interval)
		return lbt_usage_error("--count goes with --interval%s", "");
	if (o->interval && o->mode != LBT_SUMMARY && o->mode != LBT_JSON)
		return lbt_usage_error("--interval is a live table or JSON lines: it does not combine with other outputs%s",
				       "");
	return 0;
}

int main(int argc, char **argv)
{
	struct lbt_opts o = { .top = 10, .mode = LBT_SUMMARY };
	struct lbt_doc doc;
	unsigned int i;
	int err;

	o.dir = getenv("LOCKBLAME_DIR");
	if (!o.dir || !*o.dir)
		o.dir = LBT_DEFAULT_DIR;
	err = lbt_parse_args(&o, argc, argv);
	if (err)
		return err;

	switch (o.mode) {
	case LBT_CONTROL:
		for (i = 0; i < o.ncontrol && !err; i++)
			err = lbt_control(o.dir, o.control[i]);
		return err;
	case LBT_EVENTS:
		err = lbt_events(&o, stdout);
		break;
	case LBT_SCOPE:
		err = lbt_scope(&o);
		break;
	case LBT_REPORT:
		err = lbt_cat(o.dir, "report");
		break;
	case LBT_SUMMARY:
	case LBT_JSON:
		if (o.interval) {
			err = lbt_interval(&o, stdout);
			break;
		}
		fallthrough;
	default:
		err = lbt_load(&o, &doc, o.mode == LBT_JSON || o.mode == LBT_FOLDED ||
			       o.mode == LBT_OUTLIERS);
		if (!err) {
			if (o.mode == LBT_JSON)
				err = lbt_json(&o, &doc, stdout);
			else if (o.mode == LBT_FOLDED)
				err = lbt_folded(&o, &doc, stdout);
			else if (o.mode == LBT_DOT)
				err = lbt_dot(&o, &doc, stdout);
			else if (o.mode == LBT_PROMETHEUS)
				err = lbt_prometheus(&o, &doc, stdout);
			else if (o.mode == LBT_BY_CGROUP)
				err = lbt_by_cgroup(&o, &doc, stdout);
			else if (o.mode == LBT_OUTLIERS)
				err = lbt_outliers(&o, &doc, stdout);
			else
				err = lbt_summary(&o, &doc, stdout);
		}
		lbt_doc_free(&doc);
		break;
	}
	if (fflush(stdout) || ferror(stdout))
		return err ? err : lbt_fail(LBT_EXIT_RUNTIME, "write error on standard output");
	return err;
}
