//! Every AES lane backend this CPU can run computes the same as the portable one on a
//! fuzzer-chosen program: the first 4 × 64 bytes seed four registers, each following byte pair
//! is one operation (which op, which registers).
#![no_main]

use aes_lanes::{Backend, LaneOp, Lanes, Token};
use libfuzzer_sys::fuzz_target;

struct Program<'a, const N: usize>(&'a [u8]);

impl<const N: usize> LaneOp for Program<'_, N> {
    const LANES: usize = N;
    type Output = Vec<u8>;

    #[inline(always)]
    fn run<L: Lanes>(self) -> Vec<u8> {
        let (seed, ops) = self.0.split_at(256);
        let mut r: [L; 4] = core::array::from_fn(|i| L::load(&seed[64 * i..]));
        let mut out = Vec::new();
        for op in ops.chunks_exact(2) {
            let (dst, a, b, c) = (
                (op[1] & 3) as usize,
                ((op[1] >> 2) & 3) as usize,
                ((op[1] >> 4) & 3) as usize,
                ((op[1] >> 6) & 3) as usize,
            );
            r[dst] = match op[0] % 12 {
                0 => r[a].xor(r[b]),
                1 => r[a].and(r[b]),
                2 => r[a].xor3(r[b], r[c]),
                3 => r[a].aes_round(r[b]),
                4 => r[a].xor(r[b]).aesl(),
                5 => r[a].aesl(),
                6 => L::broadcast(&r[a].lane(usize::from(op[0] / 12) % L::LANES)),
                7 => L::first_lane(&r[a].fold_xor()),
                8 => L::zero(),
                9 => r[a].aes_round_last(r[b]),
                10 => r[a].aes128_key_step(op[0]),
                _ => {
                    let mut buf = [0u8; 64];
                    r[a].store(&mut buf);
                    buf.rotate_left(usize::from(op[0] / 12) % 64);
                    L::load(&buf)
                }
            };
        }
        let mut buf = [0u8; 64];
        for x in r {
            x.store(&mut buf);
            out.extend_from_slice(&buf[..L::BYTES]);
        }
        out
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 256 {
        return;
    }
    let portable = Token::portable();
    let expected = (
        portable.dispatch(Program::<1>(data)),
        portable.dispatch(Program::<2>(data)),
        portable.dispatch(Program::<4>(data)),
    );
    for backend in Backend::available() {
        let t = backend.token().unwrap();
        assert_eq!(t.dispatch(Program::<1>(data)), expected.0, "{backend} x1");
        assert_eq!(t.dispatch(Program::<2>(data)), expected.1, "{backend} x2");
        assert_eq!(t.dispatch(Program::<4>(data)), expected.2, "{backend} x4");
    }
});
