//! Bulk AES-128, one key per 16-byte record (fastAES's workload), in memory and on one core:
//! the `aeadfast aes128` kernel per backend against the `aes` crate encrypting record by
//! record (key schedule + block, as a straightforward program would). Reported in records
//! (= AES encryptions) per second.

use std::hint::black_box;

use aeadfast_benches::{group, input};
use aes::Aes128;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use aes_lanes::Backend;
use aes_lanes::aes128::encrypt_records;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

const RECORDS: usize = 1 << 16;

fn bulk(c: &mut Criterion) {
    let keys = input(16 * RECORDS);
    let plains: Vec<u8> = input(16 * RECORDS + 7)[7..].to_vec();
    let mut out = vec![0u8; 16 * RECORDS];
    let mut g = group(c, "aes128_bulk");
    g.throughput(Throughput::Elements(RECORDS as u64));
    for backend in Backend::available() {
        let token = backend.token().unwrap();
        g.bench_function(format!("aeadfast/{}", backend.name()), |b| {
            b.iter(|| encrypt_records(token, black_box(&keys), black_box(&plains), &mut out))
        });
    }
    g.bench_function("aes-crate/per-record", |b| {
        b.iter(|| {
            for ((k, p), o) in keys
                .chunks_exact(16)
                .zip(plains.chunks_exact(16))
                .zip(out.chunks_exact_mut(16))
            {
                let cipher = Aes128::new_from_slice(k).unwrap();
                cipher.encrypt_block_b2b(p.try_into().unwrap(), o.try_into().unwrap());
            }
        })
    });
    g.finish();
}

criterion_group!(benches, bulk);
criterion_main!(benches);
