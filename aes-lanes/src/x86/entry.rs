//! Backend entry points: generic lane code is instantiated and inlined here, compiled with
//! the target features of the tier.

use crate::{LaneOp, Lanes, Wide};

use super::{Xmm, Ymm, Zmm};

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

/// AES-NI: `Xmm`, and `Wide<Xmm, N>` for 2 and 4 lanes, in legacy SSE encoding (CPUs
/// without AVX, e.g. Westmere). Two-operand instructions overwrite a source, so LLVM adds
/// register copies around every round that keeps its input.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1")]
pub(crate) fn run_aesni<Op: LaneOp>(op: Op) -> Op::Output {
    pick::<Op, Xmm, Wide<Xmm, 2>, Wide<Xmm, 4>>(op)
}

/// AES-NI on a CPU with AVX (Sandy Bridge to Cascade Lake, Zen 1/2): the same lane types
/// as [`run_aesni`], VEX-encoded (three operands, no copies). Same results; measured on
/// Zen 3, HiAE encryption at 64 KiB is about 1.4x the SSE-encoded build.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1,avx")]
pub(crate) fn run_aesni_avx<Op: LaneOp>(op: Op) -> Op::Output {
    pick::<Op, Xmm, Wide<Xmm, 2>, Wide<Xmm, 4>>(op)
}

/// VAES + AVX2: `Xmm` (VEX-encoded), `Ymm`, and `Wide<Ymm, 2>` for 4 lanes.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1,avx,avx2,vaes")]
pub(crate) fn run_vaes256<Op: LaneOp>(op: Op) -> Op::Output {
    pick::<Op, Xmm, Ymm, Wide<Ymm, 2>>(op)
}

/// VAES + AVX-512: `Xmm` and `Ymm` in their AVX-512VL form (32 registers, three-way XORs as
/// `vpternlogd`) and `Zmm` for 4 lanes.
#[target_feature(enable = "aes,sse2,ssse3,sse4.1,avx,avx2,vaes,avx512f,avx512vl,avx512bw")]
pub(crate) fn run_vaes512<Op: LaneOp>(op: Op) -> Op::Output {
    pick::<Op, Xmm<true>, Ymm<true>, Zmm>(op)
}
