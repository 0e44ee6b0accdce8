//! Test helpers: a straightforward (table-based, test-only) AES round, a lane program that
//! exercises every trait method so backends can be compared, and HiAE states as bytes.
#![allow(dead_code)]

use aes_lanes::{LaneOp, Lanes};

fn gmul(mut a: u8, mut b: u8) -> u8 {
    let mut p = 0;
    while b != 0 {
        if b & 1 != 0 {
            p ^= a;
        }
        let hi = a & 0x80;
        a <<= 1;
        if hi != 0 {
            a ^= 0x1b;
        }
        b >>= 1;
    }
    p
}

/// The AES S-box computed from its definition (inverse in GF(2^8), then the affine map).
pub fn sbox(x: u8) -> u8 {
    let inv = if x == 0 {
        0
    } else {
        (1..=255u8).find(|&y| gmul(x, y) == 1).unwrap()
    };
    inv ^ inv.rotate_left(1) ^ inv.rotate_left(2) ^ inv.rotate_left(3) ^ inv.rotate_left(4) ^ 0x63
}

/// Reference `AESL` = MixColumns(ShiftRows(SubBytes(x))) on one block.
pub fn aesl_ref(x: &[u8; 16]) -> [u8; 16] {
    let s: Vec<u8> = x.iter().map(|&b| sbox(b)).collect();
    let mut sr = [0u8; 16];
    for c in 0..4 {
        for r in 0..4 {
            sr[4 * c + r] = s[4 * ((c + r) % 4) + r];
        }
    }
    let mut out = [0u8; 16];
    for c in 0..4 {
        let a = &sr[4 * c..4 * c + 4];
        for r in 0..4 {
            out[4 * c + r] =
                gmul(a[r], 2) ^ gmul(a[(r + 1) % 4], 3) ^ a[(r + 2) % 4] ^ a[(r + 3) % 4];
        }
    }
    out
}

/// Bytes produced by [`Program`].
pub type Trace = Vec<u8>;

/// Runs every `Lanes` operation on three inputs and records all results.
pub struct Program<const N: usize> {
    pub a: [u8; 64],
    pub b: [u8; 64],
    pub c: [u8; 64],
}

impl<const N: usize> LaneOp for Program<N> {
    const LANES: usize = N;
    type Output = Trace;

    #[inline(always)]
    fn run<L: Lanes>(self) -> Trace {
        assert_eq!(L::LANES, N);
        let x = L::load(&self.a);
        let y = L::load(&self.b);
        let z = L::load(&self.c);
        let block: [u8; 16] = self.c[..16].try_into().unwrap();
        let bc = L::broadcast(&block);
        let words: [u64; 8] = core::array::from_fn(|i| {
            u64::from_le_bytes(self.b[8 * i..8 * i + 8].try_into().unwrap())
        });
        let results = [
            x,
            x.xor(y),
            x.and(y),
            x.xor3(y, z),
            x.xor_late(y, z),
            x.aes_round(y),
            x.xor(y).aesl(),
            x.aesl(),
            bc,
            L::zero(),
            L::first_lane(&block),
            L::from_words(&words),
            L::from_words(&x.aes_round(z).to_words()),
            x.aes_round_last(y),
            x.aes128_key_step(0x01),
            y.aes128_key_step(0x1b).aes128_key_step(0x36),
            // A chain of rounds mixing every operation.
            x.aes_round(y)
                .xor(z)
                .aesl()
                .xor3(bc, x)
                .and(y.aesl())
                .aes_round(z),
        ];
        let sliced = L::transpose_words([x, y, z, bc]);
        let stepped = L::aes128_key_step_sliced(sliced, 0x80);
        let back = L::transpose_words(L::aes128_key_step_sliced(stepped, 0x1b));
        let shifted = (1..L::LANES).map(|n| L::shift_blocks(x, y, n));
        let mut out = Vec::new();
        let mut buf = [0u8; 64];
        let all = results.into_iter().chain(shifted);
        for r in all.chain(sliced).chain(stepped).chain(back) {
            r.store(&mut buf);
            out.extend_from_slice(&buf[..L::BYTES]);
            out.extend_from_slice(&r.fold_xor());
            for l in 0..L::LANES {
                out.extend_from_slice(&r.lane(l));
            }
            for w in r.to_words() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        // Many rounds in a row (checks that values survive long dependency chains).
        let mut s = x;
        for _ in 0..100 {
            s = s.aes_round(y);
        }
        s.store(&mut buf);
        out.extend_from_slice(&buf[..L::BYTES]);
        out
    }
}

/// AES-128 encryption of each lane's block under that lane's key, from the lane operations.
pub struct Aes128<const N: usize> {
    pub keys: [u8; 64],
    pub blocks: [u8; 64],
}

/// The AES-128 round constants of key-schedule steps 1..=10.
pub const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

impl<const N: usize> LaneOp for Aes128<N> {
    const LANES: usize = N;
    type Output = [u8; 64];

    #[inline(always)]
    fn run<L: Lanes>(self) -> [u8; 64] {
        let mut k = L::load(&self.keys);
        let mut x = L::load(&self.blocks).xor(k);
        for (i, rcon) in RCON.into_iter().enumerate() {
            k = k.aes128_key_step(rcon);
            x = if i < 9 {
                x.aes_round(k)
            } else {
                x.aes_round_last(k)
            };
        }
        let mut out = [0u8; 64];
        x.store(&mut out);
        out
    }
}

/// Applies `AESL` to each lane.
pub struct Aesl<const N: usize>(pub [u8; 64]);

impl<const N: usize> LaneOp for Aesl<N> {
    const LANES: usize = N;
    type Output = [u8; 64];

    #[inline(always)]
    fn run<L: Lanes>(self) -> [u8; 64] {
        let mut out = [0u8; 64];
        L::load(&self.0).aesl().store(&mut out);
        out
    }
}

/// The whole AES-128 key schedule of `4 × N` keys twice: per key with
/// [`Lanes::aes128_key_step`], and word-sliced with [`Lanes::aes128_key_step_sliced`]
/// (transposed back after each step). Returns both, round key by round key.
pub struct SlicedSchedule<const N: usize> {
    pub keys: [[u8; 64]; 4],
}

impl<const N: usize> LaneOp for SlicedSchedule<N> {
    const LANES: usize = N;
    type Output = (Trace, Trace);

    #[inline(always)]
    fn run<L: Lanes>(self) -> (Trace, Trace) {
        let mut k = [
            L::load(&self.keys[0]),
            L::load(&self.keys[1]),
            L::load(&self.keys[2]),
            L::load(&self.keys[3]),
        ];
        let mut w = L::transpose_words(k);
        let (mut per_key, mut sliced) = (Vec::new(), Vec::new());
        let mut buf = [0u8; 64];
        for rcon in RCON {
            w = L::aes128_key_step_sliced(w, rcon);
            for (i, back) in L::transpose_words(w).into_iter().enumerate() {
                k[i] = k[i].aes128_key_step(rcon);
                k[i].store(&mut buf);
                per_key.extend_from_slice(&buf[..L::BYTES]);
                back.store(&mut buf);
                sliced.extend_from_slice(&buf[..L::BYTES]);
            }
        }
        (per_key, sliced)
    }
}

/// Bytes `seed, seed + 7, …` (wrapping).
pub fn bytes(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| seed.wrapping_add((i as u8).wrapping_mul(7)))
        .collect()
}

/// A HiAE state of sixteen `L` values from `16 · BYTES` bytes.
pub fn state_of<L: Lanes>(b: &[u8]) -> [L; 16] {
    core::array::from_fn(|i| L::load(&b[i * L::BYTES..]))
}

/// The bytes of `s`, value after value.
pub fn bytes_of<L: Lanes>(s: &[L]) -> Vec<u8> {
    let mut out = vec![0u8; s.len() * L::BYTES];
    for (i, w) in s.iter().enumerate() {
        w.store(&mut out[i * L::BYTES..]);
    }
    out
}
