//! The cost of the C ABI: the exported `<P>_encrypt` / `<P>_decrypt` against the `hiae`
//! crate's Rust API, same message, same run.
//!
//! `c-abi` calls the exported function through a function pointer hidden from the optimizer
//! (as a C program calls into the shared library: an indirect call, no inlining), with the
//! key and nonce as pointers; it builds the cipher from the key on every call, as the C API
//! must. `rust-api` is `encrypt_inout_detached` / `decrypt_inout_detached` on a cipher built
//! once; `rust-api-new-cipher` (encryption) builds the cipher for every call, as the C API
//! does. Both encrypt in place with empty associated data; decryption gets a fresh copy of
//! the ciphertext per iteration (untimed, in L2-sized batches).
//!
//! ```text
//! cargo bench -p aeadfast-hiae-capi --bench abi
//! ```

// Calling the exported functions through pointers needs `unsafe`.
#![allow(unsafe_code)]

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main,
};
mod common;

use common::{DecryptFn, EncryptFn, KEY, NONCE, c_encrypt_in_place};
use hiae::{Hiae, HiaeX2, HiaeX4, Variant};
use hiae_capi::{
    HiAE_decrypt, HiAE_encrypt, HiAEx2_decrypt, HiAEx2_encrypt, HiAEx4_decrypt, HiAEx4_encrypt,
};

const SIZES: [(usize, &str); 3] = [(64, "64B"), (1 << 10, "1KiB"), (64 << 10, "64KiB")];

fn input(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 + 7) as u8).collect()
}

fn group<'a>(c: &'a mut Criterion, name: String, size: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    g.sample_size(30);
    g.throughput(Throughput::Bytes(size as u64));
    g
}

/// Iterations per untimed refill of the decryption input (about 256 KiB of buffers).
fn batch(size: usize) -> BatchSize {
    BatchSize::NumIterations(((256 << 10) / size).max(1) as u64)
}

fn variant<V: Variant>(c: &mut Criterion, enc: EncryptFn, dec: DecryptFn) {
    let cipher = V::new_from_slice(&KEY).unwrap();
    for (size, label) in SIZES {
        let mut g = group(c, format!("capi/{}/encrypt/{label}", V::NAME), size);
        let mut buf = input(size);
        g.bench_function("rust-api", |b| {
            b.iter(|| {
                cipher
                    .encrypt_inout_detached(
                        &NONCE.into(),
                        b"",
                        black_box(buf.as_mut_slice()).into(),
                    )
                    .unwrap()
            })
        });
        g.bench_function("rust-api-new-cipher", |b| {
            b.iter(|| {
                V::new_from_slice(black_box(&KEY))
                    .unwrap()
                    .encrypt_inout_detached(
                        &NONCE.into(),
                        b"",
                        black_box(buf.as_mut_slice()).into(),
                    )
                    .unwrap()
            })
        });
        let f = black_box(enc);
        g.bench_function("c-abi", |b| {
            b.iter(|| {
                let (r, tag) = c_encrypt_in_place(f, &mut buf);
                assert_eq!(r, 0);
                tag
            })
        });
        g.finish();

        let mut ct = input(size);
        let tag = cipher
            .encrypt_inout_detached(&NONCE.into(), b"", ct.as_mut_slice().into())
            .unwrap();
        let mut g = group(c, format!("capi/{}/decrypt/{label}", V::NAME), size);
        g.bench_function("rust-api", |b| {
            b.iter_batched_ref(
                || ct.clone(),
                |buf| {
                    cipher
                        .decrypt_inout_detached(&NONCE.into(), b"", buf.as_mut_slice().into(), &tag)
                        .unwrap()
                },
                batch(size),
            )
        });
        let f = black_box(dec);
        g.bench_function("c-abi", |b| {
            b.iter_batched_ref(
                || ct.clone(),
                |buf| {
                    let p = buf.as_mut_ptr();
                    // SAFETY: as for encryption; the tag is 16 bytes.
                    let r = unsafe {
                        f(
                            KEY.as_ptr(),
                            NONCE.as_ptr(),
                            p,
                            p,
                            size,
                            core::ptr::null(),
                            0,
                            tag.as_ptr(),
                        )
                    };
                    assert_eq!(r, 0);
                },
                batch(size),
            )
        });
        g.finish();
    }
}

fn benches(c: &mut Criterion) {
    variant::<Hiae>(c, HiAE_encrypt, HiAE_decrypt);
    variant::<HiaeX2>(c, HiAEx2_encrypt, HiAEx2_decrypt);
    variant::<HiaeX4>(c, HiAEx4_encrypt, HiAEx4_decrypt);
}

criterion_group!(abi, benches);
criterion_main!(abi);
