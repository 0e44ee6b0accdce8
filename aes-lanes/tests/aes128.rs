//! The bulk AES-128 kernel equals the `aes` crate, record by record, on every backend and for
//! every record count around the kernel's group sizes (tails included).

use aes::Aes128;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use aes_lanes::Backend;
use aes_lanes::aes128::encrypt_records;

fn reference(keys: &[u8], plains: &[u8]) -> Vec<u8> {
    let mut out = plains.to_vec();
    for (k, block) in keys.chunks_exact(16).zip(out.chunks_exact_mut(16)) {
        let cipher = Aes128::new_from_slice(k).unwrap();
        cipher.encrypt_block(block.try_into().unwrap());
    }
    out
}

fn pseudo_random(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// The backends under test: every one available, or exactly those named in `TEST_BACKENDS`
/// (comma-separated; an unknown or unavailable name is an error, never a silent skip).
fn backends() -> Vec<Backend> {
    let list = std::env::var("TEST_BACKENDS").ok();
    Backend::select(list.as_deref())
        .unwrap_or_else(|e| panic!("TEST_BACKENDS: {e}"))
        .collect()
}

#[test]
fn kernel_equals_aes_crate_on_every_backend() {
    // Under Miri (the CI runs that interpret the VAES-AVX512 tier and the portable path) the
    // record counts around the kernel's group sizes (up to 32 records per step) only, and a
    // few for the interpreted bitsliced code, which takes seconds per record there.
    let counts: Vec<usize> = if cfg!(miri) {
        vec![
            0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65,
        ]
    } else {
        (0..=70).chain([255, 256, 257, 1000]).collect()
    };
    // One set of records, its reference computed once (interpreted, the `aes` crate's
    // software AES dominated this test); each count takes a prefix.
    let max = counts.iter().copied().max().unwrap_or(0);
    let all_keys = pseudo_random(16 * max, 1);
    let all_plains = pseudo_random(16 * max, 1000);
    let all_want = reference(&all_keys, &all_plains);
    for records in counts {
        let n = 16 * records;
        let (keys, plains, want) = (&all_keys[..n], &all_plains[..n], &all_want[..n]);
        for &backend in &backends() {
            if cfg!(miri) && backend == Backend::Portable && ![0, 1, 17].contains(&records) {
                continue;
            }
            let mut out = vec![0u8; 16 * records];
            encrypt_records(backend.token().unwrap(), keys, plains, &mut out);
            assert!(out == want, "{backend}, {records} records");
        }
    }
}
