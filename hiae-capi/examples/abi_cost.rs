//! The C ABI's cost per call, measured by alternation: rounds of `<P>_encrypt` calls (through
//! a function pointer the optimizer cannot see through, as a C program calls the library) and
//! rounds of the equivalent Rust calls (a cipher built from the key on the same backend for
//! every call, as the C function must), one after the other in the same process, so both see
//! the same machine state; the median round of each is reported.
//!
//! ```text
//! cargo run --release -p aeadfast-hiae-capi --example abi_cost
//! ```

// Calling the exported functions through pointers needs `unsafe`.
#![allow(unsafe_code)]

use std::hint::black_box;
use std::time::Instant;

#[path = "../benches/common/mod.rs"]
mod common;

use common::{EncryptFn, KEY, NONCE, c_encrypt_in_place};
use hiae::{Backend, Hiae, HiaeX2, HiaeX4, Variant};
use hiae_capi::{HiAE_encrypt, HiAEx2_encrypt, HiAEx4_encrypt};

const ROUNDS: usize = 21;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn variant<V: Variant>(name: &str, c_fn: EncryptFn, new: impl Fn(&[u8; 32], Backend) -> V) {
    let backend = Backend::detect();
    for size in [64usize, 1 << 10, 64 << 10] {
        let iters = ((32usize << 20) / size).clamp(64, 200_000);
        let mut buf = vec![5u8; size];
        let f = black_box(c_fn);
        let (mut c_ns, mut r_ns) = (Vec::new(), Vec::new());
        for _ in 0..ROUNDS {
            let t = Instant::now();
            for _ in 0..iters {
                black_box(c_encrypt_in_place(f, &mut buf));
            }
            c_ns.push(t.elapsed().as_secs_f64() * 1e9 / iters as f64);
            let t = Instant::now();
            for _ in 0..iters {
                let cipher = new(black_box(&KEY), backend);
                let tag = cipher
                    .encrypt_inout_detached(
                        &NONCE.into(),
                        b"",
                        black_box(buf.as_mut_slice()).into(),
                    )
                    .unwrap();
                black_box(tag);
            }
            r_ns.push(t.elapsed().as_secs_f64() * 1e9 / iters as f64);
        }
        let (c, r) = (median(c_ns), median(r_ns));
        let gbps = |ns: f64| size as f64 * 8.0 / ns;
        println!(
            "{name:<7} {backend:<12} {size:>6} B   C {c:9.1} ns ({:6.1} Gbps)   Rust {r:9.1} ns ({:6.1} Gbps)   C - Rust {:+7.1} ns ({:+5.1} %)",
            gbps(c),
            gbps(r),
            c - r,
            (c / r - 1.0) * 100.0
        );
    }
}

fn main() {
    variant::<Hiae>("HiAE", HiAE_encrypt, |k, b| {
        Hiae::new_with_backend(k.into(), b).unwrap()
    });
    variant::<HiaeX2>("HiAEx2", HiAEx2_encrypt, |k, b| {
        HiaeX2::new_with_backend(k.into(), b).unwrap()
    });
    variant::<HiaeX4>("HiAEx4", HiAEx4_encrypt, |k, b| {
        HiaeX4::new_with_backend(k.into(), b).unwrap()
    });
}
