//! No unverified plaintext is reachable after a failed decryption, whatever the caller does
//! with the result and the items afterwards: the guarantee does not depend on a destructor.
//!
//! Each message's plaintext is made of non-zero bytes, so an all-zero buffer holds no byte of
//! it; one bit of one message (its ciphertext or its tag) is flipped, so all but at most one
//! byte of what decryption computes for it equals the real plaintext.

use std::mem::{ManuallyDrop, forget};

use gift_cofb::aead::{AeadInOut, Nonce, Tag};
use gift_cofb::{Backend, BatchItem, GiftCofb, KeyInit};

/// Messages per batch: more than one batch step of the widest backend, so the tampered
/// message shares its step with verified ones.
const N: usize = 20;
/// The message that gets tampered with.
const BAD: usize = 9;

fn len(i: usize) -> usize {
    if cfg!(miri) { 1 + 2 * i } else { 1 + 97 * i }
}

/// Plaintext of message `i`: bytes 1..=255, never 0.
fn plaintext(i: usize) -> Vec<u8> {
    (0..len(i)).map(|j| (1 + (j * 7 + i) % 255) as u8).collect()
}

struct Batch {
    cipher: GiftCofb,
    nonces: Vec<Nonce<GiftCofb>>,
    cts: Vec<Vec<u8>>,
    tags: Vec<Tag<GiftCofb>>,
}

fn batch(backend: Backend) -> Batch {
    let cipher = GiftCofb::new_with_backend(&[0x3c; 16].into(), backend).unwrap();
    let nonces: Vec<Nonce<GiftCofb>> = (0..N as u8).map(|i| [i; 16].into()).collect();
    let mut cts = Vec::new();
    let mut tags = Vec::new();
    for (i, n) in nonces.iter().enumerate() {
        let mut buf = plaintext(i);
        tags.push(
            cipher
                .encrypt_inout_detached(n, b"ad", (&mut buf[..]).into())
                .unwrap(),
        );
        cts.push(buf);
    }
    Batch {
        cipher,
        nonces,
        cts,
        tags,
    }
}

/// Where the bit flip goes.
#[derive(Clone, Copy, Debug)]
enum Flip {
    /// The first ciphertext byte: every other plaintext byte decrypts correctly.
    Ciphertext,
    /// The tag: the whole plaintext decrypts correctly, only the check fails.
    Tag,
}

fn tampered(b: &Batch, flip: Flip) -> (Vec<Vec<u8>>, Vec<Tag<GiftCofb>>) {
    let (mut cts, mut tags) = (b.cts.clone(), b.tags.clone());
    match flip {
        Flip::Ciphertext => cts[BAD][0] ^= 0x01,
        Flip::Tag => tags[BAD][15] ^= 0x80,
    }
    (cts, tags)
}

/// After the call: the tampered message is all zeros, the others hold their plaintext.
fn check(bufs: &[Vec<u8>], what: &str) {
    for (i, buf) in bufs.iter().enumerate() {
        if i == BAD {
            assert!(
                buf.iter().all(|&x| x == 0),
                "{what}: unverified bytes reachable"
            );
        } else {
            assert_eq!(*buf, plaintext(i), "{what}: message {i}");
        }
    }
}

#[test]
fn failed_batch_item_is_zeroed_even_if_everything_is_forgotten() {
    for backend in Backend::available() {
        let b = batch(backend);
        for flip in [Flip::Ciphertext, Flip::Tag] {
            let what = format!("{backend}, {flip:?}");
            let (mut bufs, tags) = tampered(&b, flip);
            {
                let mut rest = bufs.iter_mut();
                let mut items: [BatchItem; N] = std::array::from_fn(|i| {
                    BatchItem::with_tag(&b.nonces[i], b"ad", rest.next().unwrap(), &tags[i])
                });
                // The error is ignored and the items are never dropped.
                let _ = b.cipher.decrypt_batch(&mut items);
                assert!(!items[BAD].is_verified(), "{what}");
                assert!(items[BAD].buffer().iter().all(|&x| x == 0), "{what}");
                // `BatchItem` has no destructor, so this changes nothing: that is the point.
                #[allow(clippy::forget_non_drop)]
                forget(items);
            }
            check(&bufs, &what);
        }
    }
}

#[test]
fn failed_batch_item_is_zeroed_inside_manually_drop() {
    for backend in Backend::available() {
        let b = batch(backend);
        let what = format!("{backend}");
        let (mut bufs, tags) = tampered(&b, Flip::Ciphertext);
        {
            let mut rest = bufs.iter_mut();
            let mut items = ManuallyDrop::new(std::array::from_fn::<_, N, _>(|i| {
                BatchItem::with_tag(&b.nonces[i], b"ad", rest.next().unwrap(), &tags[i])
            }));
            assert!(b.cipher.decrypt_batch(&mut items[..]).is_err(), "{what}");
            for (i, it) in items.iter().enumerate() {
                assert_eq!(it.is_verified(), i != BAD, "{what}: message {i}");
            }
        }
        check(&bufs, &what);
    }
}

/// The same for one message, in place and into a separate output buffer, with the error
/// ignored.
#[test]
fn failed_single_message_is_zeroed() {
    for backend in Backend::available() {
        let b = batch(backend);
        for flip in [Flip::Ciphertext, Flip::Tag] {
            let what = format!("{backend}, {flip:?}");
            let (mut cts, tags) = tampered(&b, flip);
            let mut out = vec![0xee; cts[BAD].len()];
            let buf = gift_cofb::aead::inout::InOutBuf::new(&cts[BAD], &mut out).unwrap();
            let _ = b
                .cipher
                .decrypt_inout_detached(&b.nonces[BAD], b"ad", buf, &tags[BAD]);
            assert!(out.iter().all(|&x| x == 0), "{what}: separate output");
            let _ = b.cipher.decrypt_inout_detached(
                &b.nonces[BAD],
                b"ad",
                (&mut cts[BAD][..]).into(),
                &tags[BAD],
            );
            assert!(cts[BAD].iter().all(|&x| x == 0), "{what}: in place");
        }
    }
}

/// A verified item that is then encrypted again no longer reports itself verified.
#[test]
fn encryption_clears_the_verified_mark() {
    for backend in Backend::available() {
        let b = batch(backend);
        let mut buf = b.cts[0].clone();
        let mut items = [BatchItem::with_tag(
            &b.nonces[0],
            b"ad",
            &mut buf,
            &b.tags[0],
        )];
        assert!(b.cipher.decrypt_batch(&mut items).is_ok());
        assert!(items[0].is_verified());
        b.cipher.encrypt_batch(&mut items);
        assert!(!items[0].is_verified(), "{backend}");
        assert_eq!(items[0].buffer(), &b.cts[0][..], "{backend}");
    }
}

#[test]
fn default_backend_is_the_detected_one() {
    let cipher = GiftCofb::new(&[0; 16].into());
    assert_eq!(cipher.backend(), Backend::detect());
    assert_eq!(cipher.implementation_name(), Backend::detect().name());
}
