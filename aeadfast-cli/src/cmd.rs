//! One module per subcommand.

use std::io::Write;

use anyhow::Context;

/// `println!` for a subcommand's report: a write that fails (a full disk, a closed pipe)
/// becomes an error ("cannot write to standard output") instead of a panic. Defined before
/// the subcommand modules, so they see it.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cmd::say_line(format_args!($($arg)*))
    };
}

/// Writes one line to standard output and flushes it (see [`say!`]).
pub fn say_line(line: std::fmt::Arguments<'_>) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(line)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

pub mod aes128;
pub mod bench;
pub mod crypt;
pub mod files;
pub mod hiae_file;
pub mod info;
pub mod keygen;
mod mapped;
pub mod options;
pub mod output;
pub mod progress;
pub mod signals;
pub mod sum;

use std::process::ExitCode;

use options::{DecryptArgs, EncryptArgs, FileFormat};

/// Exit status for an error: 141 (128 + SIGPIPE) if the reader of standard output went away,
/// 1 if the data did not verify or a check failed, 2 otherwise (usage, I/O).
pub fn exit_status(e: &anyhow::Error) -> u8 {
    if is_broken_pipe(e) {
        return 141;
    }
    let verification = e.chain().any(|c| {
        c.is::<files::Rejected>()
            || c.downcast_ref::<aeadfast_file::Error>()
                .is_some_and(aeadfast_file::Error::is_verification)
            || c.downcast_ref::<std::io::Error>()
                .and_then(aeadfast_file::Error::from_io)
                .is_some_and(aeadfast_file::Error::is_verification)
    });
    if verification { 1 } else { 2 }
}

/// Whether the error is a write to a closed pipe (`EPIPE`): the reader stopped early, as
/// `head` does; aeadfast then ends quietly, like coreutils killed by SIGPIPE.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `e`'s message without the operating system's "(os error N)" tail.
pub fn os_message(e: &dyn std::fmt::Display) -> String {
    let mut s = e.to_string();
    if let Some(at) = s.rfind(" (os error ")
        && s.ends_with(')')
    {
        s.truncate(at);
    }
    s
}

/// One line for an error: each cause once, joined by ": ", without "(os error N)" tails.
pub fn error_line(e: &anyhow::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in e.chain() {
        let s = os_message(&c);
        if !parts.iter().any(|p| p.contains(&s)) {
            parts.push(s);
        }
    }
    parts.join(": ")
}

/// Uses `n` threads for the parallel work (the process-wide pool); `None`: one per CPU.
pub fn set_threads(n: Option<u16>) -> anyhow::Result<()> {
    if let Some(n) = n {
        rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(n))
            .build_global()
            .map_err(|e| anyhow::anyhow!("cannot start {n} threads: {e}"))?;
    }
    Ok(())
}

/// `aeadfast encrypt`, in the format asked for.
pub fn encrypt(args: &EncryptArgs) -> anyhow::Result<ExitCode> {
    set_threads(args.common.num_threads)?;
    match args.common.format {
        FileFormat::Native => crypt::encrypt(args),
        FileFormat::Hiae | FileFormat::HiaeDetached => hiae_file::encrypt(args),
    }
}

/// `aeadfast decrypt`, in the format asked for.
pub fn decrypt(args: &DecryptArgs) -> anyhow::Result<ExitCode> {
    set_threads(args.common.num_threads)?;
    match args.common.format {
        FileFormat::Native => crypt::decrypt(args),
        FileFormat::Hiae | FileFormat::HiaeDetached => hiae_file::decrypt(args),
    }
}

/// Parses a byte count: decimal digits with an optional suffix `k`/`K` (× 1024), `m`/`M`
/// (× 1024²) or `g`/`G` (× 1024³), as fastAES's `-c` does.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let (digits, shift) = match s.as_bytes().last() {
        Some(b'k' | b'K') => (&s[..s.len() - 1], 10),
        Some(b'm' | b'M') => (&s[..s.len() - 1], 20),
        Some(b'g' | b'G') => (&s[..s.len() - 1], 30),
        _ => (s, 0),
    };
    let bad = || format!("'{s}' is not a size: expected digits with an optional k, M or G suffix");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n: u64 = digits.parse().map_err(|_| bad())?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("size '{s}' is too large"))
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("48"), Ok(48));
        assert_eq!(parse_size("1k"), Ok(1024));
        assert_eq!(parse_size("1K"), Ok(1024));
        assert_eq!(parse_size("3m"), Ok(3 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("0"), Ok(0));
        for bad in [
            "",
            "k",
            "1.5k",
            "-1",
            "1kb",
            " 1",
            "1T",
            "99999999999999999999",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size("17179869184G").is_err());
    }
}
