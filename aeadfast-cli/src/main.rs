//! `aeadfast`: fast authenticated encryption, checksums and AES-128 bulk jobs from the shell.
//!
//! Exit codes: 0 success, 1 a verification or check failed, 2 usage or I/O error.

mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Fast AES-based authenticated encryption (HiAE, GIFT-COFB), LeMac checksums and bulk AES-128.
#[derive(Parser, Debug)]
#[command(name = "aeadfast", version, about, long_about = None)]
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Info(args) => cmd::info::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("aeadfast: {e:#}");
            ExitCode::from(2)
        }
    }
}
