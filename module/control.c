// SPDX-License-Identifier: GPL-2.0
/*
 * The "control" file's commands: enable, disable, reset, filters, stacks,
 * futex kinds and the outlier threshold. It only parses: a command is parsed whole before anything
 * changes, so a malformed or unknown one returns -EINVAL and changes nothing;
 * a valid one is handed to the stage that owns its state (event.c for
 * recording and stacks, the drain for filters, futex kinds, outliers and
 * reset).
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/seq_file.h>
#include "lockblame.h"

/*
 * The last error, shown when "control" is read; the state is the drain's.
 * The mutex also orders changes of the ledger's options.
 */
static DEFINE_MUTEX(lb_control_mutex);
static char lb_last_error[192];

static int lb_control_error(const char *what, const char *arg)
{
	mutex_lock(&lb_control_mutex);
	scnprintf(lb_last_error, sizeof(lb_last_error), "%s '%.120s'", what, arg);
	mutex_unlock(&lb_control_mutex);
	return -EINVAL;
}

/*
 * "filter tgid=N", "filter comm=NAME", "filter cgroup=ID" (a cgroup v2 id:
 * the inode number of its directory; tools/lockblame turns a path into it),
 * any of them together, or "filter clear".
 */
static int lb_control_filter(char *args)
{
	struct lb_filter f = {};
	char *tok;
	int err;

	if (!args || !*args)
		return lb_control_error("filter needs tgid=N, comm=NAME, cgroup=ID or clear", "");
	if (!strcmp(args, "clear"))
		goto apply;
	while ((tok = strsep(&args, " \t")) != NULL) {
		if (!*tok)
			continue;
		if (!strncmp(tok, "tgid=", 5)) {
			err = kstrtos32(tok + 5, 10, &f.tgid);
			if (err || f.tgid <= 0)
				return lb_control_error("bad tgid", tok + 5);
		} else if (!strncmp(tok, "comm=", 5)) {
			if (!tok[5] || strlen(tok + 5) >= LB_COMM_LEN)
				return lb_control_error("comm must be 1..15 bytes", tok + 5);
			strscpy(f.comm, tok + 5, sizeof(f.comm));
		} else if (!strncmp(tok, "cgroup=", 7)) {
			err = kstrtou64(tok + 7, 10, &f.cgroup);
			if (err || !f.cgroup)
				return lb_control_error("bad cgroup id", tok + 7);
		} else {
			return lb_control_error("unknown filter", tok);
		}
	}
apply:
	lb_drain_set_filter(&f);
	return 0;
}

/* The longest outlier threshold: an hour, in ns. */
#define LB_OUTLIER_NS_MAX	3600000000000ULL

/*
 * "futex_kinds on|off" (@kinds) or "outlier_ns=N" (@ns_arg): the ledger's
 * options, changed one at a time. The control mutex keeps two writers from
 * undoing each other's change.
 */
static int lb_control_opts(const char *kinds, const char *ns_arg)
{
	struct lb_ledger_opts o;
	u64 ns = 0;

	if (kinds && strcmp(kinds, "on") && strcmp(kinds, "off"))
		return lb_control_error("futex_kinds takes on or off", kinds);
	if (ns_arg && (kstrtou64(ns_arg, 10, &ns) || ns > LB_OUTLIER_NS_MAX))
		return lb_control_error("outlier_ns takes 0..3600000000000", ns_arg);
	mutex_lock(&lb_control_mutex);
	lb_drain_opts(&o);
	if (kinds)
		o.futex_kinds = !strcmp(kinds, "on");
	else
		o.outlier_ns = ns;
	lb_drain_set_opts(&o);
	mutex_unlock(&lb_control_mutex);
	return 0;
}

/* "stacks on|off": the stack table is allocated the first time. */
static int lb_control_stacks(const char *args)
{
	if (args && !strcmp(args, "off")) {
		lb_set_stacks(false);
		return 0;
	}
	if (!args || strcmp(args, "on"))
		return lb_control_error("stacks takes on or off", args ? args : "");
	if (lb_stacks_alloc()) {
		lb_control_error("no memory for the stack table", args);
		return -ENOMEM;
	}
	lb_set_stacks(true);
	return 0;
}

/* "scope ...": the scope table's own commands (scopes.c). */
static int lb_control_scope(char *args)
{
	char shown[128];
	const char *err = NULL;
	int ret;

	strscpy(shown, args ? args : "", sizeof(shown));
	ret = lb_scope_control(args, &err);
	if (ret && err)
		lb_control_error(err, shown);
	return ret;
}

int lb_control_exec(char *cmd)
{
	char *verb, *args;

	cmd = strim(cmd);
	args = cmd;
	verb = strsep(&args, " \t");
	if (args)
		args = strim(args);

	if (!strcmp(verb, "filter"))
		return lb_control_filter(args);
	if (!strcmp(verb, "stacks"))
		return lb_control_stacks(args);
	if (!strcmp(verb, "scope"))
		return lb_control_scope(args);
	if (!strcmp(verb, "futex_kinds"))
		return lb_control_opts(args ? args : "", NULL);
	if (!strncmp(verb, "outlier_ns=", 11) && !(args && *args))
		return lb_control_opts(NULL, verb + 11);
	if (args && *args)
		return lb_control_error("unexpected argument", args);
	if (!strcmp(verb, "enable"))
		lb_set_enabled(true);
	else if (!strcmp(verb, "disable"))
		lb_set_enabled(false);
	else if (!strcmp(verb, "reset"))
		lb_drain_reset();
	else
		return lb_control_error("unknown command", verb);
	return 0;
}

void lb_control_show(struct seq_file *m)
{
	struct lb_ledger_opts o;
	struct lb_filter f;

	lb_drain_filter(&f);
	lb_drain_opts(&o);
	seq_printf(m, "enabled %d\nstacks %d\nfilter_tgid %d\nfilter_comm %s\n",
		   lb_enabled(), lb_stacks_wanted(), f.tgid, f.comm[0] ? f.comm : "-");
	mutex_lock(&lb_control_mutex);
	seq_printf(m, "last_error %s\n", lb_last_error[0] ? lb_last_error : "-");
	mutex_unlock(&lb_control_mutex);
	seq_puts(m, "# commands: enable | disable | reset | stacks on | stacks off |\n"
		    "#           futex_kinds on | futex_kinds off | outlier_ns=N (0: off) |\n"
		    "#           filter tgid=N [comm=NAME] | filter comm=NAME | filter clear\n"
		    "#           filter cgroup=ID (with tgid= and comm= too)\n"
		    "#           scope add PATH OFFSET [arg=N] [shared] [name=NAME] | scope clear\n");
	seq_printf(m, "futex_kinds %d\n", o.futex_kinds);
	seq_printf(m, "filter_cgroup %llu\n", f.cgroup);
	seq_printf(m, "outlier_ns %llu\n", o.outlier_ns);
}
