//! `aeadfast encrypt` and `aeadfast decrypt`: the native chunked format (FORMAT.md) and the
//! libhiae-compatible formats.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use aeadfast_cli::format::{
    self, Algorithm, Argon2Params, DEFAULT_CHUNK_LOG2, Header, KeySource, MAX_CHUNK_LOG2,
    MIN_CHUNK_LOG2, PREFIX_LEN, Sealer,
};
use anyhow::{Context, Result, anyhow, bail};

use super::files::{self, Rejected, Sink};
use super::hiae_file;
use super::mapped;

/// File formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// aeadfast's chunked format (FORMAT.md): parallel, verified chunk by chunk.
    Native,
    /// libhiae `hiae -e` files: magic, nonce, ciphertext, tag in one file (one HiAE message).
    Hiae,
    /// libhiae files without `-e`: ciphertext in OUT, nonce in OUT.nonce, tag in OUT.tag.
    HiaeDetached,
}

/// Options shared by `encrypt` and `decrypt`.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// Raw key file (make one with `aeadfast keygen`).
    #[arg(short, long = "key", value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
    /// Input file, or - for standard input.
    #[arg(short, long, value_name = "IN", default_value = "-")]
    pub input: PathBuf,
    /// Output file, or - for standard output.
    #[arg(short, long, value_name = "OUT", default_value = "-")]
    pub output: PathBuf,
    /// Associated data: authenticated, not encrypted, not stored; decryption needs the same.
    #[arg(long, value_name = "STRING", conflicts_with = "ad_file")]
    pub ad: Option<String>,
    /// Associated data from a file.
    #[arg(long, value_name = "FILE")]
    pub ad_file: Option<PathBuf>,
    /// Algorithm [encrypt default: hiae; decrypt: read from the file, checked if given].
    #[arg(short, long, value_enum)]
    pub algorithm: Option<Algorithm>,
    /// File format.
    #[arg(long, value_enum, default_value_t = FileFormat::Native)]
    pub format: FileFormat,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    /// Derive the key from a passphrase typed on the terminal (Argon2id; native format).
    #[arg(long, conflicts_with_all = ["key", "passphrase_file"])]
    pub passphrase: bool,
    /// Derive the key from the first line of FILE (Argon2id; native format).
    #[arg(long, value_name = "FILE", conflicts_with = "key")]
    pub passphrase_file: Option<PathBuf>,
}

const ENCRYPT_HELP: &str = "\
Native format: a header (magic, version, algorithm, chunk size, random nonce prefix) and \
chunks of 256 KiB, each sealed with its own nonce (STREAM), all bound to the header and the \
--ad; sealed in parallel. The output is written to a temporary file next to OUT and renamed \
into place only when complete; an existing OUT is kept unless --force is given. Ciphertext is \
never written to a terminal. See FORMAT.md.

--format hiae / hiae-detached write the libhiae `hiae encrypt -e` / plain layouts (HiAE only, \
raw 32-byte key file).

Example:
  aeadfast keygen -o secret.key
  aeadfast encrypt -k secret.key -i photo.raw -o photo.raw.af
  tar c dir | aeadfast encrypt --passphrase -o dir.tar.af
  aeadfast encrypt --format hiae -k secret.key -i msg.txt -o msg.hiae";

const DECRYPT_HELP: &str = "\
The algorithm and chunk size are read from the header. Every chunk is authenticated before \
any of its plaintext is released: to a file, output goes to a temporary file that is renamed \
into place only when the whole file verified (truncation, reordering, extension, a flipped \
bit, a wrong key or --ad all fail with exit status 1 and leave no output). To standard output \
(-o -), each chunk is written once it verified; if a later chunk fails, aeadfast exits with \
status 1 and says so, and what was written must be discarded.

--format hiae / hiae-detached read libhiae files (one HiAE message): the plaintext goes to a \
temporary file and is renamed into place only after the tag verified; to standard output the \
file is held in memory (at most 64 MiB) and written only after it verified.

Example:
  aeadfast decrypt -k secret.key -i photo.raw.af -o photo.raw
  aeadfast decrypt --passphrase -i dir.tar.af | tar x
  aeadfast decrypt --format hiae -k secret.key -i msg.hiae -o msg.txt";

/// Options of `aeadfast encrypt`.
#[derive(clap::Args, Debug)]
#[command(after_help = ENCRYPT_HELP)]
pub struct EncryptArgs {
    #[command(flatten)]
    pub common: Common,
    /// log2 of the chunk size in bytes (native format).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_CHUNK_LOG2,
          value_parser = clap::value_parser!(u8).range(MIN_CHUNK_LOG2 as i64..=MAX_CHUNK_LOG2 as i64))]
    pub chunk_size_log2: u8,
    /// Testing only: a fixed nonce (hex; 11-byte prefix native, 16 bytes hiae). Never reuse.
    #[arg(long, value_name = "HEX", hide = true)]
    pub insecure_fixed_nonce: Option<String>,
    /// Testing only: Argon2id memory in KiB.
    #[arg(long, value_name = "KIB", hide = true)]
    pub argon2_memory_kib: Option<u32>,
}

/// Options of `aeadfast decrypt`.
#[derive(clap::Args, Debug)]
#[command(after_help = DECRYPT_HELP)]
pub struct DecryptArgs {
    #[command(flatten)]
    pub common: Common,
}

/// `aeadfast encrypt`.
pub fn encrypt(args: &EncryptArgs) -> Result<ExitCode> {
    let c = &args.common;
    match c.format {
        FileFormat::Native => encrypt_native(args),
        FileFormat::Hiae | FileFormat::HiaeDetached => {
            let nonce = args
                .insecure_fixed_nonce
                .as_deref()
                .map(|h| files::parse_hex::<16>(h, "--insecure-fixed-nonce"))
                .transpose()?;
            hiae_file::encrypt(c, c.format == FileFormat::HiaeDetached, nonce)
        }
    }
}

/// `aeadfast decrypt`.
pub fn decrypt(args: &DecryptArgs) -> Result<ExitCode> {
    let c = &args.common;
    match c.format {
        FileFormat::Native => decrypt_native(c),
        FileFormat::Hiae | FileFormat::HiaeDetached => {
            hiae_file::decrypt(c, c.format == FileFormat::HiaeDetached)
        }
    }
}

fn encrypt_native(args: &EncryptArgs) -> Result<ExitCode> {
    let c = &args.common;
    let algorithm = c.algorithm.unwrap_or(Algorithm::Hiae);
    let mut sink = Sink::create(&c.output, c.force, true)?;
    let input = files::open_input(&c.input)?;
    let ad = files::read_ad(c.ad.as_deref(), c.ad_file.as_deref())?;
    let (mut key, key_source) =
        match files::passphrase(c.passphrase_file.as_deref(), c.passphrase, true)? {
            Some(mut pass) => {
                let mut params = Argon2Params::random_default()?;
                if let Some(m) = args.argon2_memory_kib {
                    params.m_kib = m;
                }
                let key = params.derive(&pass, algorithm.key_len());
                pass.fill(0);
                (key?, KeySource::Argon2id(params))
            }
            None => {
                let path = key_path(c)?;
                let key = files::read_key(path, algorithm.key_len(), algorithm.name())?;
                (key, KeySource::KeyFile)
            }
        };
    let mut nonce_prefix = [0u8; PREFIX_LEN];
    match &args.insecure_fixed_nonce {
        Some(h) => nonce_prefix = files::parse_hex::<PREFIX_LEN>(h, "--insecure-fixed-nonce")?,
        None => format::random_bytes(&mut nonce_prefix)?,
    }
    let header = Header {
        algorithm,
        chunk_log2: args.chunk_size_log2,
        key_source,
        nonce_prefix,
    };
    let header_bytes = header.to_bytes();
    let sealer = Sealer::new(&header, &header_bytes, &ad, &key);
    key.fill(0);
    let sealer = sealer.map_err(|e| anyhow!("{e}"))?;
    let pb = files::progress(input.len, "encrypting");
    let what = || format!("encrypting {} to {}", input.name, c.output.display());
    // A regular file is mapped and sealed straight from the page cache (no read copies);
    // anything else (a pipe, standard input, a file that cannot be mapped) is read.
    let map = match (&input.file, input.len) {
        (Some(f), Some(len)) if len > 0 => usize::try_from(len)
            .ok()
            .and_then(|len| mapped::map_lazy(f, 0, len).ok()),
        _ => None,
    };
    let mut progress = |n: u64| {
        pb.set_position(n);
        if let Some(m) = &map {
            mapped::release_prefix(m, usize::try_from(n).unwrap_or(usize::MAX));
        }
    };
    match &map {
        Some(data) => format::encrypt_slice(
            &sealer,
            &header_bytes,
            data,
            sink.writer(),
            None,
            &mut progress,
        ),
        None => format::encrypt_stream(
            &sealer,
            &header_bytes,
            input.reader,
            sink.writer(),
            None,
            &mut progress,
        ),
    }
    .map_err(anyhow::Error::new)
    .with_context(what)?;
    pb.finish_and_clear();
    sink.commit()?;
    Ok(ExitCode::SUCCESS)
}

fn key_path(c: &Common) -> Result<&Path> {
    c.key.as_deref().ok_or_else(|| {
        anyhow!(
            "no key given: use -k KEYFILE (make one with `aeadfast keygen -o KEYFILE`), \
             --passphrase or --passphrase-file FILE"
        )
    })
}

fn decrypt_native(c: &Common) -> Result<ExitCode> {
    let mut sink = Sink::create(&c.output, c.force, false)?;
    let mut input = files::open_input(&c.input)?;
    let name = input.name.clone();
    let (header, header_bytes) =
        Header::read_from(&mut input.reader).with_context(|| format!("cannot decrypt {name}"))?;
    if let Some(a) = c.algorithm
        && a != header.algorithm
    {
        return Err(Rejected(format!(
            "{name} was encrypted with {}, not {a}: drop -a or pass -a {}",
            header.algorithm, header.algorithm
        ))
        .into());
    }
    if let Some(len) = input.len {
        format::plaintext_len(header_bytes.len() as u64, len, header.chunk_log2)
            .with_context(|| format!("cannot decrypt {name}"))?;
    }
    let pass = files::passphrase(c.passphrase_file.as_deref(), c.passphrase, false)?;
    let mut key = match (header.key_source, pass) {
        (KeySource::KeyFile, None) => files::read_small(key_path(c)?, "key file")?,
        (KeySource::KeyFile, Some(_)) => {
            bail!("{name} was encrypted with a key file, not a passphrase: use -k KEYFILE")
        }
        (KeySource::Argon2id(params), Some(mut pass)) => {
            let key = params.derive(&pass, header.algorithm.key_len());
            pass.fill(0);
            key.with_context(|| format!("cannot decrypt {name}"))?
        }
        (KeySource::Argon2id(_), None) => {
            bail!("{name} is protected by a passphrase: use --passphrase or --passphrase-file FILE")
        }
    };
    let ad = files::read_ad(c.ad.as_deref(), c.ad_file.as_deref())?;
    let sealer = Sealer::new(&header, &header_bytes, &ad, &key);
    key.fill(0);
    let sealer = sealer.with_context(|| format!("cannot decrypt {name}"))?;
    let pb = files::progress(input.len, "decrypting");
    let to_stdout = sink.is_stdout();
    // As for encryption: a regular file is mapped and opened straight from the page cache.
    let map = match (&input.file, input.len) {
        (Some(f), Some(len)) => usize::try_from(len)
            .ok()
            .and_then(|len| mapped::map_lazy(f, 0, len).ok()),
        _ => None,
    };
    let mut progress = |n: u64| {
        pb.set_position(n);
        if let Some(m) = &map {
            mapped::release_prefix(m, usize::try_from(n).unwrap_or(usize::MAX));
        }
    };
    let result = match &map {
        Some(file) => format::decrypt_body_slice(
            &sealer,
            &file[header_bytes.len()..],
            sink.writer(),
            None,
            &mut progress,
        ),
        None => format::decrypt_stream(&sealer, input.reader, sink.writer(), None, &mut progress),
    };
    pb.finish_and_clear();
    if let Err(e) = result {
        let e = anyhow::Error::new(e).context(format!("cannot decrypt {name}"));
        return Err(if to_stdout {
            e.context("the plaintext written to standard output is INCOMPLETE: discard it")
        } else {
            e
        });
    }
    sink.commit()?;
    Ok(ExitCode::SUCCESS)
}
