//! What the file subcommands share: opening inputs, reading key, nonce, tag, associated-data
//! and passphrase files with hard size limits (never silently cut), the passphrase prompt,
//! and the error type that means "exit status 1".

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use aeadfast_file::Error;
use anyhow::{Context, Result, anyhow, bail};
use zeroize::Zeroizing;

pub use super::output::is_dash;
pub use super::progress::progress;
use super::signals::PromptGuard;

/// A failure that means the data did not verify or a check failed: exit status 1
/// (everything else that goes wrong exits with 2).
#[derive(Debug)]
pub struct Rejected(pub String);

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Rejected {}

/// An error of the library as the CLI reports it, in one line that ends with `note` (what
/// became of the output); verification failures exit with 1.
pub fn report(e: io::Error, context: &str, note: &str) -> anyhow::Error {
    let tail = if note.is_empty() {
        String::new()
    } else {
        format!("; {note}")
    };
    match Error::from_io(&e) {
        Some(Error::Auth { index: 0, .. }) => Rejected(format!(
            "{context}: authentication failed on the first chunk: wrong key or passphrase, \
             wrong --ad, or the file is corrupted{tail}"
        ))
        .into(),
        Some(f) if f.is_verification() => Rejected(format!("{context}: {f}{tail}")).into(),
        Some(f @ Error::KdfLimit { .. }) => {
            anyhow!("{context}: {f}; add --allow-expensive-kdf to accept it{tail}")
        }
        Some(f) => anyhow!("{context}: {f}{tail}"),
        None if note.is_empty() => anyhow::Error::new(e).context(context.to_string()),
        None => anyhow::Error::new(e).context(format!("{context} ({note})")),
    }
}

/// An opened input: standard input or a file.
pub struct Input {
    handle: Handle,
    /// Its length, when it is a regular file.
    pub len: Option<u64>,
    /// The name for messages.
    pub name: String,
}

enum Handle {
    Stdin(io::Stdin),
    File(File),
}

/// Reads of at least this many bytes from a regular file are split in two halves that two
/// threads copy out of the page cache at once: that copy, not the decryption, is what bounds
/// decrypting to a fast sink.
const SPLIT_READ: usize = 1 << 20;

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match &mut self.handle {
            Handle::Stdin(s) => s.read(buf),
            Handle::File(f)
                if self.len.is_some()
                    && buf.len() >= SPLIT_READ
                    && rayon::current_num_threads() > 1 =>
            {
                split_read(f, buf)
            }
            Handle::File(f) => f.read(buf),
        }
    }
}

/// `read` of a regular file as two positional reads of the two halves of `buf` run by
/// `rayon::join`, from the file's position, which is then moved past what was read. Returns
/// fewer bytes than `buf.len()` only at the end of the file (or where the first half's read
/// stopped early).
fn split_read(f: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    use std::io::{Seek, SeekFrom};
    let at = f.stream_position()?;
    let half = buf.len() / 2;
    let (a, b) = buf.split_at_mut(half);
    let file = &*f;
    let (first, second) = rayon::join(
        || read_at_full(file, a, at),
        || read_at_full(file, b, at + half as u64),
    );
    let first = first?;
    let n = if first < half { first } else { half + second? };
    f.seek(SeekFrom::Start(at + n as u64))?;
    Ok(n)
}

/// Fills `buf` from `file` at `offset` with positional reads, short only at the end of the
/// file; returns the bytes read.
pub fn read_at_full(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    let mut got = 0;
    while got < buf.len() {
        match file.read_at(&mut buf[got..], offset + got as u64) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

impl Input {
    /// Opens `path` (`-`: standard input).
    ///
    /// # Errors
    /// A missing or unreadable file, or a directory.
    pub fn open(path: &Path) -> Result<Input> {
        if is_dash(path) {
            return Ok(Input {
                handle: Handle::Stdin(io::stdin()),
                len: None,
                name: "standard input".into(),
            });
        }
        let name = path.display().to_string();
        let file = File::open(path).with_context(|| format!("cannot open input {name}"))?;
        let meta = file
            .metadata()
            .with_context(|| format!("cannot read the metadata of {name}"))?;
        if meta.is_dir() {
            bail!("input {name} is a directory: give a file (or - for standard input)");
        }
        Ok(Input {
            handle: Handle::File(file),
            len: meta.is_file().then_some(meta.len()),
            name,
        })
    }

    /// The file, when the input is a regular file.
    pub fn regular_file(&mut self) -> Option<&mut File> {
        match &mut self.handle {
            Handle::File(f) if self.len.is_some() => Some(f),
            _ => None,
        }
    }
}

/// Whether `arg` looks like key material (32 or more hex digits) rather than a path.
fn looks_like_key(arg: &Path) -> bool {
    let s = arg.as_os_str().as_encoded_bytes();
    s.len() >= 32 && s.iter().all(u8::is_ascii_hexdigit)
}

/// Opens a small file of `what` named on the command line; a missing file whose name looks
/// like key material is reported without repeating the name.
fn open_small(path: &Path, what: &str) -> Result<File> {
    File::open(path).map_err(|e| {
        if looks_like_key(path) {
            anyhow!(
                "the {what} given does not exist; the argument looks like a hex key, so it is \
                 not repeated here: the option takes the path of a FILE holding the key"
            )
        } else {
            anyhow::Error::new(e).context(format!("cannot read {what} {}", path.display()))
        }
    })
}

/// Reads at most `cap` bytes of `path`; `None` if the file holds more.
fn read_capped(path: &Path, what: &str, cap: usize) -> Result<(Zeroizing<Vec<u8>>, bool)> {
    let f = open_small(path, what)?;
    let mut data = Zeroizing::new(Vec::new());
    f.take(cap as u64 + 1)
        .read_to_end(&mut data)
        .with_context(|| format!("cannot read {what} {}", path.display()))?;
    let over = data.len() > cap;
    data.truncate(cap);
    Ok((data, over))
}

/// Reads a raw key file for `user` (the algorithm named in messages) that must hold exactly
/// `len` bytes, reading at most `len + 1`; `keygen` is the `keygen -a` value that makes one.
///
/// # Errors
/// A missing file, or one of another length (the message says how to make a key).
pub fn read_key(path: &Path, len: usize, user: &str, keygen: &str) -> Result<Zeroizing<Vec<u8>>> {
    let (key, over) = read_capped(path, "key file", len)?;
    if over || key.len() != len {
        let holds = if over {
            format!("more than {len} bytes")
        } else {
            format!("{} bytes", key.len())
        };
        bail!(
            "key file {} holds {holds}, but {user} needs a {len}-byte raw key (make one with \
             `aeadfast keygen -a {keygen} -o FILE`)",
            path.display()
        );
    }
    Ok(key)
}

/// Reads a file that must hold at most `cap` bytes, refusing a longer one.
///
/// # Errors
/// A missing file, or one over the limit.
pub fn read_limited(path: &Path, what: &str, cap: usize) -> Result<Vec<u8>> {
    let (data, over) = read_capped(path, what, cap)?;
    if over {
        bail!(
            "{what} {} is larger than {}: refused (it is never cut short)",
            path.display(),
            human(cap as u64)
        );
    }
    Ok(data.to_vec())
}

/// `n` bytes in words (KiB / MiB).
pub fn human(n: u64) -> String {
    match n {
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n if n >= 1 << 10 && n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
        n => format!("{n} bytes"),
    }
}

/// Longest passphrase file line read.
const PASSPHRASE_CAP: usize = 64 << 10;

/// A passphrase from `file` (its first line) or, if `prompt`, from the terminal (twice when
/// `confirm`). An interrupted prompt restores the terminal.
///
/// # Errors
/// An empty passphrase, a first line over 64 KiB, no terminal, mismatching repeats.
pub fn passphrase(
    file: Option<&Path>,
    prompt: bool,
    confirm: bool,
) -> Result<Option<Zeroizing<Vec<u8>>>> {
    let pass = if let Some(p) = file {
        let (mut data, over) = read_capped(p, "passphrase file", PASSPHRASE_CAP)?;
        match data.iter().position(|&b| b == b'\n') {
            Some(end) => data.truncate(end),
            None if over => bail!(
                "passphrase file {}: its first line is longer than 64 KiB",
                p.display()
            ),
            None => {}
        }
        if data.last() == Some(&b'\r') {
            data.pop();
        }
        data
    } else if prompt {
        let _guard = PromptGuard::save();
        let first = Zeroizing::new(
            rpassword::prompt_password("Passphrase: ")
                .context("cannot read the passphrase from the terminal (use --passphrase-file)")?,
        );
        if confirm {
            let again = Zeroizing::new(
                rpassword::prompt_password("Repeat passphrase: ")
                    .context("cannot read the passphrase from the terminal")?,
            );
            if *again != *first {
                bail!("the passphrases do not match");
            }
        }
        Zeroizing::new(first.as_bytes().to_vec())
    } else {
        return Ok(None);
    };
    if pass.is_empty() {
        bail!("the passphrase is empty");
    }
    Ok(Some(pass))
}

/// Parses hex of exactly `N` bytes.
///
/// # Errors
/// If `s` is not `2N` hex digits.
pub fn parse_hex<const N: usize>(s: &str, what: &str) -> Result<[u8; N]> {
    let mut out = [0u8; N];
    hex::decode_to_slice(s.trim(), &mut out)
        .map_err(|_| anyhow!("{what} must be {} hex digits", 2 * N))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_like_arguments() {
        assert!(looks_like_key(Path::new(&"ab".repeat(32))));
        assert!(!looks_like_key(Path::new("secret.key")));
        assert!(!looks_like_key(Path::new("abcd")));
        assert_eq!(human(64 << 20), "64 MiB");
        assert_eq!(human(1000), "1000 bytes");
    }

    /// Large reads of a regular file (split in two halves read at once) return the file's
    /// bytes in order, keep the file position, and end with a short read and then 0.
    #[test]
    fn split_reads_return_the_file_in_order() {
        let len = 3 * SPLIT_READ + 12345;
        let data: Vec<u8> = (0..len).map(|i| (i * 7 + i / 251) as u8).collect();
        let mut f = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut f, &data).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        pool.install(|| {
            let mut input = Input::open(f.path()).unwrap();
            let mut head = [0u8; 100];
            input.read_exact(&mut head).unwrap();
            let mut got = head.to_vec();
            let mut buf = vec![0u8; 2 * SPLIT_READ];
            let mut sizes = Vec::new();
            loop {
                let n = input.read(&mut buf).unwrap();
                sizes.push(n);
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            assert!(got == data, "the bytes read differ from the file");
            assert_eq!(sizes, [2 * SPLIT_READ, len - 100 - 2 * SPLIT_READ, 0]);
        });
    }
}
