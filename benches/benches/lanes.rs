//! The AES lane primitive on every backend this CPU can run: throughput of independent
//! `aes_round`s, reported as bytes of AES state processed per second (1 round of a 128-bit
//! block = 16 bytes). On Zen 4 at ~3.67 GHz the hardware limit is ≈ 940 Gbps for AES-NI
//! (2 `aesenc xmm` per cycle) and ≈ 1880 Gbps for VAES (2 `ymm` or 1 `zmm` per cycle).

use std::hint::black_box;

use aeadfast_benches::{bytes, group};
use aes_lanes::{Backend, LaneOp, Lanes};
use criterion::{Criterion, criterion_group, criterion_main};

/// Independent dependency chains: enough to cover the 4-cycle latency at 2 rounds per cycle.
const CHAINS: usize = 8;
/// Rounds per chain per iteration.
const ROUNDS: usize = 1024;

struct Rounds<const N: usize> {
    seed: [u8; 64],
}

impl<const N: usize> LaneOp for Rounds<N> {
    const LANES: usize = N;
    type Output = [u8; 16];

    #[inline(always)]
    fn run<L: Lanes>(self) -> [u8; 16] {
        let key = L::load(&self.seed);
        let mut v: [L; CHAINS] = core::array::from_fn(|i| {
            let mut s = self.seed;
            s[0] ^= i as u8;
            L::load(&s)
        });
        for _ in 0..ROUNDS {
            for x in v.iter_mut() {
                *x = x.aes_round(key);
            }
        }
        let acc = v.iter().fold(L::zero(), |a, x| a.xor(*x));
        acc.fold_xor()
    }
}

fn lanes(c: &mut Criterion) {
    let mut g = group(c, "lanes/aes_round");
    for backend in Backend::available() {
        let token = backend.token().unwrap();
        for n in [1usize, 2, 4] {
            bytes(&mut g, CHAINS * ROUNDS * 16 * n);
            g.bench_function(format!("{}/x{n}", backend.name()), |b| {
                b.iter(|| {
                    let seed = black_box([7u8; 64]);
                    match n {
                        1 => token.dispatch(Rounds::<1> { seed }),
                        2 => token.dispatch(Rounds::<2> { seed }),
                        _ => token.dispatch(Rounds::<4> { seed }),
                    }
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, lanes);
criterion_main!(benches);
