//! `cargo bench -p aeadfast --bench file_jobs`: whole-file jobs of the `aeadfast` binary built
//! here against `cp` and, when `AEADFAST_BEFORE` names another `aeadfast` binary (an earlier
//! build), against that binary — in the same run, alternating, with medians.
//!
//! Jobs (1 GiB random input in the page cache by default): `cp`, `encrypt`, `decrypt` (to a
//! file), `decrypt -o -` into `/dev/null`, `sum`. Outputs go to `AEADFAST_OUT_DIR` (default
//! `/dev/shm` when it exists), one at a time, removed after each run, with a pause between
//! runs (the kernel's writeback of the previous output otherwise lands on the next run).
//!
//! Environment: `AEADFAST_BEFORE` (optional binary), `AEADFAST_BENCH_DIR` (where the input
//! lives; default the temporary directory), `AEADFAST_OUT_DIR`, `AEADFAST_BENCH_MIB` (1024),
//! `AEADFAST_ROUNDS` (7), `AEADFAST_PAUSE_MS` (1000).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One timed job: a program and its arguments; `{in}`, `{enc}`, `{out}`, `{key}` are
/// replaced by paths.
struct Job {
    label: String,
    program: PathBuf,
    args: Vec<&'static str>,
    stdout_null: bool,
    times: Vec<f64>,
}

fn fill_random(path: &Path, len: usize) {
    let mut x = 0x9e3779b97f4a7c15u64;
    let mut f = fs::File::create(path).unwrap();
    let mut buf = vec![0u8; 1 << 20];
    let mut left = len;
    while left > 0 {
        for c in buf.chunks_mut(8) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            c.copy_from_slice(&x.to_le_bytes()[..c.len()]);
        }
        let n = left.min(buf.len());
        f.write_all(&buf[..n]).unwrap();
        left -= n;
    }
}

fn run(job: &Job, subst: &dyn Fn(&str) -> String) -> f64 {
    let args: Vec<String> = job.args.iter().map(|a| subst(a)).collect();
    let mut cmd = Command::new(&job.program);
    cmd.args(&args).stderr(Stdio::inherit());
    if job.stdout_null {
        cmd.stdout(Stdio::null());
    }
    let t = Instant::now();
    let st = cmd.status().unwrap();
    let secs = t.elapsed().as_secs_f64();
    assert!(st.success(), "{} {args:?} failed", job.label);
    secs
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s[s.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is accepted.
    let mib: usize = env_or("AEADFAST_BENCH_MIB", 1024);
    let rounds: usize = env_or("AEADFAST_ROUNDS", 7);
    let pause = Duration::from_millis(env_or("AEADFAST_PAUSE_MS", 1000));
    let after = PathBuf::from(env!("CARGO_BIN_EXE_aeadfast"));
    let before = std::env::var_os("AEADFAST_BEFORE").map(PathBuf::from);
    let work = std::env::var_os("AEADFAST_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join(format!("aeadfast-file-jobs-{}", std::process::id()));
    let out_dir = std::env::var_os("AEADFAST_OUT_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            if Path::new("/dev/shm").is_dir() {
                PathBuf::from("/dev/shm")
            } else {
                work.clone()
            }
        });
    fs::create_dir_all(&work).unwrap();
    let input = work.join("big");
    let enc = work.join("big.af");
    let key = work.join("k.key");
    let out = out_dir.join(format!("aeadfast-bench-out-{}", std::process::id()));
    eprintln!(
        "file_jobs: {mib} MiB input in {}, output in {}",
        work.display(),
        out_dir.display()
    );
    fill_random(&input, mib << 20);
    let st = Command::new(&after)
        .args(["keygen", "-o"])
        .arg(&key)
        .status()
        .unwrap();
    assert!(st.success());
    let st = Command::new(&after)
        .args(["encrypt", "-k"])
        .arg(&key)
        .arg("-i")
        .arg(&input)
        .arg("-o")
        .arg(&enc)
        .status()
        .unwrap();
    assert!(st.success());
    // Warm the page cache with both files.
    let _ = fs::read(&input).map(|v| v.len());
    let _ = fs::read(&enc).map(|v| v.len());

    let mut programs = vec![("after", after.clone())];
    if let Some(b) = &before {
        programs.push(("before", b.clone()));
    }
    let mut jobs = vec![Job {
        label: "cp".into(),
        program: PathBuf::from("cp"),
        args: vec!["{in}", "{out}"],
        stdout_null: false,
        times: Vec::new(),
    }];
    for (name, p) in &programs {
        let job = |what: &str, args: Vec<&'static str>, stdout_null| Job {
            label: format!("{what} ({name})"),
            program: p.clone(),
            args,
            stdout_null,
            times: Vec::new(),
        };
        jobs.push(job(
            "encrypt",
            vec!["encrypt", "-k", "{key}", "-i", "{in}", "-o", "{out}"],
            false,
        ));
        jobs.push(job(
            "decrypt",
            vec!["decrypt", "-k", "{key}", "-i", "{enc}", "-o", "{out}"],
            false,
        ));
        jobs.push(job(
            "decrypt -o - > /dev/null",
            vec!["decrypt", "-k", "{key}", "-i", "{enc}", "-o", "-"],
            true,
        ));
        jobs.push(job("sum", vec!["sum", "{in}"], true));
    }
    let subst = |a: &str| -> String {
        match a {
            "{in}" => input.display().to_string(),
            "{enc}" => enc.display().to_string(),
            "{out}" => out.display().to_string(),
            "{key}" => key.display().to_string(),
            other => other.to_string(),
        }
    };
    for round in 0..rounds {
        // Alternate the order each round so that drift does not favour one side.
        let order: Vec<usize> = if round % 2 == 0 {
            (0..jobs.len()).collect()
        } else {
            (0..jobs.len()).rev().collect()
        };
        for i in order {
            let t = run(&jobs[i], &subst);
            jobs[i].times.push(t);
            let _ = fs::remove_file(&out);
            std::thread::sleep(pause);
        }
        eprintln!("round {} of {rounds} done", round + 1);
    }
    let cp = median(&jobs[0].times);
    let bits = (mib as f64) * 1048576.0 * 8.0;
    println!(
        "{:<34} {:>9} {:>19} {:>9} {:>8}",
        "job", "median s", "min-max s", "Gbps", "vs cp"
    );
    for j in &jobs {
        let m = median(&j.times);
        let min = j.times.iter().cloned().fold(f64::MAX, f64::min);
        let max = j.times.iter().cloned().fold(0.0, f64::max);
        println!(
            "{:<34} {:>9.3} {:>8.3}-{:<10.3} {:>9.1} {:>7.2}x",
            j.label,
            m,
            min,
            max,
            bits / m / 1e9,
            m / cp
        );
    }
    let _ = fs::remove_dir_all(&work);
}
