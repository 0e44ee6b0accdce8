//! Every subcommand documents itself with an example. (Being an integration test, this also
//! makes `cargo test --workspace` build the `aeadfast` binary that the `tests/` crate runs.)

use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_aeadfast"))
        .args(args)
        .output()
        .expect("run aeadfast");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_subcommand_has_help_with_an_example() {
    let top = help(&["--help"]);
    for sub in ["info", "keygen", "encrypt", "decrypt", "sum"] {
        assert!(top.contains(sub), "{sub} missing from --help:\n{top}");
        let text = help(&[sub, "--help"]);
        assert!(
            text.contains("Example"),
            "`{sub} --help` has no example:\n{text}"
        );
    }
}
