//! [`LeMacGeneric`]: the streaming MAC and its `digest` trait implementations.

use core::fmt;

use aes_lanes::{Backend, Unavailable};
use digest::common::{Iv, IvSizeUser, KeyIvInit, KeySizeUser};
use digest::consts::U16;
use digest::{
    FixedOutput, FixedOutputReset, Key, KeyInit, MacMarker, Output, OutputSizeUser, Reset, Update,
};

use crate::key::LeMacKeyGeneric;
use crate::state::{AbsorbOp, NonceIn, Output as Out, StateBytes, chunk_len};
use crate::width::sealed::Ops;
use crate::{Nonce, Supported, Tag, Width};

/// Streaming LeMac on `D` lanes (use the aliases [`LeMac`](crate::LeMac),
/// [`LeMacX2`](crate::LeMacX2), [`LeMacX4`](crate::LeMacX4)).
///
/// Holds a copy of the key context, the nonce mask, the state registers and up to one chunk
/// (`64·D` bytes) of pending input. Implements [`digest::Mac`] (through `Update`,
/// `FixedOutput`, `MacMarker`), `KeyInit`, `KeyIvInit` (key + nonce), `Reset`,
/// `FixedOutputReset`; cloning and resetting are plain copies.
#[derive(Clone)]
pub struct LeMacGeneric<const D: usize> {
    key: LeMacKeyGeneric<D>,
    /// `N ^ E_k2(N)` of the nonce given at construction.
    mask: [u8; 16],
    state: StateBytes<D>,
    /// Pending input, always shorter than a chunk between calls.
    buf: [[u8; 64]; D],
    buf_len: usize,
}

impl<const D: usize> LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    /// A MAC for `key` and `nonce`, on the fastest backend.
    pub fn new_with_nonce(key: &[u8; 16], nonce: &Nonce) -> Self {
        Self::from_key_nonce(LeMacKeyGeneric::new(key), nonce)
    }

    /// A MAC for `key` with the all-zero nonce, on a chosen backend.
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU (or this build) cannot run `backend`.
    pub fn new_with_backend(key: &[u8; 16], backend: Backend) -> Result<Self, Unavailable> {
        Ok(Self::from_key(LeMacKeyGeneric::new_with_backend(
            key, backend,
        )?))
    }

    /// A MAC with the all-zero nonce from an expanded key.
    pub fn from_key(key: LeMacKeyGeneric<D>) -> Self {
        let mask = key.m.zero_mask;
        Self::with_mask(key, mask)
    }

    /// A MAC with `nonce` from an expanded key.
    pub fn from_key_nonce(key: LeMacKeyGeneric<D>, nonce: &Nonce) -> Self {
        let mask = key.nonce_mask(nonce);
        Self::with_mask(key, mask)
    }

    fn with_mask(key: LeMacKeyGeneric<D>, mask: [u8; 16]) -> Self {
        let state = key.m.initial_state();
        LeMacGeneric {
            key,
            mask,
            state,
            buf: [[0; 64]; D],
            buf_len: 0,
        }
    }

    /// The expanded key inside.
    pub fn key(&self) -> &LeMacKeyGeneric<D> {
        &self.key
    }

    /// The backend this instance runs on.
    pub fn backend(&self) -> Backend {
        self.key.backend()
    }

    /// The name of the backend this instance runs on, e.g. `"VAES-AVX512"`.
    pub fn implementation_name(&self) -> &'static str {
        self.key.implementation_name()
    }

    /// Absorbs `data` (any length; whole chunks go straight from `data` to the rounds): what
    /// [`Update::update`] runs.
    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        let chunk = chunk_len(D);
        let mut head: &[u8] = &[];
        if self.buf_len > 0 {
            let take = (chunk - self.buf_len).min(data.len());
            let buf = self.buf.as_flattened_mut();
            buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < chunk {
                return;
            }
            self.buf_len = 0;
            head = self.buf.as_flattened();
        }
        let cut = data.len() - data.len() % chunk;
        let (body, rest) = data.split_at(cut);
        if !head.is_empty() || !body.is_empty() {
            Width::<D>::absorb(
                self.key.token,
                AbsorbOp {
                    state: &mut self.state,
                    head,
                    body,
                },
            );
        }
        self.buf.as_flattened_mut()[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    fn finish(&self, output: Out<'_>) -> [u8; 16] {
        self.key.finish(
            Some(&self.state),
            &[],
            &self.buf.as_flattened()[..self.buf_len],
            output,
        )
    }

    /// The tag with the nonce given at construction (all-zero by default).
    pub fn finalize_tag(&self) -> Tag {
        self.finish(Out::Tag(NonceIn::Mask(&self.mask)))
    }

    /// The tag with `nonce`, given at the end (like pauldreik's `finalize(nonce)`); the nonce
    /// given at construction, if any, is ignored.
    pub fn finalize_with_nonce(&self, nonce: &Nonce) -> Tag {
        let n = if *nonce == [0u8; 16] {
            NonceIn::Mask(&self.key.m.zero_mask)
        } else {
            NonceIn::Nonce(nonce)
        };
        self.finish(Out::Tag(n))
    }

    /// The universal-hash value `H` of the input so far (see
    /// [`LeMacUhGeneric`](crate::LeMacUhGeneric)).
    pub(crate) fn finalize_hash(&self) -> [u8; 16] {
        self.finish(Out::Hash)
    }

    /// Back to the empty message (the key and nonce stay): what [`Reset::reset`] runs.
    pub(crate) fn restart(&mut self) {
        self.state = self.key.m.initial_state();
        self.buf_len = 0;
    }
}

impl<const D: usize> fmt::Debug for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match D {
            1 => "LeMac",
            2 => "LeMacX2",
            4 => "LeMacX4",
            _ => "LeMacGeneric",
        };
        f.debug_struct(name)
            .field("backend", &self.key.backend())
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "zeroize")]
#[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
impl<const D: usize> Drop for LeMacGeneric<D> {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.mask.zeroize();
        self.state.as_flattened_mut().as_flattened_mut().zeroize();
        self.buf.as_flattened_mut().zeroize();
        self.buf_len.zeroize();
    }
}

#[cfg(feature = "zeroize")]
#[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
impl<const D: usize> zeroize::ZeroizeOnDrop for LeMacGeneric<D> {}

impl<const D: usize> KeySizeUser for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    type KeySize = U16;
}

impl<const D: usize> IvSizeUser for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    type IvSize = U16;
}

impl<const D: usize> OutputSizeUser for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    type OutputSize = U16;
}

impl<const D: usize> KeyInit for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    /// A MAC for `key` with the all-zero nonce, on the fastest backend (with the all-zero key:
    /// `lemacsum`'s checksum).
    fn new(key: &Key<Self>) -> Self {
        Self::from_key(LeMacKeyGeneric::new(&key.0))
    }
}

impl<const D: usize> KeyIvInit for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn new(key: &Key<Self>, iv: &Iv<Self>) -> Self {
        LeMacGeneric::new_with_nonce(&key.0, &iv.0)
    }
}

impl<const D: usize> MacMarker for LeMacGeneric<D> where Width<D>: Supported<D> {}

impl<const D: usize> Update for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn update(&mut self, data: &[u8]) {
        self.absorb(data);
    }
}

impl<const D: usize> FixedOutput for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn finalize_into(self, out: &mut Output<Self>) {
        out.0 = self.finalize_tag();
    }
}

impl<const D: usize> Reset for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn reset(&mut self) {
        self.restart();
    }
}

impl<const D: usize> FixedOutputReset for LeMacGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        out.0 = self.finalize_tag();
        self.restart();
    }
}
