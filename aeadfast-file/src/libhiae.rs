//! The file layouts of libhiae's `hiae` command-line tool: the whole file is **one** HiAE
//! message (one nonce, one tag), so nothing can be verified before the end.
//!
//! * Embedded (`hiae -e`): `48 49 41 45 00 01 00 00` ‖ nonce (16) ‖ 8 bytes ‖ ciphertext ‖
//!   tag (16). libhiae leaves bytes 24–31 uninitialised: this module **writes zeros there and
//!   ignores them when reading** — they are neither checked nor authenticated.
//! * Detached (`hiae` without `-e`): the ciphertext alone (as long as the plaintext), the raw
//!   nonce and the raw tag in two side files.
//!
//! Associated data of any length is read from a reader and absorbed once, before the
//! message. [`HiaeFile::decrypt`] releases nothing unverified: a first pass checks the tag
//! and discards the plaintext it computes; only then a second pass decrypts into the output,
//! checking the tag again (a mismatch there means the input changed in between:
//! [`Error::InputChanged`], and the output must be discarded).
//!
//! ```
//! use std::io::Cursor;
//! use aeadfast_file::libhiae::{HiaeFile, PREAMBLE_LEN, parse_preamble, preamble};
//!
//! let file_key = HiaeFile::new(&[1u8; 32])?;
//! let nonce = [2u8; 16];
//! let mut file = preamble(&nonce).to_vec();
//! let tag = file_key.encrypt(&nonce, &mut &b"ad"[..], &mut &b"message"[..], &mut file)?;
//! file.extend_from_slice(&tag);
//!
//! let n = parse_preamble(&file)?;
//! let ct_len = (file.len() - PREAMBLE_LEN - 16) as u64;
//! let tag: [u8; 16] = file[file.len() - 16..].try_into().unwrap();
//! let mut ct = Cursor::new(&file[PREAMBLE_LEN..]);
//! let mut plain = Vec::new();
//! file_key.decrypt(&n, &mut Cursor::new(b"ad"), &mut ct, ct_len, &tag, &mut plain)?;
//! assert_eq!(plain, b"message");
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fmt;
use std::io::{self, Read, Seek, SeekFrom, Write};

use hiae::hazmat::State;
use hiae::{Hiae, KeyInit};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

use crate::header::{self, read_full};
use crate::{Algorithm, Error};

/// First 8 bytes of an embedded file: `HIAE`, 0, 1, 0, 0.
pub const MAGIC: [u8; 8] = [0x48, 0x49, 0x41, 0x45, 0x00, 0x01, 0x00, 0x00];
/// Bytes before the ciphertext in an embedded file.
pub const PREAMBLE_LEN: usize = 32;
/// Bytes of the tag.
pub const TAG_LEN: usize = 16;
/// Bytes of the key.
pub const KEY_LEN: usize = 32;
/// Bytes of the nonce.
pub const NONCE_LEN: usize = 16;

/// HiAE block: pieces are multiples of it until the last.
const BLOCK: usize = 16;
/// Bytes processed per piece.
const PIECE: usize = 1 << 20;

/// The preamble of an embedded file: magic, `nonce`, 8 zero bytes.
pub fn preamble(nonce: &[u8; NONCE_LEN]) -> [u8; PREAMBLE_LEN] {
    let mut p = [0u8; PREAMBLE_LEN];
    p[..8].copy_from_slice(&MAGIC);
    p[8..24].copy_from_slice(nonce);
    p
}

/// The nonce of an embedded file from its first bytes (at least [`PREAMBLE_LEN`]); bytes
/// 24–31 are ignored.
///
/// # Errors
/// [`Error::Header`] if the bytes are too short or the magic is wrong (a native aeadfast
/// file is named as such).
pub fn parse_preamble(bytes: &[u8]) -> Result<[u8; NONCE_LEN], Error> {
    if bytes.starts_with(&header::MAGIC) {
        return Err(Error::Header(
            "this is a native aeadfast file, not a libhiae one".into(),
        ));
    }
    if bytes.len() < PREAMBLE_LEN {
        return Err(Error::Header(format!(
            "too short to be a libhiae -e file (at least {} bytes)",
            PREAMBLE_LEN + TAG_LEN
        )));
    }
    if bytes[..8] != MAGIC {
        return Err(Error::Header(
            "not a libhiae -e file (wrong magic bytes)".into(),
        ));
    }
    let mut nonce = [0u8; NONCE_LEN];
    nonce.copy_from_slice(&bytes[8..24]);
    Ok(nonce)
}

/// A nonce side file as libhiae reads it: 16 raw bytes, or 32 hex digits (surrounding
/// whitespace allowed).
pub fn parse_nonce_file(bytes: &[u8]) -> Option<[u8; NONCE_LEN]> {
    if let Ok(raw) = <[u8; NONCE_LEN]>::try_from(bytes) {
        return Some(raw);
    }
    let text = std::str::from_utf8(bytes).ok()?.trim().as_bytes();
    if text.len() != 2 * NONCE_LEN {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    let mut out = [0u8; NONCE_LEN];
    for (o, pair) in out.iter_mut().zip(text.chunks(2)) {
        *o = digit(pair[0])? << 4 | digit(pair[1])?;
    }
    Some(out)
}

/// A HiAE key for libhiae files (the key schedule is wiped on drop).
#[derive(Clone)]
pub struct HiaeFile {
    cipher: Hiae,
}

impl fmt::Debug for HiaeFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HiaeFile").finish_non_exhaustive()
    }
}

#[derive(Clone, Copy)]
enum Direction {
    Encrypt,
    Decrypt,
}

impl HiaeFile {
    /// A key of [`KEY_LEN`] bytes.
    ///
    /// # Errors
    /// [`Error::KeyLength`] for another length.
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        let cipher = Hiae::new_from_slice(key).map_err(|_| Error::KeyLength {
            algorithm: Algorithm::Hiae,
            got: key.len(),
        })?;
        Ok(HiaeFile { cipher })
    }

    /// Absorbs the associated data from `ad` (to its end); returns its length.
    fn absorb_ad(state: &mut State<Hiae>, ad: &mut dyn Read, buf: &mut [u8]) -> io::Result<u64> {
        let mut total = 0u64;
        loop {
            let got = read_full(ad, buf)?;
            total += got as u64;
            let whole = got / BLOCK * BLOCK;
            state.absorb(&buf[..whole]);
            if got < buf.len() {
                if got > whole {
                    let mut last = [0u8; BLOCK];
                    last[..got - whole].copy_from_slice(&buf[whole..got]);
                    state.absorb(&last);
                }
                return Ok(total);
            }
        }
    }

    /// Runs one message: the AD from `ad`, then `len` bytes (or everything) of `input`
    /// encrypted or decrypted piece by piece, each result handed to `sink`; returns the tag.
    fn run(
        &self,
        dir: Direction,
        nonce: &[u8; NONCE_LEN],
        ad: &mut dyn Read,
        input: &mut dyn Read,
        len: Option<u64>,
        sink: &mut dyn FnMut(&[u8]) -> io::Result<()>,
    ) -> io::Result<[u8; TAG_LEN]> {
        let mut state = State::new(&self.cipher, nonce);
        let mut buf = Zeroizing::new(vec![0u8; PIECE]);
        let ad_len = Self::absorb_ad(&mut state, ad, &mut buf)?;
        let mut total = 0u64;
        loop {
            let want = match len {
                Some(l) => (l - total).min(PIECE as u64) as usize,
                None => PIECE,
            };
            let got = read_full(input, &mut buf[..want])?;
            if got < want && len.is_some() {
                return Err(Error::MessageTruncated.into());
            }
            total += got as u64;
            let end = got < PIECE || len == Some(total);
            let whole = got / BLOCK * BLOCK;
            let (blocks, tail) = buf[..got].split_at_mut(whole);
            match dir {
                Direction::Encrypt => {
                    state.enc(blocks);
                    state.enc_partial(tail);
                }
                Direction::Decrypt => {
                    state.dec(blocks);
                    state.dec_partial(tail);
                }
            }
            sink(&buf[..got])?;
            if end {
                return Ok(state.finalize(ad_len, total));
            }
        }
    }

    /// Encrypts everything `input` holds into `out` (ciphertext only, as long as the
    /// plaintext) with `nonce` and the associated data read from `ad`; returns the tag. Write
    /// [`preamble`] before and the tag after for the embedded layout.
    ///
    /// # Errors
    /// Read and write errors.
    pub fn encrypt(
        &self,
        nonce: &[u8; NONCE_LEN],
        ad: &mut dyn Read,
        input: &mut dyn Read,
        out: &mut dyn Write,
    ) -> io::Result<[u8; TAG_LEN]> {
        self.run(Direction::Encrypt, nonce, ad, input, None, &mut |c| {
            out.write_all(c)
        })
    }

    /// Checks that the `ct_len`-byte ciphertext read from `ct` and the associated data read
    /// from `ad` match `tag`. The plaintext it computes is discarded.
    ///
    /// # Errors
    /// [`Error::MessageAuth`], [`Error::MessageTruncated`], read errors.
    pub fn verify(
        &self,
        nonce: &[u8; NONCE_LEN],
        ad: &mut dyn Read,
        ct: &mut dyn Read,
        ct_len: u64,
        tag: &[u8; TAG_LEN],
    ) -> io::Result<()> {
        let got = self.run(Direction::Decrypt, nonce, ad, ct, Some(ct_len), &mut |_| {
            Ok(())
        })?;
        if bool::from(got.ct_eq(tag)) {
            Ok(())
        } else {
            Err(Error::MessageAuth.into())
        }
    }

    /// Decrypts the `ct_len`-byte ciphertext at the current position of `ct` into `out`,
    /// releasing nothing unverified: [`verify`](Self::verify) first, then (both readers
    /// moved back to where they started) a second pass that writes the plaintext and checks
    /// the tag again. Returns the plaintext length.
    ///
    /// # Errors
    /// [`Error::MessageAuth`] (nothing written), [`Error::MessageTruncated`],
    /// [`Error::InputChanged`] (the second pass did not verify: discard `out`), I/O errors.
    pub fn decrypt<A: Read + Seek, C: Read + Seek>(
        &self,
        nonce: &[u8; NONCE_LEN],
        ad: &mut A,
        ct: &mut C,
        ct_len: u64,
        tag: &[u8; TAG_LEN],
        out: &mut dyn Write,
    ) -> io::Result<u64> {
        let (ad_at, ct_at) = (ad.stream_position()?, ct.stream_position()?);
        self.verify(nonce, ad, ct, ct_len, tag)?;
        ad.seek(SeekFrom::Start(ad_at))?;
        ct.seek(SeekFrom::Start(ct_at))?;
        let again = self.run(Direction::Decrypt, nonce, ad, ct, Some(ct_len), &mut |p| {
            out.write_all(p)
        })?;
        if bool::from(again.ct_eq(tag)) {
            Ok(ct_len)
        } else {
            Err(Error::InputChanged.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use hiae::AeadInOut;

    use super::*;

    #[test]
    fn equals_the_one_shot_api_across_piece_boundaries() {
        let key = [7u8; 32];
        let f = HiaeFile::new(&key).unwrap();
        let one = Hiae::new_from_slice(&key).unwrap();
        let nonce = [3u8; 16];
        for (ad_len, len) in [
            (0, 0),
            (1, 15),
            (16, 16),
            (17, 33),
            (PIECE + 5, PIECE),
            (3, PIECE + 17),
        ] {
            let ad: Vec<u8> = (0..ad_len).map(|i| (i * 7) as u8).collect();
            let msg: Vec<u8> = (0..len).map(|i| (i * 13 + 1) as u8).collect();
            let mut ct = Vec::new();
            let tag = f
                .encrypt(&nonce, &mut &ad[..], &mut &msg[..], &mut ct)
                .unwrap();
            let mut want = msg.clone();
            let t = one
                .encrypt_inout_detached(&nonce.into(), &ad, want.as_mut_slice().into())
                .unwrap();
            assert!(ct == want, "{ad_len} {len}");
            assert_eq!(tag, <[u8; 16]>::from(t));
            let mut back = Vec::new();
            let n = f
                .decrypt(
                    &nonce,
                    &mut Cursor::new(&ad),
                    &mut Cursor::new(&ct),
                    len as u64,
                    &tag,
                    &mut back,
                )
                .unwrap();
            assert_eq!(n, len as u64);
            assert!(back == msg);
            // Any change: nothing written.
            let mut bad = tag;
            bad[15] ^= 1;
            let mut none = Vec::new();
            let e = f
                .decrypt(
                    &nonce,
                    &mut Cursor::new(&ad),
                    &mut Cursor::new(&ct),
                    len as u64,
                    &bad,
                    &mut none,
                )
                .unwrap_err();
            assert!(matches!(Error::from_io(&e), Some(Error::MessageAuth)));
            assert!(none.is_empty());
            if ad_len > 0 {
                let mut ad2 = ad.clone();
                *ad2.last_mut().unwrap() ^= 1;
                assert!(
                    f.verify(&nonce, &mut &ad2[..], &mut &ct[..], len as u64, &tag)
                        .is_err()
                );
            }
        }
    }

    #[test]
    fn a_second_pass_that_differs_is_reported() {
        // A reader that returns different bytes the second time round.
        struct Changing {
            data: Vec<u8>,
            pos: usize,
            passes: u32,
        }
        impl Read for Changing {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(self.data.len() - self.pos);
                buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
                if self.passes > 0 && n > 0 {
                    buf[0] ^= 1;
                }
                self.pos += n;
                Ok(n)
            }
        }
        impl Seek for Changing {
            fn seek(&mut self, p: SeekFrom) -> io::Result<u64> {
                let SeekFrom::Start(p) = p else {
                    unreachable!()
                };
                self.pos = p as usize;
                self.passes += 1;
                Ok(p)
            }
            fn stream_position(&mut self) -> io::Result<u64> {
                Ok(self.pos as u64)
            }
        }
        let f = HiaeFile::new(&[1u8; 32]).unwrap();
        let mut ct = Vec::new();
        let tag = f
            .encrypt(&[0; 16], &mut io::empty(), &mut &[5u8; 100][..], &mut ct)
            .unwrap();
        let mut r = Changing {
            data: ct,
            pos: 0,
            passes: 0,
        };
        let mut out = Vec::new();
        let e = f
            .decrypt(&[0; 16], &mut Cursor::new([]), &mut r, 100, &tag, &mut out)
            .unwrap_err();
        assert!(matches!(Error::from_io(&e), Some(Error::InputChanged)));
    }

    #[test]
    fn preambles_and_nonce_files() {
        let p = preamble(&[9; 16]);
        assert_eq!(&p[24..], &[0; 8]);
        let mut q = p;
        q[24..].copy_from_slice(&[0xee; 8]);
        assert_eq!(parse_preamble(&q).unwrap(), [9; 16], "bytes 24-31 ignored");
        assert!(parse_preamble(&p[..31]).is_err());
        assert!(parse_preamble(b"aeadfast-and-more-bytes-to-be-long-enough").is_err());
        assert_eq!(parse_nonce_file(&[4; 16]), Some([4; 16]));
        assert_eq!(
            parse_nonce_file(b" 000102030405060708090a0b0c0d0e0f\n"),
            Some(core::array::from_fn(|i| i as u8))
        );
        assert_eq!(parse_nonce_file(b"00"), None);
        assert_eq!(parse_nonce_file(b"zz0102030405060708090a0b0c0d0e0f"), None);
    }
}
