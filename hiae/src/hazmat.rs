//! Low-level block API, like libhiae's `HiAE_init` / `HiAE_absorb` / `HiAE_enc` /
//! `HiAE_dec` / `HiAE_finalize`.
//!
//! ⚠️ Hazardous: nothing here checks nonce uniqueness, the order of calls, or tags. A
//! [`State`] is the raw cipher state; the caller is responsible for calling, in order,
//! [`absorb`](State::absorb) (associated data, whole blocks, zero-padded by the caller),
//! [`enc`](State::enc)/[`dec`](State::dec) (whole blocks), at most one
//! [`enc_partial`](State::enc_partial)/[`dec_partial`](State::dec_partial) for a final
//! partial block, and [`finalize`](State::finalize) with the exact byte lengths. For the
//! wide variants a "block" is `16 × LANES` bytes ([`Variant::BLOCK_SIZE`]).
//!
//! ```
//! use hiae::{Hiae, KeyInit, AeadInOut, hazmat::State};
//!
//! let cipher = Hiae::new(&[1; 32].into());
//! let nonce = [2u8; 16];
//! let mut msg = [3u8; 40];
//! let mut st = State::new(&cipher, &nonce);
//! st.absorb(&[4u8; 16]);
//! let (blocks, tail) = msg.split_at_mut(32);
//! st.enc(blocks);
//! st.enc_partial(tail);
//! let tag = st.finalize(16, 40);
//!
//! let mut one = [3u8; 40];
//! let t = cipher.encrypt_inout_detached(&nonce.into(), &[4u8; 16], one.as_mut_slice().into()).unwrap();
//! assert_eq!((msg, tag), (one, <[u8; 16]>::from(t)));
//! ```

use core::fmt;
use core::marker::PhantomData;

use aes_lanes::Token;

use crate::Variant;
use crate::ops::{End, StreamCore};

/// A raw HiAE / HiAEx2 / HiAEx4 state (the variant is `V`), kept in memory between calls;
/// each call runs one backend dispatch.
pub struct State<V: Variant> {
    core: StreamCore,
    token: Token,
    _v: PhantomData<V>,
}

impl<V: Variant> Clone for State<V> {
    fn clone(&self) -> Self {
        State {
            core: self.core.clone(),
            token: self.token,
            _v: PhantomData,
        }
    }
}

impl<V: Variant> State<V> {
    /// `Init(key, nonce)` with `cipher`'s key and backend.
    pub fn new(cipher: &V, nonce: &[u8; 16]) -> Self {
        State {
            core: StreamCore::new::<V>(cipher.token(), cipher.key_bytes(), nonce),
            token: cipher.token(),
            _v: PhantomData,
        }
    }

    /// Encrypts (`decrypt = false`) or decrypts `buf` in place. The zero-padded plaintext of
    /// a partial block is absorbed by the finalization that must follow it.
    fn crypt(&mut self, buf: &mut [u8], decrypt: bool) {
        let token = if decrypt {
            crate::decrypt_token(self.token, V::LANES, buf.len())
        } else {
            self.token
        };
        // The block API has no associated-data phase to end: nothing is pending here.
        self.core.pending.in_msg = true;
        self.core.crypt::<V>(token, buf.into(), decrypt);
    }

    fn check_blocks(len: usize) {
        assert!(
            len.is_multiple_of(V::BLOCK_SIZE),
            "length must be a multiple of the block size"
        );
    }

    /// Absorbs whole blocks of associated data (`Update`).
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of [`Variant::BLOCK_SIZE`].
    pub fn absorb(&mut self, blocks: &[u8]) {
        Self::check_blocks(blocks.len());
        self.core.absorb::<V>(self.token, blocks);
    }

    /// Encrypts whole blocks in place (`UpdateEnc`).
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of [`Variant::BLOCK_SIZE`].
    pub fn enc(&mut self, blocks: &mut [u8]) {
        Self::check_blocks(blocks.len());
        self.crypt(blocks, false);
    }

    /// Decrypts whole blocks in place (`UpdateDec`).
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of [`Variant::BLOCK_SIZE`].
    pub fn dec(&mut self, blocks: &mut [u8]) {
        Self::check_blocks(blocks.len());
        self.crypt(blocks, true);
    }

    /// Encrypts a final partial block (fewer than [`Variant::BLOCK_SIZE`] bytes, zero-padded
    /// internally) in place. An empty slice does nothing.
    ///
    /// # Panics
    /// If `tail.len() >= BLOCK_SIZE`.
    pub fn enc_partial(&mut self, tail: &mut [u8]) {
        assert!(tail.len() < V::BLOCK_SIZE, "partial block too long");
        self.crypt(tail, false);
    }

    /// Decrypts a final partial block in place; the state absorbs the zero-padded
    /// *plaintext* (spec §5). An empty slice does nothing.
    ///
    /// # Panics
    /// If `tail.len() >= BLOCK_SIZE`.
    pub fn dec_partial(&mut self, tail: &mut [u8]) {
        assert!(tail.len() < V::BLOCK_SIZE, "partial block too long");
        self.crypt(tail, true);
    }

    /// The keystream of the next update, `AESL(S0 ^ S1) ^ S9` per lane, written to the first
    /// [`Variant::BLOCK_SIZE`] bytes of `out` (the state does not change).
    ///
    /// # Panics
    /// If `out` is shorter than `BLOCK_SIZE`.
    pub fn keystream(&mut self, out: &mut [u8]) {
        assert!(out.len() >= V::BLOCK_SIZE, "output too short");
        self.core
            .run::<V>(self.token, None, &[], None, false, End::Keystream(out));
    }

    /// AEAD `Finalize` with the total associated-data and message lengths in **bytes**;
    /// returns the tag.
    pub fn finalize(mut self, ad_len: u64, msg_len: u64) -> [u8; 16] {
        self.core.pending.ad_len = ad_len;
        self.core.pending.msg_len = msg_len;
        self.core.finish::<V>(self.token, false)
    }

    /// MAC finalization with the total data length in bytes (after the data was absorbed,
    /// the last block zero-padded); returns the tag.
    pub fn finalize_mac(mut self, data_len: u64) -> [u8; 16] {
        self.core.pending.ad_len = data_len;
        self.core.finish::<V>(self.token, true)
    }
}

impl<V: Variant> fmt::Debug for State<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("variant", &V::NAME)
            .field("backend", &self.token.backend())
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "zeroize")]
#[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
impl<V: Variant> Drop for State<V> {
    fn drop(&mut self) {
        self.core.wipe();
    }
}
