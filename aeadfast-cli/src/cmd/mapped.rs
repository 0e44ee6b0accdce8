//! Memory-mapped reading for `aeadfast sum` and `aeadfast aes128 bench`: the one place the CLI
//! uses `unsafe`.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::{Mmap, MmapOptions};

/// Maps `len` bytes of `file` from `offset`, read-only, with the pages faulted in up front
/// (`MAP_POPULATE` on Linux: one kernel pass instead of a page fault per 4 KiB).
pub fn map(file: &File, offset: u64, len: usize) -> io::Result<Mmap> {
    map_with(file, offset, len, true)
}

/// Like [`map`], but the pages are mapped as they are first read (several threads reading
/// different parts then share the work).
pub fn map_lazy(file: &File, offset: u64, len: usize) -> io::Result<Mmap> {
    map_with(file, offset, len, false)
}

fn map_with(file: &File, offset: u64, len: usize, populate: bool) -> io::Result<Mmap> {
    let mut opts = MmapOptions::new();
    opts.offset(offset).len(len);
    if populate {
        opts.populate();
    }
    // SAFETY: memmap2 requires that the mapped file is not modified or truncated while the
    // map lives, which no process can promise for an ordinary file. What can happen: if
    // another process writes to the file while it is being read, the result (a checksum, or
    // the ciphertexts of `aes128 bench`, an encrypted file) covers a mix of old and new bytes —
    // exactly what `read()`-based tools like sha256sum or cp produce in that case, and the
    // next run shows the change; if the file is truncated meanwhile, the process gets SIGBUS
    // and dies with a non-zero status, so no wrong result is printed as good (an encryption
    // killed that way leaves its hidden temporary file beside the destination, which is
    // never touched). The map is read-only, private
    // to its caller, and no Rust reference into it outlives it; for a checksum and a
    // benchmark tool that is acceptable.
    unsafe { opts.map(file) }
}
