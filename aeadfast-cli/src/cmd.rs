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
pub mod sum;

/// Exit status for an error: 1 if the data did not verify or a check failed, 2 otherwise
/// (usage, I/O).
pub fn exit_status(e: &anyhow::Error) -> u8 {
    let verification = e.chain().any(|c| {
        c.is::<files::Rejected>()
            || c.downcast_ref::<aeadfast_cli::format::FormatError>()
                .is_some_and(aeadfast_cli::format::FormatError::is_verification)
    });
    if verification { 1 } else { 2 }
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
