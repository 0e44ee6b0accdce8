//! Parallel work: how many chunks go into a batch (a memory budget, not the thread count),
//! and running one stage on the thread pool while the calling thread runs another.
//!
//! Without the `parallel` feature everything here runs on the calling thread, in order.

/// Smallest plaintext budget of a batch to seal: enough chunks to keep every thread busy while
/// the calling thread reads or writes the previous batch, and few enough hand-overs to the
/// pool (measured: 8 MiB sealed faster than 2 MiB, 16 MiB no faster than 8).
pub const SEAL_MIN_BATCH_BYTES: usize = 8 << 20;
/// Smallest plaintext budget of a batch to open (measured: 2 MiB opened faster than 8).
pub const OPEN_MIN_BATCH_BYTES: usize = 2 << 20;
/// Largest plaintext budget of a batch, whatever the thread count or chunk size.
pub const MAX_BATCH_BYTES: usize = 16 << 20;

/// Threads that seal or open chunks at once.
pub fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Chunks per batch for `2^chunk_log2`-byte chunks: one chunk per thread, at least
/// `min_bytes` and at most [`MAX_BATCH_BYTES`] of plaintext (but at least one chunk).
pub fn chunks_per_batch(chunk_log2: u8, min_bytes: usize) -> usize {
    let chunk = 1usize << chunk_log2;
    let budget = threads()
        .saturating_mul(chunk)
        .clamp(min_bytes.min(MAX_BATCH_BYTES), MAX_BATCH_BYTES);
    (budget / chunk).max(1)
}

/// Runs `task` on the thread pool while the calling thread runs `here`; returns both results
/// once both are done. `here` need not be `Send`: it is where a reader or writer that must
/// stay on the calling thread is used.
pub fn overlap<A: Send, B>(task: impl FnOnce() -> A + Send, here: impl FnOnce() -> B) -> (A, B) {
    #[cfg(feature = "parallel")]
    {
        let mut a = None;
        let b = rayon::in_place_scope(|s| {
            s.spawn(|_| a = Some(task()));
            here()
        });
        (a.expect("the scope waits for its task"), b)
    }
    #[cfg(not(feature = "parallel"))]
    {
        let b = here();
        (task(), b)
    }
}

/// Like [`overlap`] with two tasks on the pool.
pub fn overlap2<A: Send, B: Send, C>(
    task_a: impl FnOnce() -> A + Send,
    task_b: impl FnOnce() -> B + Send,
    here: impl FnOnce() -> C,
) -> (A, B, C) {
    #[cfg(feature = "parallel")]
    {
        let (mut a, mut b) = (None, None);
        let c = rayon::in_place_scope(|s| {
            s.spawn(|_| a = Some(task_a()));
            s.spawn(|_| b = Some(task_b()));
            here()
        });
        (
            a.expect("the scope waits for its tasks"),
            b.expect("the scope waits for its tasks"),
            c,
        )
    }
    #[cfg(not(feature = "parallel"))]
    {
        let c = here();
        let b = task_b();
        (task_a(), b, c)
    }
}

/// Runs `f(i, item)` for every item, in parallel with the `parallel` feature; returns the
/// results in order.
pub fn for_each_indexed<T: Send, R: Send>(
    items: impl Iterator<Item = T> + Send,
    f: impl Fn(usize, T) -> R + Sync + Send,
) -> Vec<R> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        let items: Vec<T> = items.collect();
        if items.len() <= 1 {
            return items
                .into_iter()
                .enumerate()
                .map(|(i, t)| f(i, t))
                .collect();
        }
        items
            .into_par_iter()
            .enumerate()
            .map(|(i, t)| f(i, t))
            .collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        items.enumerate().map(|(i, t)| f(i, t)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_stay_within_the_budget() {
        for log2 in 6..=22u8 {
            let n = chunks_per_batch(log2, SEAL_MIN_BATCH_BYTES);
            assert!(n >= 1);
            assert!(n << log2 <= MAX_BATCH_BYTES.max(1 << log2), "{log2}: {n}");
        }
        assert!(chunks_per_batch(18, SEAL_MIN_BATCH_BYTES) << 18 >= 8 << 20);
        assert!(chunks_per_batch(18, OPEN_MIN_BATCH_BYTES) << 18 >= 2 << 20);
    }

    #[test]
    fn overlap_runs_both() {
        let (a, b) = overlap(|| 1 + 1, || "here");
        assert_eq!((a, b), (2, "here"));
        let (a, b, c) = overlap2(|| 1, || 2, || 3);
        assert_eq!((a, b, c), (1, 2, 3));
        let v = for_each_indexed([5, 6, 7].into_iter(), |i, x| i * 10 + x);
        assert_eq!(v, [5, 16, 27]);
    }
}
