//! The raw HiAE / HiAEx2 / HiAEx4 state that C keeps between calls (`<P>_state_t`, and the
//! `state` member of `<P>_stream_state_t`): `256 × lanes` bytes in caller memory, block `i`
//! lane `l` at bytes `16 · (i · lanes + l)`, always in canonical order between calls.
//!
//! `hiae::hazmat::State` holds its state privately and cannot be rebuilt from bytes, and a C
//! state object has no destructor that could free a Rust object, so this module runs the
//! state updates itself, over the same `aes-lanes` primitive and backends as the `hiae`
//! crate (one `Token::dispatch` per call). It goes away once `hazmat::State` can be loaded
//! from and stored to bytes; the one-shot functions use the `hiae` crate directly.

use core::marker::PhantomData;

use aes_lanes::{LaneOp, Lanes, MAX_LANES, Token};
use hiae::aead::inout::InOutBuf;
use hiae::{Hiae, Variant};
use zeroize::Zeroize;

/// `C0`: the first digits of π.
const C0: [u8; 16] = [
    0x32, 0x43, 0xf6, 0xa8, 0x88, 0x5a, 0x30, 0x8d, 0x31, 0x31, 0x98, 0xa2, 0xe0, 0x37, 0x07, 0x34,
];
/// `C1`: the first digits of e.
const C1: [u8; 16] = [
    0x4a, 0x40, 0x93, 0x82, 0x22, 0x99, 0xf3, 0x1d, 0x00, 0x82, 0xef, 0xa9, 0x8e, 0xc4, 0xe6, 0xc8,
];

/// Bytes of the raw state of a variant with `lanes` lanes.
pub(crate) const fn state_bytes(lanes: usize) -> usize {
    256 * lanes
}

/// Expands `$body` sixteen times with `const $i: usize` = 0 … 15.
macro_rules! seq16 {
    ($i:ident => $body:block) => {
        seq16!(@ $i $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@ $i:ident $body:block; $($n:literal)*) => {
        $( { const $i: usize = $n; $body } )*
    };
}

/// The sixteen blocks in registers (as far as the backend has them).
///
/// Bulk data runs in unrolled groups of sixteen updates at compile-time offsets (update `I`
/// of a group reads `S[I]`, `S[I+1]`, `S[I+9]`, `S[I+13]` and writes `S[I]`, `S[I+3]`,
/// `S[I+13]`, indices mod 16), which leaves the array in canonical order after each group;
/// single blocks update at offset 0 and rotate.
struct Core<L: Lanes> {
    s: [L; 16],
}

/// `LE64(a) || LE64(b)`.
#[inline(always)]
fn lengths(a: u64, b: u64) -> [u8; 16] {
    let mut t = [0u8; 16];
    t[..8].copy_from_slice(&a.to_le_bytes());
    t[8..].copy_from_slice(&b.to_le_bytes());
    t
}

impl<L: Lanes> Core<L> {
    /// Bytes per update: one block in every lane.
    const BLOCK: usize = 16 * L::LANES;
    /// Bytes per unrolled group of sixteen updates.
    const GROUP: usize = 16 * Self::BLOCK;

    #[inline(always)]
    fn load(bytes: &[u8]) -> Self {
        let mut s = [L::zero(); 16];
        for (b, src) in s.iter_mut().zip(bytes.chunks_exact(Self::BLOCK)) {
            *b = L::load(src);
        }
        Core { s }
    }

    #[inline(always)]
    fn store(&self, bytes: &mut [u8]) {
        for (b, dst) in self.s.iter().zip(bytes.chunks_exact_mut(Self::BLOCK)) {
            b.store(dst);
        }
    }

    /// `Init(key, nonce)`: the version-C layout, each lane XORed with its context block
    /// `[l, lanes − 1, 0, …]` when there are several lanes, then `Diffuse(k0, k1)`.
    #[inline(always)]
    fn init(key: &[u8; 32], nonce: &[u8; 16]) -> Self {
        let mut k = [[0u8; 16]; 2];
        k[0].copy_from_slice(&key[..16]);
        k[1].copy_from_slice(&key[16..]);
        let (k0, k1) = (L::broadcast(&k[0]), L::broadcast(&k[1]));
        k.zeroize();
        let n = L::broadcast(nonce);
        let (c0, c1, z) = (L::broadcast(&C0), L::broadcast(&C1), L::zero());
        let mut s = [
            c0,
            k0,
            c0,
            n,
            z,
            k0,
            z,
            c1,
            k1,
            z,
            n.xor(k1),
            c0,
            c1,
            k1,
            z,
            c0.xor(c1),
        ];
        if L::LANES > 1 {
            let mut ctx = [0u8; 16 * MAX_LANES];
            for l in 0..L::LANES {
                ctx[16 * l] = l as u8;
                ctx[16 * l + 1] = (L::LANES - 1) as u8;
            }
            let ctx = L::load(&ctx);
            for b in &mut s {
                *b = b.xor(ctx);
            }
        }
        let mut core = Core { s };
        core.diffuse(k0, k1);
        core
    }

    /// `Update(x)` at offset `I`.
    #[inline(always)]
    fn update_at<const I: usize>(&mut self, x: L) {
        let s = &mut self.s;
        let t = s[I].xor(s[(I + 1) % 16]).aes_round(x);
        let s13 = s[(I + 13) % 16];
        s[I] = s13.aes_round(t);
        s[(I + 3) % 16] = s[(I + 3) % 16].xor(x);
        s[(I + 13) % 16] = s13.xor(x);
    }

    /// `UpdateEnc(m)` at offset `I`; returns the ciphertext block.
    #[inline(always)]
    fn enc_at<const I: usize>(&mut self, m: L) -> L {
        let s = &mut self.s;
        let t = s[I].xor(s[(I + 1) % 16]).aes_round(m);
        let c = t.xor(s[(I + 9) % 16]);
        let s13 = s[(I + 13) % 16];
        s[I] = s13.aes_round(t);
        s[(I + 3) % 16] = s[(I + 3) % 16].xor(m);
        s[(I + 13) % 16] = s13.xor(m);
        c
    }

    /// `UpdateDec(c)` at offset `I`; returns the plaintext block.
    #[inline(always)]
    fn dec_at<const I: usize>(&mut self, c: L) -> L {
        let s = &mut self.s;
        let t = c.xor(s[(I + 9) % 16]);
        let m = s[I].xor(s[(I + 1) % 16]).aes_round(t);
        let s13 = s[(I + 13) % 16];
        s[I] = s13.aes_round(t);
        s[(I + 3) % 16] = s[(I + 3) % 16].xor(m);
        s[(I + 13) % 16] = s13.xor(m);
        m
    }

    /// One `Update(x)` at offset 0, then the rotation (`new S_i = old S_{i+1}`).
    #[inline(always)]
    fn update(&mut self, x: L) {
        self.update_at::<0>(x);
        self.s.rotate_left(1);
    }

    /// `Diffuse(x0, x1)`: sixteen times `Update(x0); Update(x1)`.
    #[inline(always)]
    fn diffuse(&mut self, x0: L, x1: L) {
        for _ in 0..2 {
            seq16!(I => {
                self.update_at::<I>(if I.is_multiple_of(2) { x0 } else { x1 });
            });
        }
    }

    /// The keystream of the next update, `AESL(S0 ^ S1) ^ S9` per lane.
    #[inline(always)]
    fn keystream(&self) -> L {
        self.s[0].xor(self.s[1]).aes_round(self.s[9])
    }

    /// Absorbs `data` zero-padded to a multiple of [`Self::BLOCK`].
    #[inline(always)]
    fn absorb(&mut self, data: &[u8]) {
        let mut groups = data.chunks_exact(Self::GROUP);
        for g in &mut groups {
            seq16!(I => {
                self.update_at::<I>(L::load(&g[I * Self::BLOCK..]));
            });
        }
        let mut blocks = groups.remainder().chunks_exact(Self::BLOCK);
        for b in &mut blocks {
            self.update(L::load(b));
        }
        let tail = blocks.remainder();
        if !tail.is_empty() {
            let mut pad = [0u8; 16 * MAX_LANES];
            pad[..tail.len()].copy_from_slice(tail);
            self.update(L::load(&pad));
            pad.zeroize();
        }
    }

    /// Encrypts (`DEC = false`) or decrypts `buf`: whole blocks, then a final partial block
    /// zero-padded (in decryption the state absorbs the padded *plaintext*, spec §5).
    #[inline(always)]
    fn crypt<const DEC: bool>(&mut self, mut buf: InOutBuf<'_, '_, u8>) {
        while buf.len() >= Self::GROUP {
            let (mut g, rest) = buf.split_at(Self::GROUP);
            buf = rest;
            seq16!(I => {
                let at = I * Self::BLOCK;
                let x = L::load(&g.get_in()[at..]);
                let y = if DEC { self.dec_at::<I>(x) } else { self.enc_at::<I>(x) };
                y.store(&mut g.get_out()[at..]);
            });
        }
        while buf.len() >= Self::BLOCK {
            let (mut b, rest) = buf.split_at(Self::BLOCK);
            buf = rest;
            let x = L::load(b.get_in());
            let y = if DEC {
                self.dec_at::<0>(x)
            } else {
                self.enc_at::<0>(x)
            };
            self.s.rotate_left(1);
            y.store(b.get_out());
        }
        if !buf.is_empty() {
            let n = buf.len();
            let mut tmp = [0u8; 16 * MAX_LANES];
            if DEC {
                self.keystream().store(&mut tmp);
                for (t, c) in tmp.iter_mut().zip(buf.get_in()) {
                    *t ^= *c;
                }
                tmp[n..].fill(0);
                buf.get_out().copy_from_slice(&tmp[..n]);
                self.update(L::load(&tmp));
            } else {
                tmp[..n].copy_from_slice(buf.get_in());
                let c = self.enc_at::<0>(L::load(&tmp));
                self.s.rotate_left(1);
                c.store(&mut tmp);
                buf.get_out().copy_from_slice(&tmp[..n]);
            }
            tmp.zeroize();
        }
    }

    /// XOR of the sixteen blocks, per lane.
    #[inline(always)]
    fn block_sum(&self) -> L {
        self.s[1..].iter().fold(self.s[0], |acc, b| acc.xor(*b))
    }

    /// AEAD `Finalize` with byte lengths: `Diffuse(t, t)` with `t = LE64(8·ad) || LE64(8·msg)`,
    /// tag = XOR of all blocks of all lanes.
    #[inline(always)]
    fn finalize(&mut self, ad_len: u64, msg_len: u64) -> [u8; 16] {
        let t = L::broadcast(&lengths(ad_len.wrapping_mul(8), msg_len.wrapping_mul(8)));
        self.diffuse(t, t);
        self.block_sum().fold_xor()
    }

    /// MAC finalization after `data_len` bytes were absorbed. One lane: the draft's
    /// `Finalize(8·|data|, 0)`. Several lanes (degree-generic definition):
    /// `Diffuse(LE64(8·|data|) || LE64(128))`, one update per lane `j ≥ 1` absorbing that
    /// lane's block sum into lane 0, `Diffuse(LE64(lanes) || LE64(128))`, tag = lane 0's sum.
    #[inline(always)]
    fn finalize_mac(&mut self, data_len: u64) -> [u8; 16] {
        let bits = data_len.wrapping_mul(8);
        if L::LANES == 1 {
            return self.finalize(data_len, 0);
        }
        let t = L::broadcast(&lengths(bits, 128));
        self.diffuse(t, t);
        let sums = self.block_sum();
        for j in 1..L::LANES {
            self.update(L::first_lane(&sums.lane(j)));
        }
        let t2 = L::broadcast(&lengths(L::LANES as u64, 128));
        self.diffuse(t2, t2);
        self.block_sum().lane(0)
    }
}

/// One operation on a loaded [`Core`].
trait Step {
    type Out;
    fn apply<L: Lanes>(self, core: &mut Core<L>) -> Self::Out;
}

struct Absorb<'d>(&'d [u8]);
impl Step for Absorb<'_> {
    type Out = ();
    #[inline(always)]
    fn apply<L: Lanes>(self, core: &mut Core<L>) {
        core.absorb(self.0);
    }
}

struct Crypt<'i, 'o, const DEC: bool>(InOutBuf<'i, 'o, u8>);
impl<const DEC: bool> Step for Crypt<'_, '_, DEC> {
    type Out = ();
    #[inline(always)]
    fn apply<L: Lanes>(self, core: &mut Core<L>) {
        core.crypt::<DEC>(self.0);
    }
}

struct Keystream;
impl Step for Keystream {
    type Out = [u8; 16 * MAX_LANES];
    #[inline(always)]
    fn apply<L: Lanes>(self, core: &mut Core<L>) -> Self::Out {
        let mut out = [0u8; 16 * MAX_LANES];
        core.keystream().store(&mut out);
        out
    }
}

struct Finalize(u64, u64);
impl Step for Finalize {
    type Out = [u8; 16];
    #[inline(always)]
    fn apply<L: Lanes>(self, core: &mut Core<L>) -> [u8; 16] {
        core.finalize(self.0, self.1)
    }
}

struct FinalizeMac(u64);
impl Step for FinalizeMac {
    type Out = [u8; 16];
    #[inline(always)]
    fn apply<L: Lanes>(self, core: &mut Core<L>) -> [u8; 16] {
        core.finalize_mac(self.0)
    }
}

/// Loads the state of `V` from `bytes`, applies a [`Step`], stores it back.
struct Run<'s, V, S> {
    bytes: &'s mut [u8],
    step: S,
    _v: PhantomData<V>,
}

impl<V: Variant, S: Step> LaneOp for Run<'_, V, S> {
    const LANES: usize = V::LANES;
    type Output = S::Out;
    #[inline(always)]
    fn run<L: Lanes>(self) -> S::Out {
        let mut core = Core::<L>::load(self.bytes);
        let out = self.step.apply(&mut core);
        core.store(self.bytes);
        out
    }
}

/// `Init` into `bytes`.
struct InitOp<'s, 'k, V> {
    bytes: &'s mut [u8],
    key: &'k [u8; 32],
    nonce: &'k [u8; 16],
    _v: PhantomData<V>,
}

impl<V: Variant> LaneOp for InitOp<'_, '_, V> {
    const LANES: usize = V::LANES;
    type Output = ();
    #[inline(always)]
    fn run<L: Lanes>(self) {
        Core::<L>::init(self.key, self.nonce).store(self.bytes);
    }
}

/// A raw state of variant `V` in borrowed memory (`state_bytes(V::LANES)` bytes), run on
/// `token`'s backend.
pub(crate) struct Raw<'s, V: Variant> {
    bytes: &'s mut [u8],
    token: Token,
    _v: PhantomData<V>,
}

impl<'s, V: Variant> Raw<'s, V> {
    /// Wraps `bytes`, which must be exactly `state_bytes(V::LANES)` long (else `None`).
    pub(crate) fn new(bytes: &'s mut [u8], token: Token) -> Option<Self> {
        (bytes.len() == state_bytes(V::LANES)).then_some(Raw {
            bytes,
            token,
            _v: PhantomData,
        })
    }

    fn run<S: Step>(&mut self, step: S) -> S::Out {
        self.token.dispatch(Run::<V, S> {
            bytes: self.bytes,
            step,
            _v: PhantomData,
        })
    }

    /// `Init(key, nonce)`.
    pub(crate) fn init(&mut self, key: &[u8; 32], nonce: &[u8; 16]) {
        self.token.dispatch(InitOp::<V> {
            bytes: self.bytes,
            key,
            nonce,
            _v: PhantomData,
        });
    }

    /// Absorbs `data`, zero-padded to a multiple of `16 × lanes` bytes.
    pub(crate) fn absorb(&mut self, data: &[u8]) {
        self.run(Absorb(data));
    }

    /// Encrypts `buf` (whole blocks, then a final partial block).
    pub(crate) fn enc(&mut self, buf: InOutBuf<'_, '_, u8>) {
        self.run(Crypt::<false>(buf));
    }

    /// Decrypts `buf` (whole blocks, then a final partial block).
    pub(crate) fn dec(&mut self, buf: InOutBuf<'_, '_, u8>) {
        self.run(Crypt::<true>(buf));
    }

    /// The keystream of the next update (its first `16 × lanes` bytes are meaningful).
    pub(crate) fn keystream(&mut self) -> [u8; 16 * MAX_LANES] {
        self.run(Keystream)
    }

    /// AEAD finalization with byte lengths; the state is left finalized.
    pub(crate) fn finalize(&mut self, ad_len: u64, msg_len: u64) -> [u8; 16] {
        self.run(Finalize(ad_len, msg_len))
    }

    /// MAC finalization; the state is left finalized.
    pub(crate) fn finalize_mac(&mut self, data_len: u64) -> [u8; 16] {
        self.run(FinalizeMac(data_len))
    }

    /// Runs `f` on lane `lane` alone, as a one-lane HiAE state (the lanes of the wide
    /// variants are independent HiAE states after `Init`; one update of lane `l` on its own
    /// equals that lane's part of a wide update).
    pub(crate) fn with_lane<R>(
        &mut self,
        lane: usize,
        f: impl FnOnce(&mut Raw<'_, Hiae>) -> R,
    ) -> R {
        let lanes = V::LANES;
        let mut one = [0u8; state_bytes(1)];
        for (i, dst) in one.chunks_exact_mut(16).enumerate() {
            let at = 16 * (i * lanes + lane);
            dst.copy_from_slice(&self.bytes[at..at + 16]);
        }
        let r = f(&mut Raw {
            bytes: &mut one,
            token: self.token,
            _v: PhantomData,
        });
        for (i, src) in one.chunks_exact(16).enumerate() {
            let at = 16 * (i * lanes + lane);
            self.bytes[at..at + 16].copy_from_slice(src);
        }
        one.zeroize();
        r
    }
}
