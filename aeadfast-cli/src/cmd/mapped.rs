//! Memory-mapped reading for `aeadfast encrypt`, `aeadfast sum` and `aeadfast aes128 bench`: the
//! one place the CLI uses `unsafe`.
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

/// Granularity of [`release_prefix`]: pages are handed back in whole 16 MiB steps.
const RELEASE_STEP: usize = 16 << 20;

/// Hands the pages of `map` below `done` (rounded down to a multiple of 16 MiB) back to the
/// kernel: a file that is read once from start to end through a map then keeps at most
/// ≈ 16 MiB plus the part in flight mapped into this process, instead of its whole size (the
/// pages stay in the page cache; they only leave this process's resident set). Advisory:
/// errors are ignored.
pub fn release_prefix(map: &Mmap, done: usize) {
    let len = done.min(map.len()) / RELEASE_STEP * RELEASE_STEP;
    if len == 0 {
        return;
    }
    #[cfg(unix)]
    {
        // SAFETY: `MADV_DONTNEED` on a read-only, never-written private file mapping drops
        // the pages from this process only; the next access to any of them faults it in
        // again from the file, so every byte read afterwards is the file's byte, as before
        // the call (with the same caveat about other processes writing the file as in
        // `map_with`). No pointer or reference into the map becomes dangling: the mapping
        // itself stays. The range starts at the map's (page-aligned) start and lies within it.
        let _ = unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, 0, len) };
    }
}
