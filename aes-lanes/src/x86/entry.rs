//! The x86-64 tiers: entry points that instantiate generic lane code with the tier's target
//! features enabled, and their run-time checks, both made from one feature list per tier.

use crate::backend::{LaneSet, run_with};
use crate::tier::tier;
use crate::{LaneOp, Wide};

use super::{Xmm, Ymm, Zmm, detect as cpu};

/// A 64-byte-aligned local whose address escapes: its presence makes the compiler realign the
/// entry point's stack frame, and with it the spill slots of vector registers.
#[repr(C, align(64))]
struct FrameAnchor([u8; 64]);

/// The lane types of the AES-NI tiers: `xmm` registers, arrays of them for wide lanes.
pub(crate) struct AesNiSet;

impl LaneSet for AesNiSet {
    type One = Xmm;
    type Two = Wide<Xmm, 2>;
    type Four = Wide<Xmm, 4>;
}

/// The lane types of AES-NI on a CPU with AVX: those of [`AesNiSet`], VEX-encoded.
pub(crate) struct AesNiAvxSet;

impl LaneSet for AesNiAvxSet {
    type One = Xmm<false, true>;
    type Two = Wide<Xmm<false, true>, 2>;
    type Four = Wide<Xmm<false, true>, 4>;
}

/// The lane types of VAES-AVX2: `xmm` for one lane, `ymm` for two, two `ymm` for four.
pub(crate) struct Vaes256Set;

impl LaneSet for Vaes256Set {
    type One = Xmm<false, true>;
    type Two = Ymm;
    type Four = Wide<Ymm, 2>;
}

/// The lane types of VAES-AVX512: `xmm`, `ymm` and `zmm` with 32 registers.
pub(crate) struct Vaes512Set;

impl LaneSet for Vaes512Set {
    type One = Xmm<true, true>;
    type Two = Ymm<true>;
    type Four = Zmm;
}

/// Runs `op` with `S`'s lane type for its lane count.
///
/// When the lane type of a wide computation (2 or 4 lanes) is a register wider than 128 bits
/// (`ymm`, `zmm`: alignment over 16 bytes), the stack frame is first aligned to 64 bytes, so
/// that its spilled registers are stored aligned instead of crossing a cache line or not
/// depending on where the caller's stack happens to be. With 16 registers (VAES-AVX2) the
/// 256-bit states spill in the loops (up to 2× in a loop's speed); with 32 (VAES-AVX512) only
/// the set-up of a call spills a few, but every unaligned `zmm` slot crosses a line, which
/// costs a short call a quarter of its time on AMD Zen 4 (PERFORMANCE.md). `xmm` lanes, and
/// `Wide` arrays of them, never cross a line and skip the few instructions.
#[inline(always)]
fn pick<Op: LaneOp, S: LaneSet>(op: Op) -> Op::Output {
    let wide_align = match Op::LANES {
        2 => align_of::<S::Two>(),
        4 => align_of::<S::Four>(),
        _ => 0,
    };
    if wide_align > 16 {
        let mut anchor = core::mem::MaybeUninit::<FrameAnchor>::uninit();
        core::hint::black_box(anchor.as_mut_ptr());
    }
    run_with::<Op, S>(op)
}

// Each list holds every feature the compiler enables with it, the implied ones included
// (`avx` implies SSE4.2, `avx512f` FMA and F16C): code compiled with a feature may use it,
// so detection checks it too. A test compares the lists with `rustc --print cfg`.
tier! {
    /// AES-NI: `Xmm`, and `Wide<Xmm, N>` for 2 and 4 lanes, in legacy SSE encoding (CPUs
    /// without AVX, e.g. Westmere). Two-operand instructions overwrite a source, so LLVM adds
    /// register copies around every round that keeps its input.
    run_aesni, has_aesni, AESNI_FEATURES = ["sse2", "sse3", "ssse3", "sse4.1", "aes"]
        => |op| pick::<Op, AesNiSet>(op);

    /// AES-NI on a CPU with AVX (Sandy Bridge to Cascade Lake, Zen 1/2): the same lane types
    /// as [`run_aesni`], VEX-encoded (three operands, no copies). Same results, faster.
    run_aesni_avx, has_aesni_avx, AESNI_AVX_FEATURES =
        ["sse2", "sse3", "ssse3", "sse4.1", "sse4.2", "aes", "avx"]
        => |op| pick::<Op, AesNiAvxSet>(op);

    /// VAES + AVX2: `Ymm` for 2 lanes and `Wide<Ymm, 2>` for 4 (one lane runs
    /// [`run_aesni_avx`], the same code).
    run_vaes256, has_vaes256, VAES256_FEATURES =
        ["sse2", "sse3", "ssse3", "sse4.1", "sse4.2", "aes", "avx", "avx2", "vaes"]
        => |op| pick::<Op, Vaes256Set>(op);

    /// VAES + AVX-512: `Xmm` and `Ymm` in their AVX-512VL form (32 registers, three-way XORs
    /// as `vpternlogd`) and `Zmm` for 4 lanes.
    run_vaes512, has_vaes512, VAES512_FEATURES = [
        "sse2", "sse3", "ssse3", "sse4.1", "sse4.2", "aes", "avx", "avx2", "vaes", "fma", "f16c",
        "avx512f", "avx512vl", "avx512bw",
    ] => |op| pick::<Op, Vaes512Set>(op);
}

#[cfg(test)]
mod tests {
    extern crate std;

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

    /// `pick` aligns the frame exactly for the lane types held in `ymm` or `zmm` registers.
    #[test]
    fn frame_alignment_follows_the_register_width() {
        assert_eq!(align_of::<Wide<Xmm, 2>>(), 16);
        assert_eq!(align_of::<Wide<Xmm, 4>>(), 16);
        assert!(align_of::<Ymm>() > 16 && align_of::<Wide<Ymm, 2>>() > 16);
        assert!(align_of::<Zmm>() > 16);
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

    /// A tier's name, feature list and check.
    type Tier = (&'static str, &'static [&'static str], fn() -> bool);

    const ALL: [Tier; 4] = [
        ("AES-NI", AESNI_FEATURES, has_aesni),
        ("AES-NI-AVX", AESNI_AVX_FEATURES, has_aesni_avx),
        ("VAES-AVX2", VAES256_FEATURES, has_vaes256),
        ("VAES-AVX512", VAES512_FEATURES, has_vaes512),
    ];

    /// `target_feature` values `rustc` reports with `-C target-feature=+f,…`.
    #[cfg(not(miri))]
    fn rustc_features(fs: &[&str]) -> std::collections::BTreeSet<std::string::String> {
        use std::string::String;
        use std::vec::Vec;
        // The compiler of this build: the `rustc` next to the `cargo` that built it.
        let rustc = std::path::Path::new(env!("CARGO")).with_file_name("rustc");
        let mut cmd = std::process::Command::new(&rustc);
        cmd.args(["--print", "cfg", "--target", "x86_64-unknown-linux-gnu"]);
        if !fs.is_empty() {
            let list: Vec<String> = fs.iter().map(|f| std::format!("+{f}")).collect();
            cmd.arg("-C")
                .arg(std::format!("target-feature={}", list.join(",")));
        }
        let out = cmd.output().expect("rustc runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix("target_feature=\""))
            .map(|l| l.trim_end_matches('"').into())
            .collect()
    }

    /// Each tier's list holds every feature `rustc` turns on with it (implied ones included),
    /// and only features `rustc` knows.
    #[test]
    #[cfg(not(miri))]
    fn lists_hold_every_feature_rustc_enables() {
        let baseline = rustc_features(&[]);
        for (name, list, _) in ALL {
            let enabled = rustc_features(list);
            for f in &enabled {
                assert!(
                    baseline.contains(f) || list.contains(&f.as_str()),
                    "{name}: rustc enables {f}, which detection does not check"
                );
            }
            for f in list {
                assert!(enabled.contains(*f), "{name}: {f} is no rustc feature");
            }
        }
    }

    /// The run-time checks agree with the standard library's detection, feature by feature.
    #[test]
    #[cfg(not(miri))]
    fn checks_agree_with_std() {
        fn std_has(f: &str) -> bool {
            match f {
                "sse2" => std::is_x86_feature_detected!("sse2"),
                "sse3" => std::is_x86_feature_detected!("sse3"),
                "ssse3" => std::is_x86_feature_detected!("ssse3"),
                "sse4.1" => std::is_x86_feature_detected!("sse4.1"),
                "sse4.2" => std::is_x86_feature_detected!("sse4.2"),
                "aes" => std::is_x86_feature_detected!("aes"),
                "avx" => std::is_x86_feature_detected!("avx"),
                "avx2" => std::is_x86_feature_detected!("avx2"),
                "vaes" => std::is_x86_feature_detected!("vaes"),
                "fma" => std::is_x86_feature_detected!("fma"),
                "f16c" => std::is_x86_feature_detected!("f16c"),
                "avx512f" => std::is_x86_feature_detected!("avx512f"),
                "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
                "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
                other => panic!("no std check listed for {other}"),
            }
        }
        for (name, list, has) in ALL {
            for f in list {
                assert_eq!(cpu::has(f), std_has(f), "{name}: {f}");
            }
            assert_eq!(has(), list.iter().all(|f| std_has(f)), "{name}");
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
