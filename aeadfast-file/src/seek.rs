//! Random access: [`Seek`] for a [`Decryptor`] over a seekable file. A seek moves to any
//! plaintext offset; the next read fetches and verifies only the chunk(s) it needs.

use std::io::{self, Read, Seek, SeekFrom};

use crate::batch;
use crate::decryptor::Decryptor;
use crate::layout;

impl<R: Read + Seek> Decryptor<R> {
    /// Offset of the first chunk in the reader.
    fn body_start(&mut self) -> io::Result<u64> {
        if let Some(s) = self.body_start {
            return Ok(s);
        }
        let now = self.reader.stream_position()?;
        let start = now.checked_sub(self.consumed).ok_or_else(|| {
            io::Error::other("the reader's position does not match the bytes read from it")
        })?;
        self.body_start = Some(start);
        Ok(start)
    }

    /// The plaintext length that the file's length implies (not verified yet).
    fn claimed_len(&mut self) -> io::Result<u64> {
        if let Some(l) = self.claimed_len {
            return Ok(l);
        }
        let start = self.body_start()?;
        let end = self.reader.seek(SeekFrom::End(0))?;
        // The reader moved: the next read must position it again.
        self.next_chunk = u64::MAX;
        let header_len = self.sealer.header_len();
        let body = end.saturating_sub(start);
        let l = layout::plaintext_len(header_len, header_len + body, self.sealer.chunk_log2())?;
        self.claimed_len = Some(l);
        Ok(l)
    }

    /// The plaintext length, proven: the chunk that the file length makes final is read and
    /// verified as the final chunk (and kept, since reads near the end usually follow).
    fn prove_len(&mut self) -> io::Result<u64> {
        if let Some(l) = self.plain_len {
            return Ok(l);
        }
        let l = self.claimed_len()?;
        let log2 = self.sealer.chunk_log2();
        let (chunk, stride) = (self.sealer.chunk_size() as u64, self.sealer.stride());
        let last = l >> log2;
        let stored = (l - last * chunk) as usize + crate::header::TAG_LEN;
        let start = self.body_start()?;
        self.clear();
        self.reader
            .seek(SeekFrom::Start(start + last * stride as u64))?;
        self.next_chunk = u64::MAX;
        let mut b = self.take_buf();
        b.first = last;
        b.lens.push(stored);
        b.has_last = true;
        self.reader.read_exact(&mut b.buf[..stored])?;
        self.next_chunk = last + 1;
        if let Some(e) = batch::open(&self.sealer, &mut b, None, true) {
            self.give_buf(b.buf);
            return Err(e.into());
        }
        self.ready_start = last << log2;
        self.ready_len = b.plain_len();
        self.ready = b;
        self.plain_len = Some(l);
        Ok(l)
    }

    fn seek_to(&mut self, target: u64) -> io::Result<()> {
        let end = self.ready_start + self.ready_len as u64;
        if target >= self.ready_start && target < end && self.ready_continues() {
            // Inside the verified plaintext in hand, and the reader stands right after it:
            // nothing to read.
            self.pos = target;
            return Ok(());
        }
        self.clear();
        self.pos = target;
        self.run = 0;
        if self.plain_len.is_some_and(|l| target >= l) {
            return Ok(());
        }
        if self.claimed_len().is_ok_and(|l| target > l) {
            // Past the end: the end itself must be proven before reads say "end of file".
            self.prove_len()?;
            self.pos = target;
            return Ok(());
        }
        let log2 = self.sealer.chunk_log2();
        let index = target >> log2;
        let at = layout::chunk_offset(self.body_start()?, index, log2)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek offset too large"))?;
        self.reader.seek(SeekFrom::Start(at))?;
        self.next_chunk = index;
        Ok(())
    }
}

impl<R: Read + Seek> Seek for Decryptor<R> {
    /// Moves to a plaintext offset. `SeekFrom::End` first proves the plaintext length by
    /// verifying the final chunk (its error, if any, is returned here); a seek past the end
    /// does the same, so that reads there return `Ok(0)` only for a proven end. Seeking
    /// clears an error of an earlier read: chunks elsewhere stay readable.
    fn seek(&mut self, from: SeekFrom) -> io::Result<u64> {
        let bad = || io::Error::new(io::ErrorKind::InvalidInput, "seek to a negative offset");
        let target = match from {
            SeekFrom::Start(p) => p,
            SeekFrom::Current(d) => self.pos.checked_add_signed(d).ok_or_else(bad)?,
            SeekFrom::End(d) => {
                let l = self.prove_len()?;
                l.checked_add_signed(d).ok_or_else(bad)?
            }
        };
        self.seek_to(target)?;
        Ok(target)
    }

    fn stream_position(&mut self) -> io::Result<u64> {
        Ok(self.pos)
    }
}
