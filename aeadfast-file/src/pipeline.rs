//! Parallel work: how many chunks go into a batch (a memory budget, not the thread count),
//! running one stage on the thread pool while the calling thread runs another, and the size
//! of the ring of buffers that large reads, writes and copies go through.
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

/// Runs `f(i, item)` for every item, on the thread pool if `parallel` (with the `parallel`
/// feature), else here; returns the results in order.
pub fn for_each_indexed<T: Send, R: Send>(
    items: impl Iterator<Item = T> + Send,
    parallel: bool,
    f: impl Fn(usize, T) -> R + Sync + Send,
) -> Vec<R> {
    #[cfg(feature = "parallel")]
    if parallel {
        use rayon::prelude::*;
        let items: Vec<T> = items.collect();
        if items.len() <= 1 {
            return items
                .into_iter()
                .enumerate()
                .map(|(i, t)| f(i, t))
                .collect();
        }
        return items
            .into_par_iter()
            .enumerate()
            .map(|(i, t)| f(i, t))
            .collect();
    }
    let _ = parallel;
    items.enumerate().map(|(i, t)| f(i, t)).collect()
}

/// Plaintext per item of the ring that large inputs go through (see `ordered`): big enough
/// that handing items between threads costs nothing measurable, small enough that the
/// ring's buffers stay in the cores' caches.
pub const RING_ITEM_BYTES: usize = 256 << 10;
/// Items of the ring per thread: slack so that a thread rarely waits for a free buffer
/// (measured on two threads: 16 items ran faster than 6).
pub const RING_ITEMS_PER_THREAD: usize = 8;
/// Most bytes in the ring's buffers, whatever the thread count or chunk size.
pub const RING_MAX_BYTES: usize = 32 << 20;

/// Chunks per item of the ring: [`RING_ITEM_BYTES`] of whole chunks (at least one), and no
/// more than `batch` chunks (a smaller batch size set by the caller).
pub fn ring_item_chunks(chunk_log2: u8, batch: usize) -> usize {
    (RING_ITEM_BYTES >> chunk_log2).clamp(1, batch.max(1))
}

/// Slots of the ring for items of `item_bytes` (buffer size): [`RING_ITEMS_PER_THREAD`] per
/// thread, within [`RING_MAX_BYTES`], at least two.
pub fn ring_slots(item_bytes: usize) -> usize {
    (RING_ITEMS_PER_THREAD * threads())
        .min(RING_MAX_BYTES / item_bytes.max(1))
        .max(2)
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
        for log2 in 6..=22u8 {
            let item = ring_item_chunks(log2, 1 << 20) << log2;
            let slots = ring_slots(item);
            assert!(slots >= 2);
            assert!(slots * item <= RING_MAX_BYTES, "{log2}: {slots} × {item}");
        }
    }

    #[test]
    fn overlap_runs_both() {
        let (a, b) = overlap(|| 1 + 1, || "here");
        assert_eq!((a, b), (2, "here"));
        for parallel in [false, true] {
            let v = for_each_indexed([5, 6, 7].into_iter(), parallel, |i, x| i * 10 + x);
            assert_eq!(v, [5, 16, 27]);
        }
    }
}
