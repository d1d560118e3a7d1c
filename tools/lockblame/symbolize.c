// SPDX-License-Identifier: GPL-2.0
/*
 * Names a futex word, a user address in some process, as a human knows it:
 * the symbol that covers it in the ELF object mapped there (.symtab, else
 * .dynsym), "lib.so:sym+0x8" for a library, else the mapping it lies in,
 * "[heap]+0x40", "[stack]", "[anon]+0x1000". Only from /proc/PID/maps and
 * the mapped files; a process that is gone (or is no longer the one the
 * ledger saw) names nothing: the caller says what it knows.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lockblame.h"

#define LBT_SYM_MAX_SYMS	(1U << 22)	/* a symbol table larger than this is refused */

struct lbt_map {
	uint64_t start, end, offset;
	char path[256];		/* "" for an anonymous mapping */
};

static bool lbt_map_parse(const char *line, struct lbt_map *m)
{
	unsigned long long start, end, off;
	int n = 0;

	m->path[0] = '\0';
	if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &start, &end, &off, &n) != 3 || !n ||
	    end <= start)
		return false;
	m->start = start;
	m->end = end;
	m->offset = off;
	snprintf(m->path, sizeof(m->path), "%s", line + n);
	m->path[strcspn(m->path, "\n")] = '\0';
	return true;
}

static bool lbt_pread(int fd, void *buf, size_t len, uint64_t off)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len;
}

/* The address the first PT_LOAD of @fd's ELF is linked at, rounded to its page. */
static bool lbt_elf_base(int fd, const Elf64_Ehdr *eh, uint64_t *base)
{
	Elf64_Phdr ph;
	unsigned int i;

	for (i = 0; i < eh->e_phnum && i < 256; i++) {
		if (!lbt_pread(fd, &ph, sizeof(ph), eh->e_phoff + (uint64_t)i * sizeof(ph)))
			return false;
		if (ph.p_type == PT_LOAD) {
			*base = ph.p_vaddr - (ph.p_offset & (ph.p_align > 1 ? ph.p_align - 1 : 0));
			return true;
		}
	}
	return false;
}

/* The symbol of @fd's table @sh covering link-time address @vaddr. */
static bool lbt_elf_find(int fd, const Elf64_Shdr *sh, const Elf64_Shdr *strsh, uint64_t vaddr,
			 char *name, size_t size, uint64_t *off)
{
	uint64_t i, n = sh->sh_entsize == sizeof(Elf64_Sym) ? sh->sh_size / sizeof(Elf64_Sym) : 0;
	Elf64_Sym s;

	if (n > LBT_SYM_MAX_SYMS)
		return false;
	for (i = 1; i < n; i++) {
		if (!lbt_pread(fd, &s, sizeof(s), sh->sh_offset + i * sizeof(s)))
			return false;
		/* Data (a futex word) and code (a user stack frame). */
		if (ELF64_ST_TYPE(s.st_info) != STT_OBJECT && ELF64_ST_TYPE(s.st_info) != STT_TLS &&
		    ELF64_ST_TYPE(s.st_info) != STT_NOTYPE && ELF64_ST_TYPE(s.st_info) != STT_FUNC)
			continue;
		if (!s.st_name || s.st_shndx == SHN_UNDEF || vaddr < s.st_value ||
		    vaddr - s.st_value >= (s.st_size ? s.st_size : 1))
			continue;
		if (s.st_name >= strsh->sh_size || size < 2)
			return false;
		memset(name, 0, size);
		if (pread(fd, name, size - 1, (off_t)(strsh->sh_offset + s.st_name)) <= 0 ||
		    !name[0])
			return false;
		*off = vaddr - s.st_value;
		return true;
	}
	return false;
}

/* Symbol of @vaddr in ELF file @fd: .symtab first, else .dynsym. */
static bool lbt_elf_symbol(int fd, const Elf64_Ehdr *eh, uint64_t vaddr, char *name, size_t size,
			   uint64_t *off)
{
	static const uint32_t order[] = { SHT_SYMTAB, SHT_DYNSYM };
	Elf64_Shdr sh, strsh;
	unsigned int k, i;

	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum > 4096)
		return false;
	for (k = 0; k < ARRAY_SIZE(order); k++) {
		for (i = 0; i < eh->e_shnum; i++) {
			if (!lbt_pread(fd, &sh, sizeof(sh), eh->e_shoff + (uint64_t)i * sizeof(sh)))
				return false;
			if (sh.sh_type != order[k] || sh.sh_link >= eh->e_shnum ||
			    !lbt_pread(fd, &strsh, sizeof(strsh),
				       eh->e_shoff + (uint64_t)sh.sh_link * sizeof(strsh)))
				continue;
			if (lbt_elf_find(fd, &sh, &strsh, vaddr, name, size, off))
				return true;
		}
	}
	return false;
}

/*
 * The symbol at @uaddr of the object @m->path, mapped with its offset-0
 * mapping at @load (so the load bias is @load minus its first PT_LOAD).
 */
static bool lbt_file_symbol(const char *path, uint64_t load, uint64_t uaddr, char *name,
			    size_t size, uint64_t *off)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t base, vaddr;
	Elf64_Ehdr eh;
	bool ok = false;

	if (fd < 0)
		return false;
	if (lbt_pread(fd, &eh, sizeof(eh), 0) && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && lbt_elf_base(fd, &eh, &base)) {
		/* ET_EXEC is linked where it runs; ET_DYN is moved by the bias. */
		vaddr = eh.e_type == ET_EXEC ? uaddr : uaddr - load + base;
		ok = lbt_elf_symbol(fd, &eh, vaddr, name, size, off);
	}
	close(fd);
	return ok;
}

static const char *lbt_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void lbt_sym_text(char *buf, size_t size, const char *obj, const char *sym, uint64_t off)
{
	char plus[24] = "";

	if (off)
		snprintf(plus, sizeof(plus), "+0x%" PRIx64, off);
	snprintf(buf, size, "%s%s%s%s", obj ? obj : "", obj ? ":" : "", sym, plus);
}

/*
 * A word no symbol covers, by its mapping: "[stack]", "[heap]+0x40",
 * "[anon]+0x10", "[shared anon]+0x10" (MAP_SHARED anonymous memory and SysV
 * shm, which maps shows as files), or "file+0xOFFSET" (offset in the file).
 */
static void lbt_map_text(const struct lbt_map *m, uint64_t uaddr, char *buf, size_t size)
{
	uint64_t off = uaddr - m->start;
	char plus[24] = "";

	if (off)
		snprintf(plus, sizeof(plus), "+0x%" PRIx64, off);
	if (!strcmp(m->path, "[stack]"))
		snprintf(buf, size, "[stack]");
	else if (m->path[0] == '[')
		snprintf(buf, size, "%s%s", m->path, plus);
	else if (!strncmp(m->path, "/dev/zero", 9) || !strncmp(m->path, "/SYSV", 5))
		snprintf(buf, size, "[shared anon]%s", plus);
	else if (m->path[0] == '/')
		snprintf(buf, size, "%s+0x%" PRIx64, lbt_basename(m->path), off + m->offset);
	else
		snprintf(buf, size, "[anon]%s", plus);
}

/*
 * Name @uaddr from the maps text in @f, of a process whose main program is
 * @exe (its path in maps; NULL if not known). True with the name in @buf.
 */
static bool lbt_symbolize_file(FILE *f, const char *exe, uint64_t uaddr, char *buf, size_t size)
{
	struct lbt_map m, last_file = { 0 };
	uint64_t load = 0, prev_end = 0;
	char line[512], sym[128];
	bool bss;
	uint64_t off;

	while (fgets(line, sizeof(line), f)) {
		if (!lbt_map_parse(line, &m))
			continue;
		/* An anonymous mapping right after a file's is its .bss. */
		bss = !m.path[0] && last_file.path[0] && m.start == prev_end;
		if (m.path[0] == '/') {
			if (strcmp(m.path, last_file.path))
				load = m.start - m.offset;
			last_file = m;
		} else if (!bss) {
			last_file.path[0] = '\0';
		}
		prev_end = m.end;
		if (uaddr < m.start || uaddr >= m.end)
			continue;
		if ((m.path[0] == '/' || bss) &&
		    lbt_file_symbol(last_file.path, load, uaddr, sym, sizeof(sym), &off)) {
			bool main_obj = exe ? !strcmp(exe, last_file.path) : false;

			lbt_sym_text(buf, size, main_obj ? NULL : lbt_basename(last_file.path),
				     sym, off);
			return true;
		}
		lbt_map_text(&m, uaddr, buf, size);
		return true;
	}
	return false;
}

/* The same from a maps file at @maps_path (tests give their own). */
bool lbt_symbolize_maps(const char *maps_path, const char *exe, uint64_t uaddr, char *buf,
			size_t size)
{
	FILE *f = fopen(maps_path, "re");
	bool ok;

	if (!f)
		return false;
	ok = lbt_symbolize_file(f, exe, uaddr, buf, size);
	fclose(f);
	return ok;
}

/*
 * Name @uaddr in process @tgid, if it still runs as @comm (NULL: not
 * checked): a pid reused by another program names nothing.
 */
bool lbt_symbolize(int32_t tgid, const struct lbt_comm *comm, uint64_t uaddr, char *buf,
		   size_t size)
{
	char path[64], exe[256], now[LBT_COMM_MAX + 2];
	struct lbt_comm cur;
	ssize_t n;
	FILE *f;

	if (tgid <= 0 || !uaddr)
		return false;
	if (comm && comm->len) {
		snprintf(path, sizeof(path), "/proc/%d/comm", tgid);
		f = fopen(path, "re");
		if (!f)
			return false;
		if (!fgets(now, sizeof(now), f))
			now[0] = '\0';
		fclose(f);
		now[strcspn(now, "\n")] = '\0';
		lbt_comm_from_bytes(&cur, now, strlen(now));
		if (!lbt_comm_eq(&cur, comm))
			return false;
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", tgid);
	n = readlink(path, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/maps", tgid);
	return lbt_symbolize_maps(path, exe[0] ? exe : NULL, uaddr, buf, size);
}

/* Open files looked at, at most, to find one inode's path. */
#define LBT_INODE_FDS_MAX	200000

/* Inode @ino's path, if @link (a /proc/PID/fd entry) is it and named @name... */
static bool lbt_fd_is(const char *link, uint64_t ino, const char *name, char *got, size_t size)
{
	const char *base;
	struct stat st;
	ssize_t n;

	if (stat(link, &st) || (uint64_t)st.st_ino != ino)
		return false;
	n = readlink(link, got, size - 1);
	if (n <= 0)
		return false;
	got[n] = '\0';
	base = strrchr(got, '/');
	return got[0] == '/' && base && !strncmp(base + 1, name, strlen(name));
}

/*
 * The path of inode @ino, whose name begins with @name (the module keeps the
 * first bytes of it), from the open files of the processes running now: only
 * when one path fits, never a guess between two (hard links, or two file
 * systems with that inode number).
 */
bool lbt_inode_path(uint64_t ino, const char *name, char *path, size_t size)
{
	char dir[64], link[128], got[4096];
	DIR *proc = opendir("/proc"), *fds;
	unsigned long seen = 0;
	bool found = false, two = false;
	struct dirent *p, *f;

	if (!proc)
		return false;
	while (!two && (p = readdir(proc)) && seen < LBT_INODE_FDS_MAX) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(dir, sizeof(dir), "/proc/%.20s/fd", p->d_name);
		fds = opendir(dir);
		while (fds && !two && (f = readdir(fds)) && seen++ < LBT_INODE_FDS_MAX) {
			snprintf(link, sizeof(link), "%s/%.40s", dir, f->d_name);
			if (f->d_name[0] == '.' || !lbt_fd_is(link, ino, name, got, sizeof(got)))
				continue;
			two = found && strcmp(got, path);
			snprintf(path, size, "%s", got);
			found = true;
		}
		if (fds)
			closedir(fds);
	}
	closedir(proc);
	return found && !two;
}

/*
 * A kernel lock named "i_rwsem of inode N (NAME)" gets its file's path in
 * place of NAME when a process has it open now (unless @off); a path too
 * long for a name keeps its end.
 */
static void lbt_inode_name(struct lbt_lock *l, bool off)
{
	char text[LBT_COMM_MAX + 1], name[LBT_COMM_MAX], path[4096], buf[sizeof(path) + 80];
	unsigned long long ino;
	size_t len, room;
	int at = 0;

	memcpy(text, l->name.b, l->name.len);
	text[l->name.len] = '\0';
	if (off || sscanf(text, "i_rwsem of inode %llu (%n", &ino, &at) != 1 || !at)
		return;
	len = strlen(text + at);
	if (!len || text[at + len - 1] != ')' || len - 1 >= sizeof(name))
		return;
	memcpy(name, text + at, len - 1);
	name[len - 1] = '\0';
	if (!lbt_inode_path(ino, name, path, sizeof(path)))
		return;
	room = LBT_COMM_MAX - (size_t)at - 2;	/* the prefix, ")" and the NUL */
	len = strlen(path);
	snprintf(buf, sizeof(buf), "%.*s%s%s)", at, text, len > room ? "..." : "",
		 len > room ? path + len - (room - 3) : path);
	lbt_comm_from_bytes(&l->name, buf, strlen(buf));
}

/*
 * Every futex lock the module left unnamed gets a name from its process's
 * maps (unless @off): the symbol, or "comm:0xADDR" when the process is gone.
 * A kernel lock of an inode gets its path where a process has it open.
 */
void lbt_names_resolve(struct lbt_doc *doc, bool off)
{
	char buf[LBT_COMM_MAX], comm[LBT_COMM_BUF];
	const struct lbt_comm *pc;
	size_t i, j;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_LOCK); i++) {
		struct lbt_lock *l = LBT_REC(doc, LBT_T_LOCK, struct lbt_lock, i);

		if (l->name.len)
			lbt_inode_name(l, off);
		if (l->name.len || !l->uaddr)
			continue;
		pc = NULL;
		for (j = 0; j < LBT_ROWS(doc, LBT_T_PROCESS); j++) {
			const struct lbt_process *p = LBT_REC(doc, LBT_T_PROCESS,
							      struct lbt_process, j);

			if (p->tgid == l->tgid)
				pc = &p->comm;
		}
		if (off || !lbt_symbolize(l->tgid, pc, l->uaddr, buf, sizeof(buf))) {
			if (pc)
				snprintf(buf, sizeof(buf), "%s:0x%" PRIx64,
					 lbt_comm_text(comm, sizeof(comm), pc->b, pc->len), l->uaddr);
			else
				snprintf(buf, sizeof(buf), "%d:0x%" PRIx64, l->tgid, l->uaddr);
		}
		lbt_comm_from_bytes(&l->name, buf, strlen(buf));
	}
}

/* A name for text: printable bytes and spaces as they are, others \xNN; "-" if none. */
const char *lbt_name_text(char *buf, size_t size, const struct lbt_comm *name)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	unsigned int i;

	if (!name->len)
		return "-";
	for (i = 0; i < name->len && o + 5 < size; i++) {
		unsigned char c = name->b[i];

		if (c < 0x20 || c > 0x7e || c == '\\') {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 15];
		} else {
			buf[o++] = c;
		}
	}
	buf[o] = '\0';
	return buf;
}

/* The lock record of @id, or NULL. */
const struct lbt_lock *lbt_lock_find(const struct lbt_doc *doc, uint64_t id)
{
	size_t i;

	for (i = 0; i < LBT_ROWS(doc, LBT_T_LOCK); i++)
		if (LBT_REC(doc, LBT_T_LOCK, struct lbt_lock, i)->id == id)
			return LBT_REC(doc, LBT_T_LOCK, struct lbt_lock, i);
	return NULL;
}
