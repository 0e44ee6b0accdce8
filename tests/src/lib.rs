//! Shared helpers for the workspace-level tests: locating and running the `aeadfast` binary.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Path of the `aeadfast` binary built for these tests (`cargo test --workspace` builds it).
pub fn aeadfast_bin() -> PathBuf {
    // Integration tests live in target/<profile>/deps; the binary in target/<profile>.
    let mut dir = std::env::current_exe().expect("test executable path");
    dir.pop();
    if dir.ends_with("deps") {
        dir.pop();
    }
    let bin = dir.join(format!("aeadfast{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.exists(),
        "{} not found: build it with `cargo build -p aeadfast` (cargo test --workspace does)",
        bin.display()
    );
    bin
}

/// Runs `aeadfast` with `args` and returns its output.
pub fn aeadfast(args: &[&str]) -> Output {
    Command::new(aeadfast_bin())
        .args(args)
        .output()
        .expect("run aeadfast")
}

/// A `Command` for the `aeadfast` binary (to set stdin, env, or spawn it).
pub fn aeadfast_command(args: &[&str]) -> Command {
    let mut c = Command::new(aeadfast_bin());
    c.args(args);
    c
}

/// Runs `aeadfast` with `args`, feeding `stdin` to it, and returns its output.
pub fn aeadfast_stdin(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = aeadfast_command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run aeadfast");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    // Feed from a thread so a large input cannot deadlock against a full stdout pipe.
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait for aeadfast");
    feeder.join().expect("stdin feeder");
    out
}

/// The test-data folder `tests/tests/data` of this crate.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
}

/// Standard error of a run as text.
pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
