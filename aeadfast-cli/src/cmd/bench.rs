//! `aeadfast bench`: a throughput table of every algorithm × every backend this CPU runs ×
//! message size, like `openssl speed`. One core; each cell is the best of a few timed rounds.

use std::hint::black_box;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use aes_lanes::aes128::{RECORD, encrypt_records};
use anyhow::{Context, Result};
use gift_cofb::{BatchItem, GiftCofb};
use hiae::aead::inout::InOutBuf;
use hiae::{AeadInOut, Hiae, HiaeX2, HiaeX4};
use lemac::{LeMacKeyGeneric, Supported, Width};

/// Options of `aeadfast bench`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Throughput in Gbps (10^9 bit/s) on one core, per algorithm, \
operation, backend (as the crates name them) and message size; the AES-128 bulk kernel in \
million records (AES-128 encryptions under their own keys) per second. Keys are set up \
once per cell (a LeMac key context is reused, as `sum` does). With --json, one JSON object \
per line and cell instead of the table.\n\n\
Example:\n  aeadfast bench\n  aeadfast bench --algo hiae,lemac --size 64,1K --time 0.1 --json"
)]
pub struct Args {
    /// Algorithms to measure [default: all].
    #[arg(long, value_enum, value_delimiter = ',')]
    algo: Vec<Algo>,
    /// Message sizes in bytes, with an optional k, M or G suffix (× 1024, 1024², 1024³).
    #[arg(long, value_delimiter = ',', default_value = "64,1K,64K,1M",
          value_parser = parse_msg_size)]
    size: Vec<u64>,
    /// Seconds spent on each cell.
    #[arg(long, value_name = "SECS", default_value_t = 0.2, value_parser = parse_secs)]
    time: f64,
    /// Print JSON lines instead of the table.
    #[arg(long)]
    json: bool,
}

/// The algorithms of `--algo`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Algo {
    Hiae,
    Hiaex2,
    Hiaex4,
    Lemac,
    Lemacx2,
    Lemacx4,
    GiftCofb,
    Aes128,
}

fn parse_msg_size(s: &str) -> Result<u64, String> {
    match super::parse_size(s)? {
        n @ 1..=0x4000_0000 => Ok(n),
        _ => Err("a message size must be between 1 byte and 1 GiB".into()),
    }
}

fn parse_secs(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 60.0 => Ok(t),
        _ => Err(format!("'{s}' is not a time in seconds between 0 and 60")),
    }
}

/// What every library crate's `Backend` offers: the backends this CPU can run, and their
/// names.
trait Backends: Copy + 'static {
    fn available() -> Vec<Self>;
    fn name(self) -> &'static str;
}

macro_rules! backends {
    ($($t:ty),*) => {$(
        impl Backends for $t {
            fn available() -> Vec<Self> {
                <$t>::available().collect()
            }
            fn name(self) -> &'static str {
                <$t>::name(self)
            }
        }
    )*};
}
// hiae and lemac run on the aes-lanes tiers (`hiae::Backend` is `aes_lanes::Backend`).
backends!(aes_lanes::Backend, gift_cofb::Backend);

/// One row of the table: a backend, and how to prepare a measurement of a message size on it.
struct Row {
    backend: &'static str,
    make: Box<dyn Fn(usize) -> Job>,
}

/// A row per backend the crate reports as available, each measured by `make`.
fn rows<B: Backends>(make: fn(B, usize) -> Job) -> Vec<Row> {
    B::available()
        .into_iter()
        .map(|b| Row {
            backend: b.name(),
            make: Box::new(move |size| make(b, size)),
        })
        .collect()
}

/// A prepared measurement: one call of `run` processes `bytes` bytes.
struct Job {
    bytes: u64,
    run: Box<dyn FnMut()>,
}

impl Job {
    fn new(bytes: usize, run: impl FnMut() + 'static) -> Job {
        Job {
            bytes: bytes as u64,
            run: Box::new(run),
        }
    }
}

/// One row kind of the table.
struct Case {
    algo: Algo,
    name: &'static str,
    op: &'static str,
    /// Rate in records (16 bytes) per second rather than Gbps.
    records: bool,
    /// The rows: one per backend of the algorithm's crate.
    rows: fn() -> Vec<Row>,
}

macro_rules! case {
    ($algo:ident, $name:literal, $op:literal, $make:expr) => {
        Case {
            algo: Algo::$algo,
            name: $name,
            op: $op,
            records: false,
            rows: || rows($make),
        }
    };
}

const CASES: &[Case] = &[
    case!(Hiae, "HiAE", "encrypt", hiae_encrypt::<Hiae>),
    case!(Hiae, "HiAE", "decrypt", hiae_decrypt::<Hiae>),
    case!(Hiae, "HiAE", "MAC", hiae_mac::<Hiae>),
    case!(Hiaex2, "HiAEx2", "encrypt", hiae_encrypt::<HiaeX2>),
    case!(Hiaex2, "HiAEx2", "decrypt", hiae_decrypt::<HiaeX2>),
    case!(Hiaex2, "HiAEx2", "MAC", hiae_mac::<HiaeX2>),
    case!(Hiaex4, "HiAEx4", "encrypt", hiae_encrypt::<HiaeX4>),
    case!(Hiaex4, "HiAEx4", "decrypt", hiae_decrypt::<HiaeX4>),
    case!(Hiaex4, "HiAEx4", "MAC", hiae_mac::<HiaeX4>),
    case!(Lemac, "LeMac", "MAC", lemac_mac::<1>),
    case!(Lemacx2, "LeMacX2", "MAC", lemac_mac::<2>),
    case!(Lemacx4, "LeMacX4", "MAC", lemac_mac::<4>),
    case!(GiftCofb, "GIFT-COFB", "encrypt", gift_encrypt),
    case!(GiftCofb, "GIFT-COFB", "encrypt batch", gift_batch),
    Case {
        records: true,
        ..case!(Aes128, "AES-128", "bulk records", aes128_bulk)
    },
];

const KEY32: [u8; 32] = [0x42; 32];
const KEY16: [u8; 16] = [0x24; 16];
const NONCE: [u8; 16] = [0x17; 16];

/// The HiAE variants' constructor for a chosen backend.
trait HiaeNew: hiae::Variant {
    fn with(backend: hiae::Backend) -> Result<Self, hiae::Unavailable>;
}

macro_rules! hiae_new {
    ($($t:ty),*) => {$(
        impl HiaeNew for $t {
            fn with(backend: hiae::Backend) -> Result<Self, hiae::Unavailable> {
                <$t>::new_with_backend(&KEY32.into(), backend)
            }
        }
    )*};
}
hiae_new!(Hiae, HiaeX2, HiaeX4);

fn hiae_encrypt<V: HiaeNew + 'static>(b: hiae::Backend, size: usize) -> Job {
    let c = V::with(b).expect("an available backend");
    let mut buf = vec![0u8; size];
    Job::new(size, move || {
        let tag = c.encrypt_inout_detached(&NONCE.into(), &[], buf.as_mut_slice().into());
        black_box(tag.expect("within the length limit"));
    })
}

fn hiae_decrypt<V: HiaeNew + 'static>(b: hiae::Backend, size: usize) -> Job {
    let c = V::with(b).expect("an available backend");
    let mut ct = vec![0u8; size];
    let tag = c
        .encrypt_inout_detached(&NONCE.into(), &[], ct.as_mut_slice().into())
        .expect("within the length limit");
    let mut out = vec![0u8; size];
    Job::new(size, move || {
        let buf = InOutBuf::new(&ct, &mut out).expect("equal lengths");
        c.decrypt_inout_detached(&NONCE.into(), &[], buf, &tag)
            .expect("the tag verifies");
    })
}

fn hiae_mac<V: HiaeNew>(b: hiae::Backend, size: usize) -> Job {
    let data = vec![0u8; size];
    let token = b.token().expect("available");
    Job::new(size, move || {
        black_box(hiae::mac_with_token::<V>(token, &KEY32, &NONCE, &data));
    })
}

fn lemac_mac<const D: usize>(b: lemac::Backend, size: usize) -> Job
where
    Width<D>: Supported<D>,
{
    let key = LeMacKeyGeneric::<D>::new_with_backend(&KEY16, b).expect("available");
    let data = vec![0u8; size];
    Job::new(size, move || {
        black_box(key.mac(&data, &[0; 16]));
    })
}

fn gift_encrypt(b: gift_cofb::Backend, size: usize) -> Job {
    let c = GiftCofb::new_with_backend(&KEY16.into(), b).expect("available");
    let mut buf = vec![0u8; size];
    Job::new(size, move || {
        let tag = c.encrypt_inout_detached(&NONCE.into(), &[], buf.as_mut_slice().into());
        black_box(tag.expect("no length limit"));
    })
}

fn gift_batch(b: gift_cofb::Backend, size: usize) -> Job {
    let c = GiftCofb::new_with_backend(&KEY16.into(), b).expect("available");
    // Whole batch steps, a few of them for short messages.
    let count = b.lanes() * if size <= 1 << 16 { 4 } else { 1 };
    let mut bufs = vec![vec![0u8; size]; count];
    let nonce = NONCE.into();
    Job::new(size * count, move || {
        let mut items: Vec<BatchItem<'_>> = bufs
            .iter_mut()
            .map(|b| BatchItem::new(&nonce, &[], b))
            .collect();
        c.encrypt_batch(&mut items);
        black_box(&items);
    })
}

fn aes128_bulk(b: aes_lanes::Backend, size: usize) -> Job {
    let token = b.token().expect("available");
    let len = size.max(RECORD) / RECORD * RECORD;
    let keys: Vec<u8> = (0..len).map(|i| i as u8).collect();
    let plains = vec![0x5a; len];
    let mut out = vec![0u8; len];
    Job::new(len, move || {
        encrypt_records(token, &keys, &plains, &mut out);
        black_box(&out);
    })
}

/// Timed rounds per cell (after calibration); the best one counts.
const ROUNDS: u32 = 5;

/// Calls per second of `run`, the best of [`ROUNDS`] rounds that take `secs` in all.
fn measure(run: &mut dyn FnMut(), secs: f64) -> f64 {
    let round = Duration::from_secs_f64(secs / f64::from(ROUNDS + 1));
    // Calibrate: double the calls until a batch takes a quarter of a round.
    let mut calls = 1u64;
    let per_call = loop {
        let t = Instant::now();
        for _ in 0..calls {
            run();
        }
        let el = t.elapsed();
        if el >= round / 4 || calls >= 1 << 40 {
            break el.as_secs_f64() / calls as f64;
        }
        calls *= 2;
    };
    let calls = ((round.as_secs_f64() / per_call.max(1e-12)) as u64).max(1);
    let mut best = 0f64;
    for _ in 0..ROUNDS {
        let t = Instant::now();
        for _ in 0..calls {
            run();
        }
        best = best.max(calls as f64 / t.elapsed().as_secs_f64().max(1e-12));
    }
    best
}

/// `64 B`, `1 KiB`, `64 KiB`, `1 MiB`, or plain bytes for sizes that are not round.
fn human(size: u64) -> String {
    match size {
        s if s >= 1 << 30 && s % (1 << 30) == 0 => format!("{} GiB", s >> 30),
        s if s >= 1 << 20 && s % (1 << 20) == 0 => format!("{} MiB", s >> 20),
        s if s >= 1 << 10 && s % (1 << 10) == 0 => format!("{} KiB", s >> 10),
        s => format!("{s} B"),
    }
}

/// `v` with at least two decimals and three significant digits (slow backends stay readable).
fn three_digits(v: f64) -> String {
    let decimals = if v > 0.0 {
        2 - v.log10().floor() as i32
    } else {
        2
    };
    format!("{v:.*}", decimals.clamp(2, 6) as usize)
}

/// Measures and prints the table (or JSON lines); a reader that goes away early (`| head`)
/// ends the run quietly.
pub fn run(args: &Args) -> Result<ExitCode> {
    match table(args) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        r => {
            r.context("cannot write to standard output")?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn table(args: &Args) -> std::io::Result<()> {
    let cases: Vec<&Case> = CASES
        .iter()
        .filter(|c| args.algo.is_empty() || args.algo.contains(&c.algo))
        .collect();
    let mut stdout = std::io::stdout().lock();
    if !args.json {
        write!(
            stdout,
            "{:<10} {:<14} {:<12}",
            "algorithm", "operation", "backend"
        )?;
        for &s in &args.size {
            write!(stdout, " {:>9}", human(s))?;
        }
        writeln!(stdout, "  unit")?;
    }
    for case in cases {
        for row in (case.rows)() {
            if !args.json {
                write!(
                    stdout,
                    "{:<10} {:<14} {:<12}",
                    case.name, case.op, row.backend
                )?;
                stdout.flush()?;
            }
            for &size in &args.size {
                let mut job = (row.make)(size as usize);
                let bytes_per_sec = measure(&mut job.run, args.time) * job.bytes as f64;
                let gbps = bytes_per_sec * 8.0 / 1e9;
                let mrps = bytes_per_sec / RECORD as f64 / 1e6;
                if args.json {
                    let mut rec = serde_json::json!({
                        "algorithm": case.name,
                        "operation": case.op,
                        "backend": row.backend,
                        "size": size,
                        "bytes_per_sec": bytes_per_sec,
                        "gbps": gbps,
                    });
                    if case.records {
                        rec["records_per_sec"] = (mrps * 1e6).into();
                    }
                    writeln!(stdout, "{rec}")?;
                } else {
                    write!(
                        stdout,
                        " {:>9}",
                        three_digits(if case.records { mrps } else { gbps })
                    )?;
                    stdout.flush()?;
                }
            }
            if !args.json {
                writeln!(
                    stdout,
                    "  {}",
                    if case.records { "M rec/s" } else { "Gbps" }
                )?;
            }
        }
    }
    Ok(())
}
