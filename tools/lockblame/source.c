// SPDX-License-Identifier: GPL-2.0
/*
 * Access to lockblame's debugfs directory: reading its files whole, writing
 * control commands, and saying plainly why a file cannot be opened.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "lockblame.h"

#define LBT_DEBUGFS_MAGIC	0x64626720

char *lbt_path(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", dir, name);
	return p;
}

static bool lbt_dir_empty(const char *path)
{
	struct dirent *de;
	DIR *d = opendir(path);
	bool empty = true;

	if (!d)
		return false;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = false;
			break;
		}
	}
	closedir(d);
	return empty;
}

#define LBT_LOCKDOWN	"/sys/kernel/security/lockdown"

/*
 * The kernel's lockdown mode, the bracketed word of LBT_LOCKDOWN ("none
 * [integrity] confidentiality"), into @mode; false if it cannot be read.
 */
static bool lbt_lockdown(char *mode, size_t size)
{
	char text[128], *lb, *rb;
	ssize_t n;
	int fd;

	fd = open(LBT_LOCKDOWN, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	lb = strchr(text, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (!rb)
		return false;
	snprintf(mode, size, "%.*s", (int)(rb - lb - 1), lb + 1);
	return true;
}

static int lbt_not_root(const char *path)
{
	char mode[32];

	/*
	 * Under lockdown, debugfs refuses every file that is not read-only
	 * (control) with EPERM, to root as well: "run as root" would mislead.
	 */
	if (lbt_lockdown(mode, sizeof(mode)) && strcmp(mode, "none"))
		return lbt_fail(LBT_EXIT_RUNTIME,
				"cannot open %s: the kernel is locked down (%s, see %s), and debugfs refuses lockblame's writable files to everyone, root included; boot without lockdown (lockdown=none, Secure Boot off) to use them",
				path, mode, LBT_LOCKDOWN);
	if (!geteuid())
		return lbt_fail(LBT_EXIT_RUNTIME,
				"cannot open %s: permission denied although running as root (an LSM policy?)",
				path);
	return lbt_fail(LBT_EXIT_RUNTIME,
			"cannot open %s: permission denied; lockblame's debugfs files are for root only: run as root (sudo)",
			path);
}

/* Why the directory @dir is not there: no debugfs, no permission, or no module. */
static int lbt_dir_diag(const char *dir)
{
	char *copy = strdup(dir), *parent;
	struct statfs sfs;
	struct stat st;
	int ret;

	if (!copy)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	parent = dirname(copy);
	if (stat(parent, &st) && errno == EACCES) {
		ret = lbt_not_root(parent);
	} else if (!strcmp(parent, LBT_DEBUGFS) &&
		   (statfs(parent, &sfs) || sfs.f_type != LBT_DEBUGFS_MAGIC)) {
		ret = lbt_fail(LBT_EXIT_RUNTIME,
			       "debugfs is not mounted on %s: mount -t debugfs none %s",
			       LBT_DEBUGFS, LBT_DEBUGFS);
	} else if (access(parent, R_OK | X_OK) && errno == EACCES) {
		ret = lbt_not_root(parent);
	} else if (lbt_dir_empty(parent)) {
		ret = lbt_fail(LBT_EXIT_RUNTIME,
			       "%s is empty: debugfs is not mounted? mount -t debugfs none %s",
			       parent, LBT_DEBUGFS);
	} else {
		ret = lbt_fail(LBT_EXIT_RUNTIME,
			       "lockblame module not loaded (no %s): insmod lockblame.ko or modprobe lockblame",
			       dir);
	}
	free(copy);
	return ret;
}

/* Explain a failed open of @dir/@name, errno @err; returns the exit code. */
int lbt_open_diag(const char *dir, const char *name, int err)
{
	char *path = lbt_path(dir, name);
	struct stat st;
	int ret;

	if (!path)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	if (err == EACCES || err == EPERM) {
		ret = lbt_not_root(path);
	} else if (err == ENOENT || err == ENOTDIR) {
		if (stat(dir, &st)) {
			ret = errno == EACCES ? lbt_not_root(dir) : lbt_dir_diag(dir);
		} else if (!S_ISDIR(st.st_mode)) {
			ret = lbt_fail(LBT_EXIT_RUNTIME, "%s is not a directory", dir);
		} else {
			ret = lbt_fail(LBT_EXIT_RUNTIME,
				       "%s is missing: the lockblame module does not match this reader",
				       path);
		}
	} else if (err == ENODEV && !strcmp(name, "events")) {
		ret = lbt_fail(LBT_EXIT_RUNTIME,
			       "%s: the event stream is off (module loaded with stream_events=0)",
			       path);
	} else if (err == EBUSY && !strcmp(name, "events")) {
		ret = lbt_fail(LBT_EXIT_RUNTIME,
			       "%s: another process is reading the event stream", path);
	} else {
		ret = lbt_fail(LBT_EXIT_RUNTIME, "cannot open %s: %s", path, strerror(err));
	}
	free(path);
	return ret;
}

/*
 * Read @dir/@name whole into a NUL-terminated buffer. Returns 0, -1 if
 * @optional and the file does not exist, or an exit code after saying why.
 */
int lbt_slurp(const char *dir, const char *name, bool optional, char **text, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf, *path;
	int fd;

	path = lbt_path(dir, name);
	if (!path)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;
		struct stat st;

		free(path);
		if (optional && err == ENOENT && !stat(dir, &st))
			return -1;
		return lbt_open_diag(dir, name, err);
	}
	buf = malloc(cap + 1);
	while (buf) {
		ssize_t r;

		if (n == cap) {
			char *bigger = realloc(buf, cap * 2 + 1);

			if (!bigger)
				break;
			buf = bigger;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;

			close(fd);
			free(buf);
			if (err == EACCES || err == EPERM)
				r = lbt_not_root(path);
			else
				r = lbt_fail(LBT_EXIT_RUNTIME, "read %s: %s", path, strerror(err));
			free(path);
			return r;
		}
		if (!r) {
			close(fd);
			free(path);
			buf[n] = '\0';
			*text = buf;
			*len = n;
			return 0;
		}
		n += r;
	}
	close(fd);
	free(buf);
	free(path);
	return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
}

/*
 * The control file's "last_error" line, to explain a rejected command: true
 * if it names an error, else @why is "invalid command".
 */
static bool lbt_control_why(const char *dir, char *why, size_t size)
{
	bool found = false;
	char *text, *p;
	size_t len;

	snprintf(why, size, "invalid command");
	if (lbt_slurp(dir, "control", true, &text, &len))
		return false;
	p = strstr(text, "last_error ");
	if (p) {
		p += 11;
		p[strcspn(p, "\n")] = '\0';
		found = strcmp(p, "-");
		if (found)
			snprintf(why, size, "%s", p);
	}
	free(text);
	return found;
}

int lbt_control(const char *dir, const char *cmd)
{
	char *path, line[LBT_CONTROL_MAX + 1], why[128];
	size_t len;
	ssize_t w;
	int fd;

	/* Whole or not at all: a cut command would be another command. */
	if (snprintf(line, sizeof(line), "%s\n", cmd) >= LBT_CONTROL_MAX)
		return lbt_fail(LBT_EXIT_DATA, "the control command \"%.40s...\" is %zu bytes, the module takes %d",
				cmd, strlen(cmd) + 1, LBT_CONTROL_MAX - 1);
	len = strlen(line);
	path = lbt_path(dir, "control");
	if (!path)
		return lbt_fail(LBT_EXIT_RUNTIME, "out of memory");
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		free(path);
		return lbt_open_diag(dir, "control", err);
	}
	w = write(fd, line, len);
	if (w < 0) {
		int err = errno;

		close(fd);
		if (err == EINVAL) {
			lbt_control_why(dir, why, sizeof(why));
			w = lbt_fail(LBT_EXIT_DATA, "%s rejected \"%s\": %s", path, cmd, why);
		} else if (err == EACCES || err == EPERM) {
			w = lbt_not_root(path);
		} else if (lbt_control_why(dir, why, sizeof(why))) {
			/* -ENOENT, -EOPNOTSUPP, ... of a scope: the module says why too. */
			w = lbt_fail(LBT_EXIT_RUNTIME, "write %s: %s (last_error: %s)", path,
				     strerror(err), why);
		} else {
			w = lbt_fail(LBT_EXIT_RUNTIME, "write %s: %s", path, strerror(err));
		}
		free(path);
		return w;
	}
	free(path);
	if (close(fd) || (size_t)w != len)
		return lbt_fail(LBT_EXIT_RUNTIME, "control command \"%s\" not written whole", cmd);
	return 0;
}

/* Copy a text file of the directory to @out, as the module wrote it. */
int lbt_cat(const char *dir, const char *name)
{
	char *text;
	size_t len;
	int err = lbt_slurp(dir, name, false, &text, &len);

	if (err)
		return err;
	fwrite(text, 1, len, stdout);
	free(text);
	return 0;
}
