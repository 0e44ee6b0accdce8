//! The native `aeadfast` file format reader (`aeadfast_cli::format`) on arbitrary bytes:
//!
//! * header parsing never panics, and a header that parses serializes back to the same bytes;
//! * decrypting arbitrary bytes as a whole file (fixed key, small batches so batch
//!   boundaries are hit) never panics and never accepts: a forgery needs a 128-bit tag;
//! * a file made from the input by the writer decrypts back to the input, and with one byte
//!   flipped (position chosen by the input) is rejected.
//!
//! Input layout (raw bytes): byte 0 picks the algorithm, the batch size and the chunk size;
//! the rest is the data.
#![no_main]

use aeadfast_cli::format::{
    Algorithm, Header, KeySource, decrypt_slice, encrypt_to_vec, encrypted_len,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&ctl, rest)) = data.split_first() else {
        return;
    };
    let algorithm = Algorithm::ALL[usize::from(ctl & 3)];
    let key = vec![0x42u8; algorithm.key_len()];
    let batch = Some(usize::from((ctl >> 2) & 3) + 1);

    // 1. Parsing arbitrary bytes.
    if let Ok((header, len)) = Header::parse(rest) {
        assert_eq!(header.to_bytes(), rest[..len]);
        assert_eq!(header.len(), len);
    }

    // 2. Arbitrary bytes as a file: must be rejected (no panic, no acceptance).
    assert!(decrypt_slice(rest, b"", &key, batch).is_err());

    // 3. Round trip of the input through the writer, then one flipped byte.
    let header = Header {
        algorithm,
        chunk_log2: 6 + (ctl >> 4 & 3),
        key_source: KeySource::KeyFile,
        nonce_prefix: [ctl; 11],
    };
    let file = encrypt_to_vec(&header, b"ad", &key, rest, batch).expect("encrypt");
    assert_eq!(
        file.len() as u64,
        encrypted_len(header.len() as u64, rest.len() as u64, header.chunk_log2).unwrap()
    );
    let (parsed, plain) = decrypt_slice(&file, b"ad", &key, batch).expect("round trip");
    assert_eq!(parsed, header);
    assert_eq!(plain, rest);
    let at = rest.first().map_or(0, |&b| usize::from(b) * 7) % file.len();
    let mut bad = file.clone();
    bad[at] ^= 1 << (ctl % 8);
    assert!(decrypt_slice(&bad, b"ad", &key, batch).is_err());
    assert!(decrypt_slice(&file[..file.len() - 1], b"ad", &key, batch).is_err());
});
