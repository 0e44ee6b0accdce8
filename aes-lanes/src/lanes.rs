//! The [`Lanes`] trait: what every backend provides.

use inout::InOutBuf;

/// Largest number of 128-bit lanes a [`Lanes`] value holds.
pub const MAX_LANES: usize = 4;

/// A value of `LANES` independent 128-bit AES states (`16 × LANES` bytes).
///
/// Lane `l` holds bytes `16 l .. 16 l + 15` of what [`load`](Lanes::load) read, in the usual
/// AES byte order (byte `i` of a block is AES state byte `i`, column-major).
///
/// Every method is `#[inline(always)]` in every implementation and none carries
/// `#[target_feature]`: generic code written against this trait is compiled *into* the
/// backend entry point that [`Token::dispatch`](crate::Token::dispatch) selects, so the AES
/// instructions end up inline in the caller's loop.
///
/// Implementations for hardware backends are private to this crate; algorithm code receives
/// them only as the type parameter of [`LaneOp::run`](crate::LaneOp::run). The portable
/// implementation, [`Soft`](crate::Soft), is public.
///
/// # Example
/// ```
/// use aes_lanes::{Lanes, Soft};
/// let x = <Soft<1>>::load(&hex_literal::hex!("00112233445566778899aabbccddeeff"));
/// let mut out = [0u8; 16];
/// x.aesl().store(&mut out);
/// assert_eq!(out, hex_literal::hex!("6379e6d9f467fb76ad063cf4d2eb8aa3"));
/// ```
pub trait Lanes: Copy {
    /// Number of independent 128-bit lanes (1, 2 or 4).
    const LANES: usize;
    /// Size of a value in bytes: `16 × LANES`.
    const BYTES: usize = 16 * Self::LANES;

    /// Vector registers the code of this lane type can use: 16 (SSE, AVX2), 32 (AVX-512,
    /// aarch64), or 0 for the portable backend, whose values live in memory.
    ///
    /// Algorithms use it to choose loop forms: with 32 registers a sixteen-block state, its
    /// inputs and pending values all stay in registers; with none, unrolling buys nothing.
    const REGISTERS: usize;

    /// Whether [`xor3`](Lanes::xor3) is one instruction (`vpternlogd` on AVX-512, SHA3's
    /// `eor3` on Arm) rather than two XORs.
    const FUSED_XOR3: bool;

    /// Whether a loop writing values to an address that is a multiple of 16 but not of
    /// `BYTES` should store them realigned ([`shift_blocks`](Lanes::shift_blocks)) rather
    /// than across cache lines: true for two lanes in a 256-bit register, where the shuffle
    /// is one instruction off the AES ports. On AMD Zen 4 a 512-bit shuffle issued on a
    /// port the 512-bit AES rounds need, and four lanes realigned ran slower than their
    /// stores across lines (HiAEx4 encryption, 64 KiB at 32 bytes past a 64-byte boundary:
    /// 1321 instead of 1183 ns).
    const REALIGN_STORES: bool = false;

    /// Whether the AES instruction XORs its key in *before* the round (Arm's `aese`), so
    /// that [`aesl_xor`](Lanes::aesl_xor) needs no separate XOR; false where the key goes in
    /// after the round (x86 `aesenc`) or there is no AES instruction.
    ///
    /// Algorithms use it to put that free XOR on a dependency chain: on Arm a value that
    /// enters an AES round as its key costs the chain no XOR of its own.
    const AES_XOR_FIRST: bool = false;

    /// The single-register value this one is made of: `L` for [`Wide<L, N>`](crate::Wide),
    /// `Self` for everything else.
    type Part: Lanes;

    /// How many [`Part`](Lanes::Part)s a value holds (`N` for `Wide<L, N>`, else 1).
    ///
    /// Algorithms whose lanes stay independent over long runs of data can run those runs on
    /// one part at a time ([`part`](Lanes::part)), so that only one part's state needs
    /// registers: a `Wide` value's state is `N` times the register file's share of a part's.
    const PARTS: usize = 1;

    /// Part `i < PARTS`: lanes `i · Part::LANES ..`.
    fn part(self, i: usize) -> Self::Part;

    /// Replaces part `i < PARTS`.
    fn set_part(&mut self, i: usize, value: Self::Part);

    /// All lanes zero.
    fn zero() -> Self;

    /// Loads `BYTES` bytes (unaligned) from the start of `src`.
    ///
    /// # Panics
    /// If `src` is shorter than `BYTES`.
    fn load(src: &[u8]) -> Self;

    /// Stores `BYTES` bytes (unaligned) to the start of `dst`.
    ///
    /// # Panics
    /// If `dst` is shorter than `BYTES`.
    fn store(self, dst: &mut [u8]);

    /// Stores `BYTES` bytes (unaligned) to the start of `dst` as 16-byte pieces, so that a
    /// value at 16 bytes before a cache-line boundary is written without a store across the
    /// line. This default is [`store`](Lanes::store); lane types with
    /// [`Self::REALIGN_STORES`] override it.
    ///
    /// # Panics
    /// If `dst` is shorter than `BYTES`.
    #[inline(always)]
    fn store_pieces(self, dst: &mut [u8]) {
        self.store(dst);
    }

    /// The `BYTES` bytes that start `16 · n` bytes before the end of `prev` in `prev`
    /// followed by `next`: the last `n` 16-byte blocks of `prev`, then the first
    /// `LANES − n` of `next` (`0 < n < LANES`). A loop that writes consecutive values to an
    /// address that is a multiple of 16 but not of `BYTES` can store these instead, at
    /// addresses that are multiples of `BYTES`, so that no store crosses a cache line
    /// ([`Self::REALIGN_STORES`] says where that pays); an algorithm whose lanes are
    /// independent can also rotate them this way. This default goes through memory; the
    /// `ymm`, `zmm` and [`Wide`](crate::Wide) lane types override it with register
    /// shuffles.
    ///
    /// # Panics
    /// If `n` is 0 or not below `LANES` (the default implementation).
    #[inline(always)]
    fn shift_blocks(prev: Self, next: Self, n: usize) -> Self {
        assert!(n > 0 && n < Self::LANES);
        let mut bytes = [0u8; 128];
        prev.store(&mut bytes[..Self::BYTES]);
        next.store(&mut bytes[Self::BYTES..]);
        Self::load(&bytes[Self::BYTES - 16 * n..])
    }

    /// Whether [`hiae_encrypt_chunks`](Lanes::hiae_encrypt_chunks) and
    /// [`hiae_absorb_chunks`](Lanes::hiae_absorb_chunks) run a loop for this lane type (else
    /// they do nothing and return `false`).
    ///
    /// True for the lane types in sixteen VEX-encoded registers (one lane on AES-NI with AVX
    /// and on VAES-AVX2, two lanes on VAES-AVX2): there a HiAE state (sixteen words) with its
    /// message block and a temporary needs more registers than there are, and the loops the
    /// compiler makes from generic code move about thirty values through the stack per
    /// chunk. These loops are scheduled by hand to move four per chunk (encryption) or none
    /// (absorption).
    const HIAE_LOOPS: bool = false;

    /// HiAE's `UpdateEnc` on whole chunks, where [`HIAE_LOOPS`](Lanes::HIAE_LOOPS): for each
    /// chunk of sixteen blocks `m_i` (`i` = 0..16), with the state words `S` taken at
    /// rotation offset `i`, `t = AESL(S[i] ^ S[i+1]) ^ m_i`, ciphertext block `t ^ S[i+9]`,
    /// then `S[i] = AESL(S[i+13]) ^ t`, `S[i+3] ^= m_i`, `S[i+13] ^= m_i` (indices mod 16).
    ///
    /// Block `i` of each chunk is the `BYTES` bytes of part `part` of the `parts`-value
    /// block `i` (`parts × BYTES` bytes at `i · parts · BYTES`): each part of a
    /// [`Wide`](crate::Wide) state can run on its own over the same data. `buf` is read
    /// from its input side and written on its output side (the same memory or none of it in
    /// common), each block read before its ciphertext is written. Returns `false`, with
    /// nothing done, for a lane type without the loop.
    ///
    /// # Panics
    /// If `buf` is not a whole number of `16 × parts × BYTES`-byte chunks, `part >= parts`,
    /// or `parts` is not 1, 2 or 4.
    #[inline(always)]
    fn hiae_encrypt_chunks(
        state: &mut [Self; 16],
        buf: InOutBuf<'_, '_, u8>,
        part: usize,
        parts: usize,
    ) -> bool {
        let _ = (state, buf, part, parts);
        false
    }

    /// HiAE's `Update` on whole chunks of `data` ([`hiae_encrypt_chunks`]'s state update
    /// without the ciphertext), laid out and checked as there; `false` where
    /// [`HIAE_LOOPS`](Lanes::HIAE_LOOPS) is false.
    ///
    /// [`hiae_encrypt_chunks`]: Lanes::hiae_encrypt_chunks
    ///
    /// # Panics
    /// As [`hiae_encrypt_chunks`](Lanes::hiae_encrypt_chunks).
    #[inline(always)]
    fn hiae_absorb_chunks(state: &mut [Self; 16], data: &[u8], part: usize, parts: usize) -> bool {
        let _ = (state, data, part, parts);
        false
    }

    /// HiAE's `Diffuse(x0, x1)` where [`HIAE_LOOPS`](Lanes::HIAE_LOOPS) (else nothing is done
    /// and the result is `false`): 32 updates, the inputs alternating, with `state` taken at
    /// rotation offset `OFF` (update `k` at offset `OFF + k`, as in
    /// [`hiae_encrypt_chunks`](Lanes::hiae_encrypt_chunks); 32 updates end at the offset they
    /// began). The pairs of `S3` and `S13` XORs that cancel (update `k`'s `S13` and update
    /// `k + 10`'s `S3`: the same input into the same word, unread in between) are left out.
    /// `FOR_SUM`, for `x0 = x1` and a caller that needs only the XOR of the sixteen words
    /// afterwards, which `state[OFF % 16]` then holds (the other words are left unspecified):
    /// the `S13` XORs of updates 22–31 are left out too, ten XORs of the same block into the
    /// sum, which leave it as it is.
    #[inline(always)]
    fn hiae_diffuse<const OFF: usize, const FOR_SUM: bool>(
        state: &mut [Self; 16],
        x0: Self,
        x1: Self,
    ) -> bool {
        let _ = (state, x0, x1);
        false
    }

    /// [`hiae_diffuse`](Lanes::hiae_diffuse) with `x0` and `x1` read from memory: the first
    /// `2 · BYTES` bytes of `x`, `x0` first (for one lane, a 32-byte HiAE key is `k0 || k1`).
    ///
    /// # Panics
    /// If `x` is shorter than `2 · BYTES` (where the updates run).
    #[inline(always)]
    fn hiae_diffuse_from<const OFF: usize, const FOR_SUM: bool>(
        state: &mut [Self; 16],
        x: &[u8],
    ) -> bool {
        let _ = (state, x);
        false
    }

    /// One HiAE `Update` at rotation offset `I` whose input is the first `BYTES` bytes of
    /// `block`, where [`HIAE_LOOPS`](Lanes::HIAE_LOOPS) (else nothing is done and the result
    /// is `false`): `t = AESL(S[I] ^ S[I+1]) ^ x`, `S[I] = AESL(S[I+13]) ^ t`, `S[I+3] ^= x`,
    /// `S[I+13] ^= x` (indices mod 16), the block read from memory where it is.
    ///
    /// # Panics
    /// If `block` is shorter than `BYTES` (where the update runs).
    #[inline(always)]
    fn hiae_update_from<const I: usize>(state: &mut [Self; 16], block: &[u8]) -> bool {
        let _ = (state, block);
        false
    }

    /// The same 16-byte block in every lane.
    fn broadcast(block: &[u8; 16]) -> Self;

    /// Bitwise XOR.
    fn xor(self, other: Self) -> Self;

    /// Bitwise AND.
    fn and(self, other: Self) -> Self;

    /// `self ^ b ^ c` (one instruction where the backend has one).
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        self.xor(b).xor(c)
    }

    /// `self ^ b ^ late`, with `late` XORed in last: `self ^ b` is kept as one value that the
    /// optimizer does not regroup with `late`, so a `late` that arrives last (on a dependency
    /// chain) waits for one XOR only. LLVM orders a chain of XORs by where its inputs are
    /// defined: with `b` loaded just before, it XORed `late` first and `b` last.
    #[inline(always)]
    fn xor_late(self, b: Self, late: Self) -> Self {
        self.xor3(b, late)
    }

    /// One AES encryption round in x86 shape: `AESL(self) ^ key`, where
    /// `AESL = MixColumns ∘ ShiftRows ∘ SubBytes`.
    fn aes_round(self, key: Self) -> Self;

    /// `K` independent rounds: `x[j].aes_round(k[j])` for every `j`.
    ///
    /// The same as `K` calls of [`aes_round`](Lanes::aes_round), which is what the hardware
    /// backends do. The portable lanes evaluate four blocks per bitsliced round whatever
    /// the lane count, so they fill each round with up to `4 / LANES` of these: an algorithm
    /// with independent rounds (HiAE's two per update, and those of neighbouring updates)
    /// gets them for the price of one.
    ///
    /// ```
    /// use aes_lanes::{Lanes, Soft};
    /// let x: [Soft<1>; 3] = core::array::from_fn(|i| Soft::broadcast(&[i as u8; 16]));
    /// let k: [Soft<1>; 3] = core::array::from_fn(|i| Soft::broadcast(&[9 * i as u8; 16]));
    /// let y = <Soft<1>>::aes_rounds(x, k);
    /// for j in 0..3 {
    ///     assert_eq!(y[j], x[j].aes_round(k[j]));
    /// }
    /// ```
    #[inline(always)]
    fn aes_rounds<const K: usize>(x: [Self; K], k: [Self; K]) -> [Self; K] {
        // A plain loop, not `array::map`: an out-of-line closure instance would be compiled
        // without the backend's target features.
        let mut out = x;
        for j in 0..K {
            out[j] = x[j].aes_round(k[j]);
        }
        out
    }

    /// One AES round in Arm shape: `AESL(self ^ key)`. One instruction pair on Arm
    /// ([`AES_XOR_FIRST`](Lanes::AES_XOR_FIRST)); elsewhere an XOR and an unkeyed round.
    ///
    /// ```
    /// use aes_lanes::{Lanes, Soft};
    /// let a = <Soft<1>>::broadcast(&[3; 16]);
    /// let k = <Soft<1>>::broadcast(&[5; 16]);
    /// assert_eq!(a.aesl_xor(k), a.xor(k).aesl());
    /// ```
    #[inline(always)]
    fn aesl_xor(self, key: Self) -> Self {
        self.xor(key).aesl()
    }

    /// The last AES encryption round (no MixColumns), x86 shape:
    /// `ShiftRows(SubBytes(self)) ^ key`.
    fn aes_round_last(self, key: Self) -> Self;

    /// One step of the AES-128 key schedule in every lane: from round key `i` (`self`) and the
    /// round constant `rcon` of step `i + 1` (`01 02 04 08 10 20 40 80 1b 36`), round key
    /// `i + 1`.
    ///
    /// ```
    /// use aes_lanes::{Lanes, Soft};
    /// use hex_literal::hex;
    /// // FIPS-197 appendix A.1: the key 2b7e1516… gives round key 1 = a0fafe17….
    /// let k0 = <Soft<1>>::load(&hex!("2b7e151628aed2a6abf7158809cf4f3c"));
    /// let mut k1 = [0u8; 16];
    /// k0.aes128_key_step(0x01).store(&mut k1);
    /// assert_eq!(k1, hex!("a0fafe1788542cb123a339392a6c7605"));
    /// ```
    #[inline(always)]
    fn aes128_key_step(self, rcon: u8) -> Self {
        // Reference form, used by backends without a fused version: put RotWord(w3) in every
        // column, so that ShiftRows is the identity and the last round gives
        // SubWord(RotWord(w3)) ^ rcon in every column; then the running XOR of the words.
        let mut k = [0u8; 16 * MAX_LANES];
        self.store(&mut k);
        let mut t = [0u8; 16 * MAX_LANES];
        let mut rc = [0u8; 16 * MAX_LANES];
        for lane in 0..Self::LANES {
            let base = 16 * lane;
            for col in 0..4 {
                for i in 0..4 {
                    t[base + 4 * col + i] = k[base + 12 + (i + 1) % 4];
                }
                rc[base + 4 * col] = rcon;
            }
        }
        let mut temp = [0u8; 16 * MAX_LANES];
        Self::load(&t)
            .aes_round_last(Self::load(&rc))
            .store(&mut temp);
        for lane in 0..Self::LANES {
            let base = 16 * lane;
            for i in 0..4 {
                let mut acc = temp[base + i];
                for col in 0..4 {
                    acc ^= k[base + 4 * col + i];
                    k[base + 4 * col + i] = acc;
                }
            }
        }
        Self::load(&k)
    }

    /// Transposes the 32-bit words of four values within each lane: word `j` of lane `l` of
    /// value `i` becomes word `i` of lane `l` of value `j`. Applying it twice gives back
    /// the input.
    ///
    /// With four values of AES-128 keys, this gives their *word-sliced* form for
    /// [`aes128_key_step_sliced`](Lanes::aes128_key_step_sliced), and back.
    ///
    /// ```
    /// use aes_lanes::{Lanes, Soft};
    /// let v: [Soft<1>; 4] = core::array::from_fn(|i| <Soft<1>>::load(&[i as u8 * 16; 16]));
    /// let t = <Soft<1>>::transpose_words(v);
    /// let mut w0 = [0u8; 16];
    /// t[0].store(&mut w0);
    /// assert_eq!(w0, [0, 0, 0, 0, 16, 16, 16, 16, 32, 32, 32, 32, 48, 48, 48, 48]);
    /// ```
    #[inline(always)]
    fn transpose_words(v: [Self; 4]) -> [Self; 4] {
        let mut inp = [[0u8; 16 * MAX_LANES]; 4];
        for (buf, x) in inp.iter_mut().zip(v) {
            x.store(buf);
        }
        let mut out = [[0u8; 16 * MAX_LANES]; 4];
        for lane in 0..Self::LANES {
            for (i, from) in inp.iter().enumerate() {
                for (j, to) in out.iter_mut().enumerate() {
                    let (dst, src) = (16 * lane + 4 * i, 16 * lane + 4 * j);
                    to[dst..dst + 4].copy_from_slice(&from[src..src + 4]);
                }
            }
        }
        [
            Self::load(&out[0]),
            Self::load(&out[1]),
            Self::load(&out[2]),
            Self::load(&out[3]),
        ]
    }

    /// One step of the AES-128 key schedule on keys in word-sliced form: `w[j]` holds word
    /// `j` of a round key in each 32-bit column of each lane (so `4 × LANES` keys in four
    /// values, as [`transpose_words`](Lanes::transpose_words) makes them). Returns the next
    /// round keys in the same form; `rcon` as in
    /// [`aes128_key_step`](Lanes::aes128_key_step).
    ///
    /// Six operations for `4 × LANES` keys (a byte shuffle, `aesenclast`, four XORs), where
    /// the per-key form needs about seven per key: the bulk kernels that expand one key per
    /// record use this and transpose back for the rounds.
    ///
    /// ```
    /// use aes_lanes::{Lanes, Soft};
    /// use hex_literal::hex;
    /// let k0 = <Soft<1>>::load(&hex!("2b7e151628aed2a6abf7158809cf4f3c"));
    /// let w = <Soft<1>>::transpose_words([k0; 4]);
    /// let k1 = <Soft<1>>::transpose_words(<Soft<1>>::aes128_key_step_sliced(w, 0x01));
    /// let mut out = [0u8; 16];
    /// k1[3].store(&mut out);
    /// assert_eq!(out, hex!("a0fafe1788542cb123a339392a6c7605"));
    /// ```
    #[inline(always)]
    fn aes128_key_step_sliced(w: [Self; 4], rcon: u8) -> [Self; 4] {
        let mut w3 = [0u8; 16 * MAX_LANES];
        w[3].store(&mut w3);
        let mut x = [0u8; 16 * MAX_LANES];
        let mut rc = [0u8; 16 * MAX_LANES];
        for lane in 0..Self::LANES {
            let base = 16 * lane;
            for (i, &src) in SLICED_ROT_WORD.iter().enumerate() {
                x[base + i] = w3[base + usize::from(src)];
            }
            for col in 0..4 {
                rc[base + 4 * col] = rcon;
            }
        }
        let t = Self::load(&x).aes_round_last(Self::load(&rc));
        let w0 = w[0].xor(t);
        let w1 = w[1].xor(w0);
        let w2 = w[2].xor(w1);
        let w3 = w[3].xor(w2);
        [w0, w1, w2, w3]
    }

    /// The unkeyed AES round `AESL(self)`.
    #[inline(always)]
    fn aesl(self) -> Self {
        self.aes_round(Self::zero())
    }

    /// XOR of all lanes, as one 16-byte block.
    #[inline(always)]
    fn fold_xor(self) -> [u8; 16] {
        let mut buf = [0u8; 16 * MAX_LANES];
        self.store(&mut buf);
        let mut out = [0u8; 16];
        for lane in buf[..Self::BYTES].chunks_exact(16) {
            for (o, b) in out.iter_mut().zip(lane) {
                *o ^= b;
            }
        }
        out
    }

    /// Lane `lane` as a 16-byte block.
    ///
    /// # Panics
    /// If `lane >= LANES`.
    #[inline(always)]
    fn lane(self, lane: usize) -> [u8; 16] {
        assert!(lane < Self::LANES, "lane index out of range");
        let mut buf = [0u8; 16 * MAX_LANES];
        self.store(&mut buf);
        let mut out = [0u8; 16];
        out.copy_from_slice(&buf[16 * lane..16 * lane + 16]);
        out
    }

    /// The value whose bytes, in memory order, are the little-endian 64-bit words
    /// `words[.. BYTES / 8]` (the rest is ignored). Lane types in registers override it with
    /// register moves, so that a value put together from general-purpose registers does not
    /// go through memory: a vector load of bytes written just before by narrower stores
    /// cannot take its data from the store buffer and waits until those stores retire.
    #[inline(always)]
    fn from_words(words: &[u64; 2 * MAX_LANES]) -> Self {
        let mut buf = [0u8; 16 * MAX_LANES];
        for (b, w) in buf.chunks_exact_mut(8).zip(words) {
            b.copy_from_slice(&w.to_le_bytes());
        }
        Self::load(&buf)
    }

    /// The bytes of `self` as little-endian 64-bit words (`BYTES / 8` of them, then zeros):
    /// the inverse of [`from_words`](Lanes::from_words).
    #[inline(always)]
    fn to_words(self) -> [u64; 2 * MAX_LANES] {
        let mut buf = [0u8; 16 * MAX_LANES];
        self.store(&mut buf);
        let mut words = [0u64; 2 * MAX_LANES];
        for (w, b) in words.iter_mut().zip(buf.chunks_exact(8)) {
            *w = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        }
        words
    }

    /// `block` in lane 0, zero in every other lane.
    #[inline(always)]
    fn first_lane(block: &[u8; 16]) -> Self {
        let mut buf = [0u8; 16 * MAX_LANES];
        buf[..16].copy_from_slice(block);
        Self::load(&buf)
    }
}

/// The [`Lanes`] items of a value that is one register: its only part is itself.
macro_rules! one_part {
    () => {
        type Part = Self;

        #[inline(always)]
        fn part(self, _i: usize) -> Self {
            self
        }

        #[inline(always)]
        fn set_part(&mut self, _i: usize, value: Self) {
            *self = value;
        }
    };
}
pub(crate) use one_part;

/// Byte shuffle for [`Lanes::aes128_key_step_sliced`]: applied to the last key words (one
/// key per 32-bit column), it puts `RotWord` of each column's word where `ShiftRows` will
/// move it back into that column, so that `aesenclast` with `rcon` in byte 0 of every column
/// gives `SubWord(RotWord(w3)) ^ rcon` per key. Byte `4c + r` takes byte
/// `4((c - r) mod 4) + (r + 1) mod 4`.
pub(crate) const SLICED_ROT_WORD: [u8; 16] = {
    let mut m = [0u8; 16];
    let mut c = 0;
    while c < 4 {
        let mut r = 0;
        while r < 4 {
            m[4 * c + r] = (4 * ((c + 4 - r) % 4) + (r + 1) % 4) as u8;
            r += 1;
        }
        c += 1;
    }
    m
};
