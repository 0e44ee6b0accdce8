//! Portable, constant-time lanes: bitsliced AES on 64-bit words.
//!
//! # Layout
//!
//! The round works on a *slab*: eight 64-bit words holding four 16-byte blocks, word `p` being
//! bit plane `p` (bit `p` of every byte). Bit `16 r + 4 c + s` of a plane belongs to the byte
//! in row `r`, column `c` of the block in *slot* `s` (AES byte `4 c + r`). In this order
//!
//! * SubBytes is the Boyar–Peralta circuit (113 XOR/AND/XNOR gates) on the eight planes;
//! * ShiftRows rotates rows 1, 2 and 3 of every slot by moving 4-bit groups inside each
//!   row's 16 bits: two masked shift stages (by 8 bits for rows 2 and 3, by 4 for rows 1 and
//!   3);
//! * MixColumns needs the rows rotated against each other, which are rotations of a whole
//!   word by 16 or 32 bits; `xtime` is a shift of planes.
//!
//! A [`Soft<N>`] value keeps its `16 N` bytes densely in `2 N` words of the same shape, the
//! slots holding (`p` the plane, `l` the lane, `w` the word):
//!
//! | `N` | word `w` holds | slot `s` holds |
//! |---|---|---|
//! | 4 | plane `w` | lane `s` |
//! | 2 | planes `2 w`, `2 w + 1` | plane `2 w + (s & 1)` of lane `s >> 1` |
//! | 1 | planes `4 w .. 4 w + 3` | plane `4 w + s` |
//!
//! so XOR and AND cost `2 N` word operations, and a round packs `4 / N` values into one slab
//! (one or two stages of bit-group swaps between their words), evaluates the round once for
//! all four blocks, and unpacks. [`Lanes::aes_rounds`] fills each slab with independent
//! rounds: four one-lane rounds cost one bitsliced round.
//!
//! Loading and storing are transposes made of the same bit-group swaps: 4, 5 or 6 stages for
//! 1, 2 or 4 lanes.
//!
//! Everything is straight-line bitwise arithmetic on the words: no table, no branch and no
//! memory address that depends on the data (the few branches depend on `N` and on how many
//! rounds a call asks for, never on a value).

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
    /// `2 N` words in the layout of the module docs.
    words: [[u64; 2]; N],
}

impl<const N: usize> core::fmt::Debug for Soft<N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Lane contents may be secret: print the shape only.
        f.debug_struct("Soft")
            .field("lanes", &N)
            .finish_non_exhaustive()
    }
}

/// Eight words: a slab, or the words of up to `4 / N` values side by side (value `j` in
/// words `2 N j .. 2 N (j + 1)`).
type Words = [u64; 8];

/// `MASK[b]`: the bit positions whose index has bit `b` clear.
const MASK: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// Exchanges the bits of `w[a]` whose position has bit `b` set with the bits of `w[c]` whose
/// position has it clear: with `a` and `c` two words that differ in one bit of their index,
/// this swaps that index bit with bit `b` of the bit position. An involution.
#[inline(always)]
fn cross(w: &mut Words, a: usize, c: usize, b: usize) {
    let s = 1 << b;
    let t = ((w[a] >> s) ^ w[c]) & MASK[b];
    w[c] ^= t;
    w[a] ^= t << s;
}

/// Renames the words `[w0, w2, w4, w6, w1, w3, w5, w7]`: the word whose index bits are
/// `(x, y, z)` moves to index `(z, x, y)`.
#[inline(always)]
fn rename_out(w: &Words) -> Words {
    [w[0], w[2], w[4], w[6], w[1], w[3], w[5], w[7]]
}

/// Inverse of [`rename_out`].
#[inline(always)]
fn rename_in(q: &Words) -> Words {
    [q[0], q[4], q[1], q[5], q[2], q[6], q[3], q[7]]
}

/// `16 n` bytes (little-endian words) into the layout of an `n`-lane value, in place.
///
/// The bytes give word `2 l + c_1` (lane `l`, column bit 1) and bit position
/// `(c_0, r_1, r_0, p_2, p_1, p_0)` (column bit 0, row, plane). Four swaps move the column
/// and row bits up and plane bit 2 into the word index; two more (for `n > 1`) move the lane
/// bits down into the slot.
#[inline(always)]
fn to_value(w: &mut Words, n: usize) {
    for i in 0..n {
        let (a, c) = (2 * i, 2 * i + 1);
        cross(w, a, c, 3);
        cross(w, a, c, 4);
        cross(w, a, c, 5);
        cross(w, a, c, 2);
    }
    match n {
        1 => {}
        2 => {
            cross(w, 0, 2, 1);
            cross(w, 1, 3, 1);
            w.swap(1, 2);
        }
        _ => {
            for a in [0, 1, 4, 5] {
                cross(w, a, a + 2, 0);
            }
            for a in 0..4 {
                cross(w, a, a + 4, 1);
            }
            *w = rename_out(w);
        }
    }
}

/// Inverse of [`to_value`].
#[inline(always)]
fn from_value(w: &mut Words, n: usize) {
    match n {
        1 => {}
        2 => {
            w.swap(1, 2);
            cross(w, 0, 2, 1);
            cross(w, 1, 3, 1);
        }
        _ => {
            *w = rename_in(w);
            for a in 0..4 {
                cross(w, a, a + 4, 1);
            }
            for a in [0, 1, 4, 5] {
                cross(w, a, a + 2, 0);
            }
        }
    }
    for i in 0..n {
        let (a, c) = (2 * i, 2 * i + 1);
        cross(w, a, c, 2);
        cross(w, a, c, 5);
        cross(w, a, c, 4);
        cross(w, a, c, 3);
    }
}

/// The words of `4 / n` values of `n` lanes (value `j` in words `2 n j ..`) as one slab.
#[inline(always)]
fn pack(g: &Words, n: usize) -> Words {
    let mut w = *g;
    match n {
        1 => {
            // Value index bits (v1, v0) swap with slot bits (s1, s0), which held plane bits
            // 1 and 0; these go to the word index.
            for a in 0..4 {
                cross(&mut w, a, a + 4, 1);
            }
            for a in [0, 1, 4, 5] {
                cross(&mut w, a, a + 2, 0);
            }
            rename_out(&w)
        }
        2 => {
            // The value index swaps with slot bit 0 (plane bit 0).
            for a in 0..4 {
                cross(&mut w, a, a + 4, 0);
            }
            [w[0], w[4], w[1], w[5], w[2], w[6], w[3], w[7]]
        }
        _ => w,
    }
}

/// Inverse of [`pack`].
#[inline(always)]
fn unpack(q: &Words, n: usize) -> Words {
    match n {
        1 => {
            let mut w = rename_in(q);
            for a in [0, 1, 4, 5] {
                cross(&mut w, a, a + 2, 0);
            }
            for a in 0..4 {
                cross(&mut w, a, a + 4, 1);
            }
            w
        }
        2 => {
            let mut w = [q[0], q[2], q[4], q[6], q[1], q[3], q[5], q[7]];
            for a in 0..4 {
                cross(&mut w, a, a + 4, 0);
            }
            w
        }
        _ => *q,
    }
}

/// The AES S-box on eight bit planes (`q[0]` = least significant bit), as the
/// Boyar–Peralta depth-16 circuit: a linear top layer, a shared nonlinear core computing the
/// GF(2^4)-based inversion, and a linear bottom layer that also adds the affine constant.
#[inline(always)]
fn sub_bytes(q: &mut Words) {
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

/// ShiftRows on one plane: row `r` (bits `16 r ..`) moves its 4-bit column groups `r` places
/// down: rows 2 and 3 swap their two bytes, then rows 1 and 3 rotate by 4 bits.
#[inline(always)]
fn shift_rows(x: u64) -> u64 {
    let t = ((x >> 8) ^ x) & 0x00FF_00FF_0000_0000;
    let x = x ^ t ^ (t << 8);
    (x & 0x0000_FFFF_0000_FFFF)
        | ((x >> 4) & 0x0FFF_0000_0FFF_0000)
        | ((x << 12) & 0xF000_0000_F000_0000)
}

/// MixColumns on the planes: `out_r = 2 (a_r ^ a_{r+1}) ^ a_{r+1} ^ a_{r+2} ^ a_{r+3}`, where
/// row `r + k` is the plane rotated by `16 k` bits.
#[inline(always)]
fn mix_columns(q: &mut Words) {
    let mut u = [0u64; 8];
    let mut r1 = [0u64; 8];
    for p in 0..8 {
        r1[p] = q[p].rotate_right(16);
        u[p] = q[p] ^ r1[p];
    }
    // xtime(u): multiply by x modulo x^8 + x^4 + x^3 + x + 1.
    let hi = u[7];
    let xt = [hi, u[0] ^ hi, u[1], u[2] ^ hi, u[3] ^ hi, u[4], u[5], u[6]];
    for p in 0..8 {
        q[p] = xt[p] ^ r1[p] ^ u[p].rotate_right(32);
    }
}

/// Up to `4 / n` rounds on the words of `n`-lane values side by side (`g`, see [`Words`]):
/// `AESL(x) ^ k` for each value (`mix`), or `ShiftRows(SubBytes(x)) ^ k` (the last round).
/// Words of values that are not there may hold anything; their results are meaningless.
#[inline(always)]
fn rounds(g: &mut Words, k: &Words, n: usize, mix: bool) {
    let mut q = pack(g, n);
    sub_bytes(&mut q);
    for p in q.iter_mut() {
        *p = shift_rows(*p);
    }
    if mix {
        mix_columns(&mut q);
    }
    *g = unpack(&q, n);
    for (x, k) in g.iter_mut().zip(k) {
        *x ^= k;
    }
}

/// [`rounds`] with `mix` for `N`-lane values, one copy per lane count.
///
/// The round functions are kept out of line on purpose (and are not generic over anything
/// but the lane count, so there are at most three copies): a round is about three hundred
/// integer operations, so a call costs little, while inlining it into every update of the
/// algorithm crates made their portable code paths, and their release compile times, many
/// times larger.
#[inline(never)]
fn mix_rounds<const N: usize>(g: &mut Words, k: &Words) {
    rounds(g, k, N, true);
}

/// [`rounds`] without `mix` (the last AES round): rare, one copy for every lane count.
#[inline(never)]
fn last_rounds(g: &mut Words, k: &Words, n: usize) {
    rounds(g, k, n, false);
}

/// The words of an `n`-lane value from its `16 n` bytes at the start of `src`.
#[inline(never)]
fn load_words(src: &[u8], n: usize) -> Words {
    let mut w = [0u64; 8];
    for (x, b) in w.iter_mut().zip(src[..16 * n].chunks_exact(8)) {
        *x = u64::from_le_bytes(b.try_into().expect("8 bytes"));
    }
    to_value(&mut w, n);
    w
}

/// Writes the `16 n` bytes of an `n`-lane value to the start of `dst`.
#[inline(never)]
fn store_words(w: &Words, dst: &mut [u8], n: usize) {
    let mut w = *w;
    from_value(&mut w, n);
    for (b, x) in dst[..16 * n].chunks_exact_mut(8).zip(w) {
        b.copy_from_slice(&x.to_le_bytes());
    }
}

/// The bytes of an `n`-lane value (the rest of the 64 zero).
#[inline(always)]
fn to_bytes(w: &Words, n: usize) -> [u8; 64] {
    let mut b = [0u8; 64];
    store_words(w, &mut b, n);
    b
}

/// `ShiftRows(SubBytes(x)) ^ rcon` in byte 0 of every column of all four lanes of `x`: the
/// last round of [`Lanes::aes128_key_step`] and its sliced form, for the bytes `x` that the
/// caller arranged.
fn key_round(x: &[u8; 64], rcon: u8) -> [u8; 64] {
    let mut rc = [0u8; 64];
    for col in 0..4 * MAX_LANES {
        rc[4 * col] = rcon;
    }
    let mut t = load_words(x, MAX_LANES);
    last_rounds(&mut t, &load_words(&rc, MAX_LANES), MAX_LANES);
    to_bytes(&t, MAX_LANES)
}

/// [`Lanes::aes128_key_step_sliced`] on the words of four `n`-lane values.
#[inline(never)]
fn key_step_sliced_words(w: &mut [Words; 4], n: usize, rcon: u8) {
    let w3 = to_bytes(&w[3], n);
    let mut x = [0u8; 64];
    for lane in 0..n {
        for (i, &src) in SLICED_ROT_WORD.iter().enumerate() {
            x[16 * lane + i] = w3[16 * lane + usize::from(src)];
        }
    }
    let t = load_words(&key_round(&x, rcon), n);
    for i in 0..4 {
        let prev = if i == 0 { t } else { w[i - 1] };
        for (a, b) in w[i].iter_mut().zip(prev) {
            *a ^= b;
        }
    }
}

/// [`Lanes::aes128_key_step`] on the words of an `n`-lane value: `RotWord(w3)` in every
/// column, so that ShiftRows is the identity and the last round gives
/// `SubWord(RotWord(w3)) ^ rcon` in every column; then the running XOR of the words.
#[inline(never)]
fn key_step_words(k: &mut Words, n: usize, rcon: u8) {
    let mut bytes = to_bytes(k, n);
    let mut x = [0u8; 64];
    for lane in 0..n {
        let base = 16 * lane;
        for col in 0..4 {
            for i in 0..4 {
                x[base + 4 * col + i] = bytes[base + 12 + (i + 1) % 4];
            }
        }
    }
    let temp = key_round(&x, rcon);
    for lane in 0..n {
        let base = 16 * lane;
        for i in 0..4 {
            let mut acc = temp[base + i];
            for col in 0..4 {
                acc ^= bytes[base + 4 * col + i];
                bytes[base + 4 * col + i] = acc;
            }
        }
    }
    *k = load_words(&bytes, n);
}

/// [`Lanes::transpose_words`] on the words of four `n`-lane values.
#[inline(never)]
fn transpose_words_words(v: &mut [Words; 4], n: usize) {
    let bytes = [
        to_bytes(&v[0], n),
        to_bytes(&v[1], n),
        to_bytes(&v[2], n),
        to_bytes(&v[3], n),
    ];
    let mut out = [[0u8; 64]; 4];
    for lane in 0..n {
        for (i, from) in bytes.iter().enumerate() {
            for (j, to) in out.iter_mut().enumerate() {
                let (dst, src) = (16 * lane + 4 * i, 16 * lane + 4 * j);
                to[dst..dst + 4].copy_from_slice(&from[src..src + 4]);
            }
        }
    }
    for (w, b) in v.iter_mut().zip(&out) {
        *w = load_words(b, n);
    }
}

impl<const N: usize> Soft<N> {
    const VALID: () = assert!(N == 1 || N == 2 || N == 4, "Soft<N> supports N = 1, 2, 4");

    /// Values per slab.
    const GROUP: usize = 4 / N;

    /// The value's words, zero-extended to eight.
    #[inline(always)]
    fn to_words(self) -> Words {
        let mut w = [0u64; 8];
        w[..2 * N].copy_from_slice(self.words.as_flattened());
        w
    }

    /// The value in the first `2 N` of `w`.
    #[inline(always)]
    fn from_words(w: &[u64]) -> Self {
        let mut words = [[0u64; 2]; N];
        words.as_flattened_mut().copy_from_slice(&w[..2 * N]);
        Soft { words }
    }

    #[inline(always)]
    fn map(self, other: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        let mut words = self.words;
        for (a, b) in words
            .as_flattened_mut()
            .iter_mut()
            .zip(other.words.as_flattened())
        {
            *a = f(*a, *b);
        }
        Soft { words }
    }

    /// [`Lanes::aes_rounds`] (`mix`) or the same with the last round.
    #[inline(always)]
    fn rounds<const K: usize>(x: [Self; K], k: [Self; K], mix: bool) -> [Self; K] {
        let mut out = x;
        let mut i = 0;
        while i < K {
            let m = (K - i).min(Self::GROUP);
            let (mut g, mut kg) = ([0u64; 8], [0u64; 8]);
            for j in 0..m {
                let at = 2 * N * j..2 * N * (j + 1);
                g[at.clone()].copy_from_slice(out[i + j].words.as_flattened());
                kg[at].copy_from_slice(k[i + j].words.as_flattened());
            }
            if mix {
                mix_rounds::<N>(&mut g, &kg);
            } else {
                last_rounds(&mut g, &kg, N);
            }
            for j in 0..m {
                out[i + j] = Self::from_words(&g[2 * N * j..]);
            }
            i += m;
        }
        out
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
        Soft { words: [[0; 2]; N] }
    }

    #[inline(always)]
    fn load(src: &[u8]) -> Self {
        if N == 1 {
            // Four swaps on two words: inline, where a call would cost as much.
            let src = &src[..16];
            let mut w = [0u64; 8];
            w[0] = u64::from_le_bytes(src[..8].try_into().expect("8 bytes"));
            w[1] = u64::from_le_bytes(src[8..].try_into().expect("8 bytes"));
            to_value(&mut w, 1);
            return Self::from_words(&w);
        }
        Self::from_words(&load_words(&src[..Self::BYTES], N))
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8]) {
        if N == 1 {
            let dst = &mut dst[..16];
            let mut w = self.to_words();
            from_value(&mut w, 1);
            dst[..8].copy_from_slice(&w[0].to_le_bytes());
            dst[8..].copy_from_slice(&w[1].to_le_bytes());
            return;
        }
        store_words(&self.to_words(), &mut dst[..Self::BYTES], N);
    }

    #[inline(always)]
    fn broadcast(block: &[u8; 16]) -> Self {
        let mut buf = [0u8; 16 * MAX_LANES];
        for lane in buf.chunks_exact_mut(16).take(N) {
            lane.copy_from_slice(block);
        }
        Self::load(&buf)
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self.map(other, |a, b| a ^ b)
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self.map(other, |a, b| a & b)
    }

    #[inline(always)]
    fn aes_round(self, key: Self) -> Self {
        Self::rounds([self], [key], true)[0]
    }

    #[inline(always)]
    fn aes_rounds<const K: usize>(x: [Self; K], k: [Self; K]) -> [Self; K] {
        Self::rounds(x, k, true)
    }

    #[inline(always)]
    fn aes_round_last(self, key: Self) -> Self {
        Self::rounds([self], [key], false)[0]
    }

    #[inline(always)]
    fn aes128_key_step(self, rcon: u8) -> Self {
        let mut w = self.to_words();
        key_step_words(&mut w, N, rcon);
        Self::from_words(&w)
    }

    #[inline(always)]
    fn transpose_words(v: [Self; 4]) -> [Self; 4] {
        let mut w = [
            v[0].to_words(),
            v[1].to_words(),
            v[2].to_words(),
            v[3].to_words(),
        ];
        transpose_words_words(&mut w, N);
        [
            Self::from_words(&w[0]),
            Self::from_words(&w[1]),
            Self::from_words(&w[2]),
            Self::from_words(&w[3]),
        ]
    }

    #[inline(always)]
    fn aes128_key_step_sliced(w: [Self; 4], rcon: u8) -> [Self; 4] {
        let mut p = [
            w[0].to_words(),
            w[1].to_words(),
            w[2].to_words(),
            w[3].to_words(),
        ];
        key_step_sliced_words(&mut p, N, rcon);
        [
            Self::from_words(&p[0]),
            Self::from_words(&p[1]),
            Self::from_words(&p[2]),
            Self::from_words(&p[3]),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes with every bit pattern spread around.
    fn sample() -> [u8; 64] {
        let mut bytes = [0u8; 64];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = (i as u8).wrapping_mul(37) ^ 0x5a;
        }
        bytes
    }

    /// Where bit `p` of byte `j` (lane `j / 16`) sits in an `n`-lane value: (word, position).
    fn place(n: usize, j: usize, p: usize) -> (usize, usize) {
        let (lane, c, r) = (j / 16, j % 16 / 4, j % 4);
        let (word, slot) = match n {
            4 => (p, lane),
            2 => (p / 2, 2 * lane + p % 2),
            _ => (p / 4, p % 4),
        };
        (word, 16 * r + 4 * c + slot)
    }

    #[test]
    fn load_puts_every_bit_where_the_layout_says() {
        let bytes = sample();
        for n in [1, 2, 4] {
            let w = load_words(&bytes, n);
            for (j, byte) in bytes[..16 * n].iter().enumerate() {
                for p in 0..8 {
                    let (word, pos) = place(n, j, p);
                    assert_eq!(
                        (w[word] >> pos) & 1,
                        u64::from(byte >> p) & 1,
                        "n {n} byte {j} bit {p}"
                    );
                }
            }
            assert!(w[2 * n..].iter().all(|&x| x == 0));
            assert_eq!(to_bytes(&w, n)[..16 * n], bytes[..16 * n]);
        }
    }

    #[test]
    fn pack_gathers_planes_and_unpack_undoes_it() {
        let bytes = sample();
        for n in [1, 2, 4] {
            // 4 / n values of n lanes: the 64 bytes as four blocks, block b in slot s(b).
            let mut g = [0u64; 8];
            for v in 0..4 / n {
                let w = load_words(&bytes[16 * n * v..], n);
                g[2 * n * v..2 * n * (v + 1)].copy_from_slice(&w[..2 * n]);
            }
            let q = pack(&g, n);
            // Every block's bytes are in the planes, in some slot, at row/column positions.
            for v in 0..4 / n {
                for l in 0..n {
                    let block = &bytes[16 * (n * v + l)..][..16];
                    let slot = (0..4).find(|&s| {
                        block.iter().enumerate().all(|(j, byte)| {
                            let pos = 16 * (j % 4) + 4 * (j / 4) + s;
                            (0..8).all(|p| (q[p] >> pos) & 1 == u64::from(byte >> p) & 1)
                        })
                    });
                    assert!(slot.is_some(), "n {n} value {v} lane {l}");
                }
            }
            assert_eq!(unpack(&q, n), g);
        }
    }
}
