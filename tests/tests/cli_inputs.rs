//! How `aeadfast encrypt` / `decrypt` treat what they are given, as real processes:
//!
//! * associated data: `--ad-file` over 64 MiB is refused by the native format (never cut
//!   short); the libhiae format authenticates all of it (a change at its last byte fails);
//! * libhiae files: bytes 24–31 are written as zeros and ignored when read;
//! * key files: `-k /dev/zero` reads only key-size + 1 bytes; a missing key file whose name
//!   looks like a hex key is reported without repeating it;
//! * one accurate message per case and exit codes that agree with the help text, without
//!   "(os error N)" tails;
//! * the input as a positional argument (`-` for standard input), `-i` still working.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use aeadfast_tests::{aeadfast, aeadfast_stdin, stderr_of};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

fn ok(out: &Output) {
    assert!(out.status.success(), "aeadfast failed: {}", stderr_of(out));
}

fn fails_with(out: &Output, code: i32, needle: &str) -> String {
    let err = stderr_of(out);
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    assert!(err.contains(needle), "expected {needle:?} in stderr: {err}");
    assert!(err.starts_with("aeadfast: "), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(!err.contains("os error"), "{err}");
    err
}

fn keygen(dir: &Path, alg: &str) -> PathBuf {
    let key = dir.join(format!("{alg}.key"));
    ok(&aeadfast(&["keygen", "-a", alg, "-o", s(&key)]));
    key
}

#[test]
fn associated_data_is_never_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d, "hiae");
    let input = d.join("in");
    fs::write(&input, b"the message").unwrap();
    let big = d.join("ad.big");
    let mut ad = vec![7u8; (64 << 20) + 1000];
    fs::write(&big, &ad).unwrap();
    // Native: refused, with the limit named; nothing written.
    let out = d.join("out.af");
    fails_with(
        &aeadfast(&[
            "encrypt",
            "-k",
            s(&key),
            s(&input),
            "-o",
            s(&out),
            "--ad-file",
            s(&big),
        ]),
        2,
        "larger than 64 MiB",
    );
    assert!(!out.exists());
    // libhiae: all of it is authenticated.
    let hiae = d.join("out.hiae");
    ok(&aeadfast(&[
        "encrypt",
        "--format",
        "hiae",
        "-k",
        s(&key),
        s(&input),
        "-o",
        s(&hiae),
        "--ad-file",
        s(&big),
    ]));
    let back = d.join("back");
    ok(&aeadfast(&[
        "decrypt",
        "--format",
        "hiae",
        "-k",
        s(&key),
        s(&hiae),
        "-o",
        s(&back),
        "--ad-file",
        s(&big),
    ]));
    assert_eq!(fs::read(&back).unwrap(), b"the message");
    fs::remove_file(&back).unwrap();
    *ad.last_mut().unwrap() ^= 1;
    let changed = d.join("ad.changed");
    fs::write(&changed, &ad).unwrap();
    fails_with(
        &aeadfast(&[
            "decrypt",
            "--format",
            "hiae",
            "-k",
            s(&key),
            s(&hiae),
            "-o",
            s(&back),
            "--ad-file",
            s(&changed),
        ]),
        1,
        "authentication failed",
    );
    assert!(!back.exists());
    // Cut at 64 MiB: fails too.
    ad.truncate(64 << 20);
    fs::write(&changed, &ad).unwrap();
    fails_with(
        &aeadfast(&[
            "decrypt",
            "--format",
            "hiae",
            "-k",
            s(&key),
            s(&hiae),
            "-o",
            "-",
            "--ad-file",
            s(&changed),
        ]),
        1,
        "authentication failed",
    );
}

#[test]
fn libhiae_bytes_24_to_31_are_zero_and_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d, "hiae");
    let input = d.join("in");
    fs::write(&input, b"payload").unwrap();
    let f = d.join("f.hiae");
    ok(&aeadfast(&[
        "encrypt",
        "--format",
        "hiae",
        "-k",
        s(&key),
        s(&input),
        "-o",
        s(&f),
    ]));
    let mut bytes = fs::read(&f).unwrap();
    assert_eq!(&bytes[24..32], &[0u8; 8], "written as zeros");
    // What libhiae leaves there (uninitialised memory): decryption does not look at it.
    bytes[24..32].copy_from_slice(&[0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4]);
    fs::write(&f, &bytes).unwrap();
    let r = aeadfast(&[
        "decrypt",
        "--format",
        "hiae",
        "-k",
        s(&key),
        s(&f),
        "-o",
        "-",
    ]);
    ok(&r);
    assert_eq!(r.stdout, b"payload");
}

#[test]
fn key_files_are_read_with_a_limit_and_never_echoed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("in");
    fs::write(&input, b"x").unwrap();
    // /dev/zero never ends: only 33 bytes are read, and the length is reported at once.
    let t = std::time::Instant::now();
    fails_with(
        &aeadfast(&["encrypt", "-k", "/dev/zero", s(&input), "-o", "-"]),
        2,
        "holds more than 32 bytes",
    );
    assert!(t.elapsed().as_secs() < 5);
    // A hex key typed where a file name belongs: said, not repeated.
    let hex = "eda6864e8a37c28c2b7f9e4f1a3d5c6b7e8f90a1b2c3d4e5f60718293a4b5c6d";
    let err = fails_with(
        &aeadfast(&["encrypt", "-k", hex, s(&input), "-o", "-"]),
        2,
        "looks like a hex key",
    );
    assert!(!err.contains(hex) && !err.contains(&hex[..16]), "{err}");
    let err = fails_with(
        &aeadfast(&["sum", "--key", hex, s(&input)]),
        2,
        "looks like a hex key",
    );
    assert!(!err.contains(&hex[..16]), "{err}");
    // An ordinary missing key file is named.
    fails_with(
        &aeadfast(&["encrypt", "-k", "/nonexistent/k.key", s(&input), "-o", "-"]),
        2,
        "/nonexistent/k.key",
    );
}

#[test]
fn messages_and_exit_codes_agree_with_the_help() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d, "hiae");
    let other = keygen(d, "hiaex2");
    let short = keygen(d, "gift-cofb");
    let input = d.join("in");
    fs::write(&input, vec![3u8; 1000]).unwrap();
    let enc = d.join("in.af");
    ok(&aeadfast(&[
        "encrypt",
        "-k",
        s(&key),
        s(&input),
        "-o",
        s(&enc),
        "--chunk-size-log2",
        "6",
    ]));
    let file = fs::read(&enc).unwrap();
    // A wrong key to standard output: nothing was written, and the message says so (and
    // only that).
    let r = aeadfast_stdin(&["decrypt", "-k", s(&other)], &file);
    let err = fails_with(&r, 1, "wrong key");
    assert!(
        err.contains("nothing was written") && !err.contains("INCOMPLETE"),
        "{err}"
    );
    assert!(r.stdout.is_empty());
    // A late failure to standard output: the verified prefix was written, and said so.
    let mut late = file.clone();
    let n = late.len();
    late[n - 3] ^= 1;
    let r = aeadfast_stdin(&["decrypt", "-k", s(&key)], &late);
    let err = fails_with(&r, 1, "INCOMPLETE");
    assert!(
        err.contains(&format!("the {} bytes", r.stdout.len())),
        "{err}"
    );
    assert!(!r.stdout.is_empty());
    // A key of the wrong length: 2 on both sides.
    fails_with(
        &aeadfast(&["encrypt", "-k", s(&short), s(&input), "-o", "-"]),
        2,
        "needs a 32-byte raw key",
    );
    fails_with(
        &aeadfast(&["decrypt", "-k", s(&short), s(&enc), "-o", "-"]),
        2,
        "needs a 32-byte raw key",
    );
    // -a that does not match the file: a usage error (2).
    fails_with(
        &aeadfast(&["decrypt", "-a", "hiaex4", "-k", s(&key), s(&enc), "-o", "-"]),
        2,
        "not hiaex4",
    );
    // A missing input: 2, named, no "(os error 2)".
    fails_with(
        &aeadfast(&["decrypt", "-k", s(&key), "/nonexistent/in.af", "-o", "-"]),
        2,
        "/nonexistent/in.af",
    );
    // A truncated file to a file: 1, and no output.
    let cut = d.join("cut.af");
    fs::write(&cut, &file[..file.len() - 20]).unwrap();
    let out = d.join("out");
    fails_with(
        &aeadfast(&["decrypt", "-k", s(&key), s(&cut), "-o", s(&out)]),
        1,
        "",
    );
    assert!(!out.exists());
    // sum: a missing file is 1, as sha256sum.
    let r = aeadfast(&["sum", "/nonexistent/x"]);
    assert_eq!(r.status.code(), Some(1));
    assert!(!stderr_of(&r).contains("os error"));
    // The help text states these codes.
    let help = String::from_utf8(aeadfast(&["--help"]).stdout).unwrap();
    for needle in [
        "1 a verification",
        "2 usage",
        "a key of the wrong length",
        "-a not matching",
        "128+N",
        "141",
    ] {
        assert!(help.contains(needle), "{needle:?} not in --help");
    }
}

#[test]
fn the_input_is_a_positional_argument() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d, "hiae");
    let input = d.join("in");
    fs::write(&input, b"positional").unwrap();
    let a = d.join("a.af");
    let b = d.join("b.af");
    ok(&aeadfast(&[
        "encrypt",
        "-k",
        s(&key),
        s(&input),
        "-o",
        s(&a),
    ]));
    ok(&aeadfast(&[
        "encrypt",
        "-k",
        s(&key),
        "-i",
        s(&input),
        "-o",
        s(&b),
    ]));
    for f in [&a, &b] {
        let r = aeadfast(&["decrypt", "-k", s(&key), s(f)]);
        ok(&r);
        assert_eq!(r.stdout, b"positional");
    }
    // `-` is standard input.
    let r = aeadfast_stdin(&["decrypt", "-k", s(&key), "-"], &fs::read(&a).unwrap());
    ok(&r);
    assert_eq!(r.stdout, b"positional");
    // Both spellings at once: a usage error.
    let r = aeadfast(&["decrypt", "-k", s(&key), s(&a), "-i", s(&b)]);
    assert_eq!(r.status.code(), Some(2));
}

#[test]
fn keygen_writes_to_standard_output_when_asked() {
    let r = aeadfast(&["keygen", "-o", "-"]);
    ok(&r);
    assert_eq!(r.stdout.len(), 32);
    let r = aeadfast(&["keygen", "-a", "gift-cofb", "-o", "-"]);
    ok(&r);
    assert_eq!(r.stdout.len(), 16);
}
