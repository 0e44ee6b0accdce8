#![doc = include_str!("../README.md")]

mod algorithm;
mod batch;
pub mod chunk;
mod decryptor;
mod encryptor;
mod error;
mod header;
mod kdf;
pub mod layout;
pub mod libhiae;
mod ordered;
pub mod pipeline;
mod seek;

pub use algorithm::{Algorithm, UnknownAlgorithm};
pub use decryptor::{Decryptor, DecryptorBuilder, Locked};
pub use encryptor::{Encryptor, EncryptorBuilder};
pub use error::Error;
pub use header::{
    ARGON2_EXT_LEN, BASE_HEADER_LEN, DEFAULT_CHUNK_LOG2, Header, KeySource, MAGIC, MAX_CHUNK_LOG2,
    MAX_HEADER_LEN, MIN_CHUNK_LOG2, PREFIX_LEN, TAG_LEN, VERSION, read_full,
};
pub use kdf::{Argon2Params, KdfLimits, random_bytes};
