//! The `digest` traits: `digest::dev` MAC tests on the zero-nonce vectors, `KeyIvInit`,
//! `new_from_slice`, `Debug` without key material.

mod common;

use digest::dev::{MacTestVector, MacTruncSide, mac_test, reset_mac_test};
use digest::{KeyInit, Mac};
use lemac::{LeMac, LeMacKey, LeMacX2, LeMacX4};

fn dev_tests<M: Mac + KeyInit + digest::FixedOutputReset + Clone>(d: usize) {
    // `MacTestVector` holds `'static` slices.
    let vs: &'static [common::Vector] = Box::leak(common::vectors(d).into_boxed_slice());
    let mut n = 0;
    for v in vs.iter().filter(|v| v.nonce == [0; 16]) {
        let tv = MacTestVector {
            key: &v.key,
            input: &v.msg,
            tag: &v.tag,
        };
        mac_test::<M>(&tv, MacTruncSide::None).unwrap();
        reset_mac_test::<M>(&tv, MacTruncSide::None).unwrap();
        mac_test::<M>(
            &MacTestVector {
                tag: &v.tag[..8],
                ..tv
            },
            MacTruncSide::Left,
        )
        .unwrap();
        n += 1;
    }
    assert!(n >= 257 || cfg!(miri), "zero-nonce vectors: {n}");
}

#[test]
fn digest_dev_lemac() {
    dev_tests::<LeMac>(1);
}

#[test]
fn digest_dev_lemacx2() {
    dev_tests::<LeMacX2>(2);
}

#[test]
fn digest_dev_lemacx4() {
    dev_tests::<LeMacX4>(4);
}

#[test]
fn key_iv_init_and_slices() {
    use digest::common::KeyIvInit;
    for v in common::vectors(1).iter().take(40) {
        let m = <LeMac as KeyIvInit>::new(&v.key.into(), &v.nonce.into());
        assert_eq!(
            m.chain_update(&v.msg).finalize().into_bytes().as_slice(),
            &v.tag
        );
        let m = <LeMac as KeyIvInit>::new_from_slices(&v.key, &v.nonce).unwrap();
        assert_eq!(
            m.chain_update(&v.msg).finalize().into_bytes().as_slice(),
            &v.tag
        );
        let m = LeMac::new_with_nonce(&v.key, &v.nonce);
        assert_eq!(m.chain_update(&v.msg).finalize_tag(), v.tag);
    }
    assert!(<LeMac as KeyInit>::new_from_slice(&[0; 15]).is_err());
    assert!(<LeMac as KeyInit>::new_from_slice(&[0; 17]).is_err());
}

#[test]
fn lemacsum_compatible_defaults() {
    // `lemacsum`: all-zero key and nonce; "hej\n" from pauldreik's test_tool.sh.
    let tag = LeMac::new(&[0; 16].into())
        .chain_update(b"hej\n")
        .finalize_tag();
    assert_eq!(tag, hex_literal::hex!("5f4aad4604ceefad43c9336d29671556"));
    let key = LeMacKey::new(&[0; 16]);
    assert_eq!(key.mac(b"hej\n", &[0; 16]), tag);
    assert_eq!(key.hasher().chain_update(b"hej\n").finalize_tag(), tag);
}

#[test]
fn debug_does_not_print_keys() {
    let key = [0xa5u8; 16];
    let k = LeMacKey::new(&key);
    let m = LeMac::new(&key.into());
    let u = lemac::LeMacUh::new_with_key(&key);
    for s in [format!("{k:?}"), format!("{m:?}"), format!("{u:?}")] {
        assert!(!s.contains("a5") && !s.contains("165"), "{s}");
        assert!(s.contains("backend"), "{s}");
    }
}
