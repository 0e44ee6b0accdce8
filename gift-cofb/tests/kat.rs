//! The NIST LWC known-answer tests (1089 entries, `data/gift-cofb.blb` in `aead::dev`'s blob
//! format) with `aead::dev`'s checks on every backend this CPU can run, through the batch API
//! on every backend, plus tamper checks.
//!
//! The blob holds, per entry in file order, Key, Nonce, AD, PT and CT (ciphertext || tag) of
//! the GIFT-COFB submission's `LWC_AEAD_KAT_128_128.txt` (SHA-256 of the text file, LF line
//! endings: 934e102dd868bf6094cce35c5cb1051f05c7a2adbce1d4488abc47408b7fb386), written as hex
//! lines and converted with `blobby`'s `encode` tool.

use gift_cofb::aead::consts::U16;
use gift_cofb::aead::dev::{TestVector, pass_test};
use gift_cofb::aead::inout::InOutBuf;
use gift_cofb::aead::{self, Aead, AeadCore, AeadInOut, KeySizeUser, Nonce, Payload, Tag};
use gift_cofb::{Backend, BatchItem, GiftCofb, KeyInit};

// `aead::dev`'s own test on the default backend (the one `KeyInit::new` detects), every entry.
// (Under Miri, which interprets every operation, `kat_every_backend` runs the same checks on
// a spread of entries instead.)
#[cfg(not(miri))]
aead::new_pass_test!(kat_default_backend, "gift-cofb", GiftCofb);

aead::dev::blobby::parse_into_structs!(
    include_bytes!("data/gift-cofb.blb");
    static KATS: &[TestVector { key, nonce, aad, plaintext, ciphertext }];
);

/// The entries the tests run: all of them, or under Miri (which interprets every operation)
/// a spread of 7 entries with messages of 0 to 32 bytes and AD of 0 to 32.
fn kats_to_run() -> impl Iterator<Item = (usize, &'static TestVector)> {
    KATS.iter()
        .enumerate()
        .map(|(i, v)| (i + 1, v))
        .filter(|(count, _)| !cfg!(miri) || count % 181 == 1)
}

#[test]
fn kat_file_is_complete() {
    assert_eq!(KATS.len(), 1089);
    for v in KATS {
        assert_eq!(v.key.len(), 16);
        assert_eq!(v.nonce.len(), 16);
        assert_eq!(v.ciphertext.len(), v.plaintext.len() + 16);
    }
    // The NIST file's layout: every AD length 0..=32 with every message length 0..=32.
    assert_eq!(KATS[1088].plaintext.len(), 32);
    assert_eq!(KATS[1088].aad.len(), 32);
}

/// [`GiftCofb`] whose [`KeyInit`] runs on `Backend::ALL[I]`, so that `aead::dev::pass_test`
/// can check each backend. Only constructed for available backends.
#[derive(Clone)]
struct On<const I: usize>(GiftCofb);

impl<const I: usize> KeySizeUser for On<I> {
    type KeySize = U16;
}

impl<const I: usize> KeyInit for On<I> {
    fn new(key: &aead::Key<Self>) -> Self {
        Self(GiftCofb::new_with_backend(key, Backend::ALL[I]).expect("an available backend"))
    }
}

impl<const I: usize> AeadCore for On<I> {
    type NonceSize = U16;
    type TagSize = U16;
    const TAG_POSITION: aead::TagPosition = aead::TagPosition::Postfix;
}

impl<const I: usize> AeadInOut for On<I> {
    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        ad: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> aead::Result<Tag<Self>> {
        self.0.encrypt_inout_detached(nonce, ad, buffer)
    }

    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        ad: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<Self>,
    ) -> aead::Result<()> {
        self.0.decrypt_inout_detached(nonce, ad, buffer, tag)
    }
}

/// `aead::dev::pass_test` (encrypt and decrypt, in place and with separate buffers) for every
/// entry on `backend`.
fn pass_all_on(backend: Backend) -> usize {
    let index = Backend::ALL.iter().position(|&b| b == backend).unwrap();
    let test: fn(&TestVector) -> Result<(), &'static str> = match index {
        0 => pass_test::<On<0>>,
        1 => pass_test::<On<1>>,
        2 => pass_test::<On<2>>,
        3 => pass_test::<On<3>>,
        _ => unreachable!("Backend::ALL has 4 entries"),
    };
    let mut n = 0;
    for (count, v) in kats_to_run() {
        if let Err(reason) = test(v) {
            panic!("{backend}: Count = {count}: {reason}");
        }
        n += 1;
    }
    n
}

#[test]
fn kat_every_backend() {
    for backend in Backend::available() {
        let n = pass_all_on(backend);
        assert_eq!(n, if cfg!(miri) { 7 } else { 1089 }, "{backend}");
    }
}

#[test]
fn kat_batch_every_backend() {
    let kats: Vec<&TestVector> = kats_to_run().map(|(_, v)| v).collect();
    // The KAT file uses one key throughout.
    assert!(kats.iter().all(|v| v.key == kats[0].key));
    for backend in Backend::available() {
        let cipher = GiftCofb::new_with_backend(kats[0].key.try_into().unwrap(), backend).unwrap();
        let nonces: Vec<Nonce<GiftCofb>> =
            kats.iter().map(|v| v.nonce.try_into().unwrap()).collect();
        let mut bufs: Vec<Vec<u8>> = kats.iter().map(|v| v.plaintext.to_vec()).collect();
        let mut items: Vec<BatchItem> = kats
            .iter()
            .zip(&nonces)
            .zip(bufs.iter_mut())
            .map(|((v, n), b)| BatchItem::new(n, v.aad, b))
            .collect();
        cipher.encrypt_batch(&mut items);
        let tags: Vec<Tag<GiftCofb>> = items.iter().map(|it| *it.tag()).collect();
        drop(items);
        for (i, ((v, b), t)) in kats.iter().zip(&bufs).zip(&tags).enumerate() {
            let (ct, tag) = v.ciphertext.split_at(v.plaintext.len());
            assert_eq!(b[..], *ct, "{backend}: ciphertext of entry {i}");
            assert_eq!(t[..], *tag, "{backend}: tag of entry {i}");
        }
        let mut items: Vec<BatchItem> = kats
            .iter()
            .zip(&nonces)
            .zip(bufs.iter_mut())
            .zip(&tags)
            .map(|(((v, n), b), t)| BatchItem::with_tag(n, v.aad, b, t))
            .collect();
        assert!(cipher.decrypt_batch(&mut items).is_ok(), "{backend}");
        assert!(items.iter().all(BatchItem::is_verified));
        drop(items);
        for (i, (v, b)) in kats.iter().zip(&bufs).enumerate() {
            assert_eq!(b[..], *v.plaintext, "{backend}: plaintext of entry {i}");
        }
    }
}

/// The entry's `ciphertext || tag` with one bit flipped (position chosen from the entry's
/// number, so that every byte position gets hit across the file).
fn tamper(count: usize, v: &TestVector) -> Vec<u8> {
    let mut ct = v.ciphertext.to_vec();
    let bit = (count * 37) % (8 * ct.len());
    ct[bit / 8] ^= 1 << (bit % 8);
    ct
}

#[test]
fn kat_tampered_single_message_fails_and_zeroes() {
    for backend in Backend::available() {
        for (count, v) in kats_to_run() {
            let cipher = GiftCofb::new_with_backend(v.key.try_into().unwrap(), backend).unwrap();
            let nonce = Nonce::<GiftCofb>::try_from(v.nonce).unwrap();
            let bad = tamper(count, v);
            let (ct, tag) = bad.split_at(v.plaintext.len());
            let tag = Tag::<GiftCofb>::try_from(tag).unwrap();
            let mut buf = ct.to_vec();
            assert!(
                cipher
                    .decrypt_inout_detached(&nonce, v.aad, (&mut buf[..]).into(), &tag)
                    .is_err(),
                "{backend}: Count = {count}"
            );
            assert!(
                buf.iter().all(|&b| b == 0),
                "{backend}: not zeroed, Count = {count}"
            );
            // Separate input and output buffers: the output is zeroed too.
            let mut out = vec![0xa5; ct.len()];
            assert!(
                cipher
                    .decrypt_inout_detached(
                        &nonce,
                        v.aad,
                        InOutBuf::new(ct, &mut out).unwrap(),
                        &tag
                    )
                    .is_err()
            );
            assert!(
                out.iter().all(|&b| b == 0),
                "{backend}: not zeroed, Count = {count}"
            );
            // A changed AD fails too.
            let mut ad = v.aad.to_vec();
            ad.push(0);
            let payload = Payload {
                msg: v.ciphertext,
                aad: &ad,
            };
            assert!(
                cipher.decrypt(&nonce, payload).is_err(),
                "{backend}: Count = {count}"
            );
        }
    }
}

#[test]
fn kat_tampered_batch_fails_alone() {
    let kats: Vec<(usize, &TestVector)> = kats_to_run().collect();
    for backend in Backend::available() {
        let cipher =
            GiftCofb::new_with_backend(kats[0].1.key.try_into().unwrap(), backend).unwrap();
        let nonces: Vec<Nonce<GiftCofb>> = kats
            .iter()
            .map(|(_, v)| v.nonce.try_into().unwrap())
            .collect();
        // Every third entry tampered.
        let inputs: Vec<Vec<u8>> = kats
            .iter()
            .map(|&(count, v)| {
                if count % 3 == 0 {
                    tamper(count, v)
                } else {
                    v.ciphertext.to_vec()
                }
            })
            .collect();
        let mut bufs: Vec<Vec<u8>> = inputs
            .iter()
            .zip(&kats)
            .map(|(c, (_, v))| c[..v.plaintext.len()].to_vec())
            .collect();
        let tags: Vec<Tag<GiftCofb>> = inputs
            .iter()
            .zip(&kats)
            .map(|(c, (_, v))| c[v.plaintext.len()..].try_into().unwrap())
            .collect();
        let mut items: Vec<BatchItem> = kats
            .iter()
            .zip(&nonces)
            .zip(bufs.iter_mut())
            .zip(&tags)
            .map(|((((_, v), n), b), t)| BatchItem::with_tag(n, v.aad, b, t))
            .collect();
        assert!(cipher.decrypt_batch(&mut items).is_err());
        for (it, (count, _)) in items.iter().zip(&kats) {
            assert_eq!(
                it.is_verified(),
                count % 3 != 0,
                "{backend}: Count = {count}"
            );
        }
        drop(items);
        for (b, (count, v)) in bufs.iter().zip(&kats) {
            if count % 3 == 0 {
                assert!(
                    b.iter().all(|&x| x == 0),
                    "{backend}: not zeroed, Count = {count}"
                );
            } else {
                assert_eq!(b[..], *v.plaintext, "{backend}: Count = {count}");
            }
        }
    }
}

/// Set by CI where it knows which backend detection must pick (`EXPECT_GIFT_BACKEND`, e.g.
/// `AVX512` for the Miri run built with AVX-512 target features): the tests above then
/// provably ran that backend, rather than another.
#[test]
fn detection_picks_expected_backend() {
    let Ok(expected) = std::env::var("EXPECT_GIFT_BACKEND") else {
        return;
    };
    let expected = Backend::from_name(&expected).expect("EXPECT_GIFT_BACKEND names a backend");
    assert_eq!(Backend::detect(), expected);
    assert!(expected.is_available());
    assert_eq!(GiftCofb::new(&[0; 16].into()).backend(), expected);
}
