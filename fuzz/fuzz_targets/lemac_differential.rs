//! Differential fuzzing of LeMac, LeMacX2 and LeMacX4: every backend the CPU can run must give
//! the portable backend's tag, and streaming with the input's own split points must give the
//! one-shot tag (through `update` with the nonce given at construction and at the end), and
//! the universal hash must agree between one-shot and streaming.
//!
//! Input layout (raw bytes, no `arbitrary`): `[variant]`, 16-byte key, 16-byte nonce,
//! `[n_cuts]`, `n_cuts` (≤ 16) two-byte little-endian split points, then the message.
#![no_main]

use lemac::{Backend, LeMacKeyGeneric, LeMacUhGeneric, Mac, Supported, Width};
use libfuzzer_sys::fuzz_target;

fn check<const D: usize>(key: &[u8; 16], nonce: &[u8; 16], cuts: &[usize], msg: &[u8])
where
    Width<D>: Supported<D>,
{
    let portable = LeMacKeyGeneric::<D>::new_with_backend(key, Backend::Portable).unwrap();
    let expected = portable.mac(msg, nonce);
    let h = portable.uhash(msg);
    for backend in Backend::available() {
        let k = LeMacKeyGeneric::<D>::new_with_backend(key, backend).unwrap();
        assert_eq!(k.mac(msg, nonce), expected, "D={D} {backend} one-shot");
        assert_eq!(k.uhash(msg), h, "D={D} {backend} uhash");

        let mut early = k.hasher_with_nonce(nonce);
        let mut late = k.hasher();
        let mut uh = LeMacUhGeneric::<D>::from_key(k.clone());
        let mut at = 0;
        for &c in cuts {
            let c = c.clamp(at, msg.len());
            early.update(&msg[at..c]);
            late.update(&msg[at..c]);
            uh.update_bytes(&msg[at..c]);
            at = c;
        }
        early.update(&msg[at..]);
        late.update(&msg[at..]);
        uh.update_bytes(&msg[at..]);
        assert_eq!(early.finalize_tag(), expected, "D={D} {backend} streaming");
        assert_eq!(
            late.finalize_with_nonce(nonce),
            expected,
            "D={D} {backend} late nonce"
        );
        let uh_out: [u8; 16] = lemac::universal_hash::UniversalHash::finalize(uh).into();
        assert_eq!(uh_out, h, "D={D} {backend} streaming uhash");
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 34 {
        return;
    }
    let variant = data[0];
    let key: [u8; 16] = data[1..17].try_into().unwrap();
    let nonce: [u8; 16] = data[17..33].try_into().unwrap();
    let n_cuts = usize::from(data[33] % 17);
    let mut rest = &data[34..];
    let mut cuts = Vec::with_capacity(n_cuts);
    for _ in 0..n_cuts {
        if rest.len() < 2 {
            break;
        }
        cuts.push(usize::from(u16::from_le_bytes([rest[0], rest[1]])));
        rest = &rest[2..];
    }
    cuts.sort_unstable();
    match variant % 3 {
        0 => check::<1>(&key, &nonce, &cuts, rest),
        1 => check::<2>(&key, &nonce, &cuts, rest),
        _ => check::<4>(&key, &nonce, &cuts, rest),
    }
});
