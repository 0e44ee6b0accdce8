//! A batch: consecutive chunks in one buffer, chunk `j` at `j × stride` (its plaintext or
//! ciphertext, then room for its tag), sealed or opened in parallel.

use std::io::{self, Read};

use aead::inout::InOutBuf;

use crate::Error;
use crate::chunk::Sealer;
use crate::header::{TAG_LEN, read_full};
use crate::pipeline::for_each_indexed;

/// Consecutive chunks of one file.
#[derive(Default)]
pub struct Batch {
    /// `chunks × stride` bytes once allocated.
    pub buf: Vec<u8>,
    /// Per chunk: plaintext length (sealing; after opening) or stored length with the tag
    /// (before opening).
    pub lens: Vec<usize>,
    /// Index of the first chunk.
    pub first: u64,
    /// The last chunk of the batch is the file's final chunk.
    pub has_last: bool,
}

impl Batch {
    /// An empty batch reusing `buf`, grown to `chunks × stride` bytes.
    pub fn with_buf(mut buf: Vec<u8>, chunks: usize, stride: usize) -> Batch {
        if buf.len() < chunks * stride {
            buf.resize(chunks * stride, 0);
        }
        Batch {
            buf,
            lens: Vec::with_capacity(chunks),
            first: 0,
            has_last: false,
        }
    }

    /// Bytes of the sealed batch as stored in the file: every chunk but the last is full, so
    /// they are contiguous.
    pub fn sealed_len(&self, stride: usize) -> usize {
        match self.lens.last() {
            Some(&last) => (self.lens.len() - 1) * stride + last + TAG_LEN,
            None => 0,
        }
    }

    /// Total plaintext bytes (after sealing input or after opening).
    pub fn plain_len(&self) -> usize {
        self.lens.iter().sum()
    }
}

/// Seals the chunks of `b` in place (plaintext lengths in `b.lens`), on the thread pool if
/// `parallel`. Each chunk's tag follows it.
///
/// # Errors
/// [`Error::TooManyChunks`] past the 32-bit chunk counter.
pub fn seal(sealer: &Sealer, b: &mut Batch, parallel: bool) -> Result<(), Error> {
    let stride = sealer.stride();
    let count = b.lens.len();
    let (first, has_last) = (b.first, b.has_last);
    let results = for_each_indexed(
        b.buf.chunks_mut(stride).zip(b.lens.iter()),
        parallel,
        |j, (slot, &len): (&mut [u8], &usize)| {
            let index = first + j as u64;
            let last = has_last && j + 1 == count;
            let (body, tag) = slot[..len + TAG_LEN].split_at_mut(len);
            tag.copy_from_slice(&sealer.seal(index, last, body.into())?);
            Ok(())
        },
    );
    results.into_iter().collect()
}

/// Opens the chunks of `b` (stored lengths in `b.lens`): in place (plaintext at
/// `j × stride`), or into `dst` (plaintext contiguous from 0). On return `b.lens` holds the
/// plaintext lengths of the leading chunks that verified, and the error of the first one
/// that did not, if any; with `dst`, everything after the verified prefix is zeroed. Runs on
/// the thread pool if `parallel`.
pub fn open(
    sealer: &Sealer,
    b: &mut Batch,
    mut dst: Option<&mut [u8]>,
    parallel: bool,
) -> Option<Error> {
    let (chunk, stride) = (sealer.chunk_size(), sealer.stride());
    let count = b.lens.len();
    let (first, has_last) = (b.first, b.has_last);
    // One output per chunk, the empty final chunk included: each chunk is opened, whatever
    // the length of `dst` beyond the batch's plaintext.
    let outputs: Vec<Option<&mut [u8]>> = match dst.as_deref_mut() {
        Some(d) => {
            let mut rest = d;
            let mut v = Vec::with_capacity(count);
            for &len in &b.lens {
                let (head, tail) = std::mem::take(&mut rest).split_at_mut(len - TAG_LEN);
                v.push(Some(head));
                rest = tail;
            }
            v
        }
        None => (0..count).map(|_| None).collect(),
    };
    let results = for_each_indexed(
        b.buf.chunks_mut(stride).zip(b.lens.iter()).zip(outputs),
        parallel,
        |j, ((slot, &len), out): ((&mut [u8], &usize), Option<&mut [u8]>)| {
            let index = first + j as u64;
            let last = has_last && j + 1 == count;
            let body = len - TAG_LEN;
            let (ct, tag) = slot[..len].split_at_mut(body);
            match out {
                Some(out) => {
                    let io = InOutBuf::new(ct, &mut out[..body]).expect("equal lengths");
                    sealer.open(index, last, io, tag)
                }
                None => sealer.open(index, last, ct.into(), tag),
            }
        },
    );
    // A chunk left out here would count as verified: never let that pass silently.
    assert_eq!(results.len(), count, "every chunk of the batch is opened");
    let bad = results.iter().position(Result::is_err);
    b.lens.truncate(bad.unwrap_or(count));
    for len in &mut b.lens {
        *len -= TAG_LEN;
    }
    if let (Some(d), Some(_)) = (dst, bad) {
        let keep = b.lens.len() * chunk;
        d[keep..].fill(0);
    }
    bad.and_then(|i| results.into_iter().nth(i))
        .and_then(Result::err)
}

/// Reads up to `chunks` stored chunks starting at chunk `first` from `r` into `b` and sorts
/// out where the stream ends (see [`split_stored`]). Returns the bytes read, and the error
/// that follows the batch's chunks if the stream ends wrongly.
///
/// # Errors
/// Read errors of `r`.
pub fn read_stored(
    r: &mut (impl Read + ?Sized),
    b: &mut Batch,
    first: u64,
    chunks: usize,
    stride: usize,
) -> io::Result<(usize, Option<Error>)> {
    let got = read_full(r, &mut b.buf[..chunks * stride])?;
    Ok((got, split_stored(b, first, got, chunks, stride)))
}

/// Sets the stored lengths of `b` (chunks from `first`) for `got` bytes of a stream read
/// where `chunks × stride` were asked for: fewer bytes mean the stream ends there, and a
/// short last piece of at least a tag's length is the final chunk. Returns the error that
/// follows the chunks if the stream ends wrongly (no final chunk, or a piece too short to
/// hold a tag).
pub fn split_stored(
    b: &mut Batch,
    first: u64,
    got: usize,
    chunks: usize,
    stride: usize,
) -> Option<Error> {
    b.first = first;
    b.lens.clear();
    b.has_last = false;
    b.lens.resize(got / stride, stride);
    if got >= chunks * stride {
        return None;
    }
    let rest = got % stride;
    let complete = first + b.lens.len() as u64;
    if rest < TAG_LEN {
        return Some(Error::Truncated {
            chunks: complete,
            partial: rest,
        });
    }
    b.lens.push(rest);
    b.has_last = true;
    None
}

/// Opens the chunks whose stored bytes are `src` (lengths in `b.lens`, as for [`open`]) into
/// the slots of `b`, here. On return `b.lens` holds the plaintext lengths of the leading
/// chunks that verified, and the error of the first one that did not, if any.
pub fn open_from(sealer: &Sealer, src: &[u8], b: &mut Batch) -> Option<Error> {
    let stride = sealer.stride();
    let count = b.lens.len();
    for j in 0..count {
        let len = b.lens[j];
        let (ct, tag) = src[j * stride..j * stride + len].split_at(len - TAG_LEN);
        let out = &mut b.buf[j * stride..j * stride + ct.len()];
        let io = InOutBuf::new(ct, out).expect("equal lengths");
        if let Err(e) = sealer.open(b.first + j as u64, b.has_last && j + 1 == count, io, tag) {
            b.lens.truncate(j);
            for len in &mut b.lens {
                *len -= TAG_LEN;
            }
            return Some(e);
        }
    }
    for len in &mut b.lens {
        *len -= TAG_LEN;
    }
    None
}

/// Reads up to `chunks` full chunks of plaintext from `r` into the slots of `buf` (chunk
/// `j` at `j × stride`); returns the bytes read (fewer than `chunks × chunk` only at the end
/// of the input).
///
/// # Errors
/// Read errors of `r`.
pub fn read_plain(
    r: &mut (impl Read + ?Sized),
    buf: &mut [u8],
    chunks: usize,
    chunk: usize,
    stride: usize,
) -> io::Result<usize> {
    let mut total = 0;
    for j in 0..chunks {
        let got = read_full(r, &mut buf[j * stride..j * stride + chunk])?;
        total += got;
        if got < chunk {
            break;
        }
    }
    Ok(total)
}

/// Copies `data` into the slots of `buf` from plaintext position `at` (chunk `at / chunk`).
pub fn copy_into_slots(
    buf: &mut [u8],
    mut at: usize,
    mut data: &[u8],
    chunk: usize,
    stride: usize,
) {
    while !data.is_empty() {
        let (j, o) = (at / chunk, at % chunk);
        let n = (chunk - o).min(data.len());
        buf[j * stride + o..j * stride + o + n].copy_from_slice(&data[..n]);
        data = &data[n..];
        at += n;
    }
}

/// Copies plaintext from the slots of `buf` starting at plaintext position `at` into `out`
/// (as much as fits, at most `avail` bytes); returns the bytes copied.
pub fn copy_from_slots(
    buf: &[u8],
    mut at: usize,
    avail: usize,
    out: &mut [u8],
    chunk: usize,
    stride: usize,
) -> usize {
    let want = out.len().min(avail);
    let mut done = 0;
    while done < want {
        let (j, o) = (at / chunk, at % chunk);
        let n = (chunk - o).min(want - done);
        out[done..done + n].copy_from_slice(&buf[j * stride + o..j * stride + o + n]);
        done += n;
        at += n;
    }
    done
}
