//! Standard output that cannot be written (`/dev/full`: every write fails with "No space left
//! on device"): every subcommand reports it in one clear line and exits with status 2; none
//! panics, none claims success.
#![cfg(target_os = "linux")]

use std::fs::OpenOptions;
use std::process::{Output, Stdio};

use aeadfast_tests::{aeadfast, aeadfast_command, stderr_of};

/// Runs `aeadfast` with standard output on `/dev/full`.
fn to_full(args: &[&str]) -> Output {
    let full = OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full");
    aeadfast_command(args)
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .expect("run aeadfast")
}

/// Status 2, no panic, the OS error said once, and `what` in the message.
fn assert_reported(out: &Output, what: &str) {
    let err = stderr_of(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains(what), "{what:?} missing in: {err}");
    assert_eq!(
        err.matches("No space left on device").count(),
        1,
        "the OS error once: {err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");
}

#[test]
fn reports_and_help_to_a_full_disk_fail_cleanly() {
    for args in [
        &["info"][..],
        &["--help"],
        &["--version"],
        &["sum", "--help"],
        &["bench", "--algo", "lemac", "--size", "64", "--time", "0.01"],
    ] {
        let out = to_full(args);
        assert_reported(&out, "cannot write to standard output");
    }
}

#[test]
fn checksums_to_a_full_disk_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("data");
    std::fs::write(&file, b"hej\n").unwrap();
    let out = to_full(&["sum", file.to_str().unwrap()]);
    assert_reported(&out, "cannot write to standard output");
}

#[test]
fn encryption_and_decryption_to_a_full_disk_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k");
    let plain = dir.path().join("p");
    let sealed = dir.path().join("p.af");
    let (k, p, s) = (
        key.to_str().unwrap(),
        plain.to_str().unwrap(),
        sealed.to_str().unwrap(),
    );
    std::fs::write(&plain, vec![0x5a; 300_000]).unwrap();
    assert!(aeadfast(&["keygen", "-o", k]).status.success());
    assert!(
        aeadfast(&["encrypt", "-k", k, "-i", p, "-o", s])
            .status
            .success()
    );

    let out = to_full(&["encrypt", "-k", k, "-i", p, "-o", "-"]);
    assert_reported(&out, "No space left on device");

    // A write failure is an I/O error (2), not a verification failure (1); the message says
    // how much reached standard output (on /dev/full, the first write already fails).
    let out = to_full(&["decrypt", "-k", k, "-i", s, "-o", "-"]);
    assert_reported(&out, "nothing was written");
    // The input file is untouched and still decrypts.
    let out = aeadfast(&["decrypt", "-k", k, "-i", s, "-o", "-"]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_eq!(out.stdout, std::fs::read(&plain).unwrap());
}
