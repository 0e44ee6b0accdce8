//! Why a file could not be written or read: [`Error`], carried inside [`std::io::Error`].

use std::fmt;
use std::io;

use crate::Algorithm;

/// What went wrong with a native file (or a libhiae one), apart from plain I/O failures.
///
/// Every API of this crate returns [`io::Result`]: these errors travel inside an
/// [`io::Error`] whose [`kind`](io::Error::kind) is [`Error::kind`] (`InvalidData` for
/// damaged, forged or foreign data, `UnexpectedEof` for a truncated stream, `InvalidInput`
/// for a wrong key length or a bad parameter). Get the details back with
/// [`Error::from_io`]:
///
/// ```
/// # use aeadfast_file::{Decryptor, Encryptor, Algorithm, Error};
/// # use std::io::{Read, Write};
/// let key = [7u8; 32];
/// let mut enc = Encryptor::builder(Algorithm::Hiae).chunk_log2(6).build(Vec::new(), &key)?;
/// enc.write_all(&[1u8; 300])?;
/// let mut file = enc.finish()?;
/// let last = file.len() - 1;
/// file[last] ^= 1; // damage the tag of the last chunk (chunk 4)
/// let mut dec = Decryptor::new(&file[..], &key)?;
/// let mut out = Vec::new();
/// let err = dec.read_to_end(&mut out).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
/// assert!(matches!(Error::from_io(&err), Some(Error::Auth { index: 4, .. })));
/// assert_eq!(out.len(), 256); // the four verified chunks before it
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The header is malformed or unsupported (the message says how).
    Header(String),
    /// A key of the wrong length for the algorithm.
    KeyLength {
        /// The algorithm.
        algorithm: Algorithm,
        /// The length given.
        got: usize,
    },
    /// A passphrase was given for a file made with a raw key.
    NotPassphraseProtected,
    /// The header asks for Argon2id work above the decryptor's [`KdfLimits`](crate::KdfLimits)
    /// (checked before anything is allocated).
    KdfLimit {
        /// What the header asks for.
        params: crate::Argon2Params,
        /// The limits in force.
        limits: crate::KdfLimits,
    },
    /// Argon2id refused its parameters.
    Kdf(String),
    /// Chunk `index` did not authenticate: a wrong key, passphrase or associated data when it
    /// is chunk 0, otherwise a modified file (changed, reordered, duplicated, spliced or cut).
    Auth {
        /// Chunk number (0-based).
        index: u64,
        /// Byte offset of the chunk in the file (header included).
        offset: u64,
    },
    /// The stream ended without its final chunk.
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
    /// More than 2^32 chunks: the chunk counter would wrap.
    TooManyChunks,
    /// A parameter is out of range (the message says which).
    InvalidParameter(String),
    /// A libhiae file (one HiAE message) did not authenticate: a wrong key or associated
    /// data, or a modified file.
    MessageAuth,
    /// A libhiae file is shorter than its layout needs.
    MessageTruncated,
    /// The input changed between the verifying pass and the decrypting pass of a libhiae
    /// file; what the second pass wrote must be discarded.
    InputChanged,
}

impl Error {
    /// The [`io::ErrorKind`] this error travels with.
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            Error::Truncated { .. } => io::ErrorKind::UnexpectedEof,
            Error::KeyLength { .. }
            | Error::NotPassphraseProtected
            | Error::Kdf(_)
            | Error::InvalidParameter(_) => io::ErrorKind::InvalidInput,
            Error::TooManyChunks => io::ErrorKind::FileTooLarge,
            Error::Header(_)
            | Error::KdfLimit { .. }
            | Error::Auth { .. }
            | Error::BadLength { .. }
            | Error::MessageAuth
            | Error::MessageTruncated
            | Error::InputChanged => io::ErrorKind::InvalidData,
        }
    }

    /// Whether this error means that the data did not verify (damaged, forged, truncated or
    /// foreign data, or a wrong key, passphrase or associated data), as opposed to a usage
    /// problem (a key of the wrong length, a bad parameter, a refused KDF cost).
    pub fn is_verification(&self) -> bool {
        matches!(
            self,
            Error::Header(_)
                | Error::Auth { .. }
                | Error::Truncated { .. }
                | Error::BadLength { .. }
                | Error::MessageAuth
                | Error::MessageTruncated
                | Error::InputChanged
        )
    }

    /// The [`Error`] inside an [`io::Error`] returned by this crate, if it holds one (plain I/O
    /// failures of the underlying reader or writer do not).
    pub fn from_io(e: &io::Error) -> Option<&Error> {
        e.get_ref().and_then(|inner| inner.downcast_ref::<Error>())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Header(m) => write!(f, "bad header: {m}"),
            Error::KeyLength { algorithm, got } => write!(
                f,
                "the key is {got} bytes but {algorithm} needs a {}-byte key",
                algorithm.key_len()
            ),
            Error::NotPassphraseProtected => {
                f.write_str("the file was encrypted with a raw key, not a passphrase")
            }
            Error::KdfLimit { params, limits } => write!(
                f,
                "the header asks for Argon2id with m = {} KiB, t = {}, p = {}, above the limits \
                 accepted by default (m <= {} KiB, t <= {}, p <= {}); a file from an unknown \
                 source can ask for this to exhaust memory and time before anything is \
                 authenticated",
                params.m_kib, params.t, params.p, limits.max_m_kib, limits.max_t, limits.max_p
            ),
            Error::Kdf(m) => write!(f, "Argon2id: {m}"),
            Error::Auth { index: 0, .. } => f.write_str(
                "authentication failed on the first chunk: wrong key or passphrase, wrong \
                 associated data, or the file is corrupted",
            ),
            Error::Auth { index, offset } => write!(
                f,
                "chunk {index} (byte offset {offset}) failed authentication: the file was \
                 modified (corrupted, chunks reordered or duplicated, truncated or extended)"
            ),
            Error::Truncated { chunks, partial: 0 } => write!(
                f,
                "the file is truncated: it ends after {chunks} chunk(s) without the final chunk"
            ),
            Error::Truncated { chunks, partial } => write!(
                f,
                "the file is truncated: it ends {partial} byte(s) into chunk {chunks}, too short \
                 to hold a tag"
            ),
            Error::BadLength { len } => write!(
                f,
                "the file length ({len} bytes) does not fit the chunk layout of its header: it \
                 was truncated or extended, or its header is corrupted"
            ),
            Error::TooManyChunks => {
                f.write_str("more than 2^32 chunks: use a larger chunk size for inputs this big")
            }
            Error::InvalidParameter(m) => f.write_str(m),
            Error::MessageAuth => f.write_str(
                "authentication failed: wrong key, wrong associated data, or the file was \
                 modified",
            ),
            Error::MessageTruncated => {
                f.write_str("the file is truncated: shorter than its layout needs")
            }
            Error::InputChanged => f.write_str(
                "the input changed while it was being decrypted (it verified on the first \
                 pass, not on the second): discard the output",
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<Error> for io::Error {
    fn from(e: Error) -> Self {
        io::Error::new(e.kind(), e)
    }
}
