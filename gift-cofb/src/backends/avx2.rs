//! AVX2 backend: eight messages, one per 32-bit lane of a `ymm` register.
#![allow(unsafe_code)]

// The AVX2 tier: `avx2` and every feature `rustc` implies with it.
tier! {
    features: ["sse3", "ssse3", "sse4.1", "sse4.2", "avx", "avx2"],
    detect: runtime,
    batch: Ymm,
    single: u32,
}

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

use crate::words::Words;

/// Eight 32-bit lanes. Private to this module and named only as the batch type of [`enter`],
/// so its methods run only inside that entry point, which is compiled with AVX2 and called
/// only after [`detected`] confirmed the CPU has it.
#[derive(Clone, Copy)]
struct Ymm(__m256i);

/// Shift count operand for the `sll`/`srl` forms (the immediate forms take an
/// `i32` const that cannot be derived from our `u32` const generic); LLVM
/// turns a constant count back into the immediate instruction.
#[inline(always)]
fn count(n: u32) -> __m128i {
    // SAFETY: SSE2 is in the target (the x86 backends are built only then).
    unsafe { _mm_cvtsi32_si128(n as i32) }
}

// Every `unsafe` block in this impl calls AVX2 (or earlier) intrinsics: `Ymm` code runs only
// inside the AVX2 entry point (see `Ymm`), so the CPU supports them. Loads and stores
// read/write 32 bytes inside a `[u32; 16]` (64 bytes).
impl Words for Ymm {
    const LANES: usize = 8;
    const LATENCY_BOUND: bool = true;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment).
        Ymm(unsafe { _mm256_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment).
        Ymm(unsafe { _mm256_xor_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment).
        Ymm(unsafe { _mm256_and_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment).
        Ymm(unsafe { _mm256_or_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn not(self) -> Self {
        self.xor(Self::splat(u32::MAX))
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment).
        Ymm(unsafe { _mm256_sll_epi32(self.0, count(N)) })
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment).
        Ymm(unsafe { _mm256_srl_epi32(self.0, count(N)) })
    }
    #[inline(always)]
    fn rotl<const N: u32>(self) -> Self {
        if N.is_multiple_of(8) {
            // Byte-granular rotations are one shuffle.
            let r = (N / 8) as i8;
            let idx: [i8; 16] = core::array::from_fn(|i| {
                let i = i as i8;
                (i & !3) | ((i - r) & 3)
            });
            // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment).
            unsafe {
                let m = _mm256_broadcastsi128_si256(_mm_loadu_si128(idx.as_ptr().cast()));
                Ymm(_mm256_shuffle_epi8(self.0, m))
            }
        } else {
            self.shl::<N>().or(self.shr_dyn(32 - N))
        }
    }
    #[inline(always)]
    fn sign_mask(self) -> Self {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment).
        Ymm(unsafe { _mm256_srai_epi32::<31>(self.0) })
    }
    #[inline(always)]
    fn load(src: &[u32; 16]) -> Self {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment); `src` has 64
        // readable bytes.
        Ymm(unsafe { _mm256_loadu_si256(src.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32; 16]) {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment); `dst` has 64
        // writable bytes.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), self.0) }
    }

    #[inline(always)]
    fn load_blocks(blocks: &[[u8; 16]; 16]) -> [Self; 4] {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment); lanes 0..8
        // read `blocks[0..8]`, each 16 bytes inside the 256-byte array.
        unsafe {
            let p = blocks.as_ptr().cast::<__m128i>();
            // (No closures here: they would not inherit the entry point's
            // target features.)
            macro_rules! pair {
                ($j:expr) => {
                    _mm256_inserti128_si256::<1>(
                        _mm256_castsi128_si256(_mm_loadu_si128(p.add($j))),
                        _mm_loadu_si128(p.add($j + 4)),
                    )
                };
            }
            let [w0, w1, w2, w3] = transpose4([pair!(0), pair!(1), pair!(2), pair!(3)]);
            let bswap = bswap_mask();
            [
                Ymm(_mm256_shuffle_epi8(w0, bswap)),
                Ymm(_mm256_shuffle_epi8(w1, bswap)),
                Ymm(_mm256_shuffle_epi8(w2, bswap)),
                Ymm(_mm256_shuffle_epi8(w3, bswap)),
            ]
        }
    }

    #[inline(always)]
    fn store_blocks(s: &[Self; 4], blocks: &mut [[u8; 16]; 16]) {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the impl comment); lanes 0..8
        // write `blocks[0..8]`, each 16 bytes inside the 256-byte array.
        unsafe {
            let bswap = bswap_mask();
            let r = transpose4([
                _mm256_shuffle_epi8(s[0].0, bswap),
                _mm256_shuffle_epi8(s[1].0, bswap),
                _mm256_shuffle_epi8(s[2].0, bswap),
                _mm256_shuffle_epi8(s[3].0, bswap),
            ]);
            let p = blocks.as_mut_ptr().cast::<__m128i>();
            for (j, x) in r.iter().enumerate() {
                _mm_storeu_si128(p.add(j), _mm256_castsi256_si128(*x));
                _mm_storeu_si128(p.add(j + 4), _mm256_extracti128_si256::<1>(*x));
            }
        }
    }
}

/// Byte shuffle that reverses the bytes of every 32-bit word. Called only from code that runs
/// inside the AVX2 or AVX-512 entry point.
#[inline(always)]
pub(super) fn bswap_mask() -> __m256i {
    // SAFETY: an AVX intrinsic, and both tiers that call this check AVX.
    unsafe {
        _mm256_setr_epi8(
            3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10,
            9, 8, 15, 14, 13, 12,
        )
    }
}

/// 4×4 transpose of 32-bit words inside each 128-bit half (an involution). Called only from
/// code that runs inside the AVX2 or AVX-512 entry point.
#[inline(always)]
pub(super) fn transpose4(r: [__m256i; 4]) -> [__m256i; 4] {
    // SAFETY: AVX2 intrinsics, and both tiers that call this check AVX2.
    unsafe {
        let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
        let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
        let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
        let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
        [
            _mm256_unpacklo_epi64(t0, t2),
            _mm256_unpackhi_epi64(t0, t2),
            _mm256_unpacklo_epi64(t1, t3),
            _mm256_unpackhi_epi64(t1, t3),
        ]
    }
}

impl Ymm {
    #[inline(always)]
    fn shr_dyn(self, n: u32) -> Self {
        // SAFETY: AVX2 code inside the AVX2 entry point (see the `Words` impl comment).
        Ymm(unsafe { _mm256_srl_epi32(self.0, count(n)) })
    }
}
