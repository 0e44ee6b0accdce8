//! [`Decryptor`]: a native file in, verified plaintext out through `Read` (and [`Seek`]
//! when the file is seekable, in `seek.rs`).

use std::fmt;
use std::io::{self, Read, Write};

use crate::batch::{self, Batch};
use crate::chunk::Sealer;
use crate::header::{Header, KeySource};
use crate::kdf::KdfLimits;
use crate::pipeline::{OPEN_MIN_BATCH_BYTES, chunks_per_batch, overlap, overlap2};
use crate::{Algorithm, Error};

/// Options for reading a file; [`read_header`](Self::read_header) then gives a [`Locked`]
/// decryptor to unlock with a key or passphrase.
#[derive(Clone, Debug, Default)]
pub struct DecryptorBuilder {
    ad: Vec<u8>,
    limits: KdfLimits,
    algorithm: Option<Algorithm>,
    batch_bytes: Option<usize>,
}

impl DecryptorBuilder {
    /// Plaintext bytes opened per batch when reading in order (rounded down to whole chunks,
    /// at least one). The default is one chunk per thread, at least 2 MiB and at most 16 MiB;
    /// memory use is about three batches.
    pub fn batch_size(mut self, bytes: usize) -> Self {
        self.batch_bytes = Some(bytes);
        self
    }

    /// The associated data the file was encrypted with (default: none).
    pub fn associated_data(mut self, ad: &[u8]) -> Self {
        self.ad = ad.to_vec();
        self
    }

    /// The largest Argon2id cost accepted from a passphrase file's header (default
    /// [`KdfLimits::DEFAULT`]).
    pub fn kdf_limits(mut self, limits: KdfLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Accept only files of `algorithm`.
    pub fn expect_algorithm(mut self, algorithm: Algorithm) -> Self {
        self.algorithm = Some(algorithm);
        self
    }

    /// Reads and checks the header from `reader` (nothing after it).
    ///
    /// # Errors
    /// [`Error::Header`] for a malformed, foreign or truncated header, or a header of another
    /// algorithm than [`expect_algorithm`](Self::expect_algorithm) named; read errors.
    pub fn read_header<R: Read>(self, mut reader: R) -> io::Result<Locked<R>> {
        let (header, header_bytes) = Header::read_from(&mut reader)?;
        if let Some(a) = self.algorithm
            && a != header.algorithm
        {
            return Err(Error::Header(format!(
                "the file was encrypted with {}, not {a}",
                header.algorithm
            ))
            .into());
        }
        Ok(Locked {
            reader,
            header,
            header_bytes,
            builder: self,
        })
    }
}

/// A file whose header was read and checked, waiting for its key or passphrase (see
/// [`header`](Self::header)'s key source for which one).
pub struct Locked<R> {
    reader: R,
    header: Header,
    header_bytes: Vec<u8>,
    builder: DecryptorBuilder,
}

impl<R> fmt::Debug for Locked<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Locked")
            .field("header", &self.header)
            .finish_non_exhaustive()
    }
}

impl<R: Read> Locked<R> {
    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Unlocks with a raw key (for a passphrase file, the key Argon2id derives).
    ///
    /// # Errors
    /// [`Error::KeyLength`] if the key does not fit the algorithm. A wrong key is found when
    /// the first chunk is read.
    pub fn unlock_with_key(self, key: &[u8]) -> io::Result<Decryptor<R>> {
        let sealer = Sealer::new(&self.header, &self.header_bytes, &self.builder.ad, key)?;
        Ok(Decryptor::start(
            self.reader,
            self.header,
            sealer,
            self.builder.batch_bytes,
        ))
    }

    /// Unlocks a passphrase file: checks the header's Argon2id cost against the limits
    /// (before allocating anything), then derives the key.
    ///
    /// # Errors
    /// [`Error::NotPassphraseProtected`], [`Error::KdfLimit`], [`Error::Kdf`]. A wrong
    /// passphrase is found when the first chunk is read.
    pub fn unlock_with_passphrase(self, passphrase: &[u8]) -> io::Result<Decryptor<R>> {
        let KeySource::Argon2id(params) = self.header.key_source else {
            return Err(Error::NotPassphraseProtected.into());
        };
        self.builder.limits.check(&params)?;
        let key = params.derive(passphrase, self.header.algorithm.key_len())?;
        self.unlock_with_key(&key)
    }
}

/// A failure that stays until the next seek.
#[derive(Clone, Debug)]
enum Failure {
    Format(Error),
    Io(io::ErrorKind, String),
}

impl Failure {
    fn of(e: &io::Error) -> Failure {
        match Error::from_io(e) {
            Some(f) => Failure::Format(f.clone()),
            None => Failure::Io(e.kind(), e.to_string()),
        }
    }

    fn to_io(&self) -> io::Error {
        match self {
            Failure::Format(e) => e.clone().into(),
            Failure::Io(kind, m) => io::Error::new(*kind, m.clone()),
        }
    }
}

/// A batch read from the file but not opened yet, and the error that follows it (the stream
/// ends without its final chunk).
pub(crate) type Raw = (Batch, Option<Error>);

/// Decrypts a native file read from `R`, releasing only verified plaintext.
///
/// **The guarantee.** Every chunk is authenticated (its position and whether it is the last
/// one included) before any of its bytes is returned by [`read`](Read::read) or written by
/// [`copy_to`](Self::copy_to); a chunk that fails is never released, and the plaintext of
/// the chunks before it is. So a stream that was cut, reordered, duplicated, spliced or
/// tampered with gives the verified plaintext of its leading intact chunks and then an
/// error — never a silent end of file: `Ok(0)` comes only after the final chunk verified.
/// **A consumer must treat an error before `Ok(0)` as the failure of the whole stream** and
/// discard (or not act on) what it read, exactly as with `age` and other STREAM formats.
///
/// The errors ([`Error`] inside [`io::Error`]): `InvalidData` with [`Error::Auth`] (chunk
/// `index`; on chunk 0 this is also what a wrong key, passphrase or associated data gives),
/// `UnexpectedEof` with [`Error::Truncated`], `InvalidData` with [`Error::Header`] or
/// [`Error::BadLength`]. An error stays until a [`seek`](std::io::Seek::seek): later reads
/// return it again.
///
/// Chunks are opened in batches on every core (feature `parallel`); memory stays at a few
/// batches (2–16 MiB each, [`crate::pipeline`]) whatever the file size.
///
/// ```
/// use std::io::{Read, Write};
/// use aeadfast_file::{Algorithm, Decryptor, Encryptor};
///
/// let key = [9u8; 16];
/// let mut enc = Encryptor::builder(Algorithm::GiftCofb)
///     .associated_data(b"v1")
///     .build(Vec::new(), &key)?;
/// enc.write_all(&vec![5u8; 1_000_000])?;
/// let file = enc.finish()?;
///
/// let mut dec = Decryptor::builder()
///     .associated_data(b"v1")
///     .read_header(&file[..])?
///     .unlock_with_key(&key)?;
/// let mut plain = Vec::new();
/// dec.read_to_end(&mut plain)?;
/// assert_eq!(plain, vec![5u8; 1_000_000]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Decryptor<R> {
    pub(crate) reader: R,
    header: Header,
    pub(crate) sealer: Sealer,
    /// Chunks per full batch.
    n: usize,
    /// Verified plaintext in slot layout, `ready_len` bytes from plaintext offset
    /// `ready_start`.
    pub(crate) ready: Batch,
    pub(crate) ready_start: u64,
    pub(crate) ready_len: usize,
    /// Plaintext offset of the next byte to return.
    pub(crate) pos: u64,
    /// The batch after `ready`, read but not opened.
    pub(crate) ahead: Option<Raw>,
    /// Free buffers.
    spare: Vec<Vec<u8>>,
    /// The chunk `reader` stands at (after `ahead`).
    pub(crate) next_chunk: u64,
    /// Body bytes read from `reader` since the header.
    pub(crate) consumed: u64,
    /// Offset of the body in `reader` (known once needed by a seek).
    pub(crate) body_start: Option<u64>,
    /// Plaintext length, known once the final chunk verified.
    pub(crate) plain_len: Option<u64>,
    /// Plaintext length from the file length (not verified).
    pub(crate) claimed_len: Option<u64>,
    failed: Option<Failure>,
    /// Batches read one after the other since the last seek (sizes batches after a seek).
    pub(crate) run: u32,
}

impl<R> fmt::Debug for Decryptor<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decryptor")
            .field("header", &self.header)
            .field("position", &self.pos)
            .finish_non_exhaustive()
    }
}

impl Decryptor<()> {
    /// Options (associated data, KDF limits, expected algorithm) for reading a file.
    pub fn builder() -> DecryptorBuilder {
        DecryptorBuilder::default()
    }
}

impl<R: Read> Decryptor<R> {
    /// Reads the header from `reader` and unlocks the file with a raw `key` (no associated
    /// data).
    ///
    /// # Errors
    /// As [`DecryptorBuilder::read_header`] and [`Locked::unlock_with_key`].
    pub fn new(reader: R, key: &[u8]) -> io::Result<Self> {
        Decryptor::builder()
            .read_header(reader)?
            .unlock_with_key(key)
    }

    /// Reads the header from `reader` and unlocks a passphrase file (no associated data,
    /// default KDF limits).
    ///
    /// # Errors
    /// As [`DecryptorBuilder::read_header`] and [`Locked::unlock_with_passphrase`].
    pub fn with_passphrase(reader: R, passphrase: &[u8]) -> io::Result<Self> {
        Decryptor::builder()
            .read_header(reader)?
            .unlock_with_passphrase(passphrase)
    }

    fn start(reader: R, header: Header, sealer: Sealer, batch: Option<usize>) -> Self {
        Decryptor {
            reader,
            n: batch.map_or_else(
                || chunks_per_batch(header.chunk_log2, OPEN_MIN_BATCH_BYTES),
                |b| (b >> header.chunk_log2).max(1),
            ),
            header,
            sealer,
            ready: Batch::default(),
            ready_start: 0,
            ready_len: 0,
            pos: 0,
            ahead: None,
            spare: Vec::new(),
            next_chunk: 0,
            consumed: 0,
            body_start: None,
            plain_len: None,
            claimed_len: None,
            failed: None,
            run: u32::MAX,
        }
    }

    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The plaintext length, once the final chunk verified.
    pub fn verified_len(&self) -> Option<u64> {
        self.plain_len
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The underlying reader (its position is wherever decryption left it).
    pub fn into_inner(self) -> R {
        self.reader
    }

    pub(crate) fn take_buf(&mut self) -> Batch {
        let buf = self.spare.pop().unwrap_or_default();
        Batch::with_buf(buf, self.n, self.sealer.stride())
    }

    pub(crate) fn give_buf(&mut self, buf: Vec<u8>) {
        if !buf.is_empty() && self.spare.len() < 3 {
            self.spare.push(buf);
        }
    }

    /// Whether the reader (or the batch read ahead) continues right after the verified
    /// plaintext in hand.
    pub(crate) fn ready_continues(&self) -> bool {
        let end_chunk = self.ready.first + self.ready.lens.len() as u64;
        let next = self
            .ahead
            .as_ref()
            .map_or(self.next_chunk, |(b, _)| b.first);
        self.ready_len > 0 && next == end_chunk && self.failed.is_none()
    }

    /// Drops the verified plaintext and the batch read ahead.
    pub(crate) fn clear(&mut self) {
        let ready = std::mem::take(&mut self.ready);
        self.give_buf(ready.buf);
        self.ready_len = 0;
        if let Some((b, _)) = self.ahead.take() {
            self.give_buf(b.buf);
        }
        self.failed = None;
    }

    /// Chunks to read in the next batch: one after a seek, doubling while the reads go on in
    /// order, up to a full batch.
    fn batch_chunks(&self) -> usize {
        if self.run >= 31 {
            self.n
        } else {
            self.n.min(1 << self.run)
        }
    }

    fn fail(&mut self, e: &io::Error) {
        self.failed = Some(Failure::of(e));
    }

    /// Reads the next batch from `reader` (at chunk `next_chunk`).
    fn read_raw(&mut self, chunks: usize) -> io::Result<Raw> {
        let mut b = self.take_buf();
        let stride = self.sealer.stride();
        let (got, trailing) =
            batch::read_stored(&mut self.reader, &mut b, self.next_chunk, chunks, stride)?;
        self.consumed += got as u64;
        self.next_chunk += b.lens.len() as u64;
        Ok((b, trailing))
    }

    /// Copies verified plaintext at `pos` into `out`; `None` if none is ready there.
    fn serve(&mut self, out: &mut [u8]) -> Option<usize> {
        let end = self.ready_start + self.ready_len as u64;
        if self.pos < self.ready_start || self.pos >= end {
            return None;
        }
        let at = (self.pos - self.ready_start) as usize;
        let (chunk, stride) = (self.sealer.chunk_size(), self.sealer.stride());
        let n =
            batch::copy_from_slots(&self.ready.buf, at, self.ready_len - at, out, chunk, stride);
        self.pos += n as u64;
        Some(n)
    }

    /// Reads and opens the next batch: straight into `dst` when it holds the whole batch and
    /// the position is at its start (returns the bytes placed there), else into `ready`.
    fn fill(&mut self, dst: Option<&mut [u8]>) -> io::Result<Option<usize>> {
        let log2 = self.sealer.chunk_log2();
        let want = self
            .ahead
            .as_ref()
            .map_or(self.next_chunk, |(b, _)| b.first);
        if self.pos >> log2 != want {
            return Err(io::Error::other(
                "internal error: the decryptor lost its place in the file",
            ));
        }
        // The verified plaintext in hand is behind the position: its buffer is free.
        if !self.ready.buf.is_empty() {
            let old = std::mem::take(&mut self.ready);
            self.give_buf(old.buf);
            self.ready_len = 0;
        }
        let steady = self.run >= 31 || (1usize << self.run) >= self.n;
        let chunks = self.batch_chunks();
        let (mut raw, trailing) = match self.ahead.take() {
            Some(a) => a,
            None => self.read_raw(chunks)?,
        };
        self.run = self.run.saturating_add(1);
        if raw.lens.is_empty() {
            self.give_buf(raw.buf);
            let e = trailing.unwrap_or(Error::Truncated {
                chunks: want,
                partial: 0,
            });
            self.failed = Some(Failure::Format(e));
            return Ok(None);
        }
        let capacity: usize = raw.lens.iter().map(|l| l - crate::header::TAG_LEN).sum();
        let at_start = self.pos == raw.first << log2;
        let dst = dst.filter(|d| at_start && d.len() >= capacity);
        let fast = dst.is_some();
        let read_ahead = steady && !raw.has_last && trailing.is_none();
        let n = self.n;
        let stride = self.sealer.stride();
        let mut ahead_batch = read_ahead.then(|| self.take_buf());
        let next_chunk = self.next_chunk;
        let (sealer, reader) = (&self.sealer, &mut self.reader);
        let (err, read) = match ahead_batch.as_mut() {
            // Reading ahead overlaps opening this batch on the pool.
            Some(b) => overlap(
                || batch::open(sealer, &mut raw, dst),
                || batch::read_stored(reader, b, next_chunk, n, stride).map(Some),
            ),
            // Nothing to overlap (after a seek, or at the end): open here, without handing
            // the batch to the pool and waiting for it (tens of microseconds per read).
            None => (batch::open(sealer, &mut raw, dst), Ok(None)),
        };
        match read {
            Ok(Some((got, t))) => {
                let b = ahead_batch.take().expect("read into it");
                self.consumed += got as u64;
                self.next_chunk += b.lens.len() as u64;
                self.ahead = Some((b, t));
            }
            Ok(None) => {}
            Err(e) => {
                // The batch being opened is still good; the read error comes after it.
                self.fail(&e);
            }
        }
        if let Some(b) = ahead_batch {
            self.give_buf(b.buf);
        }
        let verified = raw.plain_len();
        if raw.has_last && err.is_none() {
            self.plain_len = Some((raw.first << log2) + verified as u64);
        }
        if let Some(e) = err.or(trailing) {
            self.failed = Some(Failure::Format(e));
        }
        if fast {
            self.pos += verified as u64;
            self.give_buf(raw.buf);
            // What `ready` held is behind the position now.
            let old = std::mem::take(&mut self.ready);
            self.give_buf(old.buf);
            self.ready_len = 0;
            return Ok((verified > 0).then_some(verified));
        }
        let old = std::mem::replace(&mut self.ready, raw);
        self.give_buf(old.buf);
        self.ready_start = self.ready.first << log2;
        self.ready_len = verified;
        Ok(None)
    }

    /// The verified plaintext at `pos`, in pieces, for [`copy_to`](Self::copy_to).
    fn write_ready<W: Write + ?Sized>(&mut self, w: &mut W) -> io::Result<u64> {
        let mut total = 0u64;
        let (chunk, stride) = (self.sealer.chunk_size(), self.sealer.stride());
        let end = self.ready_start + self.ready_len as u64;
        while self.pos >= self.ready_start && self.pos < end {
            let at = (self.pos - self.ready_start) as usize;
            let (j, o) = (at / chunk, at % chunk);
            let n = (chunk - o).min(self.ready_len - at);
            w.write_all(&self.ready.buf[j * stride + o..j * stride + o + n])?;
            self.pos += n as u64;
            total += n as u64;
        }
        Ok(total)
    }
}

impl<R: Read + Send> Decryptor<R> {
    /// Decrypts everything from the current position to the end into `out`, reading the next
    /// batch and opening the current one (on the thread pool) while the previous one is
    /// written (on this thread). Returns the plaintext bytes written.
    ///
    /// The guarantee is [`read`](Read::read)'s: only verified chunks reach `out`, in order,
    /// and an error means that what was written is an incomplete prefix.
    ///
    /// # Errors
    /// As [`read`](Read::read), and write errors of `out`.
    pub fn copy_to<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<u64> {
        let mut total = 0u64;
        let log2 = self.sealer.chunk_log2();
        // Up to a chunk boundary through the ordinary path.
        loop {
            total += self.write_ready(out)?;
            if let Some(f) = &self.failed {
                return Err(f.to_io());
            }
            if self.plain_len.is_some_and(|l| self.pos >= l) {
                return Ok(total);
            }
            if self.pos & ((1 << log2) - 1) == 0 && self.ahead.is_none() {
                break;
            }
            self.fill(None)?;
        }
        let r = self.copy_pipelined(out);
        match r {
            Ok(n) => Ok(total + n),
            Err(e) => {
                if self.failed.is_none() {
                    self.fail(&e);
                }
                Err(e)
            }
        }
    }

    fn copy_pipelined<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<u64> {
        let log2 = self.sealer.chunk_log2();
        let (n, stride, chunk) = (self.n, self.sealer.stride(), self.sealer.chunk_size());
        if self.next_chunk != self.pos >> log2 {
            return Err(io::Error::other(
                "internal error: the decryptor lost its place in the file",
            ));
        }
        let old = std::mem::take(&mut self.ready);
        self.give_buf(old.buf);
        self.ready_len = 0;
        let mut total = 0u64;
        let mut opening: Option<Raw> = None;
        let mut to_write: Option<Raw> = None;
        let mut reading_done = false;
        loop {
            if opening.is_none() && to_write.is_none() && reading_done {
                return Ok(total);
            }
            let mut reading = (!reading_done).then(|| self.take_buf());
            let first = self.next_chunk;
            let (sealer, reader) = (&self.sealer, &mut self.reader);
            let (read, opened, written) = overlap2(
                || match reading.as_mut() {
                    Some(b) => batch::read_stored(reader, b, first, n, stride).map(Some),
                    None => Ok(None),
                },
                || {
                    opening
                        .as_mut()
                        .and_then(|(b, _)| batch::open(sealer, b, None))
                },
                || -> io::Result<()> {
                    if let Some((b, _)) = &to_write {
                        for (j, &len) in b.lens.iter().enumerate() {
                            out.write_all(&b.buf[j * stride..j * stride + len])?;
                        }
                    }
                    Ok(())
                },
            );
            // The batch just written: its verified chunks are out; its error ends the copy.
            if let Some((b, failure)) = to_write.take() {
                written?;
                let len = b.plain_len() as u64;
                self.pos += len;
                total += len;
                self.give_buf(b.buf);
                if let Some(e) = failure {
                    self.failed = Some(Failure::Format(e.clone()));
                    return Err(e.into());
                }
            }
            // The batch just opened is written in the next round.
            if let Some((b, trailing)) = opening.take() {
                if b.has_last && opened.is_none() {
                    self.plain_len = Some((b.first << log2) + b.plain_len() as u64);
                }
                let failure = opened.or(trailing);
                if failure.is_some() {
                    reading_done = true;
                }
                to_write = Some((b, failure));
            }
            match read {
                Ok(Some((got, trailing))) => {
                    let b = reading.take().expect("read into it");
                    self.consumed += got as u64;
                    self.next_chunk += b.lens.len() as u64;
                    if b.has_last || trailing.is_some() {
                        reading_done = true;
                    }
                    if b.lens.is_empty() {
                        // Nothing more: the stream ended at a chunk boundary without its
                        // final chunk (or right after a piece too short for a tag).
                        let e = trailing.unwrap_or(Error::Truncated {
                            chunks: first,
                            partial: 0,
                        });
                        self.give_buf(b.buf);
                        match to_write.as_mut() {
                            Some((_, f @ None)) => *f = Some(e),
                            Some(_) => {}
                            None => {
                                self.failed = Some(Failure::Format(e.clone()));
                                return Err(e.into());
                            }
                        }
                    } else {
                        opening = Some((b, trailing));
                    }
                }
                Ok(None) => {}
                Err(e) => return Err(e),
            }
            if let Some(b) = reading {
                self.give_buf(b.buf);
            }
            let _ = chunk;
        }
    }
}

impl<R: Read> Read for Decryptor<R> {
    /// Fills `buf` with verified plaintext from the current position (up to the end of the
    /// batch in hand). A `buf` that holds a whole batch (about 2 MiB) receives it directly,
    /// without a copy.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some(n) = self.serve(buf) {
                return Ok(n);
            }
            if let Some(f) = &self.failed {
                return Err(f.to_io());
            }
            if self.plain_len.is_some_and(|l| self.pos >= l) {
                return Ok(0);
            }
            match self.fill(Some(&mut *buf)) {
                Ok(Some(n)) => return Ok(n),
                Ok(None) => {}
                Err(e) => {
                    self.fail(&e);
                    return Err(e);
                }
            }
        }
    }
}
