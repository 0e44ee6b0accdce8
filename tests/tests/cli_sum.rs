//! `aeadfast sum` and `sum -c` as real processes: byte-identical to `lemacsum` on its 256
//! one-byte files and on "hej\n", check mode and its options, keyed MACs.

use std::fs;
use std::path::Path;

use aeadfast_tests::{aeadfast, aeadfast_stdin, data_dir, stderr_of};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// (byte, expected tag hex) from lemacsum's one_byte_files list.
fn one_byte_vectors() -> Vec<(u8, String)> {
    let text = fs::read_to_string(data_dir().join("lemac_one_byte_files.txt")).unwrap();
    let v: Vec<(u8, String)> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (b, t) = l.split_once(' ').unwrap();
            (u8::from_str_radix(b, 16).unwrap(), t.to_string())
        })
        .collect();
    assert_eq!(v.len(), 256);
    v
}

#[test]
fn equals_lemacsum_on_the_256_one_byte_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    let mut want = String::new();
    for (b, tag) in one_byte_vectors() {
        let p = dir.path().join(format!("byte_{b:02x}"));
        fs::write(&p, [b]).unwrap();
        want.push_str(&format!("{tag}  {}\n", p.display()));
        names.push(p);
    }
    let mut args = vec!["sum"];
    args.extend(names.iter().map(|p| s(p)));
    let out = aeadfast(&args);
    assert!(out.status.success(), "{}", stderr_of(&out));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);
}

#[test]
fn hej_on_stdin() {
    let out = aeadfast_stdin(&["sum"], b"hej\n");
    assert!(out.status.success());
    assert_eq!(out.stdout, b"5f4aad4604ceefad43c9336d29671556  -\n");
    let out = aeadfast_stdin(&["sum", "--tag", "-"], b"hej\n");
    assert_eq!(
        out.stdout,
        b"LEMAC (-) = 5f4aad4604ceefad43c9336d29671556\n"
    );
}

#[test]
fn check_mode_reports_ok_failed_and_missing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = d.join("a.txt");
    let b = d.join("b.bin");
    fs::write(&a, b"hello\n").unwrap();
    fs::write(&b, vec![7u8; 300_000]).unwrap();
    let sums = d.join("SUMS");
    let out = aeadfast(&["sum", s(&a), s(&b)]);
    assert!(out.status.success());
    fs::write(&sums, &out.stdout).unwrap();
    let ok = aeadfast(&["sum", "-c", s(&sums)]);
    assert!(ok.status.success(), "{}", stderr_of(&ok));
    assert_eq!(
        String::from_utf8(ok.stdout).unwrap(),
        format!("{}: OK\n{}: OK\n", a.display(), b.display())
    );
    // BSD tags check too.
    let tagged = aeadfast(&["sum", "--tag", s(&a), s(&b)]);
    let tag_sums = d.join("TAGS");
    fs::write(&tag_sums, &tagged.stdout).unwrap();
    assert!(
        aeadfast(&["sum", "-c", "--quiet", s(&tag_sums)])
            .status
            .success()
    );

    // One changed file.
    let mut data = fs::read(&b).unwrap();
    data[123_456] ^= 1;
    fs::write(&b, &data).unwrap();
    let bad = aeadfast(&["sum", "-c", s(&sums)]);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(bad.stdout.clone()).unwrap(),
        format!("{}: OK\n{}: FAILED\n", a.display(), b.display())
    );
    assert!(stderr_of(&bad).contains("WARNING: 1 computed checksum did NOT match"));
    let quiet = aeadfast(&["sum", "-c", "--quiet", s(&sums)]);
    assert_eq!(quiet.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(quiet.stdout).unwrap(),
        format!("{}: FAILED\n", b.display())
    );
    let status = aeadfast(&["sum", "-c", "--status", s(&sums)]);
    assert_eq!(status.status.code(), Some(1));
    assert!(status.stdout.is_empty() && status.stderr.is_empty());

    // A missing file: FAILED open or read, exit 1; --ignore-missing skips it.
    fs::remove_file(&b).unwrap();
    let missing = aeadfast(&["sum", "-c", s(&sums)]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(
        String::from_utf8(missing.stdout.clone())
            .unwrap()
            .contains(&format!("{}: FAILED open or read", b.display()))
    );
    assert!(stderr_of(&missing).contains("WARNING: 1 listed file could not be read"));
    let ignore = aeadfast(&["sum", "-c", "--ignore-missing", s(&sums)]);
    assert!(ignore.status.success(), "{}", stderr_of(&ignore));

    // Improperly formatted lines: a warning; --strict makes them fatal.
    let mut text = fs::read_to_string(&sums).unwrap();
    text = text.lines().next().unwrap().to_string() + "\nnot a checksum line\n";
    fs::write(&sums, &text).unwrap();
    let loose = aeadfast(&["sum", "-c", s(&sums)]);
    assert!(loose.status.success());
    assert!(stderr_of(&loose).contains("WARNING: 1 line is improperly formatted"));
    assert_eq!(
        aeadfast(&["sum", "-c", "--strict", s(&sums)]).status.code(),
        Some(1)
    );
    fs::write(&sums, "garbage\n").unwrap();
    let none = aeadfast(&["sum", "-c", s(&sums)]);
    assert_eq!(none.status.code(), Some(1));
    assert!(stderr_of(&none).contains("no properly formatted"));
}

#[test]
fn keyed_sum_differs_and_checks() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = d.join("mac.key");
    fs::write(&key, [0x42u8; 16]).unwrap();
    let f = d.join("f");
    fs::write(&f, b"hej\n").unwrap();
    let keyed = aeadfast(&["sum", "--key", s(&key), s(&f)]);
    assert!(keyed.status.success());
    let line = String::from_utf8(keyed.stdout.clone()).unwrap();
    assert!(!line.starts_with("5f4aad4604ceefad43c9336d29671556"));
    let expected = lemac::LeMacKey::new(&[0x42; 16]).mac(b"hej\n", &[0; 16]);
    let hex: String = expected.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(line, format!("{hex}  {}\n", f.display()));
    let sums = d.join("SUMS");
    fs::write(&sums, &keyed.stdout).unwrap();
    assert!(
        aeadfast(&["sum", "-c", "--key", s(&key), s(&sums)])
            .status
            .success()
    );
    assert_eq!(aeadfast(&["sum", "-c", s(&sums)]).status.code(), Some(1));
    let bad_key = d.join("bad.key");
    fs::write(&bad_key, [1u8; 15]).unwrap();
    let e = aeadfast(&["sum", "--key", s(&bad_key), s(&f)]);
    assert_eq!(e.status.code(), Some(2));
    assert!(stderr_of(&e).contains("16-byte raw key"));
}

#[test]
fn unreadable_files_do_not_stop_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f");
    fs::write(&f, b"hej\n").unwrap();
    let out = aeadfast(&["sum", "/nonexistent/file", s(&f)]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        format!("5f4aad4604ceefad43c9336d29671556  {}\n", f.display())
    );
    assert!(stderr_of(&out).contains("/nonexistent/file"));
}

#[test]
fn windowed_mmap_equals_streamed_reads() {
    // Over 64 MiB: hashed in mapped windows; through stdin: read in pieces.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("big");
    let data: Vec<u8> = (0..(64 << 20) + 1000u32)
        .map(|i| (i ^ (i >> 9)) as u8)
        .collect();
    fs::write(&f, &data).unwrap();
    let mapped = aeadfast(&["sum", s(&f)]);
    assert!(mapped.status.success());
    let piped = aeadfast_stdin(&["sum"], &data);
    let tag = |o: &std::process::Output| String::from_utf8(o.stdout[..32].to_vec()).unwrap();
    assert_eq!(tag(&mapped), tag(&piped));
    let expected = lemac::LeMacKey::new(&[0; 16]).mac(&data, &[0; 16]);
    let hex: String = expected.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(tag(&mapped), hex);
}

/// Names with a newline or a backslash: escaped as sha256sum escapes them, in both modes —
/// and in check mode the line starts with a backslash too (`\new\nline: OK`).
#[cfg(unix)]
#[test]
fn escaped_names_match_sha256sum_in_both_modes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let odd = d.join("new\nline");
    let back = d.join("back\\slash");
    fs::write(&odd, b"a").unwrap();
    fs::write(&back, b"b").unwrap();
    let out = aeadfast(&["sum", s(&odd), s(&back)]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let dir_text = s(d);
    assert!(lines[0].starts_with('\\'), "{text}");
    assert!(
        lines[0].ends_with(&format!("  {dir_text}/new\\nline")),
        "{text}"
    );
    assert!(
        lines[1].ends_with(&format!("  {dir_text}/back\\\\slash")),
        "{text}"
    );
    let sums = d.join("SUMS");
    fs::write(&sums, &text).unwrap();
    let check = aeadfast(&["sum", "-c", s(&sums)]);
    assert!(check.status.success(), "{}", stderr_of(&check));
    assert_eq!(
        String::from_utf8(check.stdout).unwrap(),
        format!("\\{dir_text}/new\\nline: OK\n\\{dir_text}/back\\\\slash: OK\n")
    );
}

/// `-z` (NUL-terminated, unescaped names, as sha256sum; refused with -c as sha256sum does),
/// `--no-names` (as b3sum) and `--num-threads`.
#[test]
fn zero_terminated_lines_bare_checksums_and_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = d.join("a");
    let odd = d.join("x\ny");
    fs::write(&a, b"hej\n").unwrap();
    fs::write(&odd, b"hej\n").unwrap();
    let z = aeadfast(&["sum", "-z", s(&a), s(&odd)]);
    assert!(z.status.success());
    let want = format!(
        "5f4aad4604ceefad43c9336d29671556  {}\x005f4aad4604ceefad43c9336d29671556  {}\x00",
        s(&a),
        s(&odd)
    );
    assert_eq!(z.stdout, want.as_bytes());
    let r = aeadfast(&["sum", "-z", "-c", s(&a)]);
    assert_eq!(r.status.code(), Some(2));
    let bare = aeadfast(&["sum", "--no-names", s(&a), s(&odd)]);
    assert_eq!(
        bare.stdout,
        b"5f4aad4604ceefad43c9336d29671556\n5f4aad4604ceefad43c9336d29671556\n"
    );
    for n in ["1", "3"] {
        let t = aeadfast(&["sum", "--num-threads", n, s(&a)]);
        assert!(t.status.success(), "{}", stderr_of(&t));
        assert_eq!(
            t.stdout,
            format!("5f4aad4604ceefad43c9336d29671556  {}\n", s(&a)).as_bytes()
        );
    }
    assert_eq!(
        aeadfast(&["sum", "--num-threads", "0", s(&a)])
            .status
            .code(),
        Some(2)
    );
}

/// Keyed check mode compares tags in constant time (`subtle`, unit-tested in the binary);
/// here: a tag that differs in its last byte only is reported as FAILED.
#[test]
fn keyed_check_rejects_a_tag_differing_in_one_bit() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = d.join("mac.key");
    fs::write(&key, [9u8; 16]).unwrap();
    let f = d.join("f");
    fs::write(&f, b"content").unwrap();
    let out = aeadfast(&["sum", "--key", s(&key), s(&f)]);
    let mut line = out.stdout.clone();
    line[31] = if line[31] == b'0' { b'1' } else { b'0' };
    let sums = d.join("SUMS");
    fs::write(&sums, &line).unwrap();
    let r = aeadfast(&["sum", "-c", "--key", s(&key), s(&sums)]);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8(r.stdout).unwrap().ends_with(": FAILED\n"));
}
