// SPDX-License-Identifier: GPL-2.0
/*
 * A USDT probe pair as a lock scope: "scope add BINARY usdt:P:START --done
 * usdt:P:DONE [--lock-arg N]". The wait starts at any site of START (for
 * PostgreSQL, lwlock__wait__start) and ends at any site of DONE
 * (lwlock__wait__done); each probe's semaphore, if it has one, is counted
 * up by the module while the probes are planted, or the program would not
 * reach them. The lock's argument is the place the notes give for START's
 * Nth argument ("8@%rax"): a register, the same at every site. A place in
 * memory or a constant is refused: the module reads registers only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lockblame.h"

#define LBT_USDT_SITES	4	/* the module's, of each probe */

/* The 64-bit registers, and the names of their parts, as GNU as writes them. */
static const char *const lbt_usdt_regs[][4] = {
	{ "rax", "eax", "ax", "al" }, { "rbx", "ebx", "bx", "bl" },
	{ "rcx", "ecx", "cx", "cl" }, { "rdx", "edx", "dx", "dl" },
	{ "rsi", "esi", "si", "sil" }, { "rdi", "edi", "di", "dil" },
	{ "rbp", "ebp", "bp", "bpl" }, { "rsp", "esp", "sp", "spl" },
};

/* "%r14d", "%eax": the 64-bit register's name in @reg; false if none. */
static bool lbt_usdt_regname(const char *name, char *reg, size_t size)
{
	unsigned long n;
	size_t i, j;
	char *end;

	for (i = 0; i < sizeof(lbt_usdt_regs) / sizeof(lbt_usdt_regs[0]); i++) {
		for (j = 0; j < 4; j++) {
			if (!strcmp(name, lbt_usdt_regs[i][j])) {
				snprintf(reg, size, "%s", lbt_usdt_regs[i][0]);
				return true;
			}
		}
	}
	if (name[0] != 'r' || name[1] < '0' || name[1] > '9')
		return false;
	n = strtoul(name + 1, &end, 10);
	if (n < 8 || n > 15 || (*end && (!strchr("dwbl", *end) || end[1])))
		return false;
	snprintf(reg, size, "r%lu", n);
	return true;
}

/*
 * Argument @argn of @args ("8@%rax -4@%r14d", sizes optional) as the
 * module's "reg=NAME:SIZE" in @out; false with @why if it is not a register.
 */
static bool lbt_usdt_reg(const char *args, unsigned int argn, char *out, size_t size,
			 char *why, size_t wsize)
{
	char copy[sizeof(((struct lbt_elf_site *)0)->args)], *w, *save, *at, reg[8];
	unsigned int i = 0;
	long bytes = 8;

	snprintf(copy, sizeof(copy), "%s", args);
	for (w = strtok_r(copy, " ", &save); w && ++i < argn; w = strtok_r(NULL, " ", &save))
		;
	if (!w) {
		snprintf(why, wsize, "the probe has %u arguments, not %u ('%s')", i, argn, args);
		return false;
	}
	at = strchr(w, '@');
	if (at) {
		bytes = labs(strtol(w, NULL, 10));
		w = at + 1;
	}
	if (w[0] != '%' || !lbt_usdt_regname(w + 1, reg, sizeof(reg)) ||
	    (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)) {
		snprintf(why, wsize,
			 "argument %u of the probe is '%s', not in a register; the module reads registers only",
			 argn, w);
		return false;
	}
	snprintf(out, size, "%s:%ld", reg, bytes);
	return true;
}

/*
 * @hit's sites (one probe's) as "PREFIX=OFF,OFF" in @out, and their common
 * semaphore in @sema; false with @why if they are too many or disagree.
 */
static bool lbt_usdt_sites(const char *sym, const struct lbt_elf_hit *hit, size_t from,
			   const char *prefix, char *out, size_t size, uint64_t *sema,
			   char *why, size_t wsize)
{
	size_t i, len = 0;

	if (hit->n > LBT_USDT_SITES) {
		snprintf(why, wsize, "%s has %zu sites, the module takes %d", sym, hit->n,
			 LBT_USDT_SITES);
		return false;
	}
	*sema = hit->site[0].sema;
	out[0] = '\0';
	for (i = 0; i < hit->n; i++) {
		if (hit->site[i].sema != *sema) {
			snprintf(why, wsize, "%s's sites have different semaphores", sym);
			return false;
		}
		if (i < from)
			continue;
		len += snprintf(out + len, size - len, "%s0x%llx", i == from ? prefix : ",",
				(unsigned long long)hit->site[i].offset);
		if (len >= size) {
			snprintf(why, wsize, "%s: too long a list of sites", sym);
			return false;
		}
	}
	return true;
}

/* Both probes resolved, with @why on failure; @start's sites to @hs, @done's to @hd. */
static int lbt_usdt_both(const char *path, const char *start, const char *done,
			 struct lbt_elf_hit *hs, struct lbt_elf_hit *hd, char *why, size_t wsize)
{
	int err = lbt_elf_resolve(path, start, hs);

	if (!err)
		err = lbt_elf_resolve(path, done, hd);
	if (err)
		snprintf(why, wsize, "%s", hs->why[0] ? hs->why : hd->why);
	return err;
}

/* The register START's argument @argn is in at every site of @hs, in @reg. */
static bool lbt_usdt_lock_reg(const char *start, const struct lbt_elf_hit *hs,
			      unsigned int argn, char *reg, size_t size, char *why, size_t wsize)
{
	char one[24];
	size_t i;

	for (i = 0; i < hs->n; i++) {
		if (!lbt_usdt_reg(hs->site[i].args, argn, one, sizeof(one), why, wsize))
			return false;
		if (i && strcmp(one, reg)) {
			snprintf(why, wsize,
				 "argument %u of %s is in %s at one site and %s at another; give no --lock-arg",
				 argn, start, reg, one);
			return false;
		}
		snprintf(reg, size, "%s", one);
	}
	return true;
}

/* " NAME=0xOFF" in @out, or nothing for a probe without a semaphore. */
static void lbt_usdt_sema(char *out, size_t size, const char *name, uint64_t sema)
{
	if (sema)
		snprintf(out, size, " %s=0x%llx", name, (unsigned long long)sema);
	else
		out[0] = '\0';
}

int lbt_usdt_pair(const char *path, const char *start, const char *done, unsigned int argn,
		  uint64_t *off, char *words, size_t size, char *why, size_t wsize)
{
	struct lbt_elf_hit hs = {}, hd = {};
	char sites[96], dones[96], reg[24] = "", s1[40], s2[40];
	uint64_t sema, donesema;
	int err;

	err = lbt_usdt_both(path, start, done, &hs, &hd, why, wsize);
	if (!err &&
	    (!lbt_usdt_sites(start, &hs, 1, " site=", sites, sizeof(sites), &sema, why, wsize) ||
	     !lbt_usdt_sites(done, &hd, 0, " done=", dones, sizeof(dones), &donesema, why, wsize) ||
	     (argn && !lbt_usdt_lock_reg(start, &hs, argn, reg, sizeof(reg), why, wsize))))
		err = LBT_ELF_BAD;
	if (!err) {
		*off = hs.site[0].offset;
		lbt_usdt_sema(s1, sizeof(s1), "sema", sema);
		lbt_usdt_sema(s2, sizeof(s2), "donesema", donesema);
		snprintf(words, size, "%s%s%s%s%s%s", sites, dones, s1, s2, *reg ? " reg=" : "", reg);
	}
	lbt_elf_hit_free(&hs);
	lbt_elf_hit_free(&hd);
	return err;
}
