//! The x86-64 tiers: entry points that instantiate generic lane code with the tier's target
//! features enabled, and their run-time checks, both made from one feature list per tier.

use crate::tier::tier;
use crate::{LaneOp, Lanes, Wide};

use super::{Xmm, Ymm, Zmm, detect as cpu};

/// Runs `op` with `L` for its lane count: 1 → `A`, 2 → `B`, 4 → `C`.
#[inline(always)]
fn pick<Op: LaneOp, A: Lanes, B: Lanes, C: Lanes>(op: Op) -> Op::Output {
    match Op::LANES {
        1 => op.run::<A>(),
        2 => op.run::<B>(),
        4 => op.run::<C>(),
        n => panic!("unsupported lane count {n}"),
    }
}

tier! {
    /// AES-NI: `Xmm`, and `Wide<Xmm, N>` for 2 and 4 lanes, in legacy SSE encoding (CPUs
    /// without AVX, e.g. Westmere). Two-operand instructions overwrite a source, so LLVM adds
    /// register copies around every round that keeps its input.
    run_aesni, has_aesni, AESNI_FEATURES = ["sse2", "ssse3", "sse4.1", "aes"]
        => |op| pick::<Op, Xmm, Wide<Xmm, 2>, Wide<Xmm, 4>>(op);

    /// AES-NI on a CPU with AVX (Sandy Bridge to Cascade Lake, Zen 1/2): the same lane types
    /// as [`run_aesni`], VEX-encoded (three operands, no copies). Same results, faster.
    run_aesni_avx, has_aesni_avx, AESNI_AVX_FEATURES = ["sse2", "ssse3", "sse4.1", "aes", "avx"]
        => |op| pick::<Op, Xmm, Wide<Xmm, 2>, Wide<Xmm, 4>>(op);

    /// VAES + AVX2: `Ymm` for 2 lanes and `Wide<Ymm, 2>` for 4 (one lane runs
    /// [`run_aesni_avx`], the same code).
    run_vaes256, has_vaes256, VAES256_FEATURES =
        ["sse2", "ssse3", "sse4.1", "aes", "avx", "avx2", "vaes"]
        => |op| pick::<Op, Xmm, Ymm, Wide<Ymm, 2>>(op);

    /// VAES + AVX-512: `Xmm` and `Ymm` in their AVX-512VL form (32 registers, three-way XORs
    /// as `vpternlogd`) and `Zmm` for 4 lanes.
    run_vaes512, has_vaes512, VAES512_FEATURES = [
        "sse2", "ssse3", "sse4.1", "aes", "avx", "avx2", "vaes", "avx512f", "avx512vl",
        "avx512bw",
    ] => |op| pick::<Op, Xmm<true>, Ymm<true>, Zmm>(op);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every feature a tier enables is one the run-time table can check, and the AVX-512 tier
    /// checks the BW subset its byte shuffles need.
    #[test]
    fn every_tier_feature_is_checked() {
        for list in [
            AESNI_FEATURES,
            AESNI_AVX_FEATURES,
            VAES256_FEATURES,
            VAES512_FEATURES,
        ] {
            for f in list {
                assert!(cpu::known(f), "{f} has no run-time check");
            }
        }
        assert!(VAES512_FEATURES.contains(&"avx512bw"));
    }

    /// Each tier includes the features of the tiers it runs code of.
    #[test]
    fn tiers_nest() {
        for (small, big) in [
            (AESNI_FEATURES, AESNI_AVX_FEATURES),
            (AESNI_AVX_FEATURES, VAES256_FEATURES),
            (VAES256_FEATURES, VAES512_FEATURES),
        ] {
            for f in small {
                assert!(big.contains(f), "{f}");
            }
        }
    }

    #[test]
    fn checks_are_consistent() {
        if has_vaes512() {
            assert!(has_vaes256());
        }
        if has_vaes256() {
            assert!(has_aesni_avx());
        }
        if has_aesni_avx() {
            assert!(has_aesni());
        }
    }
}
