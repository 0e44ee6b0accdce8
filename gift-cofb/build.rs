//! Sets the `x86_simd` / `arm_simd` cfgs: whether the SIMD backends can be compiled for the
//! target.
//!
//! * x86 and x86-64 need SSE2 in the target (on soft-float targets such as
//!   `x86_64-unknown-none`, LLVM cannot build vector code); the AVX2 and AVX-512 tiers are then
//!   chosen at run time.
//! * aarch64 needs NEON in the target: the NEON tier is then always available (it is part of
//!   the target), so it needs no run-time detection.
//! * Under Miri the backends are compiled too; detection then reports only the features
//!   enabled at compile time, so `RUSTFLAGS="-C target-feature=+avx2,…"` makes Miri interpret
//!   a SIMD tier.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(x86_simd)");
    println!("cargo::rustc-check-cfg=cfg(arm_simd)");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let arch = var("CARGO_CFG_TARGET_ARCH");
    let features = var("CARGO_CFG_TARGET_FEATURE");
    let has = |f: &str| features.split(',').any(|x| x == f);
    if (arch == "x86_64" || arch == "x86") && has("sse2") {
        println!("cargo::rustc-cfg=x86_simd");
    }
    if arch == "aarch64" && has("neon") {
        println!("cargo::rustc-cfg=arm_simd");
    }
}
