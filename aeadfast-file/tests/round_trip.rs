//! Round trips through `Encryptor` / `Decryptor` at the sizes around chunk and batch
//! boundaries, every algorithm, several chunk sizes; write splits and the pipelined copies
//! give the same bytes as one `write_all`; the frozen test vector.

mod common;

use std::io::{Read, Write};

use aeadfast_file::pipeline::{OPEN_MIN_BATCH_BYTES, SEAL_MIN_BATCH_BYTES, chunks_per_batch};
use aeadfast_file::{Algorithm, Decryptor, Encryptor, KeySource, layout};
use common::{decrypt, encrypt, key, pattern};

#[test]
fn sizes_around_chunk_and_batch_boundaries() {
    for alg in Algorithm::ALL {
        for log2 in [6u8, 7, 9] {
            let c = 1usize << log2;
            // Small batches (5 chunks), so that batch boundaries are cheap to cross.
            let batch = 5 * c;
            for len in [
                0,
                1,
                c - 1,
                c,
                c + 1,
                5 * c + 3,
                batch - 1,
                batch,
                batch + 1,
                2 * batch + c,
            ] {
                let msg = pattern(len, len as u32);
                let file = encrypt(alg, log2, b"ad", &msg);
                let mut enc = Encryptor::builder(alg)
                    .chunk_log2(log2)
                    .associated_data(b"ad")
                    .insecure_nonce_prefix([0x11; 11])
                    .batch_size(batch)
                    .build(Vec::new(), &key(alg))
                    .unwrap();
                enc.write_all(&msg).unwrap();
                assert!(enc.finish().unwrap() == file, "batch size {batch}");
                assert_eq!(
                    file.len() as u64,
                    layout::encrypted_len(24, len as u64, log2).unwrap(),
                    "{alg} {log2} {len}"
                );
                assert!(
                    decrypt(alg, b"ad", &file).unwrap() == msg,
                    "{alg} {log2} {len}"
                );
                let mut dec = Decryptor::builder()
                    .associated_data(b"ad")
                    .batch_size(batch)
                    .read_header(&file[..])
                    .unwrap()
                    .unlock_with_key(&key(alg))
                    .unwrap();
                let mut out = Vec::new();
                dec.read_to_end(&mut out).unwrap();
                assert!(out == msg, "small batches {alg} {log2} {len}");
                // The pipelined copy gives the same.
                let mut dec = Decryptor::builder()
                    .associated_data(b"ad")
                    .batch_size(batch)
                    .read_header(&file[..])
                    .unwrap()
                    .unlock_with_key(&key(alg))
                    .unwrap();
                let mut out = Vec::new();
                assert_eq!(dec.copy_to(&mut out).unwrap(), len as u64);
                assert!(out == msg, "copy_to {alg} {log2} {len}");
                assert_eq!(dec.verified_len(), Some(len as u64));
                // And the copy that opens straight from the buffer.
                let mut dec = Decryptor::builder()
                    .associated_data(b"ad")
                    .batch_size(batch)
                    .read_header(&file[..])
                    .unwrap()
                    .unlock_with_key(&key(alg))
                    .unwrap();
                let mut out = Vec::new();
                assert_eq!(dec.copy_buffered_to(&mut out).unwrap(), len as u64);
                assert!(out == msg, "copy_buffered_to {alg} {log2} {len}");
                assert_eq!(dec.verified_len(), Some(len as u64));
                // And encryption through copy_from.
                let mut enc = Encryptor::builder(alg)
                    .chunk_log2(log2)
                    .associated_data(b"ad")
                    .insecure_nonce_prefix([0x11; 11])
                    .batch_size(batch)
                    .build(Vec::new(), &key(alg))
                    .unwrap();
                assert_eq!(enc.copy_from(&msg[..]).unwrap(), len as u64);
                assert!(
                    enc.finish().unwrap() == file,
                    "copy_from {alg} {log2} {len}"
                );
            }
        }
    }
}

#[test]
fn default_sizes_across_batches() {
    // Default chunk and batch sizes, a little over two batches.
    let len = 2 * chunks_per_batch(18, SEAL_MIN_BATCH_BYTES) * (1 << 18) + 1000;
    let msg = pattern(len, 77);
    let file = encrypt(Algorithm::Hiae, 18, b"", &msg);
    assert!(decrypt(Algorithm::Hiae, b"", &file).unwrap() == msg);
    let mut out = Vec::new();
    Decryptor::new(&file[..], &key(Algorithm::Hiae))
        .unwrap()
        .copy_to(&mut out)
        .unwrap();
    assert!(out == msg);
    out.clear();
    let mut dec = Decryptor::new(std::io::Cursor::new(&file), &key(Algorithm::Hiae)).unwrap();
    assert_eq!(dec.copy_buffered_to(&mut out).unwrap(), len as u64);
    assert!(out == msg);
    let mut enc = Encryptor::builder(Algorithm::Hiae)
        .insecure_nonce_prefix([0x11; 11])
        .build(Vec::new(), &key(Algorithm::Hiae))
        .unwrap();
    enc.copy_from(&msg[..]).unwrap();
    assert!(enc.finish().unwrap() == file);
}

#[test]
fn default_chunk_size_many_chunks() {
    let msg = pattern((3 << 20) + 12345, 9);
    let file = encrypt(Algorithm::HiaeX4, 18, b"", &msg);
    assert!(decrypt(Algorithm::HiaeX4, b"", &file).unwrap() == msg);
    // Small reads (8 KiB, as io::copy does) give the same.
    let mut dec = Decryptor::new(&file[..], &key(Algorithm::HiaeX4)).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = dec.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
    }
    assert!(out == msg);
}

#[test]
fn write_splits_and_flushes_give_the_same_bytes() {
    let msg = pattern(10_000, 3);
    for log2 in [6u8, 8] {
        let want = encrypt(Algorithm::Hiae, log2, b"x", &msg);
        for seed in 0..20u32 {
            let mut enc = Encryptor::builder(Algorithm::Hiae)
                .chunk_log2(log2)
                .associated_data(b"x")
                .insecure_nonce_prefix([0x11; 11])
                .build(Vec::new(), &key(Algorithm::Hiae))
                .unwrap();
            let sizes = pattern(64, seed);
            let mut at = 0;
            let mut i = 0;
            while at < msg.len() {
                let n = (usize::from(sizes[i % 64]) * (1 + seed as usize % 9)).min(msg.len() - at);
                enc.write_all(&msg[at..at + n]).unwrap();
                if sizes[(i + 7) % 64] < 40 {
                    enc.flush().unwrap();
                }
                at += n;
                i += 1;
            }
            assert!(enc.finish().unwrap() == want, "log2 {log2} seed {seed}");
        }
    }
}

#[test]
fn passphrase_files() {
    let msg = pattern(1000, 1);
    let params = aeadfast_file::Argon2Params {
        m_kib: 64,
        t: 1,
        p: 1,
        salt: [4; 16],
    };
    let mut enc = Encryptor::builder(Algorithm::GiftCofb)
        .chunk_log2(6)
        .argon2_params(params)
        .build_with_passphrase(Vec::new(), b"correct horse")
        .unwrap();
    assert_eq!(enc.header().key_source, KeySource::Argon2id(params));
    enc.write_all(&msg).unwrap();
    let file = enc.finish().unwrap();
    assert_eq!(file.len(), 52 + 1000 + 16 * 16);
    let mut out = Vec::new();
    Decryptor::with_passphrase(&file[..], b"correct horse")
        .unwrap()
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, msg);
    // The derived key works as a raw key too.
    let raw = params.derive(b"correct horse", 16).unwrap();
    let mut out = Vec::new();
    Decryptor::new(&file[..], &raw)
        .unwrap()
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, msg);
}

#[test]
fn frozen_test_vector() {
    // FORMAT.md's vector: HiAE, chunk 2^6, key 00..1f, prefix 00..0a, AD "vector-ad".
    let key: Vec<u8> = (0u8..32).collect();
    let msg = std::fs::read("tests/data/native_v1.txt").unwrap();
    let want = std::fs::read("tests/data/native_v1.af").unwrap();
    let mut enc = Encryptor::builder(Algorithm::Hiae)
        .chunk_log2(6)
        .associated_data(b"vector-ad")
        .insecure_nonce_prefix(core::array::from_fn(|i| i as u8))
        .build(Vec::new(), &key)
        .unwrap();
    enc.write_all(&msg).unwrap();
    assert!(enc.finish().unwrap() == want);
    let mut out = Vec::new();
    Decryptor::builder()
        .associated_data(b"vector-ad")
        .read_header(&want[..])
        .unwrap()
        .unlock_with_key(&key)
        .unwrap()
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, msg);
}

#[test]
fn large_reads_receive_whole_batches_directly() {
    // A read buffer larger than a batch takes the path that opens straight into it.
    let log2 = 6;
    let msg = pattern(
        chunks_per_batch(log2, OPEN_MIN_BATCH_BYTES) * 64 * 3 + 10,
        5,
    );
    let file = encrypt(Algorithm::Hiae, log2, b"", &msg);
    let mut dec = Decryptor::new(&file[..], &key(Algorithm::Hiae)).unwrap();
    let mut out = vec![0u8; msg.len() + 100];
    let mut at = 0;
    loop {
        let n = dec.read(&mut out[at..]).unwrap();
        if n == 0 {
            break;
        }
        at += n;
    }
    assert_eq!(at, msg.len());
    assert!(out[..at] == msg[..]);
}
