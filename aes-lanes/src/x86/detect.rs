//! CPU feature detection for the x86-64 tiers, cached after the first call.

cpufeatures::new!(aesni_cpuid, "aes", "sse2", "ssse3", "sse4.1");
cpufeatures::new!(avx_cpuid, "avx");
cpufeatures::new!(
    vaes512_cpuid,
    "aes",
    "avx",
    "avx2",
    "vaes",
    "avx512f",
    "avx512vl"
);

/// AES-NI with SSE4.1.
#[inline]
pub(crate) fn has_aesni() -> bool {
    aesni_cpuid::get()
}

/// AVX, with the OS saving its register state: the AES-NI tier then runs VEX-encoded code.
#[inline]
pub(crate) fn has_avx() -> bool {
    avx_cpuid::get()
}

/// VAES on 512-bit registers: VAES, AVX2, AVX-512F/VL/BW, and the OS saves AVX-512 state.
#[inline]
pub(crate) fn has_vaes512() -> bool {
    vaes512_cpuid::get()
}

/// VAES on 256-bit registers: VAES, AES-NI, AVX2 and OS support for AVX state.
///
/// `cpufeatures` 0.3 reports `vaes` only when AVX-512 state is enabled, which would hide this
/// tier from CPUs that have VAES but no AVX-512 (Zen 3, Alder Lake). So this check reads CPUID
/// and XCR0 itself.
#[inline]
pub(crate) fn has_vaes256() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};

    if cfg!(all(
        target_feature = "aes",
        target_feature = "avx2",
        target_feature = "vaes"
    )) {
        return true;
    }
    // 0 = not checked yet, 1 = absent, 2 = present.
    static CACHE: AtomicU8 = AtomicU8::new(0);
    match CACHE.load(Ordering::Relaxed) {
        0 => {
            let found = vaes256_cpuid();
            CACHE.store(if found { 2 } else { 1 }, Ordering::Relaxed);
            found
        }
        state => state == 2,
    }
}

#[cfg(miri)]
fn vaes256_cpuid() -> bool {
    false
}

#[cfg(not(miri))]
fn vaes256_cpuid() -> bool {
    use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};

    // CPUID is available on every x86-64 CPU.
    let leaf0 = __cpuid(0);
    if leaf0.eax < 7 {
        return false;
    }
    let leaf1 = __cpuid(1);
    let aes = leaf1.ecx & (1 << 25) != 0;
    let osxsave = leaf1.ecx & (1 << 27) != 0;
    let avx = leaf1.ecx & (1 << 28) != 0;
    if !(aes && osxsave && avx) {
        return false;
    }
    // SAFETY: OSXSAVE is set, so XGETBV is enabled and XCR0 (index 0) can be read.
    let xcr0 = unsafe { xgetbv0() };
    // XMM (bit 1) and YMM (bit 2) state must both be saved by the OS.
    if xcr0 & 0b110 != 0b110 {
        return false;
    }
    // Leaf 7 exists (checked against the maximum leaf above).
    let leaf7 = __cpuid_count(7, 0);
    let avx2 = leaf7.ebx & (1 << 5) != 0;
    let vaes = leaf7.ecx & (1 << 9) != 0;
    return avx2 && vaes;

    #[target_feature(enable = "xsave")]
    unsafe fn xgetbv0() -> u64 {
        // SAFETY: the caller checked OSXSAVE, so XGETBV does not fault.
        unsafe { _xgetbv(0) }
    }
}
