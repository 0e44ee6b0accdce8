//! Property tests: every backend equals the portable one; streaming with random splits equals
//! one-shot; any single-bit change of message, nonce or key changes the tag; `verify` rejects
//! wrong tags. `PROPTEST_CASES` sets the number of cases (default 256).

mod common;

use digest::Mac;
use lemac::{Backend, LeMacGeneric, LeMacKeyGeneric, Supported, Width};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(common::proptest_cases(256))
}

fn backends_agree<const D: usize>(key: &[u8; 16], nonce: &[u8; 16], msg: &[u8])
where
    Width<D>: Supported<D>,
{
    let reference = LeMacKeyGeneric::<D>::new_with_backend(key, Backend::Portable)
        .unwrap()
        .mac(msg, nonce);
    for b in common::backends() {
        let k = LeMacKeyGeneric::<D>::new_with_backend(key, b).unwrap();
        assert_eq!(k.mac(msg, nonce), reference, "D={D} backend {b}");
    }
}

fn split_equals_oneshot<const D: usize>(
    key: &[u8; 16],
    nonce: &[u8; 16],
    msg: &[u8],
    cuts: &[usize],
) where
    Width<D>: Supported<D>,
{
    let k = LeMacKeyGeneric::<D>::new(key);
    let expected = k.mac(msg, nonce);
    let mut m = k.hasher_with_nonce(nonce);
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (msg.len() + 1)).collect();
    cuts.sort_unstable();
    let mut at = 0;
    for c in cuts {
        m.update(&msg[at..c]);
        at = c;
    }
    m.update(&msg[at..]);
    assert_eq!(m.finalize_tag(), expected, "D={D}");
}

fn bit_flips_change_tag<const D: usize>(key: [u8; 16], nonce: [u8; 16], msg: &[u8], bit: usize)
where
    Width<D>: Supported<D>,
{
    let k = LeMacKeyGeneric::<D>::new(&key);
    let tag = k.mac(msg, &nonce);
    if !msg.is_empty() {
        let mut m = msg.to_vec();
        m[(bit / 8) % msg.len()] ^= 1 << (bit % 8);
        assert_ne!(k.mac(&m, &nonce), tag, "D={D} message bit");
        // Also distinct from the message with the bit removed (length extension by padding).
        assert_ne!(
            k.mac(&msg[..msg.len() - 1], &nonce),
            tag,
            "D={D} truncation"
        );
    }
    let mut n = nonce;
    n[(bit / 8) % 16] ^= 1 << (bit % 8);
    assert_ne!(k.mac(msg, &n), tag, "D={D} nonce bit");
    let mut kk = key;
    kk[(bit / 8) % 16] ^= 1 << (bit % 8);
    assert_ne!(
        LeMacKeyGeneric::<D>::new(&kk).mac(msg, &nonce),
        tag,
        "D={D} key bit"
    );
}

fn verify_rejects<const D: usize>(key: &[u8; 16], nonce: &[u8; 16], msg: &[u8], bit: usize)
where
    Width<D>: Supported<D>,
{
    let k = LeMacKeyGeneric::<D>::new(key);
    let tag = k.mac(msg, nonce);
    let mut bad = tag;
    bad[(bit / 8) % 16] ^= 1 << (bit % 8);
    assert!(k.verify(msg, nonce, &tag).is_ok());
    assert!(k.verify(msg, nonce, &bad).is_err());
    let mac = || {
        let mut m = LeMacGeneric::<D>::new_with_nonce(key, nonce);
        Mac::update(&mut m, msg);
        m
    };
    assert!(mac().verify(&tag.into()).is_ok());
    assert!(mac().verify(&bad.into()).is_err());
    assert!(mac().verify_slice(&bad).is_err());
    assert!(mac().verify_slice(&tag[..15]).is_err());
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn every_backend_equals_portable(
        key in any::<[u8; 16]>(),
        nonce in any::<[u8; 16]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..700),
    ) {
        backends_agree::<1>(&key, &nonce, &msg);
        backends_agree::<2>(&key, &nonce, &msg);
        backends_agree::<4>(&key, &nonce, &msg);
    }

    #[test]
    fn streaming_equals_oneshot(
        key in any::<[u8; 16]>(),
        nonce in any::<[u8; 16]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..1200),
        cuts in proptest::collection::vec(any::<usize>(), 0..8),
    ) {
        split_equals_oneshot::<1>(&key, &nonce, &msg, &cuts);
        split_equals_oneshot::<2>(&key, &nonce, &msg, &cuts);
        split_equals_oneshot::<4>(&key, &nonce, &msg, &cuts);
    }

    #[test]
    fn any_bit_flip_changes_the_tag(
        key in any::<[u8; 16]>(),
        nonce in any::<[u8; 16]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..300),
        bit in any::<usize>(),
    ) {
        bit_flips_change_tag::<1>(key, nonce, &msg, bit);
        bit_flips_change_tag::<2>(key, nonce, &msg, bit);
        bit_flips_change_tag::<4>(key, nonce, &msg, bit);
    }

    #[test]
    fn verify_rejects_a_wrong_tag(
        key in any::<[u8; 16]>(),
        nonce in any::<[u8; 16]>(),
        msg in proptest::collection::vec(any::<u8>(), 0..300),
        bit in any::<usize>(),
    ) {
        verify_rejects::<1>(&key, &nonce, &msg, bit);
        verify_rejects::<2>(&key, &nonce, &msg, bit);
        verify_rejects::<4>(&key, &nonce, &msg, bit);
    }
}

/// Every backend equals the portable one on long messages whose lengths straddle the 16 KiB
/// pieces over which several-register lane values (`Wide`) are absorbed one part at a time,
/// one-shot and streamed in 5000-byte updates.
fn long_messages_agree<const D: usize>()
where
    Width<D>: Supported<D>,
{
    let key = [0x3cu8; 16];
    let nonce = [0xc3u8; 16];
    let piece = 16 * 1024;
    let chunk = 64 * D;
    for len in [
        piece - 1,
        piece,
        piece + 5 * chunk + 7,
        2 * piece + 12 * chunk + 17,
        3 * piece + 1,
    ] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 197 + i / 512) as u8).collect();
        backends_agree::<D>(&key, &nonce, &msg);
        let expected = LeMacKeyGeneric::<D>::new_with_backend(&key, Backend::Portable)
            .unwrap()
            .mac(&msg, &nonce);
        for b in common::backends() {
            let k = LeMacKeyGeneric::<D>::new_with_backend(&key, b).unwrap();
            let mut m = k.hasher_with_nonce(&nonce);
            for part in msg.chunks(5000) {
                m.update(part);
            }
            assert_eq!(
                m.finalize_tag(),
                expected,
                "D={D} backend {b}, {len} bytes streamed"
            );
        }
    }
}

#[test]
fn long_messages_every_backend() {
    long_messages_agree::<1>();
    long_messages_agree::<2>();
    long_messages_agree::<4>();
}
