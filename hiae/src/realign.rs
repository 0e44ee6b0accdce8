//! Output stores realigned to the register width.
//!
//! The encryption loop stores one register (`Lanes::BYTES` bytes) per update. Where the
//! output address is a multiple of 16 but not of the register's width, every other 32-byte
//! store crosses a cache line, and on AMD Zen 4 the loop's loads wait behind such stores:
//! HiAEx2 encryption of 64 KiB on VAES-AVX2 ran at 276 instead of 419 Gbps (PERFORMANCE.md).
//! Lane types say whether they realign ([`Lanes::REALIGN_STORES`]). [`Realign`] writes the same bytes with stores at multiples of the
//! width instead: from the second chunk on, each store takes the last blocks of the previous
//! register and the first blocks of the current one ([`Lanes::shift_blocks`]); the first
//! chunk is stored as it is, and the last blocks of the final register after the loop.

use aes_lanes::Lanes;

/// Writes a loop's output registers, from the second chunk on `shift` blocks (16 bytes each)
/// before their place and shifted across register boundaries, so that the stores land on
/// multiples of the width.
pub(crate) struct Realign<L: Lanes> {
    /// Blocks by which the output address exceeds a multiple of the width (`0 < shift <
    /// LANES`).
    shift: usize,
    /// The register stored last.
    prev: L,
}

impl<L: Lanes> Realign<L> {
    /// A writer for an output `shift` blocks past a multiple of the register width.
    #[inline(always)]
    pub(crate) fn new(shift: usize) -> Self {
        debug_assert!(shift > 0 && shift < L::LANES);
        Realign {
            shift,
            prev: L::zero(),
        }
    }

    /// Where the output window of the chunk at byte `pos` starts: `pos` for the first chunk
    /// (`FIRST`), `shift` blocks earlier for the others.
    #[inline(always)]
    pub(crate) fn window<const FIRST: bool>(&self, pos: usize) -> usize {
        if FIRST { pos } else { pos - 16 * self.shift }
    }

    /// Writes `x`, the output register at byte `at` of a chunk, into that chunk's output
    /// window `w` (from [`window`](Self::window)): in the first chunk (`FIRST`) as it is,
    /// later the last `shift` blocks of the previous register and the first blocks of `x`
    /// (the last `shift` blocks of `x` follow with the next register or
    /// [`finish`](Self::finish)).
    #[inline(always)]
    pub(crate) fn put<const FIRST: bool>(&mut self, w: &mut [u8], at: usize, x: L) {
        if FIRST {
            x.store(&mut w[at..]);
        } else {
            L::shift_blocks(self.prev, x, self.shift).store(&mut w[at..]);
        }
        self.prev = x;
    }

    /// Writes what is left of the last register after `end` bytes (0: nothing was written).
    #[inline(always)]
    pub(crate) fn finish(self, out: &mut [u8], end: usize) {
        if end > 0 {
            self.prev.store(&mut out[end - L::BYTES..]);
        }
    }
}
