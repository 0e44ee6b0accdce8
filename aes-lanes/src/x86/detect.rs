//! Run-time x86-64 feature checks by name, from CPUID and XCR0: the one table behind every
//! tier's check (see [`tier!`](crate::tier::tier)).
//!
//! `cpufeatures` 0.3 reports `vaes` only when the OS saves AVX-512 state, which would hide the
//! VAES-AVX2 tier on CPUs with VAES but no AVX-512 (Zen 3, Alder Lake); this table asks for
//! the register state each feature really needs.

/// Register state a feature needs the OS to save (XCR0 bits).
#[derive(Clone, Copy)]
enum State {
    /// SSE registers only: nothing beyond what every x86-64 OS saves.
    Sse,
    /// `ymm`: XCR0 bits 1 and 2.
    Ymm,
    /// `zmm` and mask registers: XCR0 bits 1, 2, 5, 6 and 7.
    Zmm,
}

/// Where CPUID reports a feature.
#[derive(Clone, Copy)]
enum Reg {
    /// Leaf 1, ECX.
    L1Ecx,
    /// Leaf 1, EDX.
    L1Edx,
    /// Leaf 7 sub-leaf 0, EBX.
    L7Ebx,
    /// Leaf 7 sub-leaf 0, ECX.
    L7Ecx,
}

/// The features the tiers may name: `(name, CPUID register, bit, register state)`.
const TABLE: &[(&str, Reg, u32, State)] = &[
    ("sse2", Reg::L1Edx, 26, State::Sse),
    ("sse3", Reg::L1Ecx, 0, State::Sse),
    ("ssse3", Reg::L1Ecx, 9, State::Sse),
    ("sse4.1", Reg::L1Ecx, 19, State::Sse),
    ("sse4.2", Reg::L1Ecx, 20, State::Sse),
    ("pclmulqdq", Reg::L1Ecx, 1, State::Sse),
    ("aes", Reg::L1Ecx, 25, State::Sse),
    ("avx", Reg::L1Ecx, 28, State::Ymm),
    ("fma", Reg::L1Ecx, 12, State::Ymm),
    ("f16c", Reg::L1Ecx, 29, State::Ymm),
    ("avx2", Reg::L7Ebx, 5, State::Ymm),
    ("vaes", Reg::L7Ecx, 9, State::Ymm),
    ("avx512f", Reg::L7Ebx, 16, State::Zmm),
    ("avx512bw", Reg::L7Ebx, 30, State::Zmm),
    ("avx512vl", Reg::L7Ebx, 31, State::Zmm),
];

/// Whether the table knows `name` (a tier naming an unknown feature is never available; a test
/// checks that every tier's features are known).
#[cfg(test)]
pub(crate) fn known(name: &str) -> bool {
    TABLE.iter().any(|&(n, ..)| n == name)
}

/// Whether the CPU has feature `name` and the OS saves the registers it needs. Unknown names:
/// false. Under Miri (no CPUID): false, so only features enabled at compile time count.
pub(crate) fn has(name: &str) -> bool {
    if cfg!(miri) {
        return false;
    }
    let Some(&(_, reg, bit, state)) = TABLE.iter().find(|&&(n, ..)| n == name) else {
        return false;
    };
    let cpu = read();
    let word = match reg {
        Reg::L1Ecx => cpu.l1_ecx,
        Reg::L1Edx => cpu.l1_edx,
        Reg::L7Ebx => cpu.l7_ebx,
        Reg::L7Ecx => cpu.l7_ecx,
    };
    let os = match state {
        State::Sse => true,
        State::Ymm => cpu.xcr0 & 0b110 == 0b110,
        State::Zmm => cpu.xcr0 & 0b1110_0110 == 0b1110_0110,
    };
    word & (1 << bit) != 0 && os
}

/// The CPUID words and XCR0 the table reads.
struct Cpu {
    l1_ecx: u32,
    l1_edx: u32,
    l7_ebx: u32,
    l7_ecx: u32,
    /// 0 when the OS has not enabled XSAVE (no AVX state then).
    xcr0: u64,
}

#[cfg(miri)]
fn read() -> Cpu {
    unreachable!("`has` returns before reading CPUID under Miri")
}

#[cfg(not(miri))]
fn read() -> Cpu {
    use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};

    // `__cpuid` is a safe function in recent Rust and an unsafe one in older versions (the minimum
    // supported version is older), hence the `unsafe` blocks that newer compilers call unused.
    // SAFETY: CPUID exists on every x86-64 CPU.
    #[allow(unused_unsafe)]
    let (max_leaf, l1) = unsafe { (__cpuid(0).eax, __cpuid(1)) };
    let (l7_ebx, l7_ecx) = if max_leaf >= 7 {
        // SAFETY: leaf 7 exists (checked against the maximum leaf just above).
        #[allow(unused_unsafe)]
        let l7 = unsafe { __cpuid_count(7, 0) };
        (l7.ebx, l7.ecx)
    } else {
        (0, 0)
    };
    let osxsave = l1.ecx & (1 << 27) != 0;
    let xcr0 = if osxsave {
        // SAFETY: OSXSAVE is set, so the OS enabled XGETBV and XCR0 (index 0) can be read.
        unsafe { xgetbv0() }
    } else {
        0
    };
    return Cpu {
        l1_ecx: l1.ecx,
        l1_edx: l1.edx,
        l7_ebx,
        l7_ecx,
        xcr0,
    };

    #[target_feature(enable = "xsave")]
    unsafe fn xgetbv0() -> u64 {
        // SAFETY: the caller checked OSXSAVE, so XGETBV does not fault.
        unsafe { _xgetbv(0) }
    }
}
