//! Library part of the `aeadfast` tool: the pieces the binary, the benches and the fuzz
//! targets share. The file format itself is the `aeadfast-file` crate (re-exported as
//! [`format`] for the code that still names it so).

pub use aeadfast_file as format;
