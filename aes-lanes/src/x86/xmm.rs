//! One lane in an `__m128i` (AES-NI).

use core::arch::x86_64::*;

use crate::Lanes;
use crate::lanes::SLICED_ROT_WORD;

/// The little-endian 64-bit words of `blocks` in order (two per block, then zeros): the
/// `to_words` of every x86 lane type, whose wider registers are split into 128-bit blocks
/// first.
#[inline(always)]
pub(super) fn words_of(blocks: &[__m128i]) -> [u64; 2 * crate::MAX_LANES] {
    let mut w = [0u64; 2 * crate::MAX_LANES];
    for (i, &x) in blocks.iter().enumerate() {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe {
            w[2 * i] = _mm_cvtsi128_si64(x) as u64;
            w[2 * i + 1] = _mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x)) as u64;
        }
    }
    w
}

/// One 128-bit lane in an SSE register; AES through `aesenc`.
///
/// `VL = true` is the VAES-AVX512 tier's form (AVX-512VL available): three-way XORs are one
/// `vpternlogd`, written out so that LLVM cannot split them again when it shares a partial
/// XOR between two of them (it did, in HiAE's deferred-XOR loops: 58 XORs instead of 32
/// three-way ones per chunk).
///
/// `VEX = true`: used only in tiers with AVX (VEX-encoded instructions), where HiAE's chunk
/// loops run in assembly ([`Lanes::HIAE_LOOPS`]); `VL = true` implies it.
#[derive(Clone, Copy)]
pub(crate) struct Xmm<const VL: bool = false, const VEX: bool = false>(pub(super) __m128i);

impl<const VL: bool, const VEX: bool> Lanes for Xmm<VL, VEX> {
    crate::lanes::one_part!();

    const LANES: usize = 1;
    const REGISTERS: usize = if VL { 32 } else { 16 };
    const FUSED_XOR3: bool = VL;
    const HIAE_LOOPS: bool = VEX && !VL && !cfg!(miri);

    super::hiae::hiae_methods!(encrypt_xmm, absorb_xmm);
    super::diffuse::diffuse_methods!(diffuse_xmm, diffuse_from_xmm, update_xmm, [_, _]);

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
    fn from_words(words: &[u64; 2 * crate::MAX_LANES]) -> Self {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        Xmm(unsafe { _mm_set_epi64x(words[1] as i64, words[0] as i64) })
    }

    #[inline(always)]
    fn to_words(self) -> [u64; 2 * crate::MAX_LANES] {
        words_of(&[self.0])
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
    fn xor3(self, b: Self, c: Self) -> Self {
        if VL {
            // SAFETY: `Xmm<true>` is used only by the VAES-AVX512 entry point, whose CPU
            // check included AVX-512F and AVX-512VL. 0x96 is the truth table of a ^ b ^ c.
            Xmm(unsafe { _mm_ternarylogic_epi32::<0x96>(self.0, b.0, c.0) })
        } else {
            self.xor(b).xor(c)
        }
    }

    #[inline(always)]
    fn xor_late(self, b: Self, late: Self) -> Self {
        if VL {
            return self.xor3(b, late);
        }
        Xmm(super::kept::kept128(self.xor(b).0)).xor(late)
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

    #[inline(always)]
    fn transpose_words(v: [Self; 4]) -> [Self; 4] {
        // SAFETY: SSE2 is part of the x86-64 baseline.
        unsafe {
            let t0 = _mm_unpacklo_epi32(v[0].0, v[1].0);
            let t1 = _mm_unpackhi_epi32(v[0].0, v[1].0);
            let t2 = _mm_unpacklo_epi32(v[2].0, v[3].0);
            let t3 = _mm_unpackhi_epi32(v[2].0, v[3].0);
            [
                Xmm(_mm_unpacklo_epi64(t0, t2)),
                Xmm(_mm_unpackhi_epi64(t0, t2)),
                Xmm(_mm_unpacklo_epi64(t1, t3)),
                Xmm(_mm_unpackhi_epi64(t1, t3)),
            ]
        }
    }

    #[inline(always)]
    fn aes128_key_step_sliced(w: [Self; 4], rcon: u8) -> [Self; 4] {
        // SAFETY: AES-NI and SSSE3 checked by the entry point.
        let t = Xmm(unsafe {
            let idx = _mm_loadu_si128(SLICED_ROT_WORD.as_ptr().cast());
            let t = _mm_shuffle_epi8(w[3].0, idx);
            _mm_aesenclast_si128(t, _mm_set1_epi32(i32::from(rcon)))
        });
        let w0 = w[0].xor(t);
        let w1 = w[1].xor(w0);
        let w2 = w[2].xor(w1);
        [w0, w1, w2, w[3].xor(w2)]
    }
}

/// `pshufb` indices putting RotWord(word 3) (bytes 13, 14, 15, 12) in every column.
pub(crate) const ROT_WORD3_SPLAT: [u8; 16] = [
    13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12,
];
