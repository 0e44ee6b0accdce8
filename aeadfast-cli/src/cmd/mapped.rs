//! Memory-mapped reading for `aeadfast sum`: the one place the CLI uses `unsafe`.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::{Mmap, MmapOptions};

/// Maps `len` bytes of `file` from `offset`, read-only, with the pages faulted in up front
/// (`MAP_POPULATE` on Linux: one kernel pass instead of a page fault per 4 KiB).
pub fn map(file: &File, offset: u64, len: usize) -> io::Result<Mmap> {
    // SAFETY: memmap2 requires that the mapped file is not modified or truncated while the
    // map lives, which no process can promise for an ordinary file. What can happen: if
    // another process writes to the file while it is being checksummed, the checksum covers a
    // mix of old and new bytes — exactly what `read()`-based tools like sha256sum produce in
    // that case, and the next run shows the change; if the file is truncated meanwhile, the
    // process gets SIGBUS and dies with a non-zero status, so no wrong checksum is printed as
    // good. The map is read-only, private to this call, never handed out beyond the hash
    // call, and no Rust reference into it outlives it; for a checksum tool that is acceptable.
    unsafe {
        MmapOptions::new()
            .offset(offset)
            .len(len)
            .populate()
            .map(file)
    }
}
