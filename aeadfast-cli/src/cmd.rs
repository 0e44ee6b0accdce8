//! One module per subcommand.

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
