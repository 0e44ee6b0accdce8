//! Many independent messages under one key: the batch API and the generic
//! driver every SIMD backend instantiates.
//!
//! A backend with `W::LANES` lanes runs up to that many messages at once, one
//! message per 32-bit lane of each state word. Per chaining step, a scalar
//! pass prepares each lane's input (`block ⊕ L`, with the output block written
//! from the previous `Y`) in a small word-sliced staging area; then the vector
//! pass computes `Y ← E(G(Y) ⊕ input)` for all lanes together. Messages of
//! different lengths simply finish at different steps: a finished (or unused)
//! lane keeps computing on garbage that is never read, and its tag is taken
//! when it finishes.

use aead::{Nonce, Tag};

use crate::GiftCofb;
use crate::backends::Kernel;
use crate::gift128::RoundKeys;
use crate::words::{SingleLane, Words};

mod driver;

/// One message of a batch: nonce, associated data, the message buffer
/// (transformed in place) and its tag.
///
/// For [`GiftCofb::encrypt_batch`] build it with [`BatchItem::new`]; the tag
/// is written by the call. For [`GiftCofb::decrypt_batch`] build it with
/// [`BatchItem::with_tag`]; after the call, [`BatchItem::is_verified`] says
/// whether this message authenticated. A message that did not is zero-filled
/// before the call returns, so its buffer never holds unverified plaintext
/// afterwards (see [`GiftCofb::decrypt_batch`] for the exact guarantee).
#[derive(Debug)]
pub struct BatchItem<'a> {
    pub(crate) nonce: &'a Nonce<GiftCofb>,
    pub(crate) ad: &'a [u8],
    pub(crate) buffer: &'a mut [u8],
    pub(crate) tag: Tag<GiftCofb>,
    pub(crate) verified: Option<bool>,
}

impl<'a> BatchItem<'a> {
    /// A message to encrypt: `buffer` holds the plaintext and receives the
    /// ciphertext (same length); the tag is available from [`BatchItem::tag`]
    /// afterwards.
    pub fn new(nonce: &'a Nonce<GiftCofb>, ad: &'a [u8], buffer: &'a mut [u8]) -> Self {
        Self {
            nonce,
            ad,
            buffer,
            tag: Tag::<GiftCofb>::default(),
            verified: None,
        }
    }

    /// A message to decrypt: `buffer` holds the ciphertext (without the tag)
    /// and receives the plaintext, or zeros if `tag` does not verify.
    pub fn with_tag(
        nonce: &'a Nonce<GiftCofb>,
        ad: &'a [u8],
        buffer: &'a mut [u8],
        tag: &Tag<GiftCofb>,
    ) -> Self {
        Self {
            nonce,
            ad,
            buffer,
            tag: *tag,
            verified: None,
        }
    }

    /// The tag: the computed one after encryption, the expected one before
    /// and after decryption.
    pub fn tag(&self) -> &Tag<GiftCofb> {
        &self.tag
    }

    /// The message buffer (ciphertext after encryption; plaintext after a
    /// successful decryption, zeros after a failed one).
    pub fn buffer(&self) -> &[u8] {
        self.buffer
    }

    /// `true` once [`GiftCofb::decrypt_batch`] has verified this message's
    /// tag; `false` before, after encryption and after a failed check.
    pub fn is_verified(&self) -> bool {
        self.verified == Some(true)
    }
}

/// Which way a batch goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Direction {
    Encrypt,
    Decrypt,
}

/// A batch call as a [`Kernel`]: `B::LANES` messages at a time through the multi-lane driver,
/// or, where `B` has one lane (the portable tier), one message after the other with `S`.
pub(crate) struct BatchKernel<'k, 'a> {
    pub(crate) rk: &'k RoundKeys,
    pub(crate) items: &'k mut [BatchItem<'a>],
    pub(crate) dir: Direction,
}

impl Kernel for BatchKernel<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn run<B: Words, S: SingleLane>(self) {
        let BatchKernel { rk, items, dir } = self;
        if B::LANES == 1 {
            for item in items {
                one_message::<S>(rk, item, dir);
            }
        } else {
            for chunk in items.chunks_mut(B::LANES) {
                driver::run::<B>(rk, chunk, dir);
            }
        }
    }
}

/// One item through the one-message code.
#[inline(always)]
fn one_message<S: SingleLane>(rk: &RoundKeys, item: &mut BatchItem<'_>, dir: Direction) {
    let buf = aead::inout::InOutBuf::from(&mut *item.buffer);
    match dir {
        Direction::Encrypt => {
            item.tag = crate::cofb::encrypt_with::<S>(rk, item.nonce.as_ref(), item.ad, buf).into();
            item.verified = None;
        }
        Direction::Decrypt => {
            let tag: [u8; 16] = item.tag.into();
            item.verified = Some(crate::cofb::decrypt_with::<S>(
                rk,
                item.nonce.as_ref(),
                item.ad,
                buf,
                &tag,
            ));
        }
    }
}
