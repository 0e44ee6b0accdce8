//! HiAE, HiAEx2 and HiAEx4 throughput on every backend this CPU can run, with peers in the
//! same groups: the crates.io `hiae` 0.3 crate (`hiae-peer`), AEGIS-128L and AEGIS-128X4
//! (`aegis` crate, C backend) and AES-256-GCM (`aes-gcm`).
//!
//! Groups (filter with a substring, e.g. `-- 'hiae/encrypt/64KiB'`):
//! * `hiae/encrypt/<size>`: in-place encryption with empty AD (each iteration re-encrypts the
//!   buffer);
//! * `hiae/decrypt/<size>`: in-place decryption + tag check of a valid message (the
//!   ciphertext is copied into the buffer by an untimed setup step, in batches that stay in
//!   the L2 cache: [`hot_batch`]);
//! * `hiae/mac/<size>`: one-shot MAC.
//!
//! `hiae-peer`'s label says how it was built: `hiae-0.3/default` is its default build (its
//! portable table-based code), `hiae-0.3/+aes` is a build with
//! `RUSTFLAGS="-C target-feature=+aes"` (its AES-NI code). Run both:
//!
//! ```text
//! cargo bench -p aeadfast-benches --bench hiae
//! RUSTFLAGS="-C target-feature=+aes" cargo bench -p aeadfast-benches --bench hiae -- hiae-0.3
//! ```

use std::hint::black_box;

use aead::{AeadInOut, KeyInit};
use aeadfast_benches::{SIZES, bytes, group, hot_batch, input, size_label};
use aegis::aegis128l::{Aegis128L, Aegis128LMac};
use aegis::aegis128x4::{Aegis128X4, Aegis128X4Mac};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use hiae::{Backend, Hiae, HiaeX2, HiaeX4, Variant};

const KEY: [u8; 32] = [0x42; 32];
const NONCE: [u8; 16] = [0x24; 16];

/// Label of the peer crate's build.
const PEER: &str = if cfg!(target_feature = "aes") {
    "hiae-0.3/+aes"
} else {
    "hiae-0.3/default"
};

/// A cipher of variant `V` on `backend`.
trait Make: Variant {
    fn make(backend: Backend) -> Self;
}

macro_rules! make {
    ($t:ty) => {
        impl Make for $t {
            fn make(backend: Backend) -> Self {
                <$t>::new_with_backend(&KEY.into(), backend).unwrap()
            }
        }
    };
}
make!(Hiae);
make!(HiaeX2);
make!(HiaeX4);

fn ours_encrypt<V: Make>(g: &mut BenchmarkGroup<'_, WallTime>, backend: Backend, size: usize) {
    let c = V::make(backend);
    let mut buf = input(size);
    g.bench_function(format!("{}/{}", V::NAME, backend.name()), |b| {
        b.iter(|| {
            c.encrypt_inout_detached(&NONCE.into(), b"", black_box(buf.as_mut_slice()).into())
                .unwrap()
        })
    });
}

fn ours_decrypt<V: Make>(g: &mut BenchmarkGroup<'_, WallTime>, backend: Backend, size: usize) {
    let c = V::make(backend);
    let mut ct = input(size);
    let tag = c
        .encrypt_inout_detached(&NONCE.into(), b"", ct.as_mut_slice().into())
        .unwrap();
    g.bench_function(format!("{}/{}", V::NAME, backend.name()), |b| {
        b.iter_batched_ref(
            || ct.clone(),
            |buf| {
                c.decrypt_inout_detached(&NONCE.into(), b"", buf.as_mut_slice().into(), &tag)
                    .unwrap()
            },
            hot_batch(size),
        )
    });
}

fn ours_mac<V: Make>(g: &mut BenchmarkGroup<'_, WallTime>, backend: Backend, size: usize) {
    let data = input(size);
    let token = backend.token().unwrap();
    g.bench_function(format!("{}/{}", V::NAME, backend.name()), |b| {
        b.iter(|| hiae::mac_with_token::<V>(token, &KEY, &NONCE, black_box(&data)))
    });
}

fn bench(c: &mut Criterion) {
    let aes_gcm = aes_gcm::Aes256Gcm::new(&KEY.into());
    let key16: [u8; 16] = KEY[..16].try_into().unwrap();
    for size in SIZES {
        let label = size_label(size);

        // Encryption.
        let mut g = group(c, &format!("hiae/encrypt/{label}"));
        bytes(&mut g, size);
        for backend in Backend::available() {
            ours_encrypt::<Hiae>(&mut g, backend, size);
            ours_encrypt::<HiaeX2>(&mut g, backend, size);
            ours_encrypt::<HiaeX4>(&mut g, backend, size);
        }
        let msg = input(size);
        let mut out = vec![0u8; size];
        g.bench_function(PEER, |b| {
            b.iter(|| {
                hiae_peer::encrypt_into(black_box(&msg), b"", &KEY, &NONCE, &mut out).unwrap()
            })
        });
        let mut buf = input(size);
        g.bench_function("AEGIS-128L", |b| {
            b.iter(|| {
                Aegis128L::<16>::new(&key16, &NONCE).encrypt_in_place(black_box(&mut buf), b"")
            })
        });
        g.bench_function("AEGIS-128X4", |b| {
            b.iter(|| {
                Aegis128X4::<16>::new(&key16, &NONCE).encrypt_in_place(black_box(&mut buf), b"")
            })
        });
        let nonce12 = aead::Nonce::<aes_gcm::Aes256Gcm>::from([0x24u8; 12]);
        g.bench_function("AES-256-GCM", |b| {
            b.iter(|| {
                aes_gcm
                    .encrypt_inout_detached(&nonce12, b"", black_box(buf.as_mut_slice()).into())
                    .unwrap()
            })
        });
        g.finish();

        // Decryption.
        let mut g = group(c, &format!("hiae/decrypt/{label}"));
        bytes(&mut g, size);
        for backend in Backend::available() {
            ours_decrypt::<Hiae>(&mut g, backend, size);
            ours_decrypt::<HiaeX2>(&mut g, backend, size);
            ours_decrypt::<HiaeX4>(&mut g, backend, size);
        }
        let (pct, ptag) = hiae_peer::encrypt(&msg, b"", &KEY, &NONCE).unwrap();
        g.bench_function(PEER, |b| {
            b.iter(|| {
                hiae_peer::decrypt_into(black_box(&pct), &ptag, b"", &KEY, &NONCE, &mut out)
                    .unwrap()
            })
        });
        let mut lct = msg.clone();
        let ltag = Aegis128L::<16>::new(&key16, &NONCE).encrypt_in_place(&mut lct, b"");
        g.bench_function("AEGIS-128L", |b| {
            b.iter_batched_ref(
                || lct.clone(),
                |buf| {
                    Aegis128L::<16>::new(&key16, &NONCE)
                        .decrypt_in_place(buf, &ltag, b"")
                        .unwrap()
                },
                hot_batch(size),
            )
        });
        let mut xct = msg.clone();
        let xtag = Aegis128X4::<16>::new(&key16, &NONCE).encrypt_in_place(&mut xct, b"");
        g.bench_function("AEGIS-128X4", |b| {
            b.iter_batched_ref(
                || xct.clone(),
                |buf| {
                    Aegis128X4::<16>::new(&key16, &NONCE)
                        .decrypt_in_place(buf, &xtag, b"")
                        .unwrap()
                },
                hot_batch(size),
            )
        });
        let mut gct = msg.clone();
        let gtag = aes_gcm
            .encrypt_inout_detached(&nonce12, b"", gct.as_mut_slice().into())
            .unwrap();
        g.bench_function("AES-256-GCM", |b| {
            b.iter_batched_ref(
                || gct.clone(),
                |buf| {
                    aes_gcm
                        .decrypt_inout_detached(&nonce12, b"", buf.as_mut_slice().into(), &gtag)
                        .unwrap()
                },
                hot_batch(size),
            )
        });
        g.finish();

        // MAC.
        let mut g = group(c, &format!("hiae/mac/{label}"));
        bytes(&mut g, size);
        for backend in Backend::available() {
            ours_mac::<Hiae>(&mut g, backend, size);
            ours_mac::<HiaeX2>(&mut g, backend, size);
            ours_mac::<HiaeX4>(&mut g, backend, size);
        }
        let l = Aegis128LMac::<16>::new(&key16);
        g.bench_function("AEGIS-128L-MAC", |b| {
            b.iter(|| {
                let mut m = l.clone();
                m.update(black_box(&msg));
                m.finalize()
            })
        });
        let x4 = Aegis128X4Mac::<16>::new(&key16);
        g.bench_function("AEGIS-128X4-MAC", |b| {
            b.iter(|| {
                let mut m = x4.clone();
                m.update(black_box(&msg));
                m.finalize()
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
