//! HiAE's `Diffuse` and single updates with their input in memory, in assembly, for the lane
//! types of [`Lanes::HIAE_LOOPS`](crate::Lanes::HIAE_LOOPS) (sixteen VEX-encoded registers):
//! see [`Lanes::hiae_diffuse`](crate::Lanes::hiae_diffuse) and
//! [`Lanes::hiae_update_from`](crate::Lanes::hiae_update_from).
//!
//! An update needs its input block three times (`AESL(S0 ^ S1) ^ x` and the `S3` and `S13`
//! XORs). Read as a memory operand each time, the sixteen state words keep the sixteen
//! registers, `S0 ^ S1` is formed in `S0`'s register (the old `S0` is not read again), `t`
//! replaces it there and is the round key of `AESL(S13)`, whose result is the new `S0`:
//! nothing is spilled. The compiled `Init` and `Finalize` of these lane types move state words
//! through the stack, and the speed of the one-shot MAC built from them changed with code far
//! from the kernel (two builds of one benchmark, the same kernel: hiae's PERFORMANCE.md).
//!
//! The inputs are written to memory with vector stores of the size they are read with, so
//! that the loads take them from the store buffer: a block assembled from two 8-byte stores
//! (what LLVM made of a lengths block) cannot be forwarded to a 16-byte load, which then
//! waits for the stores to reach the cache.

use core::arch::asm;

use super::{Xmm, Ymm};

/// The input block of update `k` of `Diffuse`: `x0` at `[x]` for even `k`, `x1` a value
/// further for odd `k`.
macro_rules! x_at {
    (0) => {
        "[{x}]"
    };
    (1) => {
        "[{x} + {blk}]"
    };
}

/// One update of `Diffuse` with `S0`, `S1`, `S13` in these operands and input `x_at!($x)`;
/// `s3 $s3`: with its `S3` XOR (into `$s3`); `s13 keep`: with its `S13` XOR, `s13` alone:
/// without it.
#[rustfmt::skip]
macro_rules! dupd {
    ($s0:ident $s1:ident $s13:ident, $x:tt $(, s3 $s3:ident)? $(, s13 $($keep:ident)?)?) => {
        concat!(
            "vpxor {", stringify!($s0), "}, {", stringify!($s0), "}, {", stringify!($s1), "}\n",
            "vaesenc {", stringify!($s0), "}, {", stringify!($s0), "}, ", x_at!($x), "\n",
            "vaesenc {", stringify!($s0), "}, {", stringify!($s13), "}, {", stringify!($s0), "}\n",
            $("vpxor {", stringify!($s3), "}, {", stringify!($s3), "}, ", x_at!($x), "\n",)?
            $($(dupd!(@ $keep $s13 $x),)?)?
        )
    };
    (@ keep $s13:ident $x:tt) => {
        concat!("vpxor {", stringify!($s13), "}, {", stringify!($s13), "}, ", x_at!($x), "\n")
    };
}

/// The 32 updates of `Diffuse(x0, x1)` at rotation offsets 0 to 15, twice, word `k` in
/// operand `sk`. Of the `S3` and `S13` XORs only those that do not cancel: update `k`
/// XORs its input into the word at position 13, and update `k + 10` XORs the same input (the
/// same parity) into that word at position 3, with no read in between; kept are the `S3`
/// XORs of updates 0–9 and, with `keep`, the `S13` XORs of updates 22–31 (without, the block
/// sum is unchanged and the state is for that sum only).
#[rustfmt::skip]
macro_rules! diffuse_text {
    ($($keep:ident)?) => {
        concat!(
            dupd!(s0 s1 s13, 0, s3 s3),
            dupd!(s1 s2 s14, 1, s3 s4),
            dupd!(s2 s3 s15, 0, s3 s5),
            dupd!(s3 s4 s0, 1, s3 s6),
            dupd!(s4 s5 s1, 0, s3 s7),
            dupd!(s5 s6 s2, 1, s3 s8),
            dupd!(s6 s7 s3, 0, s3 s9),
            dupd!(s7 s8 s4, 1, s3 s10),
            dupd!(s8 s9 s5, 0, s3 s11),
            dupd!(s9 s10 s6, 1, s3 s12),
            dupd!(s10 s11 s7, 0),
            dupd!(s11 s12 s8, 1),
            dupd!(s12 s13 s9, 0),
            dupd!(s13 s14 s10, 1),
            dupd!(s14 s15 s11, 0),
            dupd!(s15 s0 s12, 1),
            dupd!(s0 s1 s13, 0),
            dupd!(s1 s2 s14, 1),
            dupd!(s2 s3 s15, 0),
            dupd!(s3 s4 s0, 1),
            dupd!(s4 s5 s1, 0),
            dupd!(s5 s6 s2, 1),
            dupd!(s6 s7 s3, 0, s13 $($keep)?),
            dupd!(s7 s8 s4, 1, s13 $($keep)?),
            dupd!(s8 s9 s5, 0, s13 $($keep)?),
            dupd!(s9 s10 s6, 1, s13 $($keep)?),
            dupd!(s10 s11 s7, 0, s13 $($keep)?),
            dupd!(s11 s12 s8, 1, s13 $($keep)?),
            dupd!(s12 s13 s9, 0, s13 $($keep)?),
            dupd!(s13 s14 s10, 1, s13 $($keep)?),
            dupd!(s14 s15 s11, 0, s13 $($keep)?),
            dupd!(s15 s0 s12, 1, s13 $($keep)?),
        )
    };
}

/// The XOR of the sixteen words into `s0`, in the order `Diffuse` at offset 0 writes them
/// last (update `16 + k` writes word `k`): each XOR waits for the next word, and the sum is
/// ready one XOR after the last round.
#[rustfmt::skip]
macro_rules! sum_text {
    () => {
        concat!(
            "vpxor {s0}, {s0}, {s1}\n", "vpxor {s0}, {s0}, {s2}\n", "vpxor {s0}, {s0}, {s3}\n",
            "vpxor {s0}, {s0}, {s4}\n", "vpxor {s0}, {s0}, {s5}\n", "vpxor {s0}, {s0}, {s6}\n",
            "vpxor {s0}, {s0}, {s7}\n", "vpxor {s0}, {s0}, {s8}\n", "vpxor {s0}, {s0}, {s9}\n",
            "vpxor {s0}, {s0}, {s10}\n", "vpxor {s0}, {s0}, {s11}\n", "vpxor {s0}, {s0}, {s12}\n",
            "vpxor {s0}, {s0}, {s13}\n", "vpxor {s0}, {s0}, {s14}\n", "vpxor {s0}, {s0}, {s15}\n",
        )
    };
}

/// `asm!` of `$text` with operand `sk` bound to `$s[($off + k) % 16]` (the state taken at
/// rotation offset `$off`), `x` the input pointer, `blk` the value size.
macro_rules! on_state {
    ($text:expr, $class:ident, $s:ident, $off:expr, $x:expr, $blk:literal) => {
        asm!(
            $text,
            s0 = inout($class) $s[$off % 16].0,
            s1 = inout($class) $s[($off + 1) % 16].0,
            s2 = inout($class) $s[($off + 2) % 16].0,
            s3 = inout($class) $s[($off + 3) % 16].0,
            s4 = inout($class) $s[($off + 4) % 16].0,
            s5 = inout($class) $s[($off + 5) % 16].0,
            s6 = inout($class) $s[($off + 6) % 16].0,
            s7 = inout($class) $s[($off + 7) % 16].0,
            s8 = inout($class) $s[($off + 8) % 16].0,
            s9 = inout($class) $s[($off + 9) % 16].0,
            s10 = inout($class) $s[($off + 10) % 16].0,
            s11 = inout($class) $s[($off + 11) % 16].0,
            s12 = inout($class) $s[($off + 12) % 16].0,
            s13 = inout($class) $s[($off + 13) % 16].0,
            s14 = inout($class) $s[($off + 14) % 16].0,
            s15 = inout($class) $s[($off + 15) % 16].0,
            x = in(reg) $x,
            blk = const $blk,
            options(nostack, readonly, preserves_flags),
        )
    };
}

/// The functions of one lane type: `$diffuse`
/// ([`Lanes::hiae_diffuse`](crate::Lanes::hiae_diffuse)), `$diffuse_from`
/// ([`Lanes::hiae_diffuse_from`](crate::Lanes::hiae_diffuse_from)) and `$update`
/// ([`Lanes::hiae_update_from`](crate::Lanes::hiae_update_from)) for `$lane` (generic over
/// `$g`, inferred as `$infer`), one register of class `$class` holding `$blk` bytes, compiled
/// with `$features`.
macro_rules! diffuse_fns {
    (
        $lane:ty, [$($g:tt)*], [$($infer:tt)*], $class:ident, $blk:literal, $features:literal,
        $diffuse:ident, $diffuse_from:ident, $update:ident
    ) => {
        #[doc = concat!("`Lanes::hiae_diffuse` on `", stringify!($class), "` registers.")]
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $features, ".")]
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn $diffuse<const OFF: usize, const FOR_SUM: bool, $($g)*>(
            s: &mut [$lane; 16],
            x0: $lane,
            x1: $lane,
        ) {
            let mut xs = core::mem::MaybeUninit::<[$lane; 2]>::uninit();
            let p = xs.as_mut_ptr().cast::<$lane>();
            // SAFETY: `xs` holds two values of `$blk` bytes, aligned to `$blk` (the lane
            // type's alignment), written here with one store each before the loop reads them;
            // `on_state` reads only `xs` (two values at `x` and `x + blk`) and writes the
            // sixteen state registers. The CPU features: the caller's contract.
            unsafe {
                asm!(
                    "vmovdqa [{p}], {a}", "vmovdqa [{p} + {blk}], {b}",
                    p = in(reg) p,
                    a = in($class) x0.0,
                    b = in($class) x1.0,
                    blk = const $blk,
                    options(nostack, preserves_flags),
                );
                $diffuse_from::<OFF, FOR_SUM, $($infer)*>(s, p.cast());
            }
        }

        #[doc = concat!("`Lanes::hiae_diffuse_from` on `", stringify!($class), "` registers.")]
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $features, "; `x` must point to ", $blk,
            " · 2 readable bytes.")]
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn $diffuse_from<const OFF: usize, const FOR_SUM: bool, $($g)*>(
            s: &mut [$lane; 16],
            x: *const u8,
        ) {
            // SAFETY: the caller's contract: `x` and `x + blk` hold the two inputs, the only
            // memory read; the sixteen registers are the state words.
            unsafe {
                if FOR_SUM {
                    on_state!(concat!(diffuse_text!(), sum_text!()), $class, s, OFF, x, $blk);
                } else {
                    on_state!(diffuse_text!(keep), $class, s, OFF, x, $blk);
                }
            }
        }

        #[doc = concat!("`Lanes::hiae_update_from` on `", stringify!($class), "` registers.")]
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $features, ".")]
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn $update<const I: usize, $($g)*>(s: &mut [$lane; 16], block: &[u8]) {
            let block = &block[..$blk];
            // SAFETY: `block` holds `$blk` readable bytes (checked above), the only memory
            // read (`x`, three times); the four registers are state words. The CPU features:
            // the caller's contract.
            unsafe {
                asm!(
                    "vpxor {s0}, {s0}, {s1}",
                    "vaesenc {s0}, {s0}, [{x}]",
                    "vaesenc {s0}, {s13}, {s0}",
                    "vpxor {s3}, {s3}, [{x}]",
                    "vpxor {s13}, {s13}, [{x}]",
                    s0 = inout($class) s[I % 16].0,
                    s1 = in($class) s[(I + 1) % 16].0,
                    s3 = inout($class) s[(I + 3) % 16].0,
                    s13 = inout($class) s[(I + 13) % 16].0,
                    x = in(reg) block.as_ptr(),
                    options(nostack, readonly, preserves_flags),
                );
            }
        }
    };
}

diffuse_fns!(
    Xmm<VL, VEX>, [const VL: bool, const VEX: bool], [_, _], xmm_reg, 16, "avx,aes",
    diffuse_xmm, diffuse_from_xmm, update_xmm
);
diffuse_fns!(
    Ymm<VL>, [const VL: bool], [_], ymm_reg, 32, "avx2,vaes",
    diffuse_ymm, diffuse_from_ymm, update_ymm
);

/// The trait methods [`Lanes::hiae_diffuse`](crate::Lanes::hiae_diffuse),
/// [`Lanes::hiae_diffuse_from`](crate::Lanes::hiae_diffuse_from) and
/// [`Lanes::hiae_update_from`](crate::Lanes::hiae_update_from) of a lane type whose functions
/// are `$diffuse`, `$diffuse_from` and `$update` (from [`diffuse_fns`]), run where
/// `Self::HIAE_LOOPS`; `$infer`: one `_` per const parameter of the lane type.
macro_rules! diffuse_methods {
    ($diffuse:ident, $diffuse_from:ident, $update:ident, [$($infer:tt)*]) => {
        #[inline(always)]
        fn hiae_diffuse<const OFF: usize, const FOR_SUM: bool>(
            state: &mut [Self; 16],
            x0: Self,
            x1: Self,
        ) -> bool {
            if !Self::HIAE_LOOPS {
                return false;
            }
            // SAFETY: a lane type with `HIAE_LOOPS` is used only by entry points whose CPU
            // check included the features the code is compiled with (AVX and AES-NI for
            // `Xmm<_, true>`, AVX2 and VAES for `Ymm`).
            unsafe { super::diffuse::$diffuse::<OFF, FOR_SUM, $($infer)*>(state, x0, x1) };
            true
        }

        #[inline(always)]
        fn hiae_diffuse_from<const OFF: usize, const FOR_SUM: bool>(
            state: &mut [Self; 16],
            x: &[u8],
        ) -> bool {
            if !Self::HIAE_LOOPS {
                return false;
            }
            let x = &x[..2 * Self::BYTES];
            // SAFETY: as in `hiae_diffuse`; `x` holds the two inputs (checked above).
            unsafe { super::diffuse::$diffuse_from::<OFF, FOR_SUM, $($infer)*>(state, x.as_ptr()) };
            true
        }

        #[inline(always)]
        fn hiae_update_from<const I: usize>(state: &mut [Self; 16], block: &[u8]) -> bool {
            if !Self::HIAE_LOOPS {
                return false;
            }
            // SAFETY: as in `hiae_diffuse`.
            unsafe { super::diffuse::$update::<I, $($infer)*>(state, block) };
            true
        }
    };
}
pub(super) use diffuse_methods;
