//! Layout arithmetic of a native file, in `u64` (files over 4 GiB are no special case):
//! every chunk but the last holds exactly `2^chunk_log2` plaintext bytes, the last one
//! `0 ..= 2^chunk_log2 − 1`, and each is followed by a 16-byte tag.

use crate::Error;
use crate::header::TAG_LEN;

/// Number of chunks of a `plain_len`-byte plaintext (at least 1: the final chunk is always
/// there, possibly empty).
pub fn chunk_count(plain_len: u64, chunk_log2: u8) -> u64 {
    (plain_len >> chunk_log2) + 1
}

/// Stored bytes per full chunk: the chunk and its tag.
pub fn stride(chunk_log2: u8) -> u64 {
    (1u64 << chunk_log2) + TAG_LEN as u64
}

/// Length of the encrypted file: header, plaintext, one tag per chunk (`None` on overflow).
pub fn encrypted_len(header_len: u64, plain_len: u64, chunk_log2: u8) -> Option<u64> {
    let tags = chunk_count(plain_len, chunk_log2).checked_mul(TAG_LEN as u64)?;
    header_len.checked_add(plain_len)?.checked_add(tags)
}

/// Byte offset of chunk `index` in the file (`None` on overflow).
pub fn chunk_offset(header_len: u64, index: u64, chunk_log2: u8) -> Option<u64> {
    index
        .checked_mul(stride(chunk_log2))?
        .checked_add(header_len)
}

/// Plaintext length of an encrypted file of `file_len` bytes.
///
/// # Errors
/// [`Error::BadLength`] if no plaintext length gives this file length.
pub fn plaintext_len(header_len: u64, file_len: u64, chunk_log2: u8) -> Result<u64, Error> {
    let stride = stride(chunk_log2);
    let body = file_len
        .checked_sub(header_len)
        .ok_or(Error::BadLength { len: file_len })?;
    let (full, rest) = (body / stride, body % stride);
    if rest < TAG_LEN as u64 {
        return Err(Error::BadLength { len: file_len });
    }
    Ok(full * (1u64 << chunk_log2) + rest - TAG_LEN as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_over_4_gib() {
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
                // A cut at a chunk boundary, or inside a tag, is not a valid length.
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
    }
}
