//! [`LeMacUhGeneric`]: LeMac's universal hash as a `universal_hash::UniversalHash`.

use core::fmt;

use aes_lanes::{Backend, Unavailable};
use digest::consts::{U1, U16};
use universal_hash::common::{BlockSizeUser, KeySizeUser, ParBlocksSizeUser};
use universal_hash::{Block, Key, KeyInit, Reset, UhfBackend, UhfClosure, UniversalHash};

use crate::key::LeMacKeyGeneric;
use crate::{LeMacGeneric, Supported, Width};

/// LeMac-UH on `D` lanes (aliases [`LeMacUh`](crate::LeMacUh), [`LeMacUhX2`](crate::LeMacUhX2),
/// [`LeMacUhX4`](crate::LeMacUhX4)): the keyed universal hash inside LeMac.
///
/// **Definition.** For a message `M` (the concatenation of the 16-byte blocks fed in), the
/// output is `H(M)` of the LeMac specification: `M` is padded exactly as the MAC pads it
/// (`M || 01 || 00…` to a multiple of `64·D` bytes), absorbed from the key's initial state,
/// followed by the 4 blank rounds and the 10-round finalization of the 9 state words, whose
/// results are XORed (over words and lanes). It is the value *before* the nonce step, so for
/// every key `K`, nonce `N` and message `M`:
///
/// ```text
/// LeMac_K(M, N) = E_k3( H(M) ^ N ^ E_k2(N) )      k2 = E_K(LE128(27)), k3 = E_K(LE128(28))
/// ```
///
/// `H` uses only `I` and `SK` from the key; it is ε-almost-XOR-universal (the paper's
/// LeMac-UH), not a MAC by itself. [`UniversalHash::update_padded`] pads a partial last block
/// with zeros *before* the MAC padding is applied, so inputs that differ only by trailing
/// zero bytes within the last block collide; feed whole blocks when that matters.
///
/// ```
/// use lemac::LeMacUh;
/// use universal_hash::{KeyInit, UniversalHash};
/// let mut uh = LeMacUh::new(&[0u8; 16].into());
/// uh.update(&[[1u8; 16].into(), [2u8; 16].into()]);
/// let h = uh.finalize();
/// assert_eq!(h.len(), 16);
/// ```
#[derive(Clone)]
pub struct LeMacUhGeneric<const D: usize> {
    inner: LeMacGeneric<D>,
}

impl<const D: usize> LeMacUhGeneric<D>
where
    Width<D>: Supported<D>,
{
    /// A universal hash for `key` on the fastest backend.
    pub fn new_with_key(key: &[u8; 16]) -> Self {
        Self::from_key(LeMacKeyGeneric::new(key))
    }

    /// A universal hash for `key` on a chosen backend.
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU (or this build) cannot run `backend`.
    pub fn new_with_backend(key: &[u8; 16], backend: Backend) -> Result<Self, Unavailable> {
        Ok(Self::from_key(LeMacKeyGeneric::new_with_backend(
            key, backend,
        )?))
    }

    /// A universal hash from an expanded key.
    pub fn from_key(key: LeMacKeyGeneric<D>) -> Self {
        LeMacUhGeneric {
            inner: LeMacGeneric::from_key(key),
        }
    }

    /// Absorbs raw bytes (any length; the result is `H` of all bytes given so far).
    pub fn update_bytes(&mut self, data: &[u8]) {
        self.inner.absorb(data);
    }

    /// The name of the backend in use.
    pub fn implementation_name(&self) -> &'static str {
        self.inner.implementation_name()
    }
}

impl<const D: usize> fmt::Debug for LeMacUhGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LeMacUh")
            .field("lanes", &D)
            .field("backend", &self.inner.backend())
            .finish_non_exhaustive()
    }
}

impl<const D: usize> KeySizeUser for LeMacUhGeneric<D>
where
    Width<D>: Supported<D>,
{
    type KeySize = U16;
}

impl<const D: usize> KeyInit for LeMacUhGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn new(key: &Key<Self>) -> Self {
        Self::new_with_key(&key.0)
    }
}

impl<const D: usize> BlockSizeUser for LeMacUhGeneric<D>
where
    Width<D>: Supported<D>,
{
    type BlockSize = U16;
}

impl<const D: usize> Reset for LeMacUhGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn reset(&mut self) {
        self.inner.restart();
    }
}

/// Feeds single blocks into the MAC's buffer (the generic closure path; `update` itself
/// passes all blocks at once).
struct BlockFeeder<'a, const D: usize>(&'a mut LeMacGeneric<D>);

impl<const D: usize> BlockSizeUser for BlockFeeder<'_, D>
where
    Width<D>: Supported<D>,
{
    type BlockSize = U16;
}

impl<const D: usize> ParBlocksSizeUser for BlockFeeder<'_, D>
where
    Width<D>: Supported<D>,
{
    type ParBlocksSize = U1;
}

impl<const D: usize> UhfBackend for BlockFeeder<'_, D>
where
    Width<D>: Supported<D>,
{
    fn proc_block(&mut self, block: &Block<Self>) {
        self.0.absorb(block);
    }
}

impl<const D: usize> UniversalHash for LeMacUhGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn update_with_backend(&mut self, f: impl UhfClosure<BlockSize = Self::BlockSize>) {
        f.call(&mut BlockFeeder(&mut self.inner));
    }

    fn update(&mut self, blocks: &[Block<Self>]) {
        self.inner.absorb(Block::<Self>::slice_as_flattened(blocks));
    }

    fn finalize(self) -> Block<Self> {
        self.inner.finalize_hash().into()
    }
}
