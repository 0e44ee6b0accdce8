//! AVX-512 backend (AVX-512F + AVX-512VL, on `ymm` and `xmm` registers).
//!
//! Batches: sixteen messages, one per 32-bit lane, held as two independent groups of eight in
//! `ymm` registers and computed with the AVX-512VL forms (`vpternlogd`, `vprold`): each COFB
//! chain is sequential, and two independent chains hide more latency than one `zmm` chain.
//!
//! One message: the four state words live in `xmm` registers so that the rounds use
//! `vpternlogd` and `vprold`: fewer dependent operations per round than general-purpose
//! registers allow.
//!
//! No AVX-512BW (byte and word) instruction is used: byte shuffles are the AVX2 forms on
//! `ymm0`–`ymm15`, which AVX-512F/VL CPUs all have.
#![allow(unsafe_code)]

// The AVX-512 tier: `avx512f`, `avx512vl` and every feature `rustc` implies with them
// (`avx2` and below, `fma`, and `f16c`, which `cpufeatures` does not name).
tier! {
    features: [
        "sse3", "ssse3", "sse4.1", "sse4.2", "avx", "avx2", "fma", "avx512f", "avx512vl",
    ],
    own: ["f16c" => super::x86::has_f16c],
    detect: runtime,
    batch: Ymm2,
    single: Xmm,
}

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::words::{SingleLane, Words};

/// Sixteen 32-bit lanes as two independent `ymm` halves (lanes 0..8 and 8..16) using the
/// AVX-512VL forms (`vpternlogd`, `vprold`) on 256-bit registers. Private to this module and
/// named only as the batch type of [`enter`], so its methods run only inside that entry point,
/// which is compiled with the tier's features and called only after [`detected`] confirmed
/// them.
#[derive(Clone, Copy)]
struct Ymm2([__m256i; 2]);

/// Applies a 256-bit intrinsic to both halves (a macro, not a closure:
/// closures do not inherit the entry point's target features).
macro_rules! both {
    ($f:ident $(::<$c:tt>)? ($x:expr $(, $y:expr)*)) => {
        Ymm2([$f$(::<$c>)?($x.0[0] $(, $y.0[0])*), $f$(::<$c>)?($x.0[1] $(, $y.0[1])*)])
    };
}

// Every `unsafe` block in this impl and its helpers calls AVX2 or AVX-512F/VL intrinsics:
// `Ymm2` code runs only inside the AVX-512 entry point (see `Ymm2`), so the CPU supports them.
// Loads and stores touch the 64 bytes of a `[u32; 16]` or 16-byte blocks inside a
// `[[u8; 16]; 16]`.
impl Words for Ymm2 {
    const LANES: usize = 16;
    const LATENCY_BOUND: bool = true;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        let v = unsafe { _mm256_set1_epi32(x as i32) };
        Ymm2([v, v])
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe { both!(_mm256_xor_si256(self, o)) }
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe { both!(_mm256_and_si256(self, o)) }
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe { both!(_mm256_or_si256(self, o)) }
    }
    #[inline(always)]
    fn not(self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe { both!(_mm256_ternarylogic_epi32::<0x55>(self, self, self)) }
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe {
            let n = _mm_cvtsi32_si128(N as i32);
            Ymm2([
                _mm256_sll_epi32(self.0[0], n),
                _mm256_sll_epi32(self.0[1], n),
            ])
        }
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe {
            let n = _mm_cvtsi32_si128(N as i32);
            Ymm2([
                _mm256_srl_epi32(self.0[0], n),
                _mm256_srl_epi32(self.0[1], n),
            ])
        }
    }
    #[inline(always)]
    fn rotl<const N: u32>(self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe {
            let n = Ymm2([_mm256_set1_epi32(N as i32); 2]);
            both!(_mm256_rolv_epi32(self, n))
        }
    }
    #[inline(always)]
    fn sign_mask(self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe { both!(_mm256_srai_epi32::<31>(self)) }
    }
    #[inline(always)]
    fn load(src: &[u32; 16]) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe {
            let p = src.as_ptr().cast::<__m256i>();
            Ymm2([_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))])
        }
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32; 16]) {
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe {
            let p = dst.as_mut_ptr().cast::<__m256i>();
            _mm256_storeu_si256(p, self.0[0]);
            _mm256_storeu_si256(p.add(1), self.0[1]);
        }
    }

    #[inline(always)]
    fn move2<const R: u32, const L: u32>(self, mr: u32, ml: u32) -> Self {
        debug_assert_eq!(mr, !(ml << L));
        let (a, b, m) = (self.shr::<R>(), self.shl::<L>(), Self::splat(mr));
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe { both!(_mm256_ternarylogic_epi32::<0xca>(m, a, b)) }
    }

    #[inline(always)]
    fn swapmove<const N: u32>(self, m: u32) -> Self {
        let (sh, mm) = (self.shr::<N>(), Self::splat(m));
        // SAFETY: AVX-512 tier code (see the impl comment).
        let t = unsafe { both!(_mm256_ternarylogic_epi32::<0x28>(sh, self, mm)) };
        let ts = t.shl::<N>();
        // SAFETY: AVX-512 tier code (see the impl comment).
        unsafe { both!(_mm256_ternarylogic_epi32::<0x96>(self, t, ts)) }
    }

    #[inline(always)]
    fn load_blocks(blocks: &[[u8; 16]; 16]) -> [Self; 4] {
        let (a, b) = (load_half(blocks, 0), load_half(blocks, 1));
        [
            Ymm2([a[0], b[0]]),
            Ymm2([a[1], b[1]]),
            Ymm2([a[2], b[2]]),
            Ymm2([a[3], b[3]]),
        ]
    }

    #[inline(always)]
    fn store_blocks(s: &[Self; 4], blocks: &mut [[u8; 16]; 16]) {
        for h in 0..2 {
            // SAFETY: AVX-512 tier code (see the impl comment); half `h` writes
            // `blocks[8h..8h + 8]`.
            unsafe {
                let bswap = super::avx2::bswap_mask();
                let r = super::avx2::transpose4([
                    _mm256_shuffle_epi8(s[0].0[h], bswap),
                    _mm256_shuffle_epi8(s[1].0[h], bswap),
                    _mm256_shuffle_epi8(s[2].0[h], bswap),
                    _mm256_shuffle_epi8(s[3].0[h], bswap),
                ]);
                let p = blocks.as_mut_ptr().cast::<__m128i>().add(8 * h);
                for (j, x) in r.iter().enumerate() {
                    _mm_storeu_si128(p.add(j), _mm256_castsi256_si128(*x));
                    _mm_storeu_si128(p.add(j + 4), _mm256_extracti128_si256::<1>(*x));
                }
            }
        }
    }
}

/// Lanes `8h..8h + 8` of [`Words::load_blocks`] for [`Ymm2`].
#[inline(always)]
fn load_half(blocks: &[[u8; 16]; 16], h: usize) -> [__m256i; 4] {
    // SAFETY: AVX2 intrinsics, called only by `Ymm2` code (inside the AVX-512 entry point,
    // whose features include AVX2); reads `blocks[8h..8h + 8]`, `h` being 0 or 1.
    unsafe {
        let p = blocks.as_ptr().cast::<__m128i>().add(8 * h);
        macro_rules! pair {
            ($j:expr) => {
                _mm256_inserti128_si256::<1>(
                    _mm256_castsi128_si256(_mm_loadu_si128(p.add($j))),
                    _mm_loadu_si128(p.add($j + 4)),
                )
            };
        }
        let r = [pair!(0), pair!(1), pair!(2), pair!(3)];
        let bswap = super::avx2::bswap_mask();
        let [w0, w1, w2, w3] = super::avx2::transpose4(r);
        [
            _mm256_shuffle_epi8(w0, bswap),
            _mm256_shuffle_epi8(w1, bswap),
            _mm256_shuffle_epi8(w2, bswap),
            _mm256_shuffle_epi8(w3, bswap),
        ]
    }
}

/// One 32-bit word in lane 0 of an `xmm` register (the other lanes are don't-care). Private to
/// this module and named only as the one-message type of [`enter`] (see [`Ymm2`]).
#[derive(Clone, Copy)]
struct Xmm(__m128i);

/// Shift count operand for the `sll`/`srl` forms (the immediate forms take an
/// `i32` const that our `u32` const generic cannot provide); LLVM turns a
/// constant count back into the immediate instruction.
#[inline(always)]
fn count(n: u32) -> __m128i {
    // SAFETY: SSE2 is in the target (the x86 backends are built only then).
    unsafe { _mm_cvtsi32_si128(n as i32) }
}

// Every `unsafe` block in this impl calls SSE2 or AVX-512F/VL intrinsics: `Xmm` code runs only
// inside the AVX-512 entry point (see `Xmm`), so the CPU supports them. `load` and `store`
// touch only element 0 of a `[u32; 16]`.
impl Words for Xmm {
    const LANES: usize = 1;
    const LATENCY_BOUND: bool = true;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        Xmm(unsafe { _mm_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        Xmm(unsafe { _mm_xor_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        Xmm(unsafe { _mm_and_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        Xmm(unsafe { _mm_or_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn not(self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        Xmm(unsafe { _mm_ternarylogic_epi32::<0x55>(self.0, self.0, self.0) })
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        Xmm(unsafe { _mm_sll_epi32(self.0, count(N)) })
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
        Xmm(unsafe { _mm_srl_epi32(self.0, count(N)) })
    }
    #[inline(always)]
    fn rotl<const N: u32>(self) -> Self {
        // A constant rotate count compiles to `vprold`.
        // SAFETY: AVX-512 tier code (see the impl comment).
        Xmm(unsafe { _mm_rolv_epi32(self.0, _mm_set1_epi32(N as i32)) })
    }
    #[inline(always)]
    fn sign_mask(self) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
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
        // SAFETY: AVX-512 tier code (see the impl comment).
        Xmm(unsafe { _mm_ternarylogic_epi32::<0xca>(Self::splat(mr).0, a.0, b.0) })
    }

    #[inline(always)]
    fn swapmove<const N: u32>(self, m: u32) -> Self {
        // SAFETY: AVX-512 tier code (see the impl comment).
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
        // SAFETY: AVX-512 tier code (see the `Words` impl comment).
        Xmm(unsafe { _mm_cvtsi32_si128(x as i32) })
    }
    #[inline(always)]
    fn to_u32(self) -> u32 {
        // SAFETY: AVX-512 tier code (see the `Words` impl comment).
        unsafe { _mm_cvtsi128_si32(self.0) as u32 }
    }
}
