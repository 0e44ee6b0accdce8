//! Shared helpers for the aeadfast criterion benches.
//!
//! Every throughput bench uses the same message sizes and reports bytes per second, so a
//! figure in Gbps is `bytes/s × 8 / 1e9`.

use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, Throughput};

/// Message sizes of every throughput bench: 64 B, 256 B, 1 KiB, 8 KiB, 64 KiB, 1 MiB.
pub const SIZES: [usize; 6] = [64, 256, 1 << 10, 8 << 10, 64 << 10, 1 << 20];

/// A human label for a size: `64B`, `1KiB`, `1MiB`.
pub fn size_label(size: usize) -> String {
    if size >= 1 << 20 && size.is_multiple_of(1 << 20) {
        format!("{}MiB", size >> 20)
    } else if size >= 1 << 10 && size.is_multiple_of(1 << 10) {
        format!("{}KiB", size >> 10)
    } else {
        format!("{size}B")
    }
}

/// Deterministic, non-trivial input bytes of the given length.
pub fn input(len: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// [`input`] bytes placed at a chosen distance from a 64-byte boundary.
///
/// `Vec<u8>` only promises 16-byte alignment (in practice also what the allocator gives below
/// its mmap threshold), and 32- or 64-byte loads of a message that is not 32/64-byte aligned
/// cross cache lines. Benches that compare wide-register code pin the placement so runs are
/// comparable: offset 0 is what page-aligned or memory-mapped buffers give.
pub struct Placed {
    buf: Vec<u8>,
    start: usize,
    len: usize,
}

impl Placed {
    /// `len` bytes of [`input`] starting `offset % 64` bytes after a 64-byte boundary.
    pub fn new(len: usize, offset: usize) -> Self {
        let mut buf = vec![0u8; len + 128];
        let start = (64 - buf.as_ptr() as usize % 64) % 64 + offset % 64;
        buf[start..start + len].copy_from_slice(&input(len));
        Placed { buf, start, len }
    }

    /// The placed bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[self.start..self.start + self.len]
    }
}

/// A benchmark group with short, uniform timing settings (the benches run many variants on
/// a shared machine; repeat runs and take medians rather than lengthening one run).
pub fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    g.sample_size(20);
    g
}

/// Sets the group's throughput to `bytes` per iteration.
pub fn bytes(g: &mut BenchmarkGroup<'_, WallTime>, bytes: usize) {
    g.throughput(Throughput::Bytes(bytes as u64));
}

/// Batch size for `iter_batched_ref` benches whose input is consumed (in-place decryption):
/// batches of at most 256 KiB of inputs, so the copies made by the untimed setup are still in
/// the L2 cache when they are timed, as a message just received would be.
///
/// Criterion's `BatchSize::SmallInput` makes a batch of a tenth of all iterations, which for a
/// 64 KiB message is tens of megabytes: the timed routine then streams from memory (and the
/// setup's page faults land on the same cache lines), and decryption measured at less than half
/// its in-cache speed on an AVX-512 machine.
pub fn hot_batch(size: usize) -> BatchSize {
    BatchSize::NumIterations(((256 << 10) / size.max(1)).max(1) as u64)
}
