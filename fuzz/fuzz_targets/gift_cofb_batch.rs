//! Differential fuzzing of the GIFT-COFB batch API: every batch backend the
//! CPU can run must give exactly the single-message results (ciphertexts and
//! tags), decrypt them back, and reject a tampered message alone.
//!
//! Input layout (raw bytes, no `arbitrary`): 16-byte key, then messages, each
//! `[len_lo, len_hi, ad_len, nonce_byte, tamper]` followed by up to `len`
//! message bytes (`len` is capped at what is left; the AD is the first
//! `ad_len` of those bytes, reused).
#![no_main]

use gift_cofb::aead::{AeadInOut, KeyInit, Nonce, Tag};
use gift_cofb::{Backend, BatchItem, GiftCofb};
use libfuzzer_sys::fuzz_target;

struct Msg {
    nonce: Nonce<GiftCofb>,
    ad: Vec<u8>,
    pt: Vec<u8>,
    tamper: u8,
}

fn parse(mut data: &[u8]) -> Option<([u8; 16], Vec<Msg>)> {
    let key: [u8; 16] = data.get(..16)?.try_into().ok()?;
    data = &data[16..];
    let mut msgs = Vec::new();
    while data.len() >= 5 && msgs.len() < 48 {
        let len = usize::from(u16::from_le_bytes([data[0], data[1]])) % 2048;
        let (ad_len, nonce_byte, tamper) = (usize::from(data[2]) % 40, data[3], data[4]);
        data = &data[5..];
        let len = len.min(data.len());
        let pt = data[..len].to_vec();
        data = &data[len..];
        let ad = pt[..ad_len.min(pt.len())].to_vec();
        let mut nonce = [nonce_byte; 16];
        nonce[0] = msgs.len() as u8;
        msgs.push(Msg {
            nonce: nonce.into(),
            ad,
            pt,
            tamper,
        });
    }
    if msgs.is_empty() {
        None
    } else {
        Some((key, msgs))
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((key, msgs)) = parse(data) else {
        return;
    };
    let reference = GiftCofb::new_with_backend(&key.into(), Backend::Portable).unwrap();
    let expected: Vec<(Vec<u8>, Tag<GiftCofb>)> = msgs
        .iter()
        .map(|m| {
            let mut buf = m.pt.clone();
            let tag = reference
                .encrypt_inout_detached(&m.nonce, &m.ad, (&mut buf[..]).into())
                .unwrap();
            (buf, tag)
        })
        .collect();
    // Also a plain KeyInit cipher (default backend).
    let _ = GiftCofb::new(&key.into());

    for backend in Backend::available() {
        let cipher = GiftCofb::new_with_backend(&key.into(), backend).unwrap();

        let mut bufs: Vec<Vec<u8>> = msgs.iter().map(|m| m.pt.clone()).collect();
        let mut items: Vec<BatchItem> = msgs
            .iter()
            .zip(bufs.iter_mut())
            .map(|(m, b)| BatchItem::new(&m.nonce, &m.ad, b))
            .collect();
        cipher.encrypt_batch(&mut items);
        let tags: Vec<Tag<GiftCofb>> = items.iter().map(|it| *it.tag()).collect();
        drop(items);
        for ((b, t), (eb, et)) in bufs.iter().zip(&tags).zip(&expected) {
            assert_eq!(b, eb, "{backend}: ciphertext differs");
            assert_eq!(t, et, "{backend}: tag differs");
        }

        // Tamper with the messages whose `tamper` byte says so (one bit).
        let mut tags = tags;
        let mut bad = Vec::new();
        for (i, m) in msgs.iter().enumerate() {
            if m.tamper & 0x80 != 0 {
                let bit = usize::from(m.tamper & 0x7f) % (8 * (bufs[i].len() + 16));
                if bit < 8 * bufs[i].len() {
                    bufs[i][bit / 8] ^= 1 << (bit % 8);
                } else {
                    let bit = bit - 8 * bufs[i].len();
                    tags[i][bit / 8] ^= 1 << (bit % 8);
                }
                bad.push(i);
            }
        }
        let mut items: Vec<BatchItem> = msgs
            .iter()
            .zip(bufs.iter_mut())
            .zip(&tags)
            .map(|((m, b), t)| BatchItem::with_tag(&m.nonce, &m.ad, b, t))
            .collect();
        let res = cipher.decrypt_batch(&mut items);
        assert_eq!(res.is_ok(), bad.is_empty(), "{backend}");
        for (i, it) in items.iter().enumerate() {
            assert_eq!(
                it.is_verified(),
                !bad.contains(&i),
                "{backend}: message {i}"
            );
        }
        drop(items);
        for (i, (b, m)) in bufs.iter().zip(&msgs).enumerate() {
            if bad.contains(&i) {
                assert!(
                    b.iter().all(|&x| x == 0),
                    "{backend}: failed message not zeroed"
                );
            } else {
                assert_eq!(b, &m.pt, "{backend}: wrong plaintext");
            }
        }
    }
});
