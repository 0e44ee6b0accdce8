//! Backend selection: which implementation of [`Lanes`](crate::Lanes) runs, chosen once at run
//! time from the CPU's features.

use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering};

use crate::{Lanes, Soft};

/// An implementation tier of the AES lane primitive.
///
/// Listed from fastest to slowest; [`Backend::detect`] picks the first one the CPU can run.
///
/// ```
/// use aes_lanes::Backend;
/// let best = Backend::detect();
/// assert!(best.is_available());
/// assert!(Backend::available().any(|b| b == Backend::Portable));
/// println!("using {}", best.name());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// x86-64 VAES with AVX-512F/VL/BW: four lanes per `zmm` register.
    Vaes512,
    /// x86-64 VAES with AVX2: two lanes per `ymm` register.
    Vaes256,
    /// x86-64 AES-NI: one lane per `xmm` register.
    AesNi,
    /// aarch64 AES with SHA3 (`eor3` three-way XOR).
    ArmSha3,
    /// aarch64 AES (`aese` + `aesmc`).
    ArmAes,
    /// Portable constant-time bitsliced AES, no CPU requirements.
    Portable,
}

impl Backend {
    /// Every backend, fastest first.
    pub const ALL: [Backend; 6] = [
        Backend::Vaes512,
        Backend::Vaes256,
        Backend::AesNi,
        Backend::ArmSha3,
        Backend::ArmAes,
        Backend::Portable,
    ];

    /// The fastest backend this CPU can run (the result of detection is cached).
    #[inline]
    pub fn detect() -> Backend {
        // The index in `ALL` of the backend found, or `u8::MAX` before the first call: one
        // load per call instead of a check per tier (a one-shot call on a short input is
        // a few dozen nanoseconds).
        static FOUND: AtomicU8 = AtomicU8::new(u8::MAX);
        if let Some(&b) = Self::ALL.get(usize::from(FOUND.load(Ordering::Relaxed))) {
            return b;
        }
        let i = Self::ALL
            .iter()
            .position(|b| b.is_available())
            .expect("the portable backend is always available");
        FOUND.store(i as u8, Ordering::Relaxed);
        Self::ALL[i]
    }

    /// Every backend this CPU can run, fastest first; always ends with [`Backend::Portable`].
    pub fn available() -> impl Iterator<Item = Backend> + Clone {
        Self::ALL.into_iter().filter(|b| b.is_available())
    }

    /// Whether this CPU (and this build) can run the backend.
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(x86_backends)]
            Backend::Vaes512 => crate::x86::has_vaes512(),
            #[cfg(x86_backends)]
            Backend::Vaes256 => crate::x86::has_vaes256(),
            #[cfg(x86_backends)]
            Backend::AesNi => crate::x86::has_aesni(),
            #[cfg(arm_backends)]
            Backend::ArmSha3 => crate::arm::has_arm_sha3(),
            #[cfg(arm_backends)]
            Backend::ArmAes => crate::arm::has_arm_aes(),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Short stable name, e.g. `"VAES-AVX512"`, as used by `--backend` options.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Vaes512 => "VAES-AVX512",
            Backend::Vaes256 => "VAES-AVX2",
            Backend::AesNi => "AES-NI",
            Backend::ArmSha3 => "ARM-AES-SHA3",
            Backend::ArmAes => "ARM-AES",
            Backend::Portable => "Portable",
        }
    }

    /// Parses a [`name`](Backend::name) (case-insensitive; `-` and `_` are interchangeable).
    ///
    /// ```
    /// use aes_lanes::Backend;
    /// assert_eq!(Backend::from_name("aes-ni"), Some(Backend::AesNi));
    /// assert_eq!(Backend::from_name("vaes_avx512"), Some(Backend::Vaes512));
    /// assert_eq!(Backend::from_name("nope"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Backend> {
        let same = |a: &str| {
            a.len() == name.len()
                && a.bytes().zip(name.bytes()).all(|(x, y)| {
                    let y = if y == b'_' { b'-' } else { y };
                    x.eq_ignore_ascii_case(&y)
                })
        };
        Self::ALL.into_iter().find(|b| same(b.name()))
    }

    /// The backends a comma-separated list of [`name`](Backend::name)s selects, fastest first,
    /// each checked to be available here; `None` selects every available backend. For options
    /// and environment variables that restrict which backends a tool or a test suite runs: a
    /// name that is unknown or not available is an error, so a typo never selects nothing.
    ///
    /// ```
    /// use aes_lanes::Backend;
    /// let all: Vec<Backend> = Backend::select(None).unwrap().collect();
    /// assert_eq!(all, Backend::available().collect::<Vec<_>>());
    /// let one: Vec<Backend> = Backend::select(Some("portable")).unwrap().collect();
    /// assert_eq!(one, [Backend::Portable]);
    /// assert!(Backend::select(Some("Portable, nope")).is_err());
    /// // On x86-64 the Arm tiers, on aarch64 the x86 tiers, are never available.
    /// let missing = Backend::ALL.into_iter().find(|b| !b.is_available()).unwrap();
    /// assert!(Backend::select(Some(missing.name())).is_err());
    /// ```
    pub fn select(
        list: Option<&str>,
    ) -> Result<impl Iterator<Item = Backend> + Clone, SelectError<'_>> {
        let mut chosen = [list.is_none(); Self::ALL.len()];
        for name in list.into_iter().flat_map(|l| l.split(',')).map(str::trim) {
            let b = Self::from_name(name).ok_or(SelectError::Unknown(name))?;
            if !b.is_available() {
                return Err(SelectError::Unavailable(b));
            }
            if let Some(i) = Self::ALL.iter().position(|&x| x == b) {
                chosen[i] = true;
            }
        }
        Ok(Self::ALL
            .into_iter()
            .zip(chosen)
            .filter(|&(b, c)| c && b.is_available())
            .map(|(b, _)| b))
    }

    /// A [`Token`] for this backend, or an error if the CPU cannot run it.
    pub fn token(self) -> Result<Token, Unavailable> {
        if self.is_available() {
            Ok(Token(self))
        } else {
            Err(Unavailable(self))
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error: the requested backend cannot run on this CPU or in this build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unavailable(pub Backend);

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} backend is not available on this CPU",
            self.0.name()
        )
    }
}

impl core::error::Error for Unavailable {}

/// Error from [`Backend::select`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectError<'a> {
    /// A name that is no backend's.
    Unknown(&'a str),
    /// A backend this CPU (or this build) cannot run.
    Unavailable(Backend),
}

impl fmt::Display for SelectError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SelectError::Unknown(name) => write!(f, "unknown backend {name:?}"),
            SelectError::Unavailable(b) => fmt::Display::fmt(&Unavailable(*b), f),
        }
    }
}

impl core::error::Error for SelectError<'_> {}

/// Proof that a [`Backend`] can run here; the only way to run lane code on it.
///
/// Obtained from [`Token::detect`] or [`Backend::token`]. It is `Copy` and costs nothing to
/// keep in a cipher instance, so detection happens once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token(Backend);

impl Default for Token {
    fn default() -> Self {
        Self::detect()
    }
}

impl Token {
    /// The token of the fastest available backend.
    #[inline]
    pub fn detect() -> Token {
        Token(Backend::detect())
    }

    /// The portable backend's token (always available).
    pub const fn portable() -> Token {
        Token(Backend::Portable)
    }

    /// Which backend this token runs.
    pub const fn backend(self) -> Backend {
        self.0
    }

    /// Runs `op` with the lane type of this backend for `Op::LANES` lanes, compiled with the
    /// backend's target features (call this once per message, not per block).
    ///
    /// | backend | 1 lane | 2 lanes | 4 lanes |
    /// |---|---|---|---|
    /// | `Vaes512` | xmm | ymm | zmm |
    /// | `Vaes256` | xmm | ymm | 2 × ymm |
    /// | `AesNi` | xmm | 2 × xmm | 4 × xmm |
    /// | `ArmSha3`, `ArmAes` | q-reg | 2 × q-reg | 4 × q-reg |
    /// | `Portable` | `Soft<1>` | `Soft<2>` | `Soft<4>` |
    ///
    /// ```
    /// use aes_lanes::{LaneOp, Lanes, Token};
    ///
    /// /// Applies AESL to one block.
    /// struct Aesl([u8; 16]);
    /// impl LaneOp for Aesl {
    ///     const LANES: usize = 1;
    ///     type Output = [u8; 16];
    ///     #[inline(always)]
    ///     fn run<L: Lanes>(self) -> [u8; 16] {
    ///         let mut out = [0u8; 16];
    ///         L::load(&self.0).aesl().store(&mut out);
    ///         out
    ///     }
    /// }
    /// let x = hex_literal::hex!("00112233445566778899aabbccddeeff");
    /// let y = hex_literal::hex!("6379e6d9f467fb76ad063cf4d2eb8aa3");
    /// assert_eq!(Token::detect().dispatch(Aesl(x)), y);
    /// ```
    #[inline(always)]
    pub fn dispatch<Op: LaneOp>(self, op: Op) -> Op::Output {
        const { assert!(Op::LANES == 1 || Op::LANES == 2 || Op::LANES == 4) };
        // The entry points take the operation by reference and read it field by field. Passed
        // by value, an operation of more than two words was copied for the call with 16-byte
        // loads of fields just written with 8-byte stores; such a load cannot take its data
        // from the store buffer and waits for the stores to retire (about 80 cycles per call
        // on AMD Zen 4). For the same reason this function is always inlined: called out of
        // line, it received the operation in memory and copied it into the `Option` below
        // the same way.
        let op = &mut Some(op);
        match self.0 {
            #[cfg(x86_backends)]
            // SAFETY: a `Token` for Vaes512 exists only if `has_vaes512()` returned true.
            #[allow(unsafe_code)]
            Backend::Vaes512 => unsafe { crate::x86::run_vaes512(op) },
            #[cfg(x86_backends)]
            Backend::Vaes256 => match Op::LANES {
                // One lane is `Xmm` in VEX encoding on both AVX tiers: the same code, so one
                // instance of it.
                // SAFETY: a `Token` for Vaes256 exists only if `has_vaes256()` returned true,
                // and the VAES-AVX2 feature list contains the AES-NI-AVX one (tested).
                #[allow(unsafe_code)]
                1 => unsafe { crate::x86::run_aesni_avx(op) },
                // SAFETY: a `Token` for Vaes256 exists only if `has_vaes256()` returned true.
                #[allow(unsafe_code)]
                _ => unsafe { crate::x86::run_vaes256(op) },
            },
            #[cfg(x86_backends)]
            Backend::AesNi if crate::x86::has_aesni_avx() => {
                // SAFETY: `has_aesni_avx()` (checked just above) returned true.
                #[allow(unsafe_code)]
                unsafe {
                    crate::x86::run_aesni_avx(op)
                }
            }
            #[cfg(x86_backends)]
            // SAFETY: a `Token` for AesNi exists only if `has_aesni()` returned true.
            #[allow(unsafe_code)]
            Backend::AesNi => unsafe { crate::x86::run_aesni(op) },
            #[cfg(arm_backends)]
            // SAFETY: a `Token` for ArmSha3 exists only if `has_arm_sha3()` returned true.
            #[allow(unsafe_code)]
            Backend::ArmSha3 => unsafe { crate::arm::run_arm_sha3(op) },
            #[cfg(arm_backends)]
            // SAFETY: a `Token` for ArmAes exists only if `has_arm_aes()` returned true.
            #[allow(unsafe_code)]
            Backend::ArmAes => unsafe { crate::arm::run_arm_aes(op) },
            _ => run_portable(op),
        }
    }

    /// The token to run a computation on whose AES rounds form one long dependency chain per
    /// register of at most two lanes over `len` bytes of data (HiAE or HiAEx2 decryption,
    /// say): on a VAES-AVX512 CPU, from 4 KiB on, the VAES-AVX2 tier, whose VEX-encoded loops
    /// run such a chain faster than the EVEX-encoded ones; below that, and everywhere else,
    /// `self`. Results and serialized states are the same on both.
    ///
    /// ```
    /// use aes_lanes::Token;
    /// let t = Token::detect();
    /// assert_eq!(t.for_serial_chain(64), t);
    /// ```
    #[inline]
    pub fn for_serial_chain(self, len: usize) -> Token {
        if len >= SERIAL_CHAIN_AVX2_MIN
            && self.0 == Backend::Vaes512
            && let Ok(t) = Backend::Vaes256.token()
        {
            return t;
        }
        self
    }
}

impl Token {
    /// The token of the same CPU whose lane type has no fused three-way XOR: on an aarch64 CPU
    /// with SHA3, [`Backend::ArmAes`] instead of [`Backend::ArmSha3`]; every other token is
    /// returned as it is. For loops whose XORs sit between AES rounds (HiAE's encryption and
    /// decryption): LLVM's models of Neoverse cores issue `eor3` on one vector pipe where `eor`
    /// and the AES instructions use all of them, and with SHA3 enabled LLVM fuses such XOR
    /// chains into `eor3` by itself. Results and serialized states are the same on both.
    ///
    /// ```
    /// use aes_lanes::{Backend, Token};
    /// let t = Token::portable();
    /// assert_eq!(t.without_fused_xor3().backend(), Backend::Portable);
    /// ```
    #[inline]
    pub fn without_fused_xor3(self) -> Token {
        #[cfg(arm_backends)]
        if self.0 == Backend::ArmSha3
            && let Ok(t) = Backend::ArmAes.token()
        {
            return t;
        }
        self
    }
}

/// Length from which [`Token::for_serial_chain`] switches: above the crossover of the two
/// codes (the EVEX code's set-up is shorter, its chain loop slower; see PERFORMANCE.md).
const SERIAL_CHAIN_AVX2_MIN: usize = 4096;

/// Portable entry point. Not inlined into [`Token::dispatch`]: in unoptimized builds the
/// 16-way unrolled bitsliced code of a big operation needs a stack frame of over a megabyte,
/// which `dispatch` would then reserve on every call, on top of the hardware backend's own.
#[inline(never)]
fn run_portable<Op: LaneOp>(slot: &mut Option<Op>) -> Op::Output {
    run_with::<Op, SoftSet>(take_op(slot))
}

/// The lane types of one backend for 1, 2 and 4 lanes: the one list from which its entry
/// point runs an operation ([`run_with`]) and [`Token::shape`] reads their properties.
pub(crate) trait LaneSet {
    /// The lane type for one lane.
    type One: Lanes;
    /// The lane type for two lanes.
    type Two: Lanes;
    /// The lane type for four lanes.
    type Four: Lanes;
}

/// The portable backend's lane types.
struct SoftSet;

impl LaneSet for SoftSet {
    type One = Soft<1>;
    type Two = Soft<2>;
    type Four = Soft<4>;
}

/// Runs `op` with `S`'s lane type for its lane count.
#[inline(always)]
pub(crate) fn run_with<Op: LaneOp, S: LaneSet>(op: Op) -> Op::Output {
    match Op::LANES {
        1 => op.run::<S::One>(),
        2 => op.run::<S::Two>(),
        4 => op.run::<S::Four>(),
        n => panic!("unsupported lane count {n}"),
    }
}

/// The [`LaneShape`] of `S`'s lane type for `lanes` lanes.
const fn shape_of<S: LaneSet>(lanes: usize) -> LaneShape {
    const fn of<L: Lanes>() -> LaneShape {
        LaneShape {
            parts: L::PARTS,
            registers: L::REGISTERS,
        }
    }
    match lanes {
        1 => of::<S::One>(),
        2 => of::<S::Two>(),
        4 => of::<S::Four>(),
        _ => panic!("unsupported lane count"),
    }
}

/// Properties of the lane type that [`Token::dispatch`] runs for a lane count on a backend
/// ([`Token::shape`]): for choosing between operations before dispatching one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaneShape {
    /// [`Lanes::PARTS`]: registers per value of all lanes.
    pub parts: usize,
    /// [`Lanes::REGISTERS`]: vector registers of the instruction set (0: the lanes are not
    /// held in vector registers).
    pub registers: usize,
}

impl Token {
    /// The [`LaneShape`] of the lane type [`dispatch`](Self::dispatch) runs for `lanes` lanes
    /// (1, 2 or 4; others panic) on this token's backend, without a call: a caller can pick
    /// the operation for the lane type before dispatching it.
    ///
    /// ```
    /// use aes_lanes::{LaneOp, Lanes, Token};
    ///
    /// /// Reports the lane type's registers per value.
    /// struct Parts;
    /// impl LaneOp for Parts {
    ///     const LANES: usize = 4;
    ///     type Output = usize;
    ///     #[inline(always)]
    ///     fn run<L: Lanes>(self) -> usize {
    ///         L::PARTS
    ///     }
    /// }
    /// let t = Token::detect();
    /// assert_eq!(t.shape(4).parts, t.dispatch(Parts));
    /// ```
    #[inline]
    pub fn shape(self, lanes: usize) -> LaneShape {
        match self.0 {
            #[cfg(x86_backends)]
            Backend::Vaes512 => shape_of::<crate::x86::Vaes512Set>(lanes),
            #[cfg(x86_backends)]
            Backend::Vaes256 => shape_of::<crate::x86::Vaes256Set>(lanes),
            #[cfg(x86_backends)]
            Backend::AesNi => shape_of::<crate::x86::AesNiSet>(lanes),
            #[cfg(arm_backends)]
            Backend::ArmSha3 => shape_of::<crate::arm::ArmSet<crate::arm::NeonSha3>>(lanes),
            #[cfg(arm_backends)]
            Backend::ArmAes => shape_of::<crate::arm::ArmSet<crate::arm::Neon>>(lanes),
            // The portable backend, and those of other architectures, which `dispatch` runs
            // portably too (no token for them exists here).
            _ => shape_of::<SoftSet>(lanes),
        }
    }
}

/// Takes the operation an entry point was given (see [`Token::dispatch`]).
#[inline(always)]
pub(crate) fn take_op<Op>(slot: &mut Option<Op>) -> Op {
    slot.take()
        .expect("an entry point runs the operation it was given once")
}

/// A computation written once against [`Lanes`], run by [`Token::dispatch`] with the lane
/// type of the selected backend.
///
/// Implement `run` as `#[inline(always)]` generic code with no `#[target_feature]`; it is
/// compiled separately into each backend's entry point.
pub trait LaneOp {
    /// How many 128-bit lanes the computation works on: 1, 2 or 4.
    const LANES: usize;
    /// What the computation returns.
    type Output;
    /// Runs the computation with lane type `L` (`L::LANES == Self::LANES`).
    fn run<L: Lanes>(self) -> Self::Output;
}
