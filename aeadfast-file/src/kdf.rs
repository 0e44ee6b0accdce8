//! Passphrase keys: Argon2id parameters as stored in the header, the limits a reader accepts,
//! and key derivation into zeroized memory.

use std::io;

use zeroize::Zeroizing;

use crate::Error;

/// Fills `buf` from the operating system's random number generator.
///
/// # Errors
/// If the OS generator fails.
pub fn random_bytes(buf: &mut [u8]) -> io::Result<()> {
    getrandom::fill(buf).map_err(|e| io::Error::other(format!("OS random number generator: {e}")))
}

/// Argon2id (version 0x13) parameters and salt, stored in the header of passphrase files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Argon2Params {
    /// Memory in KiB (at least `8 × p`).
    pub m_kib: u32,
    /// Passes (at least 1).
    pub t: u32,
    /// Lanes (at least 1).
    pub p: u32,
    /// Random salt.
    pub salt: [u8; 16],
}

impl Argon2Params {
    /// Default memory: 64 MiB.
    pub const DEFAULT_M_KIB: u32 = 64 * 1024;
    /// Default passes.
    pub const DEFAULT_T: u32 = 3;
    /// Default lanes.
    pub const DEFAULT_P: u32 = 1;

    /// The default parameters (64 MiB, 3 passes, 1 lane) with a fresh random salt.
    ///
    /// # Errors
    /// If the OS random number generator fails.
    pub fn random_default() -> io::Result<Self> {
        let mut salt = [0u8; 16];
        random_bytes(&mut salt)?;
        Ok(Argon2Params {
            m_kib: Self::DEFAULT_M_KIB,
            t: Self::DEFAULT_T,
            p: Self::DEFAULT_P,
            salt,
        })
    }

    /// Derives a `len`-byte key from `passphrase`, in memory that is wiped on drop.
    ///
    /// This costs `m_kib` KiB of memory and `t` passes over it: check the parameters of an
    /// untrusted header against [`KdfLimits`] first (the decryptor does).
    ///
    /// # Errors
    /// [`Error::Kdf`] if Argon2 refuses the parameters.
    pub fn derive(&self, passphrase: &[u8], len: usize) -> Result<Zeroizing<Vec<u8>>, Error> {
        let bad = |e: argon2::Error| Error::Kdf(e.to_string());
        let params = argon2::Params::new(self.m_kib, self.t, self.p, Some(len)).map_err(bad)?;
        let a = argon2::Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params);
        let mut key = Zeroizing::new(vec![0u8; len]);
        a.hash_password_into(passphrase, &self.salt, &mut key)
            .map_err(bad)?;
        Ok(key)
    }
}

/// The largest Argon2id cost accepted from a header (decryption) or written into one
/// (encryption).
///
/// A passphrase file's header names the Argon2id memory and passes, and the key must be
/// derived before anything in the file can be authenticated, so a forged header could ask for
/// gigabytes and minutes. [`KdfLimits::DEFAULT`] accepts what this crate writes by default
/// with room to spare; [`KdfLimits::FORMAT_MAX`] accepts everything the format can express.
/// The checks run before any memory is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KdfLimits {
    /// Largest memory, in KiB.
    pub max_m_kib: u32,
    /// Largest pass count.
    pub max_t: u32,
    /// Largest lane count.
    pub max_p: u32,
}

impl KdfLimits {
    /// The default: m ≤ 256 MiB, t ≤ 8, p ≤ 4 (4× the default memory, nearly 3× its passes:
    /// about a second or two of work on a current CPU at worst).
    pub const DEFAULT: KdfLimits = KdfLimits {
        max_m_kib: 256 * 1024,
        max_t: 8,
        max_p: 4,
    };

    /// Everything the format can hold: m ≤ 4 GiB, t ≤ 64, p ≤ 64.
    pub const FORMAT_MAX: KdfLimits = KdfLimits {
        max_m_kib: 4 << 20,
        max_t: 64,
        max_p: 64,
    };

    /// Whether `params` is within these limits.
    ///
    /// # Errors
    /// [`Error::KdfLimit`] if it asks for more.
    pub fn check(&self, params: &Argon2Params) -> Result<(), Error> {
        if params.m_kib > self.max_m_kib || params.t > self.max_t || params.p > self.max_p {
            return Err(Error::KdfLimit {
                params: *params,
                limits: *self,
            });
        }
        Ok(())
    }
}

impl Default for KdfLimits {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_cover_the_defaults_and_refuse_more() {
        let mut p = Argon2Params::random_default().unwrap();
        KdfLimits::DEFAULT.check(&p).unwrap();
        p.m_kib = KdfLimits::DEFAULT.max_m_kib + 1;
        assert!(matches!(
            KdfLimits::DEFAULT.check(&p),
            Err(Error::KdfLimit { .. })
        ));
        KdfLimits::FORMAT_MAX.check(&p).unwrap();
        p.m_kib = 64;
        p.t = 9;
        assert!(KdfLimits::DEFAULT.check(&p).is_err());
        p.t = 1;
        p.p = 5;
        assert!(KdfLimits::DEFAULT.check(&p).is_err());
    }

    #[test]
    fn derive_is_deterministic_and_salted() {
        let mut p = Argon2Params {
            m_kib: 64,
            t: 1,
            p: 1,
            salt: [1; 16],
        };
        let a = p.derive(b"pass", 32).unwrap();
        assert_eq!(a, p.derive(b"pass", 32).unwrap());
        assert_ne!(a, p.derive(b"pasS", 32).unwrap());
        p.salt[0] = 2;
        assert_ne!(a, p.derive(b"pass", 32).unwrap());
        assert_eq!(p.derive(b"pass", 16).unwrap().len(), 16);
    }
}
