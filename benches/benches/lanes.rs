//! Lane primitive benchmarks.
fn main() {}
