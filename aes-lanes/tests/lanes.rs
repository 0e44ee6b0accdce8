//! Every backend this CPU can run is compared with the portable one and with a reference AES
//! round, at 1, 2 and 4 lanes.

mod common;

use aes_lanes::{Backend, Lanes, Soft, Token};
use common::{Aes128, Aesl, Program, SlicedSchedule, aesl_ref, sbox};
use hex_literal::hex;
use proptest::prelude::*;

const X: [u8; 16] = hex!("00112233445566778899aabbccddeeff");
const AESL_X: [u8; 16] = hex!("6379e6d9f467fb76ad063cf4d2eb8aa3");

fn tokens() -> Vec<Token> {
    Backend::available().map(|b| b.token().unwrap()).collect()
}

#[test]
fn reference_round_matches_check_value() {
    assert_eq!(sbox(0x00), 0x63);
    assert_eq!(sbox(0x53), 0xed);
    assert_eq!(aesl_ref(&X), AESL_X);
}

#[test]
fn aesl_check_value_on_every_backend_and_width() {
    let mut input = [0u8; 64];
    for lane in input.chunks_exact_mut(16) {
        lane.copy_from_slice(&X);
    }
    for t in tokens() {
        let name = t.backend().name();
        assert_eq!(t.dispatch(Aesl::<1>(input))[..16], AESL_X, "{name} x1");
        let out2 = t.dispatch(Aesl::<2>(input));
        let out4 = t.dispatch(Aesl::<4>(input));
        for l in 0..2 {
            assert_eq!(out2[16 * l..16 * l + 16], AESL_X, "{name} x2 lane {l}");
        }
        for l in 0..4 {
            assert_eq!(out4[16 * l..16 * l + 16], AESL_X, "{name} x4 lane {l}");
        }
    }
}

#[test]
fn aes128_known_answers_on_every_backend_and_width() {
    // FIPS-197 appendix C.1 and appendix B, alternating over the lanes.
    let cases = [
        (
            hex!("000102030405060708090a0b0c0d0e0f"),
            hex!("00112233445566778899aabbccddeeff"),
            hex!("69c4e0d86a7b0430d8cdb78070b4c55a"),
        ),
        (
            hex!("2b7e151628aed2a6abf7158809cf4f3c"),
            hex!("3243f6a8885a308d313198a2e0370734"),
            hex!("3925841d02dc09fbdc118597196a0b32"),
        ),
    ];
    let (mut keys, mut blocks, mut want) = ([0u8; 64], [0u8; 64], [0u8; 64]);
    for l in 0..4 {
        let (k, p, c) = cases[l % 2];
        keys[16 * l..16 * l + 16].copy_from_slice(&k);
        blocks[16 * l..16 * l + 16].copy_from_slice(&p);
        want[16 * l..16 * l + 16].copy_from_slice(&c);
    }
    for t in tokens() {
        let name = t.backend().name();
        assert_eq!(
            t.dispatch(Aes128::<1> { keys, blocks })[..16],
            want[..16],
            "{name} x1"
        );
        assert_eq!(
            t.dispatch(Aes128::<2> { keys, blocks })[..32],
            want[..32],
            "{name} x2"
        );
        assert_eq!(t.dispatch(Aes128::<4> { keys, blocks }), want, "{name} x4");
    }
}

#[test]
fn portable_sbox_covers_all_bytes() {
    // 256 byte values in 4 × 4 lanes of 16 bytes: every S-box input once, through AESL with
    // the reference. (AESL mixes the bytes, so compare whole blocks.)
    for chunk in 0..4 {
        let mut input = [0u8; 64];
        for (i, b) in input.iter_mut().enumerate() {
            *b = (64 * chunk + i) as u8;
        }
        let out = Token::portable().dispatch(Aesl::<4>(input));
        for l in 0..4 {
            let block: [u8; 16] = input[16 * l..16 * l + 16].try_into().unwrap();
            assert_eq!(out[16 * l..16 * l + 16], aesl_ref(&block));
        }
    }
}

#[test]
fn detection_is_consistent() {
    let best = Backend::detect();
    assert!(best.is_available());
    assert_eq!(Backend::available().next(), Some(best));
    assert_eq!(Backend::available().last(), Some(Backend::Portable));
    for b in Backend::ALL {
        assert_eq!(b.token().is_ok(), b.is_available(), "{b}");
        assert_eq!(Backend::from_name(b.name()), Some(b));
    }
}

/// Reports the properties of the lane type it runs with.
struct Shape<const N: usize>;

impl<const N: usize> aes_lanes::LaneOp for Shape<N> {
    const LANES: usize = N;
    type Output = aes_lanes::LaneShape;
    #[inline(always)]
    fn run<L: Lanes>(self) -> aes_lanes::LaneShape {
        aes_lanes::LaneShape {
            parts: L::PARTS,
            registers: L::REGISTERS,
        }
    }
}

#[test]
fn shape_is_that_of_the_lane_type_dispatched() {
    for t in tokens() {
        let name = t.backend().name();
        assert_eq!(t.shape(1), t.dispatch(Shape::<1>), "{name} x1");
        assert_eq!(t.shape(2), t.dispatch(Shape::<2>), "{name} x2");
        assert_eq!(t.shape(4), t.dispatch(Shape::<4>), "{name} x4");
    }
    // Some values, as the dispatch table in `Token::dispatch` lists them.
    let portable = Token::portable();
    assert_eq!(portable.shape(4).registers, 0);
    if let Ok(t) = Backend::Vaes256.token() {
        assert_eq!((t.shape(2).parts, t.shape(4).parts), (1, 2));
        assert_eq!(t.shape(4).registers, 16);
    }
    if let Ok(t) = Backend::Vaes512.token() {
        assert_eq!((t.shape(4).parts, t.shape(4).registers), (1, 32));
    }
}

#[test]
fn without_fused_xor3_replaces_only_arm_sha3() {
    for t in tokens() {
        let want = match t.backend() {
            Backend::ArmSha3 => Backend::ArmAes,
            b => b,
        };
        assert_eq!(t.without_fused_xor3().backend(), want, "{}", t.backend());
    }
}

/// Set by CI under `qemu-x86_64 -cpu …` / `qemu-aarch64 -cpu …`: the backend detection must
/// pick for that CPU model.
#[test]
fn detection_picks_expected_backend() {
    let Ok(expected) = std::env::var("EXPECT_BACKEND") else {
        return;
    };
    let expected = Backend::from_name(&expected).expect("EXPECT_BACKEND names a backend");
    assert_eq!(Backend::detect(), expected);
}

/// Asserts equal traces, reporting the first differing offset rather than both traces.
fn assert_same(got: &[u8], want: &[u8], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: trace length");
    if let Some(i) = got.iter().zip(want).position(|(g, w)| g != w) {
        let end = (i + 16).min(got.len());
        panic!(
            "{what}: first difference at byte {i}: got {:02x?}, want {:02x?}",
            &got[i..end],
            &want[i..end]
        );
    }
}

fn check_program(a: [u8; 64], b: [u8; 64], c: [u8; 64]) {
    let reference = [
        Token::portable().dispatch(Program::<1> { a, b, c }),
        Token::portable().dispatch(Program::<2> { a, b, c }),
        Token::portable().dispatch(Program::<4> { a, b, c }),
    ];
    // The portable backend is the reference itself: comparing it with itself would prove
    // nothing (and doubles the interpreted runs' time).
    for t in tokens()
        .into_iter()
        .filter(|t| t.backend() != Backend::Portable)
    {
        let name = t.backend().name();
        assert_same(
            &t.dispatch(Program::<1> { a, b, c }),
            &reference[0],
            &format!("{name} x1"),
        );
        assert_same(
            &t.dispatch(Program::<2> { a, b, c }),
            &reference[1],
            &format!("{name} x2"),
        );
        assert_same(
            &t.dispatch(Program::<4> { a, b, c }),
            &reference[2],
            &format!("{name} x4"),
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
    ))]

    #[test]
    fn every_backend_equals_portable(
        a in prop::array::uniform32(any::<u8>()), a2 in prop::array::uniform32(any::<u8>()),
        b in prop::array::uniform32(any::<u8>()), b2 in prop::array::uniform32(any::<u8>()),
        c in prop::array::uniform32(any::<u8>()), c2 in prop::array::uniform32(any::<u8>()),
    ) {
        let cat = |x: [u8; 32], y: [u8; 32]| {
            let mut out = [0u8; 64];
            out[..32].copy_from_slice(&x);
            out[32..].copy_from_slice(&y);
            out
        };
        check_program(cat(a, a2), cat(b, b2), cat(c, c2));
    }

    #[test]
    fn sliced_key_schedule_equals_per_key_schedule(
        seed in prop::array::uniform32(any::<u8>()),
    ) {
        // 16 keys from the seed (a cheap expansion is enough: the test wants varied columns).
        let mut keys = [[0u8; 64]; 4];
        for (i, k) in keys.iter_mut().flatten().enumerate() {
            *k = seed[i % 32].wrapping_mul(i as u8 | 1).wrapping_add((i / 32) as u8);
        }
        for t in tokens() {
            let name = t.backend().name();
            let (a, b) = t.dispatch(SlicedSchedule::<1> { keys });
            prop_assert_eq!(&a, &b, "{} x1", name);
            let (a, b) = t.dispatch(SlicedSchedule::<2> { keys });
            prop_assert_eq!(&a, &b, "{} x2", name);
            let (a, b) = t.dispatch(SlicedSchedule::<4> { keys });
            prop_assert_eq!(&a, &b, "{} x4", name);
        }
    }

    #[test]
    fn portable_round_equals_reference(
        x in prop::array::uniform16(any::<u8>()),
        k in prop::array::uniform16(any::<u8>()),
    ) {
        let mut out = [0u8; 16];
        <Soft<1>>::load(&x).aes_round(<Soft<1>>::load(&k)).store(&mut out);
        let mut expected = aesl_ref(&x);
        for (e, k) in expected.iter_mut().zip(k) {
            *e ^= k;
        }
        prop_assert_eq!(out, expected);
    }
}
