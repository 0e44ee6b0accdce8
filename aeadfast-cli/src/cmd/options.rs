//! The options of `aeadfast encrypt` and `aeadfast decrypt`, shared by the native format
//! (`crypt.rs`) and the libhiae formats (`hiae_file.rs`).

use std::path::{Path, PathBuf};

use aeadfast_file::{Algorithm, DEFAULT_CHUNK_LOG2, KdfLimits, MAX_CHUNK_LOG2, MIN_CHUNK_LOG2};
use clap::builder::{PossibleValuesParser, TypedValueParser};

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

/// `-a` values: the algorithm names.
pub fn algorithm_parser() -> impl TypedValueParser<Value = Algorithm> {
    PossibleValuesParser::new(Algorithm::ALL.map(Algorithm::name))
        .map(|s| s.parse::<Algorithm>().expect("one of the possible values"))
}

/// Options shared by `encrypt` and `decrypt`.
#[derive(clap::Args, Debug)]
pub struct Common {
    /// Input file, or - for standard input (the default).
    #[arg(value_name = "INPUT", conflicts_with = "input")]
    pub input_arg: Option<PathBuf>,
    /// Input file (the same as the INPUT argument).
    #[arg(short, long, value_name = "IN")]
    pub input: Option<PathBuf>,
    /// Output file, or - for standard output.
    #[arg(short, long, value_name = "OUT", default_value = "-")]
    pub output: PathBuf,
    /// Raw key file (make one with `aeadfast keygen`).
    #[arg(short, long = "key", value_name = "KEYFILE")]
    pub key: Option<PathBuf>,
    /// Associated data: authenticated, not encrypted, not stored; decryption needs the same.
    #[arg(long, value_name = "STRING", conflicts_with = "ad_file")]
    pub ad: Option<String>,
    /// Associated data from a file (native format: at most 64 MiB, and every chunk
    /// authenticates it again, so prefer a hash of a large context; libhiae formats: any
    /// size, absorbed once).
    #[arg(long, value_name = "FILE")]
    pub ad_file: Option<PathBuf>,
    /// Algorithm [encrypt default: hiae; decrypt: read from the file, checked if given].
    #[arg(short, long, value_parser = algorithm_parser())]
    pub algorithm: Option<Algorithm>,
    /// File format.
    #[arg(long, value_enum, default_value_t = FileFormat::Native)]
    pub format: FileFormat,
    /// Replace an existing regular output file (it keeps its permissions, and its owner
    /// where permitted; a file with other hard links is refused).
    #[arg(long)]
    pub force: bool,
    /// Derive the key from a passphrase typed on the terminal (Argon2id; native format).
    #[arg(long, conflicts_with_all = ["key", "passphrase_file"])]
    pub passphrase: bool,
    /// Derive the key from the first line of FILE (Argon2id; native format).
    #[arg(long, value_name = "FILE", conflicts_with = "key")]
    pub passphrase_file: Option<PathBuf>,
    /// Accept (decrypt) or write (encrypt) Argon2id costs above the default limits (256 MiB,
    /// 8 passes, 4 lanes), up to the format's maxima (4 GiB, 64, 64).
    #[arg(long)]
    pub allow_expensive_kdf: bool,
    /// Threads that seal or open chunks [default: one per CPU].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub num_threads: Option<u16>,
}

impl Common {
    /// The input path (`-`: standard input).
    pub fn input_path(&self) -> &Path {
        self.input_arg
            .as_deref()
            .or(self.input.as_deref())
            .unwrap_or(Path::new("-"))
    }

    /// The Argon2id limits in force.
    pub fn kdf_limits(&self) -> KdfLimits {
        if self.allow_expensive_kdf {
            KdfLimits::FORMAT_MAX
        } else {
            KdfLimits::DEFAULT
        }
    }
}

const ENCRYPT_HELP: &str = "\
Native format: a header (magic, version, algorithm, chunk size, random nonce prefix) and \
chunks of 256 KiB, each sealed with its own nonce (STREAM), all bound to the header and the \
--ad; sealed in parallel. To a file, output goes to a temporary file in the same directory \
that becomes OUT only when complete; an existing OUT is kept unless --force is given. \
Character devices and pipes (-o /dev/null, a FIFO) are written directly. Ciphertext is never \
written to a terminal. Interrupted (Ctrl-C, SIGTERM, SIGHUP), aeadfast removes its temporary \
file and exits with 128 + the signal number. See FORMAT.md.

--format hiae / hiae-detached write the libhiae `hiae encrypt -e` / plain layouts (HiAE only, \
raw 32-byte key file).

Example:
  aeadfast keygen -o secret.key
  aeadfast encrypt -k secret.key photo.raw -o photo.raw.af
  tar c dir | aeadfast encrypt --passphrase -o dir.tar.af
  aeadfast encrypt --format hiae -k secret.key msg.txt -o msg.hiae";

const DECRYPT_HELP: &str = "\
The algorithm and chunk size are read from the header. Every chunk is authenticated before \
any of its plaintext is released: to a file, output goes to a temporary file that becomes \
OUT only when the whole file verified (truncation, reordering, extension, a flipped bit, a \
wrong key or --ad all fail with exit status 1 and leave no output). To standard output, a \
device or a pipe, each chunk is written once it verified; if a later chunk fails, aeadfast \
exits with status 1 and says how much was written: that prefix must be discarded.

A passphrase file's Argon2id cost is checked before any work: above 256 MiB, 8 passes or 4 \
lanes it is refused unless --allow-expensive-kdf is given (a forged header could otherwise \
make decryption use gigabytes of memory and minutes of time before anything is checked).

--format hiae / hiae-detached read libhiae files (one HiAE message): the tag is verified in a \
first pass that releases nothing, then a second pass writes the plaintext (standard input is \
first copied to a temporary file; to standard output the file is held in memory, at most 64 \
MiB).

Example:
  aeadfast decrypt -k secret.key photo.raw.af -o photo.raw
  aeadfast decrypt --passphrase dir.tar.af | tar x
  aeadfast decrypt --format hiae -k secret.key msg.hiae -o msg.txt";

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
    /// Testing only: Argon2id memory in KiB (within the limits of --allow-expensive-kdf).
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
