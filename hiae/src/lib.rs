#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod mac;
mod ops;
mod realign;
mod skew;
mod state;
mod tail;

pub mod hazmat;
pub mod stream;

use core::fmt;

pub use aead;
pub use aead::{AeadCore, AeadInOut, Error, Key, KeyInit};
pub use aes_lanes::{Backend, Token, Unavailable};
pub use digest;
pub use mac::{
    GenericMac, HiaeMac, HiaeX2Mac, HiaeX4Mac, Mac, mac, mac_with_backend, mac_with_token,
};

use aead::TagPosition;
use aead::consts::{U16, U32};
use aead::inout::InOutBuf;
use ops::Job;
use subtle::ConstantTimeEq;

/// A 16-byte nonce (the same size for every variant; unique per message under a key).
pub type Nonce = aead::array::Array<u8, U16>;

/// A 16-byte authentication tag.
pub type Tag = aead::array::Array<u8, U16>;

/// Largest message and largest associated data, in bytes: 2^61 − 1.
pub const MAX_LEN: u64 = (1 << 61) - 1;

/// The name of the backend [`Backend::detect`] picks on this CPU, e.g. `"VAES-AVX512"`.
pub fn implementation_name() -> &'static str {
    Backend::detect().name()
}

mod sealed {
    use aead::inout::InOutBuf;
    use aes_lanes::Token;

    use crate::ops::Job;

    /// Access to the key and backend of a cipher instance, and the variant's compiled code
    /// (crate-internal).
    pub trait Sealed {
        fn key_bytes(&self) -> &[u8; 32];
        fn token(&self) -> Token;
        /// Runs `job` on `token` with this variant's lane count. Implemented for each variant
        /// with a non-generic function, so the lane code is compiled once, in this crate, and
        /// generic callers (the stream, MAC and block APIs) only call it.
        #[allow(private_interfaces)]
        fn run(token: Token, job: &mut Job<'_, '_, '_, '_, '_, '_>) -> [u8; 16];
        /// The one-shot MAC of `data` on `token` (kernels of their own, see `ops::mac`).
        fn mac(token: Token, key: &[u8; 32], nonce: &[u8; 16], data: &[u8]) -> [u8; 16];
        /// A one-shot encryption or decryption on `token`: the kernel `OneShot` (its short or
        /// general form as the lengths allow, or `WholeOneShot` for whole chunks) below
        /// `ONE_SHOT_MAX` bytes (HiAEx2: at every length), the general kernel `Run` from there
        /// on; returns the tag.
        ///
        /// The operation is built here, where the entry point reads it (the dispatch is
        /// inlined), and `buf` goes down by reference as far as the kernel, which reads its
        /// fields one by one: a struct copied across a call is moved with loads wider than the
        /// stores that just wrote its fields, and such a load waits for them to retire (the
        /// same reason as in `aes_lanes::Token::dispatch`, which takes every operation by
        /// reference).
        fn one_shot(
            token: Token,
            key: &[u8; 32],
            nonce: &[u8; 16],
            ad: &[u8],
            buf: &mut InOutBuf<'_, '_, u8>,
            decrypt: bool,
        ) -> [u8; 16];
    }
}

/// One of the three HiAE variants: [`Hiae`] (1 lane), [`HiaeX2`] (2 lanes), [`HiaeX4`]
/// (4 lanes). Sealed: implemented only by those types.
///
/// Used to make [`stream`], [`hazmat`] and [`Mac`] generic over the variant.
pub trait Variant:
    sealed::Sealed + KeyInit + AeadInOut + AeadCore<NonceSize = U16, TagSize = U16> + Clone
{
    /// Number of parallel 128-bit lanes (1, 2 or 4).
    const LANES: usize;
    /// Bytes absorbed per state update: `16 × LANES`.
    const BLOCK_SIZE: usize = 16 * Self::LANES;
    /// Algorithm name: `"HiAE"`, `"HiAEx2"` or `"HiAEx4"`.
    const NAME: &'static str;

    /// The backend this instance runs on.
    fn backend(&self) -> Backend {
        self.token().backend()
    }
}

/// Checks the message / AD length limit.
#[inline]
fn check_len(len: usize) -> Result<(), Error> {
    if len as u64 > MAX_LEN {
        Err(Error)
    } else {
        Ok(())
    }
}

/// Encrypts `buf` in one dispatch; returns the tag.
fn encrypt_detached<V: Variant>(
    cipher: &V,
    nonce: &[u8; 16],
    ad: &[u8],
    buf: &mut InOutBuf<'_, '_, u8>,
) -> Result<[u8; 16], Error> {
    check_len(ad.len())?;
    check_len(buf.len())?;
    let token = crypt_token(cipher.token(), V::LANES, buf.len(), false);
    Ok(V::one_shot(
        token,
        cipher.key_bytes(),
        nonce,
        ad,
        buf,
        false,
    ))
}

/// Whether two 16-byte tags are equal, in constant time: one 128-bit comparison with
/// `subtle`. (`subtle`'s byte-slice comparison reads every byte through an optimization
/// barrier, which costs about as much as processing a short message.)
pub(crate) fn tags_equal(a: &[u8; 16], b: &[u8; 16]) -> bool {
    u128::from_le_bytes(*a)
        .ct_eq(&u128::from_le_bytes(*b))
        .into()
}

/// The token an encryption or decryption call over `len` bytes runs on (one-shot, or one
/// piece of a stream or of the block API):
/// - without a fused three-way XOR ([`Token::without_fused_xor3`]): the XORs of these loops
///   sit between AES rounds, where `eor3` measured slower under the Neoverse models
///   (PERFORMANCE.md); absorption (the MAC, associated data) keeps it;
/// - decryption is a chain of dependent AES rounds in each register (the plaintext of update
///   `i` is an AES input of update `i + 2`), see [`Token::for_serial_chain`]: HiAE and HiAEx2,
///   whose lanes fill at most a `ymm` register. (HiAEx4 fills a `zmm` on VAES-AVX512 and two
///   `ymm` on VAES-AVX2, twice the work per update: 64 KiB in 897 against 1609 ns, AMD Zen 5.)
#[inline]
pub(crate) fn crypt_token(token: Token, lanes: usize, len: usize, decrypt: bool) -> Token {
    let token = token.without_fused_xor3();
    if decrypt && lanes <= 2 {
        token.for_serial_chain(len)
    } else {
        token
    }
}

/// Decrypts `buf` in one dispatch and verifies `tag`; on failure the output is zeroed.
fn decrypt_detached<V: Variant>(
    cipher: &V,
    nonce: &[u8; 16],
    ad: &[u8],
    buf: &mut InOutBuf<'_, '_, u8>,
    tag: &[u8; 16],
) -> Result<(), Error> {
    if check_len(ad.len()).is_err() || check_len(buf.len()).is_err() {
        buf.get_out().fill(0);
        return Err(Error);
    }
    let token = crypt_token(cipher.token(), V::LANES, buf.len(), true);
    let expected = V::one_shot(token, cipher.key_bytes(), nonce, ad, buf, true);
    if tags_equal(&expected, tag) {
        Ok(())
    } else {
        buf.get_out().fill(0);
        Err(Error)
    }
}

macro_rules! define_cipher {
    ($name:ident, $lanes:literal, $alg:literal, $doc:literal) => {
        #[doc = $doc]
        ///
        /// A 32-byte key, 16-byte nonces and 16-byte tags appended to the ciphertext
        /// (`ct || tag`). Implements [`KeyInit`] and [`AeadInOut`], so `aead`'s blanket impls
        /// give it `Aead` (feature `alloc`) and `AeadInPlace`. The fastest backend is picked
        /// once, at construction; [`new_with_backend`](Self::new_with_backend) forces one.
        ///
        /// A nonce must never be used twice with the same key. On a tag mismatch decryption
        /// returns [`Error`] and the output buffer is zero-filled.
        #[derive(Clone)]
        pub struct $name {
            key: [u8; 32],
            token: Token,
        }

        impl $name {
            /// Creates an instance that runs on `backend`, or an error if this CPU (or build)
            /// cannot run it.
            pub fn new_with_backend(
                key: &Key<Self>,
                backend: Backend,
            ) -> Result<Self, Unavailable> {
                Ok($name {
                    key: (*key).into(),
                    token: backend.token()?,
                })
            }

            /// The backend this instance runs on.
            pub fn backend(&self) -> Backend {
                self.token.backend()
            }

            /// The backend's name, e.g. `"VAES-AVX512"` (like libhiae's
            /// `HiAE_get_implementation_name()`).
            pub fn implementation_name(&self) -> &'static str {
                self.token.backend().name()
            }
        }

        impl sealed::Sealed for $name {
            #[inline]
            fn key_bytes(&self) -> &[u8; 32] {
                &self.key
            }
            #[inline]
            fn token(&self) -> Token {
                self.token
            }
            #[allow(private_interfaces)]
            fn run(token: Token, job: &mut Job<'_, '_, '_, '_, '_, '_>) -> [u8; 16] {
                token.dispatch(ops::Run::<$lanes>(job))
            }
            #[inline]
            fn mac(token: Token, key: &[u8; 32], nonce: &[u8; 16], data: &[u8]) -> [u8; 16] {
                ops::mac::<$lanes>(token, key, nonce, data)
            }
            fn one_shot(
                token: Token,
                key: &[u8; 32],
                nonce: &[u8; 16],
                ad: &[u8],
                buf: &mut InOutBuf<'_, '_, u8>,
                decrypt: bool,
            ) -> [u8; 16] {
                ops::one_shot::<$lanes>(token, key, nonce, ad, buf, decrypt)
            }
        }

        impl Variant for $name {
            const LANES: usize = $lanes;
            const NAME: &'static str = $alg;
        }

        impl aead::KeySizeUser for $name {
            type KeySize = U32;
        }

        impl KeyInit for $name {
            fn new(key: &Key<Self>) -> Self {
                $name {
                    key: (*key).into(),
                    token: Token::detect(),
                }
            }
        }

        impl AeadCore for $name {
            type NonceSize = U16;
            type TagSize = U16;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for $name {
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce,
                associated_data: &[u8],
                mut buffer: InOutBuf<'_, '_, u8>,
            ) -> Result<Tag, Error> {
                encrypt_detached(self, &(*nonce).into(), associated_data, &mut buffer)
                    .map(Tag::from)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce,
                associated_data: &[u8],
                mut buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag,
            ) -> Result<(), Error> {
                decrypt_detached(
                    self,
                    &(*nonce).into(),
                    associated_data,
                    &mut buffer,
                    &(*tag).into(),
                )
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("backend", &self.token.backend())
                    .finish_non_exhaustive()
            }
        }

        #[cfg(feature = "zeroize")]
        #[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
        impl Drop for $name {
            fn drop(&mut self) {
                use zeroize::Zeroize;
                self.key.zeroize();
            }
        }

        #[cfg(feature = "zeroize")]
        #[cfg_attr(docsrs, doc(cfg(feature = "zeroize")))]
        impl zeroize::ZeroizeOnDrop for $name {}
    };
}

define_cipher!(
    Hiae,
    1,
    "HiAE",
    "HiAE (draft-pham-cfrg-hiae, current version): the single-lane AEAD."
);
define_cipher!(
    HiaeX2,
    2,
    "HiAEx2",
    "HiAEx2: two HiAE lanes in parallel (experimental, not in the draft; equals libhiae and zig-hiae)."
);
define_cipher!(
    HiaeX4,
    4,
    "HiAEx4",
    "HiAEx4: four HiAE lanes in parallel (experimental, not in the draft; zig-hiae's `HiaeX(4)` definition, see the crate README for libhiae's differing constants)."
);
