//! On a terminal, through a pseudo-terminal made by util-linux `script`:
//!
//! * progress: a short job shows nothing (no stale bar above the plaintext); a job that lasts
//!   more than a second shows its bar on standard error and clears it;
//! * a passphrase prompt interrupted by a signal leaves the terminal's echo on.
#![cfg(target_os = "linux")]

use std::fs;
use std::path::Path;
use std::process::Command;

use aeadfast_tests::{aeadfast, aeadfast_bin, stderr_of};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// Runs `shell` under a pseudo-terminal; returns everything written to the terminal.
fn on_a_terminal(shell: &str) -> Option<String> {
    let out = Command::new("script")
        .args(["-qec", shell, "/dev/null"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn short_jobs_show_no_bar_and_long_ones_do() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = d.join("k");
    assert!(aeadfast(&["keygen", "-o", s(&key)]).status.success());
    let plain = d.join("p");
    fs::write(
        &plain,
        b"fifty-two bytes of plaintext, shown on the terminal.",
    )
    .unwrap();
    let enc = d.join("p.af");
    let r = aeadfast(&["encrypt", "-k", s(&key), s(&plain), "-o", s(&enc)]);
    assert!(r.status.success(), "{}", stderr_of(&r));
    let bin = aeadfast_bin();
    let Some(shown) = on_a_terminal(&format!("{} decrypt -k {} {}", s(&bin), s(&key), s(&enc)))
    else {
        eprintln!("util-linux `script` is not available: progress not checked on a terminal");
        return;
    };
    assert!(shown.contains("fifty-two bytes"), "{shown:?}");
    assert!(!shown.contains("decrypting"), "a bar appeared: {shown:?}");
    // A job that waits on its input for 1.5 s: the bar shows up on the terminal.
    let out = d.join("slow.af");
    let shell = format!(
        "(sleep 1.5; head -c 3000000 /dev/zero) | {} encrypt -k {} -o {}",
        s(&bin),
        s(&key),
        s(&out)
    );
    let shown = on_a_terminal(&shell).expect("script ran before");
    assert!(
        shown.contains("encrypting"),
        "no bar for a long job: {shown:?}"
    );
    assert!(out.exists());
}

#[test]
fn an_interrupted_passphrase_prompt_restores_echo() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let plain = d.join("p");
    fs::write(&plain, b"x").unwrap();
    let pid_file = d.join("pid");
    let bin = aeadfast_bin();
    // aeadfast waits at the prompt (echo off) in the background; it is sent SIGTERM; then the
    // terminal's settings are printed.
    let shell = format!(
        "{bin} encrypt --passphrase {plain} -o {out} & p=$!; echo $p > {pid}; wait $p; \
         echo status=$?; stty -a",
        bin = s(&bin),
        plain = s(&plain),
        out = s(&d.join("out")),
        pid = s(&pid_file),
    );
    let child = Command::new("script")
        .args(["-qec", &shell, "/dev/null"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    let Ok(child) = child else {
        eprintln!("util-linux `script` is not available: the prompt was not checked");
        return;
    };
    // Wait until the prompt is up (the pid is written, then a moment for the prompt).
    let start = std::time::Instant::now();
    let pid = loop {
        if let Ok(t) = fs::read_to_string(&pid_file)
            && let Ok(p) = t.trim().parse::<u32>()
        {
            break p;
        }
        assert!(start.elapsed().as_secs() < 20, "no pid");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    std::thread::sleep(std::time::Duration::from_millis(500));
    let st = Command::new("kill")
        .args(["-s", "TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Passphrase:"), "{text}");
    assert!(text.contains("status=143"), "{text}");
    let settings = &text[text.find("status=143").unwrap()..];
    assert!(
        settings.split_whitespace().any(|w| w == "echo"),
        "echo left off: {settings}"
    );
    assert!(!d.join("out").exists());
}
