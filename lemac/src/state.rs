//! The LeMac algorithm, written once for every width (`L::LANES` = 1, 2 or 4 lanes = LeMac,
//! LeMacX2, LeMacX4) and every backend.
//!
//! Everything here is `#[inline(always)]` and generic over [`Lanes`]; the `LaneOp` structs at
//! the bottom are what the public types hand to [`Token::dispatch`](aes_lanes::Token::dispatch),
//! once per call.

use aes_lanes::aes128::{self, Block, Schedule};
use aes_lanes::{LaneOp, Lanes};

/// A 16-byte word of every lane: lane `l` at `[l]`; as bytes, exactly what `L::load` reads.
pub(crate) type Word<const D: usize> = [Block; D];

/// Number of words in the state registers: `S0..S8`, `RR`, `R0`, `R1`, `R2`.
pub(crate) const REGS: usize = 13;

/// The state registers between two streaming calls, as bytes.
pub(crate) type StateBytes<const D: usize> = [Word<D>; REGS];

/// Bytes per piece when [`Regs::absorb`] goes part by part: each part reads the piece in
/// turn, the later ones from L1.
const SPLIT_PIECE: usize = 16 * 1024;

/// Bytes absorbed by one round on `D` lanes.
pub(crate) const fn chunk_len(d: usize) -> usize {
    64 * d
}

/// Everything derived from the key.
#[derive(Clone)]
pub(crate) struct KeyMaterial<const D: usize> {
    /// Initial state `S0..S8`, per lane.
    pub(crate) init: [Word<D>; 9],
    /// `AESL(S0..S7)` of the initial state (the first round of a one-shot call then needs only
    /// XORs).
    pub(crate) init_aesl: [Word<D>; 8],
    /// Finalization subkeys `SK_0..SK_17`, per lane.
    pub(crate) sk: [Word<D>; 18],
    /// Schedule of `k2`.
    pub(crate) k2: Schedule,
    /// Schedule of `k3`.
    pub(crate) k3: Schedule,
    /// `0 ^ E_k2(0)`: the nonce mask of the all-zero nonce.
    pub(crate) zero_mask: Block,
}

impl<const D: usize> KeyMaterial<D> {
    pub(crate) const fn zeroed() -> Self {
        KeyMaterial {
            init: [[[0; 16]; D]; 9],
            init_aesl: [[[0; 16]; D]; 8],
            sk: [[[0; 16]; D]; 18],
            k2: [[0; 16]; 11],
            k3: [[0; 16]; 11],
            zero_mask: [0; 16],
        }
    }

    /// Initial register bytes (`S = init`, `RR = R0 = R1 = R2 = 0`).
    pub(crate) fn initial_state(&self) -> StateBytes<D> {
        let mut st = [[[0u8; 16]; D]; REGS];
        st[..9].copy_from_slice(&self.init);
        st
    }

    #[cfg(feature = "zeroize")]
    pub(crate) fn wipe(&mut self) {
        use zeroize::Zeroize;
        self.init.as_flattened_mut().as_flattened_mut().zeroize();
        self.sk.as_flattened_mut().as_flattened_mut().zeroize();
        self.k2.zeroize();
        self.k3.zeroize();
        self.zero_mask.zeroize();
    }
}

#[inline(always)]
fn load_word<L: Lanes, const D: usize>(w: &Word<D>) -> L {
    L::load(w.as_flattened())
}

#[inline(always)]
fn store_word<L: Lanes, const D: usize>(x: L, w: &mut Word<D>) {
    x.store(w.as_flattened_mut())
}

/// The state registers in lane values.
#[derive(Clone, Copy)]
pub(crate) struct Regs<L> {
    s: [L; 9],
    rr: L,
    r0: L,
    r1: L,
    r2: L,
}

impl<L: Lanes> Regs<L> {
    #[inline(always)]
    fn load<const D: usize>(st: &StateBytes<D>) -> Self {
        let mut s = [L::zero(); 9];
        for (s, w) in s.iter_mut().zip(st) {
            *s = load_word(w);
        }
        Regs {
            s,
            rr: load_word(&st[9]),
            r0: load_word(&st[10]),
            r1: load_word(&st[11]),
            r2: load_word(&st[12]),
        }
    }

    #[inline(always)]
    fn store<const D: usize>(&self, st: &mut StateBytes<D>) {
        for (s, w) in self.s.iter().zip(st.iter_mut()) {
            store_word(*s, w);
        }
        store_word(self.rr, &mut st[9]);
        store_word(self.r0, &mut st[10]);
        store_word(self.r1, &mut st[11]);
        store_word(self.r2, &mut st[12]);
    }

    /// Part `i` of every register ([`Lanes::part`]).
    #[inline(always)]
    fn part(&self, i: usize) -> Regs<L::Part> {
        let mut s = [L::Part::zero(); 9];
        for (d, x) in s.iter_mut().zip(&self.s) {
            *d = x.part(i);
        }
        Regs {
            s,
            rr: self.rr.part(i),
            r0: self.r0.part(i),
            r1: self.r1.part(i),
            r2: self.r2.part(i),
        }
    }

    /// Replaces part `i` of every register.
    #[inline(always)]
    fn set_part(&mut self, i: usize, p: &Regs<L::Part>) {
        for (d, x) in self.s.iter_mut().zip(&p.s) {
            d.set_part(i, *x);
        }
        self.rr.set_part(i, p.rr);
        self.r0.set_part(i, p.r0);
        self.r1.set_part(i, p.r1);
        self.r2.set_part(i, p.r2);
    }

    /// The first round from the key's initial state (`R = 0`), with `AESL(S_k)` precomputed:
    /// the same result as loading `init` and running `round`, in one XOR per word.
    #[inline(always)]
    fn first_round<const D: usize>(key: &KeyMaterial<D>, [m0, m1, m2, m3]: [L; 4]) -> Self {
        let mut a = [L::zero(); 8];
        for (a, w) in a.iter_mut().zip(&key.init_aesl) {
            *a = load_word(w);
        }
        Regs {
            s: [
                load_word::<L, D>(&key.init[0]).xor3(load_word(&key.init[8]), m2),
                a[0].xor(m3),
                a[1].xor(m3),
                a[2],
                a[3].xor(m0),
                a[4].xor(m0),
                a[5].xor(m1),
                a[6].xor(m1),
                a[7].xor(m3),
            ],
            rr: m2,
            r0: m1,
            r1: L::zero(),
            r2: L::zero(),
        }
    }

    /// One LeMac round (all right-hand sides read the old values).
    ///
    /// Two orders of the same operations, for LLVM's register allocation of the unrolled
    /// loops: with one register per word the `R` registers move first, so `RR` and `R2` die
    /// before the nine AES rounds (LeMacX2 on VAES-AVX2: no spill in the loop instead of three
    /// per four rounds); a word of several registers (`Wide`, LeMacX2 on AES-NI) spills less
    /// with the `R` moves last (PERFORMANCE.md).
    #[inline(always)]
    fn round(&mut self, m0: L, m1: L, m2: L, m3: L) {
        let s = self.s;
        let r12 = self.r1.xor(self.r2);
        if L::PARTS == 1 {
            self.shift_r(m1, m2);
        }
        self.s = [
            s[0].xor3(s[8], m2),
            s[0].aes_round(m3),
            s[1].aes_round(m3),
            s[2].aes_round(r12),
            s[3].aes_round(m0),
            s[4].aes_round(m0),
            s[5].aes_round(m1),
            s[6].aes_round(m1),
            s[7].aes_round(m3),
        ];
        if L::PARTS > 1 {
            self.shift_r(m1, m2);
        }
    }

    /// The `R` registers' part of a round: `R2 = R1`, `R1 = R0`, `R0 = RR ^ m1`, `RR = m2`.
    #[inline(always)]
    fn shift_r(&mut self, m1: L, m2: L) {
        self.r2 = self.r1;
        self.r1 = self.r0;
        self.r0 = self.rr.xor(m1);
        self.rr = m2;
    }

    /// Whether [`absorb`](Self::absorb) goes one register's lanes at a time
    /// ([`Lanes::PARTS`]): for four lanes in several registers (LeMacX4 on VAES-AVX2, AES-NI
    /// and Arm). The lanes are independent until the final chunk, and one part's 13 state
    /// registers fit the register file where the interleaved parts' 26 or 52 do not. LeMacX2
    /// on AES-NI (two `xmm`) stays interleaved, which measured faster (PERFORMANCE.md).
    const SPLIT: bool = L::LANES == 4 && L::PARTS > 1;

    /// Absorbs whole chunks (`data.len()` must be a multiple of `4 × L::BYTES`); by parts
    /// ([`Self::SPLIT`]) over pieces of 16 KiB, each part taken out of the registers' values
    /// and put back around its turn.
    #[inline(always)]
    fn absorb(&mut self, data: &[u8]) {
        debug_assert_eq!(data.len() % (4 * L::BYTES), 0);
        if Self::SPLIT {
            for piece in data.chunks(SPLIT_PIECE) {
                self.absorb_by_part::<0>(piece);
                self.absorb_by_part::<1>(piece);
                if L::PARTS > 2 {
                    self.absorb_by_part::<2>(piece);
                    self.absorb_by_part::<3>(piece);
                }
            }
        } else {
            self.absorb_part::<0>(data, 1);
        }
    }

    /// Takes part `H` out, absorbs its share of `data`, puts it back.
    #[inline(always)]
    fn absorb_by_part<const H: usize>(&mut self, data: &[u8]) {
        let mut part = self.part(H);
        part.absorb_part::<H>(data, L::PARTS);
        self.set_part(H, &part);
    }

    /// Absorbs whole chunks of `data` made of `parts`-register words (`4 × parts × L::BYTES`
    /// bytes per chunk), of which this state owns part `H` of every word.
    #[inline(always)]
    fn absorb_part<const H: usize>(&mut self, data: &[u8], parts: usize) {
        let chunk = 4 * parts * L::BYTES;
        let mut quads = data.chunks_exact(4 * chunk);
        for q in &mut quads {
            self.round_part::<H>(&q[..chunk], parts);
            self.round_part::<H>(&q[chunk..2 * chunk], parts);
            self.round_part::<H>(&q[2 * chunk..3 * chunk], parts);
            self.round_part::<H>(&q[3 * chunk..4 * chunk], parts);
        }
        for c in quads.remainder().chunks_exact(chunk) {
            self.round_part::<H>(&c[..chunk], parts);
        }
    }

    /// One round on part `H` of a chunk of `parts`-register words.
    #[inline(always)]
    fn round_part<const H: usize>(&mut self, c: &[u8], parts: usize) {
        let at = |j: usize| (j * parts + H) * L::BYTES;
        self.round(
            L::load(&c[at(0)..]),
            L::load(&c[at(1)..]),
            L::load(&c[at(2)..]),
            L::load(&c[at(3)..]),
        );
    }

    /// Absorbs the final, padded chunk (`last`, four words), runs the blank rounds and the
    /// finalization; returns `H` per lane, XORed with `extra`.
    #[inline(always)]
    fn finish<const D: usize>(mut self, last: [L; 4], sk: &[Word<D>; 18], extra: L) -> L {
        if Self::FINISH_SPLIT {
            return self.finish_by_parts(Some(last), sk, extra);
        }
        self.round(last[0], last[1], last[2], last[3]);
        self.finish_blank(sk, extra)
    }

    /// [`finish`](Self::finish) after the padded chunk was absorbed.
    #[inline(always)]
    fn finish_blank<const D: usize>(self, sk: &[Word<D>; 18], extra: L) -> L {
        if Self::FINISH_SPLIT {
            return self.finish_by_parts(None, sk, extra);
        }
        let mut r = self;
        r.blank_rounds();
        let mut k = [L::zero(); 18];
        for (k, w) in k.iter_mut().zip(sk) {
            *k = load_word(w);
        }
        r.finalize(&k, extra)
    }

    /// Whether [`finish`](Self::finish) goes one register's lanes at a time: the lanes are
    /// still independent there, and one part's 9 words and 18 subkeys nearly fit the register
    /// file where four interleaved parts spill. Only for four parts (LeMacX4 on AES-NI and
    /// Arm): two parts (VAES-AVX2) stay interleaved, as their two chains hide each other's AES
    /// latency.
    const FINISH_SPLIT: bool = Self::SPLIT && L::PARTS > 2;

    /// [`finish`](Self::finish) (with `last`) or [`finish_blank`](Self::finish_blank) by
    /// parts.
    #[inline(always)]
    fn finish_by_parts<const D: usize>(
        self,
        last: Option<[L; 4]>,
        sk: &[Word<D>; 18],
        extra: L,
    ) -> L {
        // Four lanes in more than two parts: one lane per part.
        debug_assert_eq!(L::PARTS, 4);
        let mut h = L::zero();
        self.finish_part::<0, D>(&mut h, last, sk, extra);
        self.finish_part::<1, D>(&mut h, last, sk, extra);
        self.finish_part::<2, D>(&mut h, last, sk, extra);
        self.finish_part::<3, D>(&mut h, last, sk, extra);
        h
    }

    /// Part `H` of [`finish_by_parts`](Self::finish_by_parts), written into part `H` of `h`.
    #[inline(always)]
    fn finish_part<const H: usize, const D: usize>(
        &self,
        h: &mut L,
        last: Option<[L; 4]>,
        sk: &[Word<D>; 18],
        extra: L,
    ) {
        let mut p = self.part(H);
        if let Some(m) = last {
            p.round(m[0].part(H), m[1].part(H), m[2].part(H), m[3].part(H));
        }
        p.blank_rounds();
        // A loop, not `array::from_fn`, whose closure may be compiled out of line.
        let mut k = [L::Part::zero(); 18];
        for (k, w) in k.iter_mut().zip(sk) {
            *k = load_word::<L, D>(w).part(H);
        }
        h.set_part(H, p.finalize(&k, extra.part(H)));
    }

    /// The first three of the four blank rounds.
    #[inline(always)]
    fn blank_rounds(&mut self) {
        let z = L::zero();
        for _ in 0..3 {
            self.round(z, z, z, z);
        }
    }

    /// The finalization after [`blank_rounds`](Self::blank_rounds), with the subkeys
    /// `SK_0..SK_17`; returns `H` per lane, XORed with `extra`.
    ///
    /// The fourth blank round is merged with the whitening of the finalization (its zero
    /// message words and the subkeys `SK_i` are both added after the round), and `extra` is
    /// merged into the key of the 10th round of word 0.
    #[inline(always)]
    fn finalize(&self, k: &[L; 18], extra: L) -> L {
        let s = self.s;
        let mut x = [
            s[0].xor3(s[8], k[0]),
            s[0].aes_round(k[1]),
            s[1].aes_round(k[2]),
            s[2].aes_round(self.r1.xor3(self.r2, k[3])),
            s[3].aes_round(k[4]),
            s[4].aes_round(k[5]),
            s[5].aes_round(k[6]),
            s[6].aes_round(k[7]),
            s[7].aes_round(k[8]),
        ];
        for r in 1..10 {
            for (i, xi) in x.iter_mut().enumerate() {
                *xi = xi.aes_round(k[i + r]);
            }
        }
        let mut y = [L::zero(); 9];
        y[0] = x[0].aes_round(extra);
        for i in 1..9 {
            y[i] = x[i].aesl();
        }
        let a = y[0].xor3(y[1], y[2]);
        let b = y[3].xor3(y[4], y[5]);
        let c = y[6].xor3(y[7], y[8]);
        a.xor3(b, c)
    }
}

/// How the nonce enters the final step.
#[derive(Clone, Copy)]
pub(crate) enum NonceIn<'a> {
    /// `N ^ E_k2(N)`, already computed.
    Mask(&'a Block),
    /// The nonce itself; `N ^ E_k2(N)` is computed in the same call.
    Nonce(&'a Block),
}

/// What the final call returns.
#[derive(Clone, Copy)]
pub(crate) enum Output<'a> {
    /// The MAC tag.
    Tag(NonceIn<'a>),
    /// The universal hash `H` (before the nonce step).
    Hash,
}

/// XOR of two blocks.
#[inline(always)]
pub(crate) fn xor_block(a: &Block, b: &Block) -> Block {
    (u128::from_le_bytes(*a) ^ u128::from_le_bytes(*b)).to_le_bytes()
}

/// `N ^ E_k2(N)`.
#[inline(always)]
fn nonce_mask<L: Lanes>(nonce: &Block, k2: &Schedule) -> Block {
    let rk = aes128::schedule_lanes::<L>(k2);
    xor_block(nonce, &aes128::encrypt_block(nonce, &rk))
}

/// A lane value with `b` in lane 0 and zero elsewhere.
#[inline(always)]
fn in_first_lane<L: Lanes>(b: &Block) -> L {
    if L::LANES == 1 {
        L::broadcast(b)
    } else {
        L::first_lane(b)
    }
}

/// Absorbs `head` then `body` (both whole chunks) into the stored state.
pub(crate) struct AbsorbOp<'a, const D: usize> {
    pub(crate) state: &'a mut StateBytes<D>,
    pub(crate) head: &'a [u8],
    pub(crate) body: &'a [u8],
}

impl<const D: usize> LaneOp for AbsorbOp<'_, D> {
    const LANES: usize = D;
    type Output = ();

    #[inline(always)]
    fn run<L: Lanes>(self) {
        let mut r = Regs::<L>::load(self.state);
        r.absorb(self.head);
        r.absorb(self.body);
        r.store(self.state);
    }
}

/// Up to 15 bytes as the low bytes of a little-endian `u128` (register-only loads).
#[inline(always)]
fn partial_block(p: &[u8]) -> u128 {
    let n = p.len();
    let mut v = 0u128;
    let mut at = 0;
    if n & 8 != 0 {
        v |= u128::from(u64::from_le_bytes(p[at..at + 8].try_into().unwrap())) << (8 * at);
        at += 8;
    }
    if n & 4 != 0 {
        v |= u128::from(u32::from_le_bytes(p[at..at + 4].try_into().unwrap())) << (8 * at);
        at += 4;
    }
    if n & 2 != 0 {
        v |= u128::from(u16::from_le_bytes(p[at..at + 2].try_into().unwrap())) << (8 * at);
        at += 2;
    }
    if n & 1 != 0 {
        v |= u128::from(p[at]) << (8 * at);
    }
    v
}

/// Block `b` (16 bytes) of the padded last chunk `tail || 01 || 00…`.
#[inline(always)]
fn padded_block(tail: &[u8], b: usize) -> u128 {
    let (n, start) = (tail.len(), 16 * b);
    if start + 16 <= n {
        u128::from_le_bytes(tail[start..start + 16].try_into().unwrap())
    } else if start <= n {
        partial_block(&tail[start..]) | (1u128 << (8 * (n - start)))
    } else {
        0
    }
}

/// `LANE_MASK[64 l..]`: all-ones in lane `l` of a 4-lane value, zero elsewhere (the first
/// `16·D` bytes serve narrower values).
static LANE_MASK: [u8; 256] = {
    let mut m = [0u8; 256];
    let mut l = 0;
    while l < 4 {
        let mut i = 0;
        while i < 16 {
            m[64 * l + 16 * l + i] = 0xff;
            i += 1;
        }
        l += 1;
    }
    m
};

/// The four words of the padded last chunk, built in registers: writing the chunk to memory
/// with narrow stores and reading it back with wide loads defeats store-to-load forwarding
/// (the load then waits for the stores to retire, serializing consecutive messages).
#[inline(always)]
fn padded_words<L: Lanes>(tail: &[u8]) -> [L; 4] {
    let d = L::LANES;
    let n = tail.len();
    debug_assert!(n < 64 * d);
    let mut m = [L::zero(); 4];
    for (j, m) in m.iter_mut().enumerate() {
        let start = 16 * d * j;
        if start + 16 * d <= n {
            *m = L::load(&tail[start..]);
        } else if start <= n {
            if d == 1 {
                *m = L::load(&padded_block(tail, j).to_le_bytes());
            } else {
                let mut w = L::zero();
                for l in 0..d {
                    let bs = start + 16 * l;
                    let b = if bs + 16 <= n {
                        // Straight from the message (no store on the way).
                        L::broadcast(tail[bs..bs + 16].try_into().unwrap())
                    } else if bs <= n {
                        L::broadcast(&padded_block(tail, j * d + l).to_le_bytes())
                    } else {
                        continue;
                    };
                    w = w.xor(b.and(L::load(&LANE_MASK[64 * l..])));
                }
                *m = w;
            }
        }
    }
    m
}

/// The last call of a message: from a stored state (streaming) or from the key's initial
/// state (one-shot), absorbs `body` (whole chunks) and the padded chunk `last`, finalizes.
///
/// It runs in one of two forms, [`FinishOp::run_from_stored`] or
/// [`FinishOp::run_from_first_round`]: the same computation, whose loops LLVM allocates registers
/// for differently; [`stored_form`] picks one per lane type.
pub(crate) struct FinishOp<'a, const D: usize> {
    pub(crate) key: &'a KeyMaterial<D>,
    pub(crate) state: Option<&'a StateBytes<D>>,
    pub(crate) body: &'a [u8],
    /// The message's last bytes (shorter than a chunk), padded here.
    pub(crate) tail: &'a [u8],
    pub(crate) output: Output<'a>,
}

/// Whether [`FinishOp`] runs [`FinishOp::run_from_stored`] (`true`) or
/// [`FinishOp::run_from_first_round`] on lane type `L`.
///
/// The two differ only for a one-shot call over several chunks, in LLVM's register
/// allocation and scheduling of the code around the loop, so the choice follows
/// measurement (PERFORMANCE.md): the stored form where the lane type has 32 registers or
/// 256-bit ones (on AVX-512 the first-round form keeps a register copy in the loop), the
/// first-round form on 16 `xmm` registers (AES-NI and one lane on AVX2) and on the portable
/// lanes.
///
/// The code the two share around the loop (the nonce term, the result from `H`) is in the
/// macros [`nonce_term!`] and [`result_from_h!`], not in helper functions, which measured
/// slower.
const fn stored_form<L: Lanes>() -> bool {
    L::REGISTERS >= 32 || (L::REGISTERS > 0 && <L::Part as Lanes>::BYTES >= 32)
}

impl<const D: usize> LaneOp for FinishOp<'_, D> {
    const LANES: usize = D;
    type Output = Block;

    #[inline(always)]
    fn run<L: Lanes>(self) -> Block {
        if stored_form::<L>() {
            self.run_from_stored::<L>()
        } else {
            self.run_from_first_round::<L>()
        }
    }
}

impl<const D: usize> FinishOp<'_, D> {
    #[inline(always)]
    fn words<L: Lanes>(c: &[u8]) -> [L; 4] {
        let w = L::BYTES;
        [
            L::load(&c[..w]),
            L::load(&c[w..2 * w]),
            L::load(&c[2 * w..3 * w]),
            L::load(&c[3 * w..4 * w]),
        ]
    }
}

/// The nonce step's first addition, `(H ^ N ^ E_k2(N)) ^ k3[0]`, as an `L` value that rides on
/// the last finalization round; zero for the universal hash. A macro, expanded in place in
/// both forms of [`FinishOp`] (see [`stored_form`] for why not a function).
macro_rules! nonce_term {
    ($L:ty, $key:expr, $output:expr) => {
        match $output {
            Output::Tag(n) => {
                let mask = match n {
                    NonceIn::Mask(m) => *m,
                    NonceIn::Nonce(n) => nonce_mask::<$L>(n, &$key.k2),
                };
                in_first_lane::<$L>(&xor_block(&mask, &$key.k3[0]))
            }
            Output::Hash => <$L>::zero(),
        }
    };
}

/// The call's result from `H` per lane (with the nonce term): `H` folded over the lanes for
/// the universal hash, or the tag: the remaining rounds of `E_k3` (its whitening key is in the
/// nonce term), on lane 0. A macro for the same reason as [`nonce_term!`].
macro_rules! result_from_h {
    ($L:ty, $h:expr, $key:expr, $output:expr) => {
        match $output {
            Output::Hash => $h.fold_xor(),
            Output::Tag(_) => {
                let mut x = if <$L>::LANES == 1 {
                    $h
                } else {
                    <$L>::first_lane(&$h.fold_xor())
                };
                for k in &$key.k3[1..10] {
                    x = x.aes_round(<$L>::broadcast(k));
                }
                x.aes_round_last(<$L>::broadcast(&$key.k3[10])).lane(0)
            }
        }
    };
}

impl<const D: usize> FinishOp<'_, D> {
    /// The form entering the loop of a one-shot call from the stored initial state (as
    /// [`AbsorbOp`] does), with the padded chunk and the nonce term built after the loop.
    #[inline(always)]
    fn run_from_stored<L: Lanes>(self) -> Block {
        let op = self;
        let key = op.key;
        let chunk = 4 * L::BYTES;
        let (r, padded_absorbed) = match op.state {
            Some(st) => {
                let mut r = Regs::<L>::load(st);
                r.absorb(op.body);
                (r, false)
            }
            None if op.body.is_empty() => {
                // The padded chunk is the only one: it is the first round.
                let last = padded_words::<L>(op.tail);
                (Regs::<L>::first_round(key, last), true)
            }
            None if op.body.len() == chunk => (
                Regs::<L>::first_round(key, FinishOp::<D>::words::<L>(op.body)),
                false,
            ),
            None => {
                let mut r = Regs::<L>::load(&key.initial_state());
                r.absorb(op.body);
                (r, false)
            }
        };
        let extra = nonce_term!(L, key, op.output);
        let h = if padded_absorbed {
            r.finish_blank(&key.sk, extra)
        } else {
            r.finish(padded_words::<L>(op.tail), &key.sk, extra)
        };
        result_from_h!(L, h, key, op.output)
    }

    /// The form entering the loop of a one-shot call from the precomputed first round, with
    /// the padded chunk and the nonce term built before the loop.
    #[inline(always)]
    fn run_from_first_round<L: Lanes>(self) -> Block {
        let op = self;
        let key = op.key;
        let extra = nonce_term!(L, key, op.output);
        let chunk = 4 * L::BYTES;
        let last = padded_words::<L>(op.tail);
        let h = match op.state {
            Some(st) => {
                let mut r = Regs::<L>::load(st);
                r.absorb(op.body);
                r.finish(last, &key.sk, extra)
            }
            None if op.body.is_empty() => {
                // The padded chunk is the only one: it is the first round.
                Regs::<L>::first_round(key, last).finish_blank(&key.sk, extra)
            }
            None => {
                let (first, rest) = op.body.split_at(chunk);
                let mut r = Regs::<L>::first_round(key, FinishOp::<D>::words::<L>(first));
                r.absorb(rest);
                r.finish(last, &key.sk, extra)
            }
        };
        result_from_h!(L, h, key, op.output)
    }
}

/// Computes `N ^ E_k2(N)` (for a MAC constructed with a nonce).
pub(crate) struct NonceMaskOp<'a> {
    pub(crate) k2: &'a Schedule,
    pub(crate) nonce: &'a Block,
}

impl LaneOp for NonceMaskOp<'_> {
    const LANES: usize = 1;
    type Output = Block;

    #[inline(always)]
    fn run<L: Lanes>(self) -> Block {
        nonce_mask::<L>(self.nonce, self.k2)
    }
}

/// Key derivation: `I`, `SK`, `k2`, `k3` from the 16-byte key.
pub(crate) struct KeySetupOp<'a, const D: usize> {
    pub(crate) key: &'a Block,
    pub(crate) out: &'a mut KeyMaterial<D>,
}

/// Lane constant `c(i, l, d)`: LE64(i), zeros, byte 14 = l, byte 15 = d − 1.
fn lane_constant(i: u64, lane: usize, d: usize) -> Block {
    let mut c = [0u8; 16];
    c[..8].copy_from_slice(&i.to_le_bytes());
    c[14] = lane as u8;
    c[15] = (d - 1) as u8;
    c
}

impl<const D: usize> LaneOp for KeySetupOp<'_, D> {
    const LANES: usize = D;
    type Output = ();

    #[inline(always)]
    fn run<L: Lanes>(self) {
        const {
            assert!(
                D == 1 || D == 2 || D == 4,
                "LeMac is defined for 1, 2 or 4 lanes"
            )
        };
        let rk = aes128::schedule_lanes::<L>(&aes128::expand::<L>(self.key));
        // 27 words per lane (I_0..I_8, SK_0..SK_17), then k2 and k3 (same in every lane).
        let mut x = [L::zero(); 29];
        for (i, v) in x.iter_mut().enumerate() {
            *v = if i < 27 {
                let mut w: Word<D> = [[0; 16]; D];
                for (l, b) in w.iter_mut().enumerate() {
                    *b = lane_constant(i as u64, l, D);
                }
                load_word(&w)
            } else {
                L::broadcast(&lane_constant(i as u64, 0, 1))
            };
        }
        for v in &mut x {
            *v = aes128::encrypt(*v, &rk);
        }
        let out = self.out;
        for (i, v) in x[..27].iter().enumerate() {
            // All lanes of a word at once (64-byte rows vectorize well).
            let mut row = [0u8; 64];
            v.store(&mut row);
            let mut w: Word<D> = [[0; 16]; D];
            w.as_flattened_mut().copy_from_slice(&row[..16 * D]);
            if i < 9 {
                out.init[i] = w;
            } else {
                out.sk[i - 9] = w;
            }
        }
        for i in 0..8 {
            store_word(
                load_word::<L, D>(&out.init[i]).aesl(),
                &mut out.init_aesl[i],
            );
        }
        let k2 = x[27].lane(0);
        let k3 = x[28].lane(0);
        out.k2 = aes128::expand::<L>(&k2);
        out.k3 = aes128::expand::<L>(&k3);
        out.zero_mask = nonce_mask::<L>(&[0; 16], &out.k2);
    }
}
