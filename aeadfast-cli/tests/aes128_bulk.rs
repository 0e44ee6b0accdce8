//! The bulk AES-128 kernel equals the `aes` crate, record by record, on every backend and for
//! every record count around the kernel's group sizes (tails included).

use aeadfast_cli::aes128_bulk::encrypt_records;
use aes::Aes128;
use aes::cipher::{BlockCipherEncrypt, KeyInit};
use aes_lanes::Backend;

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

#[test]
fn kernel_equals_aes_crate_on_every_backend() {
    for records in (0..=70).chain([255, 256, 257, 1000]) {
        let keys = pseudo_random(16 * records, 1 + records as u64);
        let plains = pseudo_random(16 * records, 1000 + records as u64);
        let want = reference(&keys, &plains);
        for backend in Backend::available() {
            let mut out = vec![0u8; 16 * records];
            encrypt_records(backend.token().unwrap(), &keys, &plains, &mut out);
            assert!(out == want, "{backend}, {records} records");
        }
    }
}
