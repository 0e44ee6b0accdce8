//! A file one byte short never decrypts: inputs found by fuzzing, replayed with the same
//! encryption parameters.

use std::io::{Cursor, Read, Write};

use aeadfast_file::{Algorithm, Decryptor, Encryptor};

fn decrypt_all(file: &[u8], key: &[u8], batch: usize) -> std::io::Result<Vec<u8>> {
    let mut dec = Decryptor::builder()
        .associated_data(b"ad")
        .batch_size(batch)
        .read_header(Cursor::new(file))?
        .unlock_with_key(key)?;
    let mut out = Vec::new();
    dec.read_to_end(&mut out).map(|_| out)
}

/// Byte 0 of the input picks algorithm, chunk size and batch size, as in the fuzz target.
fn replay(input: &[u8]) {
    let (&ctl, rest) = input.split_first().unwrap();
    let algorithm = Algorithm::ALL[usize::from(ctl & 3)];
    let key = vec![0x42u8; algorithm.key_len()];
    let log2 = 6 + (ctl >> 2 & 3);
    let batch = (usize::from(ctl >> 4 & 3) + 1) << log2;
    let mut enc = Encryptor::builder(algorithm)
        .chunk_log2(log2)
        .associated_data(b"ad")
        .insecure_nonce_prefix([ctl; 11])
        .batch_size(batch)
        .build(Vec::new(), &key)
        .unwrap();
    let mut at = 0;
    let mut step = usize::from(ctl) + 1;
    while at < rest.len() {
        let n = step.min(rest.len() - at);
        enc.write_all(&rest[at..at + n]).unwrap();
        at += n;
        step = step * 7 % 1000 + 1;
    }
    let file = enc.finish().unwrap();
    assert_eq!(decrypt_all(&file, &key, batch).unwrap(), rest);
    for cut in 1..=file.len().min(100) {
        let short = &file[..file.len() - cut];
        let r = decrypt_all(short, &key, batch);
        assert!(
            r.is_err(),
            "{cut} bytes short: decrypted to {} bytes",
            r.unwrap().len()
        );
    }
}

#[test]
fn a_file_cut_short_is_an_error() {
    replay(include_bytes!("data/truncated-final-chunk.bin"));
}

/// Every cut of a few files with 64-byte chunks, read with every buffer size up to three
/// chunks: reads that receive a batch directly (the buffer holds its plaintext exactly)
/// included. The final chunk is empty when the cut leaves a bare tag.
#[test]
fn every_cut_fails_whatever_the_read_size() {
    let key = [0x42u8; 32];
    for len in [0usize, 1, 63, 64, 65, 128, 129, 200] {
        let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
        let mut enc = Encryptor::builder(Algorithm::Hiae)
            .chunk_log2(6)
            .batch_size(192)
            .build(Vec::new(), &key)
            .unwrap();
        enc.write_all(&data).unwrap();
        let file = enc.finish().unwrap();
        for cut in 1..=40.min(file.len()) {
            let short = &file[..file.len() - cut];
            for size in 1..=200 {
                let Ok(mut dec) = Decryptor::builder()
                    .batch_size(192)
                    .read_header(Cursor::new(short))
                    .and_then(|l| l.unlock_with_key(&key))
                else {
                    continue; // the header itself is cut
                };
                let mut buf = vec![0u8; size];
                let mut total = 0;
                let end = loop {
                    match dec.read(&mut buf) {
                        Ok(0) => break Ok(total),
                        Ok(n) => total += n,
                        Err(e) => break Err(e),
                    }
                };
                assert!(
                    end.is_err(),
                    "{len}-byte plaintext, {cut} bytes cut, {size}-byte reads: ended cleanly"
                );
            }
        }
    }
}
