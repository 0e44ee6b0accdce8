//! `aeadfast aes128 gen` and `aes128 bench` as real processes: fastAES's sample set, generated
//! sets checked against the `aes` crate, the first-mismatch report, chunk sizes, refusal to
//! overwrite, input errors, and the handling of a previous output file.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use aeadfast_tests::{aeadfast, data_dir, stderr_of};
use aes::Aes128;
use aes::cipher::{BlockCipherEncrypt, KeyInit};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A temporary directory holding the 64-record sample set as `sample_*.bin`.
fn sample_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for what in ["plains", "keys", "ciphers_ref"] {
        fs::copy(
            data_dir().join(format!("fastaes_sample_{what}.bin")),
            dir.path().join(format!("sample_{what}.bin")),
        )
        .unwrap();
    }
    dir
}

fn file(dir: &Path, name: &str, what: &str) -> PathBuf {
    dir.join(format!("{name}_{what}.bin"))
}

fn bench(dir: &Path, name: &str, extra: &[&str]) -> Output {
    let mut args = vec!["aes128", "bench", "-n", name, "--dir", s(dir)];
    args.extend_from_slice(extra);
    aeadfast(&args)
}

fn assert_all_good(out: &Output) {
    assert!(out.status.success(), "{}", stderr_of(out));
    assert!(stdout_of(out).contains("All good!"), "{}", stdout_of(out));
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

/// AES-128 of every record with the `aes` crate.
fn reference(keys: &[u8], plains: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; plains.len()];
    for ((k, p), o) in keys
        .chunks(16)
        .zip(plains.chunks(16))
        .zip(out.chunks_mut(16))
    {
        let c = Aes128::new_from_slice(k).unwrap();
        c.encrypt_block_b2b(p.try_into().unwrap(), o.try_into().unwrap());
    }
    out
}

#[test]
fn sample_set_is_all_good_and_byte_identical() {
    let dir = sample_dir();
    let d = dir.path();
    let want = fs::read(file(d, "sample", "ciphers_ref")).unwrap();
    // Record 0 is FIPS-197 C.1; the whole reference agrees with the aes crate.
    assert_eq!(
        want[..16],
        [
            0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30, 0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4,
            0xc5, 0x5a
        ]
    );
    let keys = fs::read(file(d, "sample", "keys")).unwrap();
    let plains = fs::read(file(d, "sample", "plains")).unwrap();
    assert_eq!(reference(&keys, &plains), want);

    let out = bench(d, "sample", &[]);
    assert_all_good(&out);
    let text = stdout_of(&out);
    for metric in [
        "CPU time:",
        "wall time:",
        "AES/s:",
        "ns per AES:",
        "thread time:",
    ] {
        assert!(text.contains(metric), "{metric} missing in:\n{text}");
    }
    assert!(text.contains("records:        64 "), "{text}");
    assert_eq!(fs::read(file(d, "sample", "ciphers")).unwrap(), want);
    // Nothing but the set and the output: no temporary files left.
    assert_eq!(
        listing(d),
        [
            "sample_ciphers.bin",
            "sample_ciphers_ref.bin",
            "sample_keys.bin",
            "sample_plains.bin"
        ]
    );
}

#[test]
fn gen_then_bench_agrees_with_the_aes_crate() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = aeadfast(&["aes128", "gen", "-n", "g", "-s", "1000", "--dir", s(d)]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    let plains = fs::read(file(d, "g", "plains")).unwrap();
    let keys = fs::read(file(d, "g", "keys")).unwrap();
    let ciphers_ref = fs::read(file(d, "g", "ciphers_ref")).unwrap();
    assert_eq!(plains.len(), 16_000);
    assert_eq!(keys.len(), 16_000);
    assert_ne!(plains, keys, "random plaintexts and keys");
    assert_eq!(ciphers_ref, reference(&keys, &plains));

    for threads in ["1", "2", "3"] {
        assert_all_good(&bench(d, "g", &["--threads", threads, "-c", "4k"]));
        assert_eq!(fs::read(file(d, "g", "ciphers")).unwrap(), ciphers_ref);
    }
}

#[test]
fn empty_set() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = aeadfast(&["aes128", "gen", "-n", "z", "-s", "0", "--dir", s(d)]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_all_good(&bench(d, "z", &[]));
    assert_eq!(fs::read(file(d, "z", "ciphers")).unwrap(), b"");
}

#[test]
fn corrupted_reference_gives_the_first_mismatching_record() {
    let dir = sample_dir();
    let d = dir.path();
    let path = file(d, "sample", "ciphers_ref");
    let mut r = fs::read(&path).unwrap();
    r[17 * 16 + 5] ^= 1;
    r[40 * 16] ^= 0x80;
    fs::write(&path, &r).unwrap();
    let out = bench(d, "sample", &[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    assert!(stdout_of(&out).contains("Mismatch at record 17\n"));
    assert!(!stdout_of(&out).contains("All good!"));
    assert!(
        stderr_of(&out).contains("first mismatching record: 17 "),
        "{}",
        stderr_of(&out)
    );

    // A shorter reference: the first record it lacks is the mismatch.
    fs::write(
        &path,
        &fs::read(file(d, "sample", "ciphers")).unwrap()[..62 * 16],
    )
    .unwrap();
    let out = bench(d, "sample", &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout_of(&out).contains("Mismatch at record 62\n"));
}

#[test]
fn chunk_sizes() {
    let dir = sample_dir();
    let d = dir.path();
    let want = fs::read(file(d, "sample", "ciphers_ref")).unwrap();
    // 48 bytes = 3 records: the last chunk of the 64 records is a partial one.
    for c in ["16", "48", "1k", "1K", "1m", "1M", "1g", "1G", "1040"] {
        let out = bench(d, "sample", &["-c", c]);
        assert_all_good(&out);
        assert_eq!(
            fs::read(file(d, "sample", "ciphers")).unwrap(),
            want,
            "-c {c}"
        );
    }
    for (c, why) in [
        ("17", "multiple of 16"),
        ("0", "positive"),
        ("1x", "not a size"),
        ("", "not a size"),
        ("-16", "not a size"),
        ("99999999999999999999", "not a size"),
        ("17179869184G", "too large"),
    ] {
        let out = bench(d, "sample", &[&format!("--chunk-size={c}")]);
        assert_eq!(out.status.code(), Some(2), "-c {c}");
        let err = stderr_of(&out);
        assert!(err.contains(why), "-c {c}: {err}");
        assert!(
            err.lines().next().unwrap().contains(why),
            "one clear line: {err}"
        );
    }
}

#[test]
fn gen_never_overwrites_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let gen_args = ["aes128", "gen", "-n", "g", "-s", "20", "--dir", s(d)];
    assert!(aeadfast(&gen_args).status.success());
    let before = fs::read(file(d, "g", "plains")).unwrap();

    // Any one existing file of the set is enough to refuse.
    fs::remove_file(file(d, "g", "plains")).unwrap();
    fs::write(file(d, "g", "plains"), b"keep me").unwrap();
    let out = aeadfast(&gen_args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("already exists"),
        "{}",
        stderr_of(&out)
    );
    assert_eq!(fs::read(file(d, "g", "plains")).unwrap(), b"keep me");

    let mut forced = gen_args.to_vec();
    forced.push("--force");
    assert!(aeadfast(&forced).status.success());
    let after = fs::read(file(d, "g", "plains")).unwrap();
    assert_eq!(after.len(), 320);
    assert_ne!(after, before);
    assert_all_good(&bench(d, "g", &[]));
    assert_eq!(listing(d).len(), 4, "{:?}", listing(d));
}

#[test]
fn bench_input_errors_exit_2_and_leave_no_output() {
    let dir = sample_dir();
    let d = dir.path();
    let expect_2 = |name: &str, why: &str| {
        let out = bench(d, name, &[]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
        assert!(stderr_of(&out).contains(why), "{}", stderr_of(&out));
        assert!(!file(d, name, "ciphers").exists());
        assert!(listing(d).iter().all(|n| !n.ends_with(".partial")));
    };
    expect_2("missing", "cannot open");
    expect_2("bad/name", "without '/'");

    let copy = |name: &str, plains: &[u8], keys: &[u8], with_ref: bool| {
        fs::write(file(d, name, "plains"), plains).unwrap();
        fs::write(file(d, name, "keys"), keys).unwrap();
        if with_ref {
            fs::write(file(d, name, "ciphers_ref"), plains).unwrap();
        }
    };
    let data = fs::read(file(d, "sample", "plains")).unwrap();
    copy("short_keys", &data, &data[..1008], true);
    expect_2("short_keys", "one 16-byte key per plaintext");
    copy("ragged", &data[..1000], &data[..1000], true);
    expect_2("ragged", "not a whole number of 16-byte records");
    copy("no_ref", &data, &data, false);
    expect_2("no_ref", "ciphers_ref.bin not found");
}

#[test]
fn previous_output_is_replaced_whatever_its_size() {
    let dir = sample_dir();
    let d = dir.path();
    let want = fs::read(file(d, "sample", "ciphers_ref")).unwrap();
    for old in [vec![0xeeu8; 5000], vec![0x11; 10]] {
        fs::write(file(d, "sample", "ciphers"), &old).unwrap();
        let out = bench(d, "sample", &[]);
        assert_all_good(&out);
        assert!(stdout_of(&out).contains("overwrote the previous run's file"));
        assert_eq!(fs::read(file(d, "sample", "ciphers")).unwrap(), want);
    }
}

#[cfg(unix)]
#[test]
fn a_symlinked_or_hard_linked_output_is_replaced_not_written_through() {
    let dir = sample_dir();
    let d = dir.path();
    let want = fs::read(file(d, "sample", "ciphers_ref")).unwrap();
    let victim = d.join("victim");
    let out_path = file(d, "sample", "ciphers");

    fs::write(&victim, b"untouched").unwrap();
    std::os::unix::fs::symlink(&victim, &out_path).unwrap();
    let out = bench(d, "sample", &[]);
    assert_all_good(&out);
    assert!(stdout_of(&out).contains("a new file"));
    assert_eq!(fs::read(&victim).unwrap(), b"untouched");
    assert!(!fs::symlink_metadata(&out_path).unwrap().is_symlink());
    assert_eq!(fs::read(&out_path).unwrap(), want);

    fs::remove_file(&out_path).unwrap();
    fs::hard_link(&victim, &out_path).unwrap();
    let out = bench(d, "sample", &[]);
    assert_all_good(&out);
    assert_eq!(fs::read(&victim).unwrap(), b"untouched");
    assert_eq!(fs::read(&out_path).unwrap(), want);
}

#[test]
fn help_has_examples() {
    for sub in ["gen", "bench"] {
        let out = aeadfast(&["aes128", sub, "--help"]);
        assert!(out.status.success());
        let text = stdout_of(&out);
        assert!(
            text.contains(&format!("Example:\n  aeadfast aes128 {sub} ")),
            "{text}"
        );
    }
}
