//! The `aeadfast` command-line tool.
fn main() {}
