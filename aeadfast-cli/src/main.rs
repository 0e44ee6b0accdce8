//! `aeadfast`: fast authenticated encryption, checksums and AES-128 bulk jobs from the shell.
//!
//! Exit codes: 0 success, 1 a verification or check failed, 2 usage or I/O error.

mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exit statuses, shown under `--help`.
const EXIT_STATUS: &str = "Exit status: 0 success; 1 a verification or check failed (wrong key \
or passphrase, tampered or truncated file, `sum -c` mismatch or unreadable listed file, `sum` \
of a file that cannot be read (as sha256sum), `aes128 bench` mismatch); 2 usage or I/O error \
(bad arguments, a key of the wrong length, -a not matching the file, missing file, existing \
output without --force, full disk); 128+N killed by signal N (130 Ctrl-C, 143 SIGTERM, 129 \
SIGHUP; temporary files are removed first) or 141 when the reader of standard output closed \
it. Errors are one line on standard error.";

/// Fast AES-based authenticated encryption (HiAE, GIFT-COFB), LeMac checksums and bulk AES-128.
#[derive(Parser, Debug)]
#[command(name = "aeadfast", version, about, long_about = None, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Show the CPU features seen and the implementation each algorithm uses.
    ///
    /// Example: `aeadfast info`
    Info(cmd::info::Args),
    /// Create a random raw key file (mode 0600, never overwrites).
    ///
    /// Example: `aeadfast keygen -o secret.key`
    Keygen(cmd::keygen::Args),
    /// Encrypt a file (native chunked format, or libhiae's with --format hiae).
    ///
    /// Example: `aeadfast encrypt -k secret.key data -o data.af`
    Encrypt(cmd::options::EncryptArgs),
    /// Decrypt and verify a file; nothing unverified is released.
    ///
    /// Example: `aeadfast decrypt -k secret.key data.af -o data`
    Decrypt(cmd::options::DecryptArgs),
    /// LeMac checksums, compatible with lemacsum (`sum -c` checks them).
    ///
    /// Example: `aeadfast sum *.iso > SUMS; aeadfast sum -c SUMS`
    Sum(cmd::sum::Args),
    /// fastAES's workload: one AES-128 key per 16-byte record (`gen`, `bench`).
    ///
    /// Example: `aeadfast aes128 gen -n big -s 100000000; aeadfast aes128 bench -n big`
    Aes128(cmd::aes128::Args),
    /// Throughput table (Gbps) of every algorithm and backend on this CPU.
    ///
    /// Example: `aeadfast bench --algo hiae,lemac --size 64,1K --time 0.1`
    Bench(cmd::bench::Args),
}

fn main() -> ExitCode {
    cmd::signals::install();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Usage errors go to standard error (status 2); help and version to standard
            // output (status 0), where a failed write is reported, not ignored.
            let printed = e.print();
            if e.use_stderr() {
                return ExitCode::from(2);
            }
            if let Err(w) = printed {
                eprintln!("aeadfast: cannot write to standard output: {w}");
                return ExitCode::from(2);
            }
            return ExitCode::SUCCESS;
        }
    };
    let result = match cli.command {
        Command::Info(args) => cmd::info::run(&args),
        Command::Keygen(args) => cmd::keygen::run(&args),
        Command::Encrypt(args) => cmd::encrypt(&args),
        Command::Decrypt(args) => cmd::decrypt(&args),
        Command::Sum(args) => cmd::sum::run(&args),
        Command::Aes128(args) => cmd::aes128::run(&args),
        Command::Bench(args) => cmd::bench::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // A reader that went away (`| head`) ends the job quietly.
            if !cmd::is_broken_pipe(&e) {
                eprintln!("aeadfast: {}", cmd::error_line(&e));
            }
            ExitCode::from(cmd::exit_status(&e))
        }
    }
}
