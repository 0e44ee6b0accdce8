//! [`LeMacKeyGeneric`]: the keyed context (derived once, reused for many messages).

use core::fmt;

use aes_lanes::{Backend, Token, Unavailable};
use digest::MacError;
use subtle::ConstantTimeEq;

use crate::state::{
    FinishOp, KeyMaterial, KeySetupOp, NonceIn, NonceMaskOp, Output, StateBytes, chunk_len,
};
use crate::width::sealed::Ops;
use crate::{LeMacGeneric, Nonce, Supported, Tag, Width};

/// A LeMac key, expanded: the initial state, the 18 finalization subkeys and the `k2`/`k3`
/// AES-128 schedules derived from a 16-byte key, plus the backend chosen for it.
///
/// Key derivation costs about 30 AES-128 encryptions per lane (≈ 0.5 kB of AES for LeMac,
/// 1.8 kB for LeMacX4), so a context is made once per key and reused: it is `Clone` (a plain
/// copy of 0.6 to 2 kB, no heap), and [`mac`](Self::mac) / [`hasher`](Self::hasher) borrow it.
///
/// `D` is the number of lanes: 1 = LeMac, 2 = LeMacX2, 4 = LeMacX4 (aliases [`LeMacKey`],
/// [`LeMacKeyX2`], [`LeMacKeyX4`]). Other values do not compile.
///
/// ```
/// use lemac::LeMacKey;
/// let key = LeMacKey::new(&[7u8; 16]);
/// let nonce = [1u8; 16];
/// let tag = key.mac(b"message", &nonce);
/// assert!(key.verify(b"message", &nonce, &tag).is_ok());
/// assert!(key.verify(b"massage", &nonce, &tag).is_err());
/// ```
///
/// [`LeMacKey`]: crate::LeMacKey
/// [`LeMacKeyX2`]: crate::LeMacKeyX2
/// [`LeMacKeyX4`]: crate::LeMacKeyX4
#[derive(Clone)]
pub struct LeMacKeyGeneric<const D: usize> {
    pub(crate) token: Token,
    pub(crate) m: KeyMaterial<D>,
}

impl<const D: usize> LeMacKeyGeneric<D>
where
    Width<D>: Supported<D>,
{
    /// Derives the context for `key`, on the fastest backend this CPU has.
    pub fn new(key: &[u8; 16]) -> Self {
        Self::with_token(key, Token::detect())
    }

    /// Derives the context for `key` on a chosen backend (for tests, benchmarks and
    /// `--backend` options).
    ///
    /// # Errors
    /// [`Unavailable`] if this CPU (or this build) cannot run `backend`.
    pub fn new_with_backend(key: &[u8; 16], backend: Backend) -> Result<Self, Unavailable> {
        Ok(Self::with_token(key, backend.token()?))
    }

    fn with_token(key: &[u8; 16], token: Token) -> Self {
        let mut m = KeyMaterial::zeroed();
        Width::<D>::key_setup(token, KeySetupOp { key, out: &mut m });
        LeMacKeyGeneric { token, m }
    }

    /// The backend this context runs on.
    pub fn backend(&self) -> Backend {
        self.token.backend()
    }

    /// The name of the backend this context runs on, e.g. `"VAES-AVX512"`.
    pub fn implementation_name(&self) -> &'static str {
        self.token.backend().name()
    }

    /// The tag of `data` under `nonce`, in one call (no buffering, one backend dispatch).
    ///
    /// An all-zero nonce uses the mask precomputed with the key.
    pub fn mac(&self, data: &[u8], nonce: &Nonce) -> Tag {
        let n = if *nonce == [0u8; 16] {
            NonceIn::Mask(&self.m.zero_mask)
        } else {
            NonceIn::Nonce(nonce)
        };
        self.finish_oneshot(data, Output::Tag(n))
    }

    /// Checks `tag` against the tag of `data` under `nonce`, in constant time.
    ///
    /// # Errors
    /// [`MacError`] if the tag does not match.
    pub fn verify(&self, data: &[u8], nonce: &Nonce, tag: &Tag) -> Result<(), MacError> {
        if tags_equal(&self.mac(data, nonce), tag) {
            Ok(())
        } else {
            Err(MacError)
        }
    }

    /// The universal hash `H` of `data` (see [`LeMacUhGeneric`](crate::LeMacUhGeneric)), in one
    /// call.
    pub fn uhash(&self, data: &[u8]) -> [u8; 16] {
        self.finish_oneshot(data, Output::Hash)
    }

    fn finish_oneshot(&self, data: &[u8], output: Output<'_>) -> [u8; 16] {
        let cut = data.len() - data.len() % chunk_len(D);
        let (body, tail) = data.split_at(cut);
        self.finish(None, body, tail, output)
    }

    /// Runs [`FinishOp`].
    pub(crate) fn finish(
        &self,
        state: Option<&StateBytes<D>>,
        body: &[u8],
        tail: &[u8],
        output: Output<'_>,
    ) -> [u8; 16] {
        let op = FinishOp {
            key: &self.m,
            state,
            body,
            tail,
            output,
        };
        Width::<D>::finish(self.token, op)
    }

    /// `N ^ E_k2(N)`.
    pub(crate) fn nonce_mask(&self, nonce: &Nonce) -> [u8; 16] {
        if *nonce == [0u8; 16] {
            self.m.zero_mask
        } else {
            nonce_mask_on(self.token, &self.m.k2, nonce)
        }
    }

    /// A streaming MAC with the all-zero nonce (a copy of this context is kept inside).
    pub fn hasher(&self) -> LeMacGeneric<D> {
        LeMacGeneric::from_key(self.clone())
    }

    /// A streaming MAC with `nonce`.
    pub fn hasher_with_nonce(&self, nonce: &Nonce) -> LeMacGeneric<D> {
        LeMacGeneric::from_key_nonce(self.clone(), nonce)
    }
}

impl<const D: usize> fmt::Debug for LeMacKeyGeneric<D>
where
    Width<D>: Supported<D>,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LeMacKey")
            .field("lanes", &D)
            .field("backend", &self.token.backend())
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "zeroize")]
#[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
impl<const D: usize> Drop for LeMacKeyGeneric<D> {
    fn drop(&mut self) {
        self.m.wipe();
    }
}

#[cfg(feature = "zeroize")]
#[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
impl<const D: usize> zeroize::ZeroizeOnDrop for LeMacKeyGeneric<D> {}

/// Whether two 16-byte tags are equal, in constant time: one 128-bit comparison with
/// `subtle`. (`subtle`'s byte-slice comparison reads every byte through an optimization
/// barrier, which costs about as much as processing a short message.)
fn tags_equal(a: &[u8; 16], b: &[u8; 16]) -> bool {
    u128::from_le_bytes(*a)
        .ct_eq(&u128::from_le_bytes(*b))
        .into()
}

/// `N ^ E_k2(N)` on `token` (one lane: the same code for every width).
fn nonce_mask_on(token: Token, k2: &aes_lanes::aes128::Schedule, nonce: &Nonce) -> [u8; 16] {
    token.dispatch(NonceMaskOp { k2, nonce })
}
