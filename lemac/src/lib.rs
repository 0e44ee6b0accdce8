#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

mod key;
mod mac;
mod state;
mod uh;
mod width;

pub use aes_lanes::{Backend, Unavailable};
pub use digest;
pub use digest::{KeyInit, Mac, MacError};
pub use key::LeMacKeyGeneric;
pub use mac::LeMacGeneric;
pub use uh::LeMacUhGeneric;
pub use universal_hash;
pub use width::{Supported, Width};

/// A 16-byte LeMac nonce.
pub type Nonce = [u8; 16];
/// A 16-byte LeMac tag.
pub type Tag = [u8; 16];

/// LeMac (1 lane, 64-byte rounds): the corrected LeMac of the ToSC 2024 paper.
pub type LeMac = LeMacGeneric<1>;
/// LeMacX2 (2 lanes, 128-byte rounds).
pub type LeMacX2 = LeMacGeneric<2>;
/// LeMacX4 (4 lanes, 256-byte rounds).
pub type LeMacX4 = LeMacGeneric<4>;

/// Expanded key of [`LeMac`] (the keyed context: derive once, reuse).
pub type LeMacKey = LeMacKeyGeneric<1>;
/// Expanded key of [`LeMacX2`].
pub type LeMacKeyX2 = LeMacKeyGeneric<2>;
/// Expanded key of [`LeMacX4`].
pub type LeMacKeyX4 = LeMacKeyGeneric<4>;

/// LeMac-UH, the universal hash inside [`LeMac`].
pub type LeMacUh = LeMacUhGeneric<1>;
/// The universal hash inside [`LeMacX2`].
pub type LeMacUhX2 = LeMacUhGeneric<2>;
/// The universal hash inside [`LeMacX4`].
pub type LeMacUhX4 = LeMacUhGeneric<4>;

#[cfg(test)]
mod tests {
    use aes_lanes::Soft;
    use aes_lanes::aes128;

    #[test]
    fn aes128_fips197_example() {
        // FIPS-197 appendix B: the round keys end in d014f9a8…, the block encrypts to 3925841d….
        let key = hex_literal::hex!("2b7e151628aed2a6abf7158809cf4f3c");
        let rk = aes128::expand::<Soft<1>>(&key);
        assert_eq!(
            rk[10],
            hex_literal::hex!("d014f9a8c9ee2589e13f0cc8b6630ca6")
        );
        let pt = hex_literal::hex!("3243f6a8885a308d313198a2e0370734");
        assert_eq!(
            aes128::encrypt_block(&pt, &aes128::schedule_lanes::<Soft<1>>(&rk)),
            hex_literal::hex!("3925841d02dc09fbdc118597196a0b32")
        );
    }

    #[test]
    fn key_derivation_check_values() {
        // Spec §2 check values (pauldreik/lemac tests.cpp) for the FIPS-197 key, every backend.
        let key = hex_literal::hex!("2b7e151628aed2a6abf7158809cf4f3c");
        for b in crate::Backend::available() {
            let k = crate::LeMacKey::new_with_backend(&key, b).unwrap();
            assert_eq!(
                k.m.init[0][0],
                hex_literal::hex!("7df76b0c1ab899b33e42f047b91b546f")
            );
            assert_eq!(
                k.m.sk[0][0],
                hex_literal::hex!("d3f3216ed0cac29f0f23066109064795")
            );
            assert_eq!(
                k.m.k2[0],
                hex_literal::hex!("65cce56bc727a71ac624826d3ebb98b5")
            );
            assert_eq!(
                k.m.k3[0],
                hex_literal::hex!("4b665e0bba677ecc604e85fc453ecaf2")
            );
        }
    }

    #[test]
    fn aes128_fips197() {
        let key = hex_literal::hex!("000102030405060708090a0b0c0d0e0f");
        let pt = hex_literal::hex!("00112233445566778899aabbccddeeff");
        let rk = aes128::schedule_lanes::<Soft<1>>(&aes128::expand::<Soft<1>>(&key));
        assert_eq!(
            aes128::encrypt_block(&pt, &rk),
            hex_literal::hex!("69c4e0d86a7b0430d8cdb78070b4c55a")
        );
    }
}
