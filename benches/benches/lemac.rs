//! lemac benchmarks (being written).
fn main() {}
