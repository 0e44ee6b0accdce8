//! `aeadfast info` reports the CPU features and the selected AES backend.

use aeadfast_tests::aeadfast;
use aes_lanes::Backend;

#[test]
fn info_reports_detected_backend() {
    let out = aeadfast(&["info"]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let selected = format!("AES lane backend selected:   {}", Backend::detect().name());
    assert!(stdout.contains(&selected), "{stdout}");
    for b in Backend::available() {
        assert!(
            stdout.contains(b.name()),
            "{} missing in:\n{stdout}",
            b.name()
        );
    }
}

#[test]
fn unknown_subcommand_is_a_usage_error() {
    let out = aeadfast(&["no-such-command"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.is_empty());
}
