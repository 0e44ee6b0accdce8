//! HiAE's chunk loops ([`Lanes::hiae_encrypt_chunks`], [`Lanes::hiae_absorb_chunks`]) against
//! the same updates written with the lane operations, on every backend this CPU has, at 1, 2
//! and 4 lanes, for every part of 1-, 2- and 4-value blocks, in place and apart.

mod common;

use aes_lanes::{Backend, LaneOp, Lanes};
use common::{bytes, bytes_of, state_of};
use inout::InOutBuf;

/// One case: `chunks` chunks of `parts`-value blocks, the loops on part `part`, the buffer
/// written `out_off` bytes past a 64-byte boundary.
#[derive(Clone, Copy, Debug)]
struct Case {
    chunks: usize,
    parts: usize,
    part: usize,
    in_place: bool,
    out_off: usize,
}

/// `len` bytes of `v` starting `off` bytes past a 64-byte boundary (`v` has 128 spare).
fn placed(v: &mut [u8], off: usize, len: usize) -> &mut [u8] {
    let start = v.as_ptr().align_offset(64) + off;
    &mut v[start..start + len]
}

/// What a case found: whether the lane type ran the loops (else nothing to compare), and
/// whether encryption (state and output) and absorption matched the reference.
#[derive(Debug, PartialEq)]
struct Found {
    ran: bool,
    encrypt_ok: bool,
    absorb_ok: bool,
}

struct Loops<const N: usize>(Case);

impl<const N: usize> LaneOp for Loops<N> {
    const LANES: usize = N;
    type Output = Found;

    fn run<L: Lanes>(self) -> Found {
        let Case {
            chunks,
            parts,
            part,
            in_place,
            out_off,
        } = self.0;
        let b = L::BYTES;
        let len = chunks * 16 * parts * b;
        let start = state_of::<L>(&bytes(16 * b, 3));
        let data = bytes(len, 11);

        let mut enc = start;
        let mut space = vec![0xa5; len + 128];
        let buf = placed(&mut space, out_off, len);
        let ran = if in_place {
            buf.copy_from_slice(&data);
            L::hiae_encrypt_chunks(&mut enc, InOutBuf::from(&mut buf[..]), part, parts)
        } else {
            let io = InOutBuf::new(&data[..], &mut buf[..]).unwrap();
            L::hiae_encrypt_chunks(&mut enc, io, part, parts)
        };
        let out = buf.to_vec();
        let mut abs = start;
        let absorb_ran = L::hiae_absorb_chunks(&mut abs, &data, part, parts);
        assert_eq!(ran, absorb_ran, "both loops or neither");
        assert_eq!(ran, L::HIAE_LOOPS, "HIAE_LOOPS says whether the loops run");
        if !ran {
            // Nothing done: the state and output are as they were.
            assert_eq!(bytes_of(&enc), bytes_of(&start));
            assert_eq!(bytes_of(&abs), bytes_of(&start));
            let untouched = if in_place { data } else { vec![0xa5; len] };
            assert_eq!(
                out, untouched,
                "output written by a lane type without the loops"
            );
            return Found {
                ran,
                encrypt_ok: true,
                absorb_ok: true,
            };
        }
        // The reference: each update written out with the lane operations (only where the
        // loops ran: the portable lanes' rounds are slow, under Miri most of all).
        let mut s = start;
        let mut want_out = if in_place {
            data.clone()
        } else {
            vec![0xa5; len]
        };
        for c in 0..chunks {
            for i in 0..16 {
                let at = c * 16 * parts * b + (i * parts + part) * b;
                let m = L::load(&data[at..]);
                let t = s[i].xor(s[(i + 1) % 16]).aes_round(m);
                t.xor(s[(i + 9) % 16]).store(&mut want_out[at..]);
                let s13 = s[(i + 13) % 16];
                s[i] = s13.aes_round(t);
                s[(i + 3) % 16] = s[(i + 3) % 16].xor(m);
                s[(i + 13) % 16] = s13.xor(m);
            }
        }
        let want_state = bytes_of(&s);
        Found {
            ran,
            encrypt_ok: bytes_of(&enc) == want_state && out == want_out,
            absorb_ok: bytes_of(&abs) == want_state,
        }
    }
}

/// Whether the CPU has AVX (the AES-NI backend's one lane is then VEX-encoded).
fn has_avx() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

fn check<const N: usize>(backend: Backend, ran: &mut [bool; 3]) {
    let token = backend.token().unwrap();
    // 64 chunks: where two lanes store their output as halves (16 or 48 bytes past a
    // 64-byte boundary, long inputs).
    let many = 64;
    for parts in [1, 2, 4] {
        for part in 0..parts {
            let cases = [(0, 0), (1, 0), (3, 16), (many, 0), (many, 16), (many, 48)];
            for &(chunks, out_off) in &cases {
                for in_place in [false, true] {
                    let case = Case {
                        chunks,
                        parts,
                        part,
                        in_place,
                        out_off,
                    };
                    let found = token.dispatch(Loops::<N>(case));
                    assert!(
                        found.encrypt_ok && found.absorb_ok,
                        "{backend} x{N} {case:?}: {found:?}"
                    );
                    ran[N / 2] |= found.ran;
                }
            }
        }
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "the loops are assembly, which Miri does not run (without it they are `false`)"
)]
fn hiae_loops_match_the_lane_operations() {
    for backend in Backend::available() {
        let mut ran = [false; 3];
        check::<1>(backend, &mut ran);
        check::<2>(backend, &mut ran);
        check::<4>(backend, &mut ran);
        // The lane types in sixteen VEX-encoded registers run the loops; a 4-lane value is
        // never one of them.
        let expect = match backend {
            Backend::Vaes256 => [true, true, false],
            Backend::AesNi => [has_avx(), false, false],
            _ => [false; 3],
        };
        assert_eq!(ran, expect, "{backend}: loops ran at 1, 2, 4 lanes");
        println!("{backend}: loops ran at 1, 2, 4 lanes: {ran:?}");
    }
}

/// Whether the lane type runs the loops, and whether it refuses 100 bytes (not a chunk).
struct Partial;

impl LaneOp for Partial {
    const LANES: usize = 1;
    type Output = (bool, bool);
    fn run<L: Lanes>(self) -> (bool, bool) {
        let refused = std::panic::catch_unwind(|| {
            let mut s = [L::zero(); 16];
            L::hiae_absorb_chunks(&mut s, &[0u8; 100], 0, 1)
        })
        .is_err();
        (L::HIAE_LOOPS, refused)
    }
}

#[test]
fn a_partial_chunk_is_refused() {
    let mut checked = 0;
    for backend in Backend::available() {
        let (loops, refused) = backend.token().unwrap().dispatch(Partial);
        if loops {
            assert!(refused, "{backend}: 100 bytes taken as chunks");
            checked += 1;
        }
    }
    println!("{checked} backends with the loops refused a partial chunk");
}
