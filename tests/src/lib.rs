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
        "{} not found: build it with `cargo build -p aeadfast-cli` (cargo test --workspace does)",
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
