//! Shared test helpers: the vector files and a small deterministic generator.
#![allow(dead_code)]

use lemac::Backend;
use serde::Deserialize;

/// One MAC vector (hex fields decoded).
#[derive(Clone, Debug)]
pub struct Vector {
    pub key: [u8; 16],
    pub nonce: [u8; 16],
    pub msg: Vec<u8>,
    pub tag: [u8; 16],
}

#[derive(Deserialize)]
struct RawVector {
    key: String,
    nonce: String,
    msg: String,
    tag: String,
}

#[derive(Deserialize)]
struct RawFile {
    #[serde(default)]
    official_vectors: Vec<RawVector>,
    vectors: Vec<RawVector>,
    #[serde(default)]
    extra_check_vectors: Vec<RawVector>,
}

fn block(h: &str) -> [u8; 16] {
    hex::decode(h).unwrap().try_into().unwrap()
}

fn parse(json: &str) -> Vec<Vector> {
    let f: RawFile = serde_json::from_str(json).unwrap();
    f.official_vectors
        .iter()
        .chain(&f.vectors)
        .chain(&f.extra_check_vectors)
        .map(|v| Vector {
            key: block(&v.key),
            nonce: block(&v.nonce),
            msg: hex::decode(&v.msg).unwrap(),
            tag: block(&v.tag),
        })
        .collect()
}

/// The vectors for `d` lanes (1 = lemac.json, 2 = lemacx2.json, 4 = lemacx4.json).
///
/// Message lengths checked under Miri (interpreted): empty, one LeMac block (64 bytes) and a
/// byte, one LeMacX4 block (256 bytes) and a byte.
const MIRI_LENGTHS: [usize; 3] = [0, 65, 257];

/// Under Miri the first vector of each length in [`MIRI_LENGTHS`]; natively all of them.
pub fn vectors(d: usize) -> Vec<Vector> {
    let all = all_vectors(d);
    if cfg!(miri) {
        MIRI_LENGTHS
            .iter()
            .map(|&n| {
                all.iter()
                    .find(|v| v.msg.len() == n)
                    .unwrap_or_else(|| panic!("no {n}-byte vector"))
                    .clone()
            })
            .collect()
    } else {
        all
    }
}

/// Every vector for `d` lanes.
pub fn all_vectors(d: usize) -> Vec<Vector> {
    match d {
        1 => parse(include_str!("../data/lemac.json")),
        2 => parse(include_str!("../data/lemacx2.json")),
        4 => parse(include_str!("../data/lemacx4.json")),
        _ => unreachable!(),
    }
}

/// xorshift64*: deterministic chunk sizes and messages.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// The backends under test: every one this machine can run (under Miri: those its compile-time
/// target features enable, else the portable one), or exactly those named in `TEST_BACKENDS`
/// (comma-separated names such as `VAES-AVX512`). A named backend that is unknown or not
/// available here is an error, so a typo or a missing tier cannot pass by testing nothing.
pub fn backends() -> Vec<Backend> {
    let list = std::env::var("TEST_BACKENDS").ok();
    Backend::select(list.as_deref())
        .unwrap_or_else(|e| panic!("TEST_BACKENDS: {e}"))
        .collect()
}

/// Number of proptest cases: `PROPTEST_CASES` if set, else `default`.
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}
