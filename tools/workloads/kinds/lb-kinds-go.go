// SPDX-License-Identifier: GPL-2.0

// lb-kinds-go: Go's sync.Mutex and a channel receive, one per run, printing
// what their waits truly are (the lines of kinds.h).
//
//	lb-kinds-go -l | -c CASE [-r ROUNDS]
//
// Go parks goroutines in its own scheduler, not in the kernel. Each actor
// is locked to its OS thread (runtime.LockOSThread), so when it blocks the
// thread itself sleeps, in the runtime's futex on its M, and the tid the
// truth names is the thread that slept.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const (
	waiters = 3
	hold    = 10 * time.Millisecond
	pause   = 3 * time.Millisecond
	tick    = 8 * time.Millisecond
)

type waiter struct {
	pid  int
	wait time.Duration
}

func (w *waiter) timed(f func()) {
	start := time.Now()
	f()
	w.wait += time.Since(start)
}

// run starts holder and waiters goroutines, each on its own locked thread,
// and returns the truth of those that blocked.
func run(holder func(*waiter), waiter1 func(*waiter)) []*waiter {
	var wg sync.WaitGroup
	all := make([]*waiter, waiters+1)
	for i := range all {
		f := waiter1
		if i == 0 {
			f = holder
		}
		wg.Add(1)
		go func(i int, f func(*waiter)) {
			defer wg.Done()
			runtime.LockOSThread()
			all[i] = &waiter{pid: syscall.Gettid()}
			f(all[i])
		}(i, f)
	}
	wg.Wait()
	var blocked []*waiter
	for _, w := range all {
		if w.wait > 0 {
			blocked = append(blocked, w)
		}
	}
	return blocked
}

func mutexCase(rounds int) []*waiter {
	var m sync.Mutex
	var done atomic.Bool
	take := func(w *waiter) {
		if !m.TryLock() {
			w.timed(m.Lock)
		}
	}
	return run(func(w *waiter) {
		for r := 0; r < rounds; r++ {
			take(w)
			time.Sleep(hold)
			m.Unlock()
			time.Sleep(pause)
		}
		done.Store(true)
	}, func(w *waiter) {
		time.Sleep(time.Millisecond)
		for !done.Load() {
			take(w)
			m.Unlock()
			time.Sleep(time.Millisecond)
		}
	})
}

// chan: one value per tick on an unbuffered channel.
func chanCase(rounds int) []*waiter {
	ch := make(chan int)
	return run(func(w *waiter) {
		for i := 0; i < rounds*waiters; i++ {
			time.Sleep(tick)
			ch <- i
		}
		close(ch)
	}, func(w *waiter) {
		for {
			ok := true
			w.timed(func() { _, ok = <-ch })
			if !ok {
				return
			}
		}
	})
}

type kindCase struct {
	prim, truth string
	run         func(int) []*waiter
}

var cases = []kindCase{
	{"mutex", "lock", mutexCase},
	{"chan", "event", chanCase},
}

func main() {
	list := flag.Bool("l", false, "list the cases")
	prim := flag.String("c", "", "the case to run")
	rounds := flag.Int("r", 10, "rounds")
	flag.Parse()
	if *list {
		for _, c := range cases {
			fmt.Println(c.prim, c.truth)
		}
		return
	}
	for _, c := range cases {
		if c.prim != *prim {
			continue
		}
		fmt.Printf("kind-case runtime=go prim=%s truth=%s\n", c.prim, c.truth)
		for _, w := range c.run(*rounds) {
			fmt.Printf("kind-waiter pid=%d truth=%s wait_ns=%d\n", w.pid, c.truth, w.wait.Nanoseconds())
		}
		return
	}
	fmt.Fprintf(os.Stderr, "lb-kinds-go: no case '%s' (-l lists them)\n", *prim)
	os.Exit(2)
}
