//! Shared test helpers: vector files and backend iteration.
#![allow(dead_code)]

use hiae::{Backend, Variant};
use serde::Deserialize;

/// Decodes lowercase hex.
pub fn h(s: &str) -> Vec<u8> {
    hex::decode(s).expect("hex")
}

/// A 32-byte key from hex.
pub fn key32(s: &str) -> [u8; 32] {
    h(s).try_into().expect("32-byte key")
}

/// A 16-byte block from hex.
pub fn b16(s: &str) -> [u8; 16] {
    h(s).try_into().expect("16 bytes")
}

/// An AEAD vector (the optional fields exist in some files only).
#[derive(Deserialize, Clone, Debug)]
pub struct AeadVector {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub id: Option<u64>,
    pub key: String,
    pub nonce: String,
    pub ad: String,
    #[serde(default)]
    pub msg: Option<String>,
    pub ct: String,
    pub tag: String,
    #[serde(default)]
    pub ct_zig_hiae_variant: Option<String>,
    #[serde(default)]
    pub tag_zig_hiae_variant: Option<String>,
    #[serde(default)]
    pub mutation: Option<String>,
}

/// A MAC vector.
#[derive(Deserialize, Clone, Debug)]
pub struct MacVector {
    pub id: u64,
    pub key: String,
    pub nonce: String,
    pub data: String,
    pub tag: String,
    #[serde(default)]
    pub tag_zig_hiae_variant: Option<String>,
}

/// A vector file (sections absent from a file are empty).
#[derive(Deserialize, Debug)]
pub struct VectorFile {
    #[serde(default)]
    pub official_vectors: Vec<AeadVector>,
    #[serde(default)]
    pub published_vectors: Vec<AeadVector>,
    #[serde(default)]
    pub generated_vectors: Vec<AeadVector>,
    #[serde(default)]
    pub mac_vectors: Vec<MacVector>,
    #[serde(default)]
    pub must_fail_vectors: Vec<AeadVector>,
    #[serde(default)]
    pub legacy_pre_2025_11_vectors: Vec<AeadVector>,
}

pub fn load(name: &str) -> VectorFile {
    let text = match name {
        "hiae" => include_str!("../data/hiae.json"),
        "hiaex2" => include_str!("../data/hiaex2.json"),
        "hiaex4" => include_str!("../data/hiaex4.json"),
        _ => panic!("unknown vector file {name}"),
    };
    serde_json::from_str(text).expect("vector JSON")
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

/// The backend other backends' bulk loops are checked against: AES-NI (plain loop forms)
/// where the machine (or, under Miri, the compile-time target features) has it, else the
/// portable one.
pub fn reference() -> Backend {
    if Backend::AesNi.is_available() {
        Backend::AesNi
    } else {
        Backend::Portable
    }
}

/// `len` bytes that differ from block to block (a repeating pattern could hide a lane mix-up).
pub fn data(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[1] ^ seed)
        .collect()
}

/// Cipher instances of `V` on every available backend.
pub fn ciphers<V: Variant + NewWithBackend>(key: &[u8; 32]) -> Vec<V> {
    backends()
        .into_iter()
        .map(|b| V::with_backend(key, b))
        .collect()
}

/// Uniform access to `new_with_backend` across the three cipher types.
pub trait NewWithBackend: Sized {
    fn with_backend(key: &[u8; 32], b: Backend) -> Self;
}

macro_rules! nwb {
    ($t:ty) => {
        impl NewWithBackend for $t {
            fn with_backend(key: &[u8; 32], b: Backend) -> Self {
                <$t>::new_with_backend(&(*key).into(), b).expect("available backend")
            }
        }
    };
}
nwb!(hiae::Hiae);
nwb!(hiae::HiaeX2);
nwb!(hiae::HiaeX4);

/// Largest vector input exercised under Miri by default (interpreting bitsliced AES is slow).
pub const MIRI_MAX_LEN: usize = 256;

/// The input lengths (the longer of message and associated data) exercised under Miri: empty,
/// partial blocks, one block and more of every width, several blocks. The other lengths take
/// the same paths; natively every vector runs.
pub const MIRI_LENGTHS: [usize; 7] = [0, 1, 17, 33, 65, 129, 256];

/// Whether a vector with inputs this long runs in this configuration: natively all do; under
/// Miri those whose length is in [`MIRI_LENGTHS`] (at most [`MIRI_MAX_LEN`]), or, when
/// `TEST_MIRI_MAX_LEN` is set, every vector up to that many bytes.
pub fn runs(len: usize) -> bool {
    if !cfg!(miri) {
        return true;
    }
    match std::env::var("TEST_MIRI_MAX_LEN").ok() {
        Some(v) => len <= v.parse().expect("TEST_MIRI_MAX_LEN: a byte count"),
        None => len <= MIRI_MAX_LEN && MIRI_LENGTHS.contains(&len),
    }
}
