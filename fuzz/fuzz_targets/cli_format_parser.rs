//! The native file format (`aeadfast-file`, the code behind `aeadfast encrypt` / `decrypt`)
//! on arbitrary bytes:
//!
//! * header parsing never panics, and a header that parses serializes back to the same bytes;
//! * arbitrary bytes read as a whole file (fixed key, `read`, the pipelined `copy_to` and
//!   `copy_buffered_to`, and seeks) never panic and never verify: a forgery needs a 128-bit
//!   tag; whatever was released before the error is a whole number of chunks;
//! * the input encrypted with writes split where the input says, small batches (so batch
//!   and ring-item boundaries are crossed), decrypts back through `read` (small and large
//!   buffers), `copy_to`, `copy_buffered_to` and seeks, and with one bit flipped (where the
//!   input says) is rejected;
//! * arbitrary bytes as a libhiae `-e` file never verify.
//!
//! Input layout: byte 0 picks the algorithm, the chunk size and the batch size; the rest is
//! the data. The work runs on rayon's pool (the library's `parallel` feature), whose threads
//! live as long as the process.
#![no_main]

use std::io::{Cursor, Read, Seek, SeekFrom, Write};

use aeadfast_file::libhiae::{self, HiaeFile};
use aeadfast_file::{Algorithm, Decryptor, Encryptor, Header, layout};
use libfuzzer_sys::fuzz_target;

fn decrypt_all(file: &[u8], key: &[u8], ad: &[u8], batch: usize) -> std::io::Result<Vec<u8>> {
    let mut dec = Decryptor::builder()
        .associated_data(ad)
        .batch_size(batch)
        .read_header(file)?
        .unlock_with_key(key)?;
    let mut out = Vec::new();
    dec.read_to_end(&mut out).map(|_| out)
}

fuzz_target!(|data: &[u8]| {
    let Some((&ctl, rest)) = data.split_first() else {
        return;
    };
    let algorithm = Algorithm::ALL[usize::from(ctl & 3)];
    let key = vec![0x42u8; algorithm.key_len()];
    let log2 = 6 + (ctl >> 2 & 3);
    let batch = (usize::from(ctl >> 4 & 3) + 1) << log2;

    // 1. Parsing arbitrary bytes.
    if let Ok((header, len)) = Header::parse(rest) {
        assert_eq!(header.to_bytes(), rest[..len]);
        assert_eq!(header.len(), len);
    }

    // 2. Arbitrary bytes as a file: rejected, releasing only whole chunks.
    let open = || {
        Decryptor::builder()
            .batch_size(batch)
            .read_header(rest)
            .and_then(|l| l.unlock_with_key(&key))
    };
    if let Ok(mut dec) = open() {
        let chunk = dec.header().chunk_size();
        let mut out = Vec::new();
        assert!(dec.read_to_end(&mut out).is_err(), "a forgery was accepted");
        assert_eq!(out.len() % chunk, 0);
    }
    if let Ok(mut dec) = open() {
        let chunk = dec.header().chunk_size();
        let mut out = Vec::new();
        assert!(
            dec.copy_buffered_to(&mut out).is_err(),
            "a forgery was accepted"
        );
        assert_eq!(out.len() % chunk, 0);
    }
    if let Ok(mut dec) = Decryptor::new(Cursor::new(rest), &key) {
        let at = u64::from(ctl) * 13;
        if dec.seek(SeekFrom::Start(at)).is_ok() {
            let mut buf = [0u8; 100];
            assert!(dec.read(&mut buf).is_err(), "a forgery was accepted");
        }
        assert!(
            dec.seek(SeekFrom::End(0)).is_err(),
            "a forged end was accepted"
        );
    }

    // 3. Round trip, then one flipped bit.
    let mut enc = Encryptor::builder(algorithm)
        .chunk_log2(log2)
        .associated_data(b"ad")
        .insecure_nonce_prefix([ctl; 11])
        .batch_size(batch)
        .build(Vec::new(), &key)
        .expect("encryptor");
    let mut at = 0;
    let mut step = usize::from(ctl) + 1;
    while at < rest.len() {
        let n = step.min(rest.len() - at);
        enc.write_all(&rest[at..at + n]).expect("write");
        at += n;
        step = step * 7 % 1000 + 1;
    }
    let file = enc.finish().expect("finish");
    assert_eq!(
        file.len() as u64,
        layout::encrypted_len(24, rest.len() as u64, log2).unwrap()
    );
    assert_eq!(
        decrypt_all(&file, &key, b"ad", batch).expect("round trip"),
        rest
    );
    let mut dec = Decryptor::builder()
        .associated_data(b"ad")
        .batch_size(batch)
        .read_header(Cursor::new(&file))
        .and_then(|l| l.unlock_with_key(&key))
        .expect("header");
    let mut copied = Vec::new();
    dec.copy_to(&mut copied).expect("copy_to");
    assert_eq!(copied, rest);
    let mut from_buffer = Vec::new();
    Decryptor::builder()
        .associated_data(b"ad")
        .batch_size(batch)
        .read_header(&file[..])
        .and_then(|l| l.unlock_with_key(&key))
        .expect("header")
        .copy_buffered_to(&mut from_buffer)
        .expect("copy_buffered_to");
    assert_eq!(from_buffer, rest);
    // Reads into one large buffer (opened straight into it, item by item on the pool).
    let mut big = vec![0u8; rest.len() + 64];
    let mut big_dec = Decryptor::builder()
        .associated_data(b"ad")
        .batch_size(batch)
        .read_header(&file[..])
        .and_then(|l| l.unlock_with_key(&key))
        .expect("header");
    let mut got = 0;
    loop {
        match big_dec.read(&mut big[got..]).expect("large read") {
            0 => break,
            n => got += n,
        }
    }
    assert_eq!(&big[..got], rest);
    let pos = rest.first().map_or(0, |&b| u64::from(b) * 5) % (rest.len() as u64 + 1);
    dec.seek(SeekFrom::Start(pos)).expect("seek");
    let mut tail = Vec::new();
    dec.read_to_end(&mut tail).expect("read after seek");
    assert_eq!(tail, rest[pos as usize..]);
    assert_eq!(dec.seek(SeekFrom::End(0)).expect("end"), rest.len() as u64);

    let flip = rest.first().map_or(0, |&b| usize::from(b) * 7) % file.len();
    let mut bad = file.clone();
    bad[flip] ^= 1 << (ctl % 8);
    assert!(decrypt_all(&bad, &key, b"ad", batch).is_err());
    assert!(decrypt_all(&file[..file.len() - 1], &key, b"ad", batch).is_err());

    // 4. Arbitrary bytes as a libhiae file.
    if rest.len() >= libhiae::PREAMBLE_LEN + libhiae::TAG_LEN {
        let hf = HiaeFile::new(&[0x42; 32]).expect("key");
        let nonce: [u8; 16] = rest[8..24].try_into().unwrap();
        let (body, tag) = rest[libhiae::PREAMBLE_LEN..].split_at(rest.len() - 48);
        let tag: [u8; 16] = tag.try_into().unwrap();
        let mut out = Vec::new();
        let r = hf.decrypt(
            &nonce,
            &mut Cursor::new(b""),
            &mut Cursor::new(body),
            body.len() as u64,
            &tag,
            &mut out,
        );
        assert!(
            r.is_err() && out.is_empty(),
            "a libhiae forgery was accepted"
        );
    }
});
