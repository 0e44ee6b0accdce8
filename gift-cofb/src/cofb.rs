//! The COFB mode on top of GIFT-128, one message at a time.
//!
//! Blocks are handled as four big-endian words; the 64-bit mask `L` is kept
//! as a `u64` whose high half XORs into word 0 and low half into word 1.
//! Lengths are public; everything that depends on the key, nonce or data is
//! branch-free.

use aead::inout::InOutBuf;
use subtle::ConstantTimeEq;

use crate::backends::Kernel;
use crate::gift128::{self, RoundKeys, block_to_words, words_to_block};
use crate::words::{SingleLane, Words};

/// A block as four big-endian words.
pub(crate) type Words4 = [u32; 4];

/// `2·L` in GF(2^64) modulo x^64 + x^4 + x^3 + x + 1, without branches.
#[inline(always)]
pub(crate) fn double(l: u64) -> u64 {
    (l << 1) ^ (0x1b & (l >> 63).wrapping_neg())
}

/// `3·L = 2·L ⊕ L`.
#[inline(always)]
pub(crate) fn triple(l: u64) -> u64 {
    double(l) ^ l
}

/// The first eight bytes of `y` as `L`.
#[inline(always)]
pub(crate) fn mask_from(y: &Words4) -> u64 {
    (u64::from(y[0]) << 32) | u64::from(y[1])
}

/// `block ⊕ L` (in the first eight bytes).
#[inline(always)]
pub(crate) fn add_mask(block: &Words4, l: u64) -> Words4 {
    [
        block[0] ^ (l >> 32) as u32,
        block[1] ^ l as u32,
        block[2],
        block[3],
    ]
}

#[inline(always)]
pub(crate) fn xor4(a: &Words4, b: &Words4) -> Words4 {
    [a[0] ^ b[0], a[1] ^ b[1], a[2] ^ b[2], a[3] ^ b[3]]
}

/// `x || 0x80 || 0…` for a partial (or empty) final block, `x.len() < 16`.
#[inline(always)]
pub(crate) fn padded(x: &[u8]) -> [u8; 16] {
    let mut b = [0u8; 16];
    b[..x.len()].copy_from_slice(x);
    b[x.len()] = 0x80;
    b
}

/// Mask update for the last block of AD or message: ×3 for a full block,
/// ×9 for a padded one.
#[inline(always)]
pub(crate) fn last_mask(l: u64, full: bool) -> u64 {
    let l = triple(l);
    if full { l } else { triple(l) }
}

/// `G(Y) ⊕ x` lane-wise, where `G(Y) = Y_lo || (Y_hi <<< 1)` is COFB's
/// feedback on the word view.
#[inline(always)]
pub(crate) fn feedback_xor<W: Words>(y: &[W; 4], x: &[W; 4]) -> [W; 4] {
    let [y0, y1, y2, y3] = *y;
    [
        y2.xor(x[0]),
        y3.xor(x[1]),
        y0.shl::<1>().or(y1.shr::<31>()).xor(x[2]),
        y1.shl::<1>().or(y0.shr::<31>()).xor(x[3]),
    ]
}

/// One COFB chaining step: `Y ← E(G(Y) ⊕ X ⊕ L)`. `X ⊕ L` is prepared in
/// general-purpose registers (it does not depend on `Y`); only the feedback
/// and the cipher are on the chain from one block to the next.
#[inline(always)]
fn step<W: SingleLane>(rk: &RoundKeys, y: &[W; 4], x: &Words4, l: u64) -> [W; 4] {
    let xl = add_mask(x, l).map(W::from_u32);
    gift128::encrypt::<W>(rk, feedback_xor(y, &xl))
}

#[inline(always)]
fn to_u32s<W: SingleLane>(y: &[W; 4]) -> Words4 {
    y.map(W::to_u32)
}

/// `Y = E(N)`, then the associated data (always at least one block); returns
/// `(Y, L)` ready for the message.
#[inline(always)]
fn start<W: SingleLane>(
    rk: &RoundKeys,
    nonce: &[u8; 16],
    ad: &[u8],
    msg_empty: bool,
) -> ([W; 4], u64) {
    let mut y = gift128::encrypt::<W>(rk, block_to_words(nonce).map(W::from_u32));
    let mut l = mask_from(&to_u32s(&y));
    // All AD blocks but the last one are full; the last one may be full,
    // partial or empty.
    let full_before_last = ad.len().saturating_sub(1) / 16;
    let (body, last) = ad.split_at(16 * full_before_last);
    for chunk in body.chunks_exact(16) {
        let a = block_to_words(chunk.try_into().unwrap_or(&[0; 16]));
        l = double(l);
        y = step(rk, &y, &a, l);
    }
    let a = block_to_words(&padded_or_full(last));
    l = last_mask(l, last.len() == 16);
    if msg_empty {
        l = triple(triple(l));
    }
    y = step(rk, &y, &a, l);
    (y, l)
}

/// Encrypts `buffer` (plaintext in, ciphertext out) and returns the tag.
#[inline(always)]
pub(crate) fn encrypt_with<W: SingleLane>(
    rk: &RoundKeys,
    nonce: &[u8; 16],
    ad: &[u8],
    buffer: InOutBuf<'_, '_, u8>,
) -> [u8; 16] {
    let (mut y, mut l) = start::<W>(rk, nonce, ad, buffer.is_empty());
    if buffer.is_empty() {
        return words_to_block(&to_u32s(&y));
    }
    // The last message block (full or partial) is handled apart from the rest.
    let body_blocks = (buffer.len() - 1) / 16;
    let (body, mut last) = buffer.split_at(16 * body_blocks);
    let (blocks, _) = body.into_chunks::<aead::consts::U16>();
    for mut blk in blocks {
        let m = block_to_words(blk.get_in().as_ref());
        *blk.get_out() = words_to_block(&xor4(&to_u32s(&y), &m)).into();
        l = double(l);
        y = step(rk, &y, &m, l);
    }
    let n = last.len();
    let p = padded_or_full(last.get_in());
    let keystream = words_to_block(&to_u32s(&y));
    for (o, (i, k)) in last.get_out().iter_mut().zip(p.iter().zip(&keystream)) {
        *o = i ^ k;
    }
    l = last_mask(l, n == 16);
    y = step(rk, &y, &block_to_words(&p), l);
    words_to_block(&to_u32s(&y))
}

/// A final block of 0..=16 bytes: as is when full, else padded.
#[inline(always)]
pub(crate) fn padded_or_full(x: &[u8]) -> [u8; 16] {
    match <&[u8; 16]>::try_from(x) {
        Ok(full) => *full,
        Err(_) => padded(x),
    }
}

/// Decrypts `buffer` (ciphertext in, plaintext out) and checks `tag` in
/// constant time. On failure the output is zero-filled and `false` returned.
#[inline(always)]
pub(crate) fn decrypt_with<W: SingleLane>(
    rk: &RoundKeys,
    nonce: &[u8; 16],
    ad: &[u8],
    mut buffer: InOutBuf<'_, '_, u8>,
    tag: &[u8; 16],
) -> bool {
    let (mut y, mut l) = start::<W>(rk, nonce, ad, buffer.is_empty());
    if !buffer.is_empty() {
        let body_blocks = (buffer.len() - 1) / 16;
        let (body, mut last) = buffer.reborrow().split_at(16 * body_blocks);
        let (blocks, _) = body.into_chunks::<aead::consts::U16>();
        for mut blk in blocks {
            let m = xor4(&to_u32s(&y), &block_to_words(blk.get_in().as_ref()));
            *blk.get_out() = words_to_block(&m).into();
            l = double(l);
            y = step(rk, &y, &m, l);
        }
        let n = last.len();
        let keystream = words_to_block(&to_u32s(&y));
        let mut m = [0u8; 16];
        for (o, (c, k)) in m.iter_mut().zip(last.get_in().iter().zip(&keystream)) {
            *o = c ^ k;
        }
        last.get_out().copy_from_slice(&m[..n]);
        let p = padded_or_full(&m[..n]);
        l = last_mask(l, n == 16);
        y = step(rk, &y, &block_to_words(&p), l);
    }
    let ok = tags_equal(&words_to_block(&to_u32s(&y)), tag);
    if !ok {
        buffer.get_out().fill(0);
    }
    ok
}

/// Encryption of one message as a [`Kernel`] (runs with the tier's one-message words).
pub(crate) struct EncryptOne<'k, 'i, 'o> {
    pub(crate) rk: &'k RoundKeys,
    pub(crate) nonce: &'k [u8; 16],
    pub(crate) ad: &'k [u8],
    pub(crate) buffer: InOutBuf<'i, 'o, u8>,
}

impl Kernel for EncryptOne<'_, '_, '_> {
    type Output = [u8; 16];

    #[inline(always)]
    fn run<B: Words, S: SingleLane>(self) -> [u8; 16] {
        encrypt_with::<S>(self.rk, self.nonce, self.ad, self.buffer)
    }
}

/// Decryption of one message as a [`Kernel`]: `true` if the tag verified; otherwise the
/// output is zero-filled before it returns (see [`decrypt_with`]).
pub(crate) struct DecryptOne<'k, 'i, 'o> {
    pub(crate) rk: &'k RoundKeys,
    pub(crate) nonce: &'k [u8; 16],
    pub(crate) ad: &'k [u8],
    pub(crate) buffer: InOutBuf<'i, 'o, u8>,
    pub(crate) tag: &'k [u8; 16],
}

impl Kernel for DecryptOne<'_, '_, '_> {
    type Output = bool;

    #[inline(always)]
    fn run<B: Words, S: SingleLane>(self) -> bool {
        decrypt_with::<S>(self.rk, self.nonce, self.ad, self.buffer, self.tag)
    }
}

/// Whether two 16-byte tags are equal, in constant time: one 128-bit comparison with `subtle`
/// (its byte-slice comparison puts every byte through an optimization barrier, which costs as
/// much as a short message).
pub(crate) fn tags_equal(a: &[u8; 16], b: &[u8; 16]) -> bool {
    u128::from_le_bytes(*a)
        .ct_eq(&u128::from_le_bytes(*b))
        .into()
}
