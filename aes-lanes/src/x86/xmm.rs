//! One lane in an `__m128i` (AES-NI).

use core::arch::x86_64::*;

use crate::Lanes;

/// One 128-bit lane in an SSE register; AES through `aesenc`.
#[derive(Clone, Copy)]
pub(crate) struct Xmm(__m128i);

impl Lanes for Xmm {
    const LANES: usize = 1;

    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        Xmm(unsafe { _mm_setzero_si128() })
    }

    #[inline(always)]
    fn load(src: &[u8]) -> Self {
        let src = &src[..16];
        // SAFETY: `src` holds 16 readable bytes; `loadu` has no alignment requirement.
        Xmm(unsafe { _mm_loadu_si128(src.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8]) {
        let dst = &mut dst[..16];
        // SAFETY: `dst` holds 16 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm_storeu_si128(dst.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn broadcast(block: &[u8; 16]) -> Self {
        Self::load(block)
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        Xmm(unsafe { _mm_xor_si128(self.0, other.0) })
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        Xmm(unsafe { _mm_and_si128(self.0, other.0) })
    }

    #[inline(always)]
    fn aes_round(self, key: Self) -> Self {
        // SAFETY: an `Xmm` exists only inside an entry point whose CPU check included AES-NI.
        Xmm(unsafe { _mm_aesenc_si128(self.0, key.0) })
    }

    #[inline(always)]
    fn aes_round_pre(self, key: Self) -> Self {
        self.xor(key).aesl()
    }

    #[inline(always)]
    fn aes_round_last(self, key: Self) -> Self {
        // SAFETY: an `Xmm` exists only inside an entry point whose CPU check included AES-NI.
        Xmm(unsafe { _mm_aesenclast_si128(self.0, key.0) })
    }

    #[inline(always)]
    fn aes128_key_step(self, rcon: u8) -> Self {
        // SAFETY: AES-NI and SSSE3 checked by the entry point.
        unsafe {
            let k = self.0;
            let t = _mm_shuffle_epi8(k, _mm_loadu_si128(ROT_WORD3_SPLAT.as_ptr().cast()));
            let t = _mm_aesenclast_si128(t, _mm_set1_epi32(i32::from(rcon)));
            let k = _mm_xor_si128(k, _mm_bslli_si128::<4>(k));
            let k = _mm_xor_si128(k, _mm_bslli_si128::<8>(k));
            Xmm(_mm_xor_si128(k, t))
        }
    }
}

/// `pshufb` indices putting RotWord(word 3) (bytes 13, 14, 15, 12) in every column.
pub(crate) const ROT_WORD3_SPLAT: [u8; 16] = [
    13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12,
];
