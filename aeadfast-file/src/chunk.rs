//! The chunk cipher: each chunk is one AEAD message with the STREAM nonce
//! `prefix ‖ u32 BE index ‖ last-flag` (aead-stream's `StreamBE32`) and the associated data
//! `header bytes ‖ user AD`.

use std::fmt;

use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};

use crate::header::{Header, PREFIX_LEN, TAG_LEN};
use crate::layout::chunk_offset;
use crate::{Algorithm, Error};

/// The 16-byte nonce of chunk `index`: `prefix ‖ u32 BE index ‖ last flag` (STREAM-BE32).
pub fn chunk_nonce(prefix: &[u8; PREFIX_LEN], index: u32, last: bool) -> [u8; 16] {
    let mut n = [0u8; 16];
    n[..PREFIX_LEN].copy_from_slice(prefix);
    n[PREFIX_LEN..PREFIX_LEN + 4].copy_from_slice(&index.to_be_bytes());
    n[15] = u8::from(last);
    n
}

/// A keyed instance of one of the native algorithms (the key schedule is wiped on drop).
// One instance per file: the size difference between the variants does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum ChunkCipher {
    /// HiAE.
    Hiae(hiae::Hiae),
    /// HiAEx2.
    HiaeX2(hiae::HiaeX2),
    /// HiAEx4.
    HiaeX4(hiae::HiaeX4),
    /// GIFT-COFB.
    GiftCofb(gift_cofb::GiftCofb),
}

impl fmt::Debug for ChunkCipher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ChunkCipher")
            .field(&self.algorithm())
            .finish()
    }
}

fn seal_with<A: AeadInOut>(
    a: &A,
    nonce: &[u8; 16],
    ad: &[u8],
    buf: InOutBuf<'_, '_, u8>,
) -> [u8; 16] {
    let nonce = aead::Nonce::<A>::try_from(&nonce[..]).expect("16-byte nonce");
    let tag = a
        .encrypt_inout_detached(&nonce, ad, buf)
        .expect("chunk and AD lengths are far below the AEAD limits");
    let mut t = [0u8; 16];
    t.copy_from_slice(&tag);
    t
}

fn open_with<A: AeadInOut>(
    a: &A,
    nonce: &[u8; 16],
    ad: &[u8],
    buf: InOutBuf<'_, '_, u8>,
    tag: &[u8],
) -> Result<(), aead::Error> {
    let nonce = aead::Nonce::<A>::try_from(&nonce[..]).expect("16-byte nonce");
    let tag = aead::Tag::<A>::try_from(tag).map_err(|_| aead::Error)?;
    a.decrypt_inout_detached(&nonce, ad, buf, &tag)
}

impl ChunkCipher {
    /// A cipher for `algorithm` with `key`.
    ///
    /// # Errors
    /// [`Error::KeyLength`] if the key has the wrong length.
    pub fn new(algorithm: Algorithm, key: &[u8]) -> Result<Self, Error> {
        let bad = || Error::KeyLength {
            algorithm,
            got: key.len(),
        };
        if key.len() != algorithm.key_len() {
            return Err(bad());
        }
        Ok(match algorithm {
            Algorithm::Hiae => {
                ChunkCipher::Hiae(hiae::Hiae::new_from_slice(key).map_err(|_| bad())?)
            }
            Algorithm::HiaeX2 => {
                ChunkCipher::HiaeX2(hiae::HiaeX2::new_from_slice(key).map_err(|_| bad())?)
            }
            Algorithm::HiaeX4 => {
                ChunkCipher::HiaeX4(hiae::HiaeX4::new_from_slice(key).map_err(|_| bad())?)
            }
            Algorithm::GiftCofb => {
                ChunkCipher::GiftCofb(gift_cofb::GiftCofb::new_from_slice(key).map_err(|_| bad())?)
            }
        })
    }

    /// The algorithm.
    pub fn algorithm(&self) -> Algorithm {
        match self {
            ChunkCipher::Hiae(_) => Algorithm::Hiae,
            ChunkCipher::HiaeX2(_) => Algorithm::HiaeX2,
            ChunkCipher::HiaeX4(_) => Algorithm::HiaeX4,
            ChunkCipher::GiftCofb(_) => Algorithm::GiftCofb,
        }
    }

    /// Encrypts `buf`'s input into its output (in place when they are the same); returns the
    /// tag.
    pub fn seal(&self, nonce: &[u8; 16], ad: &[u8], buf: InOutBuf<'_, '_, u8>) -> [u8; 16] {
        match self {
            ChunkCipher::Hiae(a) => seal_with(a, nonce, ad, buf),
            ChunkCipher::HiaeX2(a) => seal_with(a, nonce, ad, buf),
            ChunkCipher::HiaeX4(a) => seal_with(a, nonce, ad, buf),
            ChunkCipher::GiftCofb(a) => seal_with(a, nonce, ad, buf),
        }
    }

    /// Decrypts `buf`'s input into its output and checks `tag` (constant time).
    ///
    /// # Errors
    /// If the tag does not match; the output is then zero-filled.
    pub fn open(
        &self,
        nonce: &[u8; 16],
        ad: &[u8],
        buf: InOutBuf<'_, '_, u8>,
        tag: &[u8],
    ) -> Result<(), aead::Error> {
        match self {
            ChunkCipher::Hiae(a) => open_with(a, nonce, ad, buf, tag),
            ChunkCipher::HiaeX2(a) => open_with(a, nonce, ad, buf, tag),
            ChunkCipher::HiaeX4(a) => open_with(a, nonce, ad, buf, tag),
            ChunkCipher::GiftCofb(a) => open_with(a, nonce, ad, buf, tag),
        }
    }
}

/// Everything needed to seal and open the chunks of one file: the keyed cipher, the nonce
/// prefix, the associated data (`header bytes ‖ user AD`) and the chunk size.
///
/// This is the building block under [`Encryptor`](crate::Encryptor) and
/// [`Decryptor`](crate::Decryptor); use it directly to process chunks yourself (each chunk
/// is independent, so any order and any number of threads work).
#[derive(Debug)]
pub struct Sealer {
    cipher: ChunkCipher,
    prefix: [u8; PREFIX_LEN],
    chunk_log2: u8,
    header_len: u64,
    aad: Vec<u8>,
}

impl Sealer {
    /// A sealer for the file whose header is `header` (serialized as `header_bytes`), with
    /// user associated data `ad` and `key`.
    ///
    /// # Errors
    /// [`Error::KeyLength`] if the key does not fit the header's algorithm.
    pub fn new(header: &Header, header_bytes: &[u8], ad: &[u8], key: &[u8]) -> Result<Self, Error> {
        let cipher = ChunkCipher::new(header.algorithm, key)?;
        let mut aad = Vec::with_capacity(header_bytes.len() + ad.len());
        aad.extend_from_slice(header_bytes);
        aad.extend_from_slice(ad);
        Ok(Sealer {
            cipher,
            prefix: header.nonce_prefix,
            chunk_log2: header.chunk_log2,
            header_len: header_bytes.len() as u64,
            aad,
        })
    }

    /// Plaintext bytes per full chunk.
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    /// log2 of [`chunk_size`](Self::chunk_size).
    pub fn chunk_log2(&self) -> u8 {
        self.chunk_log2
    }

    /// Stored bytes of a full chunk (chunk and tag).
    pub fn stride(&self) -> usize {
        self.chunk_size() + TAG_LEN
    }

    /// Length of the header these chunks follow.
    pub fn header_len(&self) -> u64 {
        self.header_len
    }

    fn nonce(&self, index: u64, last: bool) -> Result<[u8; 16], Error> {
        let i = u32::try_from(index).map_err(|_| Error::TooManyChunks)?;
        Ok(chunk_nonce(&self.prefix, i, last))
    }

    /// Encrypts chunk `index` from `buf`'s input into its output; returns its tag.
    ///
    /// # Errors
    /// [`Error::TooManyChunks`] if `index` does not fit the 32-bit counter.
    pub fn seal(
        &self,
        index: u64,
        last: bool,
        buf: InOutBuf<'_, '_, u8>,
    ) -> Result<[u8; 16], Error> {
        Ok(self.cipher.seal(&self.nonce(index, last)?, &self.aad, buf))
    }

    /// Decrypts chunk `index` from `buf`'s input into its output and checks `tag`.
    ///
    /// # Errors
    /// [`Error::Auth`] if it does not authenticate (the output is then zero-filled), or
    /// [`Error::TooManyChunks`].
    pub fn open(
        &self,
        index: u64,
        last: bool,
        buf: InOutBuf<'_, '_, u8>,
        tag: &[u8],
    ) -> Result<(), Error> {
        let nonce = self.nonce(index, last)?;
        self.cipher
            .open(&nonce, &self.aad, buf, tag)
            .map_err(|_| Error::Auth {
                index,
                offset: chunk_offset(self.header_len, index, self.chunk_log2).unwrap_or(u64::MAX),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::header::KeySource;

    #[test]
    fn nonce_is_stream_be32() {
        use aead_stream::{NewStream, StreamBE32, StreamPrimitive};
        let key = [9u8; 32];
        let h = Header {
            algorithm: Algorithm::Hiae,
            chunk_log2: 6,
            key_source: KeySource::RawKey,
            nonce_prefix: [7; PREFIX_LEN],
        };
        let hb = h.to_bytes();
        let sealer = Sealer::new(&h, &hb, b"ad", &key).unwrap();
        let stream = StreamBE32::<hiae::Hiae>::from_aead(
            hiae::Hiae::new_from_slice(&key).unwrap(),
            &h.nonce_prefix.into(),
        );
        let mut aad = hb.clone();
        aad.extend_from_slice(b"ad");
        for (pos, last) in [(0u32, false), (5, true), (u32::MAX, true)] {
            let msg = b"some chunk bytes".to_vec();
            let want = stream
                .encrypt(
                    pos,
                    last,
                    aead::Payload {
                        msg: &msg,
                        aad: &aad,
                    },
                )
                .unwrap();
            let mut got = msg.clone();
            let tag = sealer
                .seal(pos as u64, last, got.as_mut_slice().into())
                .unwrap();
            got.extend_from_slice(&tag);
            assert_eq!(got, want);
        }
        assert!(matches!(
            sealer.seal(1 << 32, true, (&mut [][..]).into()),
            Err(Error::TooManyChunks)
        ));
    }

    #[test]
    fn failed_open_zeroes_the_output_on_every_algorithm() {
        for alg in Algorithm::ALL {
            let h = Header {
                algorithm: alg,
                chunk_log2: 6,
                key_source: KeySource::RawKey,
                nonce_prefix: [1; PREFIX_LEN],
            };
            let s = Sealer::new(&h, &h.to_bytes(), b"", &vec![3u8; alg.key_len()]).unwrap();
            let plain = [0x5au8; 40];
            let mut ct = plain;
            let tag = s.seal(2, false, ct.as_mut_slice().into()).unwrap();
            let mut out = [0xffu8; 40];
            let r = s.open(2, true, InOutBuf::new(&ct, &mut out).unwrap(), &tag);
            assert!(matches!(r, Err(Error::Auth { index: 2, offset }) if offset == 24 + 2 * 80));
            assert_eq!(out, [0u8; 40], "{alg}");
            s.open(2, false, InOutBuf::new(&ct, &mut out).unwrap(), &tag)
                .unwrap();
            assert_eq!(out, plain);
        }
    }
}
