//! Random access: seeks to the start, the end, chunk boundaries ± 1 and from the end,
//! followed by reads of random lengths, equal the plaintext slice; a damaged chunk fails
//! only the reads that touch it; the end is proven before it is reported.

mod common;

use std::io::{Cursor, ErrorKind, Read, Seek, SeekFrom, Write};

use aeadfast_file::{Algorithm, Decryptor, Error};
use common::{encrypt, key, pattern};

/// Reads up to `len` bytes (fewer only at the end).
fn read_up_to<R: Read>(r: &mut R, len: usize) -> std::io::Result<Vec<u8>> {
    let mut out = vec![0u8; len];
    let mut at = 0;
    while at < len {
        let n = r.read(&mut out[at..])?;
        if n == 0 {
            break;
        }
        at += n;
    }
    out.truncate(at);
    Ok(out)
}

fn expect_slice(msg: &[u8], pos: u64, len: usize) -> &[u8] {
    let start = (pos as usize).min(msg.len());
    &msg[start..(start + len).min(msg.len())]
}

#[test]
fn seeks_and_reads_equal_the_plaintext() {
    for (alg, log2, len) in [
        (Algorithm::Hiae, 6u8, 1000usize),
        (Algorithm::GiftCofb, 7, 128 * 40),
        (Algorithm::HiaeX2, 9, 512 * 700 + 3),
        (Algorithm::Hiae, 6, 0),
    ] {
        let c = 1u64 << log2;
        let msg = pattern(len, 11);
        let file = encrypt(alg, log2, b"", &msg);
        let mut dec = Decryptor::new(Cursor::new(&file), &key(alg)).unwrap();
        let l = len as u64;
        let mut targets = vec![0u64, 1, l.saturating_sub(1), l, l + 1, l + 500];
        for k in 0..=(l / c + 1) {
            for d in [-1i64, 0, 1] {
                if let Some(t) = (k * c).checked_add_signed(d) {
                    targets.push(t);
                }
            }
        }
        let lens = pattern(targets.len() * 2, 5);
        for (i, &t) in targets.iter().enumerate() {
            let rlen = usize::from(lens[i]) * (1 + i % 5);
            assert_eq!(dec.seek(SeekFrom::Start(t)).unwrap(), t);
            let got = read_up_to(&mut dec, rlen).unwrap();
            assert!(
                got == expect_slice(&msg, t, rlen),
                "{alg} {log2} seek {t} read {rlen}"
            );
            // From the end and from the current position.
            let back = (t % 300) as i64;
            let p = dec.seek(SeekFrom::End(-back.min(l as i64))).unwrap();
            assert_eq!(p, l - (back as u64).min(l));
            let got = read_up_to(&mut dec, rlen).unwrap();
            assert!(got == expect_slice(&msg, p, rlen), "from end {p}");
            let q = dec.seek(SeekFrom::Current(-(got.len() as i64))).unwrap();
            assert_eq!(q, p);
            assert_eq!(dec.stream_position().unwrap(), p);
        }
        assert_eq!(dec.seek(SeekFrom::End(0)).unwrap(), l);
        assert_eq!(dec.verified_len(), Some(l));
        assert_eq!(dec.read(&mut [0u8; 10]).unwrap(), 0);
        assert!(dec.seek(SeekFrom::Current(-(l as i64) - 1)).is_err());
        // Sequential reading after seeks reaches the end.
        dec.seek(SeekFrom::Start(l / 3)).unwrap();
        let mut rest = Vec::new();
        dec.read_to_end(&mut rest).unwrap();
        assert!(rest == msg[len / 3..]);
        dec.seek(SeekFrom::Start(l / 2)).unwrap();
        let mut rest = Vec::new();
        dec.copy_to(&mut rest).unwrap();
        assert!(rest == msg[len / 2..]);
    }
}

#[test]
fn seek_on_a_real_file_opened_after_the_header() {
    let msg = pattern(300_000, 2);
    let file = encrypt(Algorithm::Hiae, 12, b"", &msg);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.af");
    // Something before the encrypted file: the decryptor finds its own start.
    let mut bytes = b"prefix!".to_vec();
    bytes.extend_from_slice(&file);
    std::fs::write(&path, &bytes).unwrap();
    let mut f = std::fs::File::open(&path).unwrap();
    f.seek(SeekFrom::Start(7)).unwrap();
    let mut dec = Decryptor::new(f, &key(Algorithm::Hiae)).unwrap();
    let mut buf = [0u8; 10];
    dec.read_exact(&mut buf).unwrap();
    assert_eq!(buf, msg[..10]);
    for t in [299_990u64, 4096, 4095, 123_457, 0] {
        dec.seek(SeekFrom::Start(t)).unwrap();
        let got = read_up_to(&mut dec, 5000).unwrap();
        assert!(got == expect_slice(&msg, t, 5000), "{t}");
    }
}

#[test]
fn a_damaged_chunk_fails_only_the_reads_that_touch_it() {
    let log2 = 6;
    let msg = pattern(64 * 20 + 5, 8);
    let mut file = encrypt(Algorithm::Hiae, log2, b"", &msg);
    let bad_chunk = 7u64;
    file[24 + 7 * 80 + 10] ^= 1;
    let mut dec = Decryptor::new(Cursor::new(&file), &key(Algorithm::Hiae)).unwrap();
    for t in [
        0u64,
        64 * 6,
        64 * 7 - 1,
        64 * 7,
        64 * 7 + 63,
        64 * 8,
        64 * 19,
    ] {
        dec.seek(SeekFrom::Start(t)).unwrap();
        let r = read_up_to(&mut dec, 10);
        let touches = t / 64 == bad_chunk || (t / 64 + 1 == bad_chunk && t % 64 > 54);
        match r {
            Ok(got) => {
                assert!(!touches || got.len() < 10, "read {t} should have failed");
                assert!(msg[t as usize..].starts_with(&got));
            }
            Err(e) => {
                assert!(touches, "read at {t} failed: {e}");
                assert_eq!(e.kind(), ErrorKind::InvalidData);
                assert!(matches!(
                    Error::from_io(&e),
                    Some(Error::Auth { index: 7, .. })
                ));
                assert!(e.to_string().contains("chunk 7"), "{e}");
            }
        }
    }
    // Reading through it in order stops at it, after the verified chunks.
    dec.seek(SeekFrom::Start(0)).unwrap();
    let mut out = Vec::new();
    let e = dec.read_to_end(&mut out).unwrap_err();
    assert!(matches!(
        Error::from_io(&e),
        Some(Error::Auth { index: 7, .. })
    ));
    assert_eq!(out, msg[..64 * 7]);
}

#[test]
fn the_end_is_proven_before_it_is_reported() {
    let msg = pattern(64 * 5 + 9, 3);
    let file = encrypt(Algorithm::Hiae, 6, b"", &msg);
    // The final chunk dropped: the length no longer fits the layout.
    let cut = &file[..file.len() - (9 + 16)];
    let mut dec = Decryptor::new(Cursor::new(cut), &key(Algorithm::Hiae)).unwrap();
    let e = dec.seek(SeekFrom::End(0)).unwrap_err();
    assert!(
        matches!(Error::from_io(&e), Some(Error::BadLength { .. })),
        "{e}"
    );
    // Cut inside the final chunk's plaintext: the length fits, the final chunk fails.
    let cut = &file[..file.len() - 3];
    let mut dec = Decryptor::new(Cursor::new(cut), &key(Algorithm::Hiae)).unwrap();
    let e = dec.seek(SeekFrom::End(-5)).unwrap_err();
    assert!(
        matches!(Error::from_io(&e), Some(Error::Auth { index: 5, .. })),
        "{e}"
    );
    // A seek past the end of the real plaintext proves the end, then reads give 0.
    let mut dec = Decryptor::new(Cursor::new(&file), &key(Algorithm::Hiae)).unwrap();
    dec.seek(SeekFrom::Start(10_000)).unwrap();
    assert_eq!(dec.read(&mut [0u8; 4]).unwrap(), 0);
    // A full chunk where the final one should be (the file cut at a chunk boundary and
    // padded with a fake tag-length tail) fails as a final chunk.
    let mut fake = file[..24 + 5 * 80].to_vec();
    fake.extend_from_slice(&[0u8; 16]);
    let mut dec = Decryptor::new(Cursor::new(&fake), &key(Algorithm::Hiae)).unwrap();
    assert!(dec.seek(SeekFrom::End(0)).is_err());
    let mut v = Vec::new();
    let w: &mut dyn Write = &mut v;
    assert!(dec.copy_to(w).is_err() || v.len() < msg.len());
}
