//! x86-64 lanes: AES-NI on `__m128i`, VAES on `__m256i` (AVX2) and `__m512i` (AVX-512F/VL/BW),
//! and the tiers whose entry points compile generic code with those features enabled.
//!
//! The lane types are private to this crate; a value of one can only be created inside an
//! entry point, and entry points are only called after the CPU was checked.
#![allow(unsafe_code)]

mod detect;
mod diffuse;
mod entry;
mod hiae;
mod kept;
mod xmm;
mod ymm;
mod zmm;

pub(crate) use entry::{
    AesNiSet, Vaes256Set, Vaes512Set, has_aesni, has_aesni_avx, has_vaes256, has_vaes512,
    run_aesni, run_aesni_avx, run_vaes256, run_vaes512,
};
pub(crate) use xmm::Xmm;
pub(crate) use ymm::Ymm;
pub(crate) use zmm::Zmm;
