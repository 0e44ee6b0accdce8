//! `aeadfast keygen`: a random raw key file, created with mode 0600, never overwritten; or the
//! key on standard output (never to a terminal).

use std::fs::OpenOptions;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use aeadfast_file::{Algorithm, random_bytes};
use anyhow::{Context, Result, bail};
use zeroize::Zeroizing;

/// Options of `aeadfast keygen`.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "The key file holds raw bytes (32 for the HiAE family, 16 for \
GIFT-COFB, which is also a LeMac key for `sum --key`), so libhiae's `hiae keygen` files work \
as they are. It is created with mode 0600 (the umask can only remove bits), and an existing file is never \
overwritten. `-o -` writes the raw key to standard output (refused when that is a \
terminal).\n\n\
Example:\n  aeadfast keygen -o secret.key\n  aeadfast keygen -a gift-cofb -o cofb.key"
)]
pub struct Args {
    /// Algorithm the key is for (sets its length).
    #[arg(short, long, value_parser = super::options::algorithm_parser(), default_value = "hiae")]
    algorithm: Algorithm,
    /// The key file to create (must not exist), or - for standard output.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
}

/// Writes the key file.
pub fn run(args: &Args) -> Result<ExitCode> {
    let name = args.output.display();
    let mut key = Zeroizing::new(vec![0u8; args.algorithm.key_len()]);
    random_bytes(&mut key)?;
    if args.output.as_os_str() == "-" {
        let mut out = io::stdout().lock();
        if out.is_terminal() {
            bail!(
                "refusing to write a raw key to a terminal: redirect standard output, or give \
                 -o FILE"
            );
        }
        out.write_all(&key)
            .and_then(|()| out.flush())
            .context("cannot write to standard output")?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let mut file = match opts.open(&args.output) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => bail!(
            "{name} already exists: keygen never overwrites a key file (remove it first or \
             choose another -o)"
        ),
        Err(e) => return Err(e).with_context(|| format!("cannot create key file {name}")),
    };
    let written = file.write_all(&key).and_then(|()| file.sync_all());
    if let Err(e) = written {
        drop(file);
        let _ = std::fs::remove_file(&args.output);
        return Err(e).with_context(|| format!("cannot write key file {name}"));
    }
    eprintln!(
        "aeadfast: wrote a {}-byte {} key to {name}",
        args.algorithm.key_len(),
        args.algorithm
    );
    Ok(ExitCode::SUCCESS)
}
