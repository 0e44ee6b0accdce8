//! Property tests. Case counts honour `PROPTEST_CASES` (default 64 per property here, kept
//! moderate so the suite also runs under emulation and Miri).

mod common;

use aead::KeyInit;
use aead::inout::InOutBuf;
use common::NewWithBackend;
use hiae::stream::{Decryptor, Encryptor, UnverifiedDecryptor};
use hiae::{Backend, GenericMac, Hiae, HiaeX2, HiaeX4, Mac, Variant};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(miri) { 2 } else { 64 });
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Longest generated message / AD.
const MAX: usize = if cfg!(miri) { 80 } else { 1200 };

fn encrypt<V: Variant>(c: &V, nonce: &[u8; 16], ad: &[u8], msg: &[u8]) -> (Vec<u8>, [u8; 16]) {
    let mut buf = msg.to_vec();
    let tag = c
        .encrypt_inout_detached(&(*nonce).into(), ad, buf.as_mut_slice().into())
        .unwrap();
    (buf, tag.into())
}

/// Splits `len` bytes into pieces of the sizes in `cuts` (cycled; zero-length pieces too).
/// Cuts that are all zero (no progress) give one piece.
fn pieces(len: usize, cuts: &[usize]) -> Vec<std::ops::Range<usize>> {
    let cuts = if cuts.iter().all(|&c| c == 0) {
        &[][..]
    } else {
        cuts
    };
    let mut out = Vec::new();
    let mut pos = 0;
    let mut i = 0;
    while pos < len {
        let n = if cuts.is_empty() {
            len
        } else {
            cuts[i % cuts.len()]
        };
        let end = (pos + n).min(len);
        out.push(pos..end);
        pos = end;
        i += 1;
    }
    out
}

fn backends_equal_portable<V: Variant + NewWithBackend>(
    key: [u8; 32],
    nonce: [u8; 16],
    ad: &[u8],
    msg: &[u8],
) {
    let p = V::with_backend(&key, Backend::Portable);
    let (ct, tag) = encrypt(&p, &nonce, ad, msg);
    let mac = hiae::mac_with_backend::<V>(Backend::Portable, &key, &nonce, msg).unwrap();
    for b in common::backends() {
        let c = V::with_backend(&key, b);
        assert_eq!(
            encrypt(&c, &nonce, ad, msg),
            (ct.clone(), tag),
            "{} {b}",
            V::NAME
        );
        assert_eq!(
            hiae::mac_with_backend::<V>(b, &key, &nonce, msg).unwrap(),
            mac
        );
        let mut buf = ct.clone();
        c.decrypt_inout_detached(&nonce.into(), ad, buf.as_mut_slice().into(), &tag.into())
            .unwrap();
        assert_eq!(buf, msg);
    }
}

fn streaming_equals_oneshot<V: Variant + NewWithBackend>(
    key: [u8; 32],
    nonce: [u8; 16],
    ad: &[u8],
    msg: &[u8],
    ad_cuts: &[usize],
    msg_cuts: &[usize],
) {
    let c = V::with_backend(&key, Backend::detect());
    let (ct, tag) = encrypt(&c, &nonce, ad, msg);
    let n = nonce.into();
    let mut e = Encryptor::new(&c, &n);
    for r in pieces(ad.len(), ad_cuts) {
        e.update_ad(&ad[r]).unwrap();
    }
    let mut buf = msg.to_vec();
    for r in pieces(msg.len(), msg_cuts) {
        e.encrypt(&mut buf[r]).unwrap();
    }
    if !msg.is_empty() {
        assert!(
            e.update_ad(b"late").is_err(),
            "AD after message bytes must be refused"
        );
    }
    assert_eq!(buf, ct);
    assert_eq!(<[u8; 16]>::from(e.finalize()), tag);

    let mut d = Decryptor::new(&c, &n);
    for r in pieces(ad.len(), ad_cuts) {
        d.update_ad(&ad[r]).unwrap();
    }
    for r in pieces(ct.len(), msg_cuts) {
        d.decrypt(&ct[r]).unwrap();
    }
    assert_eq!(d.finalize(&tag.into()).unwrap(), msg);

    let mut d = UnverifiedDecryptor::new(&c, &n);
    d.update_ad(ad).unwrap();
    let mut buf = ct.clone();
    let mut garbage = vec![0x3cu8; ct.len()];
    for r in pieces(ct.len(), msg_cuts) {
        d.decrypt_unverified_inout(InOutBuf::new(&buf[r.clone()], &mut garbage[r]).unwrap())
            .unwrap();
    }
    d.verify(&tag.into()).unwrap();
    assert_eq!(garbage, msg);
    buf.clear();

    let mut m = GenericMac::<V>::new_with_backend(&key, &nonce, Backend::detect()).unwrap();
    for r in pieces(msg.len(), msg_cuts) {
        m.update(&msg[r]);
    }
    assert_eq!(
        <[u8; 16]>::from(m.finalize().into_bytes()),
        hiae::mac::<V>(&key, &nonce, msg)
    );
}

fn inplace_equals_outofplace<V: Variant + NewWithBackend>(
    key: [u8; 32],
    nonce: [u8; 16],
    ad: &[u8],
    msg: &[u8],
    fill: u8,
) {
    for b in common::backends() {
        let c = V::with_backend(&key, b);
        let (ct, tag) = encrypt(&c, &nonce, ad, msg);
        let mut out = vec![fill; msg.len()];
        let t = c
            .encrypt_inout_detached(&nonce.into(), ad, InOutBuf::new(msg, &mut out).unwrap())
            .unwrap();
        assert_eq!((&out, <[u8; 16]>::from(t)), (&ct, tag));
        let mut out = vec![fill; msg.len()];
        c.decrypt_inout_detached(
            &nonce.into(),
            ad,
            InOutBuf::new(&ct, &mut out).unwrap(),
            &tag.into(),
        )
        .unwrap();
        assert_eq!(out, msg);
    }
}

fn bit_flip_fails<V: Variant + NewWithBackend>(
    key: [u8; 32],
    nonce: [u8; 16],
    ad: &[u8],
    msg: &[u8],
    which: u8,
    bit: usize,
) {
    let c = V::with_backend(&key, Backend::detect());
    let (mut ct, mut tag) = encrypt(&c, &nonce, ad, msg);
    let mut ad = ad.to_vec();
    let mut nonce = nonce;
    match which % 4 {
        0 if !ct.is_empty() => {
            let i = bit % (ct.len() * 8);
            ct[i / 8] ^= 1 << (i % 8);
        }
        1 if !ad.is_empty() => {
            let i = bit % (ad.len() * 8);
            ad[i / 8] ^= 1 << (i % 8);
        }
        2 => {
            let i = bit % 128;
            nonce[i / 8] ^= 1 << (i % 8);
        }
        _ => {
            let i = bit % 128;
            tag[i / 8] ^= 1 << (i % 8);
        }
    }
    let mut buf = ct.clone();
    let r = c.decrypt_inout_detached(&nonce.into(), &ad, buf.as_mut_slice().into(), &tag.into());
    assert!(r.is_err());
    assert!(buf.iter().all(|&b| b == 0));
    let mut out = vec![0x77u8; ct.len()];
    let r = c.decrypt_inout_detached(
        &nonce.into(),
        &ad,
        InOutBuf::new(&ct, &mut out).unwrap(),
        &tag.into(),
    );
    assert!(r.is_err());
    assert!(out.iter().all(|&b| b == 0));
}

macro_rules! props {
    ($m:ident, $v:ty) => {
        mod $m {
            use super::*;
            proptest! {
                #![proptest_config(config())]

                #[test]
                fn backends_equal_portable(key: [u8; 32], nonce: [u8; 16],
                        ad in proptest::collection::vec(any::<u8>(), 0..MAX / 4),
                        msg in proptest::collection::vec(any::<u8>(), 0..MAX)) {
                    super::backends_equal_portable::<$v>(key, nonce, &ad, &msg);
                }

                #[test]
                fn streaming_equals_oneshot(key: [u8; 32], nonce: [u8; 16],
                        ad in proptest::collection::vec(any::<u8>(), 0..MAX / 4),
                        msg in proptest::collection::vec(any::<u8>(), 0..MAX),
                        ad_cuts in proptest::collection::vec(0usize..80, 0..6),
                        msg_cuts in proptest::collection::vec(0usize..300, 0..8)) {
                    super::streaming_equals_oneshot::<$v>(key, nonce, &ad, &msg, &ad_cuts, &msg_cuts);
                }

                #[test]
                fn inplace_equals_outofplace(key: [u8; 32], nonce: [u8; 16],
                        ad in proptest::collection::vec(any::<u8>(), 0..64),
                        msg in proptest::collection::vec(any::<u8>(), 0..MAX),
                        fill: u8) {
                    super::inplace_equals_outofplace::<$v>(key, nonce, &ad, &msg, fill);
                }

                #[test]
                fn bit_flip_fails(key: [u8; 32], nonce: [u8; 16],
                        ad in proptest::collection::vec(any::<u8>(), 0..64),
                        msg in proptest::collection::vec(any::<u8>(), 0..MAX / 2),
                        which: u8, bit: usize) {
                    super::bit_flip_fails::<$v>(key, nonce, &ad, &msg, which, bit);
                }
            }
        }
    };
}

props!(hiae1, Hiae);
props!(hiaex2, HiaeX2);
props!(hiaex4, HiaeX4);

/// Every length up to 160 bytes (the short kernels and the partial-block paths), with
/// associated data of `len % 23` and of `160 - len` bytes, on every backend against the
/// portable one, and each MAC against the incremental MAC fed in two
/// pieces on the portable backend.
#[test]
fn short_lengths_equal_portable() {
    fn one<V: Variant + NewWithBackend>(key: [u8; 32], nonce: [u8; 16], ad: &[u8], msg: &[u8]) {
        backends_equal_portable::<V>(key, nonce, ad, msg);
        let mut m = GenericMac::<V>::new_with_backend(&key, &nonce, Backend::Portable).unwrap();
        let cut = msg.len() / 3;
        m.update(&msg[..cut]);
        m.update(&msg[cut..]);
        let tag = <[u8; 16]>::from(m.finalize().into_bytes());
        for b in common::backends() {
            let one_shot = hiae::mac_with_backend::<V>(b, &key, &nonce, msg).unwrap();
            assert_eq!(one_shot, tag, "{} MAC {b} {} bytes", V::NAME, msg.len());
        }
    }
    let (key, nonce) = ([0x42; 32], [0x24; 16]);
    let data: Vec<u8> = (0..160u32).map(|i| (i * 37 + 11) as u8).collect();
    for len in 0..=160 {
        let msg = &data[..len];
        for ad in [&data[..len % 23], &data[..160 - len]] {
            one::<Hiae>(key, nonce, ad, msg);
            one::<HiaeX2>(key, nonce, ad, msg);
            one::<HiaeX4>(key, nonce, ad, msg);
        }
    }
}

/// Every backend equals the portable one on long messages whose lengths straddle the bulk
/// loops' boundaries: 256·d-byte chunks, and the 16-chunk pieces over which four lanes made of
/// several registers run one part at a time (`State::SPLIT`: HiAEx4 on VAES-AVX2, AES-NI and
/// Arm). Encryption, decryption (in place and out of place) and the MAC.
fn long_messages_equal_portable<V: Variant + NewWithBackend>() {
    let key = [0x5au8; 32];
    let nonce = [0xa5u8; 16];
    let chunk = 256 * V::LANES;
    let piece = 16 * chunk;
    let lengths = [
        chunk - 1,
        chunk + 16 * V::LANES - 1,
        piece - 16,
        piece,
        piece + chunk + 16 * V::LANES + 5,
        2 * piece + 3 * chunk + 17,
    ];
    for len in lengths {
        let msg: Vec<u8> = (0..len).map(|i| (i * 131 + i / 256) as u8).collect();
        backends_equal_portable::<V>(key, nonce, b"long", &msg);
        let p = V::with_backend(&key, Backend::Portable);
        let (ct, tag) = encrypt(&p, &nonce, b"long", &msg);
        for b in common::backends() {
            let c = V::with_backend(&key, b);
            let mut out = vec![0u8; len];
            c.decrypt_inout_detached(
                &nonce.into(),
                b"long",
                InOutBuf::new(&ct, &mut out).unwrap(),
                &tag.into(),
            )
            .unwrap();
            assert!(
                out == msg,
                "{} {b} out-of-place decrypt, {len} bytes",
                V::NAME
            );
        }
    }
}

/// Streamed decryption whose pieces fall on both sides of the size from which HiAE and HiAEx2
/// decryption on a VAES-AVX512 CPU runs the VAES-AVX2 loop (4 KiB): pieces of one stream then
/// run on both codes, which must share the state. Every backend, against the portable one.
fn stream_decryption_pieces_on_both_codes<V: Variant + NewWithBackend>() {
    let key = [0x3cu8; 32];
    let nonce = [0xc3u8; 16];
    let len = 30_000;
    let msg: Vec<u8> = (0..len).map(|i| (i * 29 + i / 512) as u8).collect();
    let p = V::with_backend(&key, Backend::Portable);
    let (ct, tag) = encrypt(&p, &nonce, b"ad", &msg);
    let cuts = [5000, 100, 4096, 3, 4095, 9000, 17];
    for b in common::backends() {
        let c = V::with_backend(&key, b);
        let n = nonce.into();
        let mut d = Decryptor::new(&c, &n);
        d.update_ad(b"ad").unwrap();
        for r in pieces(len, &cuts) {
            d.decrypt(&ct[r]).unwrap();
        }
        assert!(
            d.finalize(&tag.into()).unwrap() == msg,
            "{b}: streamed decryption"
        );
    }
}

#[test]
fn long_stream_decryption_pieces_on_both_codes_hiae() {
    stream_decryption_pieces_on_both_codes::<Hiae>();
}

#[test]
fn long_stream_decryption_pieces_on_both_codes_hiaex2() {
    stream_decryption_pieces_on_both_codes::<HiaeX2>();
}

#[test]
fn long_messages_hiae() {
    long_messages_equal_portable::<Hiae>();
}

#[test]
fn long_messages_hiaex2() {
    long_messages_equal_portable::<HiaeX2>();
}

#[test]
fn long_messages_hiaex4() {
    long_messages_equal_portable::<HiaeX4>();
}

/// aead's own dev checks (`pass_test` / `fail_test`) on a few vectors.
#[test]
fn aead_dev_checks() {
    use aead::dev::{TestVector, fail_test, pass_test};
    let f = common::load("hiae");
    for v in f.official_vectors.iter().take(6) {
        let key: &'static [u8] = Box::leak(common::h(&v.key).into_boxed_slice());
        let nonce: &'static [u8] = Box::leak(common::h(&v.nonce).into_boxed_slice());
        let aad: &'static [u8] = Box::leak(common::h(&v.ad).into_boxed_slice());
        let pt: &'static [u8] = Box::leak(common::h(v.msg.as_deref().unwrap()).into_boxed_slice());
        let mut ct = common::h(&v.ct);
        ct.extend_from_slice(&common::h(&v.tag));
        let ct: &'static [u8] = Box::leak(ct.into_boxed_slice());
        let tv = TestVector {
            key,
            nonce,
            aad,
            plaintext: pt,
            ciphertext: ct,
        };
        pass_test::<Hiae>(&tv).unwrap();
        let mut bad = ct.to_vec();
        bad[0] ^= 1;
        let bad: &'static [u8] = Box::leak(bad.into_boxed_slice());
        fail_test::<Hiae>(&TestVector {
            ciphertext: bad,
            ..tv
        })
        .unwrap();
    }
}

/// Misuse and limits: errors, not panics.
#[test]
fn errors_not_panics() {
    let c = Hiae::new(&[9; 32].into());
    let n = [0u8; 16].into();
    // Too-short combined ciphertext.
    let mut short = vec![0u8; 5];
    assert!(aead::AeadInOut::decrypt_in_place(&c, &n, b"", &mut short).is_err());
    // AD after ciphertext: an error.
    let mut d = Decryptor::new(&c, &n);
    d.decrypt(&[0xff; 8]).unwrap();
    assert!(d.update_ad(b"late").is_err());
    let _ = HiaeX2::new(&[0; 32].into());
    let _ = HiaeX4::new(&[0; 32].into());
}

/// A forged stream: whatever the caller does with the decryptor (finalize, drop, forget,
/// `ManuallyDrop`), no plaintext reaches the caller. The decryptor writes only to memory it
/// owns, so the caller's memory holds exactly what it held before (the ciphertext), and the
/// one method that returns decrypted bytes fails.
#[test]
fn quarantine_cannot_be_bypassed() {
    use aead::AeadInOut;
    let c = Hiae::new(&[9; 32].into());
    let n = [3u8; 16].into();
    let mut ct = *b"a secret that must stay secret if forged";
    let tag = c
        .encrypt_inout_detached(&n, b"", ct.as_mut_slice().into())
        .unwrap();
    let mut forged = ct;
    forged[5] ^= 0x80;
    let before = forged;

    let mut d = Decryptor::new(&c, &n);
    d.decrypt(&forged).unwrap();
    assert!(d.finalize(&tag).is_err());

    let mut d = Decryptor::new(&c, &n);
    d.decrypt(&forged).unwrap();
    std::mem::forget(d);

    let mut d = std::mem::ManuallyDrop::new(Decryptor::new(&c, &n));
    d.decrypt(&forged).unwrap();
    assert_eq!(d.message_len(), forged.len() as u64);

    assert_eq!(forged, before, "the decryptor wrote to the caller's memory");
    // The genuine ciphertext still decrypts.
    let mut d = Decryptor::new(&c, &n);
    d.decrypt(&ct).unwrap();
    assert_eq!(
        d.finalize(&tag).unwrap(),
        b"a secret that must stay secret if forged"
    );
}

#[test]
fn pieces_cover_the_input() {
    let whole = pieces(5, &[0, 0]);
    assert_eq!(whole.len(), 1);
    assert_eq!(whole[0], 0..5);
    assert_eq!(pieces(5, &[0, 2]), [0..0, 0..2, 2..2, 2..4, 4..4, 4..5]);
    assert_eq!(pieces(0, &[3]), Vec::<std::ops::Range<usize>>::new());
}
