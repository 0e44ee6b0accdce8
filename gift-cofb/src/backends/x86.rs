//! x86 feature checks that `cpufeatures` 0.3 has no name for.

use core::sync::atomic::{AtomicU8, Ordering};

/// F16C (CPUID leaf 1, ECX bit 29), which `rustc` enables along with AVX-512F. Its
/// instructions are VEX-encoded, so they also need the AVX register state that the tier's
/// `avx` check covers.
pub(super) fn has_f16c() -> bool {
    if cfg!(target_feature = "f16c") {
        return true;
    }
    // 0 = not checked yet, 1 = absent, 2 = present.
    static CACHE: AtomicU8 = AtomicU8::new(0);
    match CACHE.load(Ordering::Relaxed) {
        0 => {
            let found = f16c_cpuid();
            CACHE.store(if found { 2 } else { 1 }, Ordering::Relaxed);
            found
        }
        state => state == 2,
    }
}

/// Miri executes no CPUID: only the features enabled at compile time count there.
#[cfg(miri)]
fn f16c_cpuid() -> bool {
    false
}

#[cfg(not(miri))]
fn f16c_cpuid() -> bool {
    #[cfg(target_arch = "x86")]
    use core::arch::x86::__cpuid;
    #[cfg(target_arch = "x86_64")]
    use core::arch::x86_64::__cpuid;

    // `__cpuid` is a safe function in recent Rust and an unsafe one in older versions (the
    // minimum supported version is older), hence an `unsafe` block newer compilers call unused.
    // SAFETY: CPUID exists on every CPU this module is built for (x86-64, or x86 with SSE2),
    // and leaf 1 on every CPU that has it.
    #[allow(unused_unsafe, unsafe_code)]
    let l1 = unsafe { __cpuid(1) };
    l1.ecx & (1 << 29) != 0
}
