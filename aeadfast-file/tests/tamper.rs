//! Every tamper class gives its own error through `read` and `copy_to`, and nothing
//! unauthenticated comes out before it: truncation (at a chunk boundary, inside a chunk,
//! inside a tag), reordering, duplication, splicing from another file, extension, a changed
//! header, a wrong key or associated data, an encryptor dropped without `finish`.

mod common;

use std::io::{ErrorKind, Read, Write};

use aeadfast_file::{Algorithm, Decryptor, Encryptor, Error};
use common::{key, pattern};

const LOG2: u8 = 6;
const C: usize = 64;
const STRIDE: usize = C + 16;
const H: usize = 24;

fn file_with_prefix(msg: &[u8], prefix: u8) -> Vec<u8> {
    let mut enc = Encryptor::builder(Algorithm::Hiae)
        .chunk_log2(LOG2)
        .insecure_nonce_prefix([prefix; 11])
        .build(Vec::new(), &key(Algorithm::Hiae))
        .unwrap();
    enc.write_all(msg).unwrap();
    enc.finish().unwrap()
}

/// Reads `file` with `read` in small pieces and with `copy_to`; both must fail with an
/// error of `kind` matching `want`, after releasing only a prefix of `msg` of whole
/// verified chunks. Returns the number of bytes released.
fn fails(
    file: &[u8],
    k: &[u8],
    msg: &[u8],
    kind: ErrorKind,
    want: impl Fn(&Error) -> bool,
) -> usize {
    let mut released = Vec::new();
    let err = match Decryptor::new(file, k) {
        Err(e) => e,
        Ok(mut dec) => {
            let mut buf = [0u8; 50];
            loop {
                match dec.read(&mut buf) {
                    Ok(0) => panic!("a damaged file read to its end"),
                    Ok(n) => released.extend_from_slice(&buf[..n]),
                    Err(e) => {
                        // The error stays: reading again gives it again.
                        let again = dec.read(&mut buf).unwrap_err();
                        assert_eq!(again.kind(), e.kind());
                        break e;
                    }
                }
            }
        }
    };
    assert_eq!(err.kind(), kind, "{err}");
    let inner = Error::from_io(&err).unwrap_or_else(|| panic!("no format error in {err}"));
    assert!(want(inner), "unexpected error {inner:?}");
    assert!(
        msg.starts_with(&released),
        "released bytes that are not the plaintext"
    );
    assert_eq!(released.len() % C, 0, "released part of a chunk");
    // The pipelined copy releases the same prefix and the same error, whether the file
    // goes through it in one piece or in pieces of one or three chunks (read, opened and
    // written by different threads).
    for batch in [None, Some(C), Some(3 * C)] {
        let mut b = Decryptor::builder();
        if let Some(n) = batch {
            b = b.batch_size(n);
        }
        // Reads into a buffer that holds the whole file (opened straight into it, in
        // pieces on several threads when they are small): the same prefix, the same
        // error, and nothing but zeros after what was returned.
        if let Ok(mut dec) = b
            .clone()
            .read_header(file)
            .and_then(|l| l.unlock_with_key(k))
        {
            let mut big = vec![0u8; msg.len() + 3 * C];
            let mut at = 0;
            let e = loop {
                match dec.read(&mut big[at..]) {
                    Ok(0) => panic!("a damaged file read to its end ({batch:?})"),
                    Ok(n) => at += n,
                    Err(e) => break e,
                }
            };
            assert_eq!(e.kind(), kind);
            assert_eq!(&big[..at], &released[..], "large reads ({batch:?})");
            assert!(
                big[at..].iter().all(|&x| x == 0),
                "bytes past the verified prefix"
            );
        }
        for buffered in [false, true] {
            let Ok(mut dec) = b
                .clone()
                .read_header(file)
                .and_then(|l| l.unlock_with_key(k))
            else {
                continue;
            };
            let mut out = Vec::new();
            let copy = |dec: &mut Decryptor<&[u8]>, out: &mut Vec<u8>| match buffered {
                false => dec.copy_to(out),
                true => dec.copy_buffered_to(out),
            };
            let e = copy(&mut dec, &mut out).unwrap_err();
            assert_eq!(e.kind(), kind);
            assert_eq!(
                out, released,
                "copy ({batch:?}, buffered {buffered}) released something else"
            );
            let again = copy(&mut dec, &mut out).unwrap_err();
            assert_eq!(again.kind(), kind, "the error stays");
        }
    }
    released.len()
}

#[test]
fn each_tamper_class_has_its_error() {
    let msg = pattern(4 * C + 7, 1); // chunks 0..3 full, chunk 4 final (7 bytes)
    let file = file_with_prefix(&msg, 1);
    let k = key(Algorithm::Hiae);
    assert_eq!(file.len(), H + 4 * STRIDE + 7 + 16);
    let chunk = |i: usize| &file[H + i * STRIDE..(H + (i + 1) * STRIDE).min(file.len())];
    let build = |order: &[usize]| {
        let mut v = file[..H].to_vec();
        for &i in order {
            v.extend_from_slice(chunk(i));
        }
        v
    };
    let auth =
        |want: u64| move |e: &Error| matches!(e, Error::Auth { index, .. } if *index == want);

    // Truncation: final chunk missing (every full-chunk cut), inside a chunk, inside a tag.
    for keep in 0..4 {
        let order: Vec<usize> = (0..keep).collect();
        let n = fails(
            &build(&order),
            &k,
            &msg,
            ErrorKind::UnexpectedEof,
            |e| matches!(e, Error::Truncated { chunks, partial: 0 } if *chunks == keep as u64),
        );
        assert_eq!(
            n,
            keep * C,
            "the verified chunks before the cut are released"
        );
    }
    fails(
        &file[..H + STRIDE + 5],
        &k,
        &msg,
        ErrorKind::UnexpectedEof,
        |e| {
            matches!(
                e,
                Error::Truncated {
                    chunks: 1,
                    partial: 5
                }
            )
        },
    );
    fails(
        &file[..H + STRIDE + 40],
        &k,
        &msg,
        ErrorKind::InvalidData,
        auth(1),
    );
    fails(
        &file[..file.len() - 1],
        &k,
        &msg,
        ErrorKind::InvalidData,
        auth(4),
    );
    // Reordered, duplicated, dropped chunks.
    assert_eq!(
        fails(
            &build(&[0, 2, 1, 3, 4]),
            &k,
            &msg,
            ErrorKind::InvalidData,
            auth(1)
        ),
        C
    );
    assert_eq!(
        fails(
            &build(&[0, 1, 1, 2, 3, 4]),
            &k,
            &msg,
            ErrorKind::InvalidData,
            auth(2)
        ),
        2 * C
    );
    fails(
        &build(&[0, 1, 3, 4]),
        &k,
        &msg,
        ErrorKind::InvalidData,
        auth(2),
    );
    fails(
        &build(&[0, 1, 2, 4]),
        &k,
        &msg,
        ErrorKind::InvalidData,
        auth(3),
    );
    // A chunk spliced in from another file under the same key (other nonce prefix).
    let other = file_with_prefix(&msg, 2);
    let mut spliced = file.clone();
    spliced[H + 2 * STRIDE..H + 3 * STRIDE].copy_from_slice(&other[H + 2 * STRIDE..H + 3 * STRIDE]);
    fails(&spliced, &k, &msg, ErrorKind::InvalidData, auth(2));
    // Extended: a byte, or a whole chunk, after the final chunk.
    let mut ext = file.clone();
    ext.push(0);
    fails(&ext, &k, &msg, ErrorKind::InvalidData, auth(4));
    let mut ext = file.clone();
    ext.extend_from_slice(chunk(4));
    fails(&ext, &k, &msg, ErrorKind::InvalidData, auth(4));
    // A flipped bit in every chunk body and tag.
    for i in 0..5u64 {
        for at in [3, STRIDE - 1] {
            let mut v = file.clone();
            let p = (H + i as usize * STRIDE + at).min(v.len() - 1);
            v[p] ^= 0x10;
            fails(&v, &k, &msg, ErrorKind::InvalidData, auth(i));
        }
    }
    // The header is associated data: a changed nonce prefix or algorithm fails chunk 0;
    // a changed magic or version fails in the header.
    for (at, v) in [(13usize, 0x01u8), (9, 0x02)] {
        let mut bad = file.clone();
        bad[at] ^= v;
        fails(&bad, &k, &msg, ErrorKind::InvalidData, auth(0));
    }
    for at in [0usize, 8, 23] {
        let mut bad = file.clone();
        bad[at] ^= 0x40;
        fails(&bad, &k, &msg, ErrorKind::InvalidData, |e| {
            matches!(e, Error::Header(_))
        });
    }
    fails(&[], &k, &msg, ErrorKind::InvalidData, |e| {
        matches!(e, Error::Header(_))
    });
    // Wrong key, wrong associated data.
    let mut wrong = k.clone();
    wrong[0] ^= 1;
    fails(&file, &wrong, &msg, ErrorKind::InvalidData, auth(0));
    let mut dec = Decryptor::builder()
        .associated_data(b"other")
        .read_header(&file[..])
        .unwrap()
        .unlock_with_key(&k)
        .unwrap();
    let e = dec.read_to_end(&mut Vec::new()).unwrap_err();
    assert!(matches!(
        Error::from_io(&e),
        Some(Error::Auth { index: 0, .. })
    ));
    // A key of the wrong length is a usage error, before any data.
    let e = Decryptor::new(&file[..], &[0u8; 16]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidInput);
}

#[test]
fn a_dropped_encryptor_never_decrypts_as_complete() {
    let k = key(Algorithm::Hiae);
    for len in [0usize, 10, 3 * C, 100_000] {
        let msg = pattern(len, 4);
        let mut out = Vec::new();
        {
            let mut enc = Encryptor::builder(Algorithm::Hiae)
                .chunk_log2(LOG2)
                .build(&mut out, &k)
                .unwrap();
            enc.write_all(&msg).unwrap();
            enc.flush().unwrap();
            // Dropped here, without finish.
        }
        let released = fails(&out, &k, &msg, ErrorKind::UnexpectedEof, |e| {
            matches!(e, Error::Truncated { partial: 0, .. })
        });
        assert_eq!(released, len / C * C, "flush wrote every complete chunk");
    }
}

#[test]
fn a_wrong_passphrase_and_a_costly_header() {
    let mut enc = Encryptor::builder(Algorithm::Hiae)
        .argon2_params(aeadfast_file::Argon2Params {
            m_kib: 64,
            t: 1,
            p: 1,
            salt: [1; 16],
        })
        .build_with_passphrase(Vec::new(), b"right")
        .unwrap();
    enc.write_all(b"secret").unwrap();
    let file = enc.finish().unwrap();
    let mut dec = Decryptor::with_passphrase(&file[..], b"wrong").unwrap();
    let e = dec.read_to_end(&mut Vec::new()).unwrap_err();
    assert!(matches!(
        Error::from_io(&e),
        Some(Error::Auth { index: 0, .. })
    ));
    // A header asking for 4 GiB and 64 passes is refused before any work.
    let mut hostile = file.clone();
    hostile[24..28].copy_from_slice(&(4u32 << 20).to_be_bytes());
    hostile[28..32].copy_from_slice(&64u32.to_be_bytes());
    hostile[32..36].copy_from_slice(&64u32.to_be_bytes());
    let t = std::time::Instant::now();
    let e = Decryptor::with_passphrase(&hostile[..], b"right").unwrap_err();
    assert!(
        matches!(Error::from_io(&e), Some(Error::KdfLimit { .. })),
        "{e}"
    );
    assert!(t.elapsed().as_secs() < 1);
    // The encryptor refuses to write what the decryptor would refuse.
    let e = Encryptor::builder(Algorithm::Hiae)
        .argon2_params(aeadfast_file::Argon2Params {
            m_kib: 1 << 20,
            t: 1,
            p: 1,
            salt: [1; 16],
        })
        .build_with_passphrase(Vec::new(), b"x")
        .unwrap_err();
    assert!(matches!(Error::from_io(&e), Some(Error::KdfLimit { .. })));
    // A passphrase for a raw-key file.
    let raw = common::encrypt(Algorithm::Hiae, 6, b"", b"abc");
    let e = Decryptor::with_passphrase(&raw[..], b"x").unwrap_err();
    assert!(matches!(
        Error::from_io(&e),
        Some(Error::NotPassphraseProtected)
    ));
}
