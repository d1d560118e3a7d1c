// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of symbolize.c: maps files written here, this very program (a
 * global of its own, found in its .symtab), a shared library run.sh built
 * (found in .symtab, and in .dynsym once stripped), and bad input. TAP.
 *
 *   symbolize-test LIB.so STRIPPED.so
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../lockblame.h"

int lbt_test_word[4];		/* named from this program's .symtab */

static int n, failed;

static void check(const char *what, bool ok, const char *got)
{
	n++;
	if (!ok)
		failed++;
	printf("%sok %d - symbolize: %s%s%s\n", ok ? "" : "not ", n, what,
	       ok ? "" : " # got ", ok ? "" : got);
}

/* The name of @uaddr in the maps text @maps (a file written for the test). */
static bool name_in(const char *maps, const char *exe, uint64_t uaddr, char *buf, size_t size)
{
	char path[] = "/tmp/lbt-maps-XXXXXX";
	int fd = mkstemp(path);
	bool ok;

	if (fd < 0 || write(fd, maps, strlen(maps)) != (ssize_t)strlen(maps))
		exit(1);
	close(fd);
	strcpy(buf, "(none)");
	ok = lbt_symbolize_maps(path, exe, uaddr, buf, size);
	unlink(path);
	return ok;
}

static void test_fake_maps(void)
{
	static const char maps[] =
		"55d0c0000000-55d0c0021000 rw-p 00000000 00:00 0                          [heap]\n"
		"7f0000000000-7f0000010000 rw-p 00000000 00:00 0 \n"
		"7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]\n"
		"7ffd00000000-7ffd00001000 rw-s 00002000 00:05 77                         /nonexistent/libgone.so\n"
		"7ffe00000000-7ffe00001000 rw-s 00000000 00:01 1034                       /dev/zero (deleted)\n"
		"garbage line\n"
		"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n";
	char buf[64];
	bool ok;

	ok = name_in(maps, NULL, 0x55d0c0000040ULL, buf, sizeof(buf));
	check("heap word: [heap]+0x40", ok && !strcmp(buf, "[heap]+0x40"), buf);
	ok = name_in(maps, NULL, 0x7ffc00000123ULL, buf, sizeof(buf));
	check("stack word: [stack]", ok && !strcmp(buf, "[stack]"), buf);
	ok = name_in(maps, NULL, 0x7f0000001000ULL, buf, sizeof(buf));
	check("anonymous word: [anon]+0x1000", ok && !strcmp(buf, "[anon]+0x1000"), buf);
	ok = name_in(maps, NULL, 0x7ffd00000010ULL, buf, sizeof(buf));
	check("unreadable object: its name and file offset",
	      ok && !strcmp(buf, "libgone.so+0x2010"), buf);
	ok = name_in(maps, NULL, 0x7ffe00000008ULL, buf, sizeof(buf));
	check("MAP_SHARED anonymous word: [shared anon]+0x8",
	      ok && !strcmp(buf, "[shared anon]+0x8"), buf);
	ok = name_in(maps, NULL, 0x1000, buf, sizeof(buf));
	check("unmapped address names nothing", !ok, buf);
	ok = name_in("", NULL, 0x1000, buf, sizeof(buf));
	check("empty maps names nothing", !ok, buf);
	check("missing maps file names nothing",
	      !lbt_symbolize_maps("/nonexistent/maps", NULL, 0x1000, buf, sizeof(buf)), buf);
}

/* A file that is no ELF object, mapped: named by the file and offset. */
static void test_not_elf(void)
{
	char maps[512], buf[64], want[64], path[] = "/tmp/lbt-notelf-XXXXXX";
	int fd = mkstemp(path);
	bool ok;

	if (fd < 0 || write(fd, "not an ELF file at all, just text\n", 34) != 34)
		exit(1);
	close(fd);
	snprintf(maps, sizeof(maps), "7e0000000000-7e0000001000 r--p 00000000 08:01 5 %s\n",
		 path);
	ok = name_in(maps, NULL, 0x7e0000000008ULL, buf, sizeof(buf));
	snprintf(want, sizeof(want), "%s+0x8", strrchr(path, '/') + 1);
	check("a file that is no ELF: its name and offset", ok && !strcmp(buf, want), buf);
	unlink(path);
}

static void test_self(void)
{
	char buf[64], exe[256];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	bool ok;

	exe[len > 0 ? len : 0] = '\0';
	ok = lbt_symbolize_maps("/proc/self/maps", exe, (uintptr_t)&lbt_test_word[2], buf,
				sizeof(buf));
	check("this program's global: lbt_test_word+0x8",
	      ok && !strcmp(buf, "lbt_test_word+0x8"), buf);
	ok = lbt_symbolize(getpid(), NULL, (uintptr_t)&lbt_test_word[0], buf, sizeof(buf));
	check("by pid: lbt_test_word", ok && !strcmp(buf, "lbt_test_word"), buf);
	/* A user stack frame: an address inside a function of this program. */
	ok = lbt_symbolize_maps("/proc/self/maps", exe, (uintptr_t)test_self + 4, buf,
				sizeof(buf));
	check("this program's code: test_self+0x4", ok && !strcmp(buf, "test_self+0x4"), buf);
}

/* @lib defines lib_word (int[4]) and a static lib_hidden. */
static void test_lib(const char *lib, const char *base, bool stripped)
{
	char buf[64], want[64], what[128];
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	int *w;
	bool ok;

	if (!h) {
		check("dlopen the test library", false, dlerror());
		return;
	}
	w = dlsym(h, "lib_word");
	ok = w && lbt_symbolize_maps("/proc/self/maps", NULL, (uintptr_t)&w[1], buf, sizeof(buf));
	snprintf(want, sizeof(want), "%s:lib_word+0x4", base);
	snprintf(what, sizeof(what), "%s library word: %s", stripped ? "stripped (.dynsym)" :
		 ".symtab", want);
	check(what, ok && !strcmp(buf, want), buf);
	dlclose(h);
}

/* An inode's path from the open files: one path, not two, and the name must fit. */
static void test_inode_path(void)
{
	char dir[] = "/tmp/lbt-inode-XXXXXX", a[64], b[96], sub[64], path[4096];
	struct stat st;
	int fa, fb;
	bool ok;

	if (!mkdtemp(dir)) {
		check("inode path: a temporary directory", false, "mkdtemp");
		return;
	}
	snprintf(a, sizeof(a), "%s/lbt-append.log", dir);
	snprintf(sub, sizeof(sub), "%s/other", dir);
	snprintf(b, sizeof(b), "%s/lbt-append.log", sub);
	fa = open(a, O_CREAT | O_WRONLY, 0600);
	ok = fa >= 0 && !fstat(fa, &st) &&
	     lbt_inode_path(st.st_ino, "lbt-append.l", path, sizeof(path)) && !strcmp(path, a);
	check("inode path: the open file's path, from the first bytes of its name", ok, path);
	check("inode path: another name does not fit",
	      fa >= 0 && !lbt_inode_path(st.st_ino, "other-name", path, sizeof(path)), path);
	fb = mkdir(sub, 0700) || link(a, b) ? -1 : open(b, O_RDONLY);
	check("inode path: two open paths of one inode name nothing",
	      fb >= 0 && !lbt_inode_path(st.st_ino, "lbt-append.l", path, sizeof(path)), path);
	if (fb >= 0)
		close(fb);
	if (fa >= 0)
		close(fa);
	unlink(b);
	rmdir(sub);
	unlink(a);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: symbolize-test LIB.so STRIPPED.so\n");
		return 2;
	}
	test_fake_maps();
	test_not_elf();
	test_self();
	test_inode_path();
	test_lib(argv[1], strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1], false);
	test_lib(argv[2], strrchr(argv[2], '/') ? strrchr(argv[2], '/') + 1 : argv[2], true);
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
