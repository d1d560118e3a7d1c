// SPDX-License-Identifier: GPL-2.0
/*
 * lb-kinds (glibc) and lb-kinds-musl: run one C library primitive with real
 * blocking and print what its waits truly are (see kinds.h).
 *
 *   lb-kinds -l            list the cases
 *   lb-kinds -c CASE [-r ROUNDS]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kinds.h"
#include "kinds-cases.h"

#ifdef __GLIBC__
#define KIND_RUNTIME	"glibc"
#else
#define KIND_RUNTIME	"musl"
#endif
static const struct kind_case_def *lookup(const char *prim, bool list)
{
	const struct kind_case_def *sets[] = { kind_lock_cases,
					       kind_event_cases };
	const struct kind_case_def *c;
	unsigned int i;

	for (i = 0; i < 2; i++)
		for (c = sets[i]; c->prim; c++) {
			if (list)
				printf("%s %s\n", c->prim, c->truth);
			else if (!strcmp(c->prim, prim))
				return c;
		}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: lb-kinds -l | -c CASE [-r ROUNDS]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const struct kind_case_def *c;
	const char *prim = NULL;
	unsigned int rounds = 10;
	int opt;

	while ((opt = getopt(argc, argv, "lc:r:")) != -1) {
		switch (opt) {
		case 'l':
			lookup(NULL, true);
			return 0;
		case 'c':
			prim = optarg;
			break;
		case 'r':
			rounds = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		default:
			usage();
		}
	}
	if (!prim || optind != argc || !rounds)
		usage();
	c = lookup(prim, false);
	if (!c) {
		fprintf(stderr, "lb-kinds: no case '%s' (-l lists them)\n", prim);
		return 2;
	}
	kind_case(KIND_RUNTIME, c->prim, c->truth);
	c->run(rounds);
	kind_report();
	return 0;
}
