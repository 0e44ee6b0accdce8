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
//! A state can be written to bytes and rebuilt from them ([`State::to_bytes`],
//! [`State::from_bytes`]): sixteen blocks of `16 × LANES` bytes, block `i` of lane `l` at byte
//! `16 · (i · LANES + l)`, [`State::BYTES`] in all. That is the layout of libhiae's
//! `HiAE_state_t` family, so a state can live in memory that C code owns. The lanes of the
//! wide variants are independent HiAE states after `Init`: the 16-byte blocks of one lane,
//! in order, form a one-lane [`State`].
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

use aead::inout::InOutBuf;
use aes_lanes::Token;

use crate::ops::{End, StreamCore};
use crate::{Backend, Unavailable, Variant};

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
    /// Bytes of the serialized state: `256 × LANES` (sixteen blocks of
    /// [`Variant::BLOCK_SIZE`] bytes).
    pub const BYTES: usize = 16 * V::BLOCK_SIZE;

    /// `Init(key, nonce)` with `cipher`'s key and backend.
    pub fn new(cipher: &V, nonce: &[u8; 16]) -> Self {
        Self::init(cipher.token(), cipher.key_bytes(), nonce)
    }

    /// `Init(key, nonce)` on `backend`, without a cipher instance.
    ///
    /// # Errors
    /// If this CPU (or build) cannot run `backend`.
    pub fn new_with_backend(
        key: &[u8; 32],
        nonce: &[u8; 16],
        backend: Backend,
    ) -> Result<Self, Unavailable> {
        Ok(Self::init(backend.token()?, key, nonce))
    }

    fn init(token: Token, key: &[u8; 32], nonce: &[u8; 16]) -> Self {
        State {
            core: StreamCore::new::<V>(token, key, nonce),
            token,
            _v: PhantomData,
        }
    }

    /// Rebuilds a state from the [`BYTES`](Self::BYTES) bytes [`to_bytes`](Self::to_bytes)
    /// wrote (on any backend: the layout is the same on all), to run on `backend`.
    ///
    /// ```
    /// use hiae::{Backend, HiaeX2, hazmat::State};
    ///
    /// let mut st = State::<HiaeX2>::new_with_backend(&[1; 32], &[2; 16], Backend::Portable).unwrap();
    /// st.absorb(&[3; 32]);
    /// let mut bytes = [0u8; State::<HiaeX2>::BYTES];
    /// st.to_bytes(&mut bytes);
    /// let back = State::<HiaeX2>::from_bytes(&bytes, Backend::detect()).unwrap();
    /// assert_eq!(back.finalize(32, 0), st.finalize(32, 0));
    /// ```
    ///
    /// # Errors
    /// If this CPU (or build) cannot run `backend`.
    ///
    /// # Panics
    /// If `bytes.len()` is not [`BYTES`](Self::BYTES).
    pub fn from_bytes(bytes: &[u8], backend: Backend) -> Result<Self, Unavailable> {
        assert_eq!(
            bytes.len(),
            Self::BYTES,
            "a serialized state has BYTES bytes"
        );
        Ok(State {
            core: StreamCore::from_bytes(bytes),
            token: backend.token()?,
            _v: PhantomData,
        })
    }

    /// Writes the state to `out` (see the [module docs](self) for the layout).
    ///
    /// # Panics
    /// If `out.len()` is not [`BYTES`](Self::BYTES).
    pub fn to_bytes(&self, out: &mut [u8]) {
        assert_eq!(out.len(), Self::BYTES, "a serialized state has BYTES bytes");
        out.copy_from_slice(&self.core.state[..Self::BYTES]);
    }

    /// The backend this state runs on.
    pub fn backend(&self) -> Backend {
        self.token.backend()
    }

    /// Encrypts (`decrypt = false`) or decrypts `buf`, input side to output side; a final
    /// partial block is absorbed, zero-padded, in the same call (so nothing is left pending
    /// between calls).
    fn crypt(&mut self, buf: InOutBuf<'_, '_, u8>, decrypt: bool) {
        let token = crate::crypt_token(self.token, V::LANES, buf.len(), decrypt);
        // The block API has no associated-data phase to end: nothing is pending here.
        self.core.pending.in_msg = true;
        self.core.crypt::<V>(token, buf, decrypt, true);
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
        self.enc_inout(blocks.into());
    }

    /// Encrypts whole blocks from the input side of `blocks` to its output side.
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of [`Variant::BLOCK_SIZE`].
    pub fn enc_inout(&mut self, blocks: InOutBuf<'_, '_, u8>) {
        Self::check_blocks(blocks.len());
        self.crypt(blocks, false);
    }

    /// Decrypts whole blocks in place (`UpdateDec`).
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of [`Variant::BLOCK_SIZE`].
    pub fn dec(&mut self, blocks: &mut [u8]) {
        self.dec_inout(blocks.into());
    }

    /// Decrypts whole blocks from the input side of `blocks` to its output side.
    ///
    /// # Panics
    /// If `blocks.len()` is not a multiple of [`Variant::BLOCK_SIZE`].
    pub fn dec_inout(&mut self, blocks: InOutBuf<'_, '_, u8>) {
        Self::check_blocks(blocks.len());
        self.crypt(blocks, true);
    }

    /// Encrypts a final partial block (fewer than [`Variant::BLOCK_SIZE`] bytes) in place:
    /// `UpdateEnc` of the zero-padded block, of which the first `tail.len()` bytes are kept.
    /// An empty slice does nothing.
    ///
    /// # Panics
    /// If `tail.len() >= BLOCK_SIZE`.
    pub fn enc_partial(&mut self, tail: &mut [u8]) {
        assert!(tail.len() < V::BLOCK_SIZE, "partial block too long");
        self.crypt(tail.into(), false);
    }

    /// Decrypts a final partial block in place; the state absorbs the zero-padded
    /// *plaintext* (spec §5). An empty slice does nothing.
    ///
    /// # Panics
    /// If `tail.len() >= BLOCK_SIZE`.
    pub fn dec_partial(&mut self, tail: &mut [u8]) {
        assert!(tail.len() < V::BLOCK_SIZE, "partial block too long");
        self.crypt(tail.into(), true);
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
