//! The bytes of a final partial block as 64-bit words, read and written with loads and stores
//! that stay inside the slice.
//!
//! The partial block of a message is combined with the keystream and absorbed as a zero-padded
//! block. Gathered byte by byte into a buffer and loaded from there as a vector, that block was
//! read through a load spanning up to fifteen pending byte stores, which cannot take its data
//! from the store buffer and waits for them to retire, on the dependency chain that leads to
//! the tag. Here the bytes go into general-purpose registers with at most a few loads of 8,
//! 4, 2 and 1 bytes, and [`Lanes::from_words`](aes_lanes::Lanes::from_words) makes the vector
//! from registers. Every branch depends on the length only, which is public.

use aes_lanes::MAX_LANES;

/// Words of a block of up to [`MAX_LANES`] lanes.
pub(crate) const WORDS: usize = 2 * MAX_LANES;

/// `src` (shorter than `8 · k` bytes, `k ≤ WORDS`; `k` a constant after inlining) as
/// little-endian words, zero after its end.
#[inline(always)]
pub(crate) fn read_words(src: &[u8], k: usize) -> [u64; WORDS] {
    debug_assert!(k <= WORDS && src.len() < 8 * k);
    // `8 · k` is a power of two: this tells the optimizer the bound without a branch.
    let n = src.len() % (8 * k);
    let (full, rem) = (n / 8, n % 8);
    let last = if rem == 0 {
        0
    } else if n >= 8 {
        // The last eight bytes of `src`, shifted down to its last `rem` bytes.
        word_at(src, n - 8) >> (8 * (8 - rem))
    } else {
        short_word(src)
    };
    // Every word written at a constant index, so that the array stays in registers: written
    // at the index `full`, it went to the stack, and the vector made from it was loaded from
    // two 8-byte stores, which cannot forward to it.
    let mut w = [0u64; WORDS];
    for (i, x) in w.iter_mut().enumerate().take(k) {
        *x = if i < full {
            word_at(src, 8 * i)
        } else if i == full {
            last
        } else {
            0
        };
    }
    w
}

/// Writes the first `dst.len()` (less than `8 · k`, as in [`read_words`]) bytes of the
/// little-endian words `w` to `dst`.
#[inline(always)]
pub(crate) fn write_words(dst: &mut [u8], w: &[u64; WORDS], k: usize) {
    debug_assert!(k <= WORDS && dst.len() < 8 * k);
    let n = dst.len() % (8 * k);
    let dst = &mut dst[..n];
    let full = n / 8;
    for (i, x) in w.iter().enumerate().take(full) {
        dst[8 * i..8 * i + 8].copy_from_slice(&x.to_le_bytes());
    }
    let rem = n % 8;
    if rem == 0 {
        return;
    }
    if n >= 8 {
        // Eight bytes ending at the end of `dst`: the last `8 - rem` bytes of word
        // `full - 1` (written above already, with the same values), then the `rem` bytes of
        // word `full`.
        let x = (w[full - 1] >> (8 * rem)) | (w[full] << (8 * (8 - rem)));
        dst[n - 8..].copy_from_slice(&x.to_le_bytes());
    } else {
        let x = w[0];
        let mut i = 0;
        if n & 4 != 0 {
            dst[..4].copy_from_slice(&(x as u32).to_le_bytes());
            i = 4;
        }
        if n & 2 != 0 {
            dst[i..i + 2].copy_from_slice(&((x >> (8 * i)) as u16).to_le_bytes());
            i += 2;
        }
        if n & 1 != 0 {
            dst[i] = (x >> (8 * i)) as u8;
        }
    }
}

/// Keeps the first `n` bytes (`n < 8 · k`, as in [`read_words`]) of the words `w[..k]`,
/// zeroes the rest of them. No branch: the mask of word `i` is computed from `n`.
#[inline(always)]
pub(crate) fn keep_bytes(w: &mut [u64; WORDS], n: usize, k: usize) {
    let n = n % (8 * k);
    for (i, x) in w.iter_mut().enumerate().take(k) {
        let have = n.saturating_sub(8 * i).min(8) as u32;
        // `have` bytes of ones: 2^(8·have) − 1, without a shift by 64.
        let mask = (1u64.checked_shl(8 * have).unwrap_or(0)).wrapping_sub(1);
        *x &= mask;
    }
}

/// Word by word, `a` where `pick_a`, else `b`, without a branch (the choice is public; a
/// branch here made the register allocator join two copies of the following update).
#[inline(always)]
pub(crate) fn select_words(pick_a: bool, a: &[u64; WORDS], b: &[u64; WORDS]) -> [u64; WORDS] {
    let m = 0u64.wrapping_sub(u64::from(pick_a));
    let mut out = [0u64; WORDS];
    for (o, (x, y)) in out.iter_mut().zip(a.iter().zip(b)) {
        *o = (x & m) | (y & !m);
    }
    out
}

/// The eight bytes of `src` at `at`, little-endian.
#[inline(always)]
fn word_at(src: &[u8], at: usize) -> u64 {
    let b = &src[at..at + 8];
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// `src` (fewer than 8 bytes) as a little-endian word.
#[inline(always)]
fn short_word(src: &[u8]) -> u64 {
    let n = src.len();
    let mut x = 0u64;
    let mut i = 0;
    if n & 4 != 0 {
        x = u32::from_le_bytes([src[0], src[1], src[2], src[3]]) as u64;
        i = 4;
    }
    if n & 2 != 0 {
        x |= (u16::from_le_bytes([src[i], src[i + 1]]) as u64) << (8 * i);
        i += 2;
    }
    if n & 1 != 0 {
        x |= (src[i] as u64) << (8 * i);
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_every_length() {
        let data: [u8; 8 * WORDS] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5a);
        for n in 0..8 * WORDS {
            let k = [2, 4, 8].into_iter().find(|k| n < 8 * k).unwrap();
            let w = read_words(&data[..n], k);
            let mut expect = [0u8; 8 * WORDS];
            expect[..n].copy_from_slice(&data[..n]);
            for (i, x) in w.iter().enumerate() {
                assert_eq!(
                    x.to_le_bytes(),
                    expect[8 * i..8 * i + 8],
                    "read, length {n}"
                );
            }
            let mut out = [0xeeu8; 8 * WORDS + 1];
            write_words(&mut out[..n], &w, k);
            assert_eq!(out[..n], data[..n], "write, length {n}");
            assert!(
                out[n..].iter().all(|&b| b == 0xee),
                "write past the end, length {n}"
            );
            let mut m = [u64::MAX; WORDS];
            keep_bytes(&mut m, n, WORDS);
            assert_eq!(select_words(true, &w, &m), w);
            assert_eq!(select_words(false, &w, &m), m);
            for i in 0..8 * WORDS {
                let b = (m[i / 8] >> (8 * (i % 8))) as u8;
                assert_eq!(
                    b,
                    if i < n { 0xff } else { 0 },
                    "mask, length {n}, byte {i}"
                );
            }
        }
    }
}
