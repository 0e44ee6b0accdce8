//! hiae benchmarks (being written).
fn main() {}
