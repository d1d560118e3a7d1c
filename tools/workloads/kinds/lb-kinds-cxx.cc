// SPDX-License-Identifier: GPL-2.0
/*
 * lb-kinds-cxx: the C++20 standard library's blocking primitives (libstdc++),
 * one per run, printing what their waits truly are (see kinds.h).
 *
 *   lb-kinds-cxx -l | -c CASE [-r ROUNDS]
 */
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <semaphore>
#include <shared_mutex>
#include <unistd.h>

#include "kinds.h"

namespace {

constexpr unsigned int waiters = 3;
constexpr unsigned int hold_ms = 10, pause_ms = 3, tick_ms = 8;

unsigned int rounds = 10;
std::atomic<bool> done;

template <typename F> void *trampoline(void *arg)
{
	(*static_cast<F *>(arg))();
	return nullptr;
}

/* Runs @holder once and @waiter in each of the waiter threads. */
template <typename H, typename W> void run(H holder, W waiter)
{
	kind_threads(1, trampoline<H>, &holder);
	kind_threads(waiters, trampoline<W>, &waiter);
	kind_threads(0, nullptr, nullptr);
}

/* A lock taken after a failed try: the time in lock() is contended. */
template <typename L> void take(L &l, int slot, bool shared)
{
	if (shared ? l.try_lock_shared() : l.try_lock())
		return;
	uint64_t start = kind_now();
	if (shared)
		l.lock_shared();
	else
		l.lock();
	kind_waited(slot, start);
}

template <typename L> void lock_case(bool holder_shared, bool waiters_shared)
{
	L l;

	run([&] {
		int slot = kind_waiter();
		for (unsigned int r = 0; r < rounds; r++) {
			take(l, slot, holder_shared);
			kind_sleep_ms(hold_ms);
			if (holder_shared)
				l.unlock_shared();
			else
				l.unlock();
			kind_sleep_ms(pause_ms);
		}
		done = true;
	}, [&] {
		int slot = kind_waiter();
		kind_sleep_ms(1);
		while (!done) {
			take(l, slot, waiters_shared);
			if (waiters_shared)
				l.unlock_shared();
			else
				l.unlock();
			kind_sleep_ms(1);
		}
	});
}

/* Every lock type has try_lock_shared here, so std::mutex gets a shim. */
struct plain_mutex : std::mutex {
	bool try_lock_shared() { return try_lock(); }
	void lock_shared() { lock(); }
	void unlock_shared() { unlock(); }
};

void run_mutex() { lock_case<plain_mutex>(false, false); }
void run_shared_rd() { lock_case<std::shared_mutex>(false, true); }
void run_shared_wr() { lock_case<std::shared_mutex>(true, false); }

/* condition_variable: one token per tick, by notify_one. */
void run_condvar()
{
	std::mutex m;
	std::condition_variable cv;
	unsigned int tokens = 0;
	bool stop = false;

	run([&] {
		for (unsigned int i = 0; i < rounds * waiters; i++) {
			kind_sleep_ms(tick_ms);
			std::lock_guard<std::mutex> g(m);
			tokens++;
			cv.notify_one();
		}
		kind_sleep_ms(tick_ms);
		std::lock_guard<std::mutex> g(m);
		stop = true;
		cv.notify_all();
	}, [&] {
		int slot = kind_waiter();
		std::unique_lock<std::mutex> u(m);
		for (;;) {
			while (!tokens && !stop) {
				uint64_t start = kind_now();
				cv.wait(u);
				kind_waited(slot, start);
			}
			if (!tokens)
				break;
			tokens--;
		}
	});
}

/* counting_semaphore: one release per tick. */
void run_semaphore()
{
	std::counting_semaphore<64> sem(0);

	run([&] {
		for (unsigned int i = 0; i < rounds * waiters; i++) {
			kind_sleep_ms(tick_ms);
			sem.release();
		}
	}, [&] {
		int slot = kind_waiter();
		for (unsigned int r = 0; r < rounds; r++) {
			if (sem.try_acquire())
				continue;
			uint64_t start = kind_now();
			sem.acquire();
			kind_waited(slot, start);
		}
	});
}

/*
 * atomic<int>::wait: a counter bumped each tick, then notify_all, or with
 * @one notify_one once per waiter (the kernel then never sees a broadcast).
 */
void atomic_wait_case(bool one)
{
	std::atomic<int> gen(0);

	run([&] {
		for (unsigned int i = 0; i < rounds; i++) {
			kind_sleep_ms(tick_ms);
			gen.fetch_add(1);
			if (!one)
				gen.notify_all();
			for (unsigned int w = 0; one && w < waiters; w++)
				gen.notify_one();
		}
	}, [&] {
		int slot = kind_waiter();
		for (int seen = 0; seen < (int)rounds;) {
			uint64_t start = kind_now();
			gen.wait(seen);
			kind_waited(slot, start);
			seen = gen.load();
		}
	});
}

void run_atomic_wait() { atomic_wait_case(false); }
void run_atomic_wait_one() { atomic_wait_case(true); }

struct kind_cxx_case {
	const char *prim;
	const char *truth;
	void (*run)();
};

const kind_cxx_case cases[] = {
	{ "mutex", "lock", run_mutex },
	{ "shared_mutex-rd", "lock", run_shared_rd },
	{ "shared_mutex-wr", "lock", run_shared_wr },
	{ "condition_variable", "event", run_condvar },
	{ "counting_semaphore", "event", run_semaphore },
	{ "atomic-wait", "event", run_atomic_wait },
	{ "atomic-wait-one", "event", run_atomic_wait_one },
};

void usage()
{
	std::fprintf(stderr, "usage: lb-kinds-cxx -l | -c CASE [-r ROUNDS]\n");
	std::exit(2);
}

} /* namespace */

int main(int argc, char **argv)
{
	const char *prim = nullptr;
	int opt;

	while ((opt = getopt(argc, argv, "lc:r:")) != -1) {
		switch (opt) {
		case 'l':
			for (const auto &c : cases)
				std::printf("%s %s\n", c.prim, c.truth);
			return 0;
		case 'c':
			prim = optarg;
			break;
		case 'r':
			rounds = (unsigned int)std::strtoul(optarg, nullptr, 10);
			break;
		default:
			usage();
		}
	}
	if (!prim || optind != argc || !rounds)
		usage();
	for (const auto &c : cases) {
		if (std::strcmp(c.prim, prim))
			continue;
		kind_case("libstdc++", c.prim, c.truth);
		c.run();
		kind_report();
		return 0;
	}
	std::fprintf(stderr, "lb-kinds-cxx: no case '%s' (-l lists them)\n", prim);
	return 2;
}
