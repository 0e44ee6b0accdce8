//! AES-128 built from the lane primitive: key schedule, block encryption, and the
//! byte-level (constant-time) MixColumns helpers the lane trait does not provide.
//!
//! The lane trait offers the full AES round `AESL = MixColumns ∘ ShiftRows ∘ SubBytes` but no
//! last round (`ShiftRows ∘ SubBytes`, x86 `aesenclast`). Two identities cover the gap:
//!
//! * S-box lookups for the key schedule: a block whose byte `(row r, column j)` is
//!   `t[(j − r) mod 4]` becomes, after ShiftRows, four constant columns `t[c]`; SubBytes keeps
//!   them constant and MixColumns maps a constant column to itself (`2 ⊕ 3 ⊕ 1 ⊕ 1 = 1`). So one
//!   `AESL` yields `SB(t[c])` at byte `4c`.
//! * The last round: `AESL(x) ⊕ MC(k) = MC(SR(SB(x)) ⊕ k)`, so the last round is
//!   `InvMixColumns(aes_round(x, MC(k10)))`. The schedules below store `MC(k10)` in place of
//!   `k10`, and the callers apply [`inv_mix_columns`] to the 16 bytes they extract.
//!
//! All helpers here are branch-free and table-free (constant time in the key and data).

use aes_lanes::Lanes;

/// A 16-byte block.
pub(crate) type Block = [u8; 16];

/// Round constants of the AES-128 key schedule.
const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// Multiplication by `x` in GF(2^8) of each byte of a packed word.
#[inline(always)]
fn xtime(w: u32) -> u32 {
    // Reduction by x^8 + x^4 + x^3 + x + 1: add 0x1b = bits 0, 1, 3, 4 where the top bit was
    // set (shifts instead of a multiply: no carries, and no slow vector multiply).
    let hi = (w >> 7) & 0x0101_0101;
    ((w & 0x7f7f_7f7f) << 1) ^ hi ^ (hi << 1) ^ (hi << 3) ^ (hi << 4)
}

/// MixColumns of one column (byte `i` of the little-endian word = row `i`).
#[inline(always)]
fn mix_column(a: u32) -> u32 {
    // b_i = 2 a_i ^ 3 a_{i+1} ^ a_{i+2} ^ a_{i+3}
    let a1 = a.rotate_right(8);
    xtime(a ^ a1) ^ a1 ^ a.rotate_right(16) ^ a.rotate_right(24)
}

/// InvMixColumns of one column: MixColumns after the `(5, 0, 4, 0)` circulant
/// (Daemen–Rijmen, *The Design of Rijndael*, §4.1.3).
#[inline(always)]
fn inv_mix_column(a: u32) -> u32 {
    let t = a ^ a.rotate_right(16);
    mix_column(a ^ xtime(xtime(t)))
}

#[inline(always)]
fn columns(b: &Block) -> [u32; 4] {
    let mut w = [0u32; 4];
    for (c, w) in w.iter_mut().enumerate() {
        *w = u32::from_le_bytes([b[4 * c], b[4 * c + 1], b[4 * c + 2], b[4 * c + 3]]);
    }
    w
}

#[inline(always)]
fn from_columns(w: [u32; 4]) -> Block {
    let mut b = [0u8; 16];
    for c in 0..4 {
        b[4 * c..4 * c + 4].copy_from_slice(&w[c].to_le_bytes());
    }
    b
}

/// AES MixColumns of a block.
#[inline(always)]
pub(crate) fn mix_columns(b: &Block) -> Block {
    let w = columns(b);
    from_columns([
        mix_column(w[0]),
        mix_column(w[1]),
        mix_column(w[2]),
        mix_column(w[3]),
    ])
}

/// AES InvMixColumns of a block.
#[inline(always)]
pub(crate) fn inv_mix_columns(b: &Block) -> Block {
    let w = columns(b);
    from_columns([
        inv_mix_column(w[0]),
        inv_mix_column(w[1]),
        inv_mix_column(w[2]),
        inv_mix_column(w[3]),
    ])
}

/// XOR of two blocks.
#[inline(always)]
pub(crate) fn xor_block(a: &Block, b: &Block) -> Block {
    let mut out = *a;
    for (o, b) in out.iter_mut().zip(b) {
        *o ^= b;
    }
    out
}

/// SubBytes of four bytes with one `AESL` (the diagonal trick above).
#[inline(always)]
fn sub_word<L: Lanes>(t: [u8; 4]) -> [u8; 4] {
    let mut b = [0u8; 16];
    for j in 0..4 {
        for r in 0..4 {
            b[4 * j + r] = t[(j + 4 - r) % 4];
        }
    }
    let out = L::broadcast(&b).aesl().lane(0);
    [out[0], out[4], out[8], out[12]]
}

/// AES-128 round keys `k0 .. k10`, except that the last one is stored as `MC(k10)`.
pub(crate) type Schedule = [Block; 11];

/// Expands an AES-128 key (see [`Schedule`] for the last key's form).
#[inline(always)]
pub(crate) fn expand<L: Lanes>(key: &Block) -> Schedule {
    let mut rk = [[0u8; 16]; 11];
    rk[0] = *key;
    for i in 1..11 {
        let p = rk[i - 1];
        let mut t = sub_word::<L>([p[13], p[14], p[15], p[12]]);
        t[0] ^= RCON[i - 1];
        let mut k = [0u8; 16];
        for w in 0..4 {
            for b in 0..4 {
                let prev = if w == 0 { t[b] } else { k[4 * (w - 1) + b] };
                k[4 * w + b] = p[4 * w + b] ^ prev;
            }
        }
        rk[i] = k;
    }
    rk[10] = mix_columns(&rk[10]);
    rk
}

/// Round keys broadcast to every lane.
#[inline(always)]
pub(crate) fn schedule_lanes<L: Lanes>(rk: &Schedule) -> [L; 11] {
    let mut out = [L::zero(); 11];
    for (o, k) in out.iter_mut().zip(rk) {
        *o = L::broadcast(k);
    }
    out
}

/// Encrypts each lane of `x` with AES-128, *except for the final InvMixColumns*: the result
/// is `MC(E(x))`; apply [`inv_mix_columns`] to each extracted block.
#[inline(always)]
pub(crate) fn encrypt_mc<L: Lanes>(x: L, rk: &[L; 11]) -> L {
    let mut x = x.xor(rk[0]);
    for k in &rk[1..] {
        x = x.aes_round(*k);
    }
    x
}

/// `E_k(x)` of one block, computed in lane 0 of `L`.
#[inline(always)]
pub(crate) fn encrypt_block<L: Lanes>(x: &Block, rk: &[L; 11]) -> Block {
    inv_mix_columns(&encrypt_mc(L::broadcast(x), rk).lane(0))
}
