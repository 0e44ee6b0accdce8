//! NEON backend (aarch64): four messages, one per 32-bit lane of a `q`
//! register.
//!
//! Only compiled when the target enables `neon` (then every CPU the binary can
//! run on has it), so detection is a compile-time check.
#![allow(unsafe_code)]

// The NEON tier (`neon` implies nothing else on aarch64).
tier! {
    features: ["neon"],
    detect: compile_time,
    batch: Q,
    single: u32,
}

use core::arch::aarch64::*;

use crate::words::Words;

/// Four 32-bit lanes.
#[derive(Clone, Copy)]
struct Q(uint32x4_t);

// Every `unsafe` block in this impl calls NEON intrinsics: this module is compiled only for
// aarch64 targets with the `neon` target feature enabled, so every CPU running the code
// supports them. Loads and stores touch 16 bytes inside a `[u32; 16]` (64 bytes).
impl Words for Q {
    const LANES: usize = 4;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { vdupq_n_u32(x) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { veorq_u32(self.0, o.0) })
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { vandq_u32(self.0, o.0) })
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { vorrq_u32(self.0, o.0) })
    }
    #[inline(always)]
    fn not(self) -> Self {
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { vmvnq_u32(self.0) })
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        // A constant count compiles to `shl #N`.
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { vshlq_u32(self.0, vdupq_n_s32(N as i32)) })
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        // A negative constant count compiles to `ushr #N`.
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { vshlq_u32(self.0, vdupq_n_s32(-(N as i32))) })
    }
    #[inline(always)]
    fn rotl<const N: u32>(self) -> Self {
        if N == 16 {
            // SAFETY: NEON intrinsics (see the impl comment).
            Q(unsafe { vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(self.0))) })
        } else {
            // SAFETY: NEON intrinsics (see the impl comment).
            Q(unsafe {
                vorrq_u32(
                    vshlq_u32(self.0, vdupq_n_s32(N as i32)),
                    vshlq_u32(self.0, vdupq_n_s32(N as i32 - 32)),
                )
            })
        }
    }
    #[inline(always)]
    fn sign_mask(self) -> Self {
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { vreinterpretq_u32_s32(vshrq_n_s32::<31>(vreinterpretq_s32_u32(self.0))) })
    }
    #[inline(always)]
    fn load(src: &[u32; 16]) -> Self {
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { vld1q_u32(src.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32; 16]) {
        // SAFETY: NEON intrinsics (see the impl comment).
        unsafe { vst1q_u32(dst.as_mut_ptr(), self.0) }
    }

    #[inline(always)]
    fn load_blocks(blocks: &[[u8; 16]; 16]) -> [Self; 4] {
        // SAFETY: NEON intrinsics (see the impl comment); reads `blocks[0..4]`.
        unsafe {
            let r: [uint32x4_t; 4] = core::array::from_fn(|j| {
                vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(blocks[j].as_ptr())))
            });
            transpose4(r).map(Q)
        }
    }

    #[inline(always)]
    fn store_blocks(s: &[Self; 4], blocks: &mut [[u8; 16]; 16]) {
        // SAFETY: NEON intrinsics (see the impl comment); writes `blocks[0..4]`.
        unsafe {
            let r = transpose4(s.map(|x| x.0));
            for (j, x) in r.iter().enumerate() {
                vst1q_u8(blocks[j].as_mut_ptr(), vrev32q_u8(vreinterpretq_u8_u32(*x)));
            }
        }
    }

    #[inline(always)]
    fn move2<const R: u32, const L: u32>(self, mr: u32, ml: u32) -> Self {
        // The masks are complementary after the shift in every use: a bit
        // select of two shifted copies.
        debug_assert_eq!(mr, !(ml << L));
        // SAFETY: NEON intrinsics (see the impl comment).
        Q(unsafe { vbslq_u32(vdupq_n_u32(mr), self.shr::<R>().0, self.shl::<L>().0) })
    }
}

/// 4×4 transpose of 32-bit words (an involution).
#[inline(always)]
fn transpose4(r: [uint32x4_t; 4]) -> [uint32x4_t; 4] {
    // SAFETY: NEON is enabled for this module's target (see the `Words` impl).
    unsafe {
        let a = vtrnq_u32(r[0], r[1]); // [a0 b0 a2 b2], [a1 b1 a3 b3]
        let b = vtrnq_u32(r[2], r[3]); // [c0 d0 c2 d2], [c1 d1 c3 d3]
        let lo = |x: uint32x4_t| vget_low_u32(x);
        let hi = |x: uint32x4_t| vget_high_u32(x);
        [
            vcombine_u32(lo(a.0), lo(b.0)),
            vcombine_u32(lo(a.1), lo(b.1)),
            vcombine_u32(hi(a.0), hi(b.0)),
            vcombine_u32(hi(a.1), hi(b.1)),
        ]
    }
}
