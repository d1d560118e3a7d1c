/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The truth of a futex-kinds case: which primitive a program blocks in, and
 * whether that wait is waiting for a lock (someone holds what I need) or for
 * an event (someone has yet to do something), with each blocked thread's own
 * measured blocking time. Printed as:
 *
 *   kind-case runtime=<glibc|musl|libstdc++> prim=<name> truth=<lock|event>
 *   kind-waiter pid=<tid> truth=<lock|event> wait_ns=<ns>
 */
#ifndef LB_KINDS_H
#define LB_KINDS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KIND_MAX_WAITERS	16

uint64_t kind_now(void);
void kind_sleep_ms(unsigned int ms);
int kind_tid(void);
void kind_die(const char *what, int err) __attribute__((noreturn));

/*
 * The case's threads: start @n running @fn(@arg); with @n == 0, wait for
 * all started so far (polling, so the caller never futex-waits).
 */
void kind_threads(unsigned int n, void *(*fn)(void *), void *arg);

/* The case's line; the waiter lines follow from kind_report(). */
void kind_case(const char *runtime, const char *prim, const char *truth);

/*
 * A thread that blocks claims a slot once and adds each blocking interval
 * (start from kind_now() before the blocking call) to it.
 */
int kind_waiter(void);
void kind_waited(int slot, uint64_t start_ns);
void kind_report(void);

#ifdef __cplusplus
}
#endif

#endif /* LB_KINDS_H */
