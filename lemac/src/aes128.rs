//! AES-128 built from the lane primitives: key schedule and block encryption.
//!
//! The S-box lookups of the key schedule use one trick: a block whose byte `(row r, column j)`
//! is `t[(j − r) mod 4]` becomes, after ShiftRows, four constant columns `t[c]`; SubBytes keeps
//! them constant and MixColumns maps a constant column to itself (`2 ⊕ 3 ⊕ 1 ⊕ 1 = 1`). So one
//! `AESL` yields `SB(t[c])` at byte `4c`.
//!
//! All helpers here are branch-free and table-free (constant time in the key and data).

use aes_lanes::Lanes;

/// A 16-byte block.
pub(crate) type Block = [u8; 16];

/// Round constants of the AES-128 key schedule.
const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

#[inline(always)]
fn xor<const N: usize>(a: &[u8; N], b: &[u8; N]) -> [u8; N] {
    let mut o = *a;
    for i in 0..N {
        o[i] ^= b[i];
    }
    o
}

/// XOR of two blocks.
#[inline(always)]
pub(crate) fn xor_block(a: &Block, b: &Block) -> Block {
    xor(a, b)
}

/// SubBytes of four bytes with one `AESL` (the diagonal trick above).
#[inline(always)]
fn sub_word<L: Lanes>(t: [u8; 4]) -> [u8; 4] {
    // Column j = (t[j], t[j-1], t[j-2], t[j-3]) = column 0 rotated by j bytes. Built as one
    // integer, not byte by byte in memory (byte stores followed by a 16-byte load stall on
    // store forwarding, and the key schedule is a serial chain of these).
    let c0 = u32::from_le_bytes([t[0], t[3], t[2], t[1]]);
    let b = u128::from(c0)
        | (u128::from(c0.rotate_left(8)) << 32)
        | (u128::from(c0.rotate_left(16)) << 64)
        | (u128::from(c0.rotate_left(24)) << 96);
    let out = L::broadcast(&b.to_le_bytes()).aesl().lane(0);
    [out[0], out[4], out[8], out[12]]
}

/// AES-128 round keys `k0 .. k10`.
pub(crate) type Schedule = [Block; 11];

/// Expands an AES-128 key.
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

/// Encrypts each lane of `x` with AES-128.
#[inline(always)]
pub(crate) fn encrypt<L: Lanes>(x: L, rk: &[L; 11]) -> L {
    let mut x = x.xor(rk[0]);
    for k in &rk[1..10] {
        x = x.aes_round(*k);
    }
    x.aes_round_last(rk[10])
}

/// `E_k(x)` of one block, computed in lane 0 of `L`.
#[inline(always)]
pub(crate) fn encrypt_block<L: Lanes>(x: &Block, rk: &[L; 11]) -> Block {
    encrypt(L::broadcast(x), rk).lane(0)
}
