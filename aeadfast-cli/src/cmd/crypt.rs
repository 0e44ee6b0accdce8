//! `aeadfast encrypt` and `aeadfast decrypt` in the native chunked format (the
//! `aeadfast-file` crate's `Encryptor` and `Decryptor`): arguments, files and messages.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use aeadfast_file::{Algorithm, Argon2Params, Decryptor, Encryptor, KeySource, layout};
use anyhow::{Result, anyhow, bail};

use super::files::{self, Input, report};
use super::options::{Common, DecryptArgs, EncryptArgs};
use super::output::Output;
use super::progress::{Counting, Progress};

/// Largest `--ad-file` for the native format: every chunk authenticates the associated data.
pub const AD_LIMIT: usize = 64 << 20;

/// The user's associated data for the native format.
fn native_ad(c: &Common) -> Result<Vec<u8>> {
    Ok(match (&c.ad, &c.ad_file) {
        (Some(s), _) => s.as_bytes().to_vec(),
        (None, Some(p)) => files::read_limited(p, "associated-data file", AD_LIMIT)?,
        (None, None) => Vec::new(),
    })
}

fn key_path(c: &Common) -> Result<&Path> {
    c.key.as_deref().ok_or_else(|| {
        anyhow!(
            "no key given: use -k KEYFILE (make one with `aeadfast keygen -o KEYFILE`), \
             --passphrase or --passphrase-file FILE"
        )
    })
}

/// `aeadfast encrypt` (native format).
pub fn encrypt(args: &EncryptArgs) -> Result<ExitCode> {
    let c = &args.common;
    let algorithm = c.algorithm.unwrap_or(Algorithm::Hiae);
    let mut out = Output::check(&c.output, c.force, true)?;
    let mut input = Input::open(c.input_path())?;
    let ad = native_ad(c)?;
    let mut builder = Encryptor::builder(algorithm)
        .chunk_log2(args.chunk_size_log2)
        .associated_data(&ad)
        .kdf_limits(c.kdf_limits());
    if let Some(h) = &args.insecure_fixed_nonce {
        builder = builder.insecure_nonce_prefix(files::parse_hex(h, "--insecure-fixed-nonce")?);
    }
    let passphrase_wanted = c.passphrase || c.passphrase_file.is_some();
    let key = if passphrase_wanted {
        let mut params = Argon2Params::random_default()?;
        if let Some(m) = args.argon2_memory_kib {
            params.m_kib = m;
        }
        // Checked before the prompt: a file that decryption would refuse is never written.
        if let Err(e) = c.kdf_limits().check(&params) {
            bail!("{e}; add --allow-expensive-kdf to write it anyway");
        }
        builder = builder.argon2_params(params);
        None
    } else {
        Some(files::read_key(
            key_path(c)?,
            algorithm.key_len(),
            algorithm.name(),
            algorithm.name(),
        )?)
    };
    let pass = files::passphrase(c.passphrase_file.as_deref(), c.passphrase, true)?;
    let progress = Progress::new(input.len, "encrypting", out.is_stdout());
    let what = format!("cannot encrypt {} to {}", input.name, out.name());
    let mut w = Counting::watch(out.writer()?);
    let enc = match (&key, &pass) {
        (Some(k), _) => builder.build(&mut w, k),
        (None, Some(p)) => builder.build_with_passphrase(&mut w, p),
        (None, None) => unreachable!("a key or a passphrase"),
    };
    let result = enc.and_then(|mut enc| {
        enc.copy_from(Counting::new(&mut input, &progress))?;
        enc.finish().map(|_| ())
    });
    let failed_writing = w.failed;
    drop(w);
    progress.finish_and_clear();
    if let Err(e) = result {
        let ctx = if failed_writing {
            format!("cannot write {}", out.name())
        } else {
            what
        };
        return Err(report(e, &ctx, &out.failure_note()));
    }
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}

/// `aeadfast decrypt` (native format).
pub fn decrypt(args: &DecryptArgs) -> Result<ExitCode> {
    let c = &args.common;
    let mut out = Output::check(&c.output, c.force, false)?;
    let mut input = Input::open(c.input_path())?;
    let name = input.name.clone();
    let ctx = || format!("cannot decrypt {name}");
    let ad = native_ad(c)?;
    let len = input.len;
    let locked = Decryptor::builder()
        .associated_data(&ad)
        .kdf_limits(c.kdf_limits())
        .read_header(&mut input)
        .map_err(|e| {
            let hint = match aeadfast_file::Error::from_io(&e) {
                Some(aeadfast_file::Error::Header(m)) if m.contains("libhiae") => {
                    "add --format hiae"
                }
                _ => "",
            };
            report(e, &ctx(), hint)
        })?;
    let header = locked.header().clone();
    if let Some(a) = c.algorithm
        && a != header.algorithm
    {
        bail!(
            "{name} was encrypted with {}, not {a}: drop -a or pass -a {}",
            header.algorithm,
            header.algorithm
        );
    }
    if let Some(len) = len {
        // A regular file whose length does not fit the layout is rejected before any work.
        layout::plaintext_len(header.len() as u64, len, header.chunk_log2)
            .map_err(|e| report(e.into(), &ctx(), ""))?;
    }
    let dec = match header.key_source {
        KeySource::RawKey => {
            if c.passphrase || c.passphrase_file.is_some() {
                bail!("{name} was encrypted with a key file, not a passphrase: use -k KEYFILE");
            }
            let alg = header.algorithm;
            let key = files::read_key(key_path(c)?, alg.key_len(), alg.name(), alg.name())?;
            locked.unlock_with_key(&key)
        }
        KeySource::Argon2id(params) => {
            if !(c.passphrase || c.passphrase_file.is_some()) {
                bail!(
                    "{name} is protected by a passphrase: use --passphrase or --passphrase-file \
                     FILE"
                );
            }
            // The cost is checked before the prompt, so nobody types a passphrase for a file
            // that is refused anyway.
            if let Err(e) = c.kdf_limits().check(&params) {
                return Err(report(e.into(), &ctx(), ""));
            }
            let pass = files::passphrase(c.passphrase_file.as_deref(), c.passphrase, false)?
                .expect("asked for");
            locked.unlock_with_passphrase(&pass)
        }
    };
    let mut dec = dec.map_err(|e| report(e, &ctx(), ""))?;
    let progress = Progress::new(len, "decrypting", out.is_stdout());
    let mut w = Counting::new(out.writer()?, &progress);
    let result = dec.copy_to(&mut w).and_then(|_| w.flush());
    let failed_writing = w.failed;
    drop(w);
    progress.finish_and_clear();
    if let Err(e) = result {
        let context = if failed_writing {
            format!("cannot write {}", out.name())
        } else {
            ctx()
        };
        return Err(report(e, &context, &out.failure_note()));
    }
    out.commit()?;
    Ok(ExitCode::SUCCESS)
}
