//! GIFT-COFB benchmarks: single-message encrypt/decrypt by size, and batch
//! aggregate throughput for every batch backend this CPU can run, with
//! `chacha20poly1305` measured in the same groups as a peer.
//!
//! `cargo bench -p aeadfast-benches --bench gift_cofb`

use std::hint::black_box;
use std::time::Duration;

use aead::{AeadInOut, KeyInit};
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use gift_cofb::{Backend, BatchItem, GiftCofb};

const SIZES: [usize; 5] = [64, 256, 1024, 8 * 1024, 64 * 1024];

fn configure(g: &mut BenchmarkGroup<'_, WallTime>) {
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(500));
}

fn single(c: &mut Criterion) {
    let gift = GiftCofb::new(&[7u8; 16].into());
    let chacha = chacha20poly1305::ChaCha20Poly1305::new(&[7u8; 32].into());
    let gift_nonce = [1u8; 16].into();
    let chacha_nonce = [1u8; 12].into();

    let mut g = c.benchmark_group("gift-cofb/encrypt");
    configure(&mut g);
    for size in SIZES {
        let mut buf = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_function(format!("gift-cofb/{size}"), |b| {
            b.iter(|| {
                gift.encrypt_inout_detached(&gift_nonce, b"", black_box(&mut buf[..]).into())
                    .unwrap()
            })
        });
        g.bench_function(format!("chacha20poly1305/{size}"), |b| {
            b.iter(|| {
                chacha
                    .encrypt_inout_detached(&chacha_nonce, b"", black_box(&mut buf[..]).into())
                    .unwrap()
            })
        });
    }
    g.finish();

    let mut g = c.benchmark_group("gift-cofb/decrypt");
    configure(&mut g);
    for size in SIZES {
        let mut ct = vec![0u8; size];
        let tag = gift
            .encrypt_inout_detached(&gift_nonce, b"", (&mut ct[..]).into())
            .unwrap();
        let mut cct = vec![0u8; size];
        let ctag = chacha
            .encrypt_inout_detached(&chacha_nonce, b"", (&mut cct[..]).into())
            .unwrap();
        let mut buf = vec![0u8; size];
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_function(format!("gift-cofb/{size}"), |b| {
            b.iter(|| {
                buf.copy_from_slice(&ct);
                gift.decrypt_inout_detached(&gift_nonce, b"", black_box(&mut buf[..]).into(), &tag)
                    .unwrap()
            })
        });
        g.bench_function(format!("chacha20poly1305/{size}"), |b| {
            b.iter(|| {
                buf.copy_from_slice(&cct);
                chacha
                    .decrypt_inout_detached(
                        &chacha_nonce,
                        b"",
                        black_box(&mut buf[..]).into(),
                        &ctag,
                    )
                    .unwrap()
            })
        });
    }
    g.finish();
}

/// Aggregate throughput of one batch call of `backend.lanes()` messages
/// (16 for AVX-512, 8 for AVX2, 4 for NEON, 1 for portable) of `size` bytes.
fn batch(c: &mut Criterion) {
    let nonces: Vec<aead::Nonce<GiftCofb>> = (0..16u8).map(|i| [i; 16].into()).collect();
    let chacha = chacha20poly1305::ChaCha20Poly1305::new(&[7u8; 32].into());
    for size in [1024usize, 64 * 1024] {
        let mut g = c.benchmark_group(format!("gift-cofb/batch-encrypt/{size}B-per-message"));
        configure(&mut g);
        for backend in Backend::available() {
            let gift = GiftCofb::new_with_backend(&[7u8; 16].into(), backend).unwrap();
            let n = backend.lanes();
            let mut bufs = vec![vec![0u8; size]; n];
            g.throughput(Throughput::Bytes((n * size) as u64));
            g.bench_function(format!("{backend}/{n}x{size}"), |b| {
                b.iter(|| {
                    let mut items: Vec<BatchItem> = nonces
                        .iter()
                        .zip(bufs.iter_mut())
                        .map(|(nonce, buf)| BatchItem::new(nonce, b"", buf))
                        .collect();
                    gift.encrypt_batch(black_box(&mut items));
                })
            });
        }
        // The peer, one message after the other (same aggregate as AVX-512).
        let n = 16;
        let mut bufs = vec![vec![0u8; size]; n];
        g.throughput(Throughput::Bytes((n * size) as u64));
        g.bench_function(format!("chacha20poly1305/{n}x{size}"), |b| {
            b.iter(|| {
                for (i, buf) in bufs.iter_mut().enumerate() {
                    let mut nonce = [0u8; 12];
                    nonce[0] = i as u8;
                    chacha
                        .encrypt_inout_detached(&nonce.into(), b"", black_box(&mut buf[..]).into())
                        .unwrap();
                }
            })
        });
        g.finish();

        let mut g = c.benchmark_group(format!("gift-cofb/batch-decrypt/{size}B-per-message"));
        configure(&mut g);
        for backend in Backend::available() {
            let gift = GiftCofb::new_with_backend(&[7u8; 16].into(), backend).unwrap();
            let n = backend.lanes();
            let mut cts = vec![vec![0u8; size]; n];
            let mut items: Vec<BatchItem> = nonces
                .iter()
                .zip(cts.iter_mut())
                .map(|(nonce, buf)| BatchItem::new(nonce, b"", buf))
                .collect();
            gift.encrypt_batch(&mut items);
            let tags: Vec<_> = items.iter().map(|it| *it.tag()).collect();
            drop(items);
            let mut bufs = cts.clone();
            g.throughput(Throughput::Bytes((n * size) as u64));
            g.bench_function(format!("{backend}/{n}x{size}"), |b| {
                b.iter(|| {
                    for (buf, ct) in bufs.iter_mut().zip(&cts) {
                        buf.copy_from_slice(ct);
                    }
                    let mut items: Vec<BatchItem> = nonces
                        .iter()
                        .zip(bufs.iter_mut())
                        .zip(&tags)
                        .map(|((nonce, buf), tag)| BatchItem::with_tag(nonce, b"", buf, tag))
                        .collect();
                    gift.decrypt_batch(black_box(&mut items)).unwrap();
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, single, batch);
criterion_main!(benches);
