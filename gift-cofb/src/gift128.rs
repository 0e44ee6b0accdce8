//! Fixsliced GIFT-128 (GIFT-COFB's bitsliced convention) on 32-bit words.
//!
//! The state is four big-endian words `s0..s3`. Each group of five rounds uses
//! word-local rotations and bit moves instead of GIFT's full bit permutation;
//! the rest of the permutation is folded into the precomputed round keys and
//! constants, and after every fifth round the state is back in the standard
//! representation (Adomnicai–Peyrin fixslicing). Encryption runs 8 such groups.
//!
//! Constant time: only AND/OR/XOR/NOT, fixed shifts and rotations; no table
//! is indexed by secret data and no branch depends on it.

use crate::words::Words;

/// Number of 32-bit round-key words (two per round, 40 rounds).
pub(crate) const RK_WORDS: usize = 80;

/// Fixsliced round constants, five per group (already containing GIFT's
/// `0x80000000` bit at its fixsliced position).
const RCF: [u32; 40] = [
    0x1000_0008,
    0x8001_8000,
    0x5400_0002,
    0x0101_0181,
    0x8000_001f,
    0x1088_8880,
    0x6001_e000,
    0x5150_0002,
    0x0303_0180,
    0x8000_002f,
    0x1008_8880,
    0x6001_6000,
    0x4150_0002,
    0x0303_0080,
    0x8000_0027,
    0x1000_8880,
    0x4001_e000,
    0x1150_0002,
    0x0302_0180,
    0x8000_002b,
    0x1008_0880,
    0x6001_4000,
    0x0140_0002,
    0x0202_0080,
    0x8000_0021,
    0x1000_0080,
    0x0001_c000,
    0x5100_0002,
    0x0301_0180,
    0x8000_002e,
    0x1008_8800,
    0x6001_2000,
    0x4050_0002,
    0x0103_0080,
    0x8000_0006,
    0x1000_8808,
    0xc001_a000,
    0x1450_0002,
    0x0102_0181,
    0x8000_001a,
];

/// The full fixsliced key schedule: 80 words, computed once per key.
#[derive(Clone)]
pub(crate) struct RoundKeys {
    pub(crate) rk: [u32; RK_WORDS],
}

#[inline(always)]
const fn swapmove(x: u32, m: u32, n: u32) -> u32 {
    let t = ((x >> n) ^ x) & m;
    x ^ t ^ (t << n)
}

/// Rounds 11..40 of the schedule: one block of ten words from the block of
/// ten words two groups earlier.
#[inline]
fn derive(p: &[u32]) -> [u32; 10] {
    let n0 = swapmove(swapmove(p[1], 0x0000_3333, 16), 0x5555_4444, 1);
    let n1 = swapmove(
        (p[0] & 0x3333_3333).rotate_left(8) | (p[0] & 0xcccc_cccc).rotate_left(16),
        0x5555_1100,
        1,
    );
    let n2 = ((p[3] >> 4) & 0x0f00_0f00)
        | ((p[3] & 0x0f00_0f00) << 4)
        | ((p[3] >> 6) & 0x0003_0003)
        | ((p[3] & 0x003f_003f) << 2);
    let n3 = ((p[2] >> 6) & 0x0300_0300)
        | ((p[2] & 0x3f00_3f00) << 2)
        | ((p[2] >> 5) & 0x0007_0007)
        | ((p[2] & 0x001f_001f) << 3);
    let n4 = (p[5] & 0xaaaa_aaaa).rotate_left(8) | (p[5] & 0x5555_5555).rotate_left(16);
    let n5 = (p[4] & 0x5555_5555).rotate_left(8) | (p[4] & 0xaaaa_aaaa).rotate_left(12);
    let n6 = ((p[7] >> 2) & 0x0303_0303)
        | ((p[7] & 0x0303_0303) << 2)
        | ((p[7] >> 1) & 0x7070_7070)
        | ((p[7] & 0x1010_1010) << 3);
    let n7 = ((p[6] >> 18) & 0x0000_3030)
        | ((p[6] & 0x0101_0101) << 3)
        | ((p[6] >> 14) & 0x0000_c0c0)
        | ((p[6] & 0x0000_e0e0) << 15)
        | ((p[6] >> 1) & 0x0707_0707)
        | ((p[6] & 0x0000_1010) << 19);
    let n8 = ((p[9] >> 4) & 0x0fff_0000)
        | ((p[9] & 0x000f_0000) << 12)
        | ((p[9] >> 8) & 0x0000_00ff)
        | ((p[9] & 0x0000_00ff) << 8);
    let n9 = ((p[8] >> 6) & 0x03ff_0000)
        | ((p[8] & 0x003f_0000) << 10)
        | ((p[8] >> 4) & 0x0000_0fff)
        | ((p[8] & 0x0000_000f) << 12);
    [n0, n1, n2, n3, n4, n5, n6, n7, n8, n9]
}

impl RoundKeys {
    /// Expands a 16-byte key into the 80 fixsliced round-key words.
    pub(crate) fn new(key: &[u8; 16]) -> Self {
        let w = |i: usize| u32::from_be_bytes([key[i], key[i + 1], key[i + 2], key[i + 3]]);
        let (k0, k1, k2, k3) = (w(0), w(4), w(8), w(12));
        let mut rk = [0u32; RK_WORDS];
        rk[0] = k3;
        rk[1] = k1;
        rk[2] = k2;
        rk[3] = k0;
        let mut i = 4;
        while i < 20 {
            rk[i] = rk[i - 3];
            let t = rk[i - 4];
            rk[i + 1] = ((t & 0xfffc_0000) >> 2)
                | ((t & 0x0003_0000) << 14)
                | ((t & 0x0000_0fff) << 4)
                | ((t & 0x0000_f000) >> 12);
            i += 2;
        }
        // Rounds 1..10 into fixsliced form: per round position q (0..3), the
        // swap-moves that realign the key bits, applied to both words of that
        // round in the first and in the second group.
        const ALIGN: [[(u32, u32); 4]; 4] = [
            [
                (0x0055_0055, 9),
                (0x000f_000f, 12),
                (0x0000_3333, 18),
                (0x0000_00ff, 24),
            ],
            [
                (0x1111_1111, 3),
                (0x0303_0303, 6),
                (0x000f_000f, 12),
                (0x0000_00ff, 24),
            ],
            [
                (0x0000_aaaa, 15),
                (0x0000_3333, 18),
                (0x0000_f0f0, 12),
                (0x0000_00ff, 24),
            ],
            [
                (0x0a0a_0a0a, 3),
                (0x00cc_00cc, 6),
                (0x0000_f0f0, 12),
                (0x0000_00ff, 24),
            ],
        ];
        for (q, moves) in ALIGN.iter().enumerate() {
            for base in [0, 10] {
                for word in &mut rk[base + 2 * q..base + 2 * q + 2] {
                    for &(m, n) in moves {
                        *word = swapmove(*word, m, n);
                    }
                }
            }
        }
        for g in 2..8 {
            let next = derive(&rk[10 * g - 20..10 * g - 10]);
            rk[10 * g..10 * g + 10].copy_from_slice(&next);
        }
        // The round functions add each key word *before* the word's linear
        // layer (`lin(x) ^ k == lin(x ^ lin⁻¹(k))`), which lets the
        // single-message S-box absorb it off the critical path.
        for group in rk.chunks_exact_mut(10) {
            group[0] = nibble_swap2(group[0]);
            group[1] = nibble_rotr1(group[1]);
            group[2] = half_swap_bytes(group[2]);
            group[3] = half_rotr4(group[3]);
            group[4] = swapmove(group[4], 0x5555_5555, 1);
            group[5] = swapmove(group[5], 0x0000_5555, 1).rotate_left(16);
            group[6] = byte_swap_nibbles(group[6]);
            group[7] = byte_rotl2(group[7]);
            group[8] = group[8].rotate_left(16);
            group[9] = group[9].rotate_left(8);
        }
        Self { rk }
    }
}

#[cfg(feature = "zeroize")]
impl Drop for RoundKeys {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.rk.zeroize();
    }
}

/// GIFT's 4-bit S-box on 32 bit positions at once, without the final swap of
/// the first and last word (fixslicing swaps their roles instead), followed
/// by the round-key words `kb` and `kc` added to `b` and `c`.
///
/// Two equivalent formulations, chosen by [`Words::LATENCY_BOUND`]: the
/// textbook sequence (11 operations, for throughput-bound lanes) and a
/// re-associated one for latency-bound code (more operations, but every
/// output is at most 6 dependent operations after the inputs instead of 10,
/// and the key words are added off the critical path).
#[inline(always)]
fn sbox<V: Words>(a: &mut V, b: &mut V, c: &mut V, d: &mut V, kb: u32, kc: u32) {
    if V::LATENCY_BOUND {
        let b1 = b.xor(a.and(*c));
        let a1 = a.xor(b1.and(*d));
        let t = a1.or(b1);
        let b2 = d.xor(*c).xor_splat(kb).xor(b1).xor(t);
        let d2 = d.xor(*c).not().xor(t);
        let c2 = c.xor(b1).xor_splat(kc).xor(a1.and(c.xor(*d)));
        (*a, *b, *c, *d) = (a1, b2, c2, d2);
        return;
    }
    *b = b.xor(a.and(*c));
    *a = a.xor(b.and(*d));
    *c = c.xor(a.or(*b));
    *d = d.xor(*c);
    *b = b.xor(*d);
    *d = d.not();
    *c = c.xor(a.and(*b));
    *b = b.xor_splat(kb);
    *c = c.xor_splat(kc);
}

/// Inverse of [`sbox`] (same word roles).
#[inline(always)]
fn sbox_inv<V: Words>(a: &mut V, b: &mut V, c: &mut V, d: &mut V) {
    *c = c.xor(a.and(*b));
    *d = d.not();
    *b = b.xor(*d);
    *d = d.xor(*c);
    *c = c.xor(a.or(*b));
    *a = a.xor(b.and(*d));
    *b = b.xor(a.and(*c));
}

// Word-local bit moves of the five fixsliced rounds, named by what they do.

/// Swaps the two 2-bit halves of every nibble (an involution).
#[inline(always)]
fn nibble_swap2<V: Words>(x: V) -> V {
    x.move2::<2, 2>(0x3333_3333, 0x3333_3333)
}
/// Rotates every nibble left by one bit.
#[inline(always)]
fn nibble_rotl1<V: Words>(x: V) -> V {
    x.move2::<3, 1>(0x1111_1111, 0x7777_7777)
}
/// Rotates every nibble right by one bit.
#[inline(always)]
fn nibble_rotr1<V: Words>(x: V) -> V {
    x.move2::<1, 3>(0x7777_7777, 0x1111_1111)
}
/// Rotates each 16-bit half right by four bits.
#[inline(always)]
fn half_rotr4<V: Words>(x: V) -> V {
    x.move2::<4, 12>(0x0fff_0fff, 0x000f_000f)
}
/// Swaps the bytes of each 16-bit half (an involution).
#[inline(always)]
fn half_swap_bytes<V: Words>(x: V) -> V {
    x.move2::<8, 8>(0x00ff_00ff, 0x00ff_00ff)
}
/// Rotates each 16-bit half left by four bits.
#[inline(always)]
fn half_rotl4<V: Words>(x: V) -> V {
    x.move2::<12, 4>(0x000f_000f, 0x0fff_0fff)
}
/// Rotates every byte left by two bits.
#[inline(always)]
fn byte_rotl2<V: Words>(x: V) -> V {
    x.move2::<6, 2>(0x0303_0303, 0x3f3f_3f3f)
}
/// Swaps the nibbles of every byte (an involution).
#[inline(always)]
fn byte_swap_nibbles<V: Words>(x: V) -> V {
    x.move2::<4, 4>(0x0f0f_0f0f, 0x0f0f_0f0f)
}
/// Rotates every byte right by two bits.
#[inline(always)]
fn byte_rotr2<V: Words>(x: V) -> V {
    x.move2::<2, 6>(0x3f3f_3f3f, 0x0303_0303)
}

/// Round 3's moves on `s2` and `s3`: `swapmove(rotl(x, 16), m, 1)`. The
/// latency-bound path writes it as three masked rotations (4 dependent
/// operations instead of 6).
#[inline(always)]
fn rot16_swapmove1<V: Words>(x: V, m: u32) -> V {
    if V::LATENCY_BOUND {
        let keep = !(m | (m << 1));
        x.rotl::<16>()
            .and(V::splat(keep))
            .or(x.rotl::<15>().and(V::splat(m)))
            .or(x.rotl::<17>().and(V::splat(m << 1)))
    } else {
        x.rotl::<16>().swapmove::<1>(m)
    }
}

/// Inverse of [`rot16_swapmove1`].
#[inline(always)]
fn swapmove1_rot16<V: Words>(x: V, m: u32) -> V {
    x.swapmove::<1>(m).rotl::<16>()
}

/// Swaps the bits of every pair (an involution).
#[inline(always)]
fn pair_swap<V: Words>(x: V) -> V {
    x.move2::<1, 1>(0x5555_5555, 0x5555_5555)
}

/// Five fixsliced rounds; `k` holds this group's ten round-key words (in
/// pre-linear-layer form) and `c` its five constants.
#[inline(always)]
fn group<V: Words>(s: &mut [V; 4], k: &[u32; 10], c: &[u32; 5]) {
    let [mut s0, mut s1, mut s2, mut s3] = *s;

    sbox(&mut s0, &mut s1, &mut s2, &mut s3, k[0], k[1]);
    s1 = nibble_swap2(s1);
    s2 = nibble_rotl1(s2);
    s3 = nibble_rotr1(s3);
    s0 = s0.xor_splat(c[0]);

    sbox(&mut s3, &mut s1, &mut s2, &mut s0, k[2], k[3]);
    s0 = half_rotr4(s0);
    s1 = half_swap_bytes(s1);
    s2 = half_rotl4(s2);
    s3 = s3.xor_splat(c[1]);

    sbox(&mut s0, &mut s1, &mut s2, &mut s3, k[4], k[5]);
    s1 = pair_swap(s1);
    s2 = rot16_swapmove1(s2, 0x0000_5555);
    s3 = rot16_swapmove1(s3, 0x5555_0000);
    s0 = s0.xor_splat(c[2]);

    sbox(&mut s3, &mut s1, &mut s2, &mut s0, k[6], k[7]);
    s0 = byte_rotl2(s0);
    s1 = byte_swap_nibbles(s1);
    s2 = byte_rotr2(s2);
    s3 = s3.xor_splat(c[3]);

    sbox(&mut s0, &mut s1, &mut s2, &mut s3, k[8], k[9]);
    s1 = s1.rotl::<16>();
    s2 = s2.rotl::<24>();
    s3 = s3.rotl::<8>();
    s0 = s0.xor_splat(c[4]);

    *s = [s3, s1, s2, s0];
}

/// Inverse of [`group`].
#[inline(always)]
fn group_inv<V: Words>(s: &mut [V; 4], k: &[u32; 10], c: &[u32; 5]) {
    let [mut s3, mut s1, mut s2, mut s0] = *s;

    s0 = s0.xor_splat(c[4]);
    s1 = s1.rotl::<16>().xor_splat(k[8]);
    s2 = s2.rotl::<8>().xor_splat(k[9]);
    s3 = s3.rotl::<24>();
    sbox_inv(&mut s0, &mut s1, &mut s2, &mut s3);

    s3 = s3.xor_splat(c[3]);
    s0 = byte_rotr2(s0);
    s1 = byte_swap_nibbles(s1).xor_splat(k[6]);
    s2 = byte_rotl2(s2).xor_splat(k[7]);
    sbox_inv(&mut s3, &mut s1, &mut s2, &mut s0);

    s0 = s0.xor_splat(c[2]);
    s1 = pair_swap(s1).xor_splat(k[4]);
    s2 = swapmove1_rot16(s2, 0x0000_5555).xor_splat(k[5]);
    s3 = swapmove1_rot16(s3, 0x5555_0000);
    sbox_inv(&mut s0, &mut s1, &mut s2, &mut s3);

    s3 = s3.xor_splat(c[1]);
    s0 = half_rotl4(s0);
    s1 = half_swap_bytes(s1).xor_splat(k[2]);
    s2 = half_rotr4(s2).xor_splat(k[3]);
    sbox_inv(&mut s3, &mut s1, &mut s2, &mut s0);

    s0 = s0.xor_splat(c[0]);
    s1 = nibble_swap2(s1).xor_splat(k[0]);
    s2 = nibble_rotr1(s2).xor_splat(k[1]);
    s3 = nibble_rotl1(s3);
    sbox_inv(&mut s0, &mut s1, &mut s2, &mut s3);

    *s = [s0, s1, s2, s3];
}

#[inline(always)]
fn group_keys(rk: &[u32; RK_WORDS], g: usize) -> (&[u32; 10], &[u32; 5]) {
    let k = rk[10 * g..10 * g + 10].try_into().unwrap_or(&[0; 10]);
    let c = RCF[5 * g..5 * g + 5].try_into().unwrap_or(&[0; 5]);
    (k, c)
}

/// Encrypts one block per lane (all 40 rounds).
#[inline(always)]
pub(crate) fn encrypt<V: Words>(rk: &RoundKeys, mut s: [V; 4]) -> [V; 4] {
    for g in 0..8 {
        let (k, c) = group_keys(&rk.rk, g);
        group(&mut s, k, c);
    }
    s
}

/// Decrypts one block per lane (all 40 rounds, in reverse).
#[inline(always)]
pub(crate) fn decrypt<V: Words>(rk: &RoundKeys, mut s: [V; 4]) -> [V; 4] {
    for g in (0..8).rev() {
        let (k, c) = group_keys(&rk.rk, g);
        group_inv(&mut s, k, c);
    }
    s
}

/// Big-endian words of a 16-byte block.
#[inline(always)]
pub(crate) fn block_to_words(b: &[u8; 16]) -> [u32; 4] {
    let w = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    [w(0), w(4), w(8), w(12)]
}

/// The 16 bytes of four big-endian words.
#[inline(always)]
pub(crate) fn words_to_block(w: &[u32; 4]) -> [u8; 16] {
    let mut b = [0u8; 16];
    for (chunk, word) in b.chunks_exact_mut(4).zip(w) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(key: [u8; 16], pt: [u8; 16]) -> [u8; 16] {
        let rk = RoundKeys::new(&key);
        words_to_block(&encrypt::<u32>(&rk, block_to_words(&pt)))
    }

    #[test]
    fn check_values() {
        assert_eq!(
            enc([0; 16], [0; 16]),
            [
                0x5e, 0x8e, 0x3a, 0x2e, 0x16, 0x97, 0xa7, 0x7d, 0xcc, 0x0b, 0x89, 0xdc, 0xd9, 0x7a,
                0x64, 0xee
            ]
        );
        let seq: [u8; 16] = core::array::from_fn(|i| i as u8);
        assert_eq!(
            enc(seq, seq),
            [
                0xa9, 0x4a, 0xf7, 0xf9, 0xba, 0x18, 0x1d, 0xf9, 0xb2, 0xb0, 0x0e, 0xb7, 0xdb, 0xfa,
                0x93, 0xdf
            ]
        );
    }

    #[test]
    fn decrypt_inverts() {
        let key: [u8; 16] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let rk = RoundKeys::new(&key);
        let pt = [0x0123_4567, 0x89ab_cdef, 0xdead_beef, 0x0bad_f00d];
        let ct = encrypt::<u32>(&rk, pt);
        assert_eq!(decrypt::<u32>(&rk, ct), pt);
    }
}
