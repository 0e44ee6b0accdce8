//! `aeadfast sum`: LeMac checksums in the `lemacsum` / `sha256sum` line format, and `sum -c`.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use lemac::{LeMacKey, Mac};
use rayon::prelude::*;

use super::files;

const HELP: &str = "\
Prints `<32 hex digits>  <name>` per file, byte-identical to pauldreik's `lemacsum` (LeMac \
with the all-zero key and nonce); several files are hashed in parallel, output in argument \
order. With the public zero key this is a fast CORRUPTION CHECKSUM, not a cryptographic hash: \
anyone can make two files with the same checksum. To detect deliberate changes, use --key \
with a secret 16-byte key file (a keyed MAC).

Check mode (-c) reads such lines (or --tag lines) and prints `name: OK`, `name: FAILED` or \
`name: FAILED open or read`, exactly as sha256sum does (names with a backslash or a newline \
escaped, the line then starting with a backslash). Exit status 1 if any file failed or could \
not be read — in both modes, as sha256sum: a file that cannot be read is reported on standard \
error and the others are still hashed.

Example:
  aeadfast sum *.iso > SUMS
  aeadfast sum -c SUMS
  aeadfast sum --key mac.key --tag backup.tar";

/// Options of `aeadfast sum`.
#[derive(clap::Args, Debug)]
#[command(after_help = HELP)]
pub struct Args {
    /// Files to checksum (none or -: standard input); with -c, the checksum lists to check.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Read checksums from the FILEs and check them.
    #[arg(short, long)]
    check: bool,
    /// BSD-style output: `LEMAC (name) = hex`.
    #[arg(long, conflicts_with = "check")]
    tag: bool,
    /// Keyed MAC with a raw 16-byte key file (default: the public all-zero key).
    #[arg(long, value_name = "KEYFILE")]
    key: Option<PathBuf>,
    /// Check mode: do not print OK for each verified file.
    #[arg(long, requires = "check")]
    quiet: bool,
    /// Check mode: print nothing; the exit status tells.
    #[arg(long, requires = "check")]
    status: bool,
    /// Check mode: exit 1 on improperly formatted lines.
    #[arg(long, requires = "check")]
    strict: bool,
    /// Check mode: skip listed files that do not exist.
    #[arg(long, requires = "check")]
    ignore_missing: bool,
    /// End each output line with NUL instead of a newline, and do not escape names (as
    /// sha256sum -z; not with -c).
    #[arg(short, long, conflicts_with = "check")]
    zero: bool,
    /// Print only the checksums, without the file names (as b3sum).
    #[arg(long, conflicts_with_all = ["check", "tag"])]
    no_names: bool,
    /// Threads that hash files at once [default: one per CPU].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    num_threads: Option<u16>,
}

/// Files hashed in parallel before their lines are printed.
const GROUP: usize = 64;

fn hash_reader(key: &LeMacKey, mut r: impl Read) -> io::Result<[u8; 16]> {
    let mut h = key.hasher();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        match r.read(&mut buf) {
            Ok(0) => return Ok(h.finalize_tag()),
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The LeMac tag of a file (`-`: standard input): a non-empty regular file is read ahead by
/// [`hash_file_read`], anything else in 1 MiB pieces. Regular files are read, not mapped: a
/// file truncated while it is hashed is then an error message, where a mapping would die of
/// SIGBUS.
fn hash_path(key: &LeMacKey, path: &Path) -> io::Result<[u8; 16]> {
    if files::is_dash(path) {
        return hash_reader(key, io::stdin().lock());
    }
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(io::Error::other("Is a directory"));
    }
    let len = meta.len();
    if !meta.is_file() || len == 0 {
        return hash_reader(key, file);
    }
    hash_file_read(key, file, len)
}

/// Bytes read per piece from a regular file.
const PIECE: usize = 4 << 20;

/// Threads reading pieces of one file at once (the page cache copies on several cores).
const READERS: u64 = 2;

/// The LeMac tag of a regular file of `len` bytes read with `pread`: [`READERS`] helper
/// threads read the pieces ahead (piece `i` by thread `i % READERS`) while this thread hashes
/// them in order. A file that changes size meanwhile is an error, never a crash.
fn hash_file_read(key: &LeMacKey, file: File, len: u64) -> io::Result<[u8; 16]> {
    use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};
    let pieces = len.div_ceil(PIECE as u64);
    let mut h = key.hasher();
    let mut total = 0u64;
    std::thread::scope(|s| {
        // Per reader: its pieces in order, and the way back for spent buffers.
        type Lane = (Receiver<io::Result<Vec<u8>>>, Sender<Vec<u8>>);
        let mut lanes: Vec<Lane> = Vec::new();
        for r in 0..READERS.min(pieces) {
            let (tx, rx) = sync_channel::<io::Result<Vec<u8>>>(1);
            let (back, spare) = channel::<Vec<u8>>();
            lanes.push((rx, back));
            let file = &file;
            s.spawn(move || {
                let mut i = r;
                while i < pieces {
                    let at = i * PIECE as u64;
                    let want = (len - at).min(PIECE as u64) as usize;
                    let mut buf = spare.try_recv().unwrap_or_default();
                    buf.resize(want, 0);
                    let r = files::read_at_full(file, &mut buf, at);
                    let got = r.as_ref().map_or(0, |&n| n);
                    buf.truncate(got);
                    let short = got < want;
                    if tx.send(r.map(|_| buf)).is_err() || short {
                        return;
                    }
                    i += READERS;
                }
            });
        }
        for i in 0..pieces {
            let (rx, back) = &lanes[(i % READERS) as usize];
            let Ok(piece) = rx.recv() else {
                break;
            };
            let piece = piece?;
            let short = piece.len() as u64 != (len - i * PIECE as u64).min(PIECE as u64);
            h.update(&piece);
            total += piece.len() as u64;
            let _ = back.send(piece);
            if short {
                break;
            }
        }
        Ok::<(), io::Error>(())
    })?;
    let now = file.metadata()?.len();
    if total != len || now != len {
        return Err(io::Error::other(format!(
            "the file changed while it was read ({len} bytes when opened, {total} read, {now} \
             now): checksum not printed"
        )));
    }
    Ok(h.finalize_tag())
}

fn name_bytes(p: &Path) -> Vec<u8> {
    p.as_os_str().as_encoded_bytes().to_vec()
}

/// `sha256sum`-style escaping: names with a backslash, newline or CR get a leading `\` on
/// the line and those characters escaped.
fn escape(name: &[u8]) -> (bool, Vec<u8>) {
    if !name.iter().any(|&b| matches!(b, b'\\' | b'\n' | b'\r')) {
        return (false, name.to_vec());
    }
    let mut out = Vec::with_capacity(name.len() + 2);
    for &b in name {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(b),
        }
    }
    (true, out)
}

fn unescape(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len());
    let mut it = name.iter();
    while let Some(&b) = it.next() {
        if b == b'\\' {
            match it.next()? {
                b'\\' => out.push(b'\\'),
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                _ => return None,
            }
        } else {
            out.push(b);
        }
    }
    Some(out)
}

fn load_key(path: Option<&Path>) -> Result<LeMacKey> {
    let mut raw = zeroize::Zeroizing::new([0u8; 16]);
    if let Some(p) = path {
        // `keygen -a gift-cofb` writes 16 random bytes: a LeMac key.
        let k = files::read_key(p, 16, "LeMac", "gift-cofb")?;
        raw.copy_from_slice(&k);
    }
    Ok(LeMacKey::new(&raw))
}

/// Tags compared in constant time, as the MAC libraries do.
fn tags_equal(a: &[u8; 16], b: &[u8; 16]) -> bool {
    use subtle::ConstantTimeEq;
    bool::from(a.ct_eq(b))
}

/// `aeadfast sum` / `aeadfast sum -c`.
pub fn run(args: &Args) -> Result<ExitCode> {
    super::set_threads(args.num_threads)?;
    let key = load_key(args.key.as_deref())?;
    let files = if args.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        args.files.clone()
    };
    if args.check {
        return check(args, &key, &files);
    }
    let mut out = io::stdout().lock();
    let mut failed = false;
    for group in files.chunks(GROUP) {
        let tags: Vec<io::Result<[u8; 16]>> =
            group.par_iter().map(|p| hash_path(&key, p)).collect();
        for (path, tag) in group.iter().zip(tags) {
            match tag {
                Ok(t) => {
                    let (escaped, name) = if args.zero {
                        (false, name_bytes(path))
                    } else {
                        escape(&name_bytes(path))
                    };
                    let mut line = Vec::with_capacity(name.len() + 48);
                    if escaped && !args.no_names {
                        line.push(b'\\');
                    }
                    if args.no_names {
                        line.extend_from_slice(hex::encode(t).as_bytes());
                    } else if args.tag {
                        line.extend_from_slice(b"LEMAC (");
                        line.extend_from_slice(&name);
                        line.extend_from_slice(b") = ");
                        line.extend_from_slice(hex::encode(t).as_bytes());
                    } else {
                        line.extend_from_slice(hex::encode(t).as_bytes());
                        line.extend_from_slice(b"  ");
                        line.extend_from_slice(&name);
                    }
                    line.push(if args.zero { 0 } else { b'\n' });
                    out.write_all(&line)
                        .context("cannot write to standard output")?;
                }
                Err(e) => {
                    out.flush().context("cannot write to standard output")?;
                    eprintln!("aeadfast: {}: {}", path.display(), super::os_message(&e));
                    failed = true;
                }
            }
        }
    }
    out.flush().context("cannot write to standard output")?;
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// One parsed check line: the name and the expected tag.
fn parse_line(line: &[u8]) -> Option<(Vec<u8>, [u8; 16])> {
    let (escaped, rest) = match line.strip_prefix(b"\\") {
        Some(r) => (true, r),
        None => (false, line),
    };
    let (name, hex_part): (&[u8], &[u8]) = if let Some(r) = rest.strip_prefix(b"LEMAC (") {
        let close = r.windows(4).rposition(|w| w == b") = ")?;
        (&r[..close], &r[close + 4..])
    } else {
        if rest.len() < 35 || rest[32] != b' ' || !matches!(rest[33], b' ' | b'*') {
            return None;
        }
        (&rest[34..], &rest[..32])
    };
    let mut tag = [0u8; 16];
    hex::decode_to_slice(hex_part, &mut tag).ok()?;
    if name.is_empty() {
        return None;
    }
    let name = if escaped {
        unescape(name)?
    } else {
        name.to_vec()
    };
    Some((name, tag))
}

fn path_from(bytes: Vec<u8>) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        PathBuf::from(OsString::from_vec(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(OsString::from(String::from_utf8_lossy(&bytes).into_owned()))
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn check(args: &Args, key: &LeMacKey, lists: &[PathBuf]) -> Result<ExitCode> {
    let mut ok = true;
    let mut out = io::stdout().lock();
    for list in lists {
        let list_name = if files::is_dash(list) {
            "standard input".to_string()
        } else {
            list.display().to_string()
        };
        let reader: Box<dyn BufRead> = if files::is_dash(list) {
            Box::new(io::stdin().lock())
        } else {
            match File::open(list) {
                Ok(f) => Box::new(BufReader::new(f)),
                Err(e) => {
                    eprintln!("aeadfast: {list_name}: {}", super::os_message(&e));
                    ok = false;
                    continue;
                }
            }
        };
        let mut entries = Vec::new();
        let mut improper = 0u64;
        for (i, line) in reader.split(b'\n').enumerate() {
            let mut line = line.with_context(|| format!("cannot read {list_name}"))?;
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.is_empty() || line.starts_with(b"#") {
                continue;
            }
            match parse_line(&line) {
                Some((name, tag)) => entries.push((path_from(name), tag)),
                None => {
                    improper += 1;
                    if args.strict && !args.status {
                        eprintln!(
                            "aeadfast: {list_name}: line {}: improperly formatted LeMac checksum line",
                            i + 1
                        );
                    }
                }
            }
        }
        if entries.is_empty() {
            if !args.status {
                eprintln!(
                    "aeadfast: {list_name}: no properly formatted LeMac checksum lines found"
                );
            }
            ok = false;
            continue;
        }
        let (mut mismatched, mut unreadable, mut verified) = (0u64, 0u64, 0u64);
        for group in entries.chunks(GROUP) {
            let tags: Vec<io::Result<[u8; 16]>> =
                group.par_iter().map(|(p, _)| hash_path(key, p)).collect();
            for ((path, want), got) in group.iter().zip(tags) {
                // As sha256sum: an escaped name is printed with a leading backslash.
                let (escaped, shown) = escape(&name_bytes(path));
                let shown = format!(
                    "{}{}",
                    if escaped { "\\" } else { "" },
                    String::from_utf8_lossy(&shown)
                );
                match got {
                    Err(e) if args.ignore_missing && e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => {
                        unreadable += 1;
                        if !args.status {
                            out.flush().ok();
                            eprintln!("aeadfast: {}: {}", path.display(), super::os_message(&e));
                            writeln!(out, "{shown}: FAILED open or read")?;
                        }
                    }
                    Ok(t) if tags_equal(&t, want) => {
                        verified += 1;
                        if !args.status && !args.quiet {
                            writeln!(out, "{shown}: OK")?;
                        }
                    }
                    Ok(_) => {
                        mismatched += 1;
                        if !args.status {
                            writeln!(out, "{shown}: FAILED")?;
                        }
                    }
                }
            }
        }
        out.flush().context("cannot write to standard output")?;
        if !args.status {
            if improper > 0 {
                let l = plural(improper, "line is", "lines are");
                eprintln!("aeadfast: WARNING: {l} improperly formatted");
            }
            if unreadable > 0 {
                let l = plural(unreadable, "listed file", "listed files");
                eprintln!("aeadfast: WARNING: {l} could not be read");
            }
            if mismatched > 0 {
                let l = plural(mismatched, "computed checksum", "computed checksums");
                eprintln!("aeadfast: WARNING: {l} did NOT match");
            }
        }
        if args.ignore_missing && verified + mismatched + unreadable == 0 {
            if !args.status {
                eprintln!("aeadfast: {list_name}: no file was verified");
            }
            ok = false;
        }
        if mismatched > 0 || unreadable > 0 || (args.strict && improper > 0) {
            ok = false;
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_escape() {
        let t = [0xabu8; 16];
        let h = hex::encode(t);
        assert_eq!(
            parse_line(format!("{h}  a b").as_bytes()),
            Some((b"a b".to_vec(), t))
        );
        assert_eq!(
            parse_line(format!("{h} *x").as_bytes()),
            Some((b"x".to_vec(), t))
        );
        assert_eq!(
            parse_line(format!("LEMAC (a) = b) = {h}").as_bytes()),
            Some((b"a) = b".to_vec(), t))
        );
        assert_eq!(
            parse_line(format!("\\{h}  a\\nb\\\\").as_bytes()),
            Some((b"a\nb\\".to_vec(), t))
        );
        assert_eq!(parse_line(format!("{h} x").as_bytes()), None);
        assert_eq!(parse_line(format!("{h}  ").as_bytes()), None);
        assert_eq!(parse_line(b"zz"), None);
        let (e, s) = escape(b"a\nb\\");
        assert!(e);
        assert_eq!(unescape(&s).unwrap(), b"a\nb\\");
        assert_eq!(escape(b"plain"), (false, b"plain".to_vec()));
    }

    #[test]
    fn tags_compare_equal_only_when_equal() {
        let a = [7u8; 16];
        assert!(tags_equal(&a, &a));
        for i in 0..16 {
            for bit in 0..8 {
                let mut b = a;
                b[i] ^= 1 << bit;
                assert!(!tags_equal(&a, &b), "{i} {bit}");
            }
        }
    }
}
