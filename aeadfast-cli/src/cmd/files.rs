//! What the file subcommands share: opening inputs, atomic outputs, key and AD files,
//! passphrases, progress bars, and the error type that means "exit status 1".

use std::fmt;
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressStyle};
use tempfile::NamedTempFile;

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

/// Whether `path` is `-` (standard input or output).
pub fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// An opened input.
pub struct Input {
    /// The data.
    pub reader: Box<dyn Read + Send>,
    /// Its length, when it is a regular file.
    pub len: Option<u64>,
    /// A second handle of the file, when it is a regular file (for memory mapping).
    pub file: Option<File>,
    /// The name for messages.
    pub name: String,
}

/// Opens `path` (`-`: standard input).
pub fn open_input(path: &Path) -> Result<Input> {
    if is_dash(path) {
        return Ok(Input {
            reader: Box::new(io::stdin()),
            len: None,
            file: None,
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
    let regular = meta.is_file();
    let second = if regular { file.try_clone().ok() } else { None };
    Ok(Input {
        reader: Box::new(file),
        len: regular.then_some(meta.len()),
        file: second,
        name,
    })
}

/// Where output goes: standard output, or a temporary file in the destination's directory
/// that is renamed over the destination only by [`commit`](Sink::commit). Dropping a file
/// sink without committing deletes the temporary file and leaves the destination untouched.
pub enum Sink {
    /// Standard output.
    Stdout(io::Stdout),
    /// A temporary file that becomes `dest`.
    File {
        /// The temporary file.
        tmp: NamedTempFile,
        /// The destination.
        dest: PathBuf,
        /// Replace an existing destination.
        force: bool,
    },
}

impl Sink {
    /// Prepares the output `path` (`-`: standard output). Fails up front if the destination
    /// exists and `force` is not set, or if `binary` data would go to a terminal.
    pub fn create(path: &Path, force: bool, binary: bool) -> Result<Sink> {
        if is_dash(path) {
            let out = io::stdout();
            if binary && out.is_terminal() {
                bail!(
                    "refusing to write binary data to a terminal: give -o FILE or redirect \
                     standard output"
                );
            }
            return Ok(Sink::Stdout(out));
        }
        let dest = path.to_path_buf();
        check_free(&dest, force)?;
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let tmp = tempfile::Builder::new()
            .prefix(".aeadfast-")
            .suffix(".partial")
            .tempfile_in(&dir)
            .with_context(|| {
                format!(
                    "cannot create a temporary file in {} (the output directory must exist \
                     and be writable)",
                    dir.display()
                )
            })?;
        Ok(Sink::File { tmp, dest, force })
    }

    /// The writer.
    pub fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(o) => o,
            Sink::File { tmp, .. } => tmp.as_file_mut(),
        }
    }

    /// Whether this is standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self, Sink::Stdout(_))
    }

    /// Makes the output final: flushes standard output, or syncs the temporary file and
    /// renames it into place (without `--force`, never over an existing file).
    pub fn commit(self) -> Result<()> {
        match self {
            Sink::Stdout(mut o) => o.flush().context("cannot write to standard output"),
            Sink::File { tmp, dest, force } => {
                let name = dest.display().to_string();
                tmp.as_file()
                    .sync_all()
                    .with_context(|| format!("cannot sync the output for {name} to disk"))?;
                if force {
                    tmp.persist(&dest).map_err(|e| {
                        anyhow!("cannot move the output into place at {name}: {}", e.error)
                    })?;
                } else {
                    tmp.persist_noclobber(&dest).map_err(|e| {
                        if e.error.kind() == io::ErrorKind::AlreadyExists {
                            anyhow!("{name} appeared while working: not overwritten (use --force to replace it)")
                        } else {
                            anyhow!("cannot move the output into place at {name}: {}", e.error)
                        }
                    })?;
                }
                if let Some(dir) = dest.parent().filter(|d| !d.as_os_str().is_empty()) {
                    // Make the rename itself durable; not every platform or file system can.
                    if let Ok(d) = File::open(dir) {
                        let _ = d.sync_all();
                    }
                }
                Ok(())
            }
        }
    }
}

/// Fails if `dest` exists (a directory always; a file unless `force`).
pub fn check_free(dest: &Path, force: bool) -> Result<()> {
    match std::fs::symlink_metadata(dest) {
        Ok(m) if m.is_dir() => bail!("output {} is a directory: give a file name", dest.display()),
        Ok(_) if !force => bail!(
            "output {} already exists: use --force to replace it, or choose another -o",
            dest.display()
        ),
        _ => Ok(()),
    }
}

/// Reads a whole small file (key, AD, nonce, passphrase), with a clear error.
pub fn read_small(path: &Path, what: &str) -> Result<Vec<u8>> {
    let mut data = Vec::new();
    File::open(path)
        .and_then(|f| f.take(1 << 26).read_to_end(&mut data))
        .with_context(|| format!("cannot read {what} {}", path.display()))?;
    Ok(data)
}

/// Reads a raw key file that must hold `len` bytes.
pub fn read_key(path: &Path, len: usize, algorithm: &str) -> Result<Vec<u8>> {
    let key = read_small(path, "key file")?;
    if key.len() != len {
        bail!(
            "key file {} holds {} bytes, but {algorithm} needs a {len}-byte raw key (make one \
             with `aeadfast keygen -a {algorithm} -o FILE`)",
            path.display(),
            key.len()
        );
    }
    Ok(key)
}

/// The associated data from `--ad` or `--ad-file` (empty if neither).
pub fn read_ad(ad: Option<&str>, ad_file: Option<&Path>) -> Result<Vec<u8>> {
    Ok(match (ad, ad_file) {
        (Some(s), _) => s.as_bytes().to_vec(),
        (None, Some(p)) => read_small(p, "associated-data file")?,
        (None, None) => Vec::new(),
    })
}

/// A passphrase from `file` (first line) or, if `prompt`, from the terminal.
pub fn passphrase(file: Option<&Path>, prompt: bool, confirm: bool) -> Result<Option<Vec<u8>>> {
    let pass = if let Some(p) = file {
        let mut data = read_small(p, "passphrase file")?;
        if let Some(end) = data.iter().position(|&b| b == b'\n') {
            data.truncate(end);
        }
        if data.last() == Some(&b'\r') {
            data.pop();
        }
        data
    } else if prompt {
        let first = rpassword::prompt_password("Passphrase: ")
            .context("cannot read the passphrase from the terminal (use --passphrase-file)")?;
        if confirm {
            let again = rpassword::prompt_password("Repeat passphrase: ")
                .context("cannot read the passphrase from the terminal")?;
            if again != first {
                bail!("the passphrases do not match");
            }
        }
        first.into_bytes()
    } else {
        return Ok(None);
    };
    if pass.is_empty() {
        bail!("the passphrase is empty");
    }
    Ok(Some(pass))
}

/// A progress bar on standard error if that is a terminal (hidden otherwise).
pub fn progress(len: Option<u64>, what: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = match len {
        Some(l) => ProgressBar::new(l),
        None => ProgressBar::no_length(),
    };
    let template = if len.is_some() {
        "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}"
    } else {
        "{msg} {bytes} {bytes_per_sec}"
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        pb.set_style(style.progress_chars("=> "));
    }
    pb.set_message(what.to_string());
    pb
}

/// Parses hex of exactly `N` bytes.
pub fn parse_hex<const N: usize>(s: &str, what: &str) -> Result<[u8; N]> {
    let mut out = [0u8; N];
    hex::decode_to_slice(s.trim(), &mut out)
        .map_err(|_| anyhow!("{what} must be {} hex digits", 2 * N))?;
    Ok(out)
}
