// SPDX-License-Identifier: GPL-2.0
//! lb-kinds-rs: Rust std's blocking primitives, one per run, printing what
//! their waits truly are (the lines of kinds.h).
//!
//!   lb-kinds-rs -l | -c CASE [-r ROUNDS]

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::thread;
use std::time::{Duration, Instant};

const WAITERS: usize = 3;
const HOLD: Duration = Duration::from_millis(10);
const PAUSE: Duration = Duration::from_millis(3);
const TICK: Duration = Duration::from_millis(8);

fn gettid() -> i32 {
    let tid: i64;
    // SAFETY: gettid (186 on x86-64) takes no arguments and cannot fail.
    unsafe {
        std::arch::asm!("syscall", inlateout("rax") 186i64 => tid,
                        out("rcx") _, out("r11") _, options(nostack));
    }
    tid as i32
}

/// One blocked thread's truth: its tid and its time inside the primitive.
struct Waiter {
    pid: i32,
    wait: Duration,
}

impl Waiter {
    fn new() -> Self {
        Waiter { pid: gettid(), wait: Duration::ZERO }
    }

    fn timed<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let v = f();
        self.wait += start.elapsed();
        v
    }
}

/// Runs `holder` on one thread and `waiter` on WAITERS threads; returns
/// the truth of every thread that blocked. The main thread polls, so it
/// never futex-waits itself.
fn run<H, W>(holder: H, waiter: W) -> Vec<Waiter>
where
    H: FnOnce() -> Option<Waiter> + Send + 'static,
    W: Fn() -> Option<Waiter> + Send + Sync + 'static,
{
    let waiter = Arc::new(waiter);
    let mut handles = vec![thread::spawn(holder)];
    for _ in 0..WAITERS {
        let w = Arc::clone(&waiter);
        handles.push(thread::spawn(move || w()));
    }
    while !handles.iter().all(|h| h.is_finished()) {
        thread::sleep(Duration::from_millis(1));
    }
    handles
        .into_iter()
        .filter_map(|h| h.join().expect("a case thread panicked"))
        .filter(|w| !w.wait.is_zero())
        .collect()
}

fn mutex_case(rounds: u32) -> Vec<Waiter> {
    let m = Arc::new(Mutex::new(0u64));
    let done = Arc::new(AtomicBool::new(false));
    let (m2, d2) = (Arc::clone(&m), Arc::clone(&done));
    run(
        move || {
            let mut me = Waiter::new();
            for _ in 0..rounds {
                let mut g = match m2.try_lock() {
                    Ok(g) => g,
                    Err(_) => me.timed(|| m2.lock().unwrap()),
                };
                thread::sleep(HOLD);
                *g += 1;
                drop(g);
                thread::sleep(PAUSE);
            }
            d2.store(true, Ordering::SeqCst);
            Some(me)
        },
        move || {
            let mut me = Waiter::new();
            thread::sleep(Duration::from_millis(1));
            while !done.load(Ordering::SeqCst) {
                let mut g = match m.try_lock() {
                    Ok(g) => g,
                    Err(_) => me.timed(|| m.lock().unwrap()),
                };
                *g += 1;
                drop(g);
                thread::sleep(Duration::from_millis(1));
            }
            Some(me)
        },
    )
}

/// RwLock: the holder takes it for write (`holder_writes`) or read, the
/// waiters in the other mode.
fn rwlock_case(rounds: u32, holder_writes: bool) -> Vec<Waiter> {
    let l = Arc::new(RwLock::new(0u64));
    let done = Arc::new(AtomicBool::new(false));
    let (l2, d2) = (Arc::clone(&l), Arc::clone(&done));
    let take = |l: &RwLock<u64>, me: &mut Waiter, write: bool| {
        if write {
            let mut g = match l.try_write() {
                Ok(g) => g,
                Err(_) => me.timed(|| l.write().unwrap()),
            };
            *g += 1;
        } else if l.try_read().is_err() {
            drop(me.timed(|| l.read().unwrap()));
        }
    };
    run(
        move || {
            let mut me = Waiter::new();
            for _ in 0..rounds {
                if holder_writes {
                    let g = match l2.try_write() {
                        Ok(g) => g,
                        Err(_) => me.timed(|| l2.write().unwrap()),
                    };
                    thread::sleep(HOLD);
                    drop(g);
                } else {
                    let g = match l2.try_read() {
                        Ok(g) => g,
                        Err(_) => me.timed(|| l2.read().unwrap()),
                    };
                    thread::sleep(HOLD);
                    drop(g);
                }
                thread::sleep(PAUSE);
            }
            d2.store(true, Ordering::SeqCst);
            Some(me)
        },
        move || {
            let mut me = Waiter::new();
            thread::sleep(Duration::from_millis(1));
            while !done.load(Ordering::SeqCst) {
                take(&l, &mut me, !holder_writes);
                thread::sleep(Duration::from_millis(1));
            }
            Some(me)
        },
    )
}

/// Condvar: one token per tick by notify_one, notify_all at the end.
fn condvar_case(rounds: u32) -> Vec<Waiter> {
    let pair = Arc::new((Mutex::new((0u32, false)), Condvar::new()));
    let p2 = Arc::clone(&pair);
    run(
        move || {
            let (m, cv) = &*p2;
            for _ in 0..rounds as usize * WAITERS {
                thread::sleep(TICK);
                m.lock().unwrap().0 += 1;
                cv.notify_one();
            }
            thread::sleep(TICK);
            m.lock().unwrap().1 = true;
            cv.notify_all();
            None
        },
        move || {
            let (m, cv) = &*pair;
            let mut me = Waiter::new();
            let mut g = m.lock().unwrap();
            loop {
                while g.0 == 0 && !g.1 {
                    g = me.timed(|| cv.wait(g).unwrap());
                }
                if g.0 == 0 {
                    return Some(me);
                }
                g.0 -= 1;
            }
        },
    )
}

/// thread::park: each waiter parks until the ticker unparks it.
fn park_case(rounds: u32) -> Vec<Waiter> {
    let handles: Arc<Mutex<Vec<thread::Thread>>> = Arc::new(Mutex::new(Vec::new()));
    let tokens = Arc::new([AtomicU32::new(0), AtomicU32::new(0), AtomicU32::new(0)]);
    let (h2, t2) = (Arc::clone(&handles), Arc::clone(&tokens));
    run(
        move || {
            while h2.lock().unwrap().len() < WAITERS {
                thread::sleep(Duration::from_millis(1));
            }
            let hs = h2.lock().unwrap().clone();
            for i in 0..rounds as usize * WAITERS {
                thread::sleep(TICK);
                t2[i % WAITERS].fetch_add(1, Ordering::SeqCst);
                hs[i % WAITERS].unpark();
            }
            None
        },
        move || {
            let mut me = Waiter::new();
            let slot = {
                let mut hs = handles.lock().unwrap();
                hs.push(thread::current());
                hs.len() - 1
            };
            let mut taken = 0;
            while taken < rounds {
                while tokens[slot].load(Ordering::SeqCst) == taken {
                    me.timed(thread::park);
                }
                taken += 1;
            }
            Some(me)
        },
    )
}

struct Case {
    prim: &'static str,
    truth: &'static str,
    run: fn(u32) -> Vec<Waiter>,
}

const CASES: &[Case] = &[
    Case { prim: "mutex", truth: "lock", run: mutex_case },
    Case { prim: "rwlock-rd", truth: "lock", run: |r| rwlock_case(r, true) },
    Case { prim: "rwlock-wr", truth: "lock", run: |r| rwlock_case(r, false) },
    Case { prim: "condvar", truth: "event", run: condvar_case },
    Case { prim: "park", truth: "event", run: park_case },
];

fn usage() -> ! {
    eprintln!("usage: lb-kinds-rs -l | -c CASE [-r ROUNDS]");
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut prim, mut rounds) = (None, 10u32);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-l" => {
                for c in CASES {
                    println!("{} {}", c.prim, c.truth);
                }
                return;
            }
            "-c" => prim = Some(it.next().unwrap_or_else(|| usage()).clone()),
            "-r" => {
                rounds = it.next().and_then(|s| s.parse().ok()).unwrap_or_else(|| usage())
            }
            _ => usage(),
        }
    }
    let prim = prim.unwrap_or_else(|| usage());
    let c = match CASES.iter().find(|c| c.prim == prim) {
        Some(c) => c,
        None => {
            eprintln!("lb-kinds-rs: no case '{}' (-l lists them)", prim);
            std::process::exit(2);
        }
    };
    println!("kind-case runtime=rust prim={} truth={}", c.prim, c.truth);
    for w in (c.run)(rounds.max(1)) {
        println!("kind-waiter pid={} truth={} wait_ns={}", w.pid, c.truth, w.wait.as_nanos());
    }
}
