//! `aeadfast info`: CPU features and the backend each algorithm picks.

use std::process::ExitCode;

use aes_lanes::Backend;

/// Options of `aeadfast info`.
#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  aeadfast info")]
pub struct Args {}

/// A CPU feature and whether this machine has it.
struct Feature {
    name: &'static str,
    present: bool,
}

#[cfg(target_arch = "x86_64")]
fn cpu_features() -> Vec<Feature> {
    macro_rules! features {
        ($($f:tt),*) => {
            vec![$(Feature { name: $f, present: std::is_x86_feature_detected!($f) }),*]
        };
    }
    features!(
        "sse2",
        "ssse3",
        "sse4.1",
        "aes",
        "pclmulqdq",
        "avx",
        "avx2",
        "vaes",
        "vpclmulqdq",
        "avx512f",
        "avx512vl",
        "avx512bw"
    )
}

#[cfg(target_arch = "aarch64")]
fn cpu_features() -> Vec<Feature> {
    macro_rules! features {
        ($($f:tt),*) => {
            vec![$(Feature {
                name: $f,
                present: std::arch::is_aarch64_feature_detected!($f),
            }),*]
        };
    }
    features!("neon", "aes", "pmull", "sha3")
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn cpu_features() -> Vec<Feature> {
    Vec::new()
}

/// Prints the report.
pub fn run(_args: &Args) -> anyhow::Result<ExitCode> {
    println!("aeadfast {}", env!("CARGO_PKG_VERSION"));
    println!(
        "target: {}-{}",
        std::env::consts::ARCH,
        std::env::consts::OS
    );
    let features = cpu_features();
    if !features.is_empty() {
        let line: Vec<String> = features
            .iter()
            .map(|f| format!("{}{}", if f.present { "+" } else { "-" }, f.name))
            .collect();
        println!("cpu features: {}", line.join(" "));
    }
    let available: Vec<&str> = Backend::available().map(Backend::name).collect();
    println!("AES lane backends available: {}", available.join(", "));
    println!("AES lane backend selected:   {}", Backend::detect().name());
    Ok(ExitCode::SUCCESS)
}
