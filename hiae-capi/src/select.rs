//! Which implementation (backend) each variant runs on: automatic detection, or the one
//! forced process-wide through `<P>_force_implementation` (one setting per variant, kept in an
//! atomic).

use core::ffi::CStr;
use core::sync::atomic::{AtomicU8, Ordering};

use hiae::{Backend, Variant};

/// Stored in a slot when no backend is forced.
const AUTO: u8 = u8::MAX;

/// The forced backend of HiAE, HiAEx2, HiAEx4 (an index into [`Backend::ALL`], or [`AUTO`]).
static FORCED: [AtomicU8; 3] = [const { AtomicU8::new(AUTO) }; 3];

/// The slot of variant `V`.
fn slot<V: Variant>() -> &'static AtomicU8 {
    &FORCED[V::LANES.trailing_zeros() as usize]
}

/// The backend `V`'s calls run on now: the forced one, or the fastest available.
pub(crate) fn backend<V: Variant>() -> Backend {
    let i = usize::from(slot::<V>().load(Ordering::Relaxed));
    match Backend::ALL.get(i) {
        Some(&b) => b,
        None => Backend::detect(),
    }
}

/// Forces `name`'s backend for `V` (`None`: back to automatic selection).
///
/// # Errors
/// If the name is unknown or its backend cannot run here; the setting is then unchanged.
pub(crate) fn force<V: Variant>(name: Option<&str>) -> Result<(), ()> {
    let value = match name {
        None => AUTO,
        Some(name) => {
            let b = parse(name).ok_or(())?;
            if !b.is_available() {
                return Err(());
            }
            let i = Backend::ALL.iter().position(|&x| x == b).ok_or(())?;
            u8::try_from(i).map_err(|_| ())?
        }
    };
    slot::<V>().store(value, Ordering::Relaxed);
    Ok(())
}

/// libhiae's implementation names (all three variants' lists), and a few spellings of the
/// same, with the backend each stands for. Compared after [`normalize`].
const LIBHIAE_NAMES: [(&str, Backend); 9] = [
    ("vaes-avx512", Backend::Vaes512), // libhiae "VAES+AVX512" (HiAE, HiAEx4), "VAES-AVX512"
    ("vaes-avx2", Backend::Vaes256),   // libhiae HiAEx2
    ("aes-ni", Backend::AesNi),
    ("aesni-avx", Backend::AesNi), // libhiae HiAEx2 without VAES
    ("arm-sha3", Backend::ArmSha3),
    ("arm-neon", Backend::ArmAes),
    ("arm", Backend::ArmAes),
    ("arm-crypto", Backend::ArmAes),
    ("software", Backend::Portable),
];

/// The backend a name stands for: our names ([`Backend::name`]) or libhiae's, ignoring ASCII
/// case and treating `-`, `_`, `+` and space alike.
pub(crate) fn parse(name: &str) -> Option<Backend> {
    let mut buf = [0u8; 32];
    let n = normalize(name, &mut buf)?;
    let key = &buf[..n];
    Backend::ALL
        .into_iter()
        .find(|b| {
            let mut ours = [0u8; 32];
            normalize(b.name(), &mut ours).is_some_and(|m| &ours[..m] == key)
        })
        .or_else(|| {
            LIBHIAE_NAMES
                .iter()
                .find(|(n, _)| n.as_bytes() == key)
                .map(|&(_, b)| b)
        })
}

/// Lower-cases `name` into `buf` with every separator (`-`, `_`, `+`, space) written as `-`;
/// returns the length, or `None` if `name` is longer than `buf`.
fn normalize(name: &str, buf: &mut [u8; 32]) -> Option<usize> {
    let dst = buf.get_mut(..name.len())?;
    for (d, &c) in dst.iter_mut().zip(name.as_bytes()) {
        *d = match c {
            b'_' | b'+' | b' ' => b'-',
            c => c.to_ascii_lowercase(),
        };
    }
    Some(name.len())
}

/// The C string returned by `<P>_get_implementation_name` for a backend: its
/// [`Backend::name`], NUL-terminated, static.
pub(crate) fn c_name(b: Backend) -> &'static CStr {
    match b {
        Backend::Vaes512 => c"VAES-AVX512",
        Backend::Vaes256 => c"VAES-AVX2",
        Backend::AesNi => c"AES-NI",
        Backend::ArmSha3 => c"ARM-AES-SHA3",
        Backend::ArmAes => c"ARM-AES",
        Backend::Portable => c"Portable",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for b in Backend::ALL {
            assert_eq!(parse(b.name()), Some(b));
            assert_eq!(c_name(b).to_str().unwrap(), b.name());
        }
        assert_eq!(parse("VAES+AVX512"), Some(Backend::Vaes512));
        assert_eq!(parse("vaes_avx512"), Some(Backend::Vaes512));
        assert_eq!(parse("VAES-AVX2"), Some(Backend::Vaes256));
        assert_eq!(parse("AESNI-AVX"), Some(Backend::AesNi));
        assert_eq!(parse("ARM SHA3"), Some(Backend::ArmSha3));
        assert_eq!(parse("ARM NEON"), Some(Backend::ArmAes));
        assert_eq!(parse("ARM"), Some(Backend::ArmAes));
        assert_eq!(parse("ARM-Crypto"), Some(Backend::ArmAes));
        assert_eq!(parse("Software"), Some(Backend::Portable));
        assert_eq!(parse(""), None);
        assert_eq!(parse("VAES"), None);
        assert_eq!(parse("portable-but-much-longer-than-any-name"), None);
    }
}
