//! [`Encryptor`]: `Write` plaintext in, a native file out.

use std::fmt;
use std::io::{self, Read, Write};
use std::sync::Mutex;

use aead::inout::InOutBuf;

use crate::Algorithm;
use crate::batch::{self, Batch};
use crate::chunk::Sealer;
use crate::header::{DEFAULT_CHUNK_LOG2, Header, KeySource, PREFIX_LEN, read_full};
use crate::kdf::{Argon2Params, KdfLimits, random_bytes};
use crate::ordered::{self, Produce};
use crate::pipeline::{self, SEAL_MIN_BATCH_BYTES, chunks_per_batch, overlap};

/// Settings of a new encrypted file; finish with [`build`](Self::build) (raw key) or
/// [`build_with_passphrase`](Self::build_with_passphrase).
#[derive(Clone, Debug)]
pub struct EncryptorBuilder {
    algorithm: Algorithm,
    chunk_log2: u8,
    ad: Vec<u8>,
    nonce_prefix: Option<[u8; PREFIX_LEN]>,
    argon2: Option<Argon2Params>,
    limits: KdfLimits,
    batch_bytes: Option<usize>,
}

impl EncryptorBuilder {
    /// Plaintext bytes sealed per batch when small `write` calls are gathered (rounded down
    /// to whole chunks, at least one). The default is one chunk per thread, at least 8 MiB
    /// and at most 16 MiB; memory use is about three batches. Large writes and
    /// [`Encryptor::copy_from`] go through a ring of 8 buffers per thread (32 MiB at most)
    /// of 256 KiB each, or of one chunk if that is larger, or of one batch if that is
    /// smaller.
    pub fn batch_size(mut self, bytes: usize) -> Self {
        self.batch_bytes = Some(bytes);
        self
    }

    /// log2 of the chunk size, 6 ..= 22 (default 18: 256 KiB).
    pub fn chunk_log2(mut self, log2: u8) -> Self {
        self.chunk_log2 = log2;
        self
    }

    /// Associated data: authenticated with every chunk, not stored in the file; decryption
    /// must be given the same bytes. Each chunk authenticates it again, so keep it short
    /// (a hash of a large context).
    pub fn associated_data(mut self, ad: &[u8]) -> Self {
        self.ad = ad.to_vec();
        self
    }

    /// A fixed nonce prefix instead of a random one. **For test vectors only**: a prefix used
    /// twice with one key breaks confidentiality and authenticity of both files.
    pub fn insecure_nonce_prefix(mut self, prefix: [u8; PREFIX_LEN]) -> Self {
        self.nonce_prefix = Some(prefix);
        self
    }

    /// Argon2id parameters for [`build_with_passphrase`](Self::build_with_passphrase)
    /// (default: [`Argon2Params::random_default`]). They must be within the
    /// [`kdf_limits`](Self::kdf_limits), which are the decryptor's default limits unless
    /// changed, so a file written with them opens with the default settings.
    pub fn argon2_params(mut self, params: Argon2Params) -> Self {
        self.argon2 = Some(params);
        self
    }

    /// The largest Argon2id cost [`build_with_passphrase`](Self::build_with_passphrase)
    /// accepts (default [`KdfLimits::DEFAULT`]).
    pub fn kdf_limits(mut self, limits: KdfLimits) -> Self {
        self.limits = limits;
        self
    }

    fn header(&self, key_source: KeySource) -> io::Result<Header> {
        let nonce_prefix = match self.nonce_prefix {
            Some(p) => p,
            None => {
                let mut p = [0u8; PREFIX_LEN];
                random_bytes(&mut p)?;
                p
            }
        };
        let header = Header {
            algorithm: self.algorithm,
            chunk_log2: self.chunk_log2,
            key_source,
            nonce_prefix,
        };
        header.validate()?;
        Ok(header)
    }

    /// Writes the header to `out` and returns the encryptor, keyed with a raw `key`
    /// (32 bytes for the HiAE family, 16 for GIFT-COFB).
    ///
    /// # Errors
    /// [`Error::KeyLength`](crate::Error::KeyLength),
    /// [`Error::InvalidParameter`](crate::Error::InvalidParameter), or the write error of the
    /// header.
    pub fn build<W: Write>(self, out: W, key: &[u8]) -> io::Result<Encryptor<W>> {
        let header = self.header(KeySource::RawKey)?;
        Encryptor::start(out, header, &self.ad, key, self.batch_bytes)
    }

    /// Like [`build`](Self::build) with a key derived from `passphrase` by Argon2id (its
    /// parameters and salt go into the header).
    ///
    /// # Errors
    /// As [`build`](Self::build); [`Error::KdfLimit`](crate::Error::KdfLimit) if the Argon2id
    /// parameters are above the limits.
    pub fn build_with_passphrase<W: Write>(
        self,
        out: W,
        passphrase: &[u8],
    ) -> io::Result<Encryptor<W>> {
        let params = match self.argon2 {
            Some(p) => p,
            None => Argon2Params::random_default()?,
        };
        self.limits.check(&params)?;
        let header = self.header(KeySource::Argon2id(params))?;
        let key = params.derive(passphrase, self.algorithm.key_len())?;
        Encryptor::start(out, header, &self.ad, &key, self.batch_bytes)
    }
}

/// Encrypts everything written to it into a native file on `W`.
///
/// Plaintext of small `write` calls is gathered into batches of chunks (about 8 MiB); a
/// full batch is sealed on every core (feature `parallel`) while the previous one is
/// written to `W`. A `write` of a batch or more is sealed straight from the caller's buffer,
/// without a copy: items of 256 KiB pass through a ring of buffers, sealed by every thread
/// and written to `W` in order by the calling thread, which seals too whenever the next item
/// is not ready. [`copy_from`](Self::copy_from) reads its input through the same ring.
/// [`finish`](Self::finish) seals the final chunk and returns `W`.
///
/// **Dropping an `Encryptor` without `finish` leaves a file that never decrypts as
/// complete**: its final chunk is missing, which the decryptor reports as a truncated file
/// (after releasing the chunks that were written).
///
/// After an error (of `W`, or more than 2^32 chunks) every later call fails: the output is
/// incomplete and must be discarded.
///
/// ```
/// use std::io::{Read, Write};
/// use aeadfast_file::{Algorithm, Decryptor, Encryptor};
///
/// let key = [0x42u8; 32];
/// let mut enc = Encryptor::new(Vec::new(), Algorithm::Hiae, &key)?;
/// enc.write_all(b"hello, ")?;
/// enc.write_all(b"world")?;
/// let file: Vec<u8> = enc.finish()?;
///
/// let mut plain = String::new();
/// Decryptor::new(&file[..], &key)?.read_to_string(&mut plain)?;
/// assert_eq!(plain, "hello, world");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Encryptor<W> {
    out: W,
    header: Header,
    sealer: Sealer,
    /// Chunks per batch.
    n: usize,
    /// Plaintext being gathered, in slot layout; `pending_len` bytes of it.
    pending: Batch,
    pending_len: usize,
    /// A sealed batch not yet written.
    sealed: Option<Batch>,
    /// A free buffer.
    spare: Vec<u8>,
    /// Buffers of the ring that large writes and [`copy_from`](Self::copy_from) go through.
    ring: Vec<Slot>,
    /// Index of the next chunk to seal.
    next: u64,
    failed: bool,
}

/// A buffer of the ring: a few chunks, each followed by room for its tag.
struct Slot {
    buf: Vec<u8>,
    /// Plaintext bytes read into it (by `copy_from`).
    len: usize,
}

impl<W> fmt::Debug for Encryptor<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encryptor")
            .field("header", &self.header)
            .field("chunks_sealed", &self.next)
            .finish_non_exhaustive()
    }
}

impl Encryptor<()> {
    /// Settings for a new file of `algorithm`.
    pub fn builder(algorithm: Algorithm) -> EncryptorBuilder {
        EncryptorBuilder {
            algorithm,
            chunk_log2: DEFAULT_CHUNK_LOG2,
            ad: Vec::new(),
            nonce_prefix: None,
            argon2: None,
            limits: KdfLimits::DEFAULT,
            batch_bytes: None,
        }
    }
}

impl<W: Write> Encryptor<W> {
    /// A file of `algorithm` with a raw `key`, the default chunk size and no associated data
    /// (see [`Encryptor::builder`] for the rest); writes the header to `out`.
    ///
    /// # Errors
    /// [`Error::KeyLength`](crate::Error::KeyLength), or the write error of the header.
    pub fn new(out: W, algorithm: Algorithm, key: &[u8]) -> io::Result<Self> {
        Encryptor::builder(algorithm).build(out, key)
    }

    /// A file of `algorithm` whose key comes from `passphrase` (Argon2id, default
    /// parameters); writes the header to `out`.
    ///
    /// # Errors
    /// The write error of the header, or a failure of the OS random number generator.
    pub fn with_passphrase(out: W, algorithm: Algorithm, passphrase: &[u8]) -> io::Result<Self> {
        Encryptor::builder(algorithm).build_with_passphrase(out, passphrase)
    }

    fn start(
        mut out: W,
        header: Header,
        ad: &[u8],
        key: &[u8],
        batch: Option<usize>,
    ) -> io::Result<Self> {
        let bytes = header.to_bytes();
        let sealer = Sealer::new(&header, &bytes, ad, key)?;
        out.write_all(&bytes)?;
        Ok(Encryptor {
            out,
            n: batch.map_or_else(
                || chunks_per_batch(header.chunk_log2, SEAL_MIN_BATCH_BYTES),
                |b| (b >> header.chunk_log2).max(1),
            ),
            header,
            sealer,
            pending: Batch::default(),
            pending_len: 0,
            sealed: None,
            spare: Vec::new(),
            ring: Vec::new(),
            next: 0,
            failed: false,
        })
    }

    /// The header written at the start of the file.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    fn check(&self) -> io::Result<()> {
        if self.failed {
            return Err(io::Error::other(
                "an earlier write failed: the encrypted output is incomplete",
            ));
        }
        Ok(())
    }

    /// Marks the encryptor failed when `r` is an error.
    fn watch<T>(&mut self, r: io::Result<T>) -> io::Result<T> {
        if r.is_err() {
            self.failed = true;
        }
        r
    }

    fn plain_per_batch(&self) -> usize {
        self.n * self.sealer.chunk_size()
    }

    /// Seals `b` in place on the pool while the previously sealed batch is
    /// written here; `b` becomes the sealed batch.
    fn seal_and_rotate(&mut self, mut b: Batch) -> io::Result<()> {
        let prev = self.sealed.take();
        let stride = self.sealer.stride();
        let (sealer, out) = (&self.sealer, &mut self.out);
        let (sealed, written) = overlap(
            || batch::seal(sealer, &mut b, true),
            || match &prev {
                Some(p) => out.write_all(&p.buf[..p.sealed_len(stride)]),
                None => Ok(()),
            },
        );
        if let Some(p) = prev {
            self.spare = p.buf;
        }
        self.next += b.lens.len() as u64;
        self.sealed = Some(b);
        written?;
        sealed?;
        Ok(())
    }

    fn write_sealed(&mut self) -> io::Result<()> {
        if let Some(p) = self.sealed.take() {
            let r = self
                .out
                .write_all(&p.buf[..p.sealed_len(self.sealer.stride())]);
            self.spare = p.buf;
            r?;
        }
        Ok(())
    }

    /// Seals `data` (whole chunks, none of them final) straight from the caller's buffer and
    /// writes it: the pool's threads seal groups of chunks into a ring of buffers while this
    /// thread writes them in order (and seals too whenever the next group is not ready).
    fn seal_whole_chunks(&mut self, data: &[u8]) -> io::Result<()> {
        self.write_sealed()?;
        let (chunk, stride) = (self.sealer.chunk_size(), self.sealer.stride());
        let group = self.ring_ready();
        let count = data.len() / chunk;
        let first = self.next;
        let (sealer, out) = (&self.sealer, &mut self.out);
        let chunks_of = |g: usize| g * group..((g + 1) * group).min(count);
        let items = count.div_ceil(group);
        ordered::run(
            &mut self.ring,
            Produce::Count(items),
            &|g, slot: &mut Slot| {
                for (k, j) in chunks_of(g).enumerate() {
                    let (body, tag) = slot.buf[k * stride..(k + 1) * stride].split_at_mut(chunk);
                    let input = &data[j * chunk..(j + 1) * chunk];
                    let io = InOutBuf::new(input, body).expect("equal lengths");
                    tag.copy_from_slice(&sealer.seal(first + j as u64, false, io)?);
                }
                Ok(())
            },
            &mut |g, slot| out.write_all(&slot.buf[..chunks_of(g).len() * stride]),
        )?;
        self.next += count as u64;
        Ok(())
    }

    /// Allocates the ring's buffers if needed; returns chunks per item.
    fn ring_ready(&mut self) -> usize {
        let stride = self.sealer.stride();
        let group = pipeline::ring_item_chunks(self.header.chunk_log2, self.n);
        let slots = pipeline::ring_slots(group * stride);
        if self.ring.len() != slots || self.ring[0].buf.len() != group * stride {
            self.ring = (0..slots)
                .map(|_| Slot {
                    buf: vec![0u8; group * stride],
                    len: 0,
                })
                .collect();
        }
        group
    }

    fn write_inner(&mut self, data: &[u8]) -> io::Result<()> {
        let (chunk, stride) = (self.sealer.chunk_size(), self.sealer.stride());
        let per_batch = self.plain_per_batch();
        let mut rest = data;
        while !rest.is_empty() {
            if self.pending_len == 0 && rest.len() >= per_batch {
                let whole = rest.len() / chunk * chunk;
                let (now, later) = rest.split_at(whole);
                self.seal_whole_chunks(now)?;
                rest = later;
                continue;
            }
            if self.pending.buf.is_empty() {
                self.pending = Batch::with_buf(Vec::new(), self.n, stride);
            }
            let take = (per_batch - self.pending_len).min(rest.len());
            batch::copy_into_slots(
                &mut self.pending.buf,
                self.pending_len,
                &rest[..take],
                chunk,
                stride,
            );
            self.pending_len += take;
            rest = &rest[take..];
            if self.pending_len == per_batch {
                let mut b = std::mem::take(&mut self.pending);
                b.first = self.next;
                b.lens.clear();
                b.lens.resize(self.n, chunk);
                self.pending_len = 0;
                self.seal_and_rotate(b)?;
            }
        }
        Ok(())
    }

    /// Seals the complete chunks gathered so far (as non-final chunks) and writes them.
    fn seal_pending_full_chunks(&mut self) -> io::Result<()> {
        let (chunk, stride) = (self.sealer.chunk_size(), self.sealer.stride());
        let k = self.pending_len / chunk;
        if k == 0 {
            return self.write_sealed();
        }
        let rest = self.pending_len % chunk;
        let mut next = Batch::with_buf(std::mem::take(&mut self.spare), self.n, stride);
        next.buf[..rest].copy_from_slice(&self.pending.buf[k * stride..k * stride + rest]);
        let mut b = std::mem::replace(&mut self.pending, next);
        b.first = self.next;
        b.lens.clear();
        b.lens.resize(k, chunk);
        self.pending_len = rest;
        self.seal_and_rotate(b)?;
        self.write_sealed()
    }

    /// Reads `input` to its end and encrypts it: items of 256 KiB are read and sealed by
    /// whichever thread is free while this thread writes the sealed ones in order. Returns
    /// the bytes read. The file is complete only after [`finish`](Self::finish).
    ///
    /// # Errors
    /// Read errors of `input`, write errors of `W`,
    /// [`Error::TooManyChunks`](crate::Error::TooManyChunks).
    pub fn copy_from<R: Read + Send>(&mut self, mut input: R) -> io::Result<u64> {
        self.check()?;
        let r = self.copy_from_inner(&mut input);
        self.watch(r)
    }

    fn copy_from_inner<R: Read + Send>(&mut self, input: &mut R) -> io::Result<u64> {
        let (chunk, stride) = (self.sealer.chunk_size(), self.sealer.stride());
        let per_batch = self.plain_per_batch();
        let mut total = 0u64;
        // Top up a partly gathered batch first, through the ordinary path.
        if self.pending_len > 0 {
            let mut piece = vec![0u8; per_batch - self.pending_len];
            let got = read_full(input, &mut piece)?;
            self.write_inner(&piece[..got])?;
            total += got as u64;
            if got < piece.len() {
                return Ok(total);
            }
        }
        // Then items of whole chunks through the ring: read and sealed by whichever thread
        // is free, written here in order. What the last item holds past its whole chunks
        // stays gathered for `finish`.
        self.write_sealed()?;
        let group = self.ring_ready();
        let item_plain = group * chunk;
        let first = self.next;
        let produce = Mutex::new(|_, slot: &mut Slot| -> io::Result<bool> {
            slot.len = batch::read_plain(&mut *input, &mut slot.buf, group, chunk, stride)?;
            total += slot.len as u64;
            Ok(slot.len == item_plain)
        });
        let sealer = &self.sealer;
        let (out, next) = (&mut self.out, &mut self.next);
        let mut tail = None;
        ordered::run(
            &mut self.ring,
            Produce::Anywhere(&produce),
            &|g, slot: &mut Slot| {
                for j in 0..slot.len / chunk {
                    let (body, tag) = slot.buf[j * stride..(j + 1) * stride].split_at_mut(chunk);
                    let index = first + (g * group + j) as u64;
                    tag.copy_from_slice(&sealer.seal(index, false, body.into())?);
                }
                Ok(())
            },
            &mut |_, slot| {
                let whole = slot.len / chunk;
                out.write_all(&slot.buf[..whole * stride])?;
                *next += whole as u64;
                if slot.len < item_plain {
                    let rest = &slot.buf[whole * stride..whole * stride + slot.len % chunk];
                    tail = Some(rest.to_vec());
                }
                Ok(())
            },
        )?;
        if let Some(rest) = tail {
            if self.pending.buf.is_empty() {
                self.pending = Batch::with_buf(std::mem::take(&mut self.spare), self.n, stride);
            }
            self.pending.buf[..rest.len()].copy_from_slice(&rest);
            self.pending_len = rest.len();
        }
        Ok(total)
    }

    /// Seals the final chunk, writes everything left, flushes and returns the writer.
    ///
    /// # Errors
    /// Write errors of `W`, [`Error::TooManyChunks`](crate::Error::TooManyChunks).
    pub fn finish(mut self) -> io::Result<W> {
        self.check()?;
        let (chunk, stride) = (self.sealer.chunk_size(), self.sealer.stride());
        if self.pending.buf.is_empty() {
            self.pending = Batch::with_buf(std::mem::take(&mut self.spare), self.n, stride);
        }
        let mut b = std::mem::take(&mut self.pending);
        let (k, rest) = (self.pending_len / chunk, self.pending_len % chunk);
        b.first = self.next;
        b.lens.clear();
        b.lens.resize(k, chunk);
        b.lens.push(rest);
        b.has_last = true;
        self.seal_and_rotate(b)?;
        self.write_sealed()?;
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> Write for Encryptor<W> {
    /// Takes all of `data` (sealing and writing whole batches as they fill).
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.check()?;
        let r = self.write_inner(data);
        self.watch(r)?;
        Ok(data.len())
    }

    /// Seals the complete chunks gathered so far, writes every sealed chunk and flushes `W`.
    /// The bytes of a partial chunk stay gathered: a chunk is sealed as non-final only once
    /// full, and the final chunk only by [`finish`](Encryptor::finish).
    fn flush(&mut self) -> io::Result<()> {
        self.check()?;
        let r = self
            .seal_pending_full_chunks()
            .and_then(|()| self.out.flush());
        self.watch(r)
    }
}
