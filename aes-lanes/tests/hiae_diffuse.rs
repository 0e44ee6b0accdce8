//! HiAE's `Diffuse` and single updates in assembly ([`Lanes::hiae_diffuse`],
//! [`Lanes::hiae_diffuse_from`], [`Lanes::hiae_update_from`]) against the same updates written
//! with the lane operations, on every backend this CPU has, at 1, 2 and 4 lanes, at the rotation
//! offsets the callers use and one more.

mod common;

use aes_lanes::{Backend, LaneOp, Lanes};
use common::{bytes, bytes_of, state_of};

/// `Update(x)` at rotation offset `i`, every XOR written.
fn update<L: Lanes>(s: &mut [L; 16], i: usize, x: L) {
    let t = s[i].xor(s[(i + 1) % 16]).aes_round(x);
    let s13 = s[(i + 13) % 16];
    s[i] = s13.aes_round(t);
    s[(i + 3) % 16] = s[(i + 3) % 16].xor(x);
    s[(i + 13) % 16] = s13.xor(x);
}

/// The XOR of the sixteen words.
fn sum<L: Lanes>(s: &[L; 16]) -> L {
    s.iter().fold(L::zero(), |a, &w| a.xor(w))
}

/// Whether the lane type ran the code (else nothing to compare) and whether every case matched.
#[derive(Debug, PartialEq)]
struct Found {
    ran: bool,
    ok: bool,
}

struct Check<const N: usize>;

impl<const N: usize> Check<N> {
    /// `hiae_diffuse` and `hiae_diffuse_from` at offset `OFF` (both `FOR_SUM` forms) and
    /// `hiae_update_from` at offset `OFF`, against the reference; `ran` collects whether they ran.
    fn at<L: Lanes, const OFF: usize>(ran: &mut Vec<bool>) -> bool {
        let b = L::BYTES;
        let start = state_of::<L>(&bytes(16 * b, 3 + OFF as u8));
        let xs = bytes(2 * b, 29 + OFF as u8);
        let (x0, x1) = (L::load(&xs), L::load(&xs[b..]));
        let mut want = start;
        for k in 0..32 {
            update(&mut want, (OFF + k) % 16, if k % 2 == 0 { x0 } else { x1 });
        }
        // `FOR_SUM` is for `x0 = x1` (its left-out XORs then put `x0` into the sum an even
        // number of times).
        let mut same = start;
        for k in 0..32 {
            update(&mut same, (OFF + k) % 16, x0);
        }
        let twice = [&xs[..b], &xs[..b]].concat();
        let mut one = start;
        update(&mut one, OFF, x1);
        // Runs `f` on a copy of `start`: where it ran, `check` must hold of the result; where it
        // did not, the state must be untouched.
        let mut judge = |f: &dyn Fn(&mut [L; 16]) -> bool, check: &dyn Fn(&[L; 16]) -> bool| {
            let mut got = start;
            let did = f(&mut got);
            ran.push(did);
            if did {
                check(&got)
            } else {
                bytes_of(&got) == bytes_of(&start)
            }
        };
        let is_want = |got: &[L; 16]| bytes_of(got) == bytes_of(&want);
        let is_one = |got: &[L; 16]| bytes_of(got) == bytes_of(&one);
        let sum_is = |got: &[L; 16]| bytes_of(&[got[OFF % 16]]) == bytes_of(&[sum(&same)]);
        let mut ok = true;
        ok &= judge(&|s| L::hiae_diffuse::<OFF, false>(s, x0, x1), &is_want);
        ok &= judge(&|s| L::hiae_diffuse_from::<OFF, false>(s, &xs), &is_want);
        ok &= judge(&|s| L::hiae_diffuse::<OFF, true>(s, x0, x0), &sum_is);
        ok &= judge(&|s| L::hiae_diffuse_from::<OFF, true>(s, &twice), &sum_is);
        ok &= judge(&|s| L::hiae_update_from::<OFF>(s, &xs[b..]), &is_one);
        ok
    }
}

impl<const N: usize> LaneOp for Check<N> {
    const LANES: usize = N;
    type Output = Found;

    fn run<L: Lanes>(self) -> Found {
        let mut ran = Vec::new();
        let ok = Self::at::<L, 0>(&mut ran)
            & Self::at::<L, 1>(&mut ran)
            & Self::at::<L, 4>(&mut ran)
            & Self::at::<L, 5>(&mut ran)
            & Self::at::<L, 9>(&mut ran);
        assert!(
            ran.iter().all(|&r| r == L::HIAE_LOOPS),
            "HIAE_LOOPS says whether the code runs: {ran:?}"
        );
        Found {
            ran: L::HIAE_LOOPS,
            ok,
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "the updates are assembly, which Miri does not run (without it they are `false`)"
)]
fn hiae_diffuse_matches_the_lane_operations() {
    let mut ran_somewhere = false;
    for backend in Backend::available() {
        let token = backend.token().unwrap();
        for found in [
            token.dispatch(Check::<1>),
            token.dispatch(Check::<2>),
            token.dispatch(Check::<4>),
        ] {
            assert!(found.ok, "{backend}: {found:?}");
            ran_somewhere |= found.ran;
        }
        println!("{backend}: checked");
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") && std::arch::is_x86_feature_detected!("aes") {
        assert!(
            ran_somewhere,
            "an AVX CPU has a lane type that runs the assembly"
        );
    }
    let _ = ran_somewhere;
}
