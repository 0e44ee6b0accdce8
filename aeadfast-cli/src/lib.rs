//! Library part of the `aeadfast` tool: the pieces the binary, the benches and the fuzz
//! targets share.

pub mod format;
