//! HiAE's chunk loops in assembly, for the lane types held in sixteen VEX-encoded registers
//! (`Xmm` on AES-NI with AVX and on VAES-AVX2, `Ymm` on VAES-AVX2): see
//! [`Lanes::HIAE_LOOPS`](crate::Lanes::HIAE_LOOPS).
//!
//! A HiAE update at rotation offset `i` reads the state words `S[i]`, `S[i+1]`, `S[i+9]` and
//! `S[i+13]` and writes `S[i]`, `S[i+3]` and `S[i+13]` (indices mod 16), so a chunk of
//! sixteen updates comes back to offset 0 with every word in the slot it started in, and
//! each word can keep one register. With the message block and `t` that is eighteen
//! values; the compiler's allocation of the unrolled generic loop moves about thirty
//! through the stack per chunk.
//!
//! * Encryption keeps words 1–3, 5–7, 9–11 and 13–15 in their own registers; words 0 and 8
//!   share one, 4 and 12 another. Each of those four goes to a slot of `park` after its
//!   `S13` XOR (three updates after it was written), is read from there as `S9` (a memory
//!   operand of the ciphertext XOR) and comes back to its register with its `S3` XOR (ten
//!   updates later). Four stores per chunk; the message block and `t` get the two
//!   registers left. Between chunks words 4, 8 and 12 are in `park`.
//! * Absorption needs no `t` register: `S0 ^ S1` is formed in `S0`'s register (the old `S0`
//!   is not read again), `t` replaces it there and is the round key of `AESL(S13)`, whose
//!   result is the new `S0`. The message block is a memory operand of its three uses, so
//!   the sixteen words fill the sixteen registers and nothing is stored: 48 vector loads
//!   per chunk, 24 cycles at two per cycle (AMD Zen 3 and 4; the Zen 5 measured in hiae's
//!   PERFORMANCE.md too). From [`PARKED_ABSORB_CHUNKS`] chunks on, one part is absorbed
//!   with word 0 in memory from update 3 to update 13 and its register holding the
//!   message block of updates 4 to 13: one store and 28 loads per chunk.
//!
//! Against the compiled loops (AMD Zen 5 running these 16-register forms, 64 KiB, one
//! process, alternating; hiae's PERFORMANCE.md): HiAE encryption 10 % and absorption 10–12 %
//! faster, HiAEx2 13 % and 12 %.

use core::arch::asm;
use inout::InOutBuf;

use super::{Xmm, Ymm};

/// Operand text: a register operand by its name, or slot `k` of `park`.
macro_rules! w {
    ([$k:literal]) => {
        concat!("[{park} + ", $k, " * {blk}]")
    };
    ($r:ident) => {
        concat!("{", stringify!($r), "}")
    };
}

/// One `UpdateEnc` of block `$i`: the operands holding `S0`, `S1` and `S13`; `S3 ^= m` as
/// `$s3 = m ^ $s3_src` (from its register, or back from a `park` slot); `S9`, the ciphertext
/// XOR's operand; `park k`: `S13` goes to slot `k` after its XOR. The `S3` XOR comes first,
/// as soon as the block is loaded: its word is read by the `S0 ^ S1` of the update after
/// next, and none of this update's operands is that word. Per chunk, `llvm-mca
/// -mcpu=znver3` 25.6 cycles with it last, 25.1 so; AMD Zen 5 measured 1–2 % faster (hiae's
/// PERFORMANCE.md).
macro_rules! enc_update {
    ($s0:ident $s1:ident $s13:ident, $s3:ident = $s3_src:tt, $s9:tt $(, park $p:literal)?) => {
        concat!(
            "vpxor ", w!($s3), ", {m}, ", w!($s3_src), "\n",
            "vpxor {t}, ", w!($s0), ", ", w!($s1), "\n",
            "vaesenc {t}, {t}, {m}\n",
            "vaesenc ", w!($s0), ", ", w!($s13), ", {t}\n",
            "vpxor ", w!($s13), ", ", w!($s13), ", {m}\n",
            $("vmovdqa ", w!([$p]), ", ", w!($s13), "\n",)?
            "vpxor {t}, {t}, ", w!($s9), "\n",
        )
    };
}

/// The load of message block `$i` into `m`.
macro_rules! load {
    ($i:literal) => {
        concat!("vmovdqu {m}, [{src} + ", $i, " * {stride}]\n")
    };
}

/// The store of ciphertext block `$i` from `t`.
macro_rules! store {
    ($i:literal) => {
        concat!("vmovdqu [{dst} + ", $i, " * {stride}], {t}\n")
    };
}

/// [`store`] as two 16-byte halves, for the blocks of a `ymm` output 16 bytes past a 32-byte
/// boundary that would cross a cache line (every other one, [`HALVES_CHUNKS`]).
#[rustfmt::skip]
macro_rules! store_halves {
    ($i:literal) => {
        concat!(
            "vmovdqu [{dst} + ", $i, " * {stride}], {t:x}\n",
            "vextracti128 [{dst} + ", $i, " * {stride} + 16], {t}, 1\n",
        )
    };
}

/// One encryption chunk, the ciphertext of even blocks stored with `$ste`, of odd blocks
/// with `$sto` ([`store`], [`store_halves`]); each block's store comes after the next block's
/// load, so that a store 16 bytes before that load in the 4 KiB address space (output 16
/// bytes past the input's alignment) does not hold it up. Words 0 and 8 in `s0_8`, 4 and 12
/// in `s4_12` or `park` slots 0–3 (for words 0, 4, 8, 12), as the module documentation
/// describes.
macro_rules! enc_chunk {
    ($ste:ident $sto:ident) => {
        concat!(
            load!(0),
            enc_update!(s0_8 s1 s13, s3 = s3, s9),
            load!(1),
            $ste!(0),
            enc_update!(s1 s2 s14, s4_12 = [1], s10),
            load!(2),
            $sto!(1),
            enc_update!(s2 s3 s15, s5 = s5, s11),
            load!(3),
            $ste!(2),
            enc_update!(s3 s4_12 s0_8, s6 = s6, [3], park 0),
            load!(4),
            $sto!(3),
            enc_update!(s4_12 s5 s1, s7 = s7, s13),
            load!(5),
            $ste!(4),
            enc_update!(s5 s6 s2, s0_8 = [2], s14),
            load!(6),
            $sto!(5),
            enc_update!(s6 s7 s3, s9 = s9, s15),
            load!(7),
            $ste!(6),
            enc_update!(s7 s0_8 s4_12, s10 = s10, [0], park 1),
            load!(8),
            $sto!(7),
            enc_update!(s0_8 s9 s5, s11 = s11, s1),
            load!(9),
            $ste!(8),
            enc_update!(s9 s10 s6, s4_12 = [3], s2),
            load!(10),
            $sto!(9),
            enc_update!(s10 s11 s7, s13 = s13, s3),
            load!(11),
            $ste!(10),
            enc_update!(s11 s4_12 s0_8, s14 = s14, [1], park 2),
            load!(12),
            $sto!(11),
            enc_update!(s4_12 s13 s9, s15 = s15, s5),
            load!(13),
            $ste!(12),
            enc_update!(s13 s14 s10, s0_8 = [0], s6),
            load!(14),
            $sto!(13),
            enc_update!(s14 s15 s11, s1 = s1, s7),
            load!(15),
            $ste!(14),
            enc_update!(s15 s0_8 s4_12, s2 = s2, [2], park 3),
            $sto!(15),
        )
    };
}

/// Message block `$i` XORed into the operand `$x` (a memory operand): the `S3` and `S13`
/// XORs of the absorption updates.
#[rustfmt::skip]
macro_rules! xor_block {
    ($i:literal: $x:ident) => {
        concat!("vpxor ", w!($x), ", ", w!($x), ", [{src} + ", $i, " * {stride}]\n")
    };
}

/// The flagged parts of `absorb_update`, `before` the first round and `after` the second:
/// `park` stores the new `S0` (word 0) in `park`; `defer` leaves out the `S13` XOR (word
/// 0's, applied in update 13); `unpark` XORs word 0's value from `park` into `S0 ^ S1`.
macro_rules! absorb_flag {
    (unpark before $s0:ident) => {
        concat!("vpxor ", w!($s0), ", ", w!($s0), ", [{park}]\n")
    };
    ($(park)? $(defer)? before $s0:ident) => { "" };
    ($(unpark)? after $i:literal $s0:ident $s13:ident) => { xor_block!($i: $s13) };
    (park after $i:literal $s0:ident $s13:ident) => {
        concat!(
            "vmovdqa [{park}], ", w!($s0), "\n",
            absorb_flag!(after $i $s0 $s13),
        )
    };
    (defer after $i:literal $s0:ident $s13:ident) => { "" };
}

/// One `Update` of block `$i` with `S0`, `S1`, `S13` and (if given) `S3` in these operands,
/// the message block a memory operand of its uses; `$flag` as in [`absorb_flag`]. Without
/// `$s3` the update leaves out its `S3` XOR, which the caller places ([`xor_block`]).
#[rustfmt::skip]
macro_rules! absorb_update {
    ($i:literal: $s0:ident $s1:ident $s13:ident $($s3:ident)? $(, $flag:ident)?) => {
        concat!(
            "vpxor ", w!($s0), ", ", w!($s0), ", ", w!($s1), "\n",
            absorb_flag!($($flag)? before $s0),
            "vaesenc ", w!($s0), ", ", w!($s0), ", [{src} + ", $i, " * {stride}]\n",
            "vaesenc ", w!($s0), ", ", w!($s13), ", ", w!($s0), "\n",
            absorb_flag!($($flag)? after $i $s0 $s13),
            $(xor_block!($i: $s3),)?
        )
    };
}

/// One `Update` of block `$i` with the block loaded into `s0`'s register, free while word 0
/// is parked; `restore`: `S3` is word 0, whose register gets the XOR of this block and
/// block 3 (the `S13` XOR that update 3 deferred), and word 0's value from `park` later.
#[rustfmt::skip]
macro_rules! absorb_update_m {
    ($i:literal: $s0:ident $s1:ident $s13:ident restore) => {
        concat!(
            absorb_update_m!($i: $s0 $s1 $s13),
            xor_block!(3: s0),
        )
    };
    ($i:literal: $s0:ident $s1:ident $s13:ident $s3:ident) => {
        concat!(
            absorb_update_m!($i: $s0 $s1 $s13),
            "vpxor ", w!($s3), ", ", w!($s3), ", {s0}\n",
        )
    };
    ($i:literal: $s0:ident $s1:ident $s13:ident) => {
        concat!(
            "vmovdqu {s0}, [{src} + ", $i, " * {stride}]\n",
            "vpxor ", w!($s0), ", ", w!($s0), ", ", w!($s1), "\n",
            "vaesenc ", w!($s0), ", ", w!($s0), ", {s0}\n",
            "vaesenc ", w!($s0), ", ", w!($s13), ", ", w!($s0), "\n",
            "vpxor ", w!($s13), ", ", w!($s13), ", {s0}\n",
        )
    };
}

/// One absorption chunk, word `k` in operand `sk`, every message block a memory operand of
/// its three uses: nothing is stored. Each update's `S3` XOR comes three updates early (the
/// chunk opens with those of updates 0–2, update `i` follows that of update `i + 3`): the
/// word it changes is next read by the `S0 ^ S1` of the update after next, and issued
/// early it no longer competes with the rounds for the pipes at the moment they become
/// ready. No update in between reads or writes that word (`S3` of update `i + 3` is word
/// `i + 6`; updates `i` to `i + 2` touch words `i` to `i + 5` and `i + 13` to `i + 15`).
/// `llvm-mca -mcpu=znver3` per chunk: 27.0 cycles in update order, 24.1 so (the bound of
/// its 48 loads); AMD Zen 5 runs both in 23.6–24 (hiae's PERFORMANCE.md).
#[rustfmt::skip]
macro_rules! absorb_chunk {
    () => {
        concat!(
            xor_block!(0: s3), xor_block!(1: s4), xor_block!(2: s5),
            xor_block!(3: s6), absorb_update!(0: s0 s1 s13),
            xor_block!(4: s7), absorb_update!(1: s1 s2 s14),
            xor_block!(5: s8), absorb_update!(2: s2 s3 s15),
            xor_block!(6: s9), absorb_update!(3: s3 s4 s0),
            xor_block!(7: s10), absorb_update!(4: s4 s5 s1),
            xor_block!(8: s11), absorb_update!(5: s5 s6 s2),
            xor_block!(9: s12), absorb_update!(6: s6 s7 s3),
            xor_block!(10: s13), absorb_update!(7: s7 s8 s4),
            xor_block!(11: s14), absorb_update!(8: s8 s9 s5),
            xor_block!(12: s15), absorb_update!(9: s9 s10 s6),
            xor_block!(13: s0), absorb_update!(10: s10 s11 s7),
            xor_block!(14: s1), absorb_update!(11: s11 s12 s8),
            xor_block!(15: s2), absorb_update!(12: s12 s13 s9),
            absorb_update!(13: s13 s14 s10),
            absorb_update!(14: s14 s15 s11),
            absorb_update!(15: s15 s0 s12),
        )
    };
}

/// [`absorb_chunk`] with fewer loads, for long inputs. Word 0 is written by update 0 and read
/// by update 3 (as `S13`), then not before update 15 (as `S1`): it waits in `park`, stored
/// as written, and its register holds the message block of updates 4 to 13, each loaded
/// once instead of once per use. Update 13 puts the XOR of its two blocks in the register;
/// word 0's own value comes from `park` last, into `S0 ^ S1` of update 15 and into the
/// register after it, so that the store-to-load latency is not followed by more XORs on
/// the way to the next rounds.
macro_rules! absorb_chunk_parked {
    () => {
        concat!(
            absorb_update!(0: s0 s1 s13 s3, park),
            absorb_update!(1: s1 s2 s14 s4),
            absorb_update!(2: s2 s3 s15 s5),
            absorb_update!(3: s3 s4 s0 s6, defer),
            absorb_update_m!(4: s4 s5 s1 s7),
            absorb_update_m!(5: s5 s6 s2 s8),
            absorb_update_m!(6: s6 s7 s3 s9),
            absorb_update_m!(7: s7 s8 s4 s10),
            absorb_update_m!(8: s8 s9 s5 s11),
            absorb_update_m!(9: s9 s10 s6 s12),
            absorb_update_m!(10: s10 s11 s7 s13),
            absorb_update_m!(11: s11 s12 s8 s14),
            absorb_update_m!(12: s12 s13 s9 s15),
            absorb_update_m!(13: s13 s14 s10 restore),
            absorb_update!(14: s14 s15 s11 s1),
            absorb_update!(15: s15 s0 s12 s2, unpark),
            "vpxor {s0}, {s0}, [{park}]\n",
        )
    };
}

/// The text of one encryption loop: [`enc_chunk`] with stores `$ste` for even blocks and
/// `$sto` for odd ones. No software prefetch: on AMD Zen 3, where the two-lane `ymm` loop is
/// the default, prefetching each chunk's lines a kilobyte ahead made HiAEx2 encryption of
/// 16 KiB to 256 KiB 1–10 % slower (hiae's PERFORMANCE.md), and on Zen 4 beyond its L2 cache
/// a fifth slower.
macro_rules! enc_body {
    ($ste:ident $sto:ident) => {
        concat!(
            ".p2align 5\n",
            "2:\n",
            enc_chunk!($ste $sto),
            "add {src}, 16 * {stride}\n",
            "add {dst}, 16 * {stride}\n",
            "dec {n}\n",
            "jnz 2b\n",
        )
    };
}

/// The encryption loop over `$n > 0` chunks, state `$s` (words 4, 8, 12 in `$park` slots
/// 1–3), operands of register class `$class`, blocks `$stride` bytes apart: stores
/// `[$ste $sto]` as in [`enc_body`], or with `select $kind =>` one of three such loops in the
/// same `asm!`, the first for `$kind` 0, the second for 1, the third for 2. One `asm!` for
/// the three and not one each: LLVM weighs each `asm!` by its operands when it decides on
/// inlining, and three of them came within a few percent of its threshold for the loop
/// function.
macro_rules! enc_loop {
    ($class:ident, [$ste:ident $sto:ident], $s:ident, $park:expr, $src:expr, $dst:expr, $n:expr, $stride:expr, $blk:literal) => {
        enc_loop!(@ $class, $s, $park, $src, $dst, $n, $stride, $blk, [enc_body!($ste $sto),], [])
    };
    (
        $class:ident, select $kind:expr => [$a0:ident $b0:ident] [$a1:ident $b1:ident] [$a2:ident $b2:ident],
        $s:ident, $park:expr, $src:expr, $dst:expr, $n:expr, $stride:expr, $blk:literal
    ) => {
        enc_loop!(
            @ $class, $s, $park, $src, $dst, $n, $stride, $blk,
            [
                "cmp {kind}, 1",
                "jb 4f",
                "je 5f",
                enc_body!($a2 $b2),
                "jmp 6f",
                "4:",
                enc_body!($a0 $b0),
                "jmp 6f",
                "5:",
                enc_body!($a1 $b1),
                "6:",
            ],
            [kind = in(reg) $kind,]
        )
    };
    (
        @ $class:ident, $s:ident, $park:expr, $src:expr, $dst:expr, $n:expr, $stride:expr,
        $blk:literal, [$($text:tt)*], [$($extra:tt)*]
    ) => {
        asm!(
            $($text)*
            s0_8 = inout($class) $s[0].0,
            s4_12 = out($class) _,
            s1 = inout($class) $s[1].0,
            s2 = inout($class) $s[2].0,
            s3 = inout($class) $s[3].0,
            s5 = inout($class) $s[5].0,
            s6 = inout($class) $s[6].0,
            s7 = inout($class) $s[7].0,
            s9 = inout($class) $s[9].0,
            s10 = inout($class) $s[10].0,
            s11 = inout($class) $s[11].0,
            s13 = inout($class) $s[13].0,
            s14 = inout($class) $s[14].0,
            s15 = inout($class) $s[15].0,
            m = out($class) _,
            t = out($class) _,
            park = in(reg) $park,
            src = inout(reg) $src => _,
            dst = inout(reg) $dst => _,
            n = inout(reg) $n => _,
            $($extra)*
            stride = const $stride,
            blk = const $blk,
            options(nostack),
        )
    };
}

/// The absorption loop over `$n > 0` chunks (see [`enc_loop`]): [`absorb_chunk`], or with
/// `park` (one slot) [`absorb_chunk_parked`].
macro_rules! absorb_loop {
    ($class:ident, $s:ident, $src:expr, $n:expr, $stride:expr) => {
        absorb_loop!(@ absorb_chunk, $class, $s, $src, $n, $stride, [], [nostack, readonly])
    };
    ($class:ident, $s:ident, $src:expr, $n:expr, $stride:expr, park $park:expr) => {
        absorb_loop!(
            @ absorb_chunk_parked, $class, $s, $src, $n, $stride, [park = in(reg) $park,],
            [nostack]
        )
    };
    (
        @ $chunk:ident, $class:ident, $s:ident, $src:expr, $n:expr, $stride:expr,
        [$($park:tt)*], [$($option:ident),*]
    ) => {
        asm!(
            ".p2align 5",
            "2:",
            $chunk!(),
            "add {src}, 16 * {stride}",
            "dec {n}",
            "jnz 2b",
            s0 = inout($class) $s[0].0,
            s1 = inout($class) $s[1].0,
            s2 = inout($class) $s[2].0,
            s3 = inout($class) $s[3].0,
            s4 = inout($class) $s[4].0,
            s5 = inout($class) $s[5].0,
            s6 = inout($class) $s[6].0,
            s7 = inout($class) $s[7].0,
            s8 = inout($class) $s[8].0,
            s9 = inout($class) $s[9].0,
            s10 = inout($class) $s[10].0,
            s11 = inout($class) $s[11].0,
            s12 = inout($class) $s[12].0,
            s13 = inout($class) $s[13].0,
            s14 = inout($class) $s[14].0,
            s15 = inout($class) $s[15].0,
            $($park)*
            src = inout(reg) $src => _,
            n = inout(reg) $n => _,
            stride = const $stride,
            options($($option),*),
        )
    };
}

/// The number of chunks from which one part is absorbed by [`absorb_chunk_parked`]: 28
/// vector loads per chunk instead of 48. Beyond the L2 cache that keeps more lines in
/// flight (HiAEx2 MAC on AMD Zen 5, 1–2 MB: libhiae's time / ours 1.09 → 1.12); on inputs
/// of 1–8 KiB it was 1–3 % slower there, from 64 KiB to 256 KiB level.
const PARKED_ABSORB_CHUNKS: usize = 256;

/// The number of chunks from which a `ymm` output 16 bytes past a 32-byte boundary has the
/// blocks that would cross a cache line (those at 48 bytes past a 64-byte boundary) stored
/// in 16-byte halves ([`store_halves`]), the others whole: 24 stores per chunk, none across
/// a line, where every block in halves took 32. Below 16 chunks the stores across lines cost
/// less than the longer loop body. HiAEx2 encryption there on AMD Zen 5 against every
/// block whole below 64 chunks and in halves from there, libhiae's time / ours: 16 KiB
/// 1.07–1.10 → 1.14–1.18, 64 KiB 1.10–1.14 → 1.17–1.21 (hiae's PERFORMANCE.md; `llvm-mca
/// -mcpu=znver3` 30.1 cycles per chunk against 38.1 with every block in halves).
const HALVES_CHUNKS: usize = 16;

/// Which stores the one-part `ymm` encryption loop over `n` chunks into `dst` takes: 0 every
/// block whole, 1 odd blocks in halves (`dst` 16 bytes past a 64-byte boundary), 2 even
/// blocks in halves (48 bytes past), the latter two from [`HALVES_CHUNKS`] chunks on.
#[inline(always)]
fn halves_kind(n: usize, dst: *mut u8) -> usize {
    match (dst as usize) % 64 {
        16 if n >= HALVES_CHUNKS => 1,
        48 if n >= HALVES_CHUNKS => 2,
        _ => 0,
    }
}

/// The number of chunks in `len` bytes of `parts`-value blocks of `blk`-byte values.
///
/// # Panics
/// If `len` is not a whole number of chunks, `part >= parts` or `parts` is not 1, 2 or 4.
#[inline(always)]
fn chunks(len: usize, blk: usize, part: usize, parts: usize) -> usize {
    if !(matches!(parts, 1 | 2 | 4) && part < parts && len.is_multiple_of(16 * parts * blk)) {
        not_chunks(len, blk, part, parts);
    }
    len / (16 * parts * blk)
}

/// The panic of [`chunks`], out of line: its message formatting would otherwise be part of
/// every loop function, which must stay small enough to be inlined into the entry points.
#[cold]
#[inline(never)]
fn not_chunks(len: usize, blk: usize, part: usize, parts: usize) -> ! {
    panic!(
        "part {part} of {parts} over {len} bytes of {blk}-byte values: parts must be 1, 2 or 4, \
         the length whole chunks"
    )
}

/// The two loop functions of one lane type: `$enc`
/// ([`Lanes::hiae_encrypt_chunks`](crate::Lanes::hiae_encrypt_chunks)) and `$absorb`
/// ([`Lanes::hiae_absorb_chunks`](crate::Lanes::hiae_absorb_chunks)) for `$lane` (generic
/// over `$g`), whose value is one register of class `$class` holding `$blk` bytes, compiled
/// with `$features`; `$halves` (if given) stores the blocks of outputs 16 bytes past a
/// `$blk`-byte boundary that would cross a cache line ([`HALVES_CHUNKS`]).
macro_rules! loops {
    (@one $class:ident, $s:ident, $park:ident, $src:ident, $dst:ident, $n:ident, $blk:literal) => {
        enc_loop!($class, [store store], $s, $park, $src, $dst, $n, $blk, $blk)
    };
    (@one $class:ident, $s:ident, $park:ident, $src:ident, $dst:ident, $n:ident, $blk:literal, $halves:ident) => {
        enc_loop!(
            $class, select halves_kind($n, $dst) => [store store] [store $halves] [$halves store],
            $s, $park, $src, $dst, $n, $blk, $blk
        )
    };
    (
        $lane:ty, [$($g:tt)*], $class:ident, $blk:literal, $features:literal,
        $enc:ident, $absorb:ident $(, $halves:ident)?
    ) => {
        #[doc = concat!("`Lanes::hiae_encrypt_chunks` on `", stringify!($class), "` registers.")]
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $features, ".")]
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn $enc<$($g)*>(
            s: &mut [$lane; 16],
            buf: InOutBuf<'_, '_, u8>,
            part: usize,
            parts: usize,
        ) {
            let n = chunks(buf.len(), $blk, part, parts);
            if n == 0 {
                return;
            }
            let (src, dst) = buf.into_raw();
            // Slot 0 is only written in the loop; its initial value is not read.
            let mut park = [s[0].0, s[4].0, s[8].0, s[12].0];
            // SAFETY: `chunks` checked that `n` chunks of `16 · parts` blocks of `$blk` bytes
            // are `buf`'s length, so the loop reads and writes block `i` of part `part` of
            // each chunk, at `$blk (i · parts + part)` bytes into the chunk, inside both sides
            // of `buf`; the sides are the same memory or disjoint (`InOutBuf`), each block is
            // read before its ciphertext is written. `park` holds four slots aligned to `$blk`
            // bytes. The CPU features: the caller's contract. No stack use (no `push`/`call`),
            // the flags are clobbered (allowed).
            unsafe {
                let (src, dst) = (src.add($blk * part), dst.add($blk * part));
                let park = park.as_mut_ptr();
                match parts {
                    1 => loops!(@one $class, s, park, src, dst, n, $blk $(, $halves)?),
                    2 => enc_loop!($class, [store store], s, park, src, dst, n, 2 * $blk, $blk),
                    _ => enc_loop!($class, [store store], s, park, src, dst, n, 4 * $blk, $blk),
                }
            }
            s[4].0 = park[1];
            s[8].0 = park[2];
            s[12].0 = park[3];
        }

        #[doc = concat!("`Lanes::hiae_absorb_chunks` on `", stringify!($class), "` registers.")]
        ///
        /// # Safety
        #[doc = concat!("The CPU must support ", $features, ".")]
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn $absorb<$($g)*>(
            s: &mut [$lane; 16],
            data: &[u8],
            part: usize,
            parts: usize,
        ) {
            let n = chunks(data.len(), $blk, part, parts);
            if n == 0 {
                return;
            }
            // Written by the loop before it is read.
            let mut park = core::mem::MaybeUninit::<[$lane; 1]>::uninit();
            // SAFETY: `chunks` checked that `n` chunks are `data`'s length: every block read
            // (block `i` of part `part`, `$blk (i · parts + part)` bytes into a chunk) is
            // inside `data`; the only memory written is `park`, one slot aligned to `$blk`
            // bytes, by the parked form. The CPU features: the caller's contract.
            unsafe {
                let src = data.as_ptr().add($blk * part);
                let park = park.as_mut_ptr().cast::<$lane>();
                match parts {
                    1 if n >= PARKED_ABSORB_CHUNKS => {
                        absorb_loop!($class, s, src, n, $blk, park park)
                    }
                    1 => absorb_loop!($class, s, src, n, $blk),
                    2 => absorb_loop!($class, s, src, n, 2 * $blk),
                    _ => absorb_loop!($class, s, src, n, 4 * $blk),
                }
            }
        }
    };
}

loops!(
    Xmm<VL, VEX>, [const VL: bool, const VEX: bool], xmm_reg, 16, "avx,aes",
    encrypt_xmm, absorb_xmm
);
loops!(
    Ymm<VL>, [const VL: bool], ymm_reg, 32, "avx2,vaes",
    encrypt_ymm, absorb_ymm, store_halves
);

/// The trait methods [`Lanes::hiae_encrypt_chunks`](crate::Lanes::hiae_encrypt_chunks) and
/// [`Lanes::hiae_absorb_chunks`](crate::Lanes::hiae_absorb_chunks) of a lane type whose
/// loops are `$enc` and `$absorb` (from [`loops`]), run where `Self::HIAE_LOOPS`.
macro_rules! hiae_methods {
    ($enc:ident, $absorb:ident) => {
        #[inline(always)]
        fn hiae_encrypt_chunks(
            state: &mut [Self; 16],
            buf: inout::InOutBuf<'_, '_, u8>,
            part: usize,
            parts: usize,
        ) -> bool {
            if !Self::HIAE_LOOPS {
                return false;
            }
            // SAFETY: a lane type with `HIAE_LOOPS` is used only by entry points whose CPU
            // check included the features the loop is compiled with (AVX and AES-NI for
            // `Xmm<_, true>`, AVX2 and VAES for `Ymm`).
            unsafe { super::hiae::$enc(state, buf, part, parts) };
            true
        }

        #[inline(always)]
        fn hiae_absorb_chunks(
            state: &mut [Self; 16],
            data: &[u8],
            part: usize,
            parts: usize,
        ) -> bool {
            if !Self::HIAE_LOOPS {
                return false;
            }
            // SAFETY: as in `hiae_encrypt_chunks`.
            unsafe { super::hiae::$absorb(state, data, part, parts) };
            true
        }
    };
}
pub(super) use {hiae_methods, store_halves};
