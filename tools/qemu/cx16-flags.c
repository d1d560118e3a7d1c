// SPDX-License-Identifier: GPL-2.0
/*
 * Does this x86-64 CPU (or emulator) compute RFLAGS right after cmpxchg16b?
 *
 * cmpxchg16b changes ZF only. Between a popfq (which leaves the emulator's
 * flags state as plain flags) and cmpxchg16b sits a cmp whose source operand
 * has bits no flags-setting instruction can produce (TF 0x100, DF 0x400,
 * reserved bits 22-31). A CPU, and a correct emulator, then pushes flags
 * with none of those bits. An emulator that computes cmpxchg16b's flags
 * from stale state pushes the operand's bits as flags.
 *
 * Prints one line per operand and exits 1 if any pushed flags carry bits
 * outside the six arithmetic flags, bit 1, IF and ID.
 */
#include <stdio.h>
#include <stdint.h>

#define ARITH	0x8d5UL		/* CF PF AF ZF SF OF */
#define FIXED	0x200202UL	/* bit 1, IF, ID */

static unsigned long probe(unsigned long operand)
{
	static unsigned __int128 word __attribute__((aligned(16)));
	unsigned long lo = 0, hi = 0, flags;

	word = 0;
	asm volatile("pushq $0x202\n\t"
		     "popfq\n\t"
		     "cmpq %[op], %[lo]\n\t"
		     "cmpxchg16b %[w]\n\t"
		     "pushfq\n\t"
		     "popq %[f]\n\t"
		     "cmpq %[f], %[f]"
		     : [f] "=&r" (flags), [w] "+m" (word), "+a" (lo), "+d" (hi)
		     : [op] "r" (operand), [lo] "r" (0UL), "b" (1UL), "c" (0UL)
		     : "cc", "memory");
	return flags;
}

int main(void)
{
	static const unsigned long ops[] = {
		0x500, 0x3fd47466, 0xffff8c8e3d10c300, 0x1,
	};
	int bad = 0;
	unsigned int i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		unsigned long f = probe(ops[i]);
		unsigned long stray = f & ~(ARITH | FIXED);

		printf("cmp operand 0x%016lx: flags after cmpxchg16b 0x%08lx%s\n",
		       ops[i], f, stray ? " <- bits no instruction sets" : "");
		bad |= !!stray;
	}
	printf("%s\n", bad ? "cmpxchg16b flags: WRONG (stale flags state)" :
	       "cmpxchg16b flags: right");
	return bad;
}
