//! LeMac, LeMacX2 and LeMacX4 MAC throughput on every backend this CPU can run, with the AEGIS
//! MACs (`aegis` crate, C backend) in the same groups.
//!
//! Two groups per message size:
//! * `lemac/ctx/<size>`: the key is expanded once; each iteration is one message with
//!   `LeMacKey::mac` (one-shot, zero nonce). Peers: a keyed AEGIS MAC state cloned per message;
//!   the HiAE MACs of this workspace (one-shot, key + nonce initialization per message).
//! * `lemac/keysetup/<size>`: each iteration derives the key and MACs one message. Peers:
//!   `new(key)` per message.
//!
//! * `lemac/ctx-offset16/64KiB`: as `lemac/ctx/64KiB` for the wide variants on the preferred
//!   backend and AEGIS-128X4-MAC, with the message 16 bytes after a 64-byte boundary.
//!
//! Messages start on a 64-byte boundary ([`Placed`]), the same buffer for every
//! implementation; the offset-16 group shows what a `Vec`'s 16-byte alignment costs.
//!
//! Run: `cargo bench -p aeadfast-benches --bench lemac` (filter with e.g. `-- 'ctx/64KiB'`).

use std::hint::black_box;

use aeadfast_benches::{Placed, SIZES, bytes, group, size_label};
use aegis::aegis128l::Aegis128LMac;
use aegis::aegis128x2::Aegis128X2Mac;
use aegis::aegis128x4::Aegis128X4Mac;
use criterion::{Criterion, criterion_group, criterion_main};
use lemac::{Backend, LeMacKeyGeneric, Supported, Width};

const KEY: [u8; 16] = [0x42; 16];
const NONCE: [u8; 16] = [0; 16];

fn name(d: usize) -> &'static str {
    match d {
        1 => "LeMac",
        2 => "LeMacX2",
        _ => "LeMacX4",
    }
}

fn lemac_ctx<const D: usize>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    backend: Backend,
    data: &[u8],
) where
    Width<D>: Supported<D>,
{
    let key = LeMacKeyGeneric::<D>::new_with_backend(&KEY, backend).unwrap();
    g.bench_function(format!("{}/{}", name(D), backend.name()), |b| {
        b.iter(|| key.mac(black_box(data), &NONCE))
    });
}

fn lemac_keysetup<const D: usize>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    backend: Backend,
    data: &[u8],
) where
    Width<D>: Supported<D>,
{
    g.bench_function(format!("{}/{}", name(D), backend.name()), |b| {
        b.iter(|| {
            LeMacKeyGeneric::<D>::new_with_backend(black_box(&KEY), backend)
                .unwrap()
                .mac(black_box(data), &NONCE)
        })
    });
}

/// AEGIS-128X4-MAC with a keyed state cloned per message (the `ctx` groups' peer).
fn aegis_x4_ctx(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    data: &[u8],
) {
    let x4 = Aegis128X4Mac::<16>::new(&KEY);
    g.bench_function("AEGIS-128X4-MAC", |b| {
        b.iter(|| {
            let mut m = x4.clone();
            m.update(black_box(data));
            m.finalize()
        })
    });
}

fn bench(c: &mut Criterion) {
    for size in SIZES {
        let placed = Placed::new(size, 0);
        let data = placed.bytes();
        let label = size_label(size);

        let mut g = group(c, &format!("lemac/ctx/{label}"));
        bytes(&mut g, size);
        for backend in Backend::available() {
            lemac_ctx::<1>(&mut g, backend, data);
            lemac_ctx::<2>(&mut g, backend, data);
            lemac_ctx::<4>(&mut g, backend, data);
        }
        let l = Aegis128LMac::<16>::new(&KEY);
        g.bench_function("AEGIS-128L-MAC", |b| {
            b.iter(|| {
                let mut m = l.clone();
                m.update(black_box(data));
                m.finalize()
            })
        });
        let x2 = Aegis128X2Mac::<16>::new(&KEY);
        g.bench_function("AEGIS-128X2-MAC", |b| {
            b.iter(|| {
                let mut m = x2.clone();
                m.update(black_box(data));
                m.finalize()
            })
        });
        aegis_x4_ctx(&mut g, data);
        // HiAE's MAC initializes from key and nonce per message (no reusable keyed state).
        g.bench_function("HiAE-MAC", |b| {
            b.iter(|| hiae::mac::<hiae::Hiae>(&[0x42; 32], &NONCE, black_box(data)))
        });
        g.bench_function("HiAEx4-MAC", |b| {
            b.iter(|| hiae::mac::<hiae::HiaeX4>(&[0x42; 32], &NONCE, black_box(data)))
        });
        g.finish();

        let mut g = group(c, &format!("lemac/keysetup/{label}"));
        bytes(&mut g, size);
        for backend in Backend::available() {
            lemac_keysetup::<1>(&mut g, backend, data);
            lemac_keysetup::<2>(&mut g, backend, data);
            lemac_keysetup::<4>(&mut g, backend, data);
        }
        g.bench_function("AEGIS-128L-MAC", |b| {
            b.iter(|| {
                let mut m = Aegis128LMac::<16>::new(black_box(&KEY));
                m.update(black_box(data));
                m.finalize()
            })
        });
        g.bench_function("AEGIS-128X4-MAC", |b| {
            b.iter(|| {
                let mut m = Aegis128X4Mac::<16>::new(black_box(&KEY));
                m.update(black_box(data));
                m.finalize()
            })
        });
        g.finish();
    }

    let size = 64 << 10;
    let placed = Placed::new(size, 16);
    let data = placed.bytes();
    let mut g = group(c, "lemac/ctx-offset16/64KiB");
    bytes(&mut g, size);
    let backend = Backend::detect();
    lemac_ctx::<2>(&mut g, backend, data);
    lemac_ctx::<4>(&mut g, backend, data);
    aegis_x4_ctx(&mut g, data);
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
