//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::{Read, Write};

use aeadfast_file::{Algorithm, Decryptor, Encryptor};

/// Deterministic pseudo-random bytes.
pub fn pattern(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2654435761) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

/// A key of the right length for `alg`.
pub fn key(alg: Algorithm) -> Vec<u8> {
    (0..alg.key_len() as u8)
        .map(|i| i.wrapping_mul(37) ^ 0x5a)
        .collect()
}

/// Encrypts `msg` in one `write_all` with a fixed nonce prefix (so outputs compare).
pub fn encrypt(alg: Algorithm, log2: u8, ad: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut enc = Encryptor::builder(alg)
        .chunk_log2(log2)
        .associated_data(ad)
        .insecure_nonce_prefix([0x11; 11])
        .build(Vec::new(), &key(alg))
        .unwrap();
    enc.write_all(msg).unwrap();
    enc.finish().unwrap()
}

/// Decrypts a whole file with `read_to_end`.
pub fn decrypt(alg: Algorithm, ad: &[u8], file: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut dec = Decryptor::builder()
        .associated_data(ad)
        .read_header(file)?
        .unlock_with_key(&key(alg))?;
    let mut out = Vec::new();
    dec.read_to_end(&mut out)?;
    Ok(out)
}
