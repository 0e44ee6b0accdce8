//! Four lanes in an `__m512i` (VAES + AVX-512F/VL/BW).

use core::arch::x86_64::*;

use crate::Lanes;

/// Four 128-bit lanes in an AVX-512 register; AES through `vaesenc zmm`, three-way XOR
/// through `vpternlogd`.
#[derive(Clone, Copy)]
pub(crate) struct Zmm(__m512i);

impl Lanes for Zmm {
    crate::lanes::one_part!();

    const LANES: usize = 4;
    const REGISTERS: usize = 32;
    const FUSED_XOR3: bool = true;

    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: a `Zmm` is only used inside an entry point whose CPU check included AVX-512F.
        Zmm(unsafe { _mm512_setzero_si512() })
    }

    #[inline(always)]
    fn load(src: &[u8]) -> Self {
        let src = &src[..64];
        // SAFETY: 64 readable bytes, no alignment needed; AVX-512F checked by the entry point.
        Zmm(unsafe { _mm512_loadu_si512(src.as_ptr().cast()) })
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8]) {
        let dst = &mut dst[..64];
        // SAFETY: 64 writable bytes, no alignment needed; AVX-512F checked by the entry point.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn from_words(words: &[u64; 2 * crate::MAX_LANES]) -> Self {
        let w = |i: usize| words[i] as i64;
        // SAFETY: AVX-512F checked by the entry point.
        Zmm(unsafe { _mm512_set_epi64(w(7), w(6), w(5), w(4), w(3), w(2), w(1), w(0)) })
    }

    #[inline(always)]
    fn to_words(self) -> [u64; 2 * crate::MAX_LANES] {
        // SAFETY: AVX-512F checked by the entry point.
        let quarters = unsafe {
            [
                _mm512_castsi512_si128(self.0),
                _mm512_extracti32x4_epi32::<1>(self.0),
                _mm512_extracti32x4_epi32::<2>(self.0),
                _mm512_extracti32x4_epi32::<3>(self.0),
            ]
        };
        super::xmm::words_of(&quarters)
    }

    #[inline(always)]
    fn shift_blocks(prev: Self, next: Self, n: usize) -> Self {
        // SAFETY: AVX-512F checked by the entry point. `valignq` takes eight quadwords of
        // `next:prev` from quadword `2 (4 - n)` of `prev` on.
        Zmm(unsafe {
            match n {
                1 => _mm512_alignr_epi64::<6>(next.0, prev.0),
                2 => _mm512_alignr_epi64::<4>(next.0, prev.0),
                3 => _mm512_alignr_epi64::<2>(next.0, prev.0),
                _ => panic!("shift_blocks: n must be 1, 2 or 3"),
            }
        })
    }

    #[inline(always)]
    fn broadcast(block: &[u8; 16]) -> Self {
        // SAFETY: 16 readable bytes; AVX-512F checked by the entry point.
        Zmm(unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(block.as_ptr().cast())) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F checked by the entry point.
        Zmm(unsafe { _mm512_xor_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX-512F checked by the entry point.
        Zmm(unsafe { _mm512_and_si512(self.0, other.0) })
    }

    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F checked by the entry point. 0x96 is the truth table of a ^ b ^ c.
        Zmm(unsafe { _mm512_ternarylogic_epi32::<0x96>(self.0, b.0, c.0) })
    }

    #[inline(always)]
    fn aes_round(self, key: Self) -> Self {
        // SAFETY: VAES and AVX-512F checked by the entry point.
        Zmm(unsafe { _mm512_aesenc_epi128(self.0, key.0) })
    }

    #[inline(always)]
    fn aes_round_last(self, key: Self) -> Self {
        // SAFETY: VAES and AVX-512F checked by the entry point.
        Zmm(unsafe { _mm512_aesenclast_epi128(self.0, key.0) })
    }

    #[inline(always)]
    fn fold_xor(self) -> [u8; 16] {
        // Written out: the generic byte loop was at times vectorized into dozens of byte
        // shuffles instead of three lane extracts and XORs.
        let mut out = [0u8; 16];
        // SAFETY: AVX-512F checked by the entry point; 16 writable bytes, no alignment needed.
        unsafe {
            let a = _mm512_castsi512_si128(self.0);
            let b = _mm512_extracti32x4_epi32::<1>(self.0);
            let c = _mm512_extracti32x4_epi32::<2>(self.0);
            let d = _mm512_extracti32x4_epi32::<3>(self.0);
            let x = _mm_xor_si128(_mm_xor_si128(a, b), _mm_xor_si128(c, d));
            _mm_storeu_si128(out.as_mut_ptr().cast(), x);
        }
        out
    }

    #[inline(always)]
    fn aes128_key_step(self, rcon: u8) -> Self {
        // SAFETY: VAES, AVX-512F and AVX-512BW checked by the entry point.
        unsafe {
            let k = self.0;
            let idx = _mm512_broadcast_i32x4(_mm_loadu_si128(
                super::xmm::ROT_WORD3_SPLAT.as_ptr().cast(),
            ));
            let t = _mm512_shuffle_epi8(k, idx);
            let t = _mm512_aesenclast_epi128(t, _mm512_set1_epi32(i32::from(rcon)));
            let k2 = _mm512_bslli_epi128::<4>(k);
            let k3 = _mm512_bslli_epi128::<8>(k);
            let k4 = _mm512_bslli_epi128::<12>(k);
            // k ^ k<<4 ^ k<<8 ^ k<<12 ^ t, in two three-way XORs.
            Zmm(_mm512_ternarylogic_epi32::<0x96>(
                _mm512_ternarylogic_epi32::<0x96>(k, k2, k3),
                k4,
                t,
            ))
        }
    }

    #[inline(always)]
    fn transpose_words(v: [Self; 4]) -> [Self; 4] {
        // SAFETY: AVX-512F checked by the entry point.
        unsafe {
            let t0 = _mm512_unpacklo_epi32(v[0].0, v[1].0);
            let t1 = _mm512_unpackhi_epi32(v[0].0, v[1].0);
            let t2 = _mm512_unpacklo_epi32(v[2].0, v[3].0);
            let t3 = _mm512_unpackhi_epi32(v[2].0, v[3].0);
            [
                Zmm(_mm512_unpacklo_epi64(t0, t2)),
                Zmm(_mm512_unpackhi_epi64(t0, t2)),
                Zmm(_mm512_unpacklo_epi64(t1, t3)),
                Zmm(_mm512_unpackhi_epi64(t1, t3)),
            ]
        }
    }

    #[inline(always)]
    fn aes128_key_step_sliced(w: [Self; 4], rcon: u8) -> [Self; 4] {
        // SAFETY: VAES, AVX-512F and AVX-512BW checked by the entry point.
        unsafe {
            let idx = _mm512_broadcast_i32x4(_mm_loadu_si128(
                crate::lanes::SLICED_ROT_WORD.as_ptr().cast(),
            ));
            let t = _mm512_shuffle_epi8(w[3].0, idx);
            let t = _mm512_aesenclast_epi128(t, _mm512_set1_epi32(i32::from(rcon)));
            // Each new word from `t` in at most two steps: w0' = w0^t, w1' = w1^w0^t,
            // w2' = w2^w1^w0', w3' = w3^w2^w1'.
            let w0 = _mm512_xor_si512(w[0].0, t);
            let w1 = _mm512_ternarylogic_epi32::<0x96>(w[1].0, w[0].0, t);
            let w2 = _mm512_ternarylogic_epi32::<0x96>(w[2].0, w[1].0, w0);
            let w3 = _mm512_ternarylogic_epi32::<0x96>(w[3].0, w[2].0, w1);
            [Zmm(w0), Zmm(w1), Zmm(w2), Zmm(w3)]
        }
    }
}
