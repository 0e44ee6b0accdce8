//! gift_cofb benchmarks (being written).
fn main() {}
