//! Quick throughput check (not a benchmark; use `cargo bench -p aeadfast-benches --bench hiae`).
//!
//! `cargo run --release -p aeadfast-hiae --example hiae_speed [size] [filter]`

use std::time::Instant;

use hiae::{Backend, Hiae, HiaeX2, HiaeX4, Variant};

fn run<V: Variant>(make: impl Fn(Backend) -> V, size: usize, filter: &str) {
    for b in Backend::available() {
        if !b.name().contains(filter) && !V::NAME.contains(filter) && !filter.is_empty() {
            continue;
        }
        let token = b.token().expect("listed as available");
        let c = make(b);
        let mut buf = vec![7u8; size];
        let nonce = [1u8; 16].into();
        let iters = (1usize << 30) / size / if b == Backend::Portable { 100 } else { 1 };
        let gbps = |t: f64| (iters * size) as f64 * 8.0 / t / 1e9;
        let mut best = [0f64; 4];
        for _ in 0..5 {
            let t = Instant::now();
            let mut tag = Default::default();
            for _ in 0..iters {
                tag = c
                    .encrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into())
                    .unwrap();
            }
            best[0] = best[0].max(gbps(t.elapsed().as_secs_f64()));
            // Decrypt: encrypt once, then decrypt a fresh copy each time from the same ct.
            let ct = buf.clone();
            let mut out = vec![0u8; size];
            let t = Instant::now();
            for _ in 0..iters {
                let _ = c.decrypt_inout_detached(
                    &nonce,
                    b"",
                    aead::inout::InOutBuf::new(&ct, &mut out).unwrap(),
                    &tag,
                );
            }
            best[1] = best[1].max(gbps(t.elapsed().as_secs_f64()));
            // In-place decrypt: time (decrypt; re-encrypt) pairs minus the encryption time.
            let t = Instant::now();
            for _ in 0..iters {
                c.decrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into(), &tag)
                    .unwrap();
                tag = c
                    .encrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into())
                    .unwrap();
            }
            let pair = t.elapsed().as_secs_f64();
            let enc = (iters * size) as f64 * 8.0 / best[0] / 1e9;
            best[3] = best[3].max(gbps(pair - enc));
            let t = Instant::now();
            for _ in 0..iters {
                std::hint::black_box(hiae::mac_with_token::<V>(token, &[1; 32], &[2; 16], &buf));
            }
            best[2] = best[2].max(gbps(t.elapsed().as_secs_f64()));
        }
        println!(
            "{:7} {:12} {size:8}  enc {:6.1}  dec {:6.1}  dec(oop) {:6.1}  mac {:6.1} Gbps",
            V::NAME,
            b.name(),
            best[0],
            best[3],
            best[1],
            best[2]
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size = args.get(1).map(|s| s.parse().unwrap()).unwrap_or(65536);
    let filter = args.get(2).cloned().unwrap_or_default();
    run(
        |b| Hiae::new_with_backend(&[1; 32].into(), b).unwrap(),
        size,
        &filter,
    );
    run(
        |b| HiaeX2::new_with_backend(&[1; 32].into(), b).unwrap(),
        size,
        &filter,
    );
    run(
        |b| HiaeX4::new_with_backend(&[1; 32].into(), b).unwrap(),
        size,
        &filter,
    );
}
