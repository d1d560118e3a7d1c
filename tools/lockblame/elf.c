// SPDX-License-Identifier: GPL-2.0
/*
 * A function or a USDT probe of an ELF file as the FILE offset that
 * uprobe_register() takes: the symbol's (or probe's) address made an offset
 * through the PT_LOAD segment that holds it. 64-bit little-endian x86-64
 * only; .symtab, then .dynsym, then the .symtab of the separate debug file
 * that has the file's build ID; USDT probes from .note.stapsdt.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lockblame.h"

#define LBT_NT_STAPSDT	3
#define LBT_DEBUG_DIR	"/usr/lib/debug"
#define LBT_BUILD_ID_MAX	64	/* bytes; GNU ld writes 20 */

struct lbt_elf {
	const unsigned char *map;
	size_t size;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;		/* NULL: no section headers */
	unsigned int shnum;
	const Elf64_Shdr *shstr;	/* section names, NULL if none */
	const Elf64_Phdr *ph;
	unsigned int phnum;
	struct lbt_elf_hit *hit;
};

static int __printf(3, 4) lbt_elf_why(struct lbt_elf *e, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->hit->why, sizeof(e->hit->why), fmt, ap);
	va_end(ap);
	return status;
}

/* @len bytes at @off lie inside the file. */
static bool lbt_elf_has(const struct lbt_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

/* A table of @n entries of @entsize bytes at @off, in bounds and aligned for them. */
static bool lbt_elf_table(const struct lbt_elf *e, uint64_t off, uint64_t n, uint64_t entsize)
{
	return !(off % 8) && n <= e->size / entsize && lbt_elf_has(e, off, n * entsize);
}

static int lbt_elf_ident(struct lbt_elf *e)
{
	const unsigned char *id = e->map;

	if (e->size < EI_NIDENT || memcmp(id, ELFMAG, SELFMAG))
		return lbt_elf_why(e, LBT_ELF_BAD, "not an ELF file");
	if (id[EI_CLASS] != ELFCLASS64)
		return lbt_elf_why(e, LBT_ELF_BAD,
				   "a 32-bit ELF file: only 64-bit x86-64 ELF files are read");
	if (id[EI_DATA] != ELFDATA2LSB)
		return lbt_elf_why(e, LBT_ELF_BAD,
				   "a big-endian ELF file: only 64-bit x86-64 ELF files are read");
	if (e->size < sizeof(Elf64_Ehdr))
		return lbt_elf_why(e, LBT_ELF_BAD, "a truncated ELF file");
	e->eh = (const Elf64_Ehdr *)e->map;
	if (e->eh->e_machine != EM_X86_64)
		return lbt_elf_why(e, LBT_ELF_BAD,
				   "an ELF file for machine %u, not x86-64: only x86-64 is read",
				   e->eh->e_machine);
	if (e->eh->e_type != ET_EXEC && e->eh->e_type != ET_DYN)
		return lbt_elf_why(e, LBT_ELF_BAD,
				   "ELF type %u: not an executable or a shared library",
				   e->eh->e_type);
	return LBT_ELF_OK;
}

/* The program and section header tables, checked against the file's size. */
static int lbt_elf_tables(struct lbt_elf *e)
{
	const Elf64_Ehdr *eh = e->eh;
	unsigned int shstrndx = eh->e_shstrndx;

	if (eh->e_phentsize != sizeof(Elf64_Phdr) ||
	    !lbt_elf_table(e, eh->e_phoff, eh->e_phnum, sizeof(Elf64_Phdr)))
		return lbt_elf_why(e, LBT_ELF_BAD, "corrupt ELF file (program headers)");
	e->ph = (const Elf64_Phdr *)(e->map + eh->e_phoff);
	e->phnum = eh->e_phnum;
	if (!eh->e_shoff)
		return LBT_ELF_OK;
	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !lbt_elf_table(e, eh->e_shoff, 1, sizeof(Elf64_Shdr)))
		return lbt_elf_why(e, LBT_ELF_BAD, "corrupt ELF file (section headers)");
	e->sh = (const Elf64_Shdr *)(e->map + eh->e_shoff);
	/* More than SHN_LORESERVE sections: the count and the index are in section 0. */
	e->shnum = eh->e_shnum ? eh->e_shnum : e->sh[0].sh_size;
	if (shstrndx == SHN_XINDEX)
		shstrndx = e->sh[0].sh_link;
	if (!lbt_elf_table(e, eh->e_shoff, e->shnum, sizeof(Elf64_Shdr)))
		return lbt_elf_why(e, LBT_ELF_BAD, "corrupt ELF file (section headers)");
	if (shstrndx && shstrndx < e->shnum && e->sh[shstrndx].sh_type == SHT_STRTAB &&
	    lbt_elf_has(e, e->sh[shstrndx].sh_offset, e->sh[shstrndx].sh_size))
		e->shstr = &e->sh[shstrndx];
	return LBT_ELF_OK;
}

/* The NUL-terminated string at @idx of string section @strtab, or NULL. */
static const char *lbt_elf_str(const struct lbt_elf *e, const Elf64_Shdr *strtab, uint64_t idx)
{
	const char *s;

	if (!strtab || strtab->sh_type != SHT_STRTAB || idx >= strtab->sh_size ||
	    !lbt_elf_has(e, strtab->sh_offset, strtab->sh_size))
		return NULL;
	s = (const char *)e->map + strtab->sh_offset;
	return memchr(s + idx, '\0', strtab->sh_size - idx) ? s + idx : NULL;
}

static const Elf64_Shdr *lbt_elf_section(const struct lbt_elf *e, const char *name)
{
	const char *n;
	unsigned int i;

	for (i = 1; i < e->shnum; i++) {
		n = lbt_elf_str(e, e->shstr, e->sh[i].sh_name);
		if (n && !strcmp(n, name))
			return &e->sh[i];
	}
	return NULL;
}

/* The file offset of address @addr, through the PT_LOAD segment holding it. */
static bool lbt_elf_offset(const struct lbt_elf *e, uint64_t addr, uint64_t *off)
{
	const Elf64_Phdr *p;
	unsigned int i;

	for (i = 0; i < e->phnum; i++) {
		p = &e->ph[i];
		if (p->p_type == PT_LOAD && addr >= p->p_vaddr &&
		    addr - p->p_vaddr < p->p_filesz) {
			*off = addr - p->p_vaddr + p->p_offset;
			return true;
		}
	}
	return false;
}

static int lbt_elf_add_site(struct lbt_elf *e, uint64_t off, uint64_t sema, const char *args)
{
	struct lbt_elf_hit *h = e->hit;
	struct lbt_elf_site *v;

	v = lbt_grow(h->site, &h->cap, h->n + 1, sizeof(*h->site));
	if (!v)
		return lbt_elf_why(e, LBT_ELF_BAD, "out of memory");
	h->site = v;
	h->site[h->n].offset = off;
	h->site[h->n].sema = sema;
	snprintf(h->site[h->n].args, sizeof(h->site[h->n].args), "%s", args);
	h->n++;
	return LBT_ELF_OK;
}

/*
 * GCC's name for a static function that link-time optimization made unique
 * ("take_gil.lto_priv.0"): the function itself, same entry, same arguments.
 * Not .cold or .part (a fragment of one), nor .isra or .constprop (a copy
 * with other arguments).
 */
static bool lbt_sym_lto_priv(const char *rest)
{
	if (strncmp(rest, ".lto_priv.", 10) || !rest[10])
		return false;
	return strspn(rest + 10, "0123456789") == strlen(rest + 10);
}

/*
 * How well symbol @name matches @want: 0 not at all; more for a global or
 * weak binding, and for the default version ("@@VER", or not hidden in
 * .gnu.version) over an older one ("@VER"); 1 for a local one that LTO
 * renamed.
 */
static int lbt_sym_rank(const Elf64_Sym *s, const char *name, const char *want, bool hidden)
{
	size_t len = strlen(want);
	int bind = ELF64_ST_BIND(s->st_info), rank = 1;

	if (strncmp(name, want, len))
		return 0;
	if (name[len] == '.')
		return lbt_sym_lto_priv(name + len) && bind == STB_LOCAL;
	if (name[len] && name[len] != '@')
		return 0;
	if (bind == STB_GLOBAL || bind == STB_WEAK)
		rank += 2;
	if (!hidden && (name[len] != '@' || name[len + 1] == '@'))
		rank += 1;
	return rank;
}

struct lbt_sym_pick {
	const Elf64_Sym *best;
	int rank;
	bool ambiguous;		/* two different addresses at the best rank */
	bool other;		/* a defined symbol of that name, not a function */
};

static void lbt_sym_consider(struct lbt_sym_pick *p, const Elf64_Sym *s, int rank)
{
	int type = ELF64_ST_TYPE(s->st_info);

	if (s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS || !s->st_value)
		return;
	if (type != STT_FUNC && type != STT_GNU_IFUNC) {
		p->other = true;
		return;
	}
	if (rank > p->rank) {
		p->best = s;
		p->rank = rank;
		p->ambiguous = false;
	} else if (rank == p->rank && s->st_value != p->best->st_value) {
		p->ambiguous = true;
	}
}

/* Symbol table @sec searched for the function @want. */
static void lbt_elf_symtab(const struct lbt_elf *e, const Elf64_Shdr *sec, const char *want,
			   struct lbt_sym_pick *p)
{
	const Elf64_Shdr *strtab, *versym = NULL;
	const uint16_t *ver = NULL;
	const Elf64_Sym *syms;
	uint64_t i, n;

	if (sec->sh_entsize != sizeof(Elf64_Sym) || sec->sh_link >= e->shnum)
		return;
	n = sec->sh_size / sizeof(Elf64_Sym);
	if (!lbt_elf_table(e, sec->sh_offset, n, sizeof(Elf64_Sym)))
		return;
	syms = (const Elf64_Sym *)(e->map + sec->sh_offset);
	strtab = &e->sh[sec->sh_link];
	if (sec->sh_type == SHT_DYNSYM)
		versym = lbt_elf_section(e, ".gnu.version");
	if (versym && versym->sh_size / 2 >= n && !(versym->sh_offset % 2) &&
	    lbt_elf_has(e, versym->sh_offset, versym->sh_size))
		ver = (const uint16_t *)(e->map + versym->sh_offset);
	for (i = 1; i < n; i++) {
		const char *name = lbt_elf_str(e, strtab, syms[i].st_name);
		int rank = name ? lbt_sym_rank(&syms[i], name, want,
						ver && (ver[i] & 0x8000)) : 0;

		if (rank)
			lbt_sym_consider(p, &syms[i], rank);
	}
}

/* The first symbol table of type @type holding the function @want. */
static struct lbt_sym_pick lbt_elf_find_in(const struct lbt_elf *e, uint32_t type,
					   const char *want)
{
	struct lbt_sym_pick p = {};
	unsigned int i;

	for (i = 1; i < e->shnum && !p.best; i++)
		if (e->sh[i].sh_type == type)
			lbt_elf_symtab(e, &e->sh[i], want, &p);
	return p;
}

static int lbt_elf_map(struct lbt_elf *e, const char *path)
{
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lbt_elf_why(e, LBT_ELF_BAD, "%s", strerror(errno));
	if (fstat(fd, &st)) {
		close(fd);
		return lbt_elf_why(e, LBT_ELF_BAD, "%s", strerror(errno));
	}
	if (!S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		return lbt_elf_why(e, LBT_ELF_BAD, "not an ELF file (%s)",
				   S_ISREG(st.st_mode) ? "empty" : "not a regular file");
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return lbt_elf_why(e, LBT_ELF_BAD, "mmap: %s", strerror(errno));
	e->map = map;
	e->size = st.st_size;
	return LBT_ELF_OK;
}

/* @path mapped and its headers checked; e->map is set if it was mapped. */
static int lbt_elf_open(struct lbt_elf *e, const char *path)
{
	int err = lbt_elf_map(e, path);

	if (!err)
		err = lbt_elf_ident(e);
	if (!err)
		err = lbt_elf_tables(e);
	return err;
}

/* One note of a note section: its header, name and descriptor. */
struct lbt_note {
	Elf64_Nhdr nh;
	const char *name;
	const unsigned char *desc;
};

#define LBT_NOTE_BAD	UINT64_MAX	/* *pos after a corrupt note */

/*
 * The note of section @sec at *@pos, and *@pos moved past it; false at the
 * section's end, or with *@pos LBT_NOTE_BAD if the note or the section is
 * corrupt.
 */
static bool lbt_elf_note(const struct lbt_elf *e, const Elf64_Shdr *sec, uint64_t *pos,
			 struct lbt_note *n)
{
	uint64_t end = sec->sh_offset + sec->sh_size, desc, next;
	uint64_t align = sec->sh_addralign == 8 ? 7 : 3;

	if (*pos == LBT_NOTE_BAD || !lbt_elf_has(e, sec->sh_offset, sec->sh_size)) {
		*pos = LBT_NOTE_BAD;
		return false;
	}
	if (*pos >= end || end - *pos < sizeof(n->nh))
		return false;
	memcpy(&n->nh, e->map + *pos, sizeof(n->nh));
	desc = *pos + sizeof(n->nh) + (((uint64_t)n->nh.n_namesz + align) & ~align);
	next = desc + (((uint64_t)n->nh.n_descsz + align) & ~align);
	if (next > end || desc + n->nh.n_descsz > end) {
		*pos = LBT_NOTE_BAD;
		return false;
	}
	n->name = (const char *)e->map + *pos + sizeof(n->nh);
	n->desc = e->map + desc;
	*pos = next;
	return true;
}

/* Note @n has type @type and owner @owner. */
static bool lbt_note_is(const struct lbt_note *n, uint32_t type, const char *owner)
{
	return n->nh.n_type == type && n->nh.n_namesz == strlen(owner) + 1 &&
	       !memcmp(n->name, owner, n->nh.n_namesz);
}

/* The file's GNU build ID in hex in @hex; false if it has none. */
static bool lbt_elf_build_id(const struct lbt_elf *e, char *hex, size_t size)
{
	struct lbt_note n;
	unsigned int i, k;
	uint64_t pos;

	for (i = 1; i < e->shnum; i++) {
		pos = e->sh[i].sh_offset;
		while (e->sh[i].sh_type == SHT_NOTE && lbt_elf_note(e, &e->sh[i], &pos, &n)) {
			if (!lbt_note_is(&n, NT_GNU_BUILD_ID, "GNU") || !n.nh.n_descsz ||
			    2 * (size_t)n.nh.n_descsz >= size)
				continue;
			for (k = 0; k < n.nh.n_descsz; k++)
				snprintf(hex + 2 * k, 3, "%02x", n.desc[k]);
			return true;
		}
	}
	return false;
}

/* @p's function as a site of @e: its address is @e's, whichever file named it. */
static int lbt_elf_pick(struct lbt_elf *e, const struct lbt_sym_pick *p, const char *want)
{
	uint64_t off;

	if (p->ambiguous)
		return lbt_elf_why(e, LBT_ELF_BAD,
				   "%s is ambiguous: functions of that name at different addresses; give the offset",
				   want);
	if (ELF64_ST_TYPE(p->best->st_info) == STT_GNU_IFUNC)
		return lbt_elf_why(e, LBT_ELF_BAD,
				   "%s is an IFUNC (STT_GNU_IFUNC): its address is the resolver's, not the function's; name the implementation it picks",
				   want);
	if (!lbt_elf_offset(e, p->best->st_value, &off))
		return lbt_elf_why(e, LBT_ELF_BAD, "%s at 0x%llx is in no PT_LOAD segment", want,
				   (unsigned long long)p->best->st_value);
	return lbt_elf_add_site(e, off, 0, "");
}

/* Not found: @where says what the search of a debug file found. */
static int lbt_elf_no_symbol(struct lbt_elf *e, const char *want, bool other, const char *where)
{
	if (other)
		return lbt_elf_why(e, LBT_ELF_BAD, "%s is not a function (not STT_FUNC)", want);
	if (lbt_elf_section(e, ".gnu_debugdata")) {
		e->hit->minidebuginfo = true;
		return lbt_elf_why(e, LBT_ELF_NO_SYMBOL, "%s not in .symtab/.dynsym; %s; %s", want,
				   where, "the file has MiniDebugInfo, which this reader does not read");
	}
	return lbt_elf_why(e, LBT_ELF_NO_SYMBOL, "no function %s in .symtab or .dynsym; %s", want,
			   where);
}

/*
 * @want in @e's separate debug file, found by build ID as GDB finds it:
 * DIR/.build-id/NN/REST.debug, DIR $LOCKBLAME_DEBUG_DIR or /usr/lib/debug,
 * where Debian's -dbg and -dbgsym packages put them. The debug file's
 * PT_LOAD segments have no contents, so @e's make the address an offset.
 */
static int lbt_elf_debug_function(struct lbt_elf *e, const char *want, bool other)
{
	char id[2 * LBT_BUILD_ID_MAX + 1], did[sizeof(id)], path[PATH_MAX], where[PATH_MAX + 64];
	const char *dir = getenv("LOCKBLAME_DEBUG_DIR");
	struct lbt_elf d = { .hit = e->hit };
	struct lbt_sym_pick p = {};
	int err;

	if (!lbt_elf_build_id(e, id, sizeof(id)))
		return lbt_elf_no_symbol(e, want, other, "no build ID to find a debug file by");
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug",
		 dir && *dir ? dir : LBT_DEBUG_DIR, id, id + 2);
	snprintf(where, sizeof(where), "no debug file %s (%s)", path,
		 "on Debian, from the package's -dbg or -dbgsym");
	if (access(path, F_OK))
		return lbt_elf_no_symbol(e, want, other, where);
	err = lbt_elf_open(&d, path);
	if (err) {
		snprintf(where, sizeof(where), "%s", e->hit->why);
		err = lbt_elf_why(e, err, "debug file %s: %s", path, where);
	} else if (!lbt_elf_build_id(&d, did, sizeof(did)) || strcmp(id, did)) {
		snprintf(where, sizeof(where), "the debug file %s has another build ID", path);
		err = lbt_elf_no_symbol(e, want, other, where);
	} else {
		p = lbt_elf_find_in(&d, SHT_SYMTAB, want);
		snprintf(where, sizeof(where), "nor in its debug file %s", path);
		err = p.best ? lbt_elf_pick(e, &p, want) :
			lbt_elf_no_symbol(e, want, other || p.other, where);
	}
	if (d.map)
		munmap((void *)d.map, d.size);
	return err;
}

static int lbt_elf_function(struct lbt_elf *e, const char *want)
{
	struct lbt_sym_pick p = lbt_elf_find_in(e, SHT_SYMTAB, want);
	bool other = p.other;

	if (!p.best) {
		p = lbt_elf_find_in(e, SHT_DYNSYM, want);
		other |= p.other;
	}
	if (!p.best)
		return lbt_elf_debug_function(e, want, other);
	return lbt_elf_pick(e, &p, want);
}

/* A probe's descriptor: pc, .stapsdt.base, semaphore, then provider\0 name\0 args\0. */
struct lbt_stapsdt {
	uint64_t pc, base, sema;
	const char *provider, *name, *args;
};

static bool lbt_stapsdt_parse(const unsigned char *desc, uint32_t len, struct lbt_stapsdt *p)
{
	const char *s, *end = (const char *)desc + len, *nul;

	if (len < 24)
		return false;
	s = (const char *)desc + 24;
	memcpy(&p->pc, desc, 8);
	memcpy(&p->base, desc + 8, 8);
	memcpy(&p->sema, desc + 16, 8);
	nul = memchr(s, '\0', end - s);
	if (!nul)
		return false;
	p->provider = s;
	s = nul + 1;
	if (s >= end || !memchr(s, '\0', end - s))
		return false;
	p->name = s;
	s += strlen(s) + 1;
	p->args = s < end && memchr(s, '\0', end - s) ? s : "";
	return true;
}

/* One probe site, its pc moved as SystemTap says (a prelinked .stapsdt.base). */
static int lbt_usdt_site(struct lbt_elf *e, const struct lbt_stapsdt *p, const char *want)
{
	const Elf64_Shdr *base = lbt_elf_section(e, ".stapsdt.base");
	uint64_t pc = p->pc, off, sema = 0;

	if (base && p->base)
		pc += base->sh_addr - p->base;
	if (!lbt_elf_offset(e, pc, &off))
		return lbt_elf_why(e, LBT_ELF_BAD,
				   "USDT probe %s at 0x%llx is in no PT_LOAD segment", want,
				   (unsigned long long)pc);
	if (p->sema && !lbt_elf_offset(e, p->sema, &sema))
		return lbt_elf_why(e, LBT_ELF_BAD,
				   "USDT probe %s: semaphore 0x%llx is in no PT_LOAD segment", want,
				   (unsigned long long)p->sema);
	return lbt_elf_add_site(e, off, sema, p->args);
}

/* The stapsdt notes of section @sec that are PROVIDER:NAME, added as sites. */
static int lbt_usdt_notes(struct lbt_elf *e, const Elf64_Shdr *sec, const char *provider,
			  const char *name, const char *want)
{
	uint64_t pos = sec->sh_offset;
	struct lbt_stapsdt p;
	struct lbt_note n;
	int err;

	while (lbt_elf_note(e, sec, &pos, &n)) {
		if (lbt_note_is(&n, LBT_NT_STAPSDT, "stapsdt") &&
		    lbt_stapsdt_parse(n.desc, n.nh.n_descsz, &p) &&
		    !strcmp(p.provider, provider) && !strcmp(p.name, name)) {
			err = lbt_usdt_site(e, &p, want);
			if (err)
				return err;
		}
	}
	return pos == LBT_NOTE_BAD ?
		lbt_elf_why(e, LBT_ELF_BAD, "corrupt ELF file (a note)") : LBT_ELF_OK;
}

/* "usdt:PROVIDER:NAME": every site of that probe. */
static int lbt_elf_usdt(struct lbt_elf *e, const char *want)
{
	const char *spec = want + 5, *colon = strchr(spec, ':'), *name;
	char provider[128];
	unsigned int i;
	int err;

	if (!colon || colon == spec || !colon[1] || (size_t)(colon - spec) >= sizeof(provider))
		return lbt_elf_why(e, LBT_ELF_BAD, "%s: a USDT probe is usdt:PROVIDER:NAME", want);
	snprintf(provider, sizeof(provider), "%.*s", (int)(colon - spec), spec);
	e->hit->usdt = true;
	for (i = 1; i < e->shnum; i++) {
		name = lbt_elf_str(e, e->shstr, e->sh[i].sh_name);
		if (e->sh[i].sh_type != SHT_NOTE || !name || strcmp(name, ".note.stapsdt"))
			continue;
		err = lbt_usdt_notes(e, &e->sh[i], provider, colon + 1, want);
		if (err)
			return err;
	}
	if (!e->hit->n)
		return lbt_elf_why(e, LBT_ELF_NO_SYMBOL, "no USDT probe %s:%s in .note.stapsdt",
				   provider, colon + 1);
	return LBT_ELF_OK;
}

int lbt_elf_resolve(const char *path, const char *symbol, struct lbt_elf_hit *hit)
{
	struct lbt_elf e = { .hit = hit };
	int err;

	memset(hit, 0, sizeof(*hit));
	err = lbt_elf_open(&e, path);
	if (!err && !strncmp(symbol, "usdt:", 5))
		err = lbt_elf_usdt(&e, symbol);
	else if (!err)
		err = lbt_elf_function(&e, symbol);
	if (e.map)
		munmap((void *)e.map, e.size);
	return err;
}

void lbt_elf_hit_free(struct lbt_elf_hit *hit)
{
	free(hit->site);
	hit->site = NULL;
	hit->n = 0;
	hit->cap = 0;
}
