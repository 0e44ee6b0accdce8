//! The exported functions called from Rust exactly as C calls them (raw pointers: in place,
//! out of place, overlapping, NULL with length 0), against the `hiae` crate's Rust API. Small
//! inputs, so that it also runs under Miri, which checks the pointer handling of this crate's
//! `unsafe` code:
//!
//! ```text
//! cargo +nightly miri test -p aeadfast-hiae-capi --test ffi
//! ```
#![allow(unsafe_code)]

use core::ptr::{null, null_mut};

use hiae::{Hiae, HiaeX2, HiaeX4, Variant};
use hiae_capi::*;

const KEY: [u8; 32] = [7; 32];
const NONCE: [u8; 16] = [9; 16];

fn data(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed)
        .collect()
}

/// Ciphertext and tag from the Rust API.
fn reference<V: Variant>(ad: &[u8], msg: &[u8]) -> (Vec<u8>, [u8; 16]) {
    let c = V::new_from_slice(&KEY).unwrap();
    let mut ct = msg.to_vec();
    let tag = c
        .encrypt_inout_detached(&NONCE.into(), ad, ct.as_mut_slice().into())
        .unwrap();
    (ct, tag.into())
}

/// The functions of one variant, as C sees them.
struct Api {
    encrypt: unsafe extern "C" fn(
        *const u8,
        *const u8,
        *const u8,
        *mut u8,
        usize,
        *const u8,
        usize,
        *mut u8,
    ) -> i32,
    decrypt: unsafe extern "C" fn(
        *const u8,
        *const u8,
        *mut u8,
        *const u8,
        usize,
        *const u8,
        usize,
        *const u8,
    ) -> i32,
}

fn one_shot<V: Variant>(api: &Api) {
    // Few lengths under Miri (interpreted AES is slow), more natively.
    let lens: &[usize] = if cfg!(miri) {
        &[0, 5, 33]
    } else {
        &[0, 1, 15, 16, 17, 63, 64, 65, 200]
    };
    for &len in lens {
        let (ad, msg) = (data(len / 2, 1), data(len, 2));
        let (ct, tag) = reference::<V>(&ad, &msg);
        let mut out = vec![0u8; len];
        let mut t = [0u8; 16];
        let adp = if ad.is_empty() { null() } else { ad.as_ptr() };
        // SAFETY: every pointer is valid for its length (key 32, nonce 16, tag 16, buffers
        // `len` and `ad.len()` bytes) or NULL with length 0.
        unsafe {
            // Out of place.
            assert_eq!(
                (api.encrypt)(
                    KEY.as_ptr(),
                    NONCE.as_ptr(),
                    msg.as_ptr(),
                    out.as_mut_ptr(),
                    len,
                    adp,
                    ad.len(),
                    t.as_mut_ptr()
                ),
                0
            );
            assert_eq!((out.as_slice(), t), (ct.as_slice(), tag));
            // In place.
            let mut buf = msg.clone();
            let p = buf.as_mut_ptr();
            assert_eq!(
                (api.encrypt)(
                    KEY.as_ptr(),
                    NONCE.as_ptr(),
                    p,
                    p,
                    len,
                    adp,
                    ad.len(),
                    t.as_mut_ptr()
                ),
                0
            );
            assert_eq!(buf, ct);
            assert_eq!(
                (api.decrypt)(
                    KEY.as_ptr(),
                    NONCE.as_ptr(),
                    p,
                    p,
                    len,
                    adp,
                    ad.len(),
                    tag.as_ptr()
                ),
                0
            );
            assert_eq!(buf, msg);
            // Overlapping: input at offset 0, output at offset 3 of one allocation.
            let mut big = vec![0u8; len + 3];
            big[..len].copy_from_slice(&msg);
            let base = big.as_mut_ptr();
            assert_eq!(
                (api.encrypt)(
                    KEY.as_ptr(),
                    NONCE.as_ptr(),
                    base,
                    base.add(3),
                    len,
                    adp,
                    ad.len(),
                    t.as_mut_ptr()
                ),
                0
            );
            assert_eq!(&big[3..], ct.as_slice());
            // A wrong tag: -1 and a zeroed output.
            let mut bad = tag;
            bad[0] ^= 1;
            out.fill(0xaa);
            assert_eq!(
                (api.decrypt)(
                    KEY.as_ptr(),
                    NONCE.as_ptr(),
                    out.as_mut_ptr(),
                    ct.as_ptr(),
                    len,
                    adp,
                    ad.len(),
                    bad.as_ptr()
                ),
                -1
            );
            assert!(out.iter().all(|&b| b == 0));
            // NULL where a length is given.
            assert_eq!(
                (api.encrypt)(
                    null(),
                    NONCE.as_ptr(),
                    msg.as_ptr(),
                    out.as_mut_ptr(),
                    len,
                    adp,
                    ad.len(),
                    t.as_mut_ptr()
                ),
                -1
            );
        }
    }
}

#[test]
fn one_shot_hiae() {
    one_shot::<Hiae>(&Api {
        encrypt: HiAE_encrypt,
        decrypt: HiAE_decrypt,
    });
}

#[test]
fn one_shot_hiaex2() {
    one_shot::<HiaeX2>(&Api {
        encrypt: HiAEx2_encrypt,
        decrypt: HiAEx2_decrypt,
    });
}

#[test]
fn one_shot_hiaex4() {
    one_shot::<HiaeX4>(&Api {
        encrypt: HiAEx4_encrypt,
        decrypt: HiAEx4_decrypt,
    });
}

/// Streaming in odd pieces and the block API, on a stream state and a state in Rust memory
/// (a `Box`, as C would allocate it), for HiAEx2 (the lane-by-lane buffering).
#[test]
fn stream_and_block_hiaex2() {
    let len = if cfg!(miri) { 45 } else { 300 };
    let (ad, msg) = (data(19, 3), data(len, 4));
    let (ct, tag) = reference::<HiaeX2>(&ad, &msg);
    let mut s: Box<HiAEx2_stream_state_t> = Box::new(StreamState {
        state: State { opaque: [0; 512] },
        buffer: [0; 16],
        offset: 0,
        ad_len: 0,
        msg_len: 0,
        phase: 0,
        mode: 0,
    });
    let mut out = vec![0u8; len];
    let mut t = [0u8; 16];
    // SAFETY: the stream is a valid `HiAEx2_stream_state_t` used by this thread only; every
    // buffer pointer is valid for the length passed with it.
    unsafe {
        HiAEx2_stream_init(&mut *s, KEY.as_ptr(), NONCE.as_ptr());
        HiAEx2_stream_absorb(&mut *s, ad.as_ptr(), 7);
        HiAEx2_stream_absorb(&mut *s, null(), 0);
        HiAEx2_stream_absorb(&mut *s, ad.as_ptr().add(7), ad.len() - 7);
        let mut at = 0;
        for step in [3usize, 16, 1, 40, 13].iter().cycle() {
            let n = (*step).min(len - at);
            HiAEx2_stream_encrypt(&mut *s, out.as_mut_ptr().add(at), msg.as_ptr().add(at), n);
            at += n;
            if at == len {
                break;
            }
        }
        HiAEx2_stream_finalize(&mut *s, t.as_mut_ptr());
        assert_eq!((out.as_slice(), t), (ct.as_slice(), tag));
        assert_eq!(s.phase, HiAEx2_STREAM_FINAL);

        HiAEx2_stream_init(&mut *s, KEY.as_ptr(), NONCE.as_ptr());
        HiAEx2_stream_absorb(&mut *s, ad.as_ptr(), ad.len());
        let p = out.as_mut_ptr();
        HiAEx2_stream_decrypt(&mut *s, p, p, 21);
        HiAEx2_stream_decrypt(&mut *s, p.add(21), p.add(21), len - 21);
        assert_eq!(HiAEx2_stream_verify(&mut *s, tag.as_ptr()), 0);
        assert_eq!(out, msg);

        let mut st: Box<HiAEx2_state_t> = Box::new(State { opaque: [0; 512] });
        HiAEx2_init(&mut *st, KEY.as_ptr(), NONCE.as_ptr());
        HiAEx2_absorb(&mut *st, ad.as_ptr(), ad.len());
        HiAEx2_enc(&mut *st, out.as_mut_ptr(), msg.as_ptr(), 32);
        let mut ks = [0u8; 5];
        HiAEx2_enc_partial_noupdate(&mut *st, ks.as_mut_ptr(), msg.as_ptr().add(32), 5);
        assert_eq!(ks, ct[32..37]);
        HiAEx2_enc(
            &mut *st,
            out.as_mut_ptr().add(32),
            msg.as_ptr().add(32),
            len - 32,
        );
        HiAEx2_finalize(&mut *st, ad.len() as u64, len as u64, t.as_mut_ptr());
        assert_eq!((out.as_slice(), t), (ct.as_slice(), tag));
    }
}

#[test]
fn names_and_tags() {
    // SAFETY: C strings from the library are static and NUL-terminated; tags are 16 bytes.
    unsafe {
        let name = HiAE_get_implementation_name();
        assert!(!name.0.is_null());
        assert_eq!(HiAE_force_implementation(name), 0);
        assert_eq!(HiAE_force_implementation(CStrPtr(c"Software".as_ptr())), 0);
        assert_eq!(
            core::ffi::CStr::from_ptr(HiAE_get_implementation_name().0),
            c"Portable"
        );
        assert_eq!(HiAE_force_implementation(CStrPtr(c"nope".as_ptr())), -1);
        assert_eq!(HiAE_force_implementation(CStrPtr(null())), 0);
        let (a, mut b) = ([1u8; 16], [1u8; 16]);
        assert_eq!(HiAE_verify_tag(a.as_ptr(), b.as_ptr()), 0);
        b[15] = 0;
        assert_eq!(HiAE_verify_tag(a.as_ptr(), b.as_ptr()), -1);
        assert_eq!(HiAE_verify_tag(null(), b.as_ptr()), -1);
        HiAE_stream_finalize(null_mut(), null_mut());
    }
}
