//! `--format hiae` / `--format hiae-detached`: libhiae's file layouts (the `aeadfast-file`
//! crate's `libhiae` module), byte-compatible, with atomic output and nothing released before
//! the tag verified.

use std::fs::File;
use std::io::{self, Cursor, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use aeadfast_file::libhiae::{self, HiaeFile, NONCE_LEN, PREAMBLE_LEN, TAG_LEN};
use aeadfast_file::{Algorithm, random_bytes};
use anyhow::{Context, Result, anyhow, bail};

use super::files::{self, Input, Rejected, report};
use super::options::{Common, DecryptArgs, EncryptArgs, FileFormat};
use super::output::{self, Output};
use super::progress::{Counting, Progress};

/// Largest libhiae file decrypted to standard output, a device or a pipe (held in memory
/// until verified).
pub const MEMORY_LIMIT: u64 = 64 << 20;

fn key(c: &Common) -> Result<HiaeFile> {
    if c.algorithm.is_some_and(|a| a != Algorithm::Hiae) {
        bail!("the libhiae formats use HiAE only: drop -a or use -a hiae");
    }
    if c.passphrase || c.passphrase_file.is_some() {
        bail!("the libhiae formats take a raw key file (-k KEYFILE), not a passphrase");
    }
    let path = c.key.as_deref().ok_or_else(|| {
        anyhow!("no key given: use -k KEYFILE (a raw 32-byte key, e.g. from `hiae keygen`)")
    })?;
    let key = files::read_key(path, libhiae::KEY_LEN, "hiae", "hiae")?;
    Ok(HiaeFile::new(&key)?)
}

/// `path` with `ext` appended (`out.bin` → `out.bin.nonce`).
fn side(path: &Path, ext: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
}

/// A readable, seekable source of associated data of any size.
trait AdSource: Read + Seek {}
impl<T: Read + Seek> AdSource for T {}

fn ad(c: &Common) -> Result<Box<dyn AdSource>> {
    Ok(match (&c.ad, &c.ad_file) {
        (Some(s), _) => Box::new(Cursor::new(s.clone().into_bytes())),
        (None, Some(p)) => Box::new(
            File::open(p)
                .with_context(|| format!("cannot read associated-data file {}", p.display()))?,
        ),
        (None, None) => Box::new(Cursor::new(Vec::new())),
    })
}

/// Encrypts in a libhiae format.
pub fn encrypt(args: &EncryptArgs) -> Result<ExitCode> {
    let c = &args.common;
    let detached = c.format == FileFormat::HiaeDetached;
    let file_key = key(c)?;
    if detached && files::is_dash(&c.output) {
        bail!("--format hiae-detached writes OUT, OUT.nonce and OUT.tag: give -o FILE");
    }
    let mut out = Output::check(&c.output, c.force, true)?;
    let mut sides = if detached {
        Some((
            Output::check(&side(&c.output, ".nonce"), c.force, true)?,
            Output::check(&side(&c.output, ".tag"), c.force, true)?,
        ))
    } else {
        None
    };
    let mut input = Input::open(c.input_path())?;
    let mut ad = ad(c)?;
    let nonce = match &args.insecure_fixed_nonce {
        Some(h) => files::parse_hex::<NONCE_LEN>(h, "--insecure-fixed-nonce")?,
        None => {
            let mut n = [0u8; NONCE_LEN];
            random_bytes(&mut n)?;
            n
        }
    };
    let progress = Progress::new(input.len, "encrypting", out.is_stdout());
    let what = format!("cannot encrypt {} to {}", input.name, out.name());
    let mut w = Counting::watch(out.writer()?);
    let result = (|| {
        if !detached {
            w.write_all(&libhiae::preamble(&nonce))?;
        }
        let tag = file_key.encrypt(
            &nonce,
            &mut ad,
            &mut Counting::new(&mut input, &progress),
            &mut w,
        )?;
        if !detached {
            w.write_all(&tag)?;
        }
        Ok::<_, io::Error>(tag)
    })();
    let failed_writing = w.failed;
    drop(w);
    progress.finish_and_clear();
    let tag = match result {
        Ok(t) => t,
        Err(e) => {
            let ctx = if failed_writing {
                format!("cannot write {}", out.name())
            } else {
                what
            };
            return Err(report(e, &ctx, &out.failure_note()));
        }
    };
    if let Some((n, t)) = sides.as_mut() {
        n.write_all(&nonce)?;
        t.write_all(&tag)?;
    }
    if let Some((n, t)) = sides {
        n.commit()?;
        t.commit()?;
    }
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// The ciphertext of a libhiae file: where it is, how long, its nonce and tag.
struct Message<S> {
    source: S,
    ct_at: u64,
    ct_len: u64,
    nonce: [u8; NONCE_LEN],
    tag: [u8; TAG_LEN],
}

/// Finds the message in a seekable `source` of `len` bytes.
fn locate<S: Read + Seek>(
    mut source: S,
    len: u64,
    detached: Option<([u8; 16], [u8; 16])>,
    name: &str,
) -> Result<Message<S>> {
    if let Some((nonce, tag)) = detached {
        return Ok(Message {
            source,
            ct_at: 0,
            ct_len: len,
            nonce,
            tag,
        });
    }
    let mut pre = [0u8; PREAMBLE_LEN];
    let got = aeadfast_file::read_full(&mut source, &mut pre)
        .with_context(|| format!("cannot read {name}"))?;
    let nonce = libhiae::parse_preamble(&pre[..got]).map_err(|e| {
        if got >= 8 && pre[..8] == aeadfast_file::MAGIC {
            anyhow::Error::from(Rejected(format!(
                "{name} is a native aeadfast file: drop --format hiae"
            )))
        } else {
            anyhow::Error::from(Rejected(format!("{name}: {e}")))
        }
    })?;
    if len < (PREAMBLE_LEN + TAG_LEN) as u64 {
        return Err(Rejected(format!(
            "{name} is too short to be a libhiae -e file (at least {} bytes)",
            PREAMBLE_LEN + TAG_LEN
        ))
        .into());
    }
    let mut tag = [0u8; TAG_LEN];
    source
        .seek(SeekFrom::Start(len - TAG_LEN as u64))
        .and_then(|_| source.read_exact(&mut tag))
        .with_context(|| format!("cannot read {name}"))?;
    Ok(Message {
        source,
        ct_at: PREAMBLE_LEN as u64,
        ct_len: len - (PREAMBLE_LEN + TAG_LEN) as u64,
        nonce,
        tag,
    })
}

/// Reads the side files of a detached message.
fn detached_parts(input: &Path) -> Result<([u8; NONCE_LEN], [u8; TAG_LEN])> {
    let nonce_path = side(input, ".nonce");
    let data = files::read_limited(&nonce_path, "nonce file", 64)?;
    let nonce = libhiae::parse_nonce_file(&data).ok_or_else(|| {
        Rejected(format!(
            "nonce file {} must hold 16 raw bytes or 32 hex digits",
            nonce_path.display()
        ))
    })?;
    let tag_path = side(input, ".tag");
    let tag = files::read_limited(&tag_path, "tag file", TAG_LEN)?;
    let tag: [u8; TAG_LEN] = tag.try_into().map_err(|_| {
        Rejected(format!(
            "tag file {} must hold 16 raw bytes",
            tag_path.display()
        ))
    })?;
    Ok((nonce, tag))
}

/// Decrypts a libhiae file.
pub fn decrypt(args: &DecryptArgs) -> Result<ExitCode> {
    let c = &args.common;
    let detached = c.format == FileFormat::HiaeDetached;
    let file_key = key(c)?;
    let mut out = Output::check(&c.output, c.force, false)?;
    let mut input = Input::open(c.input_path())?;
    let name = input.name.clone();
    let parts = if detached {
        if files::is_dash(c.input_path()) {
            bail!("--format hiae-detached reads IN, IN.nonce and IN.tag: give an input FILE");
        }
        Some(detached_parts(c.input_path())?)
    } else {
        None
    };
    let mut ad = ad(c)?;
    let ctx = format!("cannot decrypt {name}");
    if out.is_direct() {
        // Standard output, a device or a pipe cannot take back what was written: the message
        // is held in memory, verified, then written.
        if input
            .len
            .is_some_and(|l| l > MEMORY_LIMIT + (PREAMBLE_LEN + TAG_LEN) as u64)
        {
            bail!(too_big(&name));
        }
        let mut data = Vec::new();
        (&mut input)
            .take(MEMORY_LIMIT + (PREAMBLE_LEN + TAG_LEN) as u64 + 1)
            .read_to_end(&mut data)
            .with_context(|| format!("cannot read {name}"))?;
        if data.len() as u64 > MEMORY_LIMIT + (PREAMBLE_LEN + TAG_LEN) as u64 {
            bail!(too_big(&name));
        }
        let len = data.len() as u64;
        let msg = locate(Cursor::new(data), len, parts, &name)?;
        let mut plain = Vec::with_capacity(msg.ct_len as usize);
        open(&file_key, msg, &mut ad, &mut plain)
            .map_err(|e| report(e, &ctx, "nothing was written"))?;
        out.write_all(&plain)?;
        out.commit()?;
        return Ok(ExitCode::SUCCESS);
    }
    // To a file: both passes read the input file; standard input is first copied to a
    // scratch file beside the output.
    let progress = Progress::new(input.len, "decrypting", false);
    let mut scratch;
    let (source, len): (&mut File, u64) = match input.len {
        Some(len) => (input.regular_file().expect("a regular file"), len),
        None => {
            let dir = match c.output.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            scratch = output::scratch_file(&dir)
                .with_context(|| format!("cannot create a scratch file in {}", dir.display()))?;
            let f = scratch.file();
            let len = io::copy(&mut input, f).with_context(|| format!("cannot read {name}"))?;
            (f, len)
        }
    };
    let msg = locate(&mut *source, len, parts, &name)?;
    let mut w = Counting::new(out.writer()?, &progress);
    let result = open(&file_key, msg, &mut ad, &mut w);
    let failed_writing = w.failed;
    drop(w);
    progress.finish_and_clear();
    if let Err(e) = result {
        let ctx = if failed_writing {
            format!("cannot write {}", out.name())
        } else {
            ctx
        };
        return Err(report(e, &ctx, &out.failure_note()));
    }
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}

fn too_big(name: &str) -> String {
    format!(
        "{name}: a libhiae file is one message, so decrypting it to standard output, a device \
         or a pipe means holding it in memory, and it is over {} MiB: use -o FILE",
        MEMORY_LIMIT >> 20
    )
}

/// Verifies, then decrypts, the message into `out`.
fn open<S: Read + Seek>(
    key: &HiaeFile,
    mut msg: Message<S>,
    ad: &mut dyn AdSource,
    out: &mut dyn Write,
) -> io::Result<u64> {
    msg.source.seek(SeekFrom::Start(msg.ct_at))?;
    let mut ad = ad;
    key.decrypt(
        &msg.nonce,
        &mut ad,
        &mut msg.source,
        msg.ct_len,
        &msg.tag,
        out,
    )
}
