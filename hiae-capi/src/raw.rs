//! The raw HiAE / HiAEx2 / HiAEx4 state that C keeps between calls (`<P>_state_t`, and the
//! `state` member of `<P>_stream_state_t`): [`State::BYTES`] bytes in caller memory, in the
//! layout of [`hiae::hazmat`] (block `i` lane `l` at bytes `16 · (i · lanes + l)`).
//!
//! Each C call rebuilds a [`State`] from those bytes, runs the `hiae` crate's block API on it
//! and writes it back: the algorithm itself lives in `hiae` alone.

use hiae::aead::inout::InOutBuf;
use hiae::hazmat::State;
use hiae::{Backend, Hiae, Variant};
use zeroize::Zeroize;

/// Largest block (`16 × lanes`) of any variant.
const MAX_BLOCK: usize = 64;

/// The state of variant `V` loaded from caller memory; written back when dropped (wiped
/// instead after a finalization).
pub(crate) struct Raw<'s, V: Variant> {
    bytes: &'s mut [u8],
    st: State<V>,
    finalized: bool,
}

impl<'s, V: Variant> Raw<'s, V> {
    /// Loads the state in `bytes` to run on `backend` (`None` if `bytes` is not
    /// [`State::BYTES`] long or the backend cannot run here).
    pub(crate) fn new(bytes: &'s mut [u8], backend: Backend) -> Option<Self> {
        Self::wrap(bytes, |b| State::from_bytes(b, backend).ok())
    }

    /// `Init(key, nonce)` into `bytes` (`None` under the conditions of [`Raw::new`]).
    pub(crate) fn init(
        bytes: &'s mut [u8],
        backend: Backend,
        key: &[u8; 32],
        nonce: &[u8; 16],
    ) -> Option<Self> {
        Self::wrap(bytes, |_| State::new_with_backend(key, nonce, backend).ok())
    }

    /// `bytes` (checked to be [`State::BYTES`] long) with the state `make` gives.
    fn wrap(bytes: &'s mut [u8], make: impl FnOnce(&[u8]) -> Option<State<V>>) -> Option<Self> {
        if bytes.len() != State::<V>::BYTES {
            return None;
        }
        let st = make(bytes)?;
        Some(Raw {
            bytes,
            st,
            finalized: false,
        })
    }

    /// Absorbs `data`, zero-padded to a multiple of the block size.
    pub(crate) fn absorb(&mut self, data: &[u8]) {
        let full = data.len() - data.len() % V::BLOCK_SIZE;
        let (blocks, tail) = data.split_at(full);
        self.st.absorb(blocks);
        if !tail.is_empty() {
            let mut pad = [0u8; MAX_BLOCK];
            pad[..tail.len()].copy_from_slice(tail);
            self.st.absorb(&pad[..V::BLOCK_SIZE]);
            pad.zeroize();
        }
    }

    /// Encrypts (`DEC = false`) or decrypts `buf`: whole blocks, then a final partial block.
    pub(crate) fn crypt<const DEC: bool>(&mut self, buf: InOutBuf<'_, '_, u8>) {
        let full = buf.len() - buf.len() % V::BLOCK_SIZE;
        let (blocks, mut tail) = buf.split_at(full);
        if !blocks.is_empty() {
            if DEC {
                self.st.dec_inout(blocks)
            } else {
                self.st.enc_inout(blocks)
            }
        }
        if !tail.is_empty() {
            let n = tail.len();
            let mut t = [0u8; MAX_BLOCK];
            t[..n].copy_from_slice(tail.get_in());
            if DEC {
                self.st.dec_partial(&mut t[..n]);
            } else {
                self.st.enc_partial(&mut t[..n]);
            }
            tail.get_out().copy_from_slice(&t[..n]);
            t.zeroize();
        }
    }

    /// The keystream of the next update (its first `16 × lanes` bytes are meaningful).
    pub(crate) fn keystream(&mut self) -> [u8; MAX_BLOCK] {
        let mut out = [0u8; MAX_BLOCK];
        self.st.keystream(&mut out);
        out
    }

    /// AEAD finalization with byte lengths; the caller's state is wiped.
    pub(crate) fn finalize(&mut self, ad_len: u64, msg_len: u64) -> [u8; 16] {
        self.finalized = true;
        self.st.clone().finalize(ad_len, msg_len)
    }

    /// MAC finalization; the caller's state is wiped.
    pub(crate) fn finalize_mac(&mut self, data_len: u64) -> [u8; 16] {
        self.finalized = true;
        self.st.clone().finalize_mac(data_len)
    }
}

impl<V: Variant> Drop for Raw<'_, V> {
    fn drop(&mut self) {
        if self.finalized {
            self.bytes.zeroize();
        } else {
            self.st.to_bytes(self.bytes);
        }
    }
}

/// Runs `f` on lane `lane` of the `V` state in `bytes` alone, as a one-lane HiAE state (the
/// lanes of the wide variants are independent HiAE states after `Init`: one update of lane `l`
/// on its own equals that lane's part of a wide update). `None` under the conditions of
/// [`Raw::new`].
pub(crate) fn with_lane<V: Variant, R>(
    bytes: &mut [u8],
    lane: usize,
    backend: Backend,
    f: impl FnOnce(&mut Raw<'_, Hiae>) -> R,
) -> Option<R> {
    let lanes = V::LANES;
    if bytes.len() != State::<V>::BYTES || lane >= lanes {
        return None;
    }
    let mut one = [0u8; State::<Hiae>::BYTES];
    for (i, dst) in one.chunks_exact_mut(16).enumerate() {
        let at = 16 * (i * lanes + lane);
        dst.copy_from_slice(&bytes[at..at + 16]);
    }
    let r = f(&mut Raw::<Hiae>::new(&mut one, backend)?);
    for (i, src) in one.chunks_exact(16).enumerate() {
        let at = 16 * (i * lanes + lane);
        bytes[at..at + 16].copy_from_slice(src);
    }
    one.zeroize();
    Some(r)
}
