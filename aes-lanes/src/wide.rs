//! [`Wide`]: several narrower lane values side by side.

use crate::{Lanes, MAX_LANES};

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

// No `array::map`/`array::from_fn` here: their out-of-line instances would be compiled
// without the backend's target features, turning each lane operation into a call. Plain loops
// over fixed-size arrays inline completely; indexed loops (rather than `zip` over by-value
// array iterators) keep the loop bodies free of iterator state that may not be inlined.
#[allow(clippy::needless_range_loop)]
impl<L: Lanes, const N: usize> Wide<L, N> {
    #[inline(always)]
    fn map(self, f: impl Fn(L) -> L) -> Self {
        let mut out = self.0;
        for o in out.iter_mut() {
            *o = f(*o);
        }
        Wide(out)
    }

    #[inline(always)]
    fn zip(self, other: Self, f: impl Fn(L, L) -> L) -> Self {
        let mut out = self.0;
        for i in 0..N {
            out[i] = f(out[i], other.0[i]);
        }
        Wide(out)
    }

    #[inline(always)]
    fn zip3(self, b: Self, c: Self, f: impl Fn(L, L, L) -> L) -> Self {
        let mut out = self.0;
        for i in 0..N {
            out[i] = f(out[i], b.0[i], c.0[i]);
        }
        Wide(out)
    }
}

#[allow(clippy::needless_range_loop)]
impl<L: Lanes, const N: usize> Lanes for Wide<L, N> {
    const LANES: usize = N * L::LANES;
    const REGISTERS: usize = L::REGISTERS;
    const FUSED_XOR3: bool = L::FUSED_XOR3;
    const AES_XOR_FIRST: bool = L::AES_XOR_FIRST;

    type Part = L;

    const PARTS: usize = N;

    #[inline(always)]
    fn part(self, i: usize) -> L {
        self.0[i]
    }

    #[inline(always)]
    fn set_part(&mut self, i: usize, value: L) {
        self.0[i] = value;
    }

    #[inline(always)]
    fn zero() -> Self {
        Wide([L::zero(); N])
    }

    #[inline(always)]
    fn load(src: &[u8]) -> Self {
        let src = &src[..Self::BYTES];
        let mut out = [L::zero(); N];
        for (i, o) in out.iter_mut().enumerate() {
            *o = L::load(&src[i * L::BYTES..]);
        }
        Wide(out)
    }

    #[inline(always)]
    fn store(self, dst: &mut [u8]) {
        let dst = &mut dst[..Self::BYTES];
        for i in 0..N {
            self.0[i].store(&mut dst[i * L::BYTES..]);
        }
    }

    #[inline(always)]
    fn from_words(words: &[u64; 2 * MAX_LANES]) -> Self {
        let k = L::BYTES / 8;
        let mut out = [L::zero(); N];
        for (i, o) in out.iter_mut().enumerate() {
            let mut part = [0u64; 2 * MAX_LANES];
            part[..k].copy_from_slice(&words[i * k..(i + 1) * k]);
            *o = L::from_words(&part);
        }
        Wide(out)
    }

    #[inline(always)]
    fn to_words(self) -> [u64; 2 * MAX_LANES] {
        let k = L::BYTES / 8;
        let mut words = [0u64; 2 * MAX_LANES];
        for i in 0..N {
            words[i * k..(i + 1) * k].copy_from_slice(&self.0[i].to_words()[..k]);
        }
        words
    }

    #[inline(always)]
    fn shift_blocks(prev: Self, next: Self, n: usize) -> Self {
        assert!(n > 0 && n < Self::LANES);
        // Part by part: the parts of `prev` then `next` as one sequence, read from lane
        // `LANES - n` of it on, whole parts or a part's last blocks and the next one's first.
        let per = L::LANES;
        let start = Self::LANES - n;
        let (first, within) = (start / per, start % per);
        let mut out = [L::zero(); N];
        for j in 0..N {
            let a = part_of_pair(&prev, &next, first + j);
            out[j] = if within == 0 {
                a
            } else {
                L::shift_blocks(a, part_of_pair(&prev, &next, first + j + 1), per - within)
            };
        }
        Wide(out)
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
        self.zip3(b, c, L::xor3)
    }

    #[inline(always)]
    fn xor_late(self, b: Self, late: Self) -> Self {
        self.zip3(b, late, L::xor_late)
    }

    #[inline(always)]
    fn aes_round(self, key: Self) -> Self {
        self.zip(key, L::aes_round)
    }

    #[inline(always)]
    fn aesl_xor(self, key: Self) -> Self {
        self.zip(key, L::aesl_xor)
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
    fn transpose_words(v: [Self; 4]) -> [Self; 4] {
        let mut out = v;
        for i in 0..N {
            let t = L::transpose_words([v[0].0[i], v[1].0[i], v[2].0[i], v[3].0[i]]);
            for j in 0..4 {
                out[j].0[i] = t[j];
            }
        }
        out
    }

    #[inline(always)]
    fn aes128_key_step_sliced(w: [Self; 4], rcon: u8) -> [Self; 4] {
        let mut out = w;
        for i in 0..N {
            let t = L::aes128_key_step_sliced([w[0].0[i], w[1].0[i], w[2].0[i], w[3].0[i]], rcon);
            for j in 0..4 {
                out[j].0[i] = t[j];
            }
        }
        out
    }

    #[inline(always)]
    fn aesl(self) -> Self {
        self.map(L::aesl)
    }
}

/// Part `k` of the parts of `prev` followed by those of `next` (a function rather than a
/// closure, so that it is always inlined into the caller compiled with the backend's target
/// features).
#[inline(always)]
fn part_of_pair<L: Lanes, const N: usize>(prev: &Wide<L, N>, next: &Wide<L, N>, k: usize) -> L {
    if k < N { prev.0[k] } else { next.0[k - N] }
}
