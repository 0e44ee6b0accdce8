//! The native `aeadfast` file format, version 1: a chunked STREAM construction (see
//! `FORMAT.md` next to this crate's `Cargo.toml` for the byte layout and the reasoning).
//!
//! * [`Header`]: parse and serialize the header.
//! * [`Sealer`]: one algorithm instance, the nonce prefix and the associated data (header ‖
//!   user AD); seals and opens chunk `i` with nonce `prefix ‖ u32 BE i ‖ last-flag`, exactly the
//!   nonce of aead-stream's `StreamBE32`.
//! * [`encrypt_stream`] / [`decrypt_stream`]: the whole body of a file, chunks sealed and opened
//!   in parallel with large sequential reads and writes, in bounded memory.
//! * Layout arithmetic ([`chunk_count`], [`encrypted_len`], [`plaintext_len`], [`chunk_offset`])
//!   in `u64`, so files over 4 GiB are no special case.

use std::fmt;
use std::io::{self, Read, Write};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};

use aead::{AeadInOut, KeyInit};
use rayon::prelude::*;

/// First 8 bytes of every native file.
pub const MAGIC: [u8; 8] = *b"aeadfast";
/// The format version this code reads and writes.
pub const VERSION: u8 = 1;
/// Bytes of the random nonce prefix (16-byte nonce − 4 counter bytes − 1 flag byte).
pub const PREFIX_LEN: usize = 11;
/// Bytes of every chunk's tag.
pub const TAG_LEN: usize = 16;
/// Smallest allowed log2 of the chunk size (64 bytes; only useful for tests).
pub const MIN_CHUNK_LOG2: u8 = 6;
/// Largest allowed log2 of the chunk size (4 MiB), which bounds a reader's memory.
pub const MAX_CHUNK_LOG2: u8 = 22;
/// Default log2 of the chunk size: 256 KiB, so a chunk's input and output stay in L2.
pub const DEFAULT_CHUNK_LOG2: u8 = 18;
/// Length of the fixed part of the header.
pub const BASE_HEADER_LEN: usize = 24;
/// Length of the Argon2id extension (parameters and salt) that follows the fixed part.
pub const ARGON2_EXT_LEN: usize = 28;
/// Largest Argon2id memory a reader accepts from a header, in KiB (4 GiB).
pub const MAX_ARGON2_M_KIB: u32 = 4 << 20;
/// Largest Argon2id pass count a reader accepts from a header.
pub const MAX_ARGON2_T: u32 = 64;
/// Largest Argon2id lane count a reader accepts from a header.
pub const MAX_ARGON2_P: u32 = 64;

/// Bytes of plaintext the pipeline aims to hold per batch (chunks per batch follow from it).
const BATCH_BYTES: usize = 2 << 20;
/// Batches in flight at once (reading, sealing, writing, one spare).
const DEPTH: usize = 4;

/// The algorithms of the native format, with their header ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Algorithm {
    /// HiAE (32-byte key).
    #[value(name = "hiae")]
    Hiae,
    /// HiAEx2 (32-byte key).
    #[value(name = "hiaex2")]
    HiaeX2,
    /// HiAEx4 (32-byte key).
    #[value(name = "hiaex4")]
    HiaeX4,
    /// GIFT-COFB (16-byte key).
    #[value(name = "gift-cofb")]
    GiftCofb,
}

impl Algorithm {
    /// Every algorithm, in id order.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Hiae,
        Algorithm::HiaeX2,
        Algorithm::HiaeX4,
        Algorithm::GiftCofb,
    ];

    /// The id byte stored in the header.
    pub fn id(self) -> u8 {
        match self {
            Algorithm::Hiae => 1,
            Algorithm::HiaeX2 => 2,
            Algorithm::HiaeX4 => 3,
            Algorithm::GiftCofb => 4,
        }
    }

    /// The algorithm with header id `id`.
    pub fn from_id(id: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.id() == id)
    }

    /// The name used on the command line (`-a`).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Hiae => "hiae",
            Algorithm::HiaeX2 => "hiaex2",
            Algorithm::HiaeX4 => "hiaex4",
            Algorithm::GiftCofb => "gift-cofb",
        }
    }

    /// Key length in bytes.
    pub fn key_len(self) -> usize {
        match self {
            Algorithm::GiftCofb => 16,
            _ => 32,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Fills `buf` from the operating system's random number generator.
///
/// # Errors
/// If the OS generator fails.
pub fn random_bytes(buf: &mut [u8]) -> io::Result<()> {
    getrandom::fill(buf).map_err(|e| io::Error::other(format!("OS random number generator: {e}")))
}

/// Argon2id parameters and salt, stored in the header of passphrase-protected files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Argon2Params {
    /// Memory in KiB.
    pub m_kib: u32,
    /// Passes.
    pub t: u32,
    /// Lanes.
    pub p: u32,
    /// Random salt.
    pub salt: [u8; 16],
}

impl Argon2Params {
    /// Default parameters (64 MiB, 3 passes, 1 lane) with a fresh random salt.
    ///
    /// # Errors
    /// If the OS random number generator fails.
    pub fn random_default() -> io::Result<Self> {
        let mut salt = [0u8; 16];
        random_bytes(&mut salt)?;
        Ok(Argon2Params {
            m_kib: 64 * 1024,
            t: 3,
            p: 1,
            salt,
        })
    }

    /// Derives a `len`-byte key from `passphrase`.
    ///
    /// # Errors
    /// If the parameters are out of Argon2's range.
    pub fn derive(&self, passphrase: &[u8], len: usize) -> Result<Vec<u8>, FormatError> {
        let bad = |e: argon2::Error| FormatError::Header(format!("Argon2id parameters: {e}"));
        let params = argon2::Params::new(self.m_kib, self.t, self.p, Some(len)).map_err(bad)?;
        let a = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
        let mut key = vec![0u8; len];
        a.hash_password_into(passphrase, &self.salt, &mut key)
            .map_err(bad)?;
        Ok(key)
    }
}

/// Where the key comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeySource {
    /// A raw key file (header byte 11 = 0).
    KeyFile,
    /// A passphrase through Argon2id (header byte 11 = 1, parameters follow the fixed part).
    Argon2id(Argon2Params),
}

/// The header of a native file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The AEAD of every chunk.
    pub algorithm: Algorithm,
    /// log2 of the plaintext bytes per chunk.
    pub chunk_log2: u8,
    /// How the key is obtained.
    pub key_source: KeySource,
    /// Random per-file nonce prefix.
    pub nonce_prefix: [u8; PREFIX_LEN],
}

impl Header {
    /// Plaintext bytes per (non-final) chunk.
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    /// Serialized length in bytes.
    pub fn len(&self) -> usize {
        match self.key_source {
            KeySource::KeyFile => BASE_HEADER_LEN,
            KeySource::Argon2id(_) => BASE_HEADER_LEN + ARGON2_EXT_LEN,
        }
    }

    /// Never empty (needed next to [`len`](Self::len)).
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
        match self.key_source {
            KeySource::KeyFile => h.push(0),
            KeySource::Argon2id(_) => h.push(1),
        }
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

    /// Parses a header from the start of `bytes`; returns it and its length.
    ///
    /// # Errors
    /// [`FormatError::Header`] if the bytes are not a valid version-1 header (too short, bad
    /// magic, unknown version/algorithm/key source, chunk size out of range, reserved byte
    /// set, Argon2id parameters out of range).
    pub fn parse(bytes: &[u8]) -> Result<(Header, usize), FormatError> {
        let bad = |m: &str| Err(FormatError::Header(m.to_string()));
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            if bytes.starts_with(&crate::format::LIBHIAE_MAGIC) {
                return bad("this is a libhiae file, not a native one: add --format hiae");
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
            return Err(FormatError::Header(format!(
                "unsupported format version {} (this aeadfast reads version {VERSION})",
                bytes[8]
            )));
        }
        let Some(algorithm) = Algorithm::from_id(bytes[9]) else {
            return Err(FormatError::Header(format!(
                "unknown algorithm id {} in the header",
                bytes[9]
            )));
        };
        let chunk_log2 = bytes[10];
        if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2) {
            return Err(FormatError::Header(format!(
                "chunk size 2^{chunk_log2} out of range (2^{MIN_CHUNK_LOG2}..=2^{MAX_CHUNK_LOG2})"
            )));
        }
        let mut nonce_prefix = [0u8; PREFIX_LEN];
        nonce_prefix.copy_from_slice(&bytes[12..12 + PREFIX_LEN]);
        if bytes[23] != 0 {
            return bad("reserved header byte 23 is not zero");
        }
        let key_source = match bytes[11] {
            0 => KeySource::KeyFile,
            1 => {
                let end = BASE_HEADER_LEN + ARGON2_EXT_LEN;
                if bytes.len() < end {
                    return bad("the file is truncated inside its header");
                }
                let word = |i: usize| {
                    u32::from_be_bytes(
                        bytes[BASE_HEADER_LEN + i..BASE_HEADER_LEN + i + 4]
                            .try_into()
                            .unwrap(),
                    )
                };
                let (m_kib, t, p) = (word(0), word(4), word(8));
                if !(1..=MAX_ARGON2_T).contains(&t)
                    || !(1..=MAX_ARGON2_P).contains(&p)
                    || m_kib < 8 * p
                    || m_kib > MAX_ARGON2_M_KIB
                {
                    return Err(FormatError::Header(format!(
                        "Argon2id parameters out of range (m={m_kib} KiB, t={t}, p={p})"
                    )));
                }
                let mut salt = [0u8; 16];
                salt.copy_from_slice(&bytes[BASE_HEADER_LEN + 12..end]);
                KeySource::Argon2id(Argon2Params { m_kib, t, p, salt })
            }
            k => {
                return Err(FormatError::Header(format!(
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

    /// Reads and parses a header from `r`; returns it and its exact bytes.
    ///
    /// # Errors
    /// As [`parse`](Self::parse), or [`FormatError::Io`] on a read error.
    pub fn read_from(r: &mut impl Read) -> Result<(Header, Vec<u8>), FormatError> {
        let mut buf = vec![0u8; BASE_HEADER_LEN];
        let got = read_full(r, &mut buf)?;
        buf.truncate(got);
        if got == BASE_HEADER_LEN && buf[..8] == MAGIC && buf[11] == 1 {
            buf.resize(BASE_HEADER_LEN + ARGON2_EXT_LEN, 0);
            let got = read_full(r, &mut buf[BASE_HEADER_LEN..])?;
            buf.truncate(BASE_HEADER_LEN + got);
        }
        if buf.is_empty() {
            return Err(FormatError::Header(
                "the input is empty (an encrypted file has at least a header)".into(),
            ));
        }
        let (header, len) = Header::parse(&buf)?;
        buf.truncate(len);
        Ok((header, buf))
    }
}

/// First bytes of a libhiae `-e` file (recognized to give a helpful error).
pub const LIBHIAE_MAGIC: [u8; 8] = [0x48, 0x49, 0x41, 0x45, 0x00, 0x01, 0x00, 0x00];

/// Why a native file could not be written or read.
#[derive(Debug)]
pub enum FormatError {
    /// Reading the input or writing the output failed.
    Io(io::Error),
    /// The header is malformed or unsupported.
    Header(String),
    /// A key of the wrong length for the algorithm.
    KeyLength {
        /// The algorithm.
        algorithm: Algorithm,
        /// The length given.
        got: usize,
    },
    /// Chunk `index` did not authenticate.
    Auth {
        /// Chunk number (0-based).
        index: u64,
        /// Byte offset of the chunk in the file.
        offset: u64,
    },
    /// The stream ended without a final chunk.
    Truncated {
        /// Complete chunks seen before the end.
        chunks: u64,
        /// Bytes of an incomplete chunk at the end (0 if it ended at a chunk boundary).
        partial: usize,
    },
    /// The file length does not fit the chunk layout of its header.
    BadLength {
        /// The file length.
        len: u64,
    },
    /// More than 2^32 chunks: the counter would wrap.
    TooManyChunks,
}

impl FormatError {
    /// Whether this error means "the data did not verify" (exit status 1) rather than an
    /// I/O or usage problem (exit status 2).
    pub fn is_verification(&self) -> bool {
        !matches!(self, FormatError::Io(_) | FormatError::TooManyChunks)
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The io::Error itself is the `source`: printed once, after this, by error
            // reporters that walk the chain (`anyhow`'s `{:#}`).
            FormatError::Io(_) => write!(f, "reading the input or writing the output failed"),
            FormatError::Header(m) => write!(f, "bad header: {m}"),
            FormatError::KeyLength { algorithm, got } => write!(
                f,
                "the key is {got} bytes but {algorithm} needs a {}-byte raw key \
                 (make one with `aeadfast keygen -a {algorithm} -o FILE`)",
                algorithm.key_len()
            ),
            FormatError::Auth { index: 0, .. } => write!(
                f,
                "authentication failed on the first chunk: wrong key or passphrase, wrong \
                 --ad, or the file is corrupted; nothing was written"
            ),
            FormatError::Auth { index, offset } => write!(
                f,
                "chunk {index} (byte offset {offset}) failed authentication: the file was \
                 modified (corrupted, chunks reordered or duplicated, truncated or extended)"
            ),
            FormatError::Truncated { chunks, partial: 0 } => write!(
                f,
                "the file is truncated: it ends after {chunks} chunk(s) without the final chunk"
            ),
            FormatError::Truncated { chunks, partial } => write!(
                f,
                "the file is truncated: it ends {partial} byte(s) into chunk {chunks}, too \
                 short to hold a tag"
            ),
            FormatError::BadLength { len } => write!(
                f,
                "the file length ({len} bytes) does not fit the chunk layout of its header: \
                 it was truncated or extended, or its header is corrupted"
            ),
            FormatError::TooManyChunks => write!(
                f,
                "more than 2^32 chunks: use a larger --chunk-size-log2 for inputs this big"
            ),
        }
    }
}

impl std::error::Error for FormatError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FormatError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for FormatError {
    fn from(e: io::Error) -> Self {
        FormatError::Io(e)
    }
}

/// Number of chunks of a `plain_len`-byte plaintext: every chunk but the last is full, and the
/// last one is always shorter than a chunk (possibly empty).
pub fn chunk_count(plain_len: u64, chunk_log2: u8) -> u64 {
    (plain_len >> chunk_log2) + 1
}

/// Length of the encrypted file: header, plaintext, one tag per chunk (`None` on overflow).
pub fn encrypted_len(header_len: u64, plain_len: u64, chunk_log2: u8) -> Option<u64> {
    let tags = chunk_count(plain_len, chunk_log2).checked_mul(TAG_LEN as u64)?;
    header_len.checked_add(plain_len)?.checked_add(tags)
}

/// Byte offset of chunk `index` in the file (`None` on overflow).
pub fn chunk_offset(header_len: u64, index: u64, chunk_log2: u8) -> Option<u64> {
    let stride = (1u64 << chunk_log2) + TAG_LEN as u64;
    index.checked_mul(stride)?.checked_add(header_len)
}

/// Plaintext length of an encrypted file of `file_len` bytes.
///
/// # Errors
/// [`FormatError::BadLength`] if no plaintext length gives this file length.
pub fn plaintext_len(header_len: u64, file_len: u64, chunk_log2: u8) -> Result<u64, FormatError> {
    let stride = (1u64 << chunk_log2) + TAG_LEN as u64;
    let body = file_len
        .checked_sub(header_len)
        .ok_or(FormatError::BadLength { len: file_len })?;
    let (full, rest) = (body / stride, body % stride);
    if rest < TAG_LEN as u64 {
        return Err(FormatError::BadLength { len: file_len });
    }
    Ok(full * (1u64 << chunk_log2) + rest - TAG_LEN as u64)
}

/// The 16-byte nonce of chunk `index`: `prefix ‖ u32 BE index ‖ last flag` (STREAM-BE32).
pub fn chunk_nonce(prefix: &[u8; PREFIX_LEN], index: u32, last: bool) -> [u8; 16] {
    let mut n = [0u8; 16];
    n[..PREFIX_LEN].copy_from_slice(prefix);
    n[PREFIX_LEN..PREFIX_LEN + 4].copy_from_slice(&index.to_be_bytes());
    n[15] = u8::from(last);
    n
}

/// An AEAD instance of one of the native algorithms.
// One instance per file: the size difference between variants does not matter.
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
    buf: aead::inout::InOutBuf<'_, '_, u8>,
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
    buf: aead::inout::InOutBuf<'_, '_, u8>,
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
    /// [`FormatError::KeyLength`] if the key has the wrong length.
    pub fn new(algorithm: Algorithm, key: &[u8]) -> Result<Self, FormatError> {
        let bad = FormatError::KeyLength {
            algorithm,
            got: key.len(),
        };
        if key.len() != algorithm.key_len() {
            return Err(bad);
        }
        Ok(match algorithm {
            Algorithm::Hiae => ChunkCipher::Hiae(hiae::Hiae::new_from_slice(key).map_err(|_| bad)?),
            Algorithm::HiaeX2 => {
                ChunkCipher::HiaeX2(hiae::HiaeX2::new_from_slice(key).map_err(|_| bad)?)
            }
            Algorithm::HiaeX4 => {
                ChunkCipher::HiaeX4(hiae::HiaeX4::new_from_slice(key).map_err(|_| bad)?)
            }
            Algorithm::GiftCofb => {
                ChunkCipher::GiftCofb(gift_cofb::GiftCofb::new_from_slice(key).map_err(|_| bad)?)
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

    /// Encrypts `buf` in place; returns the tag.
    pub fn seal(&self, nonce: &[u8; 16], ad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        self.seal_inout(nonce, ad, buf.into())
    }

    /// Encrypts `buf`'s input into its output (the two may be distinct); returns the tag.
    pub fn seal_inout(
        &self,
        nonce: &[u8; 16],
        ad: &[u8],
        buf: aead::inout::InOutBuf<'_, '_, u8>,
    ) -> [u8; 16] {
        match self {
            ChunkCipher::Hiae(a) => seal_with(a, nonce, ad, buf),
            ChunkCipher::HiaeX2(a) => seal_with(a, nonce, ad, buf),
            ChunkCipher::HiaeX4(a) => seal_with(a, nonce, ad, buf),
            ChunkCipher::GiftCofb(a) => seal_with(a, nonce, ad, buf),
        }
    }

    /// Decrypts `buf` in place and checks `tag`.
    ///
    /// # Errors
    /// If the tag does not match (then `buf` holds no plaintext).
    pub fn open(
        &self,
        nonce: &[u8; 16],
        ad: &[u8],
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), aead::Error> {
        self.open_inout(nonce, ad, buf.into(), tag)
    }

    /// Decrypts `buf`'s input into its output (the two may be distinct) and checks `tag`.
    ///
    /// # Errors
    /// If the tag does not match (then the output holds no plaintext).
    pub fn open_inout(
        &self,
        nonce: &[u8; 16],
        ad: &[u8],
        buf: aead::inout::InOutBuf<'_, '_, u8>,
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

/// Everything needed to seal and open the chunks of one file.
#[derive(Debug)]
pub struct Sealer {
    cipher: ChunkCipher,
    prefix: [u8; PREFIX_LEN],
    chunk_log2: u8,
    header_len: u64,
    /// Header bytes ‖ user AD: the associated data of every chunk.
    aad: Vec<u8>,
}

impl Sealer {
    /// A sealer for the file with header bytes `header_bytes` (parsed as `header`), user
    /// associated data `ad`, and `key`.
    ///
    /// # Errors
    /// [`FormatError::KeyLength`] if the key does not fit the header's algorithm.
    pub fn new(
        header: &Header,
        header_bytes: &[u8],
        ad: &[u8],
        key: &[u8],
    ) -> Result<Self, FormatError> {
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

    /// Plaintext bytes per chunk.
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    fn nonce(&self, index: u64, last: bool) -> Result<[u8; 16], FormatError> {
        let i = u32::try_from(index).map_err(|_| FormatError::TooManyChunks)?;
        Ok(chunk_nonce(&self.prefix, i, last))
    }

    /// Encrypts chunk `index` in place; returns its tag.
    ///
    /// # Errors
    /// [`FormatError::TooManyChunks`] if `index` does not fit the 32-bit counter.
    pub fn seal_chunk(
        &self,
        index: u64,
        last: bool,
        buf: &mut [u8],
    ) -> Result<[u8; 16], FormatError> {
        Ok(self.cipher.seal(&self.nonce(index, last)?, &self.aad, buf))
    }

    /// Encrypts chunk `index` from `input` into `output` (same length); returns its tag.
    ///
    /// # Errors
    /// [`FormatError::TooManyChunks`] if `index` does not fit the 32-bit counter.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn seal_chunk_from(
        &self,
        index: u64,
        last: bool,
        input: &[u8],
        output: &mut [u8],
    ) -> Result<[u8; 16], FormatError> {
        let buf = aead::inout::InOutBuf::new(input, output).expect("equal lengths");
        Ok(self
            .cipher
            .seal_inout(&self.nonce(index, last)?, &self.aad, buf))
    }

    /// Decrypts chunk `index` in place and checks `tag`.
    ///
    /// # Errors
    /// [`FormatError::Auth`] if it does not authenticate.
    pub fn open_chunk(
        &self,
        index: u64,
        last: bool,
        buf: &mut [u8],
        tag: &[u8],
    ) -> Result<(), FormatError> {
        self.open_chunk_inout(index, last, buf.into(), tag)
    }

    /// Decrypts chunk `index` from `input` into `output` (same length) and checks `tag`.
    ///
    /// # Errors
    /// [`FormatError::Auth`] if it does not authenticate (then `output` holds no plaintext).
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn open_chunk_from(
        &self,
        index: u64,
        last: bool,
        input: &[u8],
        output: &mut [u8],
        tag: &[u8],
    ) -> Result<(), FormatError> {
        let buf = aead::inout::InOutBuf::new(input, output).expect("equal lengths");
        self.open_chunk_inout(index, last, buf, tag)
    }

    fn open_chunk_inout(
        &self,
        index: u64,
        last: bool,
        buf: aead::inout::InOutBuf<'_, '_, u8>,
        tag: &[u8],
    ) -> Result<(), FormatError> {
        let nonce = self.nonce(index, last)?;
        self.cipher
            .open_inout(&nonce, &self.aad, buf, tag)
            .map_err(|_| FormatError::Auth {
                index,
                offset: chunk_offset(self.header_len, index, self.chunk_log2).unwrap_or(u64::MAX),
            })
    }
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

/// One batch of consecutive chunks travelling through the pipeline.
struct Batch {
    /// `slots × (chunk + 16)` bytes; chunk `j` lives at `j × (chunk + 16)`.
    buf: Vec<u8>,
    /// Per chunk: plaintext length (encryption) or chunk length with tag (decryption),
    /// replaced by the plaintext length once opened.
    lens: Vec<usize>,
    /// Index of the batch's first chunk.
    first: u64,
    /// The batch ends with the final (short) chunk.
    has_last: bool,
    /// The input is exhausted after this batch.
    done: bool,
}

/// Chunks per batch for a chunk size.
fn batch_chunks(chunk: usize, batch: Option<usize>) -> usize {
    batch
        .unwrap_or_else(|| (BATCH_BYTES / chunk).max(rayon::current_num_threads()))
        .max(1)
}

type Item = Result<Batch, FormatError>;

/// Runs `fill` (reader thread) → `process` (sealing thread, parallel inside) → `emit`
/// (calling thread), with at most [`DEPTH`] batches allocated.
fn pipeline<R: Read + Send>(
    mut input: R,
    output: &mut dyn Write,
    batch_bytes: usize,
    mut fill: impl FnMut(&mut R, &mut Batch) -> Result<(), FormatError> + Send,
    process: impl Fn(&mut Batch) -> Result<(), FormatError> + Sync + Send,
    mut emit: impl FnMut(&Batch, &mut dyn Write) -> io::Result<()>,
) -> Result<(), FormatError> {
    std::thread::scope(|s| {
        let (to_seal, from_reader): (SyncSender<Item>, Receiver<Item>) = sync_channel(1);
        let (to_writer, from_sealer): (SyncSender<Item>, Receiver<Item>) = sync_channel(1);
        let (recycle, recycled) = channel::<Batch>();
        s.spawn(move || {
            let mut allocated = 0;
            loop {
                let mut b = if allocated < DEPTH {
                    allocated += 1;
                    Batch {
                        buf: vec![0u8; batch_bytes],
                        lens: Vec::new(),
                        first: 0,
                        has_last: false,
                        done: false,
                    }
                } else {
                    match recycled.recv() {
                        Ok(b) => b,
                        Err(_) => return,
                    }
                };
                b.lens.clear();
                b.has_last = false;
                b.done = false;
                let r = fill(&mut input, &mut b);
                let stop = r.is_err() || b.done;
                if to_seal.send(r.map(|()| b)).is_err() || stop {
                    return;
                }
            }
        });
        let process = &process;
        s.spawn(move || {
            for item in from_reader {
                let item = item.and_then(|mut b| process(&mut b).map(|()| b));
                let stop = item.as_ref().map_or(true, |b| b.done);
                if to_writer.send(item).is_err() || stop {
                    return;
                }
            }
        });
        for item in from_sealer {
            let b = item?;
            emit(&b, output)?;
            if b.done {
                return Ok(());
            }
            let _ = recycle.send(b);
        }
        Err(FormatError::Io(io::Error::other(
            "internal error: a pipeline thread stopped",
        )))
    })
}

/// Seals the chunks of batch `b` into its buffer: from the buffer itself (`src` = `None`, the
/// plaintext was read there) or from `src`, the whole input in memory. Chunks run in parallel.
fn seal_batch(sealer: &Sealer, b: &mut Batch, src: Option<&[u8]>) -> Result<(), FormatError> {
    let chunk = sealer.chunk_size();
    let slot = chunk + TAG_LEN;
    let count = b.lens.len();
    let (first, has_last) = (b.first, b.has_last);
    b.buf
        .par_chunks_mut(slot)
        .zip(b.lens.par_iter())
        .enumerate()
        .try_for_each(|(j, (s, &len))| {
            let index = first + j as u64;
            let last = has_last && j + 1 == count;
            let (body, tag) = s[..len + TAG_LEN].split_at_mut(len);
            let t = match src {
                Some(data) => {
                    let start = index as usize * chunk;
                    sealer.seal_chunk_from(index, last, &data[start..start + len], body)?
                }
                None => sealer.seal_chunk(index, last, body)?,
            };
            tag.copy_from_slice(&t);
            Ok(())
        })
}

/// Opens the chunks of batch `b` (lengths with tags in `b.lens`, replaced by plaintext
/// lengths): from its buffer (`src` = `None`) or from `src`, the whole body in memory, into
/// the buffer. Chunks run in parallel; the first failing one is reported.
fn open_batch(sealer: &Sealer, b: &mut Batch, src: Option<&[u8]>) -> Result<(), FormatError> {
    let slot = sealer.chunk_size() + TAG_LEN;
    let count = b.lens.len();
    let (first, has_last) = (b.first, b.has_last);
    if has_last && b.lens[count - 1] < TAG_LEN {
        return Err(FormatError::Truncated {
            chunks: first + count as u64 - 1,
            partial: b.lens[count - 1],
        });
    }
    let results: Vec<Result<(), FormatError>> = b
        .buf
        .par_chunks_mut(slot)
        .zip(b.lens.par_iter_mut())
        .enumerate()
        .map(|(j, (s, len))| {
            let index = first + j as u64;
            let last = has_last && j + 1 == count;
            let body = *len - TAG_LEN;
            match src {
                Some(data) => {
                    let start = index as usize * slot;
                    let (ct, tag) = data[start..start + *len].split_at(body);
                    sealer.open_chunk_from(index, last, ct, &mut s[..body], tag)?;
                }
                None => {
                    let (ct, tag) = s[..*len].split_at_mut(body);
                    sealer.open_chunk(index, last, ct, tag)?;
                }
            }
            *len = body;
            Ok(())
        })
        .collect();
    results.into_iter().collect::<Result<(), _>>()?;
    if b.done && !has_last {
        return Err(FormatError::Truncated {
            chunks: first + count as u64,
            partial: 0,
        });
    }
    Ok(())
}

/// Encrypts everything `input` holds into `output` (header bytes first); returns the
/// plaintext length. `progress` gets the plaintext bytes done after each batch.
/// `batch` overrides the chunks per batch (tests).
///
/// # Errors
/// [`FormatError::Io`] on read/write errors, [`FormatError::TooManyChunks`].
pub fn encrypt_stream<R: Read + Send>(
    sealer: &Sealer,
    header_bytes: &[u8],
    input: R,
    output: &mut dyn Write,
    batch: Option<usize>,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, FormatError> {
    encrypt_with(sealer, header_bytes, input, output, batch, progress, None)
}

/// Like [`encrypt_stream`] for input that is already in memory (a memory-mapped file): no
/// reading thread copies it into buffers; each chunk is sealed straight from `data` into the
/// batch that is written out.
///
/// # Errors
/// [`FormatError::Io`] on write errors, [`FormatError::TooManyChunks`].
pub fn encrypt_slice(
    sealer: &Sealer,
    header_bytes: &[u8],
    data: &[u8],
    output: &mut dyn Write,
    batch: Option<usize>,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, FormatError> {
    encrypt_with(
        sealer,
        header_bytes,
        data,
        output,
        batch,
        progress,
        Some(data),
    )
}

/// The encryption pipeline: batches of chunks read from `input` (`src` = `None`), or cut from
/// `src` (then `input` is `src` itself and is not read).
fn encrypt_with<R: Read + Send>(
    sealer: &Sealer,
    header_bytes: &[u8],
    mut input: R,
    output: &mut dyn Write,
    batch: Option<usize>,
    progress: &mut dyn FnMut(u64),
    src: Option<&[u8]>,
) -> Result<u64, FormatError> {
    let chunk = sealer.chunk_size();
    let slot = chunk + TAG_LEN;
    let n = batch_chunks(chunk, batch);
    output.write_all(header_bytes)?;
    let mut next = 0u64;
    let mut total = 0u64;
    let mut left = src.map_or(0, <[u8]>::len);
    pipeline(
        &mut input,
        output,
        n * slot,
        |r, b| {
            b.first = next;
            for j in 0..n {
                let got = match src {
                    Some(_) => {
                        let got = left.min(chunk);
                        left -= got;
                        got
                    }
                    None => read_full(r, &mut b.buf[j * slot..j * slot + chunk])?,
                };
                b.lens.push(got);
                if got < chunk {
                    b.has_last = true;
                    b.done = true;
                    break;
                }
            }
            next += b.lens.len() as u64;
            if next > 1 << 32 {
                return Err(FormatError::TooManyChunks);
            }
            Ok(())
        },
        |b| seal_batch(sealer, b, src),
        |b, out| {
            let k = b.lens.len();
            // Every chunk but the last is full, so the batch's output is contiguous.
            let end = (k - 1) * slot + b.lens[k - 1] + TAG_LEN;
            out.write_all(&b.buf[..end])?;
            let plain: u64 = b.lens.iter().map(|&l| l as u64).sum();
            total += plain;
            progress(total);
            Ok(())
        },
    )?;
    Ok(total)
}

/// Decrypts the chunks that `input` holds (positioned just after the header) into `output`;
/// every chunk is written only after it (and every chunk before it) authenticated. Returns the
/// plaintext length. On an error, what was already written is an authenticated prefix of the
/// plaintext: the caller must discard it (or, on stdout, report that it is incomplete).
///
/// # Errors
/// [`FormatError::Auth`], [`FormatError::Truncated`], [`FormatError::Io`].
pub fn decrypt_stream<R: Read + Send>(
    sealer: &Sealer,
    input: R,
    output: &mut dyn Write,
    batch: Option<usize>,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, FormatError> {
    decrypt_with(sealer, input, output, batch, progress, None)
}

/// Like [`decrypt_stream`] for a body that is already in memory (a memory-mapped file, from
/// just after the header): each chunk is opened straight from `body` into the batch that is
/// written out, with no reading thread copying it first.
///
/// # Errors
/// As [`decrypt_stream`].
pub fn decrypt_body_slice(
    sealer: &Sealer,
    body: &[u8],
    output: &mut dyn Write,
    batch: Option<usize>,
    progress: &mut dyn FnMut(u64),
) -> Result<u64, FormatError> {
    decrypt_with(sealer, body, output, batch, progress, Some(body))
}

/// The decryption pipeline: batches of chunks read from `input` (`src` = `None`), or cut
/// from `src` (then `input` is `src` itself and is only used to count what is left).
fn decrypt_with<R: Read + Send>(
    sealer: &Sealer,
    mut input: R,
    output: &mut dyn Write,
    batch: Option<usize>,
    progress: &mut dyn FnMut(u64),
    src: Option<&[u8]>,
) -> Result<u64, FormatError> {
    let chunk = sealer.chunk_size();
    let slot = chunk + TAG_LEN;
    let n = batch_chunks(chunk, batch);
    let mut next = 0u64;
    let mut total = 0u64;
    let mut left = src.map_or(0, <[u8]>::len);
    pipeline(
        &mut input,
        output,
        n * slot,
        |r, b| {
            b.first = next;
            let got = match src {
                Some(_) => {
                    let got = left.min(n * slot);
                    left -= got;
                    got
                }
                None => read_full(r, &mut b.buf[..n * slot])?,
            };
            b.lens.resize(got / slot, slot);
            if got < n * slot {
                b.done = true;
                if got % slot > 0 {
                    b.lens.push(got % slot);
                    b.has_last = true;
                }
            }
            next += b.lens.len() as u64;
            Ok(())
        },
        |b| open_batch(sealer, b, src),
        |b, out| {
            for (j, &len) in b.lens.iter().enumerate() {
                out.write_all(&b.buf[j * slot..j * slot + len])?;
                total += len as u64;
            }
            progress(total);
            Ok(())
        },
    )?;
    Ok(total)
}

/// Encrypts `plaintext` into a complete native file in memory (tests, fuzzing, examples).
///
/// # Errors
/// As [`Sealer::new`].
pub fn encrypt_to_vec(
    header: &Header,
    ad: &[u8],
    key: &[u8],
    plaintext: &[u8],
    batch: Option<usize>,
) -> Result<Vec<u8>, FormatError> {
    let bytes = header.to_bytes();
    let sealer = Sealer::new(header, &bytes, ad, key)?;
    let mut out = Vec::new();
    encrypt_stream(&sealer, &bytes, plaintext, &mut out, batch, &mut |_| {})?;
    Ok(out)
}

/// Decrypts a complete native file held in memory with a raw `key` (whatever the header's key
/// source says); returns the header and the plaintext.
///
/// # Errors
/// Any [`FormatError`] of header parsing or decryption.
pub fn decrypt_slice(
    file: &[u8],
    ad: &[u8],
    key: &[u8],
    batch: Option<usize>,
) -> Result<(Header, Vec<u8>), FormatError> {
    let (header, len) = Header::parse(file)?;
    let sealer = Sealer::new(&header, &file[..len], ad, key)?;
    let mut out = Vec::new();
    decrypt_stream(&sealer, &file[len..], &mut out, batch, &mut |_| {})?;
    Ok((header, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(alg: Algorithm, log2: u8) -> Header {
        Header {
            algorithm: alg,
            chunk_log2: log2,
            key_source: KeySource::KeyFile,
            nonce_prefix: [7; PREFIX_LEN],
        }
    }

    #[test]
    fn in_memory_input_matches_streamed_input() {
        let data: Vec<u8> = (0..5000u32).map(|i| (i * 31 + 7) as u8).collect();
        for alg in [Algorithm::Hiae, Algorithm::HiaeX4, Algorithm::GiftCofb] {
            let h = header(alg, 6);
            let bytes = h.to_bytes();
            let key = vec![9u8; alg.key_len()];
            let sealer = Sealer::new(&h, &bytes, b"ad", &key).unwrap();
            // Empty, shorter than a chunk, exact multiples, several batches with a tail.
            for len in [0, 1, 63, 64, 128, 200, 4096, 5000] {
                for batch in [None, Some(1), Some(3)] {
                    let mut streamed = Vec::new();
                    encrypt_stream(
                        &sealer,
                        &bytes,
                        &data[..len],
                        &mut streamed,
                        batch,
                        &mut |_| {},
                    )
                    .unwrap();
                    let mut mapped = Vec::new();
                    let mut seen = 0;
                    let n = encrypt_slice(
                        &sealer,
                        &bytes,
                        &data[..len],
                        &mut mapped,
                        batch,
                        &mut |p| seen = p,
                    )
                    .unwrap();
                    assert_eq!(n, len as u64);
                    assert_eq!(seen, len as u64);
                    assert_eq!(mapped, streamed, "{alg:?} {len} {batch:?}");
                    let (_, back) = decrypt_slice(&mapped, b"ad", &key, None).unwrap();
                    assert_eq!(back, &data[..len]);
                    // Decryption from memory gives the same, and rejects the same damage.
                    let body = &mapped[bytes.len()..];
                    let mut out = Vec::new();
                    decrypt_body_slice(&sealer, body, &mut out, batch, &mut |_| {}).unwrap();
                    assert_eq!(out, &data[..len]);
                    let mut bad = body.to_vec();
                    let at = (len * 7) % bad.len();
                    bad[at] ^= 1;
                    let mut out = Vec::new();
                    let r = decrypt_body_slice(&sealer, &bad, &mut out, batch, &mut |_| {});
                    assert!(matches!(r, Err(FormatError::Auth { .. })), "{len} {at}");
                    let mut out = Vec::new();
                    let r = decrypt_body_slice(
                        &sealer,
                        &body[..body.len() - 1],
                        &mut out,
                        batch,
                        &mut |_| {},
                    );
                    assert!(r.is_err());
                }
            }
        }
    }

    #[test]
    fn layout_arithmetic_over_4_gib() {
        let c = 1u64 << 18;
        assert_eq!(chunk_count(0, 18), 1);
        assert_eq!(chunk_count(c - 1, 18), 1);
        assert_eq!(chunk_count(c, 18), 2);
        let five_gib = 5u64 << 30;
        let chunks = five_gib / c + 1;
        assert_eq!(chunk_count(five_gib, 18), chunks);
        let len = encrypted_len(24, five_gib, 18).unwrap();
        assert_eq!(len, 24 + five_gib + 16 * chunks);
        assert_eq!(plaintext_len(24, len, 18).unwrap(), five_gib);
        assert_eq!(
            chunk_offset(24, chunks - 1, 18).unwrap(),
            24 + (chunks - 1) * (c + 16)
        );
        // Past 2^32 bytes and past 2^32 chunks of 64 bytes.
        for plain in [
            0,
            1,
            63,
            64,
            65,
            (1 << 32) + 5,
            (1u64 << 38) + 64,
            u64::MAX >> 8,
        ] {
            for log2 in [6, 18, 22] {
                let len = encrypted_len(52, plain, log2).unwrap();
                assert_eq!(
                    plaintext_len(52, len, log2).unwrap(),
                    plain,
                    "{plain} {log2}"
                );
                // A chunk boundary cut, or a cut inside a tag, is not a valid length.
                let last_at = chunk_offset(52, chunk_count(plain, log2) - 1, log2).unwrap();
                assert!(plaintext_len(52, last_at, log2).is_err());
                assert!(plaintext_len(52, last_at + 15, log2).is_err());
                assert_eq!(
                    plaintext_len(52, last_at + 16, log2).unwrap(),
                    plain >> log2 << log2
                );
            }
        }
        assert!(encrypted_len(24, u64::MAX, 6).is_none());
        assert!(plaintext_len(24, 24 + 15, 18).is_err());
        assert!(plaintext_len(24, 24 + c + 16, 18).is_err());
        assert_eq!(plaintext_len(24, 24 + c + 32, 18).unwrap(), c);
        assert!(plaintext_len(24, 10, 18).is_err());
        // Counter: chunk 2^32 - 1 is the last usable one.
        let s = Sealer::new(
            &header(Algorithm::Hiae, 6),
            &header(Algorithm::Hiae, 6).to_bytes(),
            b"",
            &[1; 32],
        )
        .unwrap();
        assert!(s.seal_chunk(u32::MAX as u64, true, &mut []).is_ok());
        assert!(matches!(
            s.seal_chunk(1 << 32, true, &mut []),
            Err(FormatError::TooManyChunks)
        ));
    }

    #[test]
    fn nonce_is_stream_be32() {
        use aead_stream::{NewStream, StreamBE32, StreamPrimitive};
        let key = [9u8; 32];
        let h = header(Algorithm::Hiae, 6);
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
            let tag = sealer.seal_chunk(pos as u64, last, &mut got).unwrap();
            got.extend_from_slice(&tag);
            assert_eq!(got, want);
        }
    }

    #[test]
    fn header_round_trip_and_rejects() {
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
        assert_eq!(
            Header::parse(&b).unwrap(),
            (h.clone(), BASE_HEADER_LEN + ARGON2_EXT_LEN)
        );
        assert_eq!(Header::read_from(&mut &b[..]).unwrap().1, b);
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
        ] {
            let mut bad = b.clone();
            bad[i] = v;
            assert!(Header::parse(&bad).is_err(), "byte {i} = {v}");
        }
    }

    #[test]
    fn round_trips_across_batches_and_tampering() {
        for alg in Algorithm::ALL {
            let key = vec![0x5a; alg.key_len()];
            let h = header(alg, 6);
            for len in [0usize, 1, 63, 64, 65, 64 * 3 + 7, 64 * 9] {
                let msg: Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
                for batch in [Some(1), Some(2), Some(3), None] {
                    let file = encrypt_to_vec(&h, b"ad", &key, &msg, batch).unwrap();
                    assert_eq!(file.len() as u64, encrypted_len(24, len as u64, 6).unwrap());
                    let (_, back) = decrypt_slice(&file, b"ad", &key, batch).unwrap();
                    assert_eq!(back, msg);
                    assert!(decrypt_slice(&file, b"ax", &key, batch).is_err());
                    // Truncation at every length short of the whole file fails.
                    for cut in (0..file.len()).step_by(5).chain([file.len() - 1]) {
                        assert!(
                            decrypt_slice(&file[..cut], b"ad", &key, batch).is_err(),
                            "{alg} {len} cut {cut}"
                        );
                    }
                    let mut ext = file.clone();
                    ext.push(0);
                    assert!(decrypt_slice(&ext, b"ad", &key, batch).is_err());
                    for i in (0..file.len()).step_by(11) {
                        let mut f = file.clone();
                        f[i] ^= 0x20;
                        assert!(decrypt_slice(&f, b"ad", &key, batch).is_err(), "flip {i}");
                    }
                }
            }
        }
    }

    #[test]
    fn reordered_and_duplicated_chunks_fail() {
        let key = [1u8; 32];
        let h = header(Algorithm::Hiae, 6);
        let msg = vec![0xabu8; 64 * 4 + 10];
        let file = encrypt_to_vec(&h, b"", &key, &msg, Some(2)).unwrap();
        let s = 80;
        let body = &file[24..];
        let chunk = |i: usize| &body[i * s..((i + 1) * s).min(body.len())];
        let mut swapped = file[..24].to_vec();
        for i in [0, 2, 1, 3, 4] {
            swapped.extend_from_slice(chunk(i));
        }
        let e = decrypt_slice(&swapped, b"", &key, Some(2)).unwrap_err();
        assert!(matches!(e, FormatError::Auth { index: 1, .. }), "{e}");
        let mut dup = file[..24].to_vec();
        for i in [0, 1, 1, 2, 3, 4] {
            dup.extend_from_slice(chunk(i));
        }
        let e = decrypt_slice(&dup, b"", &key, Some(2)).unwrap_err();
        assert!(matches!(e, FormatError::Auth { index: 2, .. }), "{e}");
        let e = decrypt_slice(&file[..24 + 4 * s], b"", &key, None).unwrap_err();
        assert!(
            matches!(
                e,
                FormatError::Truncated {
                    chunks: 4,
                    partial: 0
                }
            ),
            "{e}"
        );
    }
}
