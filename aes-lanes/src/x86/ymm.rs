//! Two lanes in an `__m256i` (VAES + AVX2).

use core::arch::x86_64::*;

use crate::Lanes;

/// Two 128-bit lanes in an AVX register; AES through `vaesenc ymm`.
///
/// `VL = true` is the VAES-AVX512 tier's form (AVX-512VL available): three-way XORs are one
/// `vpternlogd`, written out so that LLVM cannot split them again when it shares a partial
/// XOR between two of them (it did, in HiAE's deferred-XOR loops: 58 XORs instead of 32
/// three-way ones per chunk).
#[derive(Clone, Copy)]
pub(crate) struct Ymm<const VL: bool = false>(pub(super) __m256i);

impl<const VL: bool> Lanes for Ymm<VL> {
    crate::lanes::one_part!();

    const LANES: usize = 2;
    const REGISTERS: usize = if VL { 32 } else { 16 };
    const FUSED_XOR3: bool = VL;
    const REALIGN_STORES: bool = true;
    const HIAE_LOOPS: bool = !VL && !cfg!(miri);

    super::hiae::hiae_methods!(encrypt_ymm, absorb_ymm);
    super::diffuse::diffuse_methods!(diffuse_ymm, diffuse_from_ymm, update_ymm, [_]);

    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: a `Ymm` is only used inside an entry point whose CPU check included AVX2.
        Ymm(unsafe { _mm256_setzero_si256() })
    }

    #[inline(always)]
    fn load(src: &[u8]) -> Self {
        let src = &src[..32];
        // SAFETY: 32 readable bytes, no alignment needed; AVX checked by the entry point.
        Ymm(unsafe { _mm256_loadu_si256(src.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8]) {
        let dst = &mut dst[..32];
        // SAFETY: 32 writable bytes, no alignment needed; AVX checked by the entry point.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn store_pieces(self, dst: &mut [u8]) {
        if cfg!(miri) {
            // Miri runs no assembly; the bytes written are the same.
            self.store(dst);
            return;
        }
        // SAFETY: AVX2 checked by the entry point.
        unsafe { store_in_halves(&mut dst[..32], self.0) }
    }

    #[inline(always)]
    fn from_words(words: &[u64; 2 * crate::MAX_LANES]) -> Self {
        let w = |i: usize| words[i] as i64;
        // SAFETY: AVX checked by the entry point.
        Ymm(unsafe { _mm256_set_epi64x(w(3), w(2), w(1), w(0)) })
    }

    #[inline(always)]
    fn to_words(self) -> [u64; 2 * crate::MAX_LANES] {
        // SAFETY: AVX2 checked by the entry point.
        let halves = unsafe {
            [
                _mm256_castsi256_si128(self.0),
                _mm256_extracti128_si256::<1>(self.0),
            ]
        };
        super::xmm::words_of(&halves)
    }

    #[inline(always)]
    fn shift_blocks(prev: Self, next: Self, n: usize) -> Self {
        debug_assert_eq!(n, 1);
        // SAFETY: AVX2 checked by the entry point. 0x21: the high half of `prev`, then the
        // low half of `next`.
        Ymm(unsafe { _mm256_permute2x128_si256::<0x21>(prev.0, next.0) })
    }

    #[inline(always)]
    fn broadcast(block: &[u8; 16]) -> Self {
        // SAFETY: 16 readable bytes; AVX2 checked by the entry point.
        Ymm(unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(block.as_ptr().cast())) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 checked by the entry point.
        Ymm(unsafe { _mm256_xor_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        if VL {
            // SAFETY: `Ymm<true>` is used only by the VAES-AVX512 entry point, whose CPU
            // check included AVX-512F and AVX-512VL. 0x96 is the truth table of a ^ b ^ c.
            Ymm(unsafe { _mm256_ternarylogic_epi32::<0x96>(self.0, b.0, c.0) })
        } else {
            self.xor(b).xor(c)
        }
    }

    #[inline(always)]
    fn xor_late(self, b: Self, late: Self) -> Self {
        if VL {
            return self.xor3(b, late);
        }
        // SAFETY: AVX2 (which includes AVX) checked by the entry point.
        Ymm(unsafe { super::kept::kept256(self.xor(b).0) }).xor(late)
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX2 checked by the entry point.
        Ymm(unsafe { _mm256_and_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn aes_round(self, key: Self) -> Self {
        // SAFETY: VAES and AVX2 checked by the entry point.
        Ymm(unsafe { _mm256_aesenc_epi128(self.0, key.0) })
    }

    #[inline(always)]
    fn aes_round_last(self, key: Self) -> Self {
        // SAFETY: VAES and AVX2 checked by the entry point.
        Ymm(unsafe { _mm256_aesenclast_epi128(self.0, key.0) })
    }

    #[inline(always)]
    fn fold_xor(self) -> [u8; 16] {
        // Written out, as for `Zmm`: one extract and one XOR, whatever LLVM makes of a byte loop.
        let mut out = [0u8; 16];
        // SAFETY: AVX2 checked by the entry point; 16 writable bytes, no alignment needed.
        unsafe {
            let x = _mm_xor_si128(
                _mm256_castsi256_si128(self.0),
                _mm256_extracti128_si256::<1>(self.0),
            );
            _mm_storeu_si128(out.as_mut_ptr().cast(), x);
        }
        out
    }

    #[inline(always)]
    fn aes128_key_step(self, rcon: u8) -> Self {
        // SAFETY: VAES and AVX2 checked by the entry point.
        unsafe {
            let k = self.0;
            let idx = _mm256_broadcastsi128_si256(_mm_loadu_si128(
                super::xmm::ROT_WORD3_SPLAT.as_ptr().cast(),
            ));
            let t = _mm256_shuffle_epi8(k, idx);
            let t = _mm256_aesenclast_epi128(t, _mm256_set1_epi32(i32::from(rcon)));
            let k = _mm256_xor_si256(k, _mm256_bslli_epi128::<4>(k));
            let k = _mm256_xor_si256(k, _mm256_bslli_epi128::<8>(k));
            Ymm(_mm256_xor_si256(k, t))
        }
    }

    #[inline(always)]
    fn transpose_words(v: [Self; 4]) -> [Self; 4] {
        // SAFETY: AVX2 checked by the entry point.
        unsafe {
            let t0 = _mm256_unpacklo_epi32(v[0].0, v[1].0);
            let t1 = _mm256_unpackhi_epi32(v[0].0, v[1].0);
            let t2 = _mm256_unpacklo_epi32(v[2].0, v[3].0);
            let t3 = _mm256_unpackhi_epi32(v[2].0, v[3].0);
            [
                Ymm(_mm256_unpacklo_epi64(t0, t2)),
                Ymm(_mm256_unpackhi_epi64(t0, t2)),
                Ymm(_mm256_unpacklo_epi64(t1, t3)),
                Ymm(_mm256_unpackhi_epi64(t1, t3)),
            ]
        }
    }

    #[inline(always)]
    fn aes128_key_step_sliced(w: [Self; 4], rcon: u8) -> [Self; 4] {
        // SAFETY: VAES and AVX2 checked by the entry point.
        let t = Ymm(unsafe {
            let idx = _mm256_broadcastsi128_si256(_mm_loadu_si128(
                crate::lanes::SLICED_ROT_WORD.as_ptr().cast(),
            ));
            let t = _mm256_shuffle_epi8(w[3].0, idx);
            _mm256_aesenclast_epi128(t, _mm256_set1_epi32(i32::from(rcon)))
        });
        let w0 = w[0].xor(t);
        let w1 = w[1].xor(w0);
        let w2 = w[2].xor(w1);
        [w0, w1, w2, w[3].xor(w2)]
    }
}

/// Stores `v` into the 32 bytes of `dst` as two 16-byte halves, with the encryption loop's
/// instructions for it ([`store_halves`](super::hiae::store_halves)). Assembly, since LLVM
/// merges two stores of adjacent halves into one 256-bit store.
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn store_in_halves(dst: &mut [u8], v: __m256i) {
    assert!(dst.len() >= 32);
    // SAFETY: 32 writable bytes at `dst`, no alignment needed; nothing else is touched (no
    // stack, the flags kept). AVX2: the caller's contract.
    unsafe {
        core::arch::asm!(
            super::hiae::store_halves!(0),
            dst = in(reg) dst.as_mut_ptr(),
            t = in(ymm_reg) v,
            stride = const 0,
            options(nostack, preserves_flags),
        );
    }
}
