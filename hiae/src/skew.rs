//! Lanes rotated to the buffer's register alignment.
//!
//! A wide instance reads and writes one register of `Part::BYTES` bytes (two or four lanes'
//! blocks) per update. Where input and output both start 16 bytes past a multiple of that
//! width (a heap buffer from `malloc` often does), every other 32-byte access crosses a cache
//! line, and on AMD Zen 4 HiAEx4 encryption in place on VAES-AVX2 took 1.5 times as long
//! (PERFORMANCE.md). The lanes are independent HiAE states until finalization, and every
//! update is the same function, so the order in which the loop pairs them is free.
//!
//! [`State::crypt_aligned`] goes over such a buffer with the lanes rotated by `s` blocks:
//! lanes `0 .. s` first take one update alone on their first block, then the loop starts
//! `16 s` bytes into the buffer, where every register holds lanes `s ..` of one block and
//! lanes `.. s` of the next one, all accesses at multiples of the width. After the loop,
//! lanes `s ..` take their last block alone, and the lanes return to their order.
//! [`State::absorb_aligned`] does the same for associated data and MAC input, whose loads
//! alone cross lines there (HiAEx2 MAC of 64 KiB, 4 % slower).

use aead::inout::InOutBuf;
use aes_lanes::Lanes;

use crate::state::State;

/// Shortest message whose lanes are rotated: below, the two lone updates and the state
/// shuffles around the loop cost more than the accesses across lines.
pub(crate) const SKEW_MIN: usize = 8192;

impl<L: Lanes> State<L> {
    /// By how many lanes [`crypt_aligned`](Self::crypt_aligned) and
    /// [`absorb_aligned`](Self::absorb_aligned) rotate the lanes for `len` bytes from `input`
    /// to `output` (the same address for absorbing): where a register holds more than one
    /// lane, both addresses sit at the same odd multiple of 16 bytes past a multiple of the
    /// register width, and `len` is at least [`SKEW_MIN`] bytes; 0 otherwise. (Four lanes in
    /// a 512-bit register 32 bytes past a 64-byte boundary measured as fast as aligned.)
    #[inline(always)]
    fn skew_for(input: *const u8, output: *const u8, len: usize) -> usize {
        let width = <L::Part as Lanes>::BYTES;
        if !Self::UNROLL || width <= 16 || len < SKEW_MIN {
            return 0;
        }
        let (input, output) = (input as usize, output as usize);
        if input % 32 != 16 || input % width != output % width {
            return 0;
        }
        ((width - input % width) % width) / 16
    }

    /// Encrypts (`DEC = false`) or decrypts `buf` (a multiple of [`Self::BLOCK`] bytes) with
    /// [`crypt_blocks`](Self::crypt_blocks), with the lanes rotated where
    /// [`skew_for`](Self::skew_for) says so (see the module documentation). One loop serves
    /// both cases: rotated, it goes over all but the first `s` and the last `LANES - s`
    /// blocks of lanes.
    #[inline(always)]
    pub(crate) fn crypt_aligned<const DEC: bool>(&mut self, mut buf: InOutBuf<'_, '_, u8>) {
        let len = buf.len();
        let s = Self::skew_for(buf.get_in().as_ptr(), buf.get_out().as_ptr(), len);
        let (head, rest) = buf.split_at(16 * s);
        let (body, last) = rest.split_at(if s == 0 { len } else { len - Self::BLOCK });
        if s != 0 {
            // Lanes `0 .. s` one update ahead, then last in the rotated order.
            let mut ahead = *self;
            ahead.crypt_lanes::<DEC>(head);
            *self = Self::shift_lanes(self, &ahead, L::LANES - s);
        }
        self.crypt_blocks::<DEC>(body);
        if s != 0 {
            // The lanes in rotated places `0 .. LANES - s` (lanes `s ..`) take their last
            // block, and all return to their places.
            let before = *self;
            self.crypt_lanes::<DEC>(last);
            *self = Self::shift_lanes(&before, self, s);
        }
    }

    /// [`absorb_run`](Self::absorb_run) with the lanes rotated where
    /// [`skew_for`](Self::skew_for) says so, as [`crypt_aligned`](Self::crypt_aligned).
    /// (The two are written out rather than one method taking the three phases as closures:
    /// the closures were compiled without the backend's target features, and every message
    /// took 60 to 80 times as long. The block copies in `crypt_lanes` are indexed loops for the
    /// same kind of reason: through `chunks_exact` iterators a rotated call took 10 to 40 ns
    /// longer.) The lone updates here are those of a last partial block of associated data
    /// ([`absorb_last`](Self::absorb_last)): the blocks absorbed are the given lanes'
    /// zero-padded, and the other lanes' updates are dropped.
    #[inline(always)]
    pub(crate) fn absorb_aligned<const MAC: bool>(&mut self, data: &[u8]) {
        let len = data.len();
        let s = Self::skew_for(data.as_ptr(), data.as_ptr(), len);
        let (head, rest) = data.split_at(16 * s);
        let (body, last) = rest.split_at(if s == 0 { len } else { len - Self::BLOCK });
        if s != 0 {
            let mut ahead = *self;
            ahead.absorb_last(head, 0, 1);
            *self = Self::shift_lanes(self, &ahead, L::LANES - s);
        }
        self.absorb_run::<MAC>(body);
        if s != 0 {
            let before = *self;
            self.absorb_last(last, 0, 1);
            *self = Self::shift_lanes(&before, self, s);
        }
    }

    /// One encryption or decryption update of every lane on a block whose first
    /// `buf.len() / 16` lanes are `buf`: those lanes' output goes to `buf`, the others' is
    /// dropped. (Not [`crypt_last`](Self::crypt_last), which would compute the same for these
    /// lanes: for four lanes it goes byte by byte, and HiAEx4 encryption of 8 KiB in place on
    /// VAES-AVX2, 16 bytes past, took 224 instead of 191 ns through it, AMD Zen 5.)
    #[inline(always)]
    fn crypt_lanes<const DEC: bool>(&mut self, mut buf: InOutBuf<'_, '_, u8>) {
        let lanes = buf.len() / 16;
        let mut input = [0u8; 16 * aes_lanes::MAX_LANES];
        let mut output = [0u8; 16 * aes_lanes::MAX_LANES];
        // Block by block: fixed-size copies stay inline.
        for l in 0..lanes {
            input[16 * l..16 * l + 16].copy_from_slice(&buf.get_in()[16 * l..16 * l + 16]);
        }
        let block = InOutBuf::new(&input[..Self::BLOCK], &mut output[..Self::BLOCK])
            .expect("equal lengths");
        self.crypt_short::<DEC>(block, 1);
        for l in 0..lanes {
            buf.get_out()[16 * l..16 * l + 16].copy_from_slice(&output[16 * l..16 * l + 16]);
        }
    }
}
