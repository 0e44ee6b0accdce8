//! The header of a native file: parse, check and serialize (byte layout in `FORMAT.md`).

use std::io::{self, Read};

use crate::kdf::{Argon2Params, KdfLimits, random_bytes};
use crate::{Algorithm, Error, libhiae};

/// First 8 bytes of every native file: `aeadfast`.
pub const MAGIC: [u8; 8] = *b"aeadfast";
/// The format version this crate reads and writes.
pub const VERSION: u8 = 1;
/// Bytes of the random nonce prefix (16-byte nonce − 4 counter bytes − 1 flag byte).
pub const PREFIX_LEN: usize = 11;
/// Bytes of every chunk's tag.
pub const TAG_LEN: usize = 16;
/// Smallest log2 of the chunk size: 64-byte chunks (for tests).
pub const MIN_CHUNK_LOG2: u8 = 6;
/// Largest log2 of the chunk size: 4 MiB chunks.
pub const MAX_CHUNK_LOG2: u8 = 22;
/// Default log2 of the chunk size: 256 KiB, so a chunk and its output stay in L2.
pub const DEFAULT_CHUNK_LOG2: u8 = 18;
/// Length of the fixed part of the header.
pub const BASE_HEADER_LEN: usize = 24;
/// Length of the Argon2id part (parameters and salt) that follows the fixed part.
pub const ARGON2_EXT_LEN: usize = 28;
/// Length of the longest header.
pub const MAX_HEADER_LEN: usize = BASE_HEADER_LEN + ARGON2_EXT_LEN;

/// Where the key of a file comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeySource {
    /// A raw key (header byte 11 = 0).
    RawKey,
    /// A passphrase through Argon2id (header byte 11 = 1; the parameters follow).
    Argon2id(Argon2Params),
}

/// The header of a native file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The AEAD of every chunk.
    pub algorithm: Algorithm,
    /// log2 of the plaintext bytes per chunk ([`MIN_CHUNK_LOG2`] ..= [`MAX_CHUNK_LOG2`]).
    pub chunk_log2: u8,
    /// How the key is obtained.
    pub key_source: KeySource,
    /// Per-file nonce prefix: random, never used twice with one key.
    pub nonce_prefix: [u8; PREFIX_LEN],
}

impl Header {
    /// A raw-key header for `algorithm` with the default chunk size and a fresh random nonce
    /// prefix.
    ///
    /// # Errors
    /// If the OS random number generator fails.
    pub fn random(algorithm: Algorithm) -> io::Result<Header> {
        let mut nonce_prefix = [0u8; PREFIX_LEN];
        random_bytes(&mut nonce_prefix)?;
        Ok(Header {
            algorithm,
            chunk_log2: DEFAULT_CHUNK_LOG2,
            key_source: KeySource::RawKey,
            nonce_prefix,
        })
    }

    /// Plaintext bytes per (non-final) chunk.
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    /// Serialized length in bytes: 24, or 52 with Argon2id parameters.
    pub fn len(&self) -> usize {
        match self.key_source {
            KeySource::RawKey => BASE_HEADER_LEN,
            KeySource::Argon2id(_) => MAX_HEADER_LEN,
        }
    }

    /// Never empty (here for [`len`](Self::len)'s sake).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The header bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut h = Vec::with_capacity(self.len());
        h.extend_from_slice(&MAGIC);
        h.push(VERSION);
        h.push(self.algorithm.id());
        h.push(self.chunk_log2);
        h.push(match self.key_source {
            KeySource::RawKey => 0,
            KeySource::Argon2id(_) => 1,
        });
        h.extend_from_slice(&self.nonce_prefix);
        h.push(0); // reserved
        if let KeySource::Argon2id(p) = self.key_source {
            h.extend_from_slice(&p.m_kib.to_be_bytes());
            h.extend_from_slice(&p.t.to_be_bytes());
            h.extend_from_slice(&p.p.to_be_bytes());
            h.extend_from_slice(&p.salt);
        }
        h
    }

    /// Checks the fields a caller may have set by hand: the chunk size and the Argon2id
    /// parameters must be ones the format can hold.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the field.
    pub fn validate(&self) -> Result<(), Error> {
        if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&self.chunk_log2) {
            return Err(Error::InvalidParameter(format!(
                "chunk size 2^{} out of range (2^{MIN_CHUNK_LOG2}..=2^{MAX_CHUNK_LOG2})",
                self.chunk_log2
            )));
        }
        if let KeySource::Argon2id(p) = &self.key_source {
            argon2_in_format(p).map_err(Error::InvalidParameter)?;
        }
        Ok(())
    }

    /// Parses a header from the start of `bytes`; returns it and its length.
    ///
    /// # Errors
    /// [`Error::Header`] if the bytes are not a valid version-1 header: too short, bad
    /// magic (a libhiae file is named as such), unknown version, algorithm or key source,
    /// chunk size out of range, reserved byte set, Argon2id parameters outside the format.
    pub fn parse(bytes: &[u8]) -> Result<(Header, usize), Error> {
        let bad = |m: &str| Err(Error::Header(m.to_string()));
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            if bytes.starts_with(&libhiae::MAGIC) {
                return bad("this is a libhiae file, not a native one");
            }
            if bytes.is_empty() {
                return bad("the input is empty (an encrypted file has at least a header)");
            }
            if bytes.len() < MAGIC.len() && MAGIC.starts_with(bytes) {
                return bad("the file is truncated inside its header");
            }
            return bad("not an aeadfast file (wrong magic bytes)");
        }
        if bytes.len() < BASE_HEADER_LEN {
            return bad("the file is truncated inside its header");
        }
        if bytes[8] != VERSION {
            return Err(Error::Header(format!(
                "unsupported format version {} (this reader knows version {VERSION})",
                bytes[8]
            )));
        }
        let Some(algorithm) = Algorithm::from_id(bytes[9]) else {
            return Err(Error::Header(format!(
                "unknown algorithm id {} in the header",
                bytes[9]
            )));
        };
        let chunk_log2 = bytes[10];
        if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2) {
            return Err(Error::Header(format!(
                "chunk size 2^{chunk_log2} out of range (2^{MIN_CHUNK_LOG2}..=2^{MAX_CHUNK_LOG2})"
            )));
        }
        let mut nonce_prefix = [0u8; PREFIX_LEN];
        nonce_prefix.copy_from_slice(&bytes[12..12 + PREFIX_LEN]);
        if bytes[23] != 0 {
            return bad("reserved header byte 23 is not zero");
        }
        let key_source = match bytes[11] {
            0 => KeySource::RawKey,
            1 => {
                if bytes.len() < MAX_HEADER_LEN {
                    return bad("the file is truncated inside its header");
                }
                let word = |i: usize| {
                    let at = BASE_HEADER_LEN + i;
                    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
                };
                let mut salt = [0u8; 16];
                salt.copy_from_slice(&bytes[BASE_HEADER_LEN + 12..MAX_HEADER_LEN]);
                let p = Argon2Params {
                    m_kib: word(0),
                    t: word(4),
                    p: word(8),
                    salt,
                };
                argon2_in_format(&p).map_err(Error::Header)?;
                KeySource::Argon2id(p)
            }
            k => {
                return Err(Error::Header(format!(
                    "unknown key source {k} in the header"
                )));
            }
        };
        let header = Header {
            algorithm,
            chunk_log2,
            key_source,
            nonce_prefix,
        };
        let len = header.len();
        Ok((header, len))
    }

    /// Reads and parses a header from `r`, reading no byte past it; returns the header and
    /// its exact bytes.
    ///
    /// # Errors
    /// As [`parse`](Self::parse) (inside an [`io::Error`]), or a read error.
    pub fn read_from(r: &mut (impl Read + ?Sized)) -> io::Result<(Header, Vec<u8>)> {
        let mut buf = vec![0u8; BASE_HEADER_LEN];
        let got = read_full(r, &mut buf)?;
        buf.truncate(got);
        if got == BASE_HEADER_LEN && buf[..8] == MAGIC && buf[11] == 1 {
            buf.resize(MAX_HEADER_LEN, 0);
            let got = read_full(r, &mut buf[BASE_HEADER_LEN..])?;
            buf.truncate(BASE_HEADER_LEN + got);
        }
        let (header, len) = Header::parse(&buf)?;
        buf.truncate(len);
        Ok((header, buf))
    }
}

/// Whether Argon2id parameters are inside what the format allows (message if not).
fn argon2_in_format(p: &Argon2Params) -> Result<(), String> {
    let max = KdfLimits::FORMAT_MAX;
    if !(1..=max.max_t).contains(&p.t)
        || !(1..=max.max_p).contains(&p.p)
        || p.m_kib < 8 * p.p
        || p.m_kib > max.max_m_kib
    {
        return Err(format!(
            "Argon2id parameters out of range (m = {} KiB, t = {}, p = {}; the format allows \
             1 <= t <= {}, 1 <= p <= {}, 8p <= m <= {} KiB)",
            p.m_kib, p.t, p.p, max.max_t, max.max_p, max.max_m_kib
        ));
    }
    Ok(())
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
///
/// # Errors
/// Any read error other than `Interrupted`.
pub fn read_full(r: &mut (impl Read + ?Sized), buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(alg: Algorithm, log2: u8) -> Header {
        Header {
            algorithm: alg,
            chunk_log2: log2,
            key_source: KeySource::RawKey,
            nonce_prefix: [7; PREFIX_LEN],
        }
    }

    #[test]
    fn round_trip_and_rejects() {
        let mut h = header(Algorithm::GiftCofb, 18);
        let b = h.to_bytes();
        assert_eq!(b.len(), BASE_HEADER_LEN);
        assert_eq!(Header::parse(&b).unwrap(), (h.clone(), BASE_HEADER_LEN));
        h.key_source = KeySource::Argon2id(Argon2Params {
            m_kib: 64,
            t: 2,
            p: 1,
            salt: [3; 16],
        });
        let b = h.to_bytes();
        assert_eq!(Header::parse(&b).unwrap(), (h.clone(), MAX_HEADER_LEN));
        let mut with_more = b.clone();
        with_more.extend_from_slice(b"body");
        let mut r = &with_more[..];
        assert_eq!(Header::read_from(&mut r).unwrap().1, b);
        assert_eq!(r, b"body", "read_from stops at the header's end");
        for i in 0..b.len() {
            assert!(Header::parse(&b[..i]).is_err(), "prefix {i}");
        }
        for (i, v) in [
            (0, b'A'),
            (8, 2),
            (9, 0),
            (9, 5),
            (10, 5),
            (10, 23),
            (11, 2),
            (23, 1),
            (27, 0),  // m = 0
            (31, 0),  // t = 0
            (35, 65), // p = 65
        ] {
            let mut bad = b.clone();
            bad[i] = v;
            assert!(Header::parse(&bad).is_err(), "byte {i} = {v}");
        }
        let mut libhiae = libhiae::MAGIC.to_vec();
        libhiae.resize(60, 0);
        let e = Header::parse(&libhiae).unwrap_err();
        assert!(e.to_string().contains("libhiae"), "{e}");
    }

    #[test]
    fn validate_checks_hand_made_fields() {
        let mut h = header(Algorithm::Hiae, 5);
        assert!(h.validate().is_err());
        h.chunk_log2 = 22;
        h.validate().unwrap();
        h.key_source = KeySource::Argon2id(Argon2Params {
            m_kib: 7,
            t: 1,
            p: 1,
            salt: [0; 16],
        });
        assert!(h.validate().is_err());
    }
}
