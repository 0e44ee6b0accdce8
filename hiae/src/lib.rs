#![no_std]
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod mac;
mod ops;
mod state;

#[cfg(test)]
extern crate std;
#[cfg(test)]
mod regs32_tests;

pub mod hazmat;
pub mod stream;

use core::fmt;
use core::marker::PhantomData;

pub use aead;
pub use aead::{AeadCore, AeadInOut, Error, Key, KeyInit, Nonce, Tag};
pub use aes_lanes::{Backend, Unavailable};
pub use digest;
pub use mac::{GenericMac, HiaeMac, HiaeX2Mac, HiaeX4Mac, Mac, mac, mac_with_backend};

use aead::TagPosition;
use aead::consts::{U16, U32};
use aead::inout::InOutBuf;
use aes_lanes::Token;
use subtle::ConstantTimeEq;

/// Largest message and largest associated data, in bytes: 2^61 − 1.
pub const MAX_LEN: u64 = (1 << 61) - 1;

/// The name of the backend [`Backend::detect`] picks on this CPU, e.g. `"VAES-AVX512"`.
pub fn implementation_name() -> &'static str {
    Backend::detect().name()
}

mod sealed {
    use aes_lanes::Token;

    /// Access to the key and backend of a cipher instance (crate-internal).
    pub trait Sealed {
        fn key_bytes(&self) -> &[u8; 32];
        fn token(&self) -> Token;
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

/// Whether the token's backend has 32 vector registers (selects the bulk loops that keep
/// deferred XORs in registers).
#[inline]
pub(crate) fn regs32(token: Token) -> bool {
    token.backend() == Backend::Vaes512
}

/// Dispatches `$op` on `$token` with the const `$r` (usable as a const generic argument in
/// `$op`) set to [`regs32`]: each backend entry point then holds only the loops it uses
/// (mixing both kinds of bulk loop in one function makes LLVM spill the state).
macro_rules! dispatch_r32 {
    ($token:expr, $r:ident => $op:expr) => {{
        let token: aes_lanes::Token = $token;
        if $crate::regs32(token) {
            const $r: bool = true;
            token.dispatch($op)
        } else {
            const $r: bool = false;
            token.dispatch($op)
        }
    }};
}
pub(crate) use dispatch_r32;

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
    mut buf: InOutBuf<'_, '_, u8>,
) -> Result<[u8; 16], Error> {
    check_len(ad.len())?;
    check_len(buf.len())?;
    Ok(
        dispatch_r32!(cipher.token(), R32 => ops::OneShot::<V, false, R32> {
            key: cipher.key_bytes(),
            nonce,
            ad,
            buf: &mut buf,
            _v: PhantomData,
        }),
    )
}

/// Whether two 16-byte tags are equal, in constant time: one 128-bit comparison with
/// `subtle`. (`subtle`'s byte-slice comparison reads every byte through an optimization
/// barrier: about 30 ns per 16 bytes on Zen 3, as long as processing a short message.)
pub(crate) fn tags_equal(a: &[u8; 16], b: &[u8; 16]) -> bool {
    u128::from_le_bytes(*a)
        .ct_eq(&u128::from_le_bytes(*b))
        .into()
}

/// The token a decryption call runs on (one-shot, or one piece of a stream): the cipher's,
/// except that one lane on a VAES-AVX512 CPU runs the VAES-AVX2 code for [`DEC_AVX2_MIN`]
/// bytes or more (same results, and the same serialized state, so the pieces of one stream may
/// run on either).
///
/// HiAE decryption is latency-bound (the plaintext of update `i` is an AES input of update
/// `i + 2`), and on Zen 4 the bulk loop compiled for AVX-512 (32 registers, `vpternlogd`) runs
/// slower than the one compiled for AVX2: 51.4 against 48.3 cycles per 256 bytes (64 KiB,
/// out of place: 144.5 against 155 Gbps). The AVX-512 code's initialization and
/// finalization are about 30 cycles shorter, so short messages stay on it (64 B: 18.6 against
/// 14.1 Gbps; 1 KiB: 104.5 against 97.6). Encryption and the MAC keep the AVX-512 loops
/// (303 against 235 Gbps and 343 against 274 at 64 KiB), and so do HiAEx2 and HiAEx4.
#[inline]
fn decrypt_token(token: Token, lanes: usize, len: usize) -> Token {
    if lanes == 1
        && len >= DEC_AVX2_MIN
        && token.backend() == Backend::Vaes512
        && let Ok(t) = Backend::Vaes256.token()
    {
        return t;
    }
    token
}

/// Message length from which [`decrypt_token`] switches: the crossover of the two codes is at
/// about 3 KiB (the AVX-512 code saves about 30 cycles per message and loses 3 per 256 bytes).
const DEC_AVX2_MIN: usize = 4096;

/// Decrypts `buf` in one dispatch and verifies `tag`; on failure the output is zeroed.
fn decrypt_detached<V: Variant>(
    cipher: &V,
    nonce: &[u8; 16],
    ad: &[u8],
    mut buf: InOutBuf<'_, '_, u8>,
    tag: &[u8; 16],
) -> Result<(), Error> {
    if check_len(ad.len()).is_err() || check_len(buf.len()).is_err() {
        buf.get_out().fill(0);
        return Err(Error);
    }
    let token = decrypt_token(cipher.token(), V::LANES, buf.len());
    let expected = dispatch_r32!(token, R32 => ops::OneShot::<V, true, R32> {
        key: cipher.key_bytes(),
        nonce,
        ad,
        buf: &mut buf,
        _v: PhantomData,
    });
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
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> Result<Tag<Self>, Error> {
                encrypt_detached(self, &(*nonce).into(), associated_data, buffer)
                    .map(Tag::<Self>::from)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag<Self>,
            ) -> Result<(), Error> {
                decrypt_detached(
                    self,
                    &(*nonce).into(),
                    associated_data,
                    buffer,
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
        impl Drop for $name {
            fn drop(&mut self) {
                use zeroize::Zeroize;
                self.key.zeroize();
            }
        }

        #[cfg(feature = "zeroize")]
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
