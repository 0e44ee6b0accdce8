//! Bulk AES-128 with one key per 16-byte record (fastAES's workload): record `i` is
//! `AES-128-Encrypt(key_i, plain_i)`.
//!
//! Every record needs its own key schedule, so the kernel expands keys on the fly, one round
//! key per round. Keys are kept *word-sliced*: four lane values hold word 0, 1, 2, 3 of the
//! keys of `4 × LANES` records, so one key-schedule step is a byte shuffle, one `aesenclast`
//! and four XORs for all of them ([`Lanes::aes128_key_step_sliced`]); a 4 × 4
//! word transpose ([`Lanes::transpose_words`]) turns the new round keys back into
//! one key per lane for the rounds. Several such groups are interleaved so that the AES units
//! always have independent work.

use core::fmt;

use crate::{Backend, LaneOp, Lanes, Token};

/// Bytes per record (key, plaintext and ciphertext alike).
pub const RECORD: usize = 16;

/// Encrypts `plains[i]` under `keys[i]` into `out[i]` for every 16-byte record.
///
/// # Panics
/// If the three slices differ in length or the length is not a multiple of 16.
///
/// ```
/// use aes_lanes::{Token, aes128::encrypt_records};
/// let key = hex_literal::hex!("000102030405060708090a0b0c0d0e0f");
/// let plain = hex_literal::hex!("00112233445566778899aabbccddeeff");
/// let mut out = [0u8; 16];
/// encrypt_records(Token::detect(), &key, &plain, &mut out);
/// assert_eq!(out, hex_literal::hex!("69c4e0d86a7b0430d8cdb78070b4c55a"));
/// ```
pub fn encrypt_records(token: Token, keys: &[u8], plains: &[u8], out: &mut [u8]) {
    assert_eq!(
        keys.len(),
        plains.len(),
        "keys and plaintexts differ in length"
    );
    assert_eq!(
        out.len(),
        plains.len(),
        "output and plaintexts differ in length"
    );
    assert_eq!(
        plains.len() % RECORD,
        0,
        "length is not a multiple of 16 bytes"
    );
    token.dispatch(Kernel { keys, plains, out });
}

/// Groups of four 4-lane values the kernel interleaves with lane type `L`: two where the
/// lane type has 32 registers (AVX-512: 32 records at a time), one elsewhere (16 records; on
/// VAES-AVX2 each value is two `ymm` registers, so one group is two interleaved register
/// groups). More groups than that spill and measured no faster (see PERFORMANCE.md).
struct Groups<L>(core::marker::PhantomData<L>);

impl<L: Lanes> Groups<L> {
    const TWO: bool = L::REGISTERS >= 32;
}

/// Lanes per register and interleaved register groups on `backend`, for the description.
const fn shape(backend: Backend) -> (usize, usize) {
    match backend {
        Backend::Vaes512 => (4, 2),
        Backend::Vaes256 => (2, 2),
        _ => (4, 1),
    }
}

/// What [`encrypt_records`] runs with a token; its `Display` reads e.g. `"VAES-AVX2, 2 × 8
/// records interleaved, word-sliced key schedule"`.
///
/// ```
/// use aes_lanes::{Token, aes128::RecordsKernel};
/// let k = RecordsKernel::new(Token::portable());
/// assert_eq!(k.records_per_step(), 16);
/// assert!(k.to_string().starts_with("Portable"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordsKernel {
    backend: Backend,
    lanes: usize,
    groups: usize,
}

impl RecordsKernel {
    /// The kernel `token` runs.
    pub const fn new(token: Token) -> Self {
        let (lanes, groups) = shape(token.backend());
        RecordsKernel {
            backend: token.backend(),
            lanes,
            groups,
        }
    }

    /// Records encrypted side by side in one step.
    pub const fn records_per_step(&self) -> usize {
        4 * self.lanes * self.groups
    }
}

impl fmt::Display for RecordsKernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {} × {} records interleaved, word-sliced key schedule",
            self.backend.name(),
            self.groups,
            4 * self.lanes
        )
    }
}

/// The kernel: interleaved groups of four 4-lane values ([`Groups`]).
struct Kernel<'a> {
    keys: &'a [u8],
    plains: &'a [u8],
    out: &'a mut [u8],
}

impl LaneOp for Kernel<'_> {
    const LANES: usize = 4;
    type Output = ();

    #[inline(always)]
    fn run<L: Lanes>(self) {
        if Groups::<L>::TWO {
            self.run_groups::<L, 2>();
        } else {
            self.run_groups::<L, 1>();
        }
    }
}

impl Kernel<'_> {
    /// The kernel with `G` interleaved groups.
    #[inline(always)]
    fn run_groups<L: Lanes, const G: usize>(self) {
        let group = 4 * L::BYTES;
        let step = G * group;
        let whole = self.plains.len() / step * step;
        let (keys, key_tail) = self.keys.split_at(whole);
        let (plains, plain_tail) = self.plains.split_at(whole);
        let (out, out_tail) = self.out.split_at_mut(whole);
        for ((k, p), o) in keys
            .chunks_exact(step)
            .zip(plains.chunks_exact(step))
            .zip(out.chunks_exact_mut(step))
        {
            let mut ks = [[L::zero(); 4]; G];
            let mut ps = [[L::zero(); 4]; G];
            for g in 0..G {
                for i in 0..4 {
                    ks[g][i] = L::load(&k[g * group + i * L::BYTES..]);
                    ps[g][i] = L::load(&p[g * group + i * L::BYTES..]);
                }
            }
            let cs = encrypt_groups(ks, ps);
            for g in 0..G {
                for i in 0..4 {
                    cs[g][i].store(&mut o[g * group + i * L::BYTES..]);
                }
            }
        }
        // The last records, one group at a time, zero-padded.
        for ((k, p), o) in key_tail
            .chunks(group)
            .zip(plain_tail.chunks(group))
            .zip(out_tail.chunks_mut(group))
        {
            let (mut kb, mut pb, mut ob) = ([0u8; 256], [0u8; 256], [0u8; 256]);
            kb[..k.len()].copy_from_slice(k);
            pb[..p.len()].copy_from_slice(p);
            let mut ks = [L::zero(); 4];
            let mut ps = [L::zero(); 4];
            for i in 0..4 {
                ks[i] = L::load(&kb[i * L::BYTES..]);
                ps[i] = L::load(&pb[i * L::BYTES..]);
            }
            let [cs] = encrypt_groups([ks], [ps]);
            for (i, c) in cs.into_iter().enumerate() {
                c.store(&mut ob[i * L::BYTES..]);
            }
            o.copy_from_slice(&ob[..o.len()]);
        }
    }
}

/// Runs `$body` with `$g` = 0, 1, … `$n - 1` (`$n` ≤ 4, a constant), written out: LLVM does
/// not reliably unroll loops over several 512-bit values, and a rolled loop keeps them on the
/// stack instead of in registers.
macro_rules! unrolled {
    ($n:expr, |$g:ident| $body:block) => {{
        unrolled!(@one $n, $g, 0, $body);
        unrolled!(@one $n, $g, 1, $body);
        unrolled!(@one $n, $g, 2, $body);
        unrolled!(@one $n, $g, 3, $body);
    }};
    (@one $n:expr, $g:ident, $i:literal, $body:block) => {
        if $i < $n {
            // Keeps the index in bounds in the (dead) blocks past `$n`.
            let $g = if $i < $n { $i } else { 0 };
            $body
        }
    };
}

/// AES-128 on `G` groups of four lane values, each record under its own key.
///
/// The keys of a group are kept word-sliced ([`Lanes::transpose_words`]): one key-schedule
/// step then costs six vector operations for the group's `4 × LANES` keys
/// ([`Lanes::aes128_key_step_sliced`]), and eight shuffles transpose the new round keys back
/// for the four `aesenc`. Per round and 8 records on VAES-AVX2 that is 18 operations, where
/// one key step per record value (shuffle, `aesenclast`, two shifts, three XORs) took 32.
///
/// Everything is written out (rounds and groups) so that every value stays in a register.
/// No closure-taking helpers such as `array::from_fn`: they may be compiled out of line,
/// without the backend's target features.
#[inline(always)]
fn encrypt_groups<L: Lanes, const G: usize>(k: [[L; 4]; G], p: [[L; 4]; G]) -> [[L; 4]; G] {
    const { assert!(G <= 4) };
    let mut x = p;
    let mut w = k;
    unrolled!(G, |g| {
        for i in 0..4 {
            x[g][i] = p[g][i].xor(k[g][i]);
        }
        w[g] = L::transpose_words(k[g]);
    });
    round(&mut w, &mut x, 0x01);
    round(&mut w, &mut x, 0x02);
    round(&mut w, &mut x, 0x04);
    round(&mut w, &mut x, 0x08);
    round(&mut w, &mut x, 0x10);
    round(&mut w, &mut x, 0x20);
    round(&mut w, &mut x, 0x40);
    round(&mut w, &mut x, 0x80);
    round(&mut w, &mut x, 0x1b);
    unrolled!(G, |g| {
        w[g] = L::aes128_key_step_sliced(w[g], 0x36);
        let rk = L::transpose_words(w[g]);
        for i in 0..4 {
            x[g][i] = x[g][i].aes_round_last(rk[i]);
        }
    });
    x
}

/// One middle round on every group: next round keys (sliced), transposed, `aesenc`.
#[inline(always)]
fn round<L: Lanes, const G: usize>(w: &mut [[L; 4]; G], x: &mut [[L; 4]; G], rcon: u8) {
    unrolled!(G, |g| {
        w[g] = L::aes128_key_step_sliced(w[g], rcon);
        let rk = L::transpose_words(w[g]);
        for i in 0..4 {
            x[g][i] = x[g][i].aes_round(rk[i]);
        }
    });
}
