//! The NIST LWC known-answer tests (1089 entries) on the single-message API
//! and on every batch backend this CPU can run, plus tamper checks.

use gift_cofb::aead::inout::InOutBuf;
use gift_cofb::aead::{Aead, AeadInOut, Nonce, Payload, Tag};
use gift_cofb::{Backend, BatchItem, GiftCofb};

struct Kat {
    count: usize,
    key: Vec<u8>,
    nonce: Vec<u8>,
    pt: Vec<u8>,
    ad: Vec<u8>,
    ct: Vec<u8>,
}

/// Every entry of the KAT file.
fn kats() -> Vec<Kat> {
    kats_where(|_| true)
}

/// The entries whose position in the file (1-based) satisfies `keep` (the others are not
/// even parsed).
fn kats_where(keep: impl Fn(usize) -> bool) -> Vec<Kat> {
    let text = include_str!("data/gift-cofb-kat.txt").replace('\r', "");
    let mut out = Vec::new();
    let entries = text.split("\n\n").filter(|e| !e.trim().is_empty());
    for (_, entry) in entries.enumerate().filter(|(i, _)| keep(i + 1)) {
        let field = |name: &str| -> String {
            entry
                .lines()
                .find_map(|l| l.strip_prefix(name).and_then(|r| r.strip_prefix(" =")))
                .unwrap_or_else(|| panic!("missing {name} in {entry:?}"))
                .trim()
                .to_string()
        };
        let hex = |name: &str| hex::decode(field(name)).unwrap();
        out.push(Kat {
            count: field("Count").parse().unwrap(),
            key: hex("Key"),
            nonce: hex("Nonce"),
            pt: hex("PT"),
            ad: hex("AD"),
            ct: hex("CT"),
        });
    }
    out
}

/// The entries the encrypt/decrypt tests run: all of them, or under Miri (which interprets
/// every operation) a spread of 7 entries with messages of 0 to 32 bytes and AD of 0 to 32.
fn kats_to_run() -> Vec<Kat> {
    kats_where(|n| !cfg!(miri) || n % 181 == 1)
}

/// A check of the data file, not of the code: skipped under Miri (parsing 1089 entries there
/// takes minutes); every other run has it.
#[test]
#[cfg_attr(miri, ignore = "data-file check; runs natively and under qemu")]
fn kat_file_is_complete() {
    let k = kats();
    assert_eq!(k.len(), 1089);
    for (i, e) in k.iter().enumerate() {
        assert_eq!(e.count, i + 1);
        assert_eq!(e.ct.len(), e.pt.len() + 16);
    }
}

/// A cipher per available backend (single messages run on the AVX-512 code
/// when the backend is `Avx512`, on the portable code otherwise).
fn ciphers(key: &[u8]) -> Vec<GiftCofb> {
    Backend::available()
        .map(|b| GiftCofb::with_backend(key.try_into().unwrap(), b).unwrap())
        .collect()
}

#[test]
fn kat_single_message() {
    for (e, cipher) in kats_to_run()
        .iter()
        .flat_map(|e| ciphers(&e.key).into_iter().map(move |c| (e, c)))
    {
        let nonce = Nonce::<GiftCofb>::try_from(&e.nonce[..]).unwrap();
        let payload = Payload {
            msg: &e.pt,
            aad: &e.ad,
        };
        let ct = cipher.encrypt(&nonce, payload).unwrap();
        assert_eq!(
            ct,
            e.ct,
            "{}: encrypt, Count = {}",
            cipher.backend(),
            e.count
        );
        let pt = cipher
            .decrypt(
                &nonce,
                Payload {
                    msg: &e.ct,
                    aad: &e.ad,
                },
            )
            .unwrap_or_else(|_| panic!("decrypt, Count = {}", e.count));
        assert_eq!(pt, e.pt, "decrypt, Count = {}", e.count);

        // Separate input and output buffers (inout API).
        let mut out = vec![0xa5; e.pt.len()];
        let tag = cipher
            .encrypt_inout_detached(&nonce, &e.ad, InOutBuf::new(&e.pt, &mut out).unwrap())
            .unwrap();
        assert_eq!(out, e.ct[..e.pt.len()]);
        assert_eq!(tag[..], e.ct[e.pt.len()..]);
        let mut back = vec![0x5a; e.pt.len()];
        cipher
            .decrypt_inout_detached(&nonce, &e.ad, InOutBuf::new(&out, &mut back).unwrap(), &tag)
            .unwrap();
        assert_eq!(back, e.pt);
    }
}

#[test]
fn kat_batch_every_backend() {
    let kats = kats_to_run();
    for backend in Backend::available() {
        let cipher = GiftCofb::with_backend(&kats[0].key[..].try_into().unwrap(), backend).unwrap();
        let nonces: Vec<Nonce<GiftCofb>> = kats
            .iter()
            .map(|e| e.nonce[..].try_into().unwrap())
            .collect();
        let mut bufs: Vec<Vec<u8>> = kats.iter().map(|e| e.pt.clone()).collect();
        let mut items: Vec<BatchItem> = kats
            .iter()
            .zip(&nonces)
            .zip(bufs.iter_mut())
            .map(|((e, n), b)| BatchItem::new(n, &e.ad, b))
            .collect();
        cipher.encrypt_batch(&mut items);
        let tags: Vec<Tag<GiftCofb>> = items.iter().map(|it| *it.tag()).collect();
        drop(items);
        for ((e, b), t) in kats.iter().zip(&bufs).zip(&tags) {
            assert_eq!(
                b[..],
                e.ct[..e.pt.len()],
                "{backend}: ct, Count = {}",
                e.count
            );
            assert_eq!(
                t[..],
                e.ct[e.pt.len()..],
                "{backend}: tag, Count = {}",
                e.count
            );
        }
        let mut items: Vec<BatchItem> = kats
            .iter()
            .zip(&nonces)
            .zip(bufs.iter_mut())
            .zip(&tags)
            .map(|(((e, n), b), t)| BatchItem::with_tag(n, &e.ad, b, t))
            .collect();
        assert!(cipher.decrypt_batch(&mut items).is_ok(), "{backend}");
        assert!(items.iter().all(BatchItem::is_verified));
        drop(items);
        for (e, b) in kats.iter().zip(&bufs) {
            assert_eq!(*b, e.pt, "{backend}: decrypt, Count = {}", e.count);
        }
    }
}

/// Flips one bit of the ciphertext or the tag (position chosen from the
/// entry's number so that every byte position gets hit across the file).
fn tamper(e: &Kat) -> Vec<u8> {
    let mut ct = e.ct.clone();
    let bit = (e.count * 37) % (8 * ct.len());
    ct[bit / 8] ^= 1 << (bit % 8);
    ct
}

#[test]
fn kat_tampered_single_message_fails_and_zeroes() {
    for (e, cipher) in kats_to_run()
        .iter()
        .flat_map(|e| ciphers(&e.key).into_iter().map(move |c| (e, c)))
    {
        let nonce = Nonce::<GiftCofb>::try_from(&e.nonce[..]).unwrap();
        let bad = tamper(e);
        let (ct, tag) = bad.split_at(e.pt.len());
        let tag = Tag::<GiftCofb>::try_from(tag).unwrap();
        let mut buf = ct.to_vec();
        assert!(
            cipher
                .decrypt_inout_detached(&nonce, &e.ad, (&mut buf[..]).into(), &tag)
                .is_err(),
            "Count = {}",
            e.count
        );
        assert!(
            buf.iter().all(|&b| b == 0),
            "not zeroed, Count = {}",
            e.count
        );
        // A changed AD fails too.
        let mut ad = e.ad.clone();
        ad.push(0);
        assert!(
            cipher
                .decrypt(
                    &nonce,
                    Payload {
                        msg: &e.ct,
                        aad: &ad
                    }
                )
                .is_err()
        );
    }
}

#[test]
fn kat_tampered_batch_fails_alone() {
    let kats = kats_to_run();
    for backend in Backend::available() {
        let cipher = GiftCofb::with_backend(&kats[0].key[..].try_into().unwrap(), backend).unwrap();
        let nonces: Vec<Nonce<GiftCofb>> = kats
            .iter()
            .map(|e| e.nonce[..].try_into().unwrap())
            .collect();
        // Every third entry tampered.
        let inputs: Vec<Vec<u8>> = kats
            .iter()
            .map(|e| {
                if e.count % 3 == 0 {
                    tamper(e)
                } else {
                    e.ct.clone()
                }
            })
            .collect();
        let mut bufs: Vec<Vec<u8>> = inputs
            .iter()
            .zip(&kats)
            .map(|(c, e)| c[..e.pt.len()].to_vec())
            .collect();
        let tags: Vec<Tag<GiftCofb>> = inputs
            .iter()
            .zip(&kats)
            .map(|(c, e)| c[e.pt.len()..].try_into().unwrap())
            .collect();
        let mut items: Vec<BatchItem> = kats
            .iter()
            .zip(&nonces)
            .zip(bufs.iter_mut())
            .zip(&tags)
            .map(|(((e, n), b), t)| BatchItem::with_tag(n, &e.ad, b, t))
            .collect();
        assert!(cipher.decrypt_batch(&mut items).is_err());
        for (it, e) in items.iter().zip(&kats) {
            assert_eq!(
                it.is_verified(),
                e.count % 3 != 0,
                "{backend}: Count = {}",
                e.count
            );
        }
        drop(items);
        for (b, e) in bufs.iter().zip(&kats) {
            if e.count % 3 == 0 {
                assert!(
                    b.iter().all(|&x| x == 0),
                    "{backend}: not zeroed, Count = {}",
                    e.count
                );
            } else {
                assert_eq!(*b, e.pt, "{backend}: Count = {}", e.count);
            }
        }
    }
}

/// Set by CI where it knows which batch backend detection must pick (`EXPECT_GIFT_BACKEND`,
/// e.g. `avx512` for the Miri run built with AVX-512 target features): the tests above then
/// provably ran that backend, rather than silently falling back to another.
#[test]
fn detection_picks_expected_backend() {
    let Ok(expected) = std::env::var("EXPECT_GIFT_BACKEND") else {
        return;
    };
    assert_eq!(Backend::detect().name(), expected);
    assert!(Backend::available().any(|b| b.name() == expected));
}
