//! `aeadfast encrypt` / `decrypt` / `sum` under interruption and with unusual outputs, as
//! real processes:
//!
//! * SIGINT, SIGTERM and SIGHUP in the middle of a run (native and `--format hiae`, input
//!   from a file and from standard input, unnamed and named temporary files): status
//!   128 + signal, and only the files that existed before remain;
//! * a passphrase being read when the signal comes: nothing created;
//! * character devices (`mknod`, as root) and FIFOs as outputs are written directly and stay
//!   what they are; `--force` replaces only regular files, keeps their mode and owner, and
//!   refuses files with other hard links;
//! * the destination is checked before any work (`-o newdir/`);
//! * new outputs get 0666 minus the umask, key files 0600;
//! * a reader that closes the pipe early (`| head -c 10`): a quiet end, status 141;
//! * an input file truncated while it is read (decrypt, sum): a clear error, no SIGBUS,
//!   nothing left behind.
#![cfg(target_os = "linux")]

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use aeadfast_tests::{aeadfast, aeadfast_bin, aeadfast_command, stderr_of};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn send(pid: u32, sig: &str) {
    let ok = Command::new("kill")
        .args(["-s", sig, &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(ok.success(), "kill -s {sig} {pid}");
}

fn wait_for(child: &mut Child, limit: Duration) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            return st;
        }
        assert!(start.elapsed() < limit, "aeadfast did not end in {limit:?}");
        thread::sleep(Duration::from_millis(10));
    }
}

fn signal_number(sig: &str) -> i32 {
    match sig {
        "HUP" => 1,
        "INT" => 2,
        "TERM" => 15,
        _ => unreachable!(),
    }
}

fn keygen(dir: &Path) -> PathBuf {
    let key = dir.join("k.key");
    let out = aeadfast(&["keygen", "-o", s(&key)]);
    assert!(out.status.success(), "{}", stderr_of(&out));
    key
}

/// A sparse file of `len` zero bytes.
fn sparse(path: &Path, len: u64) {
    let f = fs::File::create(path).unwrap();
    f.set_len(len).unwrap();
}

/// Interrupts `args` while it works on an input file made by `make(path, size)` and checks
/// the status and that only `before` remain. The process is stopped (SIGSTOP) first, so that
/// the signal lands in the middle of the run; if it had already finished, the input doubles.
fn interrupt_file_run(
    dir: &Path,
    args: &dyn Fn(&Path) -> Vec<String>,
    make: &dyn Fn(&Path, u64),
    sig: &str,
    named: bool,
) {
    let mut size = 8u64 << 20;
    for _ in 0..8 {
        let input = dir.join("input");
        make(&input, size);
        let before = files_in(dir);
        let a = args(&input);
        let mut cmd = Command::new(aeadfast_bin());
        cmd.args(&a)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        if named {
            cmd.env("AEADFAST_TEST_NAMED_TEMP", "1");
        }
        let mut child = cmd.spawn().unwrap();
        thread::sleep(Duration::from_millis(30));
        send(child.id(), "STOP");
        if child.try_wait().unwrap().is_some() {
            // Too fast to catch: try with a larger input.
            fs::remove_file(&input).unwrap();
            for p in files_in(dir) {
                if !before.contains(&p) {
                    fs::remove_file(p).unwrap();
                }
            }
            size *= 2;
            continue;
        }
        send(child.id(), sig);
        send(child.id(), "CONT");
        let st = wait_for(&mut child, Duration::from_secs(60));
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        // A signal that lands after the output was renamed into place leaves the complete
        // output (the rename and the cleanup exclude each other), and the run may even end
        // with status 0 before the signal is handled: the run was too close to its end to
        // test the interruption, so try again with a larger input.
        let committed = a
            .iter()
            .position(|x| x == "-o")
            .is_some_and(|i| Path::new(&a[i + 1]).exists());
        if committed && (st.success() || st.code() == Some(128 + signal_number(sig))) {
            fs::remove_file(&input).unwrap();
            for p in files_in(dir) {
                if !before.contains(&p) {
                    fs::remove_file(p).unwrap();
                }
            }
            size *= 2;
            continue;
        }
        assert_eq!(
            st.code(),
            Some(128 + signal_number(sig)),
            "{a:?} SIG{sig}: {err}"
        );
        assert_eq!(files_in(dir), before, "{a:?} SIG{sig} left files behind");
        fs::remove_file(&input).unwrap();
        return;
    }
    panic!(
        "{:?} always finished before it could be interrupted",
        args(Path::new("input"))
    );
}

/// Interrupts `args` while it reads standard input (some MiB given, the pipe kept open).
fn interrupt_stdin_run(dir: &Path, args: &[String], data: &[u8], sig: &str, named: bool) {
    let before = files_in(dir);
    let mut cmd = aeadfast_command(&args.iter().map(String::as_str).collect::<Vec<_>>());
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if named {
        cmd.env("AEADFAST_TEST_NAMED_TEMP", "1");
    }
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(data).unwrap();
    thread::sleep(Duration::from_millis(300));
    assert!(child.try_wait().unwrap().is_none(), "{args:?} ended early");
    send(child.id(), sig);
    let st = wait_for(&mut child, Duration::from_secs(60));
    drop(input);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(
        st.code(),
        Some(128 + signal_number(sig)),
        "{args:?} SIG{sig}: {err}"
    );
    assert_eq!(files_in(dir), before, "{args:?} SIG{sig} left files behind");
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn signals_leave_only_the_files_that_were_there() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d);
    let out = d.join("out");
    let k = s(&key).to_string();
    let o = s(&out).to_string();
    // A native file and a libhiae file to decrypt, from standard input (a prefix: the run
    // then waits for more).
    let plain = vec![0x37u8; 16 << 20];
    let enc = |fmt: &str| {
        let r = aeadfast_tests::aeadfast_stdin(&["encrypt", "--format", fmt, "-k", &k], &plain);
        assert!(r.status.success(), "{}", stderr_of(&r));
        r.stdout
    };
    let native = enc("native");
    let hiae = enc("hiae");
    let sigs = ["INT", "TERM", "HUP"];
    let mut i = 0;
    for named in [false, true] {
        for fmt in ["native", "hiae"] {
            // Standard input, encryption and decryption.
            let sig = sigs[i % 3];
            i += 1;
            interrupt_stdin_run(
                d,
                &strings(&["encrypt", "--format", fmt, "-k", &k, "-o", &o]),
                &plain[..8 << 20],
                sig,
                named,
            );
            let ct = if fmt == "native" { &native } else { &hiae };
            let sig = sigs[i % 3];
            i += 1;
            interrupt_stdin_run(
                d,
                &strings(&["decrypt", "--format", fmt, "-k", &k, "-o", &o]),
                &ct[..8 << 20],
                sig,
                named,
            );
            // An input file, encryption and decryption.
            let sig = sigs[i % 3];
            i += 1;
            let args =
                |input: &Path| strings(&["encrypt", "--format", fmt, "-k", &k, s(input), "-o", &o]);
            interrupt_file_run(d, &args, &|p, size| sparse(p, size), sig, named);
            let sig = sigs[i % 3];
            i += 1;
            let args =
                |input: &Path| strings(&["decrypt", "--format", fmt, "-k", &k, s(input), "-o", &o]);
            let make = |p: &Path, size: u64| {
                let src = d.join("src");
                sparse(&src, size);
                let r = aeadfast(&["encrypt", "--format", fmt, "-k", &k, s(&src), "-o", s(p)]);
                assert!(r.status.success(), "{}", stderr_of(&r));
                fs::remove_file(&src).unwrap();
            };
            interrupt_file_run(d, &args, &make, sig, named);
        }
    }
    assert!(!out.exists());
}

#[test]
fn a_signal_while_the_passphrase_is_read_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("pass.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let input = d.join("in");
    fs::write(&input, b"data").unwrap();
    let before = files_in(d);
    let mut child = aeadfast_command(&[
        "encrypt",
        "--passphrase-file",
        s(&fifo),
        s(&input),
        "-o",
        s(&d.join("out")),
    ])
    .env("AEADFAST_TEST_NAMED_TEMP", "1")
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    thread::sleep(Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "waiting for the passphrase"
    );
    send(child.id(), "INT");
    let st = wait_for(&mut child, Duration::from_secs(20));
    assert_eq!(st.code(), Some(130));
    assert_eq!(files_in(d), before);
}

fn file_type(p: &Path) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = fs::symlink_metadata(p).unwrap().file_type();
    if t.is_fifo() {
        "fifo"
    } else if t.is_char_device() {
        "char"
    } else if t.is_file() {
        "file"
    } else {
        "other"
    }
}

#[test]
fn fifos_and_devices_are_written_directly_and_stay_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d);
    let input = d.join("in");
    fs::write(&input, vec![9u8; 300_000]).unwrap();
    let fifo = d.join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for force in [false, true] {
        let reader = {
            let fifo = fifo.clone();
            thread::spawn(move || fs::read(fifo).unwrap())
        };
        let mut args = vec!["encrypt", "-k", s(&key), s(&input), "-o", s(&fifo)];
        if force {
            args.push("--force");
        }
        let r = aeadfast(&args);
        assert!(r.status.success(), "{}", stderr_of(&r));
        let got = reader.join().unwrap();
        assert_eq!(
            got.len(),
            24 + 300_000 + 16 * 2,
            "the reader got the whole file"
        );
        assert_eq!(file_type(&fifo), "fifo");
    }
    // A character device made with mknod (as root): /dev/null's numbers.
    let null = d.join("null");
    let made = Command::new("mknod")
        .arg(&null)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status();
    if made.is_ok_and(|st| st.success()) {
        for force in [false, true] {
            let mut args = vec!["encrypt", "-k", s(&key), s(&input), "-o", s(&null)];
            if force {
                args.push("--force");
            }
            let r = aeadfast(&args);
            assert!(r.status.success(), "{}", stderr_of(&r));
            assert_eq!(
                file_type(&null),
                "char",
                "--force={force} replaced the device"
            );
        }
    } else {
        eprintln!("not root: the mknod device case was not run (the FIFO case was)");
    }
    // Nothing but the files made here.
    let names: Vec<_> = files_in(d)
        .iter()
        .map(|p| p.file_name().unwrap().to_owned())
        .collect();
    assert!(
        names
            .iter()
            .all(|n| ["k.key", "in", "pipe", "null"].contains(&n.to_str().unwrap())),
        "{names:?}"
    );
}

#[test]
fn force_replaces_regular_files_keeping_mode_and_owner_and_refuses_hard_links() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d);
    let input = d.join("in");
    fs::write(&input, b"new content").unwrap();
    let dest = d.join("dest");
    fs::write(&dest, b"old").unwrap();
    fs::set_permissions(&dest, fs::Permissions::from_mode(0o640)).unwrap();
    let root = fs::metadata(d).unwrap().uid() == 0
        && Command::new("chown")
            .args(["12345:12346", s(&dest)])
            .status()
            .unwrap()
            .success();
    let r = aeadfast(&[
        "encrypt",
        "-k",
        s(&key),
        s(&input),
        "-o",
        s(&dest),
        "--force",
    ]);
    assert!(r.status.success(), "{}", stderr_of(&r));
    let m = fs::metadata(&dest).unwrap();
    assert_eq!(m.mode() & 0o7777, 0o640, "mode kept");
    assert_eq!(m.len(), 24 + 11 + 16);
    if root {
        assert_eq!((m.uid(), m.gid()), (12345, 12346), "owner kept");
    } else {
        eprintln!("not root: the owner case was not run");
    }
    // A second name for the same file: refused, both names keep the old content.
    let link = d.join("link");
    fs::hard_link(&dest, &link).unwrap();
    let before = fs::read(&dest).unwrap();
    let r = aeadfast(&[
        "encrypt",
        "-k",
        s(&key),
        s(&input),
        "-o",
        s(&dest),
        "--force",
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(stderr_of(&r).contains("hard links"), "{}", stderr_of(&r));
    assert_eq!(fs::read(&dest).unwrap(), before);
    assert_eq!(fs::read(&link).unwrap(), before);
}

#[test]
fn the_destination_is_checked_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d);
    let input = d.join("in");
    fs::write(&input, vec![1u8; 100_000]).unwrap();
    for (dest, needle) in [
        (format!("{}/newfile/", s(d)), "names a directory"),
        (format!("{}/missing/out", s(d)), "does not exist"),
        (s(d).to_string(), "is a directory"),
    ] {
        let before = files_in(d);
        let r = aeadfast(&["encrypt", "-k", s(&key), s(&input), "-o", &dest]);
        let err = stderr_of(&r);
        assert_eq!(r.status.code(), Some(2), "{err}");
        assert!(err.contains(needle), "{dest}: {err}");
        assert!(!err.contains("os error"), "{err}");
        assert_eq!(files_in(d), before);
    }
}

#[test]
fn new_outputs_follow_the_umask_and_key_files_stay_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d);
    let input = d.join("in");
    fs::write(&input, b"x").unwrap();
    let bin = aeadfast_bin();
    for (umask, want) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        for named in [false, true] {
            let out = d.join(format!("out-{umask}-{named}"));
            let newkey = d.join(format!("key-{umask}-{named}"));
            let script = format!(
                "umask {umask} && \"$0\" encrypt -k \"$1\" \"$2\" -o \"$3\" && \"$0\" keygen -o \"$4\""
            );
            let mut cmd = Command::new("sh");
            cmd.args([
                "-c",
                &script,
                s(&bin),
                s(&key),
                s(&input),
                s(&out),
                s(&newkey),
            ]);
            if named {
                cmd.env("AEADFAST_TEST_NAMED_TEMP", "1");
            }
            let st = cmd.status().unwrap();
            assert!(st.success());
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&out), want, "umask {umask}");
            assert_eq!(
                mode(&newkey),
                0o600 & !u32::from_str_radix(umask, 8).unwrap(),
                "key file"
            );
        }
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_run_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d);
    let input = d.join("in");
    fs::write(&input, vec![5u8; 8 << 20]).unwrap();
    let enc = d.join("in.af");
    assert!(
        aeadfast(&["encrypt", "-k", s(&key), s(&input), "-o", s(&enc)])
            .status
            .success()
    );
    for args in [
        vec!["decrypt", "-k", s(&key), s(&enc)],
        vec!["encrypt", "-k", s(&key), s(&input)],
        vec!["decrypt", "--format", "hiae", "-k", s(&key), s(&enc)],
    ] {
        let mut child = aeadfast_command(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut out = child.stdout.take().unwrap();
        let mut ten = [0u8; 10];
        // `head -c 10`: read a little, then close the pipe.
        let _ = out.read(&mut ten);
        drop(out);
        let st = wait_for(&mut child, Duration::from_secs(60));
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        if args[1] == "--format" {
            // Not a libhiae file: a plain error before any output.
            assert_eq!(st.code(), Some(1), "{err}");
            continue;
        }
        assert_eq!(st.code(), Some(141), "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?} printed: {err}");
    }
    assert_eq!(files_in(d).len(), 3);
}

#[test]
fn an_input_truncated_while_it_is_read_is_an_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = keygen(d);
    let mut size = 32u64 << 20;
    for cmd in ["decrypt", "sum"] {
        let mut done = false;
        for _ in 0..6 {
            let src = d.join("src");
            sparse(&src, size);
            let input = d.join("input");
            if cmd == "decrypt" {
                assert!(
                    aeadfast(&["encrypt", "-k", s(&key), s(&src), "-o", s(&input)])
                        .status
                        .success()
                );
                fs::remove_file(&src).unwrap();
            } else {
                fs::rename(&src, &input).unwrap();
            }
            let before = files_in(d);
            let args: Vec<&str> = if cmd == "decrypt" {
                vec!["decrypt", "-k", s(&key), s(&input), "-o", "/dev/null"]
            } else {
                vec!["sum", s(&input)]
            };
            let mut child = aeadfast_command(&args)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            thread::sleep(Duration::from_millis(20));
            send(child.id(), "STOP");
            if child.try_wait().unwrap().is_some() {
                fs::remove_file(&input).unwrap();
                size *= 2;
                continue;
            }
            fs::OpenOptions::new()
                .write(true)
                .open(&input)
                .unwrap()
                .set_len(size / 3)
                .unwrap();
            send(child.id(), "CONT");
            let st = wait_for(&mut child, Duration::from_secs(60));
            let mut err = String::new();
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            if st.success() {
                // Everything had been read before the cut (reads run ahead of the work):
                // too fast to catch, try with a larger input.
                fs::remove_file(&input).unwrap();
                size *= 2;
                continue;
            }
            assert_eq!(st.code(), Some(1), "{cmd}: {st:?} {err}");
            assert!(
                err.contains("truncated") || err.contains("changed"),
                "{cmd}: {err}"
            );
            assert_eq!(files_in(d), before);
            fs::remove_file(&input).unwrap();
            done = true;
            break;
        }
        assert!(
            done,
            "{cmd} always finished before the input could be truncated"
        );
    }
}
