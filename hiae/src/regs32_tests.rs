//! The deferred-XOR loops (`regs32`) against the plain ones.
//!
//! In normal use the deferred loops run only on the VAES-AVX512 backend. These tests run both
//! forms through every backend this machine has (and through the VAES-AVX512 one under Miri
//! with AVX-512 target features, see `.ci/run`), so the deferred algorithm itself is checked
//! at one, two and four lanes even where AVX-512 is missing, over lengths that reach the
//! chunk loop of every width (the vector files have few such messages), against another
//! backend's plain loops.

use core::marker::PhantomData;
use std::{vec, vec::Vec};

use aead::inout::InOutBuf;
use aes_lanes::Backend;

use crate::ops::{MacOneShot, OneShot};
use crate::{Hiae, HiaeX2, HiaeX4, Variant};

const KEY: [u8; 32] = [0x5a; 32];
const NONCE: [u8; 16] = [0xc3; 16];

/// Bytes that differ from block to block (a repeating pattern could hide a lane mix-up).
fn data(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[1] ^ seed)
        .collect()
}

/// Lengths around the 256·d-byte chunk: none, tails only, one chunk, two chunks (the pending
/// XORs cross a chunk boundary) plus whole and partial tail blocks.
fn lengths<V: Variant>() -> [usize; 6] {
    let chunk = 256 * V::LANES;
    let block = 16 * V::LANES;
    [
        0,
        block + 3,
        chunk - 1,
        chunk,
        2 * chunk + 3 * block,
        2 * chunk + 5 * block + 7,
    ]
}

/// One-shot encryption (`DEC = false`) or decryption of `input`: the output and the tag
/// (computed, not checked).
fn crypt<V: Variant, const DEC: bool, const R32: bool>(
    b: Backend,
    ad: &[u8],
    input: &[u8],
) -> (Vec<u8>, [u8; 16]) {
    let mut out = vec![0u8; input.len()];
    let mut buf = InOutBuf::new(input, &mut out).unwrap();
    let tag = b.token().unwrap().dispatch(OneShot::<V, DEC, R32> {
        key: &KEY,
        nonce: &NONCE,
        ad,
        buf: &mut buf,
        _v: PhantomData,
    });
    (out, tag)
}

fn mac<V: Variant, const R32: bool>(b: Backend, msg: &[u8]) -> [u8; 16] {
    b.token().unwrap().dispatch(MacOneShot::<V, R32> {
        key: &KEY,
        nonce: &NONCE,
        data: msg,
        _v: PhantomData,
    })
}

/// Runs [`check_on`] in a thread with a large stack: the unoptimized test build of the
/// 16-way unrolled loops (both forms in one function) needs more than the default 2 MiB.
fn check<V: Variant + 'static>() {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(check_on::<V>)
        .unwrap()
        .join()
        .unwrap();
}

/// Every available backend, or those named in `TEST_BACKENDS` (as in the integration tests).
fn backends() -> Vec<Backend> {
    let list = std::env::var("TEST_BACKENDS").ok();
    Backend::select(list.as_deref())
        .unwrap_or_else(|e| panic!("TEST_BACKENDS: {e}"))
        .collect()
}

/// The backend whose plain loops serve as the reference: the slowest one with AES
/// instructions (AES-NI on x86-64; fast under Miri too, unlike the portable one), else the
/// portable one.
fn reference() -> Backend {
    Backend::available()
        .filter(|&b| b != Backend::Portable)
        .last()
        .unwrap_or(Backend::Portable)
}

fn check_on<V: Variant>() {
    let r = reference();
    for b in backends() {
        for len in lengths::<V>() {
            let msg = data(len, 0x11);
            let ad = data(len / 2 + 1, 0x22);
            let plain = crypt::<V, false, false>(b, &ad, &msg);
            assert!(
                plain == crypt::<V, false, false>(r, &ad, &msg),
                "{} on {}: encryption differs from {} at {len} bytes",
                V::NAME,
                b.name(),
                r.name()
            );
            let deferred = crypt::<V, false, true>(b, &ad, &msg);
            assert!(
                plain == deferred,
                "{} on {}: deferred encryption differs at {len} bytes",
                V::NAME,
                b.name()
            );
            let (pt, tag) = crypt::<V, true, true>(b, &ad, &deferred.0);
            assert!(
                pt == msg && tag == plain.1,
                "{} on {}: decryption after deferred encryption fails at {len} bytes",
                V::NAME,
                b.name()
            );
            let tag = mac::<V, false>(b, &msg);
            assert_eq!(
                tag,
                mac::<V, false>(r, &msg),
                "{} on {}: MAC differs from {} at {len} bytes",
                V::NAME,
                b.name(),
                r.name()
            );
            assert_eq!(
                tag,
                mac::<V, true>(b, &msg),
                "{} on {}: deferred MAC differs at {len} bytes",
                V::NAME,
                b.name()
            );
        }
    }
}

#[test]
fn regs32_hiae() {
    check::<Hiae>();
}

#[test]
fn regs32_hiaex2() {
    check::<HiaeX2>();
}

#[test]
fn regs32_hiaex4() {
    check::<HiaeX4>();
}
