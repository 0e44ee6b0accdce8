//! The libhiae CLI's file formats (`--format hiae` = its `-e` embedded layout,
//! `--format hiae-detached` = ciphertext file plus `.nonce` and `.tag` files), byte-compatible,
//! with atomic output and nothing released before the tag verified.
//!
//! Embedded layout: `48 49 41 45 00 01 00 00` ‖ nonce (16) ‖ 8 zero bytes ‖ ciphertext ‖
//! tag (16); the whole file is one HiAE message with the `--ad` as associated data.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use aeadfast_cli::format::{Algorithm, LIBHIAE_MAGIC, MAGIC, random_bytes, read_full};
use anyhow::{Context, Result, anyhow, bail};
use hiae::stream::{Encryptor, UnverifiedDecryptor};
use hiae::{AeadInOut, Hiae, KeyInit};

use super::crypt::Common;
use super::files::{self, Rejected, Sink};

/// Bytes before the ciphertext in an embedded file.
const PREAMBLE: usize = 32;
/// Bytes of the tag.
const TAG: usize = 16;
/// Piece size of the streaming loops.
const PIECE: usize = 1 << 20;
/// Largest libhiae file decrypted to standard output (held in memory until verified).
pub const STDOUT_LIMIT: usize = 64 << 20;

fn cipher(c: &Common) -> Result<Hiae> {
    if c.algorithm.is_some_and(|a| a != Algorithm::Hiae) {
        bail!("the libhiae formats use HiAE only: drop -a or use -a hiae");
    }
    if c.passphrase || c.passphrase_file.is_some() {
        bail!("the libhiae formats take a raw key file (-k KEYFILE), not a passphrase");
    }
    let path = c.key.as_deref().ok_or_else(|| {
        anyhow!("no key given: use -k KEYFILE (a raw 32-byte key, e.g. from `hiae keygen`)")
    })?;
    let mut key = files::read_key(path, 32, "hiae")?;
    let cipher = Hiae::new_from_slice(&key).map_err(|_| anyhow!("bad key length"))?;
    key.fill(0);
    Ok(cipher)
}

/// `path` with `.ext` appended (`out.bin` → `out.bin.nonce`).
fn side(path: &Path, ext: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
}

/// Encrypts in a libhiae format.
pub fn encrypt(c: &Common, detached: bool, fixed_nonce: Option<[u8; 16]>) -> Result<ExitCode> {
    let cipher = cipher(c)?;
    if detached && files::is_dash(&c.output) {
        bail!("--format hiae-detached writes OUT, OUT.nonce and OUT.tag: give -o FILE");
    }
    let mut sink = Sink::create(&c.output, c.force, true)?;
    let mut side_sinks = if detached {
        Some((
            Sink::create(&side(&c.output, ".nonce"), c.force, true)?,
            Sink::create(&side(&c.output, ".tag"), c.force, true)?,
        ))
    } else {
        None
    };
    let mut input = files::open_input(&c.input)?;
    let ad = files::read_ad(c.ad.as_deref(), c.ad_file.as_deref())?;
    let nonce = match fixed_nonce {
        Some(n) => n,
        None => {
            let mut n = [0u8; 16];
            random_bytes(&mut n)?;
            n
        }
    };
    let what = || format!("encrypting {} to {}", input.name, c.output.display());
    let mut enc = Encryptor::new(&cipher, &nonce.into());
    enc.update_ad(&ad)
        .map_err(|_| anyhow!("associated data too long"))?;
    let out = sink.writer();
    if !detached {
        let mut pre = [0u8; PREAMBLE];
        pre[..8].copy_from_slice(&LIBHIAE_MAGIC);
        pre[8..24].copy_from_slice(&nonce);
        out.write_all(&pre).with_context(what)?;
    }
    let pb = files::progress(input.len, "encrypting");
    let mut buf = vec![0u8; PIECE];
    let mut done = 0u64;
    loop {
        let got = read_full(&mut input.reader, &mut buf).with_context(what)?;
        enc.encrypt(&mut buf[..got])
            .map_err(|_| anyhow!("input too long for one HiAE message"))?;
        out.write_all(&buf[..got]).with_context(what)?;
        done += got as u64;
        pb.set_position(done);
        if got < buf.len() {
            break;
        }
    }
    let tag: [u8; 16] = enc.finalize().into();
    pb.finish_and_clear();
    match side_sinks.as_mut() {
        None => out.write_all(&tag).with_context(what)?,
        Some((n, t)) => {
            n.writer().write_all(&nonce).with_context(what)?;
            t.writer().write_all(&tag).with_context(what)?;
        }
    }
    if let Some((n, t)) = side_sinks {
        n.commit()?;
        t.commit()?;
    }
    sink.commit()?;
    Ok(ExitCode::SUCCESS)
}

fn rejected(name: &str) -> anyhow::Error {
    Rejected(format!(
        "{name}: authentication failed: wrong key, wrong --ad, or the file was modified; \
         nothing was written"
    ))
    .into()
}

/// Reads a nonce file: 16 raw bytes or 32 hex digits (as libhiae accepts).
fn read_nonce(path: &Path) -> Result<[u8; 16]> {
    let data = files::read_small(path, "nonce file")?;
    if let Ok(raw) = <[u8; 16]>::try_from(&data[..]) {
        return Ok(raw);
    }
    let text = std::str::from_utf8(&data).unwrap_or("");
    files::parse_hex::<16>(text, &format!("nonce file {}", path.display())).map_err(|_| {
        anyhow!(
            "nonce file {} must hold 16 raw bytes or 32 hex digits",
            path.display()
        )
    })
}

/// Decrypts a libhiae file.
pub fn decrypt(c: &Common, detached: bool) -> Result<ExitCode> {
    let cipher = cipher(c)?;
    let mut sink = Sink::create(&c.output, c.force, false)?;
    let mut input = files::open_input(&c.input)?;
    let name = input.name.clone();
    let ad = files::read_ad(c.ad.as_deref(), c.ad_file.as_deref())?;
    let (nonce, detached_tag) = if detached {
        if files::is_dash(&c.input) {
            bail!("--format hiae-detached reads IN, IN.nonce and IN.tag: give -i FILE");
        }
        let tag_path = side(&c.input, ".tag");
        let tag = files::read_small(&tag_path, "tag file")?;
        let tag: [u8; 16] = tag.try_into().map_err(|_| {
            Rejected(format!(
                "tag file {} must hold 16 raw bytes",
                tag_path.display()
            ))
        })?;
        (read_nonce(&side(&c.input, ".nonce"))?, Some(tag))
    } else {
        let mut pre = [0u8; PREAMBLE];
        let got = read_full(&mut input.reader, &mut pre)
            .with_context(|| format!("cannot read {name}"))?;
        if got >= 8 && pre[..8] == MAGIC {
            bail!("{name} is a native aeadfast file: drop --format hiae");
        }
        if got < PREAMBLE || input.len.is_some_and(|l| l < (PREAMBLE + TAG) as u64) {
            return Err(Rejected(format!(
                "{name} is too short to be a libhiae -e file (at least 48 bytes)"
            ))
            .into());
        }
        if pre[..8] != LIBHIAE_MAGIC {
            return Err(Rejected(format!(
                "{name} is not a libhiae -e file (wrong magic bytes)"
            ))
            .into());
        }
        (<[u8; 16]>::try_from(&pre[8..24]).expect("16 bytes"), None)
    };
    let nonce = nonce.into();
    if sink.is_stdout() {
        // Hold the whole message until the tag verified.
        let mut data = Vec::new();
        (&mut input.reader)
            .take((STDOUT_LIMIT + TAG + 1) as u64)
            .read_to_end(&mut data)
            .with_context(|| format!("cannot read {name}"))?;
        let hold = if detached_tag.is_some() { 0 } else { TAG };
        if data.len() > STDOUT_LIMIT + hold {
            bail!(
                "{name}: a libhiae file is one message, so decrypting it to standard output \
                 means holding it in memory, and it is over {} MiB: use -o FILE",
                STDOUT_LIMIT >> 20
            );
        }
        if data.len() < hold {
            return Err(rejected(&name));
        }
        let cut = data.len() - hold;
        let (body, tail) = data.split_at_mut(cut);
        let tag = detached_tag.unwrap_or_else(|| tail.try_into().expect("16 bytes"));
        cipher
            .decrypt_inout_detached(&nonce, &ad, body.into(), &tag.into())
            .map_err(|_| rejected(&name))?;
        sink.writer()
            .write_all(body)
            .context("cannot write to standard output")?;
        sink.commit()?;
        return Ok(ExitCode::SUCCESS);
    }
    // To a file: the unverified plaintext goes only to the temporary file, which becomes the
    // output after the tag verified and is deleted otherwise.
    let mut dec = UnverifiedDecryptor::new(&cipher, &nonce);
    dec.update_ad(&ad)
        .map_err(|_| anyhow!("associated data too long"))?;
    let hold = if detached_tag.is_some() { 0 } else { TAG };
    let what = || format!("decrypting {name} to {}", c.output.display());
    let pb = files::progress(input.len, "decrypting");
    let mut buf = vec![0u8; PIECE + hold];
    let mut have = 0;
    let out = sink.writer();
    let tag = loop {
        let got = read_full(&mut input.reader, &mut buf[have..]).with_context(what)?;
        have += got;
        let eof = have < buf.len();
        if have < hold {
            return Err(rejected(&name));
        }
        let n = have - hold;
        dec.decrypt_unverified(&mut buf[..n])
            .map_err(|_| anyhow!("{name}: too long for one HiAE message"))?;
        out.write_all(&buf[..n]).with_context(what)?;
        pb.set_position(dec.message_len());
        if eof {
            break detached_tag.unwrap_or_else(|| buf[n..have].try_into().expect("16 bytes"));
        }
        buf.copy_within(n..have, 0);
        have = hold;
    };
    pb.finish_and_clear();
    dec.verify(&tag.into()).map_err(|_| rejected(&name))?;
    sink.commit()?;
    Ok(ExitCode::SUCCESS)
}
