//! `aeadfast info`: CPU features and the backend each algorithm picks.

use std::process::ExitCode;

use aes_lanes::aes128::RecordsKernel;
use aes_lanes::{Backend, Token};
use gift_cofb::GiftCofb;
use hiae::{Hiae, HiaeX2, HiaeX4, KeyInit};
use lemac::{LeMacKey, LeMacKeyX2, LeMacKeyX4};

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
    say!("aeadfast {}", env!("CARGO_PKG_VERSION"))?;
    say!(
        "target: {}-{}",
        std::env::consts::ARCH,
        std::env::consts::OS
    )?;
    let features = cpu_features();
    if !features.is_empty() {
        let line: Vec<String> = features
            .iter()
            .map(|f| format!("{}{}", if f.present { "+" } else { "-" }, f.name))
            .collect();
        say!("cpu features: {}", line.join(" "))?;
    }
    let available: Vec<&str> = Backend::available().map(Backend::name).collect();
    say!("AES lane backends available: {}", available.join(", "))?;
    say!("AES lane backend selected:   {}", Backend::detect().name())?;
    let gift: Vec<&str> = gift_cofb::Backend::available()
        .map(gift_cofb::Backend::name)
        .collect();
    say!("GIFT-COFB backends available: {}", gift.join(", "))?;
    say!("implementations selected:")?;
    for (name, implementation) in implementations() {
        say!("  {name:<24} {implementation}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// (algorithm, the implementation it picks on this CPU), as the crates report them.
fn implementations() -> Vec<(&'static str, String)> {
    let hiae_key = [0u8; 32].into();
    let gift = GiftCofb::new(&[0u8; 16].into()).backend();
    vec![
        ("HiAE", Hiae::new(&hiae_key).implementation_name().into()),
        (
            "HiAEx2",
            HiaeX2::new(&hiae_key).implementation_name().into(),
        ),
        (
            "HiAEx4",
            HiaeX4::new(&hiae_key).implementation_name().into(),
        ),
        (
            "LeMac",
            LeMacKey::new(&[0; 16]).implementation_name().into(),
        ),
        (
            "LeMacX2",
            LeMacKeyX2::new(&[0; 16]).implementation_name().into(),
        ),
        (
            "LeMacX4",
            LeMacKeyX4::new(&[0; 16]).implementation_name().into(),
        ),
        (
            "GIFT-COFB (one message)",
            gift.single_message().name().into(),
        ),
        (
            "GIFT-COFB (batch)",
            format!("{} ({} messages per step)", gift.name(), gift.lanes()),
        ),
        (
            "AES-128 bulk (aes128)",
            RecordsKernel::new(Token::detect()).to_string(),
        ),
    ]
}
