//! [`Decryptor`]: a native file in, verified plaintext out through `Read` (and [`Seek`]
//! when the file is seekable, in `seek.rs`).

use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::sync::Mutex;

use crate::batch::{self, Batch};
use crate::chunk::Sealer;
use crate::header::{Header, KeySource};
use crate::kdf::KdfLimits;
use crate::ordered::{self, Produce};
use crate::pipeline::{self, OPEN_MIN_BATCH_BYTES, chunks_per_batch, overlap};
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
    /// Plaintext bytes opened per batch when reading in order with small `read` calls
    /// (rounded down to whole chunks, at least one). The default is one chunk per thread, at
    /// least 2 MiB and at most 16 MiB; memory use is about three batches. Large reads and
    /// the copies go through a ring of 8 buffers per thread (32 MiB at most) of 256 KiB
    /// each, or of one chunk if that is larger, or of one batch if that is smaller.
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
/// Chunks are opened on every core (feature `parallel`): [`copy_to`](Self::copy_to),
/// [`copy_buffered_to`](Self::copy_buffered_to) and reads into a buffer of 512 KiB or more
/// pass items of 256 KiB through a ring of 8 buffers per thread (32 MiB at most), read,
/// opened and written by whichever thread is free; smaller reads are served from batches of
/// 2–16 MiB opened while the next one is read ([`crate::pipeline`]). Memory stays bounded
/// whatever the file size.
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
    /// Buffers of the ring that [`copy_to`](Self::copy_to) reads through.
    ring: Vec<Item>,
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
            ring: Vec::new(),
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
                || batch::open(sealer, &mut raw, dst, true),
                || batch::read_stored(reader, b, next_chunk, n, stride).map(Some),
            ),
            // Nothing to overlap (after a seek, or at the end): open here, without handing
            // the batch to the pool and waiting for it (tens of microseconds per read).
            None => (batch::open(sealer, &mut raw, dst, true), Ok(None)),
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
    /// Decrypts everything from the current position to the end into `out`. The chunks go
    /// through a ring of buffers: read by whichever thread is free, opened on every core,
    /// written here in order. Returns the plaintext bytes written.
    ///
    /// The guarantee is [`read`](Read::read)'s: only verified chunks reach `out`, in order,
    /// and an error means that what was written is an incomplete prefix.
    ///
    /// Reading copies every byte out of the reader on one thread at a time, which bounds
    /// the speed at that of a memory copy; for a file held in memory,
    /// [`copy_buffered_to`](Self::copy_buffered_to) opens the chunks straight from it.
    ///
    /// # Errors
    /// As [`read`](Read::read), and write errors of `out`.
    pub fn copy_to<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<u64> {
        let total = self.copy_to_boundary(out)?;
        if self.finished() {
            return Ok(total);
        }
        let r = self.copy_read(out);
        self.watch_copy(r).map(|n| total + n)
    }

    /// Writes verified plaintext up to a chunk boundary through the ordinary path; `Ok` at
    /// the boundary, or at the proven end (see [`finished`](Self::finished)).
    fn copy_to_boundary<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<u64> {
        let mut total = 0u64;
        let log2 = self.sealer.chunk_log2();
        loop {
            total += self.write_ready(out)?;
            if let Some(f) = &self.failed {
                return Err(f.to_io());
            }
            if self.finished() {
                return Ok(total);
            }
            if self.pos & ((1 << log2) - 1) == 0 && self.ahead.is_none() {
                return Ok(total);
            }
            self.fill(None)?;
        }
    }

    /// The position is at the proven end of the plaintext.
    fn finished(&self) -> bool {
        self.plain_len.is_some_and(|l| self.pos >= l)
    }

    /// Keeps the error of a pipelined copy for later reads.
    fn watch_copy(&mut self, r: io::Result<u64>) -> io::Result<u64> {
        if let Err(e) = &r
            && self.failed.is_none()
        {
            self.fail(e);
        }
        r
    }

    /// From a chunk boundary to the end, reading items from the reader.
    fn copy_read<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<u64> {
        let group = self.ring_ready()?;
        let stride = self.sealer.stride();
        let (reader, next_chunk, consumed) =
            (&mut self.reader, &mut self.next_chunk, &mut self.consumed);
        let produce = Mutex::new(|_, item: &mut Item| -> io::Result<bool> {
            let first = *next_chunk;
            let (got, trailing) =
                batch::read_stored(&mut *reader, &mut item.batch, first, group, stride)?;
            *consumed += got as u64;
            *next_chunk += item.batch.lens.len() as u64;
            item.failed = None;
            item.trailing = trailing;
            Ok(!item.batch.has_last && item.trailing.is_none())
        });
        let progress = Progress {
            pos: &mut self.pos,
            plain_len: &mut self.plain_len,
            failed: &mut self.failed,
        };
        open_ring(
            &self.sealer,
            progress,
            &mut self.ring,
            Produce::Anywhere(&produce),
            None,
            out,
        )
    }
}

impl<R: BufRead + Send> Decryptor<R> {
    /// Like [`copy_to`](Self::copy_to), for a reader that holds the file in memory (`&[u8]`,
    /// `Cursor<Vec<u8>>`): the chunks in the reader's buffer are opened on every core
    /// straight from it, without first copying them out on one thread. A reader whose
    /// buffer holds less than a few chunks at a time (a `BufReader`) goes the way of
    /// `copy_to`.
    ///
    /// ```
    /// use std::io::Write;
    /// use aeadfast_file::{Algorithm, Decryptor, Encryptor};
    ///
    /// let key = [7u8; 32];
    /// let mut enc = Encryptor::new(Vec::new(), Algorithm::Hiae, &key)?;
    /// enc.write_all(&vec![1u8; 3 << 20])?;
    /// let file = enc.finish()?;
    ///
    /// let mut plain = Vec::new();
    /// let n = Decryptor::new(&file[..], &key)?.copy_buffered_to(&mut plain)?;
    /// assert_eq!((n, plain), (3 << 20, vec![1u8; 3 << 20]));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`copy_to`](Self::copy_to).
    pub fn copy_buffered_to<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<u64> {
        let mut total = self.copy_to_boundary(out)?;
        if self.finished() {
            return Ok(total);
        }
        let r = self.copy_buffered(out);
        let r = match r {
            Ok(n) => {
                total += n;
                // The rest (the final item) comes through the reader.
                self.copy_read(out)
            }
            Err(e) => Err(e),
        };
        self.watch_copy(r).map(|n| total + n)
    }

    /// Opens the whole items that the reader's buffer holds straight from it, as long as it
    /// holds any.
    fn copy_buffered<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<u64> {
        let group = self.ring_ready()?;
        let stride = self.sealer.stride();
        let item_len = group * stride;
        let mut total = 0u64;
        loop {
            let data = self.reader.fill_buf()?;
            let items = data.len() / item_len;
            if items == 0 {
                return Ok(total);
            }
            let first = self.next_chunk;
            let mut produce = |i: usize, item: &mut Item| -> io::Result<bool> {
                item.src_at = i * item_len;
                let index = first + (i * group) as u64;
                let trailing = batch::split_stored(&mut item.batch, index, item_len, group, stride);
                debug_assert!(trailing.is_none(), "a whole item");
                item.trailing = None;
                item.failed = None;
                Ok(i + 1 < items)
            };
            let progress = Progress {
                pos: &mut self.pos,
                plain_len: &mut self.plain_len,
                failed: &mut self.failed,
            };
            let r = open_ring(
                &self.sealer,
                progress,
                &mut self.ring,
                Produce::Here(&mut produce),
                Some(data),
                out,
            );
            let bytes = items * item_len;
            self.reader.consume(bytes);
            self.consumed += bytes as u64;
            self.next_chunk += (items * group) as u64;
            total += r?;
        }
    }
}

/// A slot of the ring that reads go through: an item and where its plaintext goes.
type DstSlot<'b> = (Item, Option<&'b mut [u8]>);

/// Gives a producer for [`Decryptor::read_ring`] its type: slots whose destination borrows
/// the caller's buffer for `'b` (not for any lifetime, as a closure's own annotation would).
fn into_dst<'b, F>(f: F) -> F
where
    F: FnMut(usize, &mut DstSlot<'b>) -> io::Result<bool>,
{
    f
}

/// The decryptor's state that a pipelined copy moves on.
struct Progress<'a> {
    pos: &'a mut u64,
    plain_len: &'a mut Option<u64>,
    failed: &'a mut Option<Failure>,
}

/// Runs the ring: items from `produce`, opened in place or (with `src`, the stored bytes the
/// items' `src_at` point into) from `src`, written to `out` in order. Returns the plaintext
/// bytes written.
fn open_ring<W: Write + ?Sized>(
    sealer: &Sealer,
    mut progress: Progress<'_>,
    ring: &mut Vec<Item>,
    produce: Produce<'_, '_, Item, io::Error>,
    src: Option<&[u8]>,
    out: &mut W,
) -> io::Result<u64> {
    let (stride, log2) = (sealer.stride(), sealer.chunk_log2());
    let mut total = 0u64;
    let r = ordered::run(
        ring,
        produce,
        &|_, item: &mut Item| {
            item.failed = match src {
                Some(src) => batch::open_from(sealer, &src[item.src_at..], &mut item.batch),
                None => batch::open(sealer, &mut item.batch, None, false),
            };
            Ok(())
        },
        &mut |_, item: &mut Item| {
            let b = &item.batch;
            for (j, &len) in b.lens.iter().enumerate() {
                out.write_all(&b.buf[j * stride..j * stride + len])?;
            }
            total += item.batch.plain_len() as u64;
            item.settle(&mut progress, log2)
        },
    );
    r.map(|()| total)
}

/// An item of the ring that the pipelined copies go through: a few chunks, and how their
/// stream ended or failed to open.
struct Item {
    batch: Batch,
    /// With a buffered source: where the item's stored chunks start in it.
    src_at: usize,
    /// The error that follows the item's chunks if the stream ends wrongly after them.
    trailing: Option<Error>,
    /// The first chunk that did not open.
    failed: Option<Error>,
}

impl Item {
    /// Accounts for the opened item in order: moves the position past its verified
    /// plaintext and records the proven length after the final chunk; returns the error that
    /// ends the stream there (a chunk that did not open, or a stream that ends wrongly after
    /// it), which the decryptor keeps.
    fn settle(&mut self, progress: &mut Progress<'_>, log2: u8) -> io::Result<()> {
        let b = &self.batch;
        let len = b.plain_len() as u64;
        *progress.pos += len;
        if b.lens.is_empty() && self.trailing.is_none() && self.failed.is_none() {
            // Nothing more: the stream ended at a chunk boundary without its final chunk.
            self.trailing = Some(Error::Truncated {
                chunks: b.first,
                partial: 0,
            });
        }
        if b.has_last && self.failed.is_none() {
            *progress.plain_len = Some((b.first << log2) + len);
        }
        match self.failed.take().or(self.trailing.take()) {
            Some(e) => {
                *progress.failed = Some(Failure::Format(e.clone()));
                Err(e.into())
            }
            None => Ok(()),
        }
    }
}

impl<R: Read> Decryptor<R> {
    /// Prepares the ring (from a chunk boundary, nothing in hand); returns chunks per item.
    fn ring_ready(&mut self) -> io::Result<usize> {
        let log2 = self.sealer.chunk_log2();
        if self.next_chunk != self.pos >> log2 || self.ahead.is_some() {
            return Err(io::Error::other(
                "internal error: the decryptor lost its place in the file",
            ));
        }
        let old = std::mem::take(&mut self.ready);
        self.give_buf(old.buf);
        self.ready_len = 0;
        let stride = self.sealer.stride();
        let group = pipeline::ring_item_chunks(log2, self.n);
        let slots = pipeline::ring_slots(group * stride);
        if self.ring.len() != slots || self.ring[0].batch.buf.len() != group * stride {
            self.ring = (0..slots)
                .map(|_| Item {
                    batch: Batch::with_buf(Vec::new(), group, stride),
                    src_at: 0,
                    trailing: None,
                    failed: None,
                })
                .collect();
        }
        Ok(group)
    }

    /// A read into a buffer that holds at least two items of the ring, from a chunk
    /// boundary with nothing in hand: items are read here and opened on every core straight
    /// into `buf`. `None` if the read does not qualify.
    fn read_ring(&mut self, buf: &mut [u8]) -> Option<io::Result<usize>> {
        let (log2, chunk) = (self.sealer.chunk_log2(), self.sealer.chunk_size());
        let group = pipeline::ring_item_chunks(log2, self.n);
        let item_plain = group * chunk;
        if buf.len() < 2 * item_plain
            || self.pos & (chunk as u64 - 1) != 0
            || self.ahead.is_some()
            || pipeline::threads() < 2
        {
            return None;
        }
        let r = self.ring_ready().map(|_| ());
        if let Err(e) = r {
            return Some(Err(e));
        }
        let items = buf.len() / item_plain;
        let stride = self.sealer.stride();
        let (reader, next_chunk, consumed) =
            (&mut self.reader, &mut self.next_chunk, &mut self.consumed);
        let mut rest = &mut buf[..items * item_plain];
        let mut produce = into_dst(|i, slot| {
            let item = &mut slot.0;
            let first = *next_chunk;
            let (got, trailing) =
                batch::read_stored(&mut *reader, &mut item.batch, first, group, stride)?;
            *consumed += got as u64;
            *next_chunk += item.batch.lens.len() as u64;
            item.failed = None;
            item.trailing = trailing;
            let (piece, tail) = std::mem::take(&mut rest).split_at_mut(item_plain);
            rest = tail;
            slot.1 = Some(piece);
            Ok(i + 1 < items && !item.batch.has_last && item.trailing.is_none())
        });
        let mut slots: Vec<DstSlot<'_>> = self.ring.drain(..).map(|item| (item, None)).collect();
        let sealer = &self.sealer;
        let mut progress = Progress {
            pos: &mut self.pos,
            plain_len: &mut self.plain_len,
            failed: &mut self.failed,
        };
        let mut total = 0usize;
        let r = ordered::run(
            &mut slots,
            Produce::Here(&mut produce),
            &|_, (item, dst): &mut DstSlot<'_>| {
                item.failed = batch::open(sealer, &mut item.batch, dst.as_deref_mut(), false);
                Ok(())
            },
            &mut |_, (item, _): &mut DstSlot<'_>| {
                total += item.batch.plain_len();
                item.settle(&mut progress, log2)
            },
        );
        self.ring = slots.into_iter().map(|(item, _)| item).collect();
        if let Err(e) = r {
            if self.failed.is_none() {
                // A read error: what came before it is good.
                self.fail(&e);
            }
            // Items after the one that failed may have been opened into `buf`: only the
            // verified prefix is handed out.
            buf[total..items * item_plain].fill(0);
            if total == 0 {
                return Some(Err(e));
            }
        }
        Some(Ok(total))
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
            if let Some(r) = self.read_ring(buf) {
                return r;
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
