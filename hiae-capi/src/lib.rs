#![doc = include_str!("../README.md")]
#![warn(missing_docs)]
// The exported functions are `#[no_mangle] extern "C"` and dereference C pointers: this crate
// needs `unsafe`. Each block states why it is sound.
#![allow(unsafe_code)]

mod api;
mod block;
mod ffi;
mod oneshot;
mod raw;
mod select;
mod stream;
mod types;

pub use api::*;
pub use ffi::{CStrPtr, Signature};
pub use types::*;

/// The C prototype of every exported function, derived from the Rust declarations (the
/// tests compare it with `include/*.h`): HiAE's, then HiAEx2's, then HiAEx4's.
pub const SIGNATURES: [&[Signature]; 3] = [
    api::HIAE_SIGNATURES,
    api::HIAEX2_SIGNATURES,
    api::HIAEX4_SIGNATURES,
];
