//! `aeadfast bench` as a real process: the table lists every backend the crates report as
//! available, the JSON lines parse and hold sane figures, and bad options are usage errors.

use aeadfast_tests::{aeadfast, stderr_of};
use aes_lanes::Backend;
use serde_json::Value;

fn run(args: &[&str]) -> String {
    let out = aeadfast(args);
    assert!(out.status.success(), "{}", stderr_of(&out));
    String::from_utf8(out.stdout).unwrap()
}

fn lane_backends() -> Vec<&'static str> {
    Backend::available().map(Backend::name).collect()
}

fn gift_backends() -> Vec<&'static str> {
    gift_cofb::Backend::available()
        .map(gift_cofb::Backend::name)
        .collect()
}

#[test]
fn table_has_a_row_per_operation_and_backend() {
    let text = run(&[
        "bench", "--size", "64,1K", "--algo", "hiae", "--time", "0.01",
    ]);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
    assert_eq!(
        header,
        [
            "algorithm",
            "operation",
            "backend",
            "64",
            "B",
            "1",
            "KiB",
            "unit"
        ]
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split_whitespace().collect()).collect();
    let backends = lane_backends();
    assert_eq!(rows.len(), 3 * backends.len(), "{text}");
    for op in ["encrypt", "decrypt", "MAC"] {
        for b in &backends {
            let row = rows
                .iter()
                .find(|r| r[0] == "HiAE" && r[1] == op && r[2] == *b)
                .unwrap_or_else(|| panic!("no HiAE {op} row for {b} in:\n{text}"));
            assert_eq!(row.len(), 6, "{row:?}");
            for cell in &row[3..5] {
                let gbps: f64 = cell.parse().unwrap();
                assert!(gbps > 0.0, "{row:?}");
            }
            assert_eq!(row[5], "Gbps");
        }
    }
}

#[test]
fn json_lines_parse() {
    let text = run(&[
        "bench", "--size", "64", "--algo", "hiae", "--time", "0.01", "--json",
    ]);
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let backends = lane_backends();
    assert_eq!(records.len(), 3 * backends.len(), "{text}");
    for r in &records {
        assert_eq!(r["algorithm"], "HiAE");
        assert_eq!(r["size"], 64);
        assert!(backends.contains(&r["backend"].as_str().unwrap()), "{r}");
        let gbps = r["gbps"].as_f64().unwrap();
        let bytes = r["bytes_per_sec"].as_f64().unwrap();
        assert!(gbps > 0.0);
        assert!(
            (gbps - bytes * 8.0 / 1e9).abs() <= 1e-9 * gbps.max(1.0),
            "{r}"
        );
    }
    for b in &backends {
        assert!(records.iter().any(|r| r["backend"] == *b), "{b} missing");
    }
}

#[test]
fn gift_cofb_and_aes128_use_their_own_backends_and_units() {
    let text = run(&[
        "bench",
        "--size",
        "64",
        "--algo",
        "gift-cofb,aes128",
        "--time",
        "0.01",
        "--json",
    ]);
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let gift = gift_backends();
    let lanes = lane_backends();
    assert_eq!(records.len(), 2 * gift.len() + lanes.len(), "{text}");
    for r in &records {
        let b = r["backend"].as_str().unwrap();
        match r["algorithm"].as_str().unwrap() {
            "GIFT-COFB" => assert!(gift.contains(&b), "{r}"),
            "AES-128" => {
                assert!(lanes.contains(&b), "{r}");
                let rps = r["records_per_sec"].as_f64().unwrap();
                let bytes = r["bytes_per_sec"].as_f64().unwrap();
                assert!((rps * 16.0 - bytes).abs() <= 1e-6 * bytes, "{r}");
            }
            other => panic!("unexpected algorithm {other}"),
        }
    }
    let table = run(&[
        "bench", "--size", "1K", "--algo", "aes128", "--time", "0.01",
    ]);
    assert!(
        table.lines().skip(1).all(|l| l.ends_with("M rec/s")),
        "{table}"
    );
}

#[test]
fn bad_options_are_usage_errors() {
    for args in [
        &["bench", "--algo", "nope"][..],
        &["bench", "--size", "0"],
        &["bench", "--size", "2G"],
        &["bench", "--size", "1q"],
        &["bench", "--time", "0"],
        &["bench", "--time", "abc"],
    ] {
        let out = aeadfast(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!stderr_of(&out).is_empty());
    }
}
