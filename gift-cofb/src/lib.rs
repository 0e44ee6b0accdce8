#![no_std]
#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;

mod backend;
mod backends;
mod batch;
mod cofb;
mod gift128;
mod words;

use core::fmt;

pub use aead::{self, AeadCore, AeadInOut, Error, Key, KeyInit, KeySizeUser, Nonce, Tag};
pub use cipher;

use aead::TagPosition;
use aead::consts::{U1, U16};
use aead::inout::{InOut, InOutBuf};
use cipher::{
    AlgorithmName, Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt,
    BlockCipherEncBackend, BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser,
    ParBlocksSizeUser,
};

pub use backend::{Backend, Token, Unavailable};
pub use batch::BatchItem;

use batch::{BatchKernel, Direction};
use cofb::{DecryptOne, EncryptOne};
use gift128::{RoundKeys, block_to_words, words_to_block};

/// GIFT-COFB: 128-bit key, 128-bit nonce, 128-bit tag appended to the
/// ciphertext.
///
/// Use it through the [`aead`] traits ([`AeadInOut`], and `Aead` /
/// `AeadInPlace` which follow from it), or many messages at once with
/// [`GiftCofb::encrypt_batch`] / [`GiftCofb::decrypt_batch`].
///
/// The key schedule (80 words) is computed once, in [`KeyInit::new`], and
/// the fastest [`Backend`] is picked there, once;
/// [`new_with_backend`](Self::new_with_backend) forces one.
///
/// A nonce must never be used twice with the same key. On a tag mismatch
/// decryption returns [`Error`] and the output buffer is zero-filled.
#[derive(Clone)]
pub struct GiftCofb {
    keys: RoundKeys,
    token: Token,
}

impl GiftCofb {
    /// Creates an instance that runs on `backend`, or an error if this CPU (or
    /// build) cannot run it.
    ///
    /// ```
    /// use gift_cofb::{Backend, GiftCofb};
    ///
    /// let key = [0x42; 16].into();
    /// for backend in Backend::available() {
    ///     let cipher = GiftCofb::new_with_backend(&key, backend).unwrap();
    ///     assert_eq!(cipher.backend(), backend);
    /// }
    /// let missing = Backend::ALL.into_iter().find(|b| !b.is_available());
    /// if let Some(b) = missing {
    ///     assert!(GiftCofb::new_with_backend(&key, b).is_err());
    /// }
    /// ```
    pub fn new_with_backend(key: &Key<Self>, backend: Backend) -> Result<Self, Unavailable> {
        Ok(Self {
            keys: RoundKeys::new(key.as_ref()),
            token: backend.token()?,
        })
    }

    /// The backend this instance runs on: batches run on it; one message runs
    /// on [`Backend::single_message`] of it.
    pub fn backend(&self) -> Backend {
        self.token.backend()
    }

    /// The backend's name, e.g. `"AVX512"`.
    pub fn implementation_name(&self) -> &'static str {
        self.token.backend().name()
    }

    /// Encrypts every item in place and stores its tag in the item.
    ///
    /// The result is identical to encrypting each item on its own; the
    /// messages may have different lengths and associated data. Any number of
    /// items is accepted; they run [`Backend::lanes`] at a time.
    pub fn encrypt_batch(&self, items: &mut [BatchItem<'_>]) {
        self.token.run(BatchKernel {
            rk: &self.keys,
            items,
            dir: Direction::Encrypt,
        });
    }

    /// Decrypts every item in place and checks each tag (in constant time).
    ///
    /// When this returns, every item holds either its verified plaintext
    /// ([`BatchItem::is_verified`] is `true`) or only zeros (its tag did not
    /// verify): the buffer of each message whose tag fails is zero-filled
    /// before the call returns. No unverified plaintext is reachable
    /// afterwards, whatever the caller does next (ignoring the result,
    /// dropping or forgetting the items): nothing here depends on a destructor
    /// running. The call does not panic.
    ///
    /// Returns `Err(Error)` if at least one item failed; the items that
    /// verified still hold their plaintext.
    pub fn decrypt_batch(&self, items: &mut [BatchItem<'_>]) -> Result<(), Error> {
        self.token.run(BatchKernel {
            rk: &self.keys,
            items: &mut *items,
            dir: Direction::Decrypt,
        });
        if items.iter().all(BatchItem::is_verified) {
            Ok(())
        } else {
            Err(Error)
        }
    }
}

impl fmt::Debug for GiftCofb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GiftCofb")
            .field("backend", &self.backend())
            .finish_non_exhaustive()
    }
}

impl KeySizeUser for GiftCofb {
    type KeySize = U16;
}

impl KeyInit for GiftCofb {
    fn new(key: &Key<Self>) -> Self {
        Self {
            keys: RoundKeys::new(key.as_ref()),
            token: Token::detect(),
        }
    }
}

impl AeadCore for GiftCofb {
    type NonceSize = U16;
    type TagSize = U16;
    const TAG_POSITION: TagPosition = TagPosition::Postfix;
}

impl AeadInOut for GiftCofb {
    fn encrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
    ) -> aead::Result<Tag<Self>> {
        let tag = self.token.single_message().run(EncryptOne {
            rk: &self.keys,
            nonce: nonce.as_ref(),
            ad: associated_data,
            buffer,
        });
        Ok(tag.into())
    }

    /// Decrypts in one pass; if the tag does not verify (constant-time
    /// comparison), the output buffer is zero-filled before `Err` returns.
    fn decrypt_inout_detached(
        &self,
        nonce: &Nonce<Self>,
        associated_data: &[u8],
        buffer: InOutBuf<'_, '_, u8>,
        tag: &Tag<Self>,
    ) -> aead::Result<()> {
        let ok = self.token.single_message().run(DecryptOne {
            rk: &self.keys,
            nonce: nonce.as_ref(),
            ad: associated_data,
            buffer,
            tag: tag.as_ref(),
        });
        if ok { Ok(()) } else { Err(Error) }
    }
}

#[cfg(feature = "zeroize")]
impl zeroize::ZeroizeOnDrop for GiftCofb {}

/// The GIFT-128 block cipher in GIFT-COFB's bitsliced convention (the block
/// is four big-endian 32-bit words), fixsliced and constant time.
///
/// Exposed through [`cipher`]: [`BlockCipherEncrypt`] and
/// [`BlockCipherDecrypt`]. Test vectors of the original nibble-oriented
/// GIFT-128 do not apply (the bit order differs).
///
/// ```
/// use gift_cofb::Gift128;
/// use gift_cofb::cipher::{BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
///
/// let cipher = Gift128::new(&[0u8; 16].into());
/// let mut block = [0u8; 16].into();
/// cipher.encrypt_block(&mut block);
/// assert_eq!(block[..4], [0x5e, 0x8e, 0x3a, 0x2e]);
/// cipher.decrypt_block(&mut block);
/// assert_eq!(block, [0u8; 16]);
/// ```
#[derive(Clone)]
pub struct Gift128 {
    keys: RoundKeys,
}

impl fmt::Debug for Gift128 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Gift128 { .. }")
    }
}

impl KeySizeUser for Gift128 {
    type KeySize = U16;
}

impl KeyInit for Gift128 {
    fn new(key: &Key<Self>) -> Self {
        Self {
            keys: RoundKeys::new(key.as_ref()),
        }
    }
}

impl BlockSizeUser for Gift128 {
    type BlockSize = U16;
}

impl AlgorithmName for Gift128 {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GIFT-128")
    }
}

#[cfg(feature = "zeroize")]
impl cipher::zeroize::ZeroizeOnDrop for Gift128 {}

/// The one-block-at-a-time backend handed to `cipher`'s closures.
struct Gift128Backend<'a>(&'a RoundKeys);

impl BlockSizeUser for Gift128Backend<'_> {
    type BlockSize = U16;
}

impl ParBlocksSizeUser for Gift128Backend<'_> {
    type ParBlocksSize = U1;
}

impl BlockCipherEncBackend for Gift128Backend<'_> {
    #[inline]
    fn encrypt_block(&self, mut block: InOut<'_, '_, Block<Self>>) {
        let s = gift128::encrypt::<u32>(self.0, block_to_words(block.get_in().as_ref()));
        *block.get_out() = words_to_block(&s).into();
    }
}

impl BlockCipherDecBackend for Gift128Backend<'_> {
    #[inline]
    fn decrypt_block(&self, mut block: InOut<'_, '_, Block<Self>>) {
        let s = gift128::decrypt::<u32>(self.0, block_to_words(block.get_in().as_ref()));
        *block.get_out() = words_to_block(&s).into();
    }
}

impl BlockCipherEncrypt for Gift128 {
    fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
        f.call(&Gift128Backend(&self.keys));
    }
}

impl BlockCipherDecrypt for Gift128 {
    fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
        f.call(&Gift128Backend(&self.keys));
    }
}
