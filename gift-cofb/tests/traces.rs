//! GIFT-128 block vectors and the step-by-step COFB traces
//! (`data/gift128-and-cofb-traces.json`), through the public `cipher` and
//! `aead` interfaces.

use gift_cofb::aead::{Aead, Nonce, Payload};
use gift_cofb::cipher::{Block, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use gift_cofb::{Gift128, GiftCofb};
use serde::Deserialize;

#[derive(Deserialize)]
struct File {
    gift128_vectors: Vec<BlockVector>,
    cofb_traces: Vec<Trace>,
}

#[derive(Deserialize)]
struct BlockVector {
    key: String,
    plaintext: String,
    ciphertext: String,
}

#[derive(Deserialize)]
struct Trace {
    kat_count: usize,
    key: String,
    nonce: String,
    ad: String,
    pt: String,
    ct_and_tag: String,
    trace: Vec<Step>,
}

#[derive(Deserialize)]
struct Step {
    step: String,
    #[serde(rename = "E_input")]
    e_input: Option<String>,
    #[serde(rename = "Y")]
    y: Option<String>,
}

fn file() -> File {
    serde_json::from_str(include_str!("data/gift128-and-cofb-traces.json")).unwrap()
}

fn bytes16(s: &str) -> [u8; 16] {
    hex::decode(s).unwrap().try_into().unwrap()
}

#[test]
fn gift128_block_vectors() {
    let f = file();
    assert_eq!(f.gift128_vectors.len(), 6);
    for v in &f.gift128_vectors {
        let cipher = Gift128::new(&bytes16(&v.key).into());
        let mut block = Block::<Gift128>::from(bytes16(&v.plaintext));
        cipher.encrypt_block(&mut block);
        assert_eq!(block, bytes16(&v.ciphertext), "encrypt {}", v.key);
        cipher.decrypt_block(&mut block);
        assert_eq!(block, bytes16(&v.plaintext), "decrypt {}", v.key);
        // Buffer-to-buffer and multi-block forms.
        let mut out = Block::<Gift128>::default();
        cipher.decrypt_block_b2b(&bytes16(&v.ciphertext).into(), &mut out);
        assert_eq!(out, bytes16(&v.plaintext));
        let mut blocks = [Block::<Gift128>::from(bytes16(&v.plaintext)); 3];
        cipher.encrypt_blocks(&mut blocks);
        assert!(blocks.iter().all(|b| *b == bytes16(&v.ciphertext)));
    }
}

#[test]
fn cofb_traces_block_cipher_steps() {
    // Every `Y = E(E_input)` step of the traces is a GIFT-128 vector with the
    // KAT key; the first step is `Y = E(N)`.
    let mut checked = 0;
    for t in file().cofb_traces {
        let cipher = Gift128::new(&bytes16(&t.key).into());
        for s in &t.trace {
            let input = match (&s.e_input, s.step.starts_with("Y = E_K(N)")) {
                (Some(x), _) => bytes16(x),
                (None, true) => bytes16(&t.nonce),
                (None, false) => continue,
            };
            let y = bytes16(s.y.as_ref().unwrap());
            let mut block = Block::<Gift128>::from(input);
            cipher.encrypt_block(&mut block);
            assert_eq!(block, y, "KAT {}: {}", t.kat_count, s.step);
            cipher.decrypt_block(&mut block);
            assert_eq!(block, input);
            checked += 1;
        }
    }
    // Traces of 3, 3, 4, 4, 5 and 6 steps, each ending with "tag = Y".
    assert_eq!(checked, 2 + 2 + 3 + 3 + 4 + 5);
}

#[test]
fn cofb_traces_end_to_end() {
    for t in file().cofb_traces {
        let cipher = GiftCofb::new(&bytes16(&t.key).into());
        let nonce = Nonce::<GiftCofb>::from(bytes16(&t.nonce));
        let (ad, pt) = (hex::decode(&t.ad).unwrap(), hex::decode(&t.pt).unwrap());
        let ct = cipher
            .encrypt(&nonce, Payload { msg: &pt, aad: &ad })
            .unwrap();
        assert_eq!(hex::encode(&ct), t.ct_and_tag, "KAT {}", t.kat_count);
        assert_eq!(
            cipher
                .decrypt(&nonce, Payload { msg: &ct, aad: &ad })
                .unwrap(),
            pt
        );
    }
}

#[test]
fn gift128_round_trip_many_keys() {
    // Pseudo-random keys and blocks (xorshift), encrypt then decrypt.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    // Interpreted (Miri), a few keys: each takes the same path.
    for _ in 0..if cfg!(miri) { 8 } else { 200 } {
        let mut key = [0u8; 16];
        key[..8].copy_from_slice(&next().to_le_bytes());
        key[8..].copy_from_slice(&next().to_le_bytes());
        let cipher = Gift128::new(&key.into());
        let mut blocks: Vec<Block<Gift128>> = (0..4)
            .map(|_| {
                let mut b = [0u8; 16];
                b[..8].copy_from_slice(&next().to_le_bytes());
                b[8..].copy_from_slice(&next().to_le_bytes());
                b.into()
            })
            .collect();
        let orig = blocks.clone();
        cipher.encrypt_blocks(&mut blocks);
        assert!(blocks.iter().zip(&orig).all(|(a, b)| a != b));
        cipher.decrypt_blocks(&mut blocks);
        assert_eq!(blocks, orig);
    }
}

#[test]
fn debug_hides_keys() {
    let key = [0xabu8; 16];
    let s = format!(
        "{:?} {:?}",
        GiftCofb::new(&key.into()),
        Gift128::new(&key.into())
    );
    assert!(
        !s.to_lowercase().contains("ab, ") && !s.contains("171"),
        "{s}"
    );
    assert!(!s.contains("rk"), "{s}");
}
