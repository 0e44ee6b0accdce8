//! Where encrypted or decrypted output goes, and the rules that keep files safe:
//!
//! * `-` is standard output; a character device or a FIFO (`/dev/null`, a named pipe) is
//!   written directly, in order, like standard output. A block device or a socket is refused.
//! * A regular file is written to a temporary file in its directory — unnamed (`O_TMPFILE`)
//!   where the file system allows it, so it vanishes with the process whatever happens; a
//!   hidden `.NAME.aeadfast-partial-XXXXXX` file otherwise, removed on errors and signals —
//!   then synced and linked or renamed into place only when everything succeeded.
//! * An existing regular file is replaced only with `--force`, by the same rename; the new file
//!   keeps the old one's permission bits, and its owner and group where the process may set
//!   them. A file with other hard links is refused (a rename would split the links).
//! * New files get mode 0666 minus the umask, as `cp` and `gpg -o` give them.
//!
//! The destination is checked before any work, and the temporary file is created only when
//! there is something to write.

use std::fs::{self, File};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

use super::signals;

/// A regular file being replaced: what the new file takes over from it.
#[derive(Clone, Copy, Debug)]
struct Replaced {
    mode: u32,
    #[cfg(unix)]
    uid: u32,
    #[cfg(unix)]
    gid: u32,
}

/// The temporary file of an atomic output.
enum Temp {
    /// Unnamed (`O_TMPFILE`): linked into place by commit.
    Unnamed(File),
    /// Named, registered with the signal handler.
    Named(File, PathBuf),
}

impl Temp {
    fn file(&mut self) -> &mut File {
        match self {
            Temp::Unnamed(f) | Temp::Named(f, _) => f,
        }
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        // An empty path: it was moved into place.
        if let Temp::Named(_, path) = self
            && !path.as_os_str().is_empty()
        {
            let _ = fs::remove_file(&*path);
            signals::unregister(path);
        }
    }
}

enum Kind {
    Stdout(io::Stdout),
    /// A character device or FIFO, opened when first needed.
    Direct(PathBuf, Option<File>),
    Atomic {
        dest: PathBuf,
        dir: PathBuf,
        replace: Option<Replaced>,
        temp: Option<Temp>,
    },
}

/// A checked destination.
pub struct Output {
    kind: Kind,
    /// Bytes written so far (for the messages about incomplete output).
    written: u64,
    name: String,
}

/// Counts what goes through to the inner writer.
struct Counted<'a> {
    inner: &'a mut dyn Write,
    written: &'a mut u64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        *self.written += n as u64;
        Ok(n)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)?;
        *self.written += buf.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Whether `path` is `-`.
pub fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

impl Output {
    /// Checks `path` as a destination (`-`: standard output) before any work: binary data
    /// never goes to a terminal; an existing file needs `force`; the directory must exist.
    ///
    /// # Errors
    /// A message saying what is wrong with the destination.
    pub fn check(path: &Path, force: bool, binary: bool) -> Result<Output> {
        if is_dash(path) {
            if binary && io::stdout().is_terminal() {
                bail!(
                    "refusing to write binary data to a terminal: give -o FILE or redirect \
                     standard output"
                );
            }
            return Ok(Output {
                kind: Kind::Stdout(io::stdout()),
                written: 0,
                name: "standard output".into(),
            });
        }
        let name = path.display().to_string();
        let text = path.as_os_str().as_encoded_bytes();
        if text.ends_with(b"/") || path.file_name().is_none() {
            bail!("output {name} names a directory, not a file: give a file name");
        }
        // Follow a symbolic link: its target is what gets written (as with cp).
        let dest = match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path).map_err(|_| {
                anyhow!("output {name} is a symbolic link to a missing file: give another -o")
            })?,
            _ => path.to_path_buf(),
        };
        let meta = match fs::metadata(&dest) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("cannot check output {name}")),
        };
        let mut replace = None;
        if let Some(m) = &meta {
            let t = m.file_type();
            if t.is_dir() {
                bail!("output {name} is a directory: give a file name");
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt;
                if t.is_char_device() || t.is_fifo() {
                    return Ok(Output {
                        kind: Kind::Direct(dest, None),
                        written: 0,
                        name,
                    });
                }
                if t.is_block_device() || t.is_socket() {
                    bail!(
                        "output {name} is a block device or a socket: aeadfast writes regular \
                         files, character devices and pipes (use `-o - | dd of=...` for a \
                         device)"
                    );
                }
            }
            if !force {
                bail!(
                    "output {name} already exists: use --force to replace it, or choose another -o"
                );
            }
            replace = Some(replaced(m, &name)?);
        }
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        match fs::metadata(&dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => bail!("cannot write {name}: {} is not a directory", dir.display()),
            Err(_) => bail!(
                "cannot write {name}: the directory {} does not exist",
                dir.display()
            ),
        }
        Ok(Output {
            kind: Kind::Atomic {
                dest,
                dir,
                replace,
                temp: None,
            },
            written: 0,
            name,
        })
    }

    /// The name for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether output goes straight out (standard output, a device, a pipe): what was
    /// written stays written if a later step fails.
    pub fn is_direct(&self) -> bool {
        !matches!(self.kind, Kind::Atomic { .. })
    }

    /// Whether this is standard output.
    pub fn is_stdout(&self) -> bool {
        matches!(self.kind, Kind::Stdout(_))
    }

    /// What became of the output after a failure, for the error message.
    pub fn failure_note(&self) -> String {
        if !self.is_direct() {
            "no output file was written".to_string()
        } else if self.written == 0 {
            "nothing was written".to_string()
        } else {
            format!(
                "the {} bytes written to {} are INCOMPLETE: discard them",
                self.written, self.name
            )
        }
    }

    /// The writer (creating the temporary file, or opening the device, on first use).
    ///
    /// # Errors
    /// If the temporary file cannot be created or the device opened.
    pub fn writer(&mut self) -> Result<impl Write + '_> {
        let inner: &mut dyn Write = match &mut self.kind {
            Kind::Stdout(out) => out,
            Kind::Direct(path, file) => {
                if file.is_none() {
                    let f = fs::OpenOptions::new()
                        .write(true)
                        .open(&*path)
                        .with_context(|| format!("cannot open output {}", self.name))?;
                    *file = Some(f);
                }
                file.as_mut().expect("opened")
            }
            Kind::Atomic {
                dest, dir, temp, ..
            } => {
                if temp.is_none() {
                    *temp = Some(create_temp(dir, dest, false).with_context(|| {
                        format!(
                            "cannot create a temporary file in {} (the output directory must be \
                             writable)",
                            dir.display()
                        )
                    })?);
                }
                temp.as_mut().expect("created").file()
            }
        };
        Ok(Counted {
            inner,
            written: &mut self.written,
        })
    }

    /// Writes all of `data`.
    ///
    /// # Errors
    /// As [`writer`](Self::writer), or the write error.
    pub fn write_all(&mut self, data: &[u8]) -> Result<()> {
        let name = self.name.clone();
        self.writer()?
            .write_all(data)
            .with_context(|| format!("cannot write {name}"))
    }

    /// Makes the output final: flushes standard output or the device; syncs the temporary
    /// file and links or renames it into place (without `--force`, never over a file that
    /// appeared meanwhile).
    ///
    /// # Errors
    /// Flush, sync or rename failures (the temporary file is then removed).
    pub fn commit(mut self) -> Result<()> {
        let name = self.name.clone();
        match &mut self.kind {
            Kind::Stdout(out) => out.flush().context("cannot write to standard output"),
            // Written without buffering: nothing is pending.
            Kind::Direct(..) => Ok(()),
            Kind::Atomic {
                dest,
                dir,
                replace,
                temp,
            } => {
                if temp.is_none() {
                    *temp = Some(create_temp(dir, dest, false).with_context(|| {
                        format!("cannot create a temporary file in {}", dir.display())
                    })?);
                }
                let mut t = temp.take().expect("created");
                let f = t.file();
                if let Some(r) = replace {
                    take_over(f, r);
                }
                f.sync_all()
                    .with_context(|| format!("cannot sync the output for {name} to disk"))?;
                put_in_place(t, dest, dir, replace.is_some())
                    .with_context(|| format!("cannot move the output into place at {name}"))?;
                // Make the new name durable; not every file system can.
                if let Ok(d) = File::open(&*dir) {
                    let _ = d.sync_all();
                }
                Ok(())
            }
        }
    }
}

/// What a replaced file hands on, or why it cannot be replaced.
fn replaced(m: &fs::Metadata, name: &str) -> Result<Replaced> {
    if !m.is_file() {
        bail!("output {name} is not a regular file: --force replaces only regular files");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if m.nlink() > 1 {
            bail!(
                "output {name} has {} hard links: replacing it would leave the other names \
                 with the old content; remove it first or choose another -o",
                m.nlink()
            );
        }
        Ok(Replaced {
            mode: m.mode() & 0o7777,
            uid: m.uid(),
            gid: m.gid(),
        })
    }
    #[cfg(not(unix))]
    Ok(Replaced { mode: 0 })
}

/// Gives the new file the replaced file's permission bits, and its owner and group where
/// permitted (best effort: otherwise it belongs to the user running aeadfast).
fn take_over(f: &File, r: &Replaced) {
    #[cfg(unix)]
    {
        use rustix::fs::{Gid, Mode, Uid, fchmod, fchown};
        let uid = Uid::from_raw(r.uid);
        let gid = Gid::from_raw(r.gid);
        if fchown(f, Some(uid), Some(gid)).is_err() {
            let _ = fchown(f, None, Some(gid));
        }
        // After the chown, which may clear set-id bits.
        let _ = fchmod(f, Mode::from_raw_mode(r.mode));
    }
    #[cfg(not(unix))]
    let _ = (f, r);
}

/// A temporary file in `dir` for `dest` (readable too if `read`).
fn create_temp(dir: &Path, dest: &Path, read: bool) -> io::Result<Temp> {
    // The tests set this to exercise the named temporary files of other file systems.
    #[cfg(target_os = "linux")]
    if std::env::var_os("AEADFAST_TEST_NAMED_TEMP").is_none() {
        use rustix::fs::{CWD, Mode, OFlags, openat};
        let access = if read { OFlags::RDWR } else { OFlags::WRONLY };
        match openat(
            CWD,
            dir,
            access | OFlags::TMPFILE | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o666),
        ) {
            Ok(fd) => return Ok(Temp::Unnamed(File::from(fd))),
            // Not supported by this file system (or kernel): a named one instead.
            Err(
                rustix::io::Errno::OPNOTSUPP
                | rustix::io::Errno::ISDIR
                | rustix::io::Errno::INVAL
                | rustix::io::Errno::NOSYS,
            ) => {}
            Err(e) => return Err(e.into()),
        }
    }
    named_temp(dir, dest, "partial")
}

/// A hidden, registered temporary file `.NAME.aeadfast-WHAT-XXXXXX` in `dir`.
fn named_temp(dir: &Path, dest: &Path, what: &str) -> io::Result<Temp> {
    let base = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut guard = signals::quiet();
    let prefix = format!(".{base}.aeadfast-{what}-");
    let mut b = tempfile::Builder::new();
    b.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(fs::Permissions::from_mode(0o666));
    }
    let (file, path) = b.tempfile_in(dir)?.keep().map_err(|e| e.error)?;
    guard.register(&path);
    Ok(Temp::Named(file, path))
}

/// Links (unnamed) or renames (named) the temporary file to `dest`; over an existing file only
/// when `replace`.
fn put_in_place(mut t: Temp, dest: &Path, dir: &Path, replace: bool) -> io::Result<()> {
    match &mut t {
        #[cfg(target_os = "linux")]
        Temp::Unnamed(f) => {
            if !replace {
                return link_unnamed(f, dest).map_err(no_clobber);
            }
            // Give it a registered name, then rename that over the destination.
            let mut guard = signals::quiet();
            let named = loop {
                let mut r = [0u8; 6];
                aeadfast_file::random_bytes(&mut r)?;
                let base = dest.file_name().unwrap_or_default().to_string_lossy();
                let p = dir.join(format!(".{base}.aeadfast-done-{}", hex::encode(r)));
                match link_unnamed(f, &p) {
                    Ok(()) => break p,
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                    Err(e) => return Err(e),
                }
            };
            guard.register(&named);
            let r = fs::rename(&named, dest);
            if r.is_err() {
                let _ = fs::remove_file(&named);
            }
            guard.unregister(&named);
            r
        }
        #[cfg(not(target_os = "linux"))]
        Temp::Unnamed(_) => unreachable!("unnamed temporary files exist on Linux only"),
        Temp::Named(_, path) => {
            let mut guard = signals::quiet();
            let r = if replace {
                fs::rename(&*path, dest)
            } else {
                rename_no_replace(path, dest).map_err(no_clobber)
            };
            if r.is_ok() {
                guard.unregister(path);
                *path = PathBuf::new();
            }
            r
        }
    }
}

/// Renames `from` to `to` unless `to` exists (atomically where the system can).
fn rename_no_replace(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        match renameat_with(CWD, from, CWD, to, RenameFlags::NOREPLACE) {
            Ok(()) => return Ok(()),
            Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => {}
            Err(e) => return Err(e.into()),
        }
    }
    // A hard link never replaces an existing file.
    fs::hard_link(from, to)?;
    fs::remove_file(from)
}

fn no_clobber(e: io::Error) -> io::Error {
    if e.kind() == io::ErrorKind::AlreadyExists {
        io::Error::new(
            io::ErrorKind::AlreadyExists,
            "the file appeared while aeadfast was working: not overwritten (use --force to \
             replace it)",
        )
    } else {
        e
    }
}

/// Gives an unnamed (`O_TMPFILE`) file the name `dest`; fails if `dest` exists.
#[cfg(target_os = "linux")]
fn link_unnamed(f: &File, dest: &Path) -> io::Result<()> {
    use std::os::fd::AsRawFd;

    use rustix::fs::{AtFlags, CWD, linkat};
    let proc_path = format!("/proc/self/fd/{}", f.as_raw_fd());
    match linkat(CWD, proc_path.as_str(), CWD, dest, AtFlags::SYMLINK_FOLLOW) {
        Ok(()) => Ok(()),
        Err(rustix::io::Errno::NOENT) if fs::metadata("/proc/self/fd").is_err() => {
            // No /proc: linking by descriptor needs CAP_DAC_READ_SEARCH.
            linkat(f, "", CWD, dest, AtFlags::EMPTY_PATH).map_err(Into::into)
        }
        Err(e) => Err(e.into()),
    }
}

/// Creates a hidden, registered scratch file in `dir` for data that must not outlive the
/// process (unnamed where possible): used to hold standard input when a format needs to read
/// its input twice.
///
/// # Errors
/// If no file can be created in `dir`.
pub fn scratch_file(dir: &Path) -> io::Result<ScratchFile> {
    let t = create_temp(dir, Path::new("stdin"), true)?;
    Ok(ScratchFile(t))
}

/// A scratch file from [`scratch_file`], removed when dropped.
pub struct ScratchFile(Temp);

impl ScratchFile {
    /// The open file.
    pub fn file(&mut self) -> &mut File {
        self.0.file()
    }
}
