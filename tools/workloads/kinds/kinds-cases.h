/* SPDX-License-Identifier: GPL-2.0 */
/* The C cases of lb-kinds and lb-kinds-musl, one primitive each. */
#ifndef LB_KINDS_CASES_H
#define LB_KINDS_CASES_H

#include <pthread.h>

#define KIND_WAITERS	3	/* threads that block in each case */

struct kind_case_def {
	const char *prim;
	const char *truth;	/* lock or event */
	void (*run)(unsigned int rounds);
};

extern const struct kind_case_def kind_lock_cases[];
extern const struct kind_case_def kind_event_cases[];

#endif /* LB_KINDS_CASES_H */
