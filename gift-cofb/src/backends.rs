//! Backend selection for the batch API: which SIMD width runs the messages.
//!
//! Detection uses `cpufeatures` (cached after the first call). A build with
//! `-C target-feature=+avx512f` (or `+avx2`) makes it a compile-time
//! constant. The NEON backend exists when the target has `neon` enabled
//! (always the case on `aarch64-unknown-linux-gnu` and `aarch64-unknown-none`).

use core::fmt;
use core::str::FromStr;

use aead::inout::InOutBuf;

use crate::batch::{BatchItem, Direction};
use crate::gift128::RoundKeys;

#[cfg(all(
    any(target_arch = "x86_64", target_arch = "x86"),
    target_feature = "sse2"
))]
mod avx2;
#[cfg(all(
    any(target_arch = "x86_64", target_arch = "x86"),
    target_feature = "sse2"
))]
mod avx512;
#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod neon;

#[cfg(all(
    any(target_arch = "x86_64", target_arch = "x86"),
    target_feature = "sse2"
))]
cpufeatures::new!(cpuid_avx2, "avx2");
#[cfg(all(
    any(target_arch = "x86_64", target_arch = "x86"),
    target_feature = "sse2"
))]
cpufeatures::new!(cpuid_avx512, "avx512f", "avx512vl");

/// A batch backend: how many messages run side by side, and with which
/// instructions.
///
/// All backends compute exactly the same results; they differ only in speed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Backend {
    /// AVX-512F + AVX-512VL: 16 messages per batch step, one per 32-bit
    /// lane, as two independent groups of 8 in `ymm` registers with
    /// `vpternlogd`/`vprold`; single messages keep the state in `xmm`
    /// registers with the same instructions.
    Avx512,
    /// AVX2: 8 messages, one per 32-bit lane of `ymm` registers.
    Avx2,
    /// NEON (aarch64): 4 messages, one per 32-bit lane of `q` registers.
    Neon,
    /// Portable fixsliced code, one message after the other.
    Portable,
}

/// The requested backend cannot run on this CPU (or was not compiled for this
/// target).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BackendUnavailable(pub Backend);

impl fmt::Display for BackendUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} backend is not available on this CPU",
            self.0.name()
        )
    }
}

impl core::error::Error for BackendUnavailable {}

/// The name given to [`Backend::from_str`] is not a backend.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct UnknownBackend;

impl fmt::Display for UnknownBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown backend (expected avx512, avx2, neon or portable)")
    }
}

impl core::error::Error for UnknownBackend {}

impl Backend {
    /// Every backend, fastest first.
    pub const ALL: [Backend; 4] = [
        Backend::Avx512,
        Backend::Avx2,
        Backend::Neon,
        Backend::Portable,
    ];

    /// The fastest backend this CPU can run.
    pub fn detect() -> Backend {
        Self::ALL
            .into_iter()
            .find(|b| b.is_available())
            .unwrap_or(Backend::Portable)
    }

    /// Every backend this CPU can run, fastest first (always ends with
    /// [`Backend::Portable`]).
    pub fn available() -> impl Iterator<Item = Backend> {
        Self::ALL.into_iter().filter(|b| b.is_available())
    }

    /// Whether this CPU (and this build) can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(all(
                any(target_arch = "x86_64", target_arch = "x86"),
                target_feature = "sse2"
            ))]
            Backend::Avx512 => cpuid_avx512::get(),
            #[cfg(all(
                any(target_arch = "x86_64", target_arch = "x86"),
                target_feature = "sse2"
            ))]
            Backend::Avx2 => cpuid_avx2::get(),
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Backend::Neon => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Short lower-case name: `avx512`, `avx2`, `neon` or `portable`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Avx512 => "avx512",
            Backend::Avx2 => "avx2",
            Backend::Neon => "neon",
            Backend::Portable => "portable",
        }
    }

    /// A one-line description of the implementation behind the backend.
    pub fn implementation_name(self) -> &'static str {
        match self {
            Backend::Avx512 => {
                "AVX-512F, 16 messages per batch step (fixsliced GIFT-128 in zmm lanes)"
            }
            Backend::Avx2 => "AVX2, 8 messages per batch step (fixsliced GIFT-128 in ymm lanes)",
            Backend::Neon => {
                "NEON, 4 messages per batch step (fixsliced GIFT-128 in q-register lanes)"
            }
            Backend::Portable => {
                "portable fixsliced GIFT-128 (32-bit words), one message at a time"
            }
        }
    }

    /// How many messages one batch step processes side by side.
    pub fn lanes(self) -> usize {
        match self {
            Backend::Avx512 => 16,
            Backend::Avx2 => 8,
            Backend::Neon => 4,
            Backend::Portable => 1,
        }
    }

    /// `Ok(self)` when available, else [`BackendUnavailable`].
    pub fn require(self) -> Result<Backend, BackendUnavailable> {
        if self.is_available() {
            Ok(self)
        } else {
            Err(BackendUnavailable(self))
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Backend {
    type Err = UnknownBackend;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or(UnknownBackend)
    }
}

/// Runs a whole batch on `backend`, `backend.lanes()` messages at a time.
/// `backend` must be available (checked by the caller, when it was chosen).
pub(crate) fn run_batch(
    backend: Backend,
    rk: &RoundKeys,
    items: &mut [BatchItem<'_>],
    dir: Direction,
) {
    match backend {
        #[cfg(all(
            any(target_arch = "x86_64", target_arch = "x86"),
            target_feature = "sse2"
        ))]
        Backend::Avx512 => avx512::run_detected(rk, items, dir),
        #[cfg(all(
            any(target_arch = "x86_64", target_arch = "x86"),
            target_feature = "sse2"
        ))]
        Backend::Avx2 => avx2::run_detected(rk, items, dir),
        #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
        Backend::Neon => {
            neon::run(rk, items, dir);
        }
        _ => crate::batch::run_portable(rk, items, dir),
    }
}

/// Single-message encryption on `backend` (AVX-512 has its own; every other
/// backend uses the portable code).
pub(crate) fn encrypt_single(
    backend: Backend,
    rk: &RoundKeys,
    nonce: &[u8; 16],
    ad: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> [u8; 16] {
    match backend {
        #[cfg(all(
            any(target_arch = "x86_64", target_arch = "x86"),
            target_feature = "sse2"
        ))]
        Backend::Avx512 => avx512::encrypt_single_detected(rk, nonce, ad, buffer),
        _ => crate::cofb::encrypt(rk, nonce, ad, buffer),
    }
}

/// Single-message decryption on `backend`; `false` (and a zeroed buffer) if
/// the tag does not verify.
pub(crate) fn decrypt_single(
    backend: Backend,
    rk: &RoundKeys,
    nonce: &[u8; 16],
    ad: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &[u8; 16],
) -> bool {
    match backend {
        #[cfg(all(
            any(target_arch = "x86_64", target_arch = "x86"),
            target_feature = "sse2"
        ))]
        Backend::Avx512 => avx512::decrypt_single_detected(rk, nonce, ad, buffer, tag),
        _ => crate::cofb::decrypt(rk, nonce, ad, buffer, tag),
    }
}
