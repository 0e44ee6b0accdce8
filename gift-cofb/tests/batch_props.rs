//! Property tests: every batch backend equals the single-message code, for
//! random batches (1..=40 messages of 0..=4096 bytes, random AD), and a
//! tampered message in a batch fails alone.
//!
//! `PROPTEST_CASES` sets the number of cases (64 by default). Under Miri the messages and
//! batches are small (Miri interprets every operation), the properties are the same.

use gift_cofb::aead::{AeadInOut, Nonce, Tag};
use gift_cofb::{Backend, BatchItem, GiftCofb};
use proptest::prelude::*;

/// Cheap deterministic filler (splitmix64), so that proptest only has to
/// generate lengths and seeds.
fn fill(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed;
    (0..len)
        .map(|_| {
            x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

#[derive(Debug, Clone)]
struct Msg {
    nonce: Nonce<GiftCofb>,
    ad: Vec<u8>,
    pt: Vec<u8>,
}

/// Longest message generated (smaller under Miri).
const MAX_LEN: usize = if cfg!(miri) { 80 } else { 4096 };
/// Largest batch generated (smaller under Miri).
const MAX_BATCH: usize = if cfg!(miri) { 5 } else { 40 };

/// Number of cases: `PROPTEST_CASES`, or 64.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(64)
}

fn msg_strategy() -> impl Strategy<Value = Msg> {
    (
        0usize..=MAX_LEN,
        0usize..=48,
        any::<u64>(),
        any::<[u8; 16]>(),
    )
        .prop_map(|(len, ad_len, seed, nonce)| Msg {
            nonce: nonce.into(),
            ad: fill(seed ^ 0xad, ad_len),
            pt: fill(seed, len),
        })
}

fn reference(cipher: &GiftCofb, msgs: &[Msg]) -> Vec<(Vec<u8>, Tag<GiftCofb>)> {
    msgs.iter()
        .map(|m| {
            let mut buf = m.pt.clone();
            let tag = cipher
                .encrypt_inout_detached(&m.nonce, &m.ad, (&mut buf[..]).into())
                .unwrap();
            (buf, tag)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn batch_equals_single(
        key in any::<[u8; 16]>(),
        msgs in prop::collection::vec(msg_strategy(), 1..=MAX_BATCH),
        tamper_at in any::<prop::sample::Index>(),
        tamper_bit in any::<prop::sample::Index>(),
    ) {
        let reference_cipher = GiftCofb::new_with_backend(&key.into(), Backend::Portable).unwrap();
        let expected = reference(&reference_cipher, &msgs);
        for backend in Backend::available() {
            let cipher = GiftCofb::new_with_backend(&key.into(), backend).unwrap();

            // Encrypt.
            let mut bufs: Vec<Vec<u8>> = msgs.iter().map(|m| m.pt.clone()).collect();
            let mut items: Vec<BatchItem> = msgs
                .iter()
                .zip(bufs.iter_mut())
                .map(|(m, b)| BatchItem::new(&m.nonce, &m.ad, b))
                .collect();
            cipher.encrypt_batch(&mut items);
            let tags: Vec<Tag<GiftCofb>> = items.iter().map(|it| *it.tag()).collect();
            drop(items);
            for (i, ((b, t), (eb, et))) in bufs.iter().zip(&tags).zip(&expected).enumerate() {
                prop_assert_eq!(b, eb, "{}: ciphertext of message {}", backend, i);
                prop_assert_eq!(t, et, "{}: tag of message {}", backend, i);
            }

            // Decrypt, all authentic.
            let mut items: Vec<BatchItem> = msgs
                .iter()
                .zip(bufs.iter_mut())
                .zip(&tags)
                .map(|((m, b), t)| BatchItem::with_tag(&m.nonce, &m.ad, b, t))
                .collect();
            prop_assert!(cipher.decrypt_batch(&mut items).is_ok());
            drop(items);
            for (b, m) in bufs.iter().zip(&msgs) {
                prop_assert_eq!(b, &m.pt);
            }

            // One tampered message (ciphertext bit, or tag bit) fails alone.
            let bad = tamper_at.index(msgs.len());
            let mut bufs: Vec<Vec<u8>> = expected.iter().map(|(c, _)| c.clone()).collect();
            let mut tags = tags.clone();
            let bit = tamper_bit.index(8 * (bufs[bad].len() + 16));
            if bit < 8 * bufs[bad].len() {
                bufs[bad][bit / 8] ^= 1 << (bit % 8);
            } else {
                let bit = bit - 8 * bufs[bad].len();
                tags[bad][bit / 8] ^= 1 << (bit % 8);
            }
            let mut items: Vec<BatchItem> = msgs
                .iter()
                .zip(bufs.iter_mut())
                .zip(&tags)
                .map(|((m, b), t)| BatchItem::with_tag(&m.nonce, &m.ad, b, t))
                .collect();
            prop_assert!(cipher.decrypt_batch(&mut items).is_err());
            for (i, it) in items.iter().enumerate() {
                prop_assert_eq!(it.is_verified(), i != bad, "{}: message {}", backend, i);
            }
            drop(items);
            for (i, (b, m)) in bufs.iter().zip(&msgs).enumerate() {
                if i == bad {
                    prop_assert!(b.iter().all(|&x| x == 0), "{}: not zeroed", backend);
                } else {
                    prop_assert_eq!(b, &m.pt);
                }
            }
        }
    }

    #[test]
    fn single_message_round_trip_and_bit_flips(
        key in any::<[u8; 16]>(),
        msg in msg_strategy(),
        bit in any::<prop::sample::Index>(),
    ) {
        for backend in Backend::available() {
        let cipher = GiftCofb::new_with_backend(&key.into(), backend).unwrap();
        let mut buf = msg.pt.clone();
        let tag = cipher.encrypt_inout_detached(&msg.nonce, &msg.ad, (&mut buf[..]).into()).unwrap();
        let ct = buf.clone();
        cipher.decrypt_inout_detached(&msg.nonce, &msg.ad, (&mut buf[..]).into(), &tag).unwrap();
        prop_assert_eq!(&buf, &msg.pt);

        // Any single-bit change of ciphertext, tag, AD or nonce fails and zeroes.
        let total = 8 * (ct.len() + 16 + msg.ad.len() + 16);
        let bit = bit.index(total);
        let (mut c, mut t, mut ad, mut n) = (ct.clone(), tag, msg.ad.clone(), msg.nonce);
        let mut b = bit;
        if b < 8 * c.len() { c[b / 8] ^= 1 << (b % 8); } else {
            b -= 8 * c.len();
            if b < 128 { t[b / 8] ^= 1 << (b % 8); } else {
                b -= 128;
                if b < 8 * ad.len() { ad[b / 8] ^= 1 << (b % 8); } else {
                    b -= 8 * ad.len();
                    n[b / 8] ^= 1 << (b % 8);
                }
            }
        }
        prop_assert!(cipher.decrypt_inout_detached(&n, &ad, (&mut c[..]).into(), &t).is_err());
        prop_assert!(c.iter().all(|&x| x == 0));
        }
    }
}
