//! aarch64 lanes: ARMv8 AES (`aese` + `aesmc`) on `uint8x16_t`, with SHA3's `eor3` for
//! three-way XOR, and the backend entry points.
//!
//! The lane types are private to this crate; a value of one can only be created inside an
//! entry point below, and entry points are only called after the CPU was checked.
#![allow(unsafe_code)]
// The AES and SHA3 intrinsics are `#[inline(always)]` with target features; the lane methods
// calling them have none (they must not, see the crate docs), so rustc warns that it will not
// inline them there. The methods are themselves inlined into the `#[target_feature]` entry
// points below, where LLVM does inline the intrinsics: the release build of the lane bench for
// aarch64 shows inline `aese`/`aesmc`/`eor3` and no calls (checked with objdump).
#![allow(inline_always_mismatching_target_features)]

use core::arch::aarch64::*;

use crate::backend::{LaneSet, run_with};
use crate::{LaneOp, Lanes, Wide};

/// One 128-bit lane in a NEON register; an AES round is `aesmc(aese(x, k))`.
#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t);

/// [`Neon`] whose `xor3` is a single SHA3 `eor3`.
#[derive(Clone, Copy)]
pub(crate) struct NeonSha3(Neon);

impl Neon {
    /// One AES round in Arm shape: `AESL(self ^ key)`, `aesmc(aese(x, k))`.
    #[inline(always)]
    fn aes_round_pre(self, key: Self) -> Self {
        // SAFETY: a `Neon` exists only inside an entry point whose CPU check included AES.
        Neon(unsafe { vaesmcq_u8(vaeseq_u8(self.0, key.0)) })
    }
}

/// `v`, unchanged, through an empty `asm!` the optimizer cannot see into, so that it cannot
/// regroup the XORs on either side (for [`Lanes::xor_late`]). No instruction is emitted; under
/// Miri, which cannot run `asm!`, the value passes through as it is.
#[inline(always)]
fn kept(v: uint8x16_t) -> uint8x16_t {
    #[cfg(not(miri))]
    {
        let mut v = v;
        // SAFETY: an empty instruction string: `v` stays in its register, unchanged; no
        // memory, stack or flags touched. NEON registers are in the aarch64 baseline.
        unsafe {
            core::arch::asm!("/* {0:v} */", inout(vreg) v, options(pure, nomem, nostack, preserves_flags));
        }
        v
    }
    #[cfg(miri)]
    v
}

impl Lanes for Neon {
    crate::lanes::one_part!();

    const LANES: usize = 1;
    const REGISTERS: usize = 32;
    const FUSED_XOR3: bool = false;
    const AES_XOR_FIRST: bool = true;

    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: NEON is part of the aarch64 targets this module is compiled for.
        Neon(unsafe { vdupq_n_u8(0) })
    }

    #[inline(always)]
    fn load(src: &[u8]) -> Self {
        let src = &src[..16];
        // SAFETY: 16 readable bytes; `vld1q_u8` has no alignment requirement beyond u8.
        Neon(unsafe { vld1q_u8(src.as_ptr()) })
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8]) {
        let dst = &mut dst[..16];
        // SAFETY: 16 writable bytes; `vst1q_u8` has no alignment requirement beyond u8.
        unsafe { vst1q_u8(dst.as_mut_ptr(), self.0) }
    }

    #[inline(always)]
    fn from_words(words: &[u64; 2 * crate::MAX_LANES]) -> Self {
        // SAFETY: NEON is part of the aarch64 targets this module is compiled for.
        Neon(unsafe {
            vreinterpretq_u8_u64(vcombine_u64(vcreate_u64(words[0]), vcreate_u64(words[1])))
        })
    }

    #[inline(always)]
    fn to_words(self) -> [u64; 2 * crate::MAX_LANES] {
        let mut w = [0u64; 2 * crate::MAX_LANES];
        // SAFETY: NEON is part of the aarch64 targets this module is compiled for.
        unsafe {
            let x = vreinterpretq_u64_u8(self.0);
            w[0] = vgetq_lane_u64::<0>(x);
            w[1] = vgetq_lane_u64::<1>(x);
        }
        w
    }

    #[inline(always)]
    fn broadcast(block: &[u8; 16]) -> Self {
        Self::load(block)
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: NEON is available (see `zero`).
        Neon(unsafe { veorq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: NEON is available (see `zero`).
        Neon(unsafe { vandq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn xor_late(self, b: Self, late: Self) -> Self {
        Neon(kept(self.xor(b).0)).xor(late)
    }

    #[inline(always)]
    fn aes_round(self, key: Self) -> Self {
        self.aesl().xor(key)
    }

    #[inline(always)]
    fn aesl_xor(self, key: Self) -> Self {
        self.aes_round_pre(key)
    }

    #[inline(always)]
    fn aes_round_last(self, key: Self) -> Self {
        // SAFETY: a `Neon` exists only inside an entry point whose CPU check included AES.
        Neon(unsafe { vaeseq_u8(self.0, vdupq_n_u8(0)) }).xor(key)
    }

    #[inline(always)]
    fn aes128_key_step(self, rcon: u8) -> Self {
        // SAFETY: NEON and AES checked by the entry point.
        unsafe {
            let k = self.0;
            let zero = vdupq_n_u8(0);
            let t = vqtbl1q_u8(k, vld1q_u8(ROT_WORD3_SPLAT.as_ptr()));
            let t = vaeseq_u8(t, zero);
            let t = veorq_u8(t, vreinterpretq_u8_u32(vdupq_n_u32(u32::from(rcon))));
            // vextq(zero, k, 16 - n) shifts k towards higher byte positions by n bytes.
            let k = veorq_u8(k, vextq_u8::<12>(zero, k));
            let k = veorq_u8(k, vextq_u8::<8>(zero, k));
            Neon(veorq_u8(k, t))
        }
    }

    #[inline(always)]
    fn transpose_words(v: [Self; 4]) -> [Self; 4] {
        // SAFETY: NEON is available (see `zero`).
        unsafe {
            let w = |x: Self| vreinterpretq_u32_u8(x.0);
            let t0 = vreinterpretq_u64_u32(vtrn1q_u32(w(v[0]), w(v[1])));
            let t1 = vreinterpretq_u64_u32(vtrn2q_u32(w(v[0]), w(v[1])));
            let t2 = vreinterpretq_u64_u32(vtrn1q_u32(w(v[2]), w(v[3])));
            let t3 = vreinterpretq_u64_u32(vtrn2q_u32(w(v[2]), w(v[3])));
            let n = |x: uint64x2_t| Neon(vreinterpretq_u8_u64(x));
            [
                n(vtrn1q_u64(t0, t2)),
                n(vtrn1q_u64(t1, t3)),
                n(vtrn2q_u64(t0, t2)),
                n(vtrn2q_u64(t1, t3)),
            ]
        }
    }

    #[inline(always)]
    fn aes128_key_step_sliced(w: [Self; 4], rcon: u8) -> [Self; 4] {
        // SAFETY: NEON and AES checked by the entry point.
        let t = Neon(unsafe {
            let t = vqtbl1q_u8(w[3].0, vld1q_u8(crate::lanes::SLICED_ROT_WORD.as_ptr()));
            let t = vaeseq_u8(t, vdupq_n_u8(0));
            veorq_u8(t, vreinterpretq_u8_u32(vdupq_n_u32(u32::from(rcon))))
        });
        let w0 = w[0].xor(t);
        let w1 = w[1].xor(w0);
        let w2 = w[2].xor(w1);
        [w0, w1, w2, w[3].xor(w2)]
    }

    #[inline(always)]
    fn aesl(self) -> Self {
        self.aes_round_pre(Self::zero())
    }
}

/// `tbl` indices putting RotWord(word 3) (bytes 13, 14, 15, 12) in every column.
const ROT_WORD3_SPLAT: [u8; 16] = [
    13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12,
];

impl Lanes for NeonSha3 {
    crate::lanes::one_part!();

    const LANES: usize = 1;
    const REGISTERS: usize = 32;
    const FUSED_XOR3: bool = true;
    const AES_XOR_FIRST: bool = true;

    #[inline(always)]
    fn zero() -> Self {
        NeonSha3(Neon::zero())
    }

    #[inline(always)]
    fn load(src: &[u8]) -> Self {
        NeonSha3(Neon::load(src))
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8]) {
        self.0.store(dst)
    }

    #[inline(always)]
    fn from_words(words: &[u64; 2 * crate::MAX_LANES]) -> Self {
        NeonSha3(Neon::from_words(words))
    }

    #[inline(always)]
    fn to_words(self) -> [u64; 2 * crate::MAX_LANES] {
        self.0.to_words()
    }

    #[inline(always)]
    fn broadcast(block: &[u8; 16]) -> Self {
        NeonSha3(Neon::broadcast(block))
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        NeonSha3(self.0.xor(other.0))
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        NeonSha3(self.0.and(other.0))
    }

    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        // SAFETY: a `NeonSha3` exists only inside an entry point whose CPU check included SHA3.
        NeonSha3(Neon(unsafe { veor3q_u8(self.0.0, b.0.0, c.0.0) }))
    }

    #[inline(always)]
    fn aes_round(self, key: Self) -> Self {
        NeonSha3(self.0.aes_round(key.0))
    }

    #[inline(always)]
    fn aesl_xor(self, key: Self) -> Self {
        NeonSha3(self.0.aesl_xor(key.0))
    }

    #[inline(always)]
    fn aes_round_last(self, key: Self) -> Self {
        NeonSha3(self.0.aes_round_last(key.0))
    }

    #[inline(always)]
    fn aes128_key_step(self, rcon: u8) -> Self {
        NeonSha3(self.0.aes128_key_step(rcon))
    }

    #[inline(always)]
    fn transpose_words(v: [Self; 4]) -> [Self; 4] {
        let [a, b, c, d] = Neon::transpose_words([v[0].0, v[1].0, v[2].0, v[3].0]);
        [NeonSha3(a), NeonSha3(b), NeonSha3(c), NeonSha3(d)]
    }

    #[inline(always)]
    fn aes128_key_step_sliced(w: [Self; 4], rcon: u8) -> [Self; 4] {
        let [a, b, c, d] = Neon::aes128_key_step_sliced([w[0].0, w[1].0, w[2].0, w[3].0], rcon);
        [NeonSha3(a), NeonSha3(b), NeonSha3(c), NeonSha3(d)]
    }

    #[inline(always)]
    fn aesl(self) -> Self {
        NeonSha3(self.0.aesl())
    }
}

/// Run-time aarch64 feature checks by name (the table behind the tiers' checks).
mod cpu {
    cpufeatures::new!(aes_cpuid, "aes");
    cpufeatures::new!(sha2_cpuid, "sha2");
    cpufeatures::new!(sha3_cpuid, "sha3");

    /// The features the tiers may name besides `neon`, which every target these backends are
    /// compiled for enables at compile time (see the build script).
    #[cfg(test)]
    pub(crate) fn known(name: &str) -> bool {
        matches!(name, "aes" | "sha2" | "sha3") || (name == "neon" && cfg!(target_feature = "neon"))
    }

    /// Whether the CPU has feature `name` (`aes`: AES and PMULL, `sha2`: SHA1 and SHA256,
    /// `sha3`: SHA3 and SHA512, as the OS reports them). Unknown names: false.
    pub(crate) fn has(name: &str) -> bool {
        match name {
            "aes" => aes_cpuid::get(),
            "sha2" => sha2_cpuid::get(),
            "sha3" => sha3_cpuid::get(),
            _ => false,
        }
    }
}

/// The lane types of an Arm tier: `L` for one lane, `Wide<L, 2>` and `Wide<L, 4>`.
pub(crate) struct ArmSet<L>(core::marker::PhantomData<L>);

impl<L: Lanes> LaneSet for ArmSet<L> {
    type One = L;
    type Two = Wide<L, 2>;
    type Four = Wide<L, 4>;
}

/// Runs `op` with `ArmSet<L>`'s lane type for its lane count.
#[inline(always)]
fn pick<Op: LaneOp, L: Lanes>(op: Op) -> Op::Output {
    run_with::<Op, ArmSet<L>>(op)
}

crate::tier::tier! {
    /// ARMv8 AES: `Neon`, and `Wide<Neon, N>` for 2 and 4 lanes.
    run_arm_aes, has_arm_aes, ARM_AES_FEATURES = ["neon", "aes"] => |op| pick::<Op, Neon>(op);

    /// ARMv8 AES + SHA3: `NeonSha3`, and `Wide<NeonSha3, N>` for 2 and 4 lanes.
    // `sha3` implies `sha2` in the compiler, so the check includes it.
    run_arm_sha3, has_arm_sha3, ARM_SHA3_FEATURES = ["neon", "aes", "sha2", "sha3"]
        => |op| pick::<Op, NeonSha3>(op);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every feature an Arm tier enables has a check.
    #[test]
    fn every_tier_feature_is_checked() {
        for f in ARM_AES_FEATURES.iter().chain(ARM_SHA3_FEATURES) {
            assert!(cpu::known(f), "{f} has no run-time check");
        }
        if has_arm_sha3() {
            assert!(has_arm_aes());
        }
    }
}
