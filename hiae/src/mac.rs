//! HiAE's MAC mode as a `digest::Mac`.

use core::fmt;
use core::marker::PhantomData;

use aes_lanes::{Backend, Token, Unavailable};
use digest::common::{IvSizeUser, KeyIvInit, KeySizeUser};
use digest::consts::{U16, U32};
use digest::{FixedOutput, FixedOutputReset, MacMarker, Output, OutputSizeUser, Reset, Update};

pub use digest::Mac;

use crate::ops::StreamCore;
use crate::{Hiae, HiaeX2, HiaeX4, MAX_LEN, Variant};

/// One-shot MAC of `data` under `key` and `nonce` with variant `V`, on the detected backend.
///
/// For [`Hiae`] this is the draft's `Mac(data, key, nonce)`: absorb, then
/// `Finalize(8·|data|, 0)`. For [`HiaeX2`] / [`HiaeX4`] it is zig-hiae's `HiaeX(d)` MAC (see
/// the crate README: libhiae folds all lanes in the last step instead of taking lane 0).
///
/// Unlike the AEAD, the MAC may reuse a (key, nonce) pair for HiAE; for the wide variants
/// libhiae recommends unique nonces.
///
/// # Panics
/// If `data` is longer than 2^61 − 1 bytes.
///
/// ```
/// let tag = hiae::mac::<hiae::Hiae>(&[7; 32], &[0; 16], b"data");
/// assert_eq!(tag.len(), 16);
/// ```
pub fn mac<V: Variant>(key: &[u8; 32], nonce: &[u8; 16], data: &[u8]) -> [u8; 16] {
    mac_with_token::<V>(Token::detect(), key, nonce, data)
}

/// [`mac`] on a chosen backend, or an error if this CPU cannot run it. For many calls on one
/// backend, [`mac_with_token`] is faster.
///
/// # Panics
/// If `data` is longer than 2^61 − 1 bytes.
pub fn mac_with_backend<V: Variant>(
    backend: Backend,
    key: &[u8; 32],
    nonce: &[u8; 16],
    data: &[u8],
) -> Result<[u8; 16], Unavailable> {
    Ok(mac_with_token::<V>(backend.token()?, key, nonce, data))
}

/// [`mac`] on the backend of `token` ([`Backend::token`] checks once that this CPU can run
/// it): for many one-shot MACs on a chosen backend, with no check per call and no `Result`
/// to unpack. A tag returned inside a `Result` is copied around the `Result`'s one-byte
/// discriminant in pieces, which a later 16-byte read of the tag has to wait for; on short
/// inputs that is a measurable share of the call (PERFORMANCE.md).
///
/// # Panics
/// If `data` is longer than 2^61 − 1 bytes.
///
/// ```
/// use hiae::{Backend, Hiae};
/// let token = Backend::Portable.token()?;
/// let tag = hiae::mac_with_token::<Hiae>(token, &[7; 32], &[0; 16], b"data");
/// assert_eq!(tag, hiae::mac::<Hiae>(&[7; 32], &[0; 16], b"data"));
/// # Ok::<(), hiae::Unavailable>(())
/// ```
pub fn mac_with_token<V: Variant>(
    token: Token,
    key: &[u8; 32],
    nonce: &[u8; 16],
    data: &[u8],
) -> [u8; 16] {
    assert!(
        data.len() as u64 <= MAX_LEN,
        "MAC input longer than 2^61 - 1 bytes"
    );
    V::mac(token, key, nonce, data)
}

/// Incremental HiAE-family MAC, generic over the variant; use the aliases [`HiaeMac`],
/// [`HiaeX2Mac`], [`HiaeX4Mac`].
///
/// Implements `digest` 0.11's [`Mac`] (through `Update + FixedOutput + MacMarker`) with
/// [`KeyIvInit`] (32-byte key, 16-byte nonce), [`Reset`] and [`FixedOutputReset`]. Cloning
/// is cheap (about 1.2 KiB of state).
///
/// ```
/// use hiae::{HiaeMac, Mac};
/// use hiae::digest::common::KeyIvInit;
///
/// let key = [1u8; 32];
/// let nonce = [2u8; 16];
/// let mut m = HiaeMac::new(&key.into(), &nonce.into());
/// m.update(b"hello ");
/// m.update(b"world");
/// let tag = m.finalize().into_bytes();
/// assert_eq!(<[u8; 16]>::from(tag), hiae::mac::<hiae::Hiae>(&key, &nonce, b"hello world"));
/// ```
pub struct GenericMac<V: Variant> {
    key: [u8; 32],
    nonce: [u8; 16],
    token: Token,
    core: StreamCore,
    _v: PhantomData<V>,
}

/// HiAE MAC (draft `Mac` mode).
pub type HiaeMac = GenericMac<Hiae>;
/// HiAEx2 MAC (zig-hiae definition: lane-0 tag).
pub type HiaeX2Mac = GenericMac<HiaeX2>;
/// HiAEx4 MAC (zig-hiae definition: lane-0 tag).
pub type HiaeX4Mac = GenericMac<HiaeX4>;

impl<V: Variant> GenericMac<V> {
    fn with_token(key: &[u8; 32], nonce: &[u8; 16], token: Token) -> Self {
        GenericMac {
            key: *key,
            nonce: *nonce,
            token,
            core: StreamCore::new::<V>(token, key, nonce),
            _v: PhantomData,
        }
    }

    fn init(&mut self) {
        self.core.wipe();
        self.core = StreamCore::new::<V>(self.token, &self.key, &self.nonce);
    }

    /// A MAC instance that runs on `backend`, or an error if this CPU cannot run it.
    pub fn new_with_backend(
        key: &[u8; 32],
        nonce: &[u8; 16],
        backend: Backend,
    ) -> Result<Self, Unavailable> {
        Ok(Self::with_token(key, nonce, backend.token()?))
    }

    /// The backend this instance runs on.
    pub fn backend(&self) -> Backend {
        self.token.backend()
    }

    /// The backend's name, e.g. `"VAES-AVX512"`.
    pub fn implementation_name(&self) -> &'static str {
        self.token.backend().name()
    }

    fn finish(&mut self) -> [u8; 16] {
        self.core.finish::<V>(self.token, true)
    }
}

impl<V: Variant> Clone for GenericMac<V> {
    fn clone(&self) -> Self {
        GenericMac {
            key: self.key,
            nonce: self.nonce,
            token: self.token,
            core: self.core.clone(),
            _v: PhantomData,
        }
    }
}

impl<V: Variant> fmt::Debug for GenericMac<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GenericMac")
            .field("variant", &V::NAME)
            .field("backend", &self.token.backend())
            .finish_non_exhaustive()
    }
}

impl<V: Variant> KeySizeUser for GenericMac<V> {
    type KeySize = U32;
}

impl<V: Variant> IvSizeUser for GenericMac<V> {
    type IvSize = U16;
}

impl<V: Variant> KeyIvInit for GenericMac<V> {
    fn new(key: &digest::Key<Self>, iv: &digest::common::Iv<Self>) -> Self {
        Self::with_token(&(*key).into(), &(*iv).into(), Token::detect())
    }
}

impl<V: Variant> OutputSizeUser for GenericMac<V> {
    type OutputSize = U16;
}

impl<V: Variant> MacMarker for GenericMac<V> {}

impl<V: Variant> Update for GenericMac<V> {
    /// # Panics
    /// If the total input exceeds 2^61 − 1 bytes.
    fn update(&mut self, data: &[u8]) {
        let total = self.core.pending.ad_len.saturating_add(data.len() as u64);
        assert!(total <= MAX_LEN, "MAC input longer than 2^61 - 1 bytes");
        self.core.pending.ad_len = total;
        self.core.absorb::<V>(self.token, data);
    }
}

impl<V: Variant> FixedOutput for GenericMac<V> {
    fn finalize_into(mut self, out: &mut Output<Self>) {
        out.copy_from_slice(&self.finish());
    }
}

impl<V: Variant> Reset for GenericMac<V> {
    fn reset(&mut self) {
        self.init();
    }
}

impl<V: Variant> FixedOutputReset for GenericMac<V> {
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        out.copy_from_slice(&self.finish());
        self.init();
    }
}

#[cfg(feature = "zeroize")]
#[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
impl<V: Variant> Drop for GenericMac<V> {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.key.zeroize();
        self.nonce.zeroize();
        self.core.wipe();
    }
}

#[cfg(feature = "zeroize")]
#[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
impl<V: Variant> zeroize::ZeroizeOnDrop for GenericMac<V> {}
