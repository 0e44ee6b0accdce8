//! Portable, constant-time lanes: bitsliced AES on eight 64-bit bit planes.
//!
//! A [`Soft<N>`] value keeps its `16 N` bytes in *bitsliced* form: plane `p` holds bit `p` of
//! every byte, byte `j` at bit position `j` (`j = 16 lane + 4 column + row`). XOR and AND act
//! on planes directly, so only [`load`](Lanes::load), [`store`](Lanes::store) and
//! [`broadcast`](Lanes::broadcast) pay for the (un)transposition; an AES round works on the
//! planes:
//!
//! * SubBytes: the Boyar–Peralta circuit (113 XOR/AND/XNOR gates) on all 64 bytes at once;
//! * ShiftRows: a rotation of each row's bits inside every 16-bit group;
//! * MixColumns: rotations inside every 4-bit group, and `xtime` as a shift of planes.
//!
//! Everything is straight-line bitwise arithmetic: no table, no branch, no memory access that
//! depends on data. One round costs the same for 1, 2 or 4 lanes.

use crate::lanes::{Lanes, MAX_LANES, SLICED_ROT_WORD};

/// Portable constant-time implementation of [`Lanes`] with `N` lanes (`N` = 1, 2 or 4).
///
/// ```
/// use aes_lanes::{Lanes, Soft};
/// let a = <Soft<2>>::broadcast(&[7; 16]);
/// let mut out = [0u8; 32];
/// a.xor(a).store(&mut out);
/// assert_eq!(out, [0; 32]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Soft<const N: usize> {
    planes: [u64; 8],
}

impl<const N: usize> core::fmt::Debug for Soft<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Lane contents may be secret: print the shape only.
        f.debug_struct("Soft")
            .field("lanes", &N)
            .finish_non_exhaustive()
    }
}

/// Swaps the bit groups `x & mask` and `(x >> shift) & mask` between two words.
#[inline(always)]
fn swap_move(a: &mut u64, b: &mut u64, mask: u64, shift: u32) {
    let t = ((*a >> shift) ^ *b) & mask;
    *b ^= t;
    *a ^= t << shift;
}

/// Transposes the 8×8 bit matrix held in each byte-row of `x` (bit `8r + c` ↔ bit `8c + r`).
#[inline(always)]
fn transpose_bits_in_word(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^= t ^ (t << 28);
    x
}

/// Transposes the 8×8 byte matrix `w[i]` byte `j` ↔ `w[j]` byte `i`.
#[inline(always)]
fn transpose_bytes_across_words(w: &mut [u64; 8]) {
    let [w0, w1, w2, w3, w4, w5, w6, w7] = w;
    for (a, b) in [(&mut *w0, &mut *w1), (w2, w3), (w4, w5), (w6, w7)] {
        swap_move(a, b, 0x00FF_00FF_00FF_00FF, 8);
    }
    let [w0, w1, w2, w3, w4, w5, w6, w7] = w;
    for (a, b) in [(&mut *w0, &mut *w2), (w1, w3), (w4, w6), (w5, w7)] {
        swap_move(a, b, 0x0000_FFFF_0000_FFFF, 16);
    }
    let [w0, w1, w2, w3, w4, w5, w6, w7] = w;
    for (a, b) in [(&mut *w0, &mut *w4), (w1, w5), (w2, w6), (w3, w7)] {
        swap_move(a, b, 0x0000_0000_FFFF_FFFF, 32);
    }
}

/// 64 bytes → 8 bit planes (plane `p`, bit `j` = bit `p` of byte `j`).
#[inline(always)]
fn bitslice(bytes: &[u8; 64]) -> [u64; 8] {
    let mut w = [0u64; 8];
    for (word, chunk) in w.iter_mut().zip(bytes.chunks_exact(8)) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        *word = transpose_bits_in_word(u64::from_le_bytes(b));
    }
    transpose_bytes_across_words(&mut w);
    w
}

/// Inverse of [`bitslice`].
#[inline(always)]
fn unbitslice(planes: &[u64; 8]) -> [u8; 64] {
    let mut w = *planes;
    transpose_bytes_across_words(&mut w);
    let mut out = [0u8; 64];
    for (chunk, word) in out.chunks_exact_mut(8).zip(w) {
        chunk.copy_from_slice(&transpose_bits_in_word(word).to_le_bytes());
    }
    out
}

/// The AES S-box on eight bit planes (`q[0]` = least significant bit), as the
/// Boyar–Peralta depth-16 circuit: a linear top layer, a shared nonlinear core computing the
/// GF(2^4)-based inversion, and a linear bottom layer that also adds the affine constant.
#[inline(always)]
fn sub_bytes(q: &mut [u64; 8]) {
    let x0 = q[7];
    let x1 = q[6];
    let x2 = q[5];
    let x3 = q[4];
    let x4 = q[3];
    let x5 = q[2];
    let x6 = q[1];
    let x7 = q[0];

    // Top linear layer.
    let y14 = x3 ^ x5;
    let y13 = x0 ^ x6;
    let y9 = x0 ^ x3;
    let y8 = x0 ^ x5;
    let t0 = x1 ^ x2;
    let y1 = t0 ^ x7;
    let y4 = y1 ^ x3;
    let y12 = y13 ^ y14;
    let y2 = y1 ^ x0;
    let y5 = y1 ^ x6;
    let y3 = y5 ^ y8;
    let t1 = x4 ^ y12;
    let y15 = t1 ^ x5;
    let y20 = t1 ^ x1;
    let y6 = y15 ^ x7;
    let y10 = y15 ^ t0;
    let y11 = y20 ^ y9;
    let y7 = x7 ^ y11;
    let y17 = y10 ^ y11;
    let y19 = y10 ^ y8;
    let y16 = t0 ^ y11;
    let y21 = y13 ^ y16;
    let y18 = x0 ^ y16;

    // Nonlinear core.
    let t2 = y12 & y15;
    let t3 = y3 & y6;
    let t4 = t3 ^ t2;
    let t5 = y4 & x7;
    let t6 = t5 ^ t2;
    let t7 = y13 & y16;
    let t8 = y5 & y1;
    let t9 = t8 ^ t7;
    let t10 = y2 & y7;
    let t11 = t10 ^ t7;
    let t12 = y9 & y11;
    let t13 = y14 & y17;
    let t14 = t13 ^ t12;
    let t15 = y8 & y10;
    let t16 = t15 ^ t12;
    let t17 = t4 ^ t14;
    let t18 = t6 ^ t16;
    let t19 = t9 ^ t14;
    let t20 = t11 ^ t16;
    let t21 = t17 ^ y20;
    let t22 = t18 ^ y19;
    let t23 = t19 ^ y21;
    let t24 = t20 ^ y18;

    let t25 = t21 ^ t22;
    let t26 = t21 & t23;
    let t27 = t24 ^ t26;
    let t28 = t25 & t27;
    let t29 = t28 ^ t22;
    let t30 = t23 ^ t24;
    let t31 = t22 ^ t26;
    let t32 = t31 & t30;
    let t33 = t32 ^ t24;
    let t34 = t23 ^ t33;
    let t35 = t27 ^ t33;
    let t36 = t24 & t35;
    let t37 = t36 ^ t34;
    let t38 = t27 ^ t36;
    let t39 = t29 & t38;
    let t40 = t25 ^ t39;

    let t41 = t40 ^ t37;
    let t42 = t29 ^ t33;
    let t43 = t29 ^ t40;
    let t44 = t33 ^ t37;
    let t45 = t42 ^ t41;
    let z0 = t44 & y15;
    let z1 = t37 & y6;
    let z2 = t33 & x7;
    let z3 = t43 & y16;
    let z4 = t40 & y1;
    let z5 = t29 & y7;
    let z6 = t42 & y11;
    let z7 = t45 & y17;
    let z8 = t41 & y10;
    let z9 = t44 & y12;
    let z10 = t37 & y3;
    let z11 = t33 & y4;
    let z12 = t43 & y13;
    let z13 = t40 & y5;
    let z14 = t29 & y2;
    let z15 = t42 & y9;
    let z16 = t45 & y14;
    let z17 = t41 & y8;

    // Bottom linear layer (with the affine constant 0x63 folded into the NOTs).
    let t46 = z15 ^ z16;
    let t47 = z10 ^ z11;
    let t48 = z5 ^ z13;
    let t49 = z9 ^ z10;
    let t50 = z2 ^ z12;
    let t51 = z2 ^ z5;
    let t52 = z7 ^ z8;
    let t53 = z0 ^ z3;
    let t54 = z6 ^ z7;
    let t55 = z16 ^ z17;
    let t56 = z12 ^ t48;
    let t57 = t50 ^ t53;
    let t58 = z4 ^ t46;
    let t59 = z3 ^ t54;
    let t60 = t46 ^ t57;
    let t61 = z14 ^ t57;
    let t62 = t52 ^ t58;
    let t63 = t49 ^ t58;
    let t64 = z4 ^ t59;
    let t65 = t61 ^ t62;
    let t66 = z1 ^ t63;
    let s0 = t59 ^ t63;
    let s6 = t56 ^ !t62;
    let s7 = t48 ^ !t60;
    let t67 = t64 ^ t65;
    let s3 = t53 ^ t66;
    let s4 = t51 ^ t66;
    let s5 = t47 ^ t65;
    let s1 = t64 ^ !s3;
    let s2 = t55 ^ !t67;

    *q = [s7, s6, s5, s4, s3, s2, s1, s0];
}

/// Replicates a 16-bit pattern into all four 16-bit groups.
const fn rep16(x: u64) -> u64 {
    x * 0x0001_0001_0001_0001
}

/// ShiftRows: row `r` of every block rotates left by `r` columns, i.e. bits `4c + r` of each
/// 16-bit group rotate down by `4r` positions.
#[inline(always)]
fn shift_rows(x: u64) -> u64 {
    (x & rep16(0x1111))
        | ((x >> 4) & rep16(0x0222))
        | ((x << 12) & rep16(0x2000))
        | ((x >> 8) & rep16(0x0044))
        | ((x << 8) & rep16(0x4400))
        | ((x >> 12) & rep16(0x0008))
        | ((x << 4) & rep16(0x8880))
}

/// Rotates the rows of every column: result row `r` = input row `r + k mod 4`.
#[inline(always)]
fn rotate_rows<const K: u32>(x: u64) -> u64 {
    let low = rep16(0x1111) * ((1 << (4 - K)) - 1);
    ((x >> K) & low) | ((x << (4 - K)) & !low)
}

/// MixColumns on bit planes: `out_r = 2 (a_r ^ a_{r+1}) ^ a_{r+1} ^ a_{r+2} ^ a_{r+3}`.
#[inline(always)]
fn mix_columns(q: &mut [u64; 8]) {
    let mut u = [0u64; 8];
    let mut r1 = [0u64; 8];
    for p in 0..8 {
        r1[p] = rotate_rows::<1>(q[p]);
        u[p] = q[p] ^ r1[p];
    }
    // xtime(u): multiply by x modulo x^8 + x^4 + x^3 + x + 1.
    let hi = u[7];
    let xt = [hi, u[0] ^ hi, u[1], u[2] ^ hi, u[3] ^ hi, u[4], u[5], u[6]];
    for p in 0..8 {
        q[p] = xt[p] ^ r1[p] ^ rotate_rows::<2>(u[p]);
    }
}

/// `AESL` on the planes, in place.
///
/// This and the other plane functions below are kept out of line on purpose (and are not
/// generic, so there is one copy of each): a round is a few hundred integer operations and a
/// (un)transposition about a hundred, so a call costs little, while inlining them into every
/// unrolled update of the algorithm crates made their portable code paths, and their release
/// compile times, many times larger.
#[inline(never)]
fn aesl_planes(q: &mut [u64; 8]) {
    sub_bytes(q);
    for p in q.iter_mut() {
        *p = shift_rows(*p);
    }
    mix_columns(q);
}

/// `AESL(q) ^ key` on the planes, in place (one AES round).
#[inline(never)]
fn round_planes(q: &mut [u64; 8], key: &[u64; 8]) {
    aesl_planes(q);
    for (p, k) in q.iter_mut().zip(key) {
        *p ^= k;
    }
}

/// `a ^ b` on the planes.
#[inline(never)]
fn xor_planes(a: &[u64; 8], b: &[u64; 8]) -> [u64; 8] {
    let mut out = *a;
    for (o, b) in out.iter_mut().zip(b) {
        *o ^= b;
    }
    out
}

/// `ShiftRows ∘ SubBytes` on the planes, in place (the last AES round without its key).
#[inline(never)]
fn last_round_planes(q: &mut [u64; 8]) {
    sub_bytes(q);
    for p in q.iter_mut() {
        *p = shift_rows(*p);
    }
}

/// The planes of the first `len` bytes of `src`, the rest of the 64 bytes zero.
#[inline(never)]
fn load_planes(src: &[u8], len: usize) -> [u64; 8] {
    let mut buf = [0u8; 16 * MAX_LANES];
    buf[..len].copy_from_slice(&src[..len]);
    bitslice(&buf)
}

/// Writes the first `len` bytes of the planes' content to `dst`.
#[inline(never)]
fn store_planes(planes: &[u64; 8], dst: &mut [u8], len: usize) {
    let buf = unbitslice(planes);
    dst[..len].copy_from_slice(&buf[..len]);
}

/// The planes of `block` repeated `lanes` times, the rest zero.
#[inline(never)]
fn broadcast_planes(block: &[u8; 16], lanes: usize) -> [u64; 8] {
    let mut buf = [0u8; 16 * MAX_LANES];
    for lane in buf.chunks_exact_mut(16).take(lanes) {
        lane.copy_from_slice(block);
    }
    bitslice(&buf)
}

/// [`Lanes::transpose_words`] on four values' planes (all four lanes; lanes a value does not
/// use stay zero, since their words are zero in every value).
#[inline(never)]
fn transpose_words_planes(v: &mut [[u64; 8]; 4]) {
    let bytes = [
        unbitslice(&v[0]),
        unbitslice(&v[1]),
        unbitslice(&v[2]),
        unbitslice(&v[3]),
    ];
    let mut out = [[0u8; 64]; 4];
    for lane in 0..MAX_LANES {
        for (i, from) in bytes.iter().enumerate() {
            for (j, to) in out.iter_mut().enumerate() {
                let (dst, src) = (16 * lane + 4 * i, 16 * lane + 4 * j);
                to[dst..dst + 4].copy_from_slice(&from[src..src + 4]);
            }
        }
    }
    for (p, b) in v.iter_mut().zip(&out) {
        *p = bitslice(b);
    }
}

/// The last round of [`Lanes::aes128_key_step`] and its sliced form: `ShiftRows(SubBytes(x))
/// ^ rcon` in byte 0 of every column, for the bytes `x` that the caller arranged.
fn key_round(x: &[u8; 64], rcon: u8) -> [u64; 8] {
    let mut rc = [0u8; 64];
    for col in 0..4 * MAX_LANES {
        rc[4 * col] = rcon;
    }
    let mut t = bitslice(x);
    last_round_planes(&mut t);
    xor_planes(&t, &bitslice(&rc))
}

/// [`Lanes::aes128_key_step_sliced`] on planes.
#[inline(never)]
fn key_step_sliced_planes(w: &mut [[u64; 8]; 4], rcon: u8) {
    let w3 = unbitslice(&w[3]);
    let mut x = [0u8; 64];
    for lane in 0..MAX_LANES {
        for (i, &src) in SLICED_ROT_WORD.iter().enumerate() {
            x[16 * lane + i] = w3[16 * lane + usize::from(src)];
        }
    }
    let t = key_round(&x, rcon);
    w[0] = xor_planes(&w[0], &t);
    w[1] = xor_planes(&w[1], &w[0]);
    w[2] = xor_planes(&w[2], &w[1]);
    w[3] = xor_planes(&w[3], &w[2]);
}

/// [`Lanes::aes128_key_step`] on planes: `RotWord(w3)` in every column, so that ShiftRows is
/// the identity and the last round gives `SubWord(RotWord(w3)) ^ rcon` in every column; then
/// the running XOR of the words.
#[inline(never)]
fn key_step_planes(k: &mut [u64; 8], rcon: u8) {
    let mut bytes = unbitslice(k);
    let mut x = [0u8; 64];
    for lane in 0..MAX_LANES {
        let base = 16 * lane;
        for col in 0..4 {
            for i in 0..4 {
                x[base + 4 * col + i] = bytes[base + 12 + (i + 1) % 4];
            }
        }
    }
    let temp = unbitslice(&key_round(&x, rcon));
    for lane in 0..MAX_LANES {
        let base = 16 * lane;
        for i in 0..4 {
            let mut acc = temp[base + i];
            for col in 0..4 {
                acc ^= bytes[base + 4 * col + i];
                bytes[base + 4 * col + i] = acc;
            }
        }
    }
    *k = bitslice(&bytes);
}

impl<const N: usize> Soft<N> {
    const VALID: () = assert!(N == 1 || N == 2 || N == 4, "Soft<N> supports N = 1, 2, 4");

    #[inline(always)]
    fn map(self, other: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        let mut planes = [0u64; 8];
        for (o, (a, b)) in planes.iter_mut().zip(self.planes.iter().zip(other.planes)) {
            *o = f(*a, b);
        }
        Soft { planes }
    }
}

impl<const N: usize> Lanes for Soft<N> {
    crate::lanes::one_part!();

    const LANES: usize = {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        N
    };
    const REGISTERS: usize = 0;
    const FUSED_XOR3: bool = false;

    #[inline(always)]
    fn zero() -> Self {
        Soft { planes: [0; 8] }
    }

    #[inline(always)]
    fn load(src: &[u8]) -> Self {
        Soft {
            planes: load_planes(src, Self::BYTES),
        }
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8]) {
        store_planes(&self.planes, dst, Self::BYTES);
    }

    #[inline(always)]
    fn broadcast(block: &[u8; 16]) -> Self {
        Soft {
            planes: broadcast_planes(block, N),
        }
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        Soft {
            planes: xor_planes(&self.planes, &other.planes),
        }
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self.map(other, |a, b| a & b)
    }

    #[inline(always)]
    fn aes_round(mut self, key: Self) -> Self {
        round_planes(&mut self.planes, &key.planes);
        self
    }

    #[inline(always)]
    fn aes_round_last(mut self, key: Self) -> Self {
        last_round_planes(&mut self.planes);
        self.xor(key)
    }

    #[inline(always)]
    fn aesl(mut self) -> Self {
        aesl_planes(&mut self.planes);
        self
    }

    #[inline(always)]
    fn aes128_key_step(mut self, rcon: u8) -> Self {
        key_step_planes(&mut self.planes, rcon);
        self
    }

    #[inline(always)]
    fn transpose_words(v: [Self; 4]) -> [Self; 4] {
        let mut p = [v[0].planes, v[1].planes, v[2].planes, v[3].planes];
        transpose_words_planes(&mut p);
        let [a, b, c, d] = p;
        [
            Soft { planes: a },
            Soft { planes: b },
            Soft { planes: c },
            Soft { planes: d },
        ]
    }

    #[inline(always)]
    fn aes128_key_step_sliced(w: [Self; 4], rcon: u8) -> [Self; 4] {
        let mut p = [w[0].planes, w[1].planes, w[2].planes, w[3].planes];
        key_step_sliced_planes(&mut p, rcon);
        let [a, b, c, d] = p;
        [
            Soft { planes: a },
            Soft { planes: b },
            Soft { planes: c },
            Soft { planes: d },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitslice_round_trips() {
        let mut bytes = [0u8; 64];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37) ^ 0x5a;
        }
        let planes = bitslice(&bytes);
        for (j, byte) in bytes.iter().enumerate() {
            for (p, plane) in planes.iter().enumerate() {
                assert_eq!(
                    (plane >> j) & 1,
                    u64::from(byte >> p) & 1,
                    "byte {j} bit {p}"
                );
            }
        }
        assert_eq!(unbitslice(&planes), bytes);
    }
}
