//! `aeadfast aes128 gen` and `aes128 bench`: fastAES's workload and files. Record `i` of a
//! set is `AES-128-Encrypt(key_i, plain_i)`; `NAME_plains.bin`, `NAME_keys.bin`,
//! `NAME_ciphers_ref.bin` and `NAME_ciphers.bin` hold raw concatenated 16-byte records.

use std::fs::File;
use std::hint::black_box;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use aeadfast_cli::format::random_bytes;
use aes_lanes::Token;
use aes_lanes::aes128::{RECORD, RecordsKernel, encrypt_records};
use anyhow::{Context, Result, anyhow, bail};
use rayon::prelude::*;
use tempfile::NamedTempFile;

use super::files::{self, Rejected};
use super::mapped;

/// Options of `aeadfast aes128`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand, Debug)]
enum Command {
    /// Write COUNT random keys and plaintexts and their reference ciphertexts.
    #[command(
        after_help = "Writes DIR/NAME_plains.bin and DIR/NAME_keys.bin (random bytes \
from the OS) and DIR/NAME_ciphers_ref.bin, 16 bytes per record, no header (fastAES's files). \
Existing files are kept unless --force; each file appears only when complete.\n\n\
Example:\n  aeadfast aes128 gen -n big -s 100000000 --dir /dev/shm"
    )]
    Gen(GenArgs),
    /// Encrypt a set, time it like fastAES, and check the result against the reference.
    #[command(after_help = "Reads NAME_plains.bin and NAME_keys.bin, writes \
NAME_ciphers.bin (replacing the previous run's, atomically), prints CPU time, wall time, AES/s \
and ns per AES for the whole read+encrypt+write phase and for the encryption alone, then \
compares NAME_ciphers.bin with NAME_ciphers_ref.bin: \"All good!\", or the index of the first \
mismatching record and exit status 1.\n\n\
Example:\n  aeadfast aes128 bench -n big -c 4M --dir /dev/shm")]
    Bench(BenchArgs),
}

/// Options of `aeadfast aes128 gen`.
#[derive(clap::Args, Debug)]
struct GenArgs {
    /// Name of the set: the files are NAME_plains.bin, NAME_keys.bin, NAME_ciphers_ref.bin.
    #[arg(short, long)]
    name: String,
    /// Number of records (16-byte key + 16-byte plaintext each).
    #[arg(short = 's', long = "size", value_name = "COUNT")]
    count: u64,
    /// Directory of the files.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// Replace existing files of the set.
    #[arg(long)]
    force: bool,
}

/// Options of `aeadfast aes128 bench`.
#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// Name of the set (as given to `aes128 gen`).
    #[arg(short, long)]
    name: String,
    /// Bytes per I/O chunk: a positive multiple of 16, with an optional k, M or G suffix
    /// (× 1024, 1024², 1024³). Memory: three output buffers of this size.
    #[arg(short, long = "chunk-size", value_name = "BYTES", default_value = "1M",
          value_parser = parse_chunk)]
    chunk: u64,
    /// Directory of the files.
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// Encryption threads [default: one per CPU]; one more thread writes the output.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
}

/// `-c`: a positive multiple of 16 bytes.
fn parse_chunk(s: &str) -> Result<u64, String> {
    match super::parse_size(s)? {
        0 => Err("the chunk size must be positive".into()),
        n if n % RECORD as u64 != 0 => Err(format!(
            "the chunk size must be a multiple of 16 bytes (one record); {n} is not"
        )),
        n => Ok(n),
    }
}

/// Runs `aes128 gen` or `aes128 bench`.
pub fn run(args: &Args) -> Result<ExitCode> {
    match &args.command {
        Command::Gen(a) => gen_set(a),
        Command::Bench(a) => bench(a),
    }
}

/// Records generated per step of `gen` (16 MiB per buffer).
const GEN_STEP: u64 = 1 << 20;
/// Inputs of `bench` are mapped this many bytes at a time (rounded to whole chunks).
const WINDOW: usize = 64 << 20;
/// Output buffers of `bench`: one being encrypted, two queued for or in the writer.
const BUFFERS: usize = 3;

/// The file names of a set.
struct Set {
    dir: PathBuf,
    name: String,
}

impl Set {
    fn new(dir: &Path, name: &str) -> Result<Set> {
        if name.is_empty() || name.chars().any(std::path::is_separator) {
            bail!(
                "the set name '{name}' must be non-empty and without '/': use --dir for the folder"
            );
        }
        Ok(Set {
            dir: dir.to_path_buf(),
            name: name.to_string(),
        })
    }

    /// `DIR/NAME_<what>.bin`.
    fn path(&self, what: &str) -> PathBuf {
        self.dir.join(format!("{}_{what}.bin", self.name))
    }
}

/// An output file under construction: a temporary file in the destination's directory,
/// renamed into place by [`Output::finish`]; dropped unfinished, it is deleted.
struct Output {
    tmp: NamedTempFile,
    dest: PathBuf,
}

impl Output {
    fn new(dest: PathBuf) -> Result<Output> {
        let dir = dest.parent().unwrap_or(Path::new("."));
        let mut builder = tempfile::Builder::new();
        builder.prefix(".aeadfast-").suffix(".partial");
        // Mode 0666 before the umask, as for any new file (tempfile's default is 0600).
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
        let tmp = builder
            .tempfile_in(dir)
            .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
        Ok(Output { tmp, dest })
    }

    /// Like [`Output::new`], but takes over the storage of an existing `dest` (a regular
    /// file with one link): it is renamed to the temporary name and overwritten in place,
    /// which on page-cache file systems is several times faster than filling new pages.
    /// Returns whether that happened.
    fn recycle(dest: PathBuf) -> Result<(Output, bool)> {
        let out = Output::new(dest)?;
        let single = |m: &std::fs::Metadata| {
            #[cfg(unix)]
            let single = std::os::unix::fs::MetadataExt::nlink(m) == 1;
            #[cfg(not(unix))]
            let single = true;
            m.is_file() && single
        };
        if !out.dest.symlink_metadata().is_ok_and(|m| single(&m))
            || std::fs::rename(&out.dest, out.tmp.path()).is_err()
        {
            return Ok((out, false));
        }
        // The old file now has the temporary name (and is deleted if anything fails below).
        let path = out.tmp.into_temp_path();
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(
            &mut opts,
            rustix::fs::OFlags::NOFOLLOW.bits() as i32,
        );
        match opts.open(&path) {
            Ok(f) if f.metadata().is_ok_and(|m| single(&m)) => {
                let tmp = NamedTempFile::from_parts(f, path);
                Ok((
                    Output {
                        tmp,
                        dest: out.dest,
                    },
                    true,
                ))
            }
            _ => Ok((Output::new(out.dest)?, false)),
        }
    }

    fn write(&mut self, data: &[u8]) -> Result<()> {
        self.tmp
            .write_all(data)
            .with_context(|| format!("cannot write {}", self.dest.display()))
    }

    /// Renames the file into place (over an existing one only if `replace`). No fsync: like
    /// fastAES, the data reaches the disk when the OS writes it back.
    fn finish(self, replace: bool) -> Result<()> {
        let name = self.dest.display().to_string();
        let done = if replace {
            self.tmp.persist(&self.dest)
        } else {
            self.tmp.persist_noclobber(&self.dest)
        };
        done.map(drop).map_err(|e| match e.error.kind() {
            io::ErrorKind::AlreadyExists => anyhow!("{name} appeared meanwhile: not replaced"),
            _ => anyhow!("cannot move the output into place at {name}: {}", e.error),
        })
    }
}

/// Fails if the file system of `dir` has less than `need` bytes available.
fn check_space(dir: &Path, need: u64) -> Result<()> {
    #[cfg(unix)]
    if let Ok(st) = rustix::fs::statvfs(dir) {
        let avail = st.f_bavail.saturating_mul(st.f_frsize);
        if avail < need {
            bail!(
                "not enough space in {}: {need} bytes needed, {avail} available",
                dir.display()
            );
        }
    }
    #[cfg(not(unix))]
    let _ = (dir, need);
    Ok(())
}

/// Encrypts the records on the current rayon pool, in a few pieces per thread (so a thread
/// that loses its core to the writer for a moment delays little). Returns the time spent in
/// the kernel, summed over the threads (without the first touch of mapped input pages).
fn encrypt_par(token: Token, keys: &[u8], plains: &[u8], out: &mut [u8]) -> Duration {
    let records = plains.len() / RECORD;
    let piece = records
        .div_ceil(4 * rayon::current_num_threads())
        .max(1024)
        .next_multiple_of(64)
        * RECORD;
    let nanos = AtomicU64::new(0);
    out.par_chunks_mut(piece)
        .zip(keys.par_chunks(piece))
        .zip(plains.par_chunks(piece))
        .for_each(|((o, k), p)| {
            // Map the pages (page faults) before the clock starts.
            black_box(k.iter().chain(p).step_by(4096).fold(0, |a, &b| a ^ b));
            let t = Instant::now();
            encrypt_records(token, k, p, o);
            let ns = u64::try_from(t.elapsed().as_nanos()).unwrap_or(u64::MAX);
            nanos.fetch_add(ns, Ordering::Relaxed);
        });
    Duration::from_nanos(nanos.into_inner())
}

fn gen_set(a: &GenArgs) -> Result<ExitCode> {
    let set = Set::new(&a.dir, &a.name)?;
    let dests = [
        set.path("plains"),
        set.path("keys"),
        set.path("ciphers_ref"),
    ];
    if let Some(p) = dests
        .iter()
        .find(|p| !a.force && p.symlink_metadata().is_ok())
    {
        bail!(
            "{} already exists: use --force to replace the set, or choose another -n",
            p.display()
        );
    }
    let bytes = a
        .count
        .checked_mul(RECORD as u64)
        .filter(|b| b.checked_mul(3).is_some())
        .ok_or_else(|| anyhow!("{} records are too many", a.count))?;
    check_space(&set.dir, 3 * bytes)?;
    let mut outs = Vec::new();
    for d in &dests {
        outs.push(Output::new(d.clone())?);
    }
    let token = Token::detect();
    let step = (a.count.min(GEN_STEP) as usize) * RECORD;
    let (mut plains, mut keys, mut ciphers) = (vec![0u8; step], vec![0u8; step], vec![0u8; step]);
    let pb = files::progress(Some(bytes), "gen");
    let mut left = bytes;
    while left > 0 {
        let n = left.min(step as u64) as usize;
        let (p, k, c) = (&mut plains[..n], &mut keys[..n], &mut ciphers[..n]);
        p.par_chunks_mut(1 << 20)
            .chain(k.par_chunks_mut(1 << 20))
            .try_for_each(random_bytes)?;
        encrypt_par(token, k, p, c);
        for (out, data) in outs.iter_mut().zip([&*p, &*k, &*c]) {
            out.write(data)?;
        }
        left -= n as u64;
        pb.inc(n as u64);
    }
    pb.finish_and_clear();
    for out in outs {
        out.finish(a.force)?;
    }
    say!(
        "wrote {} records ({bytes} bytes per file): {}, {}, {}",
        a.count,
        dests[0].display(),
        dests[1].display(),
        dests[2].display()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Opens an input of `bench`, with a hint when it is missing.
fn open(path: &Path) -> Result<(File, u64)> {
    let file = File::open(path).with_context(|| {
        format!(
            "cannot open {} (make a set with `aeadfast aes128 gen -n NAME -s COUNT`)",
            path.display()
        )
    })?;
    let len = file.metadata()?.len();
    Ok((file, len))
}

fn bench(a: &BenchArgs) -> Result<ExitCode> {
    let set = Set::new(&a.dir, &a.name)?;
    let (plains_path, keys_path) = (set.path("plains"), set.path("keys"));
    let (ref_path, out_path) = (set.path("ciphers_ref"), set.path("ciphers"));
    let (plains, len) = open(&plains_path)?;
    let (keys, keys_len) = open(&keys_path)?;
    if len % RECORD as u64 != 0 {
        bail!(
            "{} holds {len} bytes, not a whole number of 16-byte records",
            plains_path.display()
        );
    }
    if keys_len != len {
        bail!(
            "{} holds {keys_len} bytes but {} holds {len}: one 16-byte key per plaintext needed",
            keys_path.display(),
            plains_path.display()
        );
    }
    if !ref_path.is_file() {
        bail!(
            "{} not found: bench checks its output against the reference ciphertexts that \
             `aeadfast aes128 gen` writes",
            ref_path.display()
        );
    }
    check_space(&set.dir, len)?;
    let threads = match a.threads {
        Some(n) => usize::from(n),
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the encryption threads")?;
    let token = Token::detect();
    let chunk = usize::try_from(a.chunk.min(len.max(16))).context("chunk size too large")?;
    let (mut out, recycled) = Output::recycle(out_path.clone())?;

    let cpu0 = cpu_time();
    let start = Instant::now();
    let jobs = Jobs {
        token,
        pool: &pool,
        plains: &plains,
        keys: &keys,
        len,
        chunk,
    };
    let kernel = jobs.run(out.tmp.as_file_mut(), &out_path)?;
    if recycled {
        // The previous output may have been longer.
        out.tmp
            .as_file()
            .set_len(len)
            .with_context(|| format!("cannot write {}", out_path.display()))?;
    }
    let wall = start.elapsed();
    let cpu = cpu_time().zip(cpu0).map(|(b, a)| b.saturating_sub(a));
    out.finish(true)?;

    let records = len / RECORD as u64;
    say!("records:        {records} ({len} bytes per file)")?;
    say!(
        "kernel:         {}, {threads} thread(s), chunk {chunk} bytes",
        RecordsKernel::new(token)
    )?;
    say!(
        "output:         {}",
        if recycled {
            "overwrote the previous run's file in place (renamed away meanwhile)"
        } else {
            "a new file"
        }
    )?;
    match cpu {
        Some(c) => say!("{:<16}{:.6} s", "CPU time:", c.as_secs_f64())?,
        None => say!("{:<16}n/a", "CPU time:")?,
    }
    print_rates("", "wall time", wall, records)?;
    say!("encryption only (no I/O; per core: time in the kernel summed over the threads):")?;
    print_rates("  ", "thread time", kernel, records)?;
    compare(&out_path, &ref_path, len)?;
    say!("All good!")?;
    Ok(ExitCode::SUCCESS)
}

/// Prints a time, AES/s and ns per AES.
fn print_rates(indent: &str, what: &str, t: Duration, records: u64) -> Result<()> {
    let s = t.as_secs_f64();
    let (rate, ns) = if records == 0 || s == 0.0 {
        (0.0, 0.0)
    } else {
        (records as f64 / s, s * 1e9 / records as f64)
    };
    say!("{indent}{:<16}{s:.6} s", format!("{what}:"))?;
    say!("{indent}{:<16}{rate:.0}", "AES/s:")?;
    say!("{indent}{:<16}{ns:.3}", "ns per AES:")
}

/// CPU time of this process (user + system, every thread), where the OS tells.
fn cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
        Some(Duration::new(
            u64::try_from(t.tv_sec).ok()?,
            u32::try_from(t.tv_nsec).ok()?,
        ))
    }
    #[cfg(not(unix))]
    None
}

/// The encryption phase of `bench`: inputs mapped a window at a time, each chunk encrypted on
/// `pool` while a writer thread writes the previous ones.
struct Jobs<'a> {
    token: Token,
    pool: &'a rayon::ThreadPool,
    plains: &'a File,
    keys: &'a File,
    len: u64,
    chunk: usize,
}

impl Jobs<'_> {
    /// Encrypts everything into `out`; returns the time spent encrypting.
    fn run(&self, out: &mut File, name: &Path) -> Result<Duration> {
        let (to_writer, queued) = mpsc::sync_channel::<Vec<u8>>(BUFFERS - 1);
        let (to_free, free) = mpsc::channel::<Vec<u8>>();
        std::thread::scope(|s| {
            let writer = s.spawn(move || -> io::Result<()> {
                for buf in queued {
                    out.write_all(&buf)?;
                    // The producer may have stopped on an error: nobody needs the buffer.
                    let _ = to_free.send(buf);
                }
                Ok(())
            });
            let produced = self.produce(&to_writer, &free);
            drop(to_writer);
            let written = writer.join().expect("writer thread panicked");
            written.with_context(|| format!("cannot write {}", name.display()))?;
            produced
        })
    }

    /// Encrypts chunk after chunk and queues them for the writer; stops early (with `Ok`) if
    /// the writer has stopped, which then reports why.
    fn produce(
        &self,
        to_writer: &mpsc::SyncSender<Vec<u8>>,
        free: &mpsc::Receiver<Vec<u8>>,
    ) -> Result<Duration> {
        let window = (WINDOW / self.chunk).max(1) * self.chunk;
        let mut fresh = BUFFERS;
        let mut kernel = Duration::ZERO;
        let mut off = 0u64;
        while off < self.len {
            let n = (self.len - off).min(window as u64) as usize;
            // Mapped lazily: the encryption threads fault the pages in, in parallel.
            let plains =
                mapped::map_lazy(self.plains, off, n).context("cannot map the plaintexts")?;
            let keys = mapped::map_lazy(self.keys, off, n).context("cannot map the keys")?;
            for (p, k) in plains.chunks(self.chunk).zip(keys.chunks(self.chunk)) {
                let mut buf = if fresh > 0 {
                    fresh -= 1;
                    vec![0u8; self.chunk]
                } else {
                    match free.recv() {
                        Ok(b) => b,
                        Err(_) => return Ok(kernel),
                    }
                };
                buf.resize(p.len(), 0);
                kernel += self
                    .pool
                    .install(|| encrypt_par(self.token, k, p, &mut buf));
                if to_writer.send(buf).is_err() {
                    return Ok(kernel);
                }
            }
            off += n as u64;
        }
        Ok(kernel)
    }
}

/// Compares the output with the reference, record by record; a difference (or a reference
/// of another length) is a [`Rejected`] naming the first mismatching record.
fn compare(out: &Path, reference: &Path, len: u64) -> Result<()> {
    let (a, _) = open(out)?;
    let (b, ref_len) = open(reference)?;
    let common = len.min(ref_len);
    let mut off = 0u64;
    while off < common {
        let n = (common - off).min(WINDOW as u64) as usize;
        let x = mapped::map(&a, off, n).context("cannot map the output")?;
        let y = mapped::map(&b, off, n).context("cannot map the reference")?;
        if *x != *y {
            let i = x
                .chunks(RECORD)
                .zip(y.chunks(RECORD))
                .position(|(x, y)| x != y)
                .unwrap_or(0);
            return Err(report_mismatch(
                off / RECORD as u64 + i as u64,
                out,
                reference,
            ));
        }
        off += n as u64;
    }
    if ref_len != len {
        let e = report_mismatch(common / RECORD as u64, out, reference);
        return Err(e.context(format!(
            "{} holds {ref_len} bytes, the output {len}",
            reference.display()
        )));
    }
    Ok(())
}

/// Prints the first mismatching record and returns the error that makes the exit status 1.
fn report_mismatch(record: u64, out: &Path, reference: &Path) -> anyhow::Error {
    // fastAES's line; if standard output cannot take it, the error below still says it.
    let _ = say!("Mismatch at record {record}");
    Rejected(format!(
        "first mismatching record: {record} ({} differs from {})",
        out.display(),
        reference.display()
    ))
    .into()
}
