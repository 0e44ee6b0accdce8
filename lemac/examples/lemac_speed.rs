//! Quick throughput check without criterion: best-of-N timing of `LeMacKey*::mac` (reused
//! context), which is robust on a shared, noisy machine. Criterion figures come from
//! `cargo bench -p aeadfast-benches --bench lemac`.
//!
//! `cargo run --release -p aeadfast-lemac --example lemac_speed [filter] [offset]`
//!
//! `offset` (0..63, default 0): where the message starts relative to a 64-byte boundary.

use std::hint::black_box;
use std::time::Instant;

use lemac::{Backend, LeMacKeyGeneric, Supported, Width};

fn best_ns(mut f: impl FnMut(), budget_ns: u128) -> f64 {
    // Calibrate the batch so one timing is ~50 µs, then keep the fastest batch.
    let mut batch = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        if t.elapsed().as_nanos() > 50_000 {
            break;
        }
        batch *= 2;
    }
    let start = Instant::now();
    let mut best = f64::MAX;
    while start.elapsed().as_nanos() < budget_ns {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        best = best.min(t.elapsed().as_nanos() as f64 / batch as f64);
    }
    best
}

/// `size` bytes of test data starting `offset` bytes after a 64-byte boundary.
fn message(size: usize, offset: usize) -> (Vec<u8>, usize) {
    let buf = vec![0x5au8; size + 128];
    let start = (64 - buf.as_ptr() as usize % 64) % 64 + offset;
    (buf, start)
}

fn run<const D: usize>(backend: Backend, size: usize, keysetup: bool, filter: &str, offset: usize)
where
    Width<D>: Supported<D>,
{
    let name = format!(
        "{}/{}/{}/{}",
        ["", "LeMac", "LeMacX2", "", "LeMacX4"][D],
        backend.name(),
        size,
        if keysetup { "keysetup" } else { "ctx" }
    );
    if !name.contains(filter) {
        return;
    }
    let (buf, start) = message(size, offset);
    let data = &buf[start..start + size];
    let key = LeMacKeyGeneric::<D>::new_with_backend(&[0x42; 16], backend).unwrap();
    let ns = if keysetup {
        best_ns(
            || {
                let k = LeMacKeyGeneric::<D>::new_with_backend(black_box(&[0x42; 16]), backend)
                    .unwrap();
                black_box(k.mac(black_box(data), &[0; 16]));
            },
            300_000_000,
        )
    } else {
        best_ns(
            || {
                black_box(key.mac(black_box(data), &[0; 16]));
            },
            300_000_000,
        )
    };
    println!(
        "{name:40} {ns:10.1} ns  {:8.1} Gbps",
        size as f64 * 8.0 / ns
    );
}

/// A dependent chain of `n` AES rounds (4-cycle latency on Zen 4): estimates the clock.
struct Chain(u64);

impl aes_lanes::LaneOp for Chain {
    const LANES: usize = 1;
    type Output = [u8; 16];
    #[inline(always)]
    fn run<L: aes_lanes::Lanes>(self) -> [u8; 16] {
        let k = L::broadcast(&[3; 16]);
        let mut x = L::broadcast(&[1; 16]);
        for _ in 0..self.0 {
            x = x.aes_round(k);
        }
        x.lane(0)
    }
}

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let offset = std::env::args()
        .nth(2)
        .map(|o| o.parse::<usize>().expect("offset: a number of bytes"))
        .unwrap_or(0)
        % 64;
    let token = Backend::detect().token().unwrap();
    let ns = best_ns(
        || {
            black_box(token.dispatch(Chain(black_box(10_000))));
        },
        200_000_000,
    );
    println!(
        "clock estimate (4-cycle aesenc latency): {:.2} GHz",
        40_000.0 / ns
    );
    for backend in Backend::available() {
        for size in [64, 256, 1024, 8192, 65536, 1 << 20] {
            for ks in [false, true] {
                run::<1>(backend, size, ks, &filter, offset);
                run::<2>(backend, size, ks, &filter, offset);
                run::<4>(backend, size, ks, &filter, offset);
            }
        }
    }
}
