//! Bulk AES-128 with one key per 16-byte record (fastAES's workload): record `i` is
//! `AES-128-Encrypt(key_i, plain_i)`.
//!
//! Every record needs its own key schedule, so the kernel expands keys on the fly, one round
//! key per round, in the same registers as the data: 4 records per lane value (a `zmm`
//! register with VAES-512, 2 `ymm` with VAES-256, 4 `xmm` with AES-NI), and several lane values
//! interleaved so that the AES units always have independent work. The key step is
//! `pshufb` + `aesenclast` + shifts (see [`aes_lanes::Lanes::aes128_key_step`]).

use aes_lanes::{Backend, LaneOp, Lanes, Token};

/// Bytes per record (key, plaintext and ciphertext alike).
pub const RECORD: usize = 16;

/// Encrypts `plains[i]` under `keys[i]` into `out[i]` for every 16-byte record.
///
/// # Panics
/// If the three slices differ in length or the length is not a multiple of 16.
///
/// ```
/// use aeadfast_cli::aes128_bulk::encrypt_records;
/// use aes_lanes::Token;
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
    match interleave(token.backend()) {
        6 => token.dispatch(Kernel::<6> { keys, plains, out }),
        4 => token.dispatch(Kernel::<4> { keys, plains, out }),
        _ => token.dispatch(Kernel::<2> { keys, plains, out }),
    }
}

/// How many 4-record lane values the kernel interleaves on `backend`: enough independent
/// work to cover the latency of the key-step chain (about 6 cycles per round) without
/// running out of registers. Measured with `cargo bench -p aeadfast-benches --bench
/// aes128_bulk`: on Zen 3, VAES-AVX2 (16 `ymm` registers) 2 → 212, 3 → 226, 4 → 237–242,
/// 6 → 227, 8 → 216 M records/s; AES-NI 1 → 110, 2 → 121, 3 → 119. VAES-AVX512 (32
/// registers) keeps the 6 chosen in an earlier Zen 4 session (not re-measured since).
const fn interleave(backend: Backend) -> usize {
    match backend {
        Backend::Vaes512 => 6,
        Backend::Vaes256 => 4,
        _ => 2,
    }
}

/// The kernel [`encrypt_records`] runs with `token`, e.g. `"VAES-AVX2, 2 × 4 records
/// interleaved"`.
pub fn implementation_name(token: Token) -> String {
    let g = interleave(token.backend());
    format!("{}, {g} × 4 records interleaved", token.backend().name())
}

/// The kernel: `G` interleaved lane values of 4 records each.
struct Kernel<'a, const G: usize> {
    keys: &'a [u8],
    plains: &'a [u8],
    out: &'a mut [u8],
}

impl<const G: usize> LaneOp for Kernel<'_, G> {
    const LANES: usize = 4;
    type Output = ();

    #[inline(always)]
    fn run<L: Lanes>(self) {
        let step = G * L::BYTES;
        let whole = self.plains.len() / step * step;
        let (keys, key_tail) = self.keys.split_at(whole);
        let (plains, plain_tail) = self.plains.split_at(whole);
        let (out, out_tail) = self.out.split_at_mut(whole);
        for ((k, p), o) in keys
            .chunks_exact(step)
            .zip(plains.chunks_exact(step))
            .zip(out.chunks_exact_mut(step))
        {
            let mut ks = [L::zero(); G];
            let mut ps = [L::zero(); G];
            for g in 0..G {
                ks[g] = L::load(&k[g * L::BYTES..]);
                ps[g] = L::load(&p[g * L::BYTES..]);
            }
            let cs = encrypt_group(ks, ps);
            for g in 0..G {
                cs[g].store(&mut o[g * L::BYTES..]);
            }
        }
        // The last records, one lane value at a time, zero-padded.
        for ((k, p), o) in key_tail
            .chunks(L::BYTES)
            .zip(plain_tail.chunks(L::BYTES))
            .zip(out_tail.chunks_mut(L::BYTES))
        {
            let (mut kb, mut pb, mut ob) = ([0u8; 64], [0u8; 64], [0u8; 64]);
            kb[..k.len()].copy_from_slice(k);
            pb[..p.len()].copy_from_slice(p);
            let [c] = encrypt_group([L::load(&kb)], [L::load(&pb)]);
            c.store(&mut ob);
            o.copy_from_slice(&ob[..o.len()]);
        }
    }
}

/// Runs `$body` with `$g` = 0, 1, … `$n - 1` (`$n` ≤ 8, a constant), written out: LLVM does
/// not reliably unroll loops over several 512-bit values, and a rolled loop keeps them on the
/// stack instead of in registers.
macro_rules! unrolled {
    ($n:expr, |$g:ident| $body:block) => {{
        unrolled!(@one $n, $g, 0, $body);
        unrolled!(@one $n, $g, 1, $body);
        unrolled!(@one $n, $g, 2, $body);
        unrolled!(@one $n, $g, 3, $body);
        unrolled!(@one $n, $g, 4, $body);
        unrolled!(@one $n, $g, 5, $body);
        unrolled!(@one $n, $g, 6, $body);
        unrolled!(@one $n, $g, 7, $body);
    }};
    (@one $n:expr, $g:ident, $i:literal, $body:block) => {
        if $i < $n {
            // Keeps the index in bounds in the (dead) blocks past `$n`.
            let $g = if $i < $n { $i } else { 0 };
            $body
        }
    };
}

/// AES-128 on `G` lane values, expanding each lane's key as the rounds go.
///
/// Everything is written out (rounds and values) so that every value stays in a register.
/// No closure-taking helpers such as `array::from_fn`: they may be compiled out of line,
/// without the backend's target features.
#[inline(always)]
fn encrypt_group<L: Lanes, const G: usize>(mut k: [L; G], p: [L; G]) -> [L; G] {
    const { assert!(G <= 8) };
    let mut x = p;
    unrolled!(G, |g| {
        x[g] = p[g].xor(k[g]);
    });
    round(&mut k, &mut x, 0x01);
    round(&mut k, &mut x, 0x02);
    round(&mut k, &mut x, 0x04);
    round(&mut k, &mut x, 0x08);
    round(&mut k, &mut x, 0x10);
    round(&mut k, &mut x, 0x20);
    round(&mut k, &mut x, 0x40);
    round(&mut k, &mut x, 0x80);
    round(&mut k, &mut x, 0x1b);
    unrolled!(G, |g| {
        k[g] = k[g].aes128_key_step(0x36);
        x[g] = x[g].aes_round_last(k[g]);
    });
    x
}

/// One middle round on every value: next round key, then `aesenc` with it.
#[inline(always)]
fn round<L: Lanes, const G: usize>(k: &mut [L; G], x: &mut [L; G], rcon: u8) {
    unrolled!(G, |g| {
        k[g] = k[g].aes128_key_step(rcon);
        x[g] = x[g].aes_round(k[g]);
    });
}
