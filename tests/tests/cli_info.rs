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

#[test]
fn info_reports_each_algorithms_implementation() {
    let out = aeadfast(&["info"]);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let line = |name: &str| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_else(|| panic!("no line for {name} in:\n{stdout}"))
            .to_string()
    };
    let lanes = Backend::detect().name();
    for name in ["HiAEx2", "HiAEx4", "LeMacX2", "LeMacX4"] {
        assert!(line(name).ends_with(lanes), "{}", line(name));
    }
    assert!(line("HiAE ").ends_with(hiae::implementation_name()));
    let lemac = lemac::LeMacKey::new(&[0; 16]);
    assert!(line("LeMac ").ends_with(lemac.implementation_name()));
    let gift = gift_cofb::Backend::detect();
    let batch = line("GIFT-COFB (batch)");
    assert!(batch.contains(gift.name()), "{batch}");
    assert!(
        batch.contains(&format!("{} messages", gift.lanes())),
        "{batch}"
    );
    let single = line("GIFT-COFB (one message)");
    assert!(single.ends_with(gift.single_message().name()), "{single}");
    let available = line("GIFT-COFB backends available:");
    for b in gift_cofb::Backend::available() {
        assert!(available.contains(b.name()), "{available}");
    }
    assert!(line("AES-128 bulk").contains(lanes));
}

#[test]
fn help_documents_the_exit_statuses() {
    let out = aeadfast(&["--help"]);
    assert!(out.status.success(), "{out:?}");
    let help = String::from_utf8(out.stdout).unwrap();
    for part in [
        "Exit status: 0 success",
        "1 a verification",
        "2 usage or I/O error",
    ] {
        assert!(help.contains(part), "{part:?} missing in:\n{help}");
    }
}
