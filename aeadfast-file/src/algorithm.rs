//! The AEAD algorithms a native file can use, with their header ids and key lengths.

use core::fmt;
use core::str::FromStr;

/// The AEAD that seals every chunk of a native file (header byte 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// HiAE (32-byte key), id 1.
    Hiae,
    /// HiAEx2 (32-byte key), id 2.
    HiaeX2,
    /// HiAEx4 (32-byte key), id 3.
    HiaeX4,
    /// GIFT-COFB (16-byte key), id 4.
    GiftCofb,
}

impl Algorithm {
    /// Every algorithm, in id order.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Hiae,
        Algorithm::HiaeX2,
        Algorithm::HiaeX4,
        Algorithm::GiftCofb,
    ];

    /// The id byte stored in the header.
    pub fn id(self) -> u8 {
        match self {
            Algorithm::Hiae => 1,
            Algorithm::HiaeX2 => 2,
            Algorithm::HiaeX4 => 3,
            Algorithm::GiftCofb => 4,
        }
    }

    /// The algorithm with header id `id`, if there is one.
    pub fn from_id(id: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.id() == id)
    }

    /// The lower-case name (`hiae`, `hiaex2`, `hiaex4`, `gift-cofb`), as [`FromStr`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Hiae => "hiae",
            Algorithm::HiaeX2 => "hiaex2",
            Algorithm::HiaeX4 => "hiaex4",
            Algorithm::GiftCofb => "gift-cofb",
        }
    }

    /// Key length in bytes: 32 for the HiAE family, 16 for GIFT-COFB.
    pub fn key_len(self) -> usize {
        match self {
            Algorithm::GiftCofb => 16,
            _ => 32,
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing an unknown algorithm name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlgorithm;

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown algorithm (expected hiae, hiaex2, hiaex4 or gift-cofb)")
    }
}

impl std::error::Error for UnknownAlgorithm {}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or(UnknownAlgorithm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_round_trip() {
        for a in Algorithm::ALL {
            assert_eq!(Algorithm::from_id(a.id()), Some(a));
            assert_eq!(a.name().parse::<Algorithm>(), Ok(a));
        }
        assert_eq!(Algorithm::from_id(0), None);
        assert_eq!(Algorithm::from_id(5), None);
        assert!("aes".parse::<Algorithm>().is_err());
    }
}
