//! A ring of reusable slots through which items are produced in order, worked on in
//! parallel, and consumed in order.
//!
//! * **produce** fills a free slot with item `i` (reads input); items are produced one at a
//!   time, in index order, by the calling thread or, for [`Produce::Anywhere`], by whichever
//!   thread is free (which then works on the item itself, while it is in its cache);
//! * **work** transforms a produced item (seals or opens its chunks) on any thread;
//! * **consume** hands the worked items, in index order, to the calling thread (which writes
//!   them to a writer that need not be `Send`) and frees their slots.
//!
//! Every thread takes whichever job is available (consuming first, then producing, then
//! working), so there is no barrier between groups of items and no hand-over per item; a
//! thread that finds nothing to do spins briefly, then sleeps until the state changes. At
//! most `slots.len()` items are in flight.
//!
//! The helpers are scoped threads, one fewer than rayon's current pool has (so a pool built
//! with a thread count sets the parallelism). Without the `parallel` feature (or on a
//! one-thread pool) the calling thread does every job in turn.

use std::collections::VecDeque;
#[cfg(feature = "parallel")]
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Fills a slot with item `i`; returns whether more items follow.
pub type ProduceFn<'a, S, E> = dyn FnMut(usize, &mut S) -> Result<bool, E> + 'a;
/// How a helper thread produces.
#[cfg(feature = "parallel")]
type HelperProduceFn<'a, S, E> = dyn Fn(usize, &mut S) -> Result<bool, E> + Sync + 'a;
/// [`ProduceFn`] that any thread may call.
pub type SharedProduceFn<'a, S, E> = Mutex<dyn FnMut(usize, &mut S) -> Result<bool, E> + Send + 'a>;

/// Who may produce items.
pub enum Produce<'a, 'f, S, E> {
    /// Items `0..n` with nothing to read: the slots only receive what `work` makes. Any
    /// thread takes the next index.
    Count(usize),
    /// Only the calling thread (the input need not be `Send`).
    Here(&'a mut ProduceFn<'f, S, E>),
    /// Any thread, one at a time, in order.
    Anywhere(&'a SharedProduceFn<'f, S, E>),
}

/// Runs the ring over `slots` until an item produced says that no more follow, or until the
/// first error. Errors come in item order: an error of `work` or `consume` on item `i`, or
/// of `produce` for item `i`, is returned after items `0..i` were consumed, and nothing
/// after it is consumed. Every slot is back in `slots` on return.
///
/// # Panics
/// If `slots` is empty; a panic of `produce` or `work` on a helper thread is re-raised here.
pub fn run<S: Send, E: Send>(
    slots: &mut Vec<S>,
    produce: Produce<'_, '_, S, E>,
    work: &(dyn Fn(usize, &mut S) -> Result<(), E> + Sync),
    consume: &mut dyn FnMut(usize, &mut S) -> Result<(), E>,
) -> Result<(), E> {
    assert!(!slots.is_empty(), "at least one slot");
    let ring = slots.len();
    let helpers = crate::pipeline::threads().saturating_sub(1).min(ring - 1);
    let shared = Shared {
        state: Mutex::new(State {
            free: std::mem::take(slots),
            filled: VecDeque::with_capacity(ring),
            ready: (0..ring).map(|_| None).collect(),
            produced: 0,
            producing: false,
            input_done: false,
            produce_err: None,
            sleeping: 0,
            stop: false,
        }),
        changed: Condvar::new(),
        #[cfg(feature = "parallel")]
        epoch: AtomicUsize::new(0),
        ring,
        // With `Count` a slot is taken only when a thread starts on its item, so the
        // slots in use cycle through a few buffers that stay in the caches (the free list
        // is a stack) rather than through the whole ring.
        work_own: !matches!(produce, Produce::Here(_)),
    };
    let result = if helpers == 0 {
        calling_thread(&shared, produce, work, consume)
    } else {
        #[cfg(feature = "parallel")]
        {
            // How helpers produce, if they may.
            let (count, shared_fn);
            let on_helpers: Option<&HelperProduceFn<'_, S, E>> = match &produce {
                Produce::Count(n) => {
                    let n = *n;
                    count = move |i: usize, _: &mut S| Ok(i + 1 < n);
                    Some(&count)
                }
                Produce::Anywhere(m) => {
                    let m = *m;
                    shared_fn = move |i: usize, s: &mut S| {
                        (m.lock().unwrap_or_else(|p| p.into_inner()))(i, s)
                    };
                    Some(&shared_fn)
                }
                Produce::Here(_) => None,
            };
            // Helpers are threads of their own, not jobs of rayon's pool: a helper may wait
            // (for a free slot or for work), and a rayon job that waits can end up running
            // nested inside another job of the same thread — say inside the reader's own use
            // of the pool during a `produce` — blocking the very thread it waits for.
            std::thread::scope(|s| {
                for _ in 0..helpers {
                    s.spawn(|| helper(&shared, on_helpers, work));
                }
                let result = calling_thread(&shared, produce, work, consume);
                // Helpers finish the job in hand and leave.
                let mut st = shared.lock();
                st.stop = true;
                shared.notify(st);
                result
            })
        }
        #[cfg(not(feature = "parallel"))]
        unreachable!("one thread without the parallel feature")
    };
    let st = shared.state.into_inner().unwrap_or_else(|p| p.into_inner());
    *slots = st.free;
    slots.extend(st.filled.into_iter().map(|(_, s)| s));
    slots.extend(st.ready.into_iter().flatten().map(|(s, _)| s));
    result
}

/// What the threads share, under one lock.
struct State<S, E> {
    /// Slots nobody holds.
    free: Vec<S>,
    /// Produced items waiting for work, lowest index first.
    filled: VecDeque<(usize, S)>,
    /// Worked items by `index % ring`, with the result of the work.
    ready: Vec<Option<(S, Result<(), E>)>>,
    /// Items produced so far (the next index to produce).
    produced: usize,
    /// A thread is producing.
    producing: bool,
    /// No item will be produced any more.
    input_done: bool,
    /// The error of producing item `produced`, returned once the items before it are
    /// consumed.
    produce_err: Option<E>,
    /// Threads asleep until the state changes.
    sleeping: usize,
    /// The run is over: helpers leave.
    stop: bool,
}

struct Shared<S, E> {
    state: Mutex<State<S, E>>,
    /// Signalled on every change that may give a sleeping thread something to do.
    changed: Condvar,
    /// Bumped on every such change: a spinning thread watches it without the lock.
    #[cfg(feature = "parallel")]
    epoch: AtomicUsize,
    ring: usize,
    /// A thread that produced an item works on it.
    work_own: bool,
}

/// A job found under the lock.
enum Job<S> {
    Produce(usize, S),
    Work(usize, S),
}

impl<S, E> Shared<S, E> {
    fn lock(&self) -> MutexGuard<'_, State<S, E>> {
        // `produce`, `work` and `consume` run without the lock: a panic cannot leave the
        // state half-changed.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Releases the lock after a change, waking sleeping threads.
    fn notify(&self, st: MutexGuard<'_, State<S, E>>) {
        #[cfg(feature = "parallel")]
        self.epoch.fetch_add(1, Ordering::Release);
        let wake = st.sleeping > 0;
        drop(st);
        if wake {
            self.changed.notify_all();
        }
    }

    /// The next job, producing before working; `may_produce` is false on a thread that
    /// cannot reach the input.
    fn job(&self, st: &mut State<S, E>, may_produce: bool) -> Option<Job<S>> {
        if st.stop {
            return None;
        }
        if may_produce
            && !st.input_done
            && !st.producing
            && let Some(slot) = st.free.pop()
        {
            st.producing = true;
            return Some(Job::Produce(st.produced, slot));
        }
        st.filled.pop_front().map(|(i, s)| Job::Work(i, s))
    }

    /// Files the outcome of producing item `i`. Returns the slot if the producing thread
    /// works on the item itself (with [`Produce::Anywhere`]: the item is in its cache).
    fn produced(
        &self,
        mut st: MutexGuard<'_, State<S, E>>,
        i: usize,
        slot: S,
        r: Result<bool, E>,
    ) -> Option<S> {
        st.producing = false;
        let mut own = None;
        match r {
            Ok(more) => {
                if self.work_own {
                    own = Some(slot);
                } else {
                    st.filled.push_back((i, slot));
                }
                st.produced = i + 1;
                st.input_done = !more;
            }
            Err(e) => {
                st.free.push(slot);
                st.produce_err = Some(e);
                st.input_done = true;
            }
        }
        self.notify(st);
        own
    }

    /// Files a worked item.
    fn worked(&self, mut st: MutexGuard<'_, State<S, E>>, i: usize, slot: S, r: Result<(), E>) {
        st.ready[i % self.ring] = Some((slot, r));
        self.notify(st);
    }

    /// Does `job` (without the lock) and files its outcome.
    fn run_job(
        &self,
        job: Job<S>,
        produce: &mut dyn FnMut(usize, &mut S) -> Result<bool, E>,
        work: &(dyn Fn(usize, &mut S) -> Result<(), E> + Sync),
    ) {
        let (i, mut slot) = match job {
            Job::Produce(i, mut slot) => {
                let r = produce(i, &mut slot);
                match self.produced(self.lock(), i, slot, r) {
                    Some(slot) => (i, slot),
                    None => return,
                }
            }
            Job::Work(i, slot) => (i, slot),
        };
        let r = work(i, &mut slot);
        self.worked(self.lock(), i, slot, r);
    }

    /// Waits for a change: spins a little without the lock, then sleeps.
    fn wait<'a>(&'a self, mut st: MutexGuard<'a, State<S, E>>) -> MutexGuard<'a, State<S, E>> {
        #[cfg(feature = "parallel")]
        {
            let seen = self.epoch.load(Ordering::Acquire);
            drop(st);
            // A worked item is usually a few microseconds away; sleeping and being woken
            // costs tens of microseconds on a virtual machine.
            let start = std::time::Instant::now();
            'spin: while start.elapsed() < SPIN {
                for _ in 0..64 {
                    if self.epoch.load(Ordering::Acquire) != seen {
                        break 'spin;
                    }
                    std::hint::spin_loop();
                }
            }
            st = self.lock();
            if self.epoch.load(Ordering::Acquire) != seen {
                return st;
            }
        }
        st.sleeping += 1;
        st = self.changed.wait(st).unwrap_or_else(|p| p.into_inner());
        st.sleeping -= 1;
        st
    }
}

/// How long a thread with nothing to do spins before it sleeps.
#[cfg(feature = "parallel")]
const SPIN: std::time::Duration = std::time::Duration::from_micros(50);

/// The calling thread: consumes in order, and otherwise produces or works.
fn calling_thread<S, E>(
    shared: &Shared<S, E>,
    mut produce: Produce<'_, '_, S, E>,
    work: &(dyn Fn(usize, &mut S) -> Result<(), E> + Sync),
    consume: &mut dyn FnMut(usize, &mut S) -> Result<(), E>,
) -> Result<(), E> {
    let mut consumed = 0usize;
    let mut st = shared.lock();
    loop {
        if let Some((mut slot, r)) = st.ready[consumed % shared.ring].take() {
            drop(st);
            let r = r.and_then(|()| consume(consumed, &mut slot));
            st = shared.lock();
            st.free.push(slot);
            consumed += 1;
            if let Err(e) = r {
                st.stop = true;
                shared.notify(st);
                return Err(e);
            }
            shared.notify(st);
            st = shared.lock();
            continue;
        }
        if st.input_done && consumed == st.produced {
            return match st.produce_err.take() {
                Some(e) => Err(e),
                None => Ok(()),
            };
        }
        match shared.job(&mut st, true) {
            Some(job) => {
                drop(st);
                let mut produce_here = |i: usize, slot: &mut S| match &mut produce {
                    Produce::Count(n) => Ok(i + 1 < *n),
                    Produce::Here(f) => f(i, slot),
                    Produce::Anywhere(m) => (m.lock().unwrap_or_else(|p| p.into_inner()))(i, slot),
                };
                shared.run_job(job, &mut produce_here, work);
            }
            None => {
                if st.stop {
                    // A helper panicked; the scope re-raises its panic.
                    return Ok(());
                }
                // Item `consumed` is being produced or worked on by a helper.
                st = shared.wait(st);
                continue;
            }
        }
        st = shared.lock();
    }
}

/// A helper thread: produces (if it may) or works until the run is over.
#[cfg(feature = "parallel")]
fn helper<S, E>(
    shared: &Shared<S, E>,
    produce: Option<&HelperProduceFn<'_, S, E>>,
    work: &(dyn Fn(usize, &mut S) -> Result<(), E> + Sync),
) {
    // A panic here must not leave the calling thread waiting for the item: stop the run.
    let _unwinding = StopOnUnwind(shared);
    let mut st = shared.lock();
    loop {
        match shared.job(&mut st, produce.is_some()) {
            Some(job) => {
                drop(st);
                let mut produce_here = |i: usize, slot: &mut S| {
                    produce.expect("a helper produces only if it may")(i, slot)
                };
                shared.run_job(job, &mut produce_here, work);
            }
            None => {
                if st.stop || (st.input_done && !st.producing && st.filled.is_empty()) {
                    return;
                }
                st = shared.wait(st);
                continue;
            }
        }
        st = shared.lock();
    }
}

/// Stops the run and wakes everyone if dropped during a panic.
#[cfg(feature = "parallel")]
struct StopOnUnwind<'a, S, E>(&'a Shared<S, E>);

#[cfg(feature = "parallel")]
impl<S, E> Drop for StopOnUnwind<'_, S, E> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().stop = true;
            self.0.epoch.fetch_add(1, Ordering::Release);
            self.0.changed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_counting(
        ring: usize,
        count: usize,
        anywhere: bool,
        fail_produce: Option<usize>,
        fail_work: Option<usize>,
        fail_consume: Option<usize>,
    ) -> (Result<(), usize>, Vec<usize>) {
        let mut slots: Vec<Vec<usize>> = (0..ring).map(|_| Vec::new()).collect();
        let mut seen = Vec::new();
        let mut produce = |i: usize, s: &mut Vec<usize>| {
            if fail_produce == Some(i) {
                return Err(1000 + i);
            }
            s.clear();
            s.push(i);
            Ok(i + 1 < count)
        };
        let work = |i: usize, s: &mut Vec<usize>| {
            assert_eq!(s, &[i], "work sees its own item");
            if fail_work == Some(i) {
                return Err(2000 + i);
            }
            s[0] = i * 3;
            Ok(())
        };
        let mut consume = |i: usize, s: &mut Vec<usize>| {
            assert_eq!(s, &[i * 3], "consume sees the worked item");
            seen.push(i);
            if fail_consume == Some(i) {
                return Err(3000 + i);
            }
            Ok(())
        };
        let r = if anywhere {
            let m = Mutex::new(produce);
            run(&mut slots, Produce::Anywhere(&m), &work, &mut consume)
        } else {
            run(&mut slots, Produce::Here(&mut produce), &work, &mut consume)
        };
        assert_eq!(slots.len(), ring, "every slot comes back");
        (r, seen)
    }

    #[test]
    fn items_come_in_order_with_every_slot_reused() {
        for count in [1usize, 2, 7, 100] {
            for ring in [1usize, 2, 3, 8] {
                for anywhere in [false, true] {
                    let (r, seen) = run_counting(ring, count, anywhere, None, None, None);
                    assert_eq!(r, Ok(()));
                    assert_eq!(seen, (0..count).collect::<Vec<_>>());
                }
            }
        }
    }

    #[test]
    fn counted_items_need_no_producer() {
        for (count, ring) in [(1usize, 1usize), (5, 2), (100, 8)] {
            let mut slots = vec![0usize; ring];
            let mut seen = Vec::new();
            let r = run::<_, ()>(
                &mut slots,
                Produce::Count(count),
                &|i, s| {
                    *s = i + 1;
                    Ok(())
                },
                &mut |i, s| {
                    assert_eq!(*s, i + 1);
                    seen.push(i);
                    Ok(())
                },
            );
            assert_eq!(r, Ok(()));
            assert_eq!(seen, (0..count).collect::<Vec<_>>());
            assert_eq!(slots.len(), ring);
        }
    }

    #[test]
    fn the_first_error_in_order_ends_the_run() {
        for ring in [1usize, 4] {
            for anywhere in [false, true] {
                let (r, seen) = run_counting(ring, 50, anywhere, Some(20), None, None);
                assert_eq!((r, seen.len()), (Err(1020), 20));
                let (r, seen) = run_counting(ring, 50, anywhere, None, Some(17), Some(30));
                assert_eq!((r, seen.len()), (Err(2017), 17));
                let (r, seen) = run_counting(ring, 50, anywhere, Some(40), Some(45), Some(30));
                assert_eq!((r, seen.len()), (Err(3030), 31));
            }
        }
    }
}
