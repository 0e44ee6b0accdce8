//! AVX-512 backend: sixteen messages, one per 32-bit lane of a `zmm` register,
//! and a single-message path that keeps the four state words in `xmm`
//! registers to use `vpternlogd` and `vprold` (AVX-512VL): fewer dependent
//! operations per round than general-purpose registers allow.
#![allow(unsafe_code)]

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use aead::inout::InOutBuf;

use crate::batch::{self, BatchItem, Direction};
use crate::cofb;
use crate::gift128::RoundKeys;
use crate::words::{SingleLane, Words};

/// Sixteen 32-bit lanes. Only ever created inside [`run`], which is compiled
/// with AVX-512F and only called after AVX-512F was detected.
#[derive(Clone, Copy)]
struct Zmm(__m512i);

// SAFETY (for every `unsafe` block in this impl): `Zmm` values exist only
// inside `run`, which is `#[target_feature(enable = "avx512f")]` and is called
// only after runtime detection of AVX-512F, so the intrinsics are supported.
// Loads and stores touch exactly the 64 bytes of a `[u32; 16]`.
impl Words for Zmm {
    const LANES: usize = 16;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_xor_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_and_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_or_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn not(self) -> Self {
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_ternarylogic_epi32::<0x55>(self.0, self.0, self.0) })
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_slli_epi32::<N>(self.0) })
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_srli_epi32::<N>(self.0) })
    }
    #[inline(always)]
    fn rotl<const N: u32>(self) -> Self {
        // A constant per-lane rotate count compiles to `vprold`.
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_rolv_epi32(self.0, _mm512_set1_epi32(N as i32)) })
    }
    #[inline(always)]
    fn sign_mask(self) -> Self {
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_srai_epi32::<31>(self.0) })
    }
    #[inline(always)]
    fn load(src: &[u32; 16]) -> Self {
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_loadu_si512(src.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32; 16]) {
        // SAFETY: see the impl comment.
        unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn move2<const R: u32, const L: u32>(self, mr: u32, ml: u32) -> Self {
        // The two masks are complementary after the shift in every use, so the
        // move is a bit-select of two shifted copies: one `vpternlogd`.
        debug_assert_eq!(mr, !(ml << L));
        let (a, b) = (self.shr::<R>(), self.shl::<L>());
        // SAFETY: see the impl comment.
        Zmm(unsafe { _mm512_ternarylogic_epi32::<0xca>(Self::splat(mr).0, a.0, b.0) })
    }

    #[inline(always)]
    fn load_blocks(blocks: &[[u8; 16]; 16]) -> [Self; 4] {
        // SAFETY: see the impl comment; 16 loads of 16 bytes inside the
        // 256-byte array.
        unsafe {
            let p = blocks.as_ptr().cast::<__m128i>();
            let r: [__m512i; 4] = core::array::from_fn(|j| {
                let x = _mm512_castsi128_si512(_mm_loadu_si128(p.add(j)));
                let x = _mm512_inserti32x4::<1>(x, _mm_loadu_si128(p.add(j + 4)));
                let x = _mm512_inserti32x4::<2>(x, _mm_loadu_si128(p.add(j + 8)));
                _mm512_inserti32x4::<3>(x, _mm_loadu_si128(p.add(j + 12)))
            });
            transpose4(r).map(|x| bswap(Zmm(x)))
        }
    }

    #[inline(always)]
    fn store_blocks(s: &[Self; 4], blocks: &mut [[u8; 16]; 16]) {
        // SAFETY: see the impl comment; 16 stores of 16 bytes inside the
        // 256-byte array.
        unsafe {
            let r = transpose4(s.map(|x| bswap(x).0));
            let p = blocks.as_mut_ptr().cast::<__m128i>();
            for (j, x) in r.iter().enumerate() {
                _mm_storeu_si128(p.add(j), _mm512_castsi512_si128(*x));
                _mm_storeu_si128(p.add(j + 4), _mm512_extracti32x4_epi32::<1>(*x));
                _mm_storeu_si128(p.add(j + 8), _mm512_extracti32x4_epi32::<2>(*x));
                _mm_storeu_si128(p.add(j + 12), _mm512_extracti32x4_epi32::<3>(*x));
            }
        }
    }

    #[inline(always)]
    fn swapmove<const N: u32>(self, m: u32) -> Self {
        // SAFETY: see the impl comment.
        unsafe {
            // t = ((x >> N) ^ x) & m; x ^ t ^ (t << N)
            let t = _mm512_ternarylogic_epi32::<0x28>(self.shr::<N>().0, self.0, Self::splat(m).0);
            Zmm(_mm512_ternarylogic_epi32::<0x96>(
                self.0,
                t,
                _mm512_slli_epi32::<N>(t),
            ))
        }
    }
}

/// Reverses the bytes of every 32-bit lane with AVX-512F only (no `vpshufb`
/// on `zmm` without AVX-512BW): bytes 3 and 1 come from a right rotation by 8,
/// bytes 2 and 0 from a left rotation by 8.
#[inline(always)]
fn bswap(x: Zmm) -> Zmm {
    let (r, l) = (x.rotl::<24>(), x.rotl::<8>());
    // SAFETY: AVX-512F is available wherever this inlines (see `Zmm`).
    Zmm(unsafe { _mm512_ternarylogic_epi32::<0xca>(Zmm::splat(0xff00_ff00).0, r.0, l.0) })
}

/// 4×4 transpose of 32-bit words inside each 128-bit quarter (an involution).
#[inline(always)]
fn transpose4(r: [__m512i; 4]) -> [__m512i; 4] {
    // SAFETY: AVX-512F is available wherever this inlines (see `Zmm`).
    unsafe {
        let t0 = _mm512_unpacklo_epi32(r[0], r[1]);
        let t1 = _mm512_unpackhi_epi32(r[0], r[1]);
        let t2 = _mm512_unpacklo_epi32(r[2], r[3]);
        let t3 = _mm512_unpackhi_epi32(r[2], r[3]);
        [
            _mm512_unpacklo_epi64(t0, t2),
            _mm512_unpackhi_epi64(t0, t2),
            _mm512_unpacklo_epi64(t1, t3),
            _mm512_unpackhi_epi64(t1, t3),
        ]
    }
}

/// Encrypts or decrypts `items`, sixteen at a time.
#[target_feature(enable = "avx512f,avx512vl")]
fn run(rk: &RoundKeys, items: &mut [BatchItem<'_>], dir: Direction) {
    for chunk in items.chunks_mut(Zmm::LANES) {
        batch::run::<Zmm>(rk, chunk, dir);
    }
}

/// Entry point for the dispatcher: runs [`run`] after confirming AVX-512F/VL support
/// (cached by `cpufeatures`); without it, falls back to the portable path.
pub(super) fn run_detected(rk: &RoundKeys, items: &mut [BatchItem<'_>], dir: Direction) {
    if super::cpuid_avx512::get() {
        // SAFETY: the CPU supports AVX-512F (runtime detection just above).
        unsafe { run(rk, items, dir) }
    } else {
        batch::run_portable(rk, items, dir);
    }
}

/// One 32-bit word in lane 0 of an `xmm` register (the other lanes are
/// don't-care). Only ever created inside [`encrypt_single`] and
/// [`decrypt_single`], which are compiled with AVX-512F and AVX-512VL and
/// only called after both were detected.
#[derive(Clone, Copy)]
struct Xmm(__m128i);

/// Shift count operand for the `sll`/`srl` forms (the immediate forms take an
/// `i32` const that our `u32` const generic cannot provide); LLVM turns a
/// constant count back into the immediate instruction.
#[inline(always)]
fn count(n: u32) -> __m128i {
    // SAFETY: SSE2 is available on every CPU with AVX-512.
    unsafe { _mm_cvtsi32_si128(n as i32) }
}

// SAFETY (for every `unsafe` block in this impl): `Xmm` values exist only
// inside `encrypt_single` / `decrypt_single`, which are
// `#[target_feature(enable = "avx512f,avx512vl")]` and are called only after
// runtime detection of both, so the intrinsics are supported. `load` and
// `store` touch only element 0 of a `[u32; 16]`.
impl Words for Xmm {
    const LANES: usize = 1;
    const LATENCY_BOUND: bool = true;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_xor_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_and_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_or_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn not(self) -> Self {
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_ternarylogic_epi32::<0x55>(self.0, self.0, self.0) })
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_sll_epi32(self.0, count(N)) })
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_srl_epi32(self.0, count(N)) })
    }
    #[inline(always)]
    fn rotl<const N: u32>(self) -> Self {
        // A constant rotate count compiles to `vprold`.
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_rolv_epi32(self.0, _mm_set1_epi32(N as i32)) })
    }
    #[inline(always)]
    fn sign_mask(self) -> Self {
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_srai_epi32::<31>(self.0) })
    }
    #[inline(always)]
    fn load(src: &[u32; 16]) -> Self {
        Self::from_u32(src[0])
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32; 16]) {
        dst[0] = self.to_u32();
    }

    #[inline(always)]
    fn move2<const R: u32, const L: u32>(self, mr: u32, ml: u32) -> Self {
        debug_assert_eq!(mr, !(ml << L));
        let (a, b) = (self.shr::<R>(), self.shl::<L>());
        // SAFETY: see the impl comment.
        Xmm(unsafe { _mm_ternarylogic_epi32::<0xca>(Self::splat(mr).0, a.0, b.0) })
    }

    #[inline(always)]
    fn swapmove<const N: u32>(self, m: u32) -> Self {
        // SAFETY: see the impl comment.
        unsafe {
            let t = _mm_ternarylogic_epi32::<0x28>(self.shr::<N>().0, self.0, Self::splat(m).0);
            Xmm(_mm_ternarylogic_epi32::<0x96>(
                self.0,
                t,
                Xmm(t).shl::<N>().0,
            ))
        }
    }
}

impl SingleLane for Xmm {
    #[inline(always)]
    fn from_u32(x: u32) -> Self {
        // SAFETY: see the `Words` impl comment.
        Xmm(unsafe { _mm_cvtsi32_si128(x as i32) })
    }
    #[inline(always)]
    fn to_u32(self) -> u32 {
        // SAFETY: see the `Words` impl comment.
        unsafe { _mm_cvtsi128_si32(self.0) as u32 }
    }
}

#[target_feature(enable = "avx512f,avx512vl")]
fn encrypt_single(
    rk: &RoundKeys,
    nonce: &[u8; 16],
    ad: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> [u8; 16] {
    cofb::encrypt_with::<Xmm>(rk, nonce, ad, buffer)
}

#[target_feature(enable = "avx512f,avx512vl")]
fn decrypt_single(
    rk: &RoundKeys,
    nonce: &[u8; 16],
    ad: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &[u8; 16],
) -> bool {
    cofb::decrypt_with::<Xmm>(rk, nonce, ad, buffer, tag)
}

/// Single-message encryption for the dispatcher (portable fallback if the
/// CPU lacks AVX-512F/VL).
pub(super) fn encrypt_single_detected(
    rk: &RoundKeys,
    nonce: &[u8; 16],
    ad: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> [u8; 16] {
    if super::cpuid_avx512::get() {
        // SAFETY: the CPU supports AVX-512F and AVX-512VL (detected just above).
        unsafe { encrypt_single(rk, nonce, ad, buffer) }
    } else {
        cofb::encrypt(rk, nonce, ad, buffer)
    }
}

/// Single-message decryption for the dispatcher (portable fallback if the
/// CPU lacks AVX-512F/VL).
pub(super) fn decrypt_single_detected(
    rk: &RoundKeys,
    nonce: &[u8; 16],
    ad: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
    tag: &[u8; 16],
) -> bool {
    if super::cpuid_avx512::get() {
        // SAFETY: the CPU supports AVX-512F and AVX-512VL (detected just above).
        unsafe { decrypt_single(rk, nonce, ad, buffer, tag) }
    } else {
        cofb::decrypt(rk, nonce, ad, buffer, tag)
    }
}
