//! Sets the `x86_backends` / `arm_backends` cfgs: whether hardware AES backends can be
//! compiled for the target.
//!
//! * x86-64 needs SSE2 in the target (on `x86_64-unknown-none`, a soft-float target, LLVM
//!   fails on any `#[target_feature(enable = "aes")]` function).
//! * aarch64 needs NEON and an OS whose feature detection `cpufeatures` supports.
//! * Under Miri the backends are compiled too, but detection then reports only the features
//!   enabled at compile time (`cpufeatures` and our VAES check read no CPUID there): a plain
//!   `cargo miri test` runs the portable backend, and `RUSTFLAGS="-C target-feature=+vaes,…"`
//!   makes Miri interpret a hardware tier (its x86 shims implement AES-NI, VAES and the AVX2 /
//!   AVX-512 operations the lanes use). CI runs the VAES-AVX512 tier that way, as no CPU or
//!   emulator it has executes AVX-512.
fn main() {
    println!("cargo::rustc-check-cfg=cfg(x86_backends)");
    println!("cargo::rustc-check-cfg=cfg(arm_backends)");
    let var = |k: &str| std::env::var(k).unwrap_or_default();
    let arch = var("CARGO_CFG_TARGET_ARCH");
    let os = var("CARGO_CFG_TARGET_OS");
    let vendor = var("CARGO_CFG_TARGET_VENDOR");
    let features = var("CARGO_CFG_TARGET_FEATURE");
    let has = |f: &str| features.split(',').any(|x| x == f);
    if arch == "x86_64" && has("sse2") {
        println!("cargo::rustc-cfg=x86_backends");
    }
    if arch == "aarch64" && has("neon") && (os == "linux" || os == "android" || vendor == "apple") {
        println!("cargo::rustc-cfg=arm_backends");
    }
}
