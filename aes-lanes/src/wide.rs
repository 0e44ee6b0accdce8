//! [`Wide`]: several narrower lane values side by side.

use crate::Lanes;

/// `N` values of `L` side by side, acting as one value of `N × L::LANES` lanes.
///
/// This is how CPUs whose registers hold fewer lanes (AES-NI: one; VAES+AVX2: two; Arm: one)
/// run the 2- and 4-lane algorithms: the independent rounds of the parts interleave in the
/// pipeline.
///
/// ```
/// use aes_lanes::{Lanes, Soft, Wide};
/// let block = [0x42u8; 16];
/// let a = <Wide<Soft<1>, 2>>::broadcast(&block);
/// let b = <Soft<2>>::broadcast(&block);
/// let (mut x, mut y) = ([0u8; 32], [0u8; 32]);
/// a.aesl().store(&mut x);
/// b.aesl().store(&mut y);
/// assert_eq!(x, y);
/// ```
#[derive(Clone, Copy)]
pub struct Wide<L, const N: usize>(pub [L; N]);

impl<L: Lanes, const N: usize> Wide<L, N> {
    #[inline(always)]
    fn map(self, f: impl Fn(L) -> L) -> Self {
        Wide(self.0.map(f))
    }

    #[inline(always)]
    fn zip(self, other: Self, f: impl Fn(L, L) -> L) -> Self {
        let mut out = self.0;
        for (o, b) in out.iter_mut().zip(other.0) {
            *o = f(*o, b);
        }
        Wide(out)
    }
}

impl<L: Lanes, const N: usize> Lanes for Wide<L, N> {
    const LANES: usize = N * L::LANES;

    #[inline(always)]
    fn zero() -> Self {
        Wide([L::zero(); N])
    }

    #[inline(always)]
    fn load(src: &[u8]) -> Self {
        let src = &src[..Self::BYTES];
        Wide(core::array::from_fn(|i| L::load(&src[i * L::BYTES..])))
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8]) {
        let dst = &mut dst[..Self::BYTES];
        for (i, part) in self.0.into_iter().enumerate() {
            part.store(&mut dst[i * L::BYTES..]);
        }
    }

    #[inline(always)]
    fn broadcast(block: &[u8; 16]) -> Self {
        Wide([L::broadcast(block); N])
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self.zip(other, L::xor)
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self.zip(other, L::and)
    }

    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        let mut out = self.0;
        for ((o, b), c) in out.iter_mut().zip(b.0).zip(c.0) {
            *o = o.xor3(b, c);
        }
        Wide(out)
    }

    #[inline(always)]
    fn aes_round(self, key: Self) -> Self {
        self.zip(key, L::aes_round)
    }

    #[inline(always)]
    fn aes_round_pre(self, key: Self) -> Self {
        self.zip(key, L::aes_round_pre)
    }

    #[inline(always)]
    fn aes_round_last(self, key: Self) -> Self {
        self.zip(key, L::aes_round_last)
    }

    #[inline(always)]
    fn aes128_key_step(self, rcon: u8) -> Self {
        self.map(|k| k.aes128_key_step(rcon))
    }

    #[inline(always)]
    fn aesl(self) -> Self {
        self.map(L::aesl)
    }
}
