//! A vector value passed through an empty `asm!`, which the optimizer cannot see into: the
//! value is unchanged, but LLVM can no longer regroup the XORs on either side of it (for
//! [`Lanes::xor_late`](crate::Lanes::xor_late)). No instruction is emitted.
//!
//! Miri cannot interpret `asm!`; there the value is passed through as it is, which computes the
//! same.

use core::arch::x86_64::{__m128i, __m256i};

/// `v`, unchanged, out of the optimizer's sight.
#[inline(always)]
pub(super) fn kept128(v: __m128i) -> __m128i {
    #[cfg(not(miri))]
    {
        let mut v = v;
        // SAFETY: an empty instruction string: `v` stays in its register, unchanged; no
        // memory, stack or flags touched. `xmm` registers are in the x86-64 baseline.
        unsafe {
            core::arch::asm!("/* {0} */", inout(xmm_reg) v, options(pure, nomem, nostack, preserves_flags));
        }
        v
    }
    #[cfg(miri)]
    v
}

/// `v`, unchanged, out of the optimizer's sight. A `ymm` register operand needs AVX enabled
/// where the `asm!` is written, hence the attribute; it is inlined into the AVX entry points
/// like an intrinsic.
///
/// # Safety
/// The CPU must support AVX.
#[inline]
#[target_feature(enable = "avx")]
pub(super) unsafe fn kept256(v: __m256i) -> __m256i {
    #[cfg(not(miri))]
    {
        let mut v = v;
        // SAFETY: an empty instruction string: `v` stays in its register, unchanged; no
        // memory, stack or flags touched. AVX: the caller's contract.
        unsafe {
            core::arch::asm!("/* {0} */", inout(ymm_reg) v, options(pure, nomem, nostack, preserves_flags));
        }
        v
    }
    #[cfg(miri)]
    v
}
