//! Backend selection: which implementation runs the messages, chosen once from the CPU's
//! features.

use core::fmt;

/// An implementation tier of GIFT-COFB.
///
/// Listed from fastest to slowest; [`Backend::detect`] picks the first one the CPU can run.
/// Every backend computes exactly the same results; they differ only in speed.
///
/// | backend | messages per batch step ([`lanes`](Backend::lanes)) | one message ([`single_message`](Backend::single_message)) |
/// |---|---|---|
/// | `AVX512` | 16: two groups of 8 in `ymm` registers, `vpternlogd` and `vprold` | `AVX512`: the state in `xmm` registers, same instructions |
/// | `AVX2` | 8: one per 32-bit lane of a `ymm` register | `Portable` |
/// | `NEON` | 4: one per 32-bit lane of a `q` register | `Portable` |
/// | `Portable` | 1: one message after the other | `Portable` |
///
/// ```
/// use gift_cofb::Backend;
/// let best = Backend::detect();
/// assert!(best.is_available());
/// assert!(Backend::available().any(|b| b == Backend::Portable));
/// println!("using {} ({} messages per batch step)", best.name(), best.lanes());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// x86-64 (or x86 with SSE2) with AVX-512F and AVX-512VL (and the AVX2 generation below
    /// them), detected at run time.
    Avx512,
    /// x86-64 (or x86 with SSE2) with AVX2 (and the SSE and AVX generations below it), detected
    /// at run time.
    Avx2,
    /// aarch64 with NEON: part of every aarch64 target with hardware floating point, so
    /// available exactly when the target has it.
    Neon,
    /// Portable constant-time fixsliced code on 32-bit words, no CPU requirements.
    Portable,
}

impl Backend {
    /// Every backend, fastest first.
    pub const ALL: [Backend; 4] = [
        Backend::Avx512,
        Backend::Avx2,
        Backend::Neon,
        Backend::Portable,
    ];

    /// The fastest backend this CPU can run (the result of detection is cached).
    pub fn detect() -> Backend {
        Self::available().next().unwrap_or(Backend::Portable)
    }

    /// Every backend this CPU can run, fastest first; always ends with [`Backend::Portable`].
    pub fn available() -> impl Iterator<Item = Backend> + Clone {
        Self::ALL.into_iter().filter(|b| b.is_available())
    }

    /// Whether this CPU (and this build) can run the backend: the CPU has every feature the
    /// backend's code is compiled with.
    pub fn is_available(self) -> bool {
        crate::backends::detected(self)
    }

    /// Short stable name: `"AVX512"`, `"AVX2"`, `"NEON"` or `"Portable"`, as used by
    /// `--backend` options.
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Avx512 => "AVX512",
            Backend::Avx2 => "AVX2",
            Backend::Neon => "NEON",
            Backend::Portable => "Portable",
        }
    }

    /// Parses a [`name`](Backend::name) (case-insensitive; `-` and `_` are interchangeable,
    /// and `AVX-512` is accepted for `AVX512`).
    ///
    /// ```
    /// use gift_cofb::Backend;
    /// assert_eq!(Backend::from_name("avx2"), Some(Backend::Avx2));
    /// assert_eq!(Backend::from_name("AVX-512"), Some(Backend::Avx512));
    /// assert_eq!(Backend::from_name("portable"), Some(Backend::Portable));
    /// assert_eq!(Backend::from_name("nope"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Backend> {
        let norm = |c: u8| match c {
            b'_' => b'-',
            c => c.to_ascii_uppercase(),
        };
        let same = |a: &str| {
            a.len() == name.len() && a.bytes().zip(name.bytes()).all(|(x, y)| norm(x) == norm(y))
        };
        if same("AVX-512") {
            return Some(Backend::Avx512);
        }
        Self::ALL.into_iter().find(|b| same(b.name()))
    }

    /// A [`Token`] for this backend, or an error if the CPU cannot run it.
    pub fn token(self) -> Result<Token, Unavailable> {
        if self.is_available() {
            Ok(Token(self))
        } else {
            Err(Unavailable(self))
        }
    }

    /// How many messages one batch step processes side by side: 16, 8, 4 or 1. A batch of
    /// any size is accepted; it runs in steps of this many messages.
    pub const fn lanes(self) -> usize {
        match self {
            Backend::Avx512 => 16,
            Backend::Avx2 => 8,
            Backend::Neon => 4,
            Backend::Portable => 1,
        }
    }

    /// The backend that runs one message (the [`AeadInOut`](crate::AeadInOut) methods) of a
    /// cipher created with this backend: `AVX512` has code for one message, whose state fits
    /// in `xmm` registers; the other tiers gain nothing from vector registers when there is
    /// only one message, so they run it on `Portable`.
    pub const fn single_message(self) -> Backend {
        match self {
            Backend::Avx512 => Backend::Avx512,
            _ => Backend::Portable,
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

/// Proof that a [`Backend`] can run here: the only way to reach its code.
///
/// Obtained from [`Token::detect`] or [`Backend::token`], which check the CPU. It is `Copy`
/// and costs nothing to keep in a cipher instance, so detection happens once and nothing
/// checks again (or falls back) later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Token(Backend);

impl Default for Token {
    fn default() -> Self {
        Self::detect()
    }
}

impl Token {
    /// The token of the fastest available backend.
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

    /// The token that runs one message for this one (see [`Backend::single_message`]): a
    /// token for `AVX512` stays one; the others give the portable token.
    pub(crate) const fn single_message(self) -> Token {
        Token(self.0.single_message())
    }
}
