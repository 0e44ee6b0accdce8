//! LeMac-UH (`universal_hash::UniversalHash`): its definition as the MAC's value before the
//! nonce step, checked against an independent AES-128 (the `aes` crate):
//! `MAC_K(M, N) = E_k3(UH_K(M) ^ N ^ E_k2(N))` with `k2 = E_K(LE128(27))`, `k3 = E_K(LE128(28))`.

mod common;

use aes::Aes128;
use aes::cipher::{BlockCipherEncrypt, KeyInit as _};
use lemac::{LeMacKeyGeneric, LeMacUhGeneric, Supported, Width};
use universal_hash::UniversalHash;

fn e(key: &[u8; 16], block: &[u8; 16]) -> [u8; 16] {
    let c = Aes128::new(key.into());
    let mut b = (*block).into();
    c.encrypt_block(&mut b);
    b.into()
}

fn le128(i: u8) -> [u8; 16] {
    let mut b = [0; 16];
    b[0] = i;
    b
}

fn xor(a: [u8; 16], b: [u8; 16]) -> [u8; 16] {
    core::array::from_fn(|i| a[i] ^ b[i])
}

fn identity<const D: usize>()
where
    Width<D>: Supported<D>,
{
    for v in common::vectors(D).iter().step_by(7) {
        let k2 = e(&v.key, &le128(27));
        let k3 = e(&v.key, &le128(28));
        for backend in common::backends() {
            let key = LeMacKeyGeneric::<D>::new_with_backend(&v.key, backend).unwrap();
            let h = key.uhash(&v.msg);
            let tag = e(&k3, &xor(xor(h, v.nonce), e(&k2, &v.nonce)));
            assert_eq!(tag, v.tag, "D={D} {backend}");
            // The UniversalHash value is the same H, through whole blocks when the message
            // is a multiple of 16 bytes, and through raw bytes otherwise.
            let mut uh = LeMacUhGeneric::<D>::from_key(key.clone());
            if v.msg.len() % 16 == 0 {
                let blocks: Vec<universal_hash::Block<LeMacUhGeneric<D>>> = v
                    .msg
                    .chunks(16)
                    .map(|c| <[u8; 16]>::try_from(c).unwrap().into())
                    .collect();
                // Split the blocks in two calls to cross a buffer boundary.
                let half = blocks.len() / 3;
                uh.update(&blocks[..half]);
                uh.update(&blocks[half..]);
            } else {
                uh.update_bytes(&v.msg);
            }
            let clone = uh.clone();
            assert_eq!(<[u8; 16]>::from(uh.finalize()), h);
            assert_eq!(<[u8; 16]>::from(clone.finalize()), h);
        }
    }
}

#[test]
fn mac_is_ek3_of_uh_and_nonce_mask() {
    identity::<1>();
    identity::<2>();
    identity::<4>();
}

#[test]
fn key_schedule_check_values() {
    // pauldreik/lemac tests.cpp check values for the FIPS-197 key (spec §2): k2 and k3.
    let key = hex_literal::hex!("2b7e151628aed2a6abf7158809cf4f3c");
    assert_eq!(
        e(&key, &le128(27)),
        hex_literal::hex!("65cce56bc727a71ac624826d3ebb98b5")
    );
    assert_eq!(
        e(&key, &le128(28)),
        hex_literal::hex!("4b665e0bba677ecc604e85fc453ecaf2")
    );
    assert_eq!(
        e(&key, &le128(0)),
        hex_literal::hex!("7df76b0c1ab899b33e42f047b91b546f")
    );
    assert_eq!(
        e(&key, &le128(9)),
        hex_literal::hex!("d3f3216ed0cac29f0f23066109064795")
    );
}

#[test]
fn update_padded_and_with_backend_paths() {
    let key = [9u8; 16];
    let msg: Vec<u8> = (0..200u8).collect();
    let mut a = lemac::LeMacUh::new(&key.into());
    a.update_padded(&msg);
    // update_padded = the message zero-padded to a multiple of 16, then MAC padding.
    let mut padded = msg.clone();
    padded.resize(208, 0);
    let expected = lemac::LeMacKey::new(&key).uhash(&padded);
    assert_eq!(<[u8; 16]>::from(a.clone().finalize()), expected);
    // finalize_reset, then the same input again.
    let first = a.finalize_reset();
    assert_eq!(<[u8; 16]>::from(first), expected);
    a.update_padded(&msg);
    assert_eq!(<[u8; 16]>::from(a.finalize()), expected);

    // The UhfBackend path (block by block through update_with_backend).
    struct Feed<'a>(&'a [universal_hash::Block<lemac::LeMacUh>]);
    impl universal_hash::common::BlockSizeUser for Feed<'_> {
        type BlockSize = universal_hash::consts::U16;
    }
    impl universal_hash::UhfClosure for Feed<'_> {
        fn call<B: universal_hash::UhfBackend<BlockSize = Self::BlockSize>>(self, b: &mut B) {
            for blk in self.0 {
                b.proc_block(blk);
            }
        }
    }
    let blocks: Vec<_> = padded
        .chunks(16)
        .map(|c| <[u8; 16]>::try_from(c).unwrap().into())
        .collect();
    let mut c = lemac::LeMacUh::new(&key.into());
    c.update_with_backend(Feed(&blocks));
    assert_eq!(<[u8; 16]>::from(c.finalize()), expected);
}

#[test]
fn uh_verify() {
    let key = [3u8; 16];
    let blocks = [[5u8; 16].into(); 9];
    let mut a = lemac::LeMacUh::new(&key.into());
    a.update(&blocks);
    let h = a.clone().finalize();
    assert!(a.clone().verify(&h).is_ok());
    let mut bad = h;
    bad[0] ^= 1;
    assert!(a.verify(&bad).is_err());
}
