//! Bounded work on hostile or large input, measured on the child processes (`getrusage`,
//! so this file holds a single test: every child it waits for counts):
//!
//! * a passphrase file whose header asks Argon2id for 4 GiB, 64 passes and 64 lanes is
//!   refused within a second, using less than 64 MiB;
//! * encrypting and decrypting with 4 MiB chunks on 64 threads stays under 100 MiB (memory
//!   is bounded by a budget per batch, not by threads × chunk size).
#![cfg(target_os = "linux")]
#![allow(unsafe_code)]

use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use aeadfast_file::{Algorithm, Argon2Params, Encryptor};
use aeadfast_tests::{aeadfast, stderr_of};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// The largest resident set of the children waited for so far, in bytes.
fn children_max_rss() -> u64 {
    let mut ru = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `getrusage` writes a `struct rusage` to the pointer, which points to a zeroed
    // `rusage` owned by this frame; RUSAGE_CHILDREN is a valid `who`.
    let r = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, ru.as_mut_ptr()) };
    assert_eq!(r, 0);
    // SAFETY: initialized by the successful call above (and zeroed before it).
    let ru = unsafe { ru.assume_init() };
    ru.ru_maxrss as u64 * 1024
}

#[test]
fn hostile_kdf_headers_and_many_threads_stay_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A passphrase file made here (not by a child), then its Argon2id fields raised.
    let pass = d.join("pass");
    fs::write(&pass, "passphrase\n").unwrap();
    let mut enc = Encryptor::builder(Algorithm::Hiae)
        .argon2_params(Argon2Params {
            m_kib: 64,
            t: 1,
            p: 1,
            salt: [5; 16],
        })
        .build_with_passphrase(Vec::new(), b"passphrase")
        .unwrap();
    enc.write_all(b"secret").unwrap();
    let mut file = enc.finish().unwrap();
    file[24..28].copy_from_slice(&(4u32 << 20).to_be_bytes());
    file[28..32].copy_from_slice(&64u32.to_be_bytes());
    file[32..36].copy_from_slice(&64u32.to_be_bytes());
    let hostile = d.join("hostile.af");
    fs::write(&hostile, &file).unwrap();
    let t = Instant::now();
    let r = aeadfast(&[
        "decrypt",
        "--passphrase-file",
        s(&pass),
        s(&hostile),
        "-o",
        "-",
    ]);
    let took = t.elapsed();
    let err = stderr_of(&r);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("--allow-expensive-kdf"), "{err}");
    assert!(took.as_millis() < 1000, "refused after {took:?}");
    let rss = children_max_rss();
    assert!(rss < 64 << 20, "peak RSS {} MiB", rss >> 20);

    // 128 MiB with 4 MiB chunks on 64 threads, both directions.
    let big = d.join("big");
    fs::File::create(&big).unwrap().set_len(128 << 20).unwrap();
    let key = d.join("k");
    assert!(aeadfast(&["keygen", "-o", s(&key)]).status.success());
    let enc = d.join("big.af");
    let r = aeadfast(&[
        "encrypt",
        "-k",
        s(&key),
        s(&big),
        "-o",
        s(&enc),
        "--chunk-size-log2",
        "22",
        "--num-threads",
        "64",
    ]);
    assert!(r.status.success(), "{}", stderr_of(&r));
    let r = aeadfast(&[
        "decrypt",
        "-k",
        s(&key),
        s(&enc),
        "-o",
        "/dev/null",
        "--num-threads",
        "64",
    ]);
    assert!(r.status.success(), "{}", stderr_of(&r));
    let rss = children_max_rss();
    assert!(rss < 100 << 20, "peak RSS {} MiB", rss >> 20);
}
