//! Every vector of `tests/data/*.json` on every backend this machine can run.

mod common;

use aead::{Aead, Payload};
use common::*;
use hiae::digest::common::KeyIvInit;
use hiae::stream::{Decryptor, Encryptor, UnverifiedDecryptor};
use hiae::{GenericMac, Hiae, HiaeX2, HiaeX4, Mac, Variant};

/// Checks one passing vector on every backend, through every API.
fn check_pass<V: Variant + NewWithBackend>(
    key: &str,
    nonce: &str,
    ad: &str,
    msg: &str,
    ct: &str,
    tag: &str,
) {
    let (key, nonce, ad, msg, ct, tag) = (key32(key), b16(nonce), h(ad), h(msg), h(ct), b16(tag));
    if !runs(msg.len().max(ad.len())) {
        return;
    }
    let nonce_a = nonce.into();
    let tag_a = tag.into();
    for c in ciphers::<V>(&key) {
        let what = format!("{} on {}", V::NAME, c.backend());
        // Aead (Vec), combined ct || tag.
        let out = c
            .encrypt(
                &nonce_a,
                Payload {
                    msg: &msg,
                    aad: &ad,
                },
            )
            .unwrap();
        assert_eq!(&out[..msg.len()], &ct[..], "ct {what}");
        assert_eq!(&out[msg.len()..], &tag[..], "tag {what}");
        let back = c
            .decrypt(
                &nonce_a,
                Payload {
                    msg: &out,
                    aad: &ad,
                },
            )
            .unwrap();
        assert_eq!(back, msg, "decrypt {what}");
        // Out of place with garbage in the output.
        let mut buf: Vec<u8> = (0..msg.len()).map(|i| i as u8 ^ 0x5a).collect();
        let t = c
            .encrypt_inout_detached(
                &nonce_a,
                &ad,
                aead::inout::InOutBuf::new(&msg, &mut buf).unwrap(),
            )
            .unwrap();
        assert_eq!((&buf[..], &t[..]), (&ct[..], &tag[..]), "inout enc {what}");
        let mut buf: Vec<u8> = (0..msg.len()).map(|i| i as u8 ^ 0xa5).collect();
        c.decrypt_inout_detached(
            &nonce_a,
            &ad,
            aead::inout::InOutBuf::new(&ct, &mut buf).unwrap(),
            &tag_a,
        )
        .unwrap();
        assert_eq!(buf, msg, "inout dec {what}");
        // Streaming, in a few fixed chunkings. Interpreted, one piece size that leaves blocks
        // unfinished (33) and one past the inputs (1000, which ends on a block boundary for
        // the vectors of whole blocks) reach every path of the stream code; smaller pieces
        // only repeat them.
        let steps: &[usize] = if cfg!(miri) {
            &[33, 1000]
        } else {
            &[1, 7, 16, 33, 64, 1000]
        };
        for &step in steps {
            if step < 16 && msg.len() + ad.len() > 300 {
                continue; // tiny pieces of long inputs: covered by the proptests
            }
            let mut e = Encryptor::new(&c, &nonce_a);
            for a in ad.chunks(step) {
                e.update_ad(a).unwrap();
            }
            let mut buf = msg.clone();
            for piece in buf.chunks_mut(step) {
                e.encrypt(piece).unwrap();
            }
            assert_eq!(buf, ct, "stream enc step {step} {what}");
            assert_eq!(e.finalize(), tag_a, "stream tag step {step} {what}");

            let mut d = Decryptor::new(&c, &nonce_a);
            for a in ad.chunks(step) {
                d.update_ad(a).unwrap();
            }
            for piece in ct.chunks(step) {
                d.decrypt(piece).unwrap();
            }
            assert_eq!(
                d.finalize(&tag_a).unwrap(),
                &msg[..],
                "stream dec step {step} {what}"
            );

            let mut d = UnverifiedDecryptor::new(&c, &nonce_a);
            d.update_ad(&ad).unwrap();
            let mut buf = ct.clone();
            for piece in buf.chunks_mut(step) {
                d.decrypt_unverified(piece).unwrap();
            }
            d.verify(&tag_a).unwrap();
            assert_eq!(buf, msg, "unverified dec step {step} {what}");
        }
        // Hazmat.
        let bs = V::BLOCK_SIZE;
        let mut st = hiae::hazmat::State::new(&c, &nonce);
        let mut padded = ad.clone();
        padded.resize(ad.len().div_ceil(bs) * bs, 0);
        st.absorb(&padded);
        let mut buf = msg.clone();
        let full = buf.len() / bs * bs;
        let (blocks, tail) = buf.split_at_mut(full);
        st.enc(blocks);
        st.enc_partial(tail);
        assert_eq!(buf, ct, "hazmat enc {what}");
        assert_eq!(
            st.finalize(ad.len() as u64, msg.len() as u64),
            tag,
            "hazmat tag {what}"
        );
        let mut st = hiae::hazmat::State::new(&c, &nonce);
        st.absorb(&padded);
        let mut buf = ct.clone();
        let (blocks, tail) = buf.split_at_mut(full);
        st.dec(blocks);
        st.dec_partial(tail);
        assert_eq!(buf, msg, "hazmat dec {what}");
        assert_eq!(
            st.finalize(ad.len() as u64, msg.len() as u64),
            tag,
            "hazmat dec tag {what}"
        );
    }
}

/// Checks that decryption fails and zeroes the output, on every backend.
fn check_fail<V: Variant + NewWithBackend>(key: &str, nonce: &str, ad: &str, ct: &str, tag: &str) {
    let (key, nonce, ad, ct, tag) = (key32(key), b16(nonce), h(ad), h(ct), b16(tag));
    if !runs(ct.len().max(ad.len())) {
        return;
    }
    for c in ciphers::<V>(&key) {
        let mut buf = ct.clone();
        let r =
            c.decrypt_inout_detached(&nonce.into(), &ad, buf.as_mut_slice().into(), &tag.into());
        assert!(r.is_err(), "{} accepted a forgery", V::NAME);
        assert!(buf.iter().all(|&b| b == 0), "output not wiped");
        let mut combined = ct.clone();
        combined.extend_from_slice(&tag);
        assert!(
            c.decrypt(
                &nonce.into(),
                Payload {
                    msg: &combined,
                    aad: &ad
                }
            )
            .is_err()
        );
        let mut d = Decryptor::new(&c, &nonce.into());
        d.update_ad(&ad).unwrap();
        d.decrypt(&ct).unwrap();
        assert!(d.finalize(&tag.into()).is_err());
    }
}

fn check_mac<V: Variant>(key: &str, nonce: &str, data: &str, tag: &str) {
    let (key, nonce, data, tag) = (key32(key), b16(nonce), h(data), b16(tag));
    if !runs(data.len()) {
        return;
    }
    assert_eq!(
        hiae::mac::<V>(&key, &nonce, &data),
        tag,
        "{} one-shot MAC",
        V::NAME
    );
    for b in backends() {
        // Under Miri (slow, no assembly) the detected backend's one-shot MAC above suffices.
        if !cfg!(miri) {
            assert_eq!(
                hiae::mac_with_backend::<V>(b, &key, &nonce, &data).unwrap(),
                tag,
                "{} one-shot MAC on {b}",
                V::NAME
            );
            assert_eq!(
                hiae::mac_with_token::<V>(b.token().unwrap(), &key, &nonce, &data),
                tag,
                "{} one-shot MAC on a {b} token",
                V::NAME
            );
        }
        let mut m = GenericMac::<V>::new_with_backend(&key, &nonce, b).unwrap();
        for piece in data.chunks(37) {
            m.update(piece);
        }
        let mut m2 = m.clone();
        assert_eq!(
            <[u8; 16]>::from(m.finalize_reset().into_bytes()),
            tag,
            "{} MAC on {b}",
            V::NAME
        );
        m.update(&data);
        m.verify_slice(&tag).unwrap();
        m2.update(b"x");
        assert!(m2.verify_slice(&tag).is_err());
    }
    let m = GenericMac::<V>::new(&key.into(), &nonce.into()).chain_update(&data);
    assert_eq!(<[u8; 16]>::from(m.finalize().into_bytes()), tag);
}

#[test]
fn hiae_official_and_generated() {
    let f = load("hiae");
    assert_eq!(f.official_vectors.len(), 12);
    assert_eq!(f.generated_vectors.len(), 29);
    for v in f.official_vectors.iter().chain(&f.generated_vectors) {
        check_pass::<Hiae>(
            &v.key,
            &v.nonce,
            &v.ad,
            v.msg.as_deref().unwrap(),
            &v.ct,
            &v.tag,
        );
    }
}

#[test]
fn hiae_mac() {
    let f = load("hiae");
    assert_eq!(f.mac_vectors.len(), 29);
    for v in &f.mac_vectors {
        check_mac::<Hiae>(&v.key, &v.nonce, &v.data, &v.tag);
    }
}

#[test]
fn hiae_must_fail() {
    let f = load("hiae");
    assert_eq!(f.must_fail_vectors.len(), 19);
    for v in &f.must_fail_vectors {
        check_fail::<Hiae>(&v.key, &v.nonce, &v.ad, &v.ct, &v.tag);
    }
}

/// Version B (pre-2025-11 init) vectors must fail: we implement version C.
#[test]
fn legacy_vectors_fail() {
    let f = load("hiae");
    assert_eq!(f.legacy_pre_2025_11_vectors.len(), 10);
    for v in &f.legacy_pre_2025_11_vectors {
        check_fail::<Hiae>(&v.key, &v.nonce, &v.ad, &v.ct, &v.tag);
    }
    let f = load("hiaex2");
    assert_eq!(f.legacy_pre_2025_11_vectors.len(), 5);
    for v in &f.legacy_pre_2025_11_vectors {
        check_fail::<HiaeX2>(&v.key, &v.nonce, &v.ad, &v.ct, &v.tag);
    }
}

#[test]
fn hiaex2_vectors() {
    let f = load("hiaex2");
    assert_eq!(f.published_vectors.len(), 5);
    assert_eq!(f.generated_vectors.len(), 29);
    for v in f.published_vectors.iter().chain(&f.generated_vectors) {
        check_pass::<HiaeX2>(
            &v.key,
            &v.nonce,
            &v.ad,
            v.msg.as_deref().unwrap(),
            &v.ct,
            &v.tag,
        );
    }
    for v in &f.must_fail_vectors {
        check_fail::<HiaeX2>(&v.key, &v.nonce, &v.ad, &v.ct, &v.tag);
    }
}

/// HiAEx2 MAC: zig-hiae's lane-0 definition (libhiae folds all lanes: must differ).
#[test]
fn hiaex2_mac() {
    let f = load("hiaex2");
    assert_eq!(f.mac_vectors.len(), 29);
    for v in &f.mac_vectors {
        let zig = v.tag_zig_hiae_variant.as_deref().unwrap();
        check_mac::<HiaeX2>(&v.key, &v.nonce, &v.data, zig);
        assert_ne!(zig, v.tag);
    }
}

/// HiAEx4: zig-hiae columns pass; libhiae's columns (mistyped C1 table) must not.
#[test]
fn hiaex4_vectors() {
    let f = load("hiaex4");
    assert_eq!(f.generated_vectors.len(), 29);
    for v in &f.generated_vectors {
        let ct = v.ct_zig_hiae_variant.as_deref().unwrap();
        let tag = v.tag_zig_hiae_variant.as_deref().unwrap();
        let msg = v.msg.as_deref().unwrap();
        check_pass::<HiaeX4>(&v.key, &v.nonce, &v.ad, msg, ct, tag);
        // libhiae's column is a different cipher.
        check_fail::<HiaeX4>(&v.key, &v.nonce, &v.ad, &v.ct, &v.tag);
        // Bit flips of the zig column fail (interpreted: the tag flip; the others take the
        // same path).
        let mut t = b16(tag);
        t[15] ^= 0x80;
        check_fail::<HiaeX4>(&v.key, &v.nonce, &v.ad, ct, &hex::encode(t));
        if cfg!(miri) {
            continue;
        }
        if !ct.is_empty() {
            let mut c = h(ct);
            c[0] ^= 1;
            check_fail::<HiaeX4>(&v.key, &v.nonce, &v.ad, &hex::encode(c), tag);
        }
        let mut n = b16(&v.nonce);
        n[0] ^= 1;
        check_fail::<HiaeX4>(&v.key, &hex::encode(n), &v.ad, ct, tag);
    }
    for v in &f.must_fail_vectors {
        check_fail::<HiaeX4>(&v.key, &v.nonce, &v.ad, &v.ct, &v.tag);
    }
}

#[test]
fn hiaex4_mac() {
    let f = load("hiaex4");
    assert_eq!(f.mac_vectors.len(), 29);
    for v in &f.mac_vectors {
        let zig = v.tag_zig_hiae_variant.as_deref().unwrap();
        check_mac::<HiaeX4>(&v.key, &v.nonce, &v.data, zig);
        assert_ne!(zig, v.tag);
    }
}

#[test]
fn backends_listed() {
    let all = backends();
    if std::env::var_os("TEST_BACKENDS").is_none() {
        assert_eq!(all.last(), Some(&hiae::Backend::Portable));
    }
    eprintln!("backends under test: {all:?}");
    let c = Hiae::new_with_backend(&[0; 32].into(), hiae::Backend::Portable).unwrap();
    assert_eq!(c.implementation_name(), "Portable");
    for b in hiae::Backend::ALL {
        assert_eq!(
            Hiae::new_with_backend(&[0; 32].into(), b).is_ok(),
            b.is_available()
        );
    }
    assert!(!format!("{c:?}").contains("0, 0"));
}
