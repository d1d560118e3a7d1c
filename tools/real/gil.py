#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""CPython's GIL under contention, with its own truth (tools/real/README.md).

One sorter thread sorts a fresh copy of a list of N ints over and over for
SECS seconds: list.sort on ints is C code that holds the GIL for the whole
sort. Three tickers loop time.sleep(0.001): coming back from each sleep they
must take the GIL again (PyEval_RestoreThread -> take_gil), and each measures,
by its own clock (time.perf_counter), how long that took: the time around
time.sleep, minus the requested sleep, minus the sleep's overshoot without
contention (the median over CALIB seconds of the tickers alone: the kernel's
timer slack and wake-up, and the GIL's uncontended round trip).

  gil.py [--secs S] [--n N] [--tickers T] [--calib S] [--reset CONTROL] [--trace]
  gil.py --spin K [--switch-ms MS] [--secs S] [--reset CONTROL]

--spin: instead, K threads run Python bytecode (a loop) for SECS seconds, so
the eval loop switches the GIL between them every SWITCH ms (its drop
request; sys.setswitchinterval, default 5 ms, here 50 unless --switch-ms):
the waits pass through take_gil, never through PyEval_RestoreThread. Each
measures its time off the CPU: its wall time from the start minus its own
CPU time (time.thread_time_ns): the GIL waiting the others caused, and the
hand-over of each switch (drop_gil waits until the other has taken the
GIL: no GIL waiting). On a loaded host a hand-over took 2.1 to 2.5 ms (a
vCPU to wake), a quarter of the time off the CPU at 5 ms switches; at 50
ms, a tenth of that.

--reset: write "reset" to CONTROL (lockblame's debugfs control) after the
calibration, right before the measured run starts.

Output, one record a line, key=value (all times in ns):
  gil calib tickers=T iters=N overshoot_ns=MEDIAN p10_ns=.. p90_ns=..
  gil sorter tid=TID tgid=TGID sorts=N sort_ns_median=.. sort_ns_max=..
  gil ticker tid=TID wait_ns=SUM iters=N waited=N max_ns=.. raw_ns=..
  gil main tid=TID
  gil run tgid=TGID secs=S duration_ns=D wait_ns=SUM(tickers) n=N
--spin's, instead of sorter, ticker and calib lines:
  gil spinner tid=TID wall_ns=W cpu_ns=C off_ns=W-C loops=N
--trace adds, for each sleep of a ticker and each sort, its CLOCK_MONOTONIC
begin and end (the clock of lockblame's events):
  gil iter tid=TID kind=sleep|sort t0_ns=.. t1_ns=..
"""
import array
import os
import sys
import threading
import time

clock = time.perf_counter


def arg(name, default, conv):
    if name in sys.argv:
        return conv(sys.argv[sys.argv.index(name) + 1])
    return default


SECS = arg("--secs", 8.0, float)
N = arg("--n", 400000, int)
TICKERS = arg("--tickers", 3, int)
CALIB = arg("--calib", 1.0, float)
RESET = arg("--reset", None, str)
TRACE = "--trace" in sys.argv
SPIN = arg("--spin", 0, int)
SWITCH_MS = arg("--switch-ms", 50.0, float)
SLEEP = 0.001


def median(v):
    s = sorted(v)
    return s[len(s) // 2] if s else 0.0


def pct(v, p):
    s = sorted(v)
    return s[min(len(s) - 1, int(len(s) * p))] if s else 0.0


def ns(x):
    return int(round(x * 1e9))


def begin(threads, start, go):
    """Starts @threads, then the run: its start time, the ledger's reset
    (--reset), and @go, which the threads that wait for it wait on."""
    for t in threads:
        t.start()
    start[0] = clock()
    if RESET:
        with open(RESET, "w") as f:
            f.write("reset\n")
    go.set()


def spin_run():
    sys.setswitchinterval(SWITCH_MS / 1000)
    go = threading.Event()
    start = [0.0]
    out = {}

    def spinner(i):
        tid = threading.get_native_id()
        go.wait()
        cpu0 = time.thread_time_ns()
        until = start[0] + SECS
        loops = 0
        while clock() < until:
            for _ in range(1000):
                loops += 1
        wall = clock() - start[0]
        out[i] = (tid, ns(wall), time.thread_time_ns() - cpu0, loops)

    threads = [threading.Thread(target=spinner, args=(i,)) for i in range(SPIN)]
    begin(threads, start, go)
    for t in threads:
        t.join()
    duration = clock() - start[0]
    summed = 0
    for i in range(SPIN):
        tid, wall, cpu, loops = out[i]
        summed += wall - cpu
        print("gil spinner tid=%d wall_ns=%d cpu_ns=%d off_ns=%d loops=%d"
              % (tid, wall, cpu, wall - cpu, loops))
    print("gil main tid=%d" % threading.get_native_id())
    print("gil run tgid=%d secs=%g duration_ns=%d wait_ns=%d n=0"
          % (os.getpid(), SECS, ns(duration), summed), flush=True)


if SPIN:
    spin_run()
    sys.exit(0)

# --- calibration: the tickers alone ----------------------------------------
calib = []
calib_lock = threading.Lock()


def calib_ticker(until):
    mine = []
    while clock() < until:
        t0 = clock()
        time.sleep(SLEEP)
        mine.append(clock() - t0 - SLEEP)
    with calib_lock:
        calib.extend(mine)


until = clock() + CALIB
threads = [threading.Thread(target=calib_ticker, args=(until,)) for _ in range(TICKERS)]
for t in threads:
    t.start()
for t in threads:
    t.join()
overshoot = median(calib)
print("gil calib tickers=%d iters=%d overshoot_ns=%d p10_ns=%d p90_ns=%d"
      % (TICKERS, len(calib), ns(overshoot), ns(pct(calib, 0.1)), ns(pct(calib, 0.9))),
      flush=True)

# --- the measured run ------------------------------------------------------
# An int list of N values, made in C (no Python loop): 16-bit values, each
# int one digit, so the sort compares them in C without calling back.
base = array.array("H", os.urandom(2 * N)).tolist()
go = threading.Event()
start = [0.0]
out = {}


def sorter():
    tid = threading.get_native_id()
    go.wait()
    until = start[0] + SECS
    times = []
    trace = []
    while clock() < until:
        t0 = clock()
        m0 = time.monotonic_ns()
        work = base[:]
        work.sort()
        times.append(clock() - t0)
        if TRACE:
            trace.append((m0, time.monotonic_ns()))
    out["sorter"] = (tid, times)
    out["sorter-trace"] = trace


def ticker(i):
    # The tickers tick from the start, not from "go": a thread coming back
    # from go.wait() would wait for the GIL there, unmeasured. A sleep that
    # ended before the run's start (just before the ledger's reset) is not
    # counted: no sorter ran then. Every sleep begun before the end is: its
    # GIL wait may last until the sorter's last sort ends.
    tid = threading.get_native_id()
    total = raw = longest = 0.0
    iters = waited = 0
    trace = []
    while not start[0] or clock() < start[0] + SECS:
        m0 = time.monotonic_ns()
        t0 = clock()
        time.sleep(SLEEP)
        late = clock() - t0 - SLEEP
        if not start[0] or t0 + SLEEP < start[0]:
            continue
        if TRACE:
            trace.append((m0, time.monotonic_ns()))
        raw += late
        w = late - overshoot
        iters += 1
        if w > 0:
            total += w
            longest = max(longest, w)
            waited += w > 0.0005
    out[i] = (tid, total, iters, waited, longest, raw)
    out["trace", i] = trace


tickers = [threading.Thread(target=ticker, args=(i,)) for i in range(TICKERS)]
sort_thread = threading.Thread(target=sorter)
# The sorter waits for "go"; the main thread then only joins.
begin(tickers + [sort_thread], start, go)
sort_thread.join()
for t in tickers:
    t.join()
duration = clock() - start[0]

tgid = os.getpid()
tid, times = out["sorter"]
print("gil sorter tid=%d tgid=%d sorts=%d sort_ns_median=%d sort_ns_max=%d"
      % (tid, tgid, len(times), ns(median(times)), ns(max(times, default=0.0))))
summed = 0.0
for i in range(TICKERS):
    tid, total, iters, waited, longest, raw = out[i]
    summed += total
    print("gil ticker tid=%d wait_ns=%d iters=%d waited=%d max_ns=%d raw_ns=%d"
          % (tid, ns(total), iters, waited, ns(longest), ns(raw)))
print("gil main tid=%d" % threading.get_native_id())
if TRACE:
    for m0, m1 in out["sorter-trace"]:
        print("gil iter tid=%d kind=sort t0_ns=%d t1_ns=%d" % (out["sorter"][0], m0, m1))
    for i in range(TICKERS):
        for m0, m1 in out["trace", i]:
            print("gil iter tid=%d kind=sleep t0_ns=%d t1_ns=%d" % (out[i][0], m0, m1))
print("gil run tgid=%d secs=%g duration_ns=%d wait_ns=%d n=%d"
      % (tgid, SECS, ns(duration), ns(summed), N), flush=True)
