//! The SIMD tiers: detection and `#[target_feature]` entry points, both generated from one
//! feature list per tier by [`tier!`], and the dispatch from a [`Token`] to its entry point.
//!
//! The algorithm is written once, generic over [`Words`] (the cipher, the one-message mode and
//! the batch driver); a [`Kernel`] is one such computation, and a tier's entry point runs it
//! with the tier's word types, compiled with the tier's features.

use crate::backend::{Backend, Token};
use crate::words::{SingleLane, Words};

/// Defines a SIMD tier from ONE list of CPU features: the `#[target_feature]` attributes of
/// its entry point `enter`, its check `detected()` and the list `FEATURES` (for tests) all
/// expand from that list, so the check cannot miss a feature the entry point enables.
///
/// * `features`: checked at run time with `cpufeatures` (`detect: runtime`), or, for a tier
///   whose module is built only for targets that have them, with `cfg!(target_feature)`
///   (`detect: compile_time`).
/// * `own`: features `cpufeatures` has no name for, each with the function that checks it.
/// * `batch`, `single`: the word types `enter` runs a [`Kernel`] with.
///
/// A tier's list holds every feature `rustc` enables for it, the implied ones included
/// (`avx2` implies `avx`, `sse4.2`, …): a test compares it with `rustc --print cfg`.
#[cfg_attr(not(any(x86_simd, arm_simd)), allow(unused_macros))]
macro_rules! tier {
    (
        features: [$($f:tt),+ $(,)?],
        $(own: [$($of:tt => $check:path),+ $(,)?],)?
        detect: $how:ident,
        batch: $batch:ty,
        single: $single:ty $(,)?
    ) => {
        /// Every CPU feature [`enter`] is compiled with, as [`detected`] checks them.
        #[cfg_attr(not(test), allow(dead_code))]
        pub(crate) const FEATURES: &[&str] = &[$($f),+ $($(, $of)+)?];

        tier!(@detect $how, [$($f),+] $(, [$($check),+])?);

        /// The tier's entry point: runs `kernel` with the tier's word types, compiled with
        /// exactly the features in [`FEATURES`]. Call it only after [`detected`] returned
        /// `true` (a [`Token`](crate::Token) of the tier proves that).
        $( #[target_feature(enable = $f)] )+
        $($( #[target_feature(enable = $of)] )+)?
        pub(crate) fn enter<K: $crate::backends::Kernel>(kernel: K) -> K::Output {
            kernel.run::<$batch, $single>()
        }
    };
    (@detect runtime, [$($f:tt),+] $(, [$($check:path),+])?) => {
        cpufeatures::new!(cpuid, $($f),+);

        /// Whether this CPU has every feature in [`FEATURES`] (cached after the first call).
        pub(crate) fn detected() -> bool {
            cpuid::get() $($( && $check() )+)?
        }
    };
    (@detect compile_time, [$($f:tt),+]) => {
        /// Whether the target has every feature in [`FEATURES`] (then every CPU that runs
        /// this build has them).
        pub(crate) const fn detected() -> bool {
            cfg!(all($(target_feature = $f),+))
        }
    };
}

#[cfg(x86_simd)]
mod avx2;
#[cfg(x86_simd)]
mod avx512;
#[cfg(arm_simd)]
mod neon;
#[cfg(x86_simd)]
mod x86;

/// A computation written once over the word types, run by a tier's entry point: `B` holds
/// `B::LANES` messages (the batch type), `S` one message.
///
/// `run` and everything it calls are `#[inline(always)]` and carry no `#[target_feature]`,
/// so each entry point compiles its own copy with its own features.
pub(crate) trait Kernel {
    /// What the computation returns.
    type Output;
    /// Runs the computation with the batch word type `B` and the one-message word type `S`.
    fn run<B: Words, S: SingleLane>(self) -> Self::Output;
}

/// Whether this CPU can run `backend`.
pub(crate) fn detected(backend: Backend) -> bool {
    match backend {
        Backend::Portable => true,
        #[cfg(x86_simd)]
        Backend::Avx512 => avx512::detected(),
        #[cfg(x86_simd)]
        Backend::Avx2 => avx2::detected(),
        #[cfg(arm_simd)]
        Backend::Neon => neon::detected(),
        #[allow(unreachable_patterns)]
        _ => false,
    }
}

impl Token {
    /// Runs `kernel` on this token's tier (once per message or batch call, never per block).
    #[inline]
    pub(crate) fn run<K: Kernel>(self, kernel: K) -> K::Output {
        match self.backend() {
            #[cfg(x86_simd)]
            // SAFETY: a `Token` for `Avx512` exists only if `avx512::detected()` returned
            // true, and that checks every feature `avx512::enter` enables (both expand from
            // the one list in `avx512.rs`).
            #[allow(unsafe_code)]
            Backend::Avx512 => unsafe { avx512::enter(kernel) },
            #[cfg(x86_simd)]
            // SAFETY: a `Token` for `Avx2` exists only if `avx2::detected()` returned true,
            // and that checks every feature `avx2::enter` enables (one list in `avx2.rs`).
            #[allow(unsafe_code)]
            Backend::Avx2 => unsafe { avx2::enter(kernel) },
            #[cfg(arm_simd)]
            // SAFETY: a `Token` for `Neon` exists only if `neon::detected()` returned true:
            // the target has every feature `neon::enter` enables (one list in `neon.rs`), so
            // every CPU running this build has them.
            #[allow(unsafe_code)]
            Backend::Neon => unsafe { neon::enter(kernel) },
            _ => portable(kernel),
        }
    }
}

/// The portable entry point: 32-bit words, one message at a time.
fn portable<K: Kernel>(kernel: K) -> K::Output {
    kernel.run::<u32, u32>()
}

#[cfg(test)]
mod tests;
