//! Streaming encryption and decryption of one message whose associated data and body arrive
//! in pieces of any sizes (1 byte … gigabytes). The result is identical to the one-shot
//! [`AeadInOut`](crate::AeadInOut) API: one HiAE message, one tag.
//!
//! * [`Encryptor`]: `update_ad` any number of times, then `encrypt` pieces in place (or
//!   [`encrypt_inout`](Encryptor::encrypt_inout)), then `finalize` → tag.
//! * [`Decryptor`] (feature `alloc`) — **the safe default**, a *quarantine*: the decryptor
//!   owns the buffer the plaintext is decrypted into, and the only way to it is
//!   [`finalize`](Decryptor::finalize), which hands the plaintext over after the tag
//!   verified. If the tag is wrong, or the decryptor is dropped without a successful
//!   `finalize` (an error, an early return, a panic), the buffer is zero-filled; if it is
//!   forgotten, the buffer leaks, still unreachable. Memory: the plaintext size.
//! * [`UnverifiedDecryptor`] — for bounded memory (a multi-gigabyte file decrypted as one
//!   message): it decrypts pieces in place and gives them straight back, **unverified**. The
//!   caller must treat every byte as untrusted and keep it away from anything that acts on it
//!   (write it to a temporary file, not to the destination; do not parse it) until
//!   [`verify`](UnverifiedDecryptor::verify) returns `Ok`; on `Err`, discard everything
//!   (delete the temporary file). That is the pattern the `aeadfast` CLI uses for libhiae's
//!   single-message file format. Where a format can be chosen, prefer a chunked STREAM
//!   construction (each chunk its own verified message) instead.
//!
//! Each call runs one backend dispatch; the 1 KiB state is saved between calls, so calls
//! with pieces of a few kilobytes or more run at full speed.
//!
//! ```
//! use hiae::{Hiae, KeyInit, AeadInOut, stream::{Encryptor, Decryptor}};
//!
//! let cipher = Hiae::new(&[0x42; 32].into());
//! let nonce = [7u8; 16].into();
//! let mut msg = *b"streaming one message in pieces";
//!
//! let mut enc = Encryptor::new(&cipher, &nonce);
//! enc.update_ad(b"header").unwrap();
//! let (a, b) = msg.split_at_mut(10);
//! enc.encrypt(a).unwrap();
//! enc.encrypt(b).unwrap();
//! let tag = enc.finalize();
//!
//! // Same as one-shot:
//! let mut one = *b"streaming one message in pieces";
//! let tag2 = cipher.encrypt_inout_detached(&nonce, b"header", one.as_mut_slice().into()).unwrap();
//! assert_eq!((msg, tag), (one, tag2));
//!
//! // Quarantine decryption: the plaintext is reachable only after the tag verified.
//! let mut dec = Decryptor::new(&cipher, &nonce);
//! dec.update_ad(b"head").unwrap();
//! dec.update_ad(b"er").unwrap();
//! dec.decrypt(&msg[..3]).unwrap();
//! dec.decrypt(&msg[3..]).unwrap();
//! let plaintext = dec.finalize(&tag).unwrap();
//! assert_eq!(plaintext, b"streaming one message in pieces");
//! ```

use core::fmt;
use core::marker::PhantomData;

use aead::inout::InOutBuf;
use aes_lanes::Token;

use crate::ops::StreamCore;
use crate::{Error, MAX_LEN, Nonce, Tag, Variant};

/// The state shared by the streaming types.
struct Session<V: Variant> {
    token: Token,
    core: StreamCore,
    _v: PhantomData<V>,
}

impl<V: Variant> Session<V> {
    fn new(cipher: &V, nonce: &Nonce) -> Self {
        let nonce: [u8; 16] = (*nonce).into();
        Session {
            token: cipher.token(),
            core: StreamCore::new::<V>(cipher.token(), cipher.key_bytes(), &nonce),
            _v: PhantomData,
        }
    }

    fn update_ad(&mut self, ad: &[u8]) -> Result<(), Error> {
        let p = &mut self.core.pending;
        if p.in_msg {
            return Err(Error);
        }
        let total = p.ad_len.saturating_add(ad.len() as u64);
        if total > MAX_LEN {
            return Err(Error);
        }
        p.ad_len = total;
        self.core.absorb::<V>(self.token, ad);
        Ok(())
    }

    fn crypt(&mut self, buf: InOutBuf<'_, '_, u8>, decrypt: bool) -> Result<(), Error> {
        let p = &mut self.core.pending;
        let total = p.msg_len.saturating_add(buf.len() as u64);
        if total > MAX_LEN {
            return Err(Error);
        }
        p.msg_len = total;
        let token = crate::crypt_token(self.token, V::LANES, buf.len(), decrypt);
        self.core.crypt::<V>(token, buf, decrypt, false);
        Ok(())
    }

    fn finalize(&mut self) -> [u8; 16] {
        let tag = self.core.finish::<V>(self.token, false);
        self.core.wipe();
        tag
    }

    fn verify(&mut self, tag: &Tag) -> Result<(), Error> {
        let expected = self.finalize();
        if crate::tags_equal(&expected, &(*tag).into()) {
            Ok(())
        } else {
            Err(Error)
        }
    }
}

#[cfg(feature = "zeroize")]
impl<V: Variant> Drop for Session<V> {
    fn drop(&mut self) {
        self.core.wipe();
    }
}

/// Streaming encryption of one message (see the [module docs](self)).
pub struct Encryptor<V: Variant> {
    session: Session<V>,
}

impl<V: Variant> Encryptor<V> {
    /// Starts encrypting a message under `cipher`'s key and backend with `nonce`.
    pub fn new(cipher: &V, nonce: &Nonce) -> Self {
        Encryptor {
            session: Session::new(cipher, nonce),
        }
    }

    /// Appends associated data. Must come before the first message byte.
    ///
    /// # Errors
    /// If encryption has already started, or the total AD exceeds 2^61 − 1 bytes.
    pub fn update_ad(&mut self, ad: &[u8]) -> Result<(), Error> {
        self.session.update_ad(ad)
    }

    /// Encrypts the next piece of the message in place.
    ///
    /// # Errors
    /// If the total message length exceeds 2^61 − 1 bytes (then `buf` is left unchanged).
    pub fn encrypt(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.session.crypt(buf.into(), false)
    }

    /// Encrypts the next piece from `buf`'s input to its output (which may be the same
    /// memory). The output is only written, never read.
    ///
    /// # Errors
    /// As [`encrypt`](Self::encrypt).
    pub fn encrypt_inout(&mut self, buf: InOutBuf<'_, '_, u8>) -> Result<(), Error> {
        self.session.crypt(buf, false)
    }

    /// Bytes of message encrypted so far.
    pub fn message_len(&self) -> u64 {
        self.session.core.pending.msg_len
    }

    /// Finishes the message and returns its tag.
    pub fn finalize(mut self) -> Tag {
        Tag::from(self.session.finalize())
    }
}

impl<V: Variant> fmt::Debug for Encryptor<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encryptor")
            .field("variant", &V::NAME)
            .field("message_len", &self.session.core.pending.msg_len)
            .finish_non_exhaustive()
    }
}

/// Streaming decryption that hands out **unverified** plaintext (see the
/// [module docs](self)): use it only when the plaintext cannot be held in memory, and treat
/// every byte it produces as attacker-controlled until [`verify`](Self::verify) succeeds.
pub struct UnverifiedDecryptor<V: Variant> {
    session: Session<V>,
}

impl<V: Variant> UnverifiedDecryptor<V> {
    /// Starts decrypting a message under `cipher`'s key and backend with `nonce`.
    pub fn new(cipher: &V, nonce: &Nonce) -> Self {
        UnverifiedDecryptor {
            session: Session::new(cipher, nonce),
        }
    }

    /// Appends associated data. Must come before the first ciphertext byte.
    ///
    /// # Errors
    /// If decryption has already started, or the total AD exceeds 2^61 − 1 bytes.
    pub fn update_ad(&mut self, ad: &[u8]) -> Result<(), Error> {
        self.session.update_ad(ad)
    }

    /// Decrypts the next piece of ciphertext in place. The result is **unverified**.
    ///
    /// # Errors
    /// If the total length exceeds 2^61 − 1 bytes (then `buf` is left unchanged).
    pub fn decrypt_unverified(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.session.crypt(buf.into(), true)
    }

    /// Decrypts the next piece from `buf`'s input to its output. The result is
    /// **unverified**.
    ///
    /// # Errors
    /// As [`decrypt_unverified`](Self::decrypt_unverified).
    pub fn decrypt_unverified_inout(&mut self, buf: InOutBuf<'_, '_, u8>) -> Result<(), Error> {
        self.session.crypt(buf, true)
    }

    /// Bytes of ciphertext processed so far.
    pub fn message_len(&self) -> u64 {
        self.session.core.pending.msg_len
    }

    /// Checks the tag (constant time). Only after `Ok` may the plaintext be used.
    ///
    /// # Errors
    /// If the tag does not match: everything this decryptor produced must be discarded.
    pub fn verify(mut self, tag: &Tag) -> Result<(), Error> {
        self.session.verify(tag)
    }
}

impl<V: Variant> fmt::Debug for UnverifiedDecryptor<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UnverifiedDecryptor")
            .field("variant", &V::NAME)
            .field("message_len", &self.session.core.pending.msg_len)
            .finish_non_exhaustive()
    }
}

/// Streaming decryption into a *quarantined* buffer that the decryptor owns (see the
/// [module docs](self)). Needs the `alloc` feature.
///
/// Plaintext is decrypted into memory that only the decryptor holds; the only way to reach
/// it is [`finalize`](Self::finalize), which returns it after the tag verified. On a wrong
/// tag the buffer is zero-filled and dropped. Dropping the decryptor early zero-fills it too;
/// forgetting it (`mem::forget`, `ManuallyDrop`, a reference cycle) leaks the buffer, but
/// leaked memory is still out of the caller's reach: no path to the unverified bytes exists
/// in safe code.
///
/// ```
/// use hiae::{Hiae, KeyInit, AeadInOut, stream::Decryptor};
///
/// let cipher = Hiae::new(&[1; 32].into());
/// let nonce = [2u8; 16].into();
/// let mut ct = *b"attack at dawn";
/// let tag = cipher.encrypt_inout_detached(&nonce, b"", ct.as_mut_slice().into()).unwrap();
///
/// let mut dec = Decryptor::new(&cipher, &nonce);
/// dec.decrypt(&ct[..6]).unwrap();
/// dec.decrypt(&ct[6..]).unwrap();
/// assert_eq!(dec.finalize(&tag).unwrap(), b"attack at dawn");
///
/// let mut forged = ct;
/// forged[0] ^= 1;
/// let mut dec = Decryptor::new(&cipher, &nonce);
/// dec.decrypt(&forged).unwrap();
/// assert!(dec.finalize(&tag).is_err()); // and no plaintext was ever reachable
/// ```
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub struct Decryptor<V: Variant> {
    session: Session<V>,
    out: alloc::vec::Vec<u8>,
}

#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
impl<V: Variant> Decryptor<V> {
    /// Starts decrypting a message under `cipher`'s key and backend with `nonce`.
    pub fn new(cipher: &V, nonce: &Nonce) -> Self {
        Self::with_buffer(cipher, nonce, alloc::vec::Vec::new())
    }

    /// As [`new`](Self::new), decrypting into `buf` (cleared first): an allocation to reuse,
    /// e.g. one with room for the whole message, or the result of an earlier `finalize`.
    pub fn with_buffer(cipher: &V, nonce: &Nonce, mut buf: alloc::vec::Vec<u8>) -> Self {
        wipe(&mut buf);
        buf.clear();
        Decryptor {
            session: Session::new(cipher, nonce),
            out: buf,
        }
    }

    /// Appends associated data. Must come before the first ciphertext byte.
    ///
    /// # Errors
    /// If decryption has already started, or the total AD exceeds 2^61 − 1 bytes.
    pub fn update_ad(&mut self, ad: &[u8]) -> Result<(), Error> {
        self.session.update_ad(ad)
    }

    /// Decrypts the next piece of ciphertext into the quarantined buffer (which grows by
    /// `ct.len()` bytes).
    ///
    /// # Errors
    /// If the total exceeds 2^61 − 1 bytes (nothing is decrypted then).
    pub fn decrypt(&mut self, ct: &[u8]) -> Result<(), Error> {
        let start = self.out.len();
        let end = start.checked_add(ct.len()).ok_or(Error)?;
        if end > self.out.capacity() {
            // Grow by hand, so that the old allocation is wiped before it is freed.
            let mut bigger = alloc::vec::Vec::with_capacity(end.max(2 * self.out.capacity()));
            bigger.extend_from_slice(&self.out);
            wipe(&mut self.out);
            self.out = bigger;
        }
        self.out.resize(end, 0);
        let buf = InOutBuf::new(ct, &mut self.out[start..]).map_err(|_| Error)?;
        if let Err(e) = self.session.crypt(buf, true) {
            self.out.truncate(start);
            return Err(e);
        }
        Ok(())
    }

    /// Bytes of ciphertext decrypted so far.
    pub fn message_len(&self) -> u64 {
        self.session.core.pending.msg_len
    }

    /// Verifies the tag (constant time). On success returns the plaintext.
    ///
    /// # Errors
    /// If the tag does not match: the plaintext is zero-filled and dropped.
    pub fn finalize(mut self, tag: &Tag) -> Result<alloc::vec::Vec<u8>, Error> {
        self.session.verify(tag)?;
        Ok(core::mem::take(&mut self.out))
    }
}

/// Zero-fills `buf` in a way the compiler keeps.
#[cfg(feature = "alloc")]
fn wipe(buf: &mut [u8]) {
    #[cfg(feature = "zeroize")]
    zeroize::Zeroize::zeroize(buf);
    #[cfg(not(feature = "zeroize"))]
    {
        buf.fill(0);
        core::hint::black_box(&*buf);
    }
}

#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
impl<V: Variant> Drop for Decryptor<V> {
    fn drop(&mut self) {
        wipe(&mut self.out);
    }
}

#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
impl<V: Variant> fmt::Debug for Decryptor<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decryptor")
            .field("variant", &V::NAME)
            .field("message_len", &self.session.core.pending.msg_len)
            .finish_non_exhaustive()
    }
}
