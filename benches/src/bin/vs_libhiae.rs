//! `vs-libhiae`: HiAE and HiAEx2 from this workspace against libhiae (the C library) linked
//! into the same process.
//!
//! libhiae is not a Rust crate and is never vendored here: build it from its public sources
//! and point `LIBHIAE_DIR` at the directory holding `libhiae.a` (`benches/vs-libhiae.sh` does
//! both). Every cell is first checked (ciphertext, tag and plaintext equal between the two
//! libraries; for the HiAEx2 MAC, whose last step differs by definition, only that both run),
//! then timed in batches that alternate between them, the best batch of each kept;
//! the parent process runs several child processes (each with its own address-space layout)
//! and reports per cell the median time per call of each library (ns, and as Gbps) and the
//! median and the lowest of the ratios `libhiae time / our time`.
//!
//! ```text
//! vs-libhiae [--variants hiae,hiaex2] [--ops encrypt,decrypt,mac]
//!            [--sizes 64,1024,65536,1048576] [--placements 0,16,4032,in]
//!            [--backend NAME] [--lib-hiae NAME] [--lib-hiaex2 NAME]
//!            [--rounds 31] [--processes 7]
//! ```
//!
//! A placement is the output's distance in bytes past a 4 KiB boundary (the input starts on
//! one) or `in` (encryption in place); decryption is timed out of place only, the MAC has no
//! output. `--backend` forces our backend (default: the fastest this CPU has), `--lib-hiae` and
//! `--lib-hiaex2` force libhiae's (`HiAE_force_implementation`, e.g. `AES-NI`, `VAES-AVX2`).

// Calling a C library needs `unsafe`; each block says why its call is sound.
#![allow(unsafe_code)]

use std::collections::BTreeMap;
use std::ffi::{CStr, CString, c_char};
use std::hint::black_box;
use std::process::{Command, ExitCode};
use std::time::Instant;

use aead::AeadInOut;
use aead::inout::InOutBuf;
use hiae::{Backend, Hiae, HiaeX2, Token, mac_with_token};

/// libhiae's one-shot API (its `HiAE.h` and `HiAEx2.h`).
mod ffi {
    use std::ffi::c_char;

    macro_rules! one_shot {
        ($($init:ident, $force:ident, $name:ident, $enc:ident, $dec:ident, $mac:ident;)*) => {
            #[link(name = "hiae", kind = "static")]
            unsafe extern "C" {
                $(
                    pub fn $init() -> i32;
                    pub fn $force(name: *const c_char) -> i32;
                    pub fn $name() -> *const c_char;
                    pub fn $enc(
                        key: *const u8,
                        nonce: *const u8,
                        msg: *const u8,
                        ct: *mut u8,
                        len: usize,
                        ad: *const u8,
                        ad_len: usize,
                        tag: *mut u8,
                    ) -> i32;
                    pub fn $dec(
                        key: *const u8,
                        nonce: *const u8,
                        msg: *mut u8,
                        ct: *const u8,
                        len: usize,
                        ad: *const u8,
                        ad_len: usize,
                        tag: *const u8,
                    ) -> i32;
                    pub fn $mac(
                        key: *const u8,
                        nonce: *const u8,
                        data: *const u8,
                        len: usize,
                        tag: *mut u8,
                    ) -> i32;
                )*
            }
        };
    }

    one_shot! {
        HiAE_init_library, HiAE_force_implementation, HiAE_get_implementation_name,
        HiAE_encrypt, HiAE_decrypt, HiAE_mac;
        HiAEx2_init_library, HiAEx2_force_implementation, HiAEx2_get_implementation_name,
        HiAEx2_encrypt, HiAEx2_decrypt, HiAEx2_mac;
    }
}

const KEY: [u8; 32] = [0x5a; 32];
const NONCE: [u8; 16] = [0xa5; 16];
/// Distance from the input to the output area: more than the largest size, a multiple of 4 KiB.
const OUT_AREA: usize = 2 << 20;
/// Wall time one timed batch aims at.
const BATCH_NS: f64 = 1e6;

/// What the command line asked for.
struct Options {
    variants: Vec<String>,
    ops: Vec<String>,
    sizes: Vec<usize>,
    placements: Vec<String>,
    backend: Backend,
    lib_hiae: Option<String>,
    lib_hiaex2: Option<String>,
    rounds: usize,
    processes: usize,
    child: bool,
}

fn parse_list(v: &str) -> Vec<String> {
    v.split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        variants: parse_list("hiae,hiaex2"),
        ops: parse_list("encrypt,decrypt,mac"),
        sizes: vec![64, 1024, 65536, 1 << 20],
        placements: parse_list("0,16,4032,in"),
        backend: Backend::detect(),
        lib_hiae: None,
        lib_hiaex2: None,
        rounds: 31,
        processes: 7,
        child: false,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--child" {
            o.child = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| {
            v.parse::<usize>()
                .map_err(|_| format!("{flag}: `{v}` is not a number"))
        };
        match flag.as_str() {
            "--variants" => o.variants = parse_list(value),
            "--ops" => o.ops = parse_list(value),
            "--sizes" => {
                o.sizes = parse_list(value)
                    .iter()
                    .map(|v| number(v))
                    .collect::<Result<_, _>>()?
            }
            "--placements" => o.placements = parse_list(value),
            "--backend" => {
                o.backend = Backend::from_name(value)
                    .filter(|b| b.is_available())
                    .ok_or_else(|| format!("--backend: `{value}` is not available here"))?
            }
            "--lib-hiae" => o.lib_hiae = Some(value.clone()),
            "--lib-hiaex2" => o.lib_hiaex2 = Some(value.clone()),
            "--rounds" => o.rounds = number(value)?.max(1),
            "--processes" => o.processes = number(value)?.max(1),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    if let Some(v) = o
        .variants
        .iter()
        .find(|v| !matches!(v.as_str(), "hiae" | "hiaex2"))
    {
        return Err(format!("--variants: `{v}` (hiae, hiaex2)"));
    }
    let ops = ["encrypt", "decrypt", "mac"];
    if let Some(op) = o.ops.iter().find(|op| !ops.contains(&op.as_str())) {
        return Err(format!("--ops: `{op}` (encrypt, decrypt, mac)"));
    }
    let placement_ok = |p: &String| p == "in" || matches!(p.parse::<usize>(), Ok(n) if n < 4096);
    if let Some(p) = o.placements.iter().find(|p| !placement_ok(p)) {
        return Err(format!(
            "--placements: `{p}` (a byte offset below 4096, or `in`)"
        ));
    }
    if let Some(big) = o.sizes.iter().find(|&&s| s > OUT_AREA - 4096) {
        return Err(format!("--sizes: {big} is above {}", OUT_AREA - 4096));
    }
    Ok(o)
}

/// One variant: our instance (and the token of its backend, for the one-shot MAC) and
/// libhiae's functions for it.
enum Pair {
    One(Hiae, Token),
    Two(HiaeX2, Token),
}

impl Pair {
    fn name(&self) -> &'static str {
        match self {
            Pair::One(..) => "HiAE",
            Pair::Two(..) => "HiAEx2",
        }
    }

    fn encrypt(&self, buf: InOutBuf<'_, '_, u8>) -> [u8; 16] {
        let nonce = NONCE.into();
        match self {
            Pair::One(h, _) => h.encrypt_inout_detached(&nonce, &[], buf),
            Pair::Two(h, _) => h.encrypt_inout_detached(&nonce, &[], buf),
        }
        .expect("length within limits")
        .into()
    }

    fn decrypt(&self, buf: InOutBuf<'_, '_, u8>, tag: &[u8; 16]) -> bool {
        let (nonce, tag) = (NONCE.into(), (*tag).into());
        match self {
            Pair::One(h, _) => h.decrypt_inout_detached(&nonce, &[], buf, &tag),
            Pair::Two(h, _) => h.decrypt_inout_detached(&nonce, &[], buf, &tag),
        }
        .is_ok()
    }

    fn mac(&self, data: &[u8]) -> [u8; 16] {
        match self {
            Pair::One(_, t) => mac_with_token::<Hiae>(*t, &KEY, &NONCE, data),
            Pair::Two(_, t) => mac_with_token::<HiaeX2>(*t, &KEY, &NONCE, data),
        }
    }

    /// libhiae's encryption of `msg` into `ct`, or in place when `msg` is `None`.
    fn lib_encrypt(&self, msg: Option<&[u8]>, ct: &mut [u8]) -> [u8; 16] {
        let len = ct.len();
        let src = msg.map_or(ct.as_ptr(), |m| {
            assert_eq!(m.len(), len);
            m.as_ptr()
        });
        let f = match self {
            Pair::One(..) => ffi::HiAE_encrypt,
            Pair::Two(..) => ffi::HiAEx2_encrypt,
        };
        let mut tag = [0u8; 16];
        // SAFETY: `src` and `ct` hold `len` bytes (the same bytes for in place, which libhiae
        // allows), the key 32, the nonce and tag 16; the empty AD pointer is not read.
        let r = unsafe {
            f(
                KEY.as_ptr(),
                NONCE.as_ptr(),
                src,
                ct.as_mut_ptr(),
                len,
                [].as_ptr(),
                0,
                tag.as_mut_ptr(),
            )
        };
        assert_eq!(r, 0, "libhiae encryption failed");
        tag
    }

    /// libhiae's decryption of `ct` into `msg`: whether the tag matched.
    fn lib_decrypt(&self, ct: &[u8], msg: &mut [u8], tag: &[u8; 16]) -> bool {
        assert_eq!(ct.len(), msg.len());
        let f = match self {
            Pair::One(..) => ffi::HiAE_decrypt,
            Pair::Two(..) => ffi::HiAEx2_decrypt,
        };
        // SAFETY: `ct` and `msg` hold `len` bytes each and do not overlap (one is shared, one
        // exclusive), the key 32, the nonce and tag 16; the empty AD pointer is not read.
        let r = unsafe {
            f(
                KEY.as_ptr(),
                NONCE.as_ptr(),
                msg.as_mut_ptr(),
                ct.as_ptr(),
                ct.len(),
                [].as_ptr(),
                0,
                tag.as_ptr(),
            )
        };
        r == 0
    }

    /// libhiae's MAC of `data`.
    fn lib_mac(&self, data: &[u8]) -> [u8; 16] {
        let f = match self {
            Pair::One(..) => ffi::HiAE_mac,
            Pair::Two(..) => ffi::HiAEx2_mac,
        };
        let mut tag = [0u8; 16];
        // SAFETY: `data` holds `data.len()` bytes, the key 32, the nonce and tag 16.
        let r = unsafe {
            f(
                KEY.as_ptr(),
                NONCE.as_ptr(),
                data.as_ptr(),
                data.len(),
                tag.as_mut_ptr(),
            )
        };
        assert_eq!(r, 0, "libhiae MAC failed");
        tag
    }
}

/// Initialises libhiae, forces the requested implementations; returns libhiae's names for
/// the HiAE and HiAEx2 implementations it runs.
fn init_libhiae(o: &Options) -> Result<(String, String), String> {
    let name = |p: *const c_char| {
        // SAFETY: libhiae returns a pointer to a static NUL-terminated name.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    };
    let force = |f: unsafe extern "C" fn(*const c_char) -> i32, want: &Option<String>| {
        let Some(w) = want else { return Ok(()) };
        let c = CString::new(w.as_str()).map_err(|_| format!("bad name `{w}`"))?;
        // libhiae keeps the pointer it is given: the name must live as long as the process.
        let c: &'static CStr = Box::leak(c.into_boxed_c_str());
        // SAFETY: `c` is a NUL-terminated string that is never freed.
        match unsafe { f(c.as_ptr()) } {
            0 => Ok(()),
            _ => Err(format!("libhiae has no implementation `{w}` on this CPU")),
        }
    };
    // SAFETY: libhiae's initialisation functions take no arguments; they run before any other
    // libhiae call of this process.
    unsafe {
        ffi::HiAE_init_library();
        ffi::HiAEx2_init_library();
    }
    force(ffi::HiAE_force_implementation, &o.lib_hiae)?;
    force(ffi::HiAEx2_force_implementation, &o.lib_hiaex2)?;
    // SAFETY: no arguments; called after initialisation.
    let names = unsafe {
        (
            ffi::HiAE_get_implementation_name(),
            ffi::HiAEx2_get_implementation_name(),
        )
    };
    Ok((name(names.0), name(names.1)))
}

fn pairs(o: &Options) -> Result<Vec<Pair>, String> {
    let key = KEY.into();
    let unavailable = |_| format!("backend {} is not available", o.backend.name());
    let token = o.backend.token().map_err(unavailable)?;
    o.variants
        .iter()
        .map(|v| {
            Ok(if v == "hiae" {
                Pair::One(
                    Hiae::new_with_backend(&key, o.backend).map_err(unavailable)?,
                    token,
                )
            } else {
                Pair::Two(
                    HiaeX2::new_with_backend(&key, o.backend).map_err(unavailable)?,
                    token,
                )
            })
        })
        .collect()
}

/// A 4 KiB-aligned arena: the input at 0, the outputs [`OUT_AREA`] bytes on. Every byte is
/// written once, so no read lands on the kernel's shared zero page.
struct Arena {
    mem: Vec<u8>,
    base: usize,
}

impl Arena {
    fn new() -> Self {
        let mem = aeadfast_benches::input(2 * OUT_AREA + 2 * 4096);
        let base = (4096 - mem.as_ptr() as usize % 4096) % 4096;
        Arena { mem, base }
    }

    /// The first `size` bytes of the input area.
    fn input(&mut self, size: usize) -> &mut [u8] {
        &mut self.mem[self.base..self.base + size]
    }

    /// The input's first `size` bytes and `size` bytes of the output area from `off`.
    fn apart(&mut self, size: usize, off: usize) -> (&[u8], &mut [u8]) {
        let (i, o) = self.mem[self.base..].split_at_mut(OUT_AREA);
        (&i[..size], &mut o[off..off + size])
    }
}

/// Best batch of ours (`f(true)`) and of libhiae (`f(false)`), the two alternating.
fn race(rounds: usize, f: &mut dyn FnMut(bool)) -> (f64, f64) {
    let mut batch = |ours: bool, iters: usize| {
        let t = Instant::now();
        for _ in 0..iters {
            f(ours);
        }
        t.elapsed().as_nanos() as f64 / iters as f64
    };
    let est = batch(true, 8).max(batch(false, 8)).max(1.0);
    let iters = ((BATCH_NS / est) as usize).max(2);
    let (mut o, mut l) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        o = o.min(batch(true, iters));
        l = l.min(batch(false, iters));
    }
    (o, l)
}

/// Checks and times one cell; `None` for a combination that is not measured.
fn cell(
    p: &Pair,
    op: &str,
    size: usize,
    place: &str,
    arena: &mut Arena,
    rounds: usize,
) -> Result<Option<(f64, f64)>, String> {
    if (op == "mac" && place != "0") || (op == "decrypt" && place == "in") {
        return Ok(None);
    }
    let fail = |what: &str| Err(format!("{} {op} {size} B +{place}: {what}", p.name()));
    let off = place.parse::<usize>().unwrap_or(0);
    let msg = arena.input(size).to_vec();
    Ok(Some(match op {
        "mac" => {
            let data = &arena.input(size)[..];
            let (ours, lib) = (p.mac(data), p.lib_mac(data));
            // HiAEx2's MAC here is zig-hiae's definition (lane 0's sum), libhiae's folds both
            // lanes: the same work, different last XORs, so only HiAE's tags can be compared.
            if ours != lib && matches!(p, Pair::One(..)) {
                return fail(&format!(
                    "tags differ: ours {ours:02x?}, libhiae {lib:02x?}"
                ));
            }
            race(rounds, &mut |ours| {
                black_box(if ours { p.mac(data) } else { p.lib_mac(data) });
            })
        }
        "encrypt" => {
            let mut lib_ct = vec![0u8; size];
            let lib_tag = p.lib_encrypt(Some(&msg), &mut lib_ct);
            let mut ct = msg.clone();
            if p.encrypt(InOutBuf::from(&mut ct[..])) != lib_tag || ct != lib_ct {
                return fail("ciphertexts or tags differ");
            }
            if place == "in" {
                let buf = arena.input(size);
                let timed = race(rounds, &mut |ours| {
                    black_box(if ours {
                        p.encrypt(InOutBuf::from(&mut *buf))
                    } else {
                        p.lib_encrypt(None, buf)
                    });
                });
                buf.copy_from_slice(&msg);
                timed
            } else {
                let (src, dst) = arena.apart(size, off);
                race(rounds, &mut |ours| {
                    black_box(if ours {
                        p.encrypt(InOutBuf::new(src, &mut *dst).expect("equal lengths"))
                    } else {
                        p.lib_encrypt(Some(src), dst)
                    });
                })
            }
        }
        _ => {
            let tag = p.lib_encrypt(None, arena.input(size));
            let (ct, dst) = arena.apart(size, off);
            if !p.decrypt(InOutBuf::new(ct, &mut *dst).expect("equal lengths"), &tag) || dst != msg
            {
                return fail("our decryption of libhiae's ciphertext failed");
            }
            if !p.lib_decrypt(ct, dst, &tag) || dst != msg {
                return fail("libhiae's decryption failed");
            }
            let timed = race(rounds, &mut |ours| {
                let ok = if ours {
                    p.decrypt(InOutBuf::new(ct, &mut *dst).expect("equal lengths"), &tag)
                } else {
                    p.lib_decrypt(ct, dst, &tag)
                };
                assert!(ok);
            });
            arena.input(size).copy_from_slice(&msg);
            timed
        }
    }))
}

/// One process's measurements, printed as tab-separated lines for the parent.
fn child(o: &Options) -> Result<(), String> {
    init_libhiae(o)?;
    let pairs = pairs(o)?;
    let mut arena = Arena::new();
    for p in &pairs {
        for op in &o.ops {
            for &size in &o.sizes {
                for place in &o.placements {
                    if let Some((ours, lib)) = cell(p, op, size, place, &mut arena, o.rounds)? {
                        println!("{}\t{op}\t{size}\t{place}\t{ours}\t{lib}", p.name());
                    }
                }
            }
        }
    }
    Ok(())
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            let field = |k: &str| {
                s.lines()
                    .find(|l| l.starts_with(k))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|v| v.trim().to_string())
            };
            Some(format!(
                "{} (family {}, model {})",
                field("model name")?,
                field("cpu family")?,
                field("model")?
            ))
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// Runs the children and prints the table.
fn parent(o: &Options, args: &[String]) -> Result<(), String> {
    let (lib1, lib2) = init_libhiae(o)?;
    pairs(o)?;
    println!("CPU: {}", cpu_name());
    println!(
        "ours: {}; libhiae: HiAE {lib1}, HiAEx2 {lib2}",
        o.backend.name()
    );
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    type Key = (String, String, usize, String);
    let mut cells: BTreeMap<(usize, Key), Vec<(f64, f64)>> = BTreeMap::new();
    for i in 0..o.processes {
        eprint!("\rprocess {}/{}", i + 1, o.processes);
        let run = Command::new(&exe)
            .args(args)
            .arg("--child")
            .output()
            .map_err(|e| e.to_string())?;
        if !run.status.success() {
            return Err(String::from_utf8_lossy(&run.stderr).into_owned());
        }
        for (order, line) in String::from_utf8_lossy(&run.stdout).lines().enumerate() {
            let f: Vec<&str> = line.split('\t').collect();
            let [name, op, size, place, ours, lib] = f[..] else {
                return Err(format!("unexpected child output `{line}`"));
            };
            let key = (
                name.into(),
                op.into(),
                size.parse().unwrap_or(0),
                place.into(),
            );
            let t = (
                ours.parse().unwrap_or(f64::NAN),
                lib.parse().unwrap_or(f64::NAN),
            );
            cells.entry((order, key)).or_default().push(t);
        }
    }
    eprintln!();
    println!(
        "\n| variant | op | size | output | ours ns | libhiae ns | ours Gbps | libhiae Gbps | libhiae time / ours, median | lowest |"
    );
    println!("|---|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for ((_, (name, op, size, place)), v) in &cells {
        let mut ratios: Vec<f64> = v.iter().map(|(o, l)| l / o).collect();
        let lowest = ratios.iter().copied().fold(f64::MAX, f64::min);
        let mut ours: Vec<f64> = v.iter().map(|t| t.0).collect();
        let mut lib: Vec<f64> = v.iter().map(|t| t.1).collect();
        let (ours_ns, lib_ns) = (median(&mut ours), median(&mut lib));
        let gbps = |ns: f64| *size as f64 * 8.0 / ns;
        let place = if place == "in" {
            "in place".to_string()
        } else {
            format!("+{place}")
        };
        println!(
            "| {name} | {op} | {size} | {place} | {ours_ns:.1} | {lib_ns:.1} | {:.1} | {:.1} | {:.3} | {:.3} |",
            gbps(ours_ns),
            gbps(lib_ns),
            median(&mut ratios),
            lowest
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = parse_options(&args).and_then(|o| {
        if o.child {
            child(&o)
        } else {
            parent(&o, &args)
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vs-libhiae: {e}");
            ExitCode::FAILURE
        }
    }
}
