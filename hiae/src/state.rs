//! The HiAE algorithm, written once over [`Lanes`].
//!
//! `State<L>` holds sixteen blocks of `L::LANES` lanes each. With one lane this is HiAE; with
//! 2 or 4 lanes it is HiAEx2 / HiAEx4 (`d` independent HiAE states side by side, each lane
//! with its own context block; see the crate README).
//!
//! The state is *rotation-free*: update number `i` of a group of sixteen works on the fixed
//! array with offsets `i, i+1, i+3, i+9, i+13 (mod 16)`, so after sixteen updates the array is
//! back in canonical order. Bulk data goes through fully unrolled 16-update chunks whose
//! offsets are compile-time constants, so LLVM keeps all sixteen blocks in registers. Single
//! blocks (the tail of a message) use offset 0 and then rotate the array by one.
//!
//! Everything here is `#[inline(always)]` and free of `#[target_feature]`: it is compiled into
//! the backend entry points of `aes-lanes` through [`LaneOp`](aes_lanes::LaneOp) wrappers.

use aead::inout::InOutBuf;
use aes_lanes::{LaneShape, Lanes, MAX_LANES};

use crate::realign::Realign;
use crate::skew::SKEW_MIN;
use crate::tail::{WORDS, keep_bytes, read_words, select_words, write_words};

/// `C0`: the first digits of π.
pub(crate) const C0: [u8; 16] = [
    0x32, 0x43, 0xf6, 0xa8, 0x88, 0x5a, 0x30, 0x8d, 0x31, 0x31, 0x98, 0xa2, 0xe0, 0x37, 0x07, 0x34,
];
/// `C1`: the first digits of e.
pub(crate) const C1: [u8; 16] = [
    0x4a, 0x40, 0x93, 0x82, 0x22, 0x99, 0xf3, 0x1d, 0x00, 0x82, 0xef, 0xa9, 0x8e, 0xc4, 0xe6, 0xc8,
];

/// Most blocks after the last whole chunk of the general loops (a chunk is sixteen).
const TAIL_MAX: usize = 15;

/// Chunks per piece when the bulk loops run part by part ([`State::SPLIT`]): each part goes
/// over the piece in turn, so the later ones read it from L1 (16 KiB for HiAEx4).
const SPLIT_PIECE: usize = 16;

/// Chunks per piece for encryption and decryption part by part when the output is another
/// buffer than the input (4 KiB for HiAEx4). The first part's pass brings the input and the
/// output lines of a piece into L1 and the later passes use them again; out of place a 16 KiB
/// piece is 32 KiB of lines, as much as the L1 data cache of current x86 cores, and 64 KiB
/// to 1 MiB messages took 10 to 14 % longer than with 4 KiB pieces (PERFORMANCE.md). In
/// place the output lines are the input lines, and the longer piece measured faster.
const SPLIT_PIECE_APART: usize = 4;

/// The most updates of input (blocks, the last one possibly partial) of
/// [`State::mac_short`].
pub(crate) const MAC_SHORT_UPDATES: usize = 5;

/// Shortest run of whole chunks whose output the encryption loop realigns ([`Realign`]).
const REALIGN_MIN: usize = 8192;

/// Shortest run of whole chunks for which the decryption loop realigns its stores within
/// each chunk ([`State::pieces_for`]), where the output is 16 bytes past a 32-byte boundary.
/// HiAEx2 on AMD Zen 3, against the values that would cross a line stored in 16-byte pieces:
/// 64 KiB in 2120–2144 instead of 2231–2253 ns, 1 MiB 35.5–35.7 instead of 36.7–38.1 µs, 16
/// and 32 KiB faster, 8 KiB level within the noise; the pieces against whole stores on AMD
/// Zen 4: 8 KiB 256 instead of 271 ns, 64 KiB 1880–1930 instead of 2100–2300 (PERFORMANCE.md).
const DEC_PIECES_MIN: usize = 8192;

/// Whether `len` bytes of message or MAC input of a `lanes`-lane instance go to the one-shot
/// kernels for whole chunks (`WholeOneShot`, and `MacOneShot` with `WHOLE`): a multiple of
/// the chunk (`256 · lanes` bytes), shorter than the lengths at which the lanes are rotated
/// ([`SKEW_MIN`]) or the output stores realigned ([`REALIGN_MIN`]). Those kernels go from
/// the chunk loop straight to the finalization. In the general ones the blocks after the last chunk (up to
/// fifteen unrolled updates, each count leaving the state in other registers) end in a join,
/// and so do the associated-data phases; every call paid for those joins in register moves
/// and stack accesses, taken or not. On `VAES-AVX2`, 1 KiB, HiAE encryption took 54.7–55.0
/// instead of 59.5–60.1 ns, HiAEx2 40.4–41.1 instead of 47.0–47.8 (AMD Zen 5). Kernels of
/// their own, not a branch in the general ones: there the extra loop changed how the
/// general kernel's long loops were allocated (HiAEx2 64 KiB up to 5 % slower,
/// PERFORMANCE.md). They reuse the general loops' code as it is (`crypt_chunks` with its
/// realignment test): a variant of it for them alone changed the general kernel's loops too.
#[inline(always)]
pub(crate) const fn whole_len(len: usize, lanes: usize) -> bool {
    let limit = if REALIGN_MIN < SKEW_MIN {
        REALIGN_MIN
    } else {
        SKEW_MIN
    };
    len.is_multiple_of(256 * lanes) && len < limit
}

/// [`State::WHOLE_LOOPS`] of the lane type with `shape` for `lanes` lanes: unrolled loops
/// ([`State::UNROLL`]: vector registers), and a state of the whole width in the one-shot
/// kernels (not [`State::PART_BY_PART`]: four lanes in more than two registers). The
/// one-shot calls apply it to the token's shape (`Token::shape`) to choose their kernel
/// without dispatching one first; `State::WHOLE_LOOPS` applies it to the lane type.
#[inline(always)]
pub(crate) const fn whole_loops(lanes: usize, shape: LaneShape) -> bool {
    shape.registers > 0 && !(lanes == 4 && shape.parts > 2)
}

/// Size in bytes of the serialized state: 16 blocks of up to 4 lanes.
pub(crate) const STATE_BYTES: usize = 16 * 16 * MAX_LANES;

/// Expands `$body` sixteen times with `const $i: usize` = 0, 1, …, 15.
macro_rules! unroll16 {
    ($i:ident => $body:block) => {
        unroll16!(@ $i $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@ $i:ident $body:block; $($n:literal)*) => {
        $( { const $i: usize = $n; $body } )*
    };
}

/// Runs `$body` with `const $i: usize` = 0, 1, … for each part of the lane type `$l`
/// ([`Lanes::PARTS`], at most four). Written out per part rather than as a loop: with a
/// constant index each part's state has fixed stack slots, which the rounds read as memory
/// operands; a loop over a run-time index copied every part in and out and spilled more
/// (HiAEx4 on AES-NI: 1.7 times the instructions per message at 64 B and 1 KiB).
macro_rules! each_part {
    ($l:ty, $i:ident, $body:block) => {
        each_part!(@ $l, $i, $body; 0 1 2 3)
    };
    (@ $l:ty, $i:ident, $body:block; $($n:literal)*) => {
        $( if $n < <$l>::PARTS { const $i: usize = $n; $body } )*
    };
}
pub(crate) use each_part;

/// Runs `$body` on each part of `$st`'s lanes ([`State::SPLIT`]) in turn ([`each_part`]):
/// `$p` is the part's state (`&mut State<L::Part>`), `$i` its index as a constant. Each part
/// is taken out of the state right before its turn and put back right after (16 loads and 16
/// stores; the whole state does not fit the registers anyway).
macro_rules! by_parts {
    ($st:ident, |$p:ident, $i:ident| $body:block) => {
        each_part!(L, $i, {
            let mut part = $st.part_state($i);
            {
                let $p = &mut part;
                $body
            }
            $st.set_part_state($i, &part);
        })
    };
}

/// The 16-block state, `L::LANES` lanes wide.
#[derive(Clone, Copy)]
pub(crate) struct State<L: Lanes> {
    s: [L; 16],
}

/// What [`State::steps`] does with its input blocks.
#[derive(Clone, Copy)]
enum Step {
    /// `Update(x)`.
    Absorb,
    /// `UpdateEnc(m)`.
    Enc,
    /// `UpdateDec(c)`.
    Dec,
}

/// `LE64(a) || LE64(b)` as a 16-byte block.
#[inline(always)]
fn lengths_block(a: u64, b: u64) -> [u8; 16] {
    let mut t = [0u8; 16];
    t[..8].copy_from_slice(&a.to_le_bytes());
    t[8..].copy_from_slice(&b.to_le_bytes());
    t
}

impl<L: Lanes> State<L> {
    /// Whether the bulk loops run one register's lanes at a time ([`Lanes::PARTS`]): for four
    /// lanes in several registers (HiAEx4 on VAES-AVX2, AES-NI, Arm), whose interleaved states
    /// would not fit the register file. The lanes are independent HiAE states until
    /// finalization, so each part can go over a piece of data on its own, with one part's
    /// state in registers instead of all parts' spilled. Two lanes in two `xmm` registers
    /// (HiAEx2 on AES-NI) stay interleaved, which measured faster for them (PERFORMANCE.md).
    const SPLIT: bool = L::LANES == 4 && L::PARTS > 1;

    /// Whether the one-shot kernels for medium lengths (the general form of encryption and
    /// decryption, the MAC up to [`Self::PIECE`] bytes) run each part ([`Lanes::PARTS`]) as a
    /// state of its own from `Init` to its share of the tag, instead of a state of the whole
    /// width: for four single-lane registers (HiAEx4 on AES-NI and Arm), whose interleaved
    /// states spill and whose loops run part by part anyway. With a wide state, the parts
    /// taken out and put back around each phase left the register allocator moving the whole
    /// state between stack slots from one phase to the next (about a hundred extra moves per
    /// call).
    pub(crate) const PART_BY_PART: bool = Self::SPLIT && L::PARTS > 2;

    /// Whether the encryption loop (every width) and the one-lane absorb loop run in the
    /// deferred form ([`update_deferred_at`](Self::update_deferred_at)): where the lane type
    /// has 32 registers to keep the pending XORs in and a one-instruction three-way XOR to
    /// fold them with: fewer vector operations for more live values, which only 32 registers
    /// hold without spills. Wider absorb loops spilled, and decryption has no XOR to save, so
    /// those keep the plain form.
    const DEFERRED: bool = L::REGISTERS >= 32 && L::FUSED_XOR3;

    /// Whether the bulk loops are unrolled into sixteen-update chunks, whose constant block
    /// offsets let the state stay in registers. Lane types without vector registers (the
    /// portable backend, whose 64-byte values live in memory and whose rounds are calls) run
    /// rolled loops over a moving offset instead: the same arithmetic in a tenth of the code.
    pub(crate) const UNROLL: bool = L::REGISTERS > 0;

    /// Whether the plain absorb loop of the MAC kernels writes each update's `S3` and `S13`
    /// XORs before its two AES rounds rather than after them: the same operations in another
    /// order, after which LLVM's register allocator spills less where two lanes take two `xmm`
    /// registers per block (HiAEx2 on AES-NI: 255 instructions and 93 stack accesses per
    /// 512 bytes instead of 261 and 98). Two lanes in one `ymm` in 16 registers (HiAEx2 on
    /// VAES-AVX2) take it too: 64 KiB in 872–875 instead of 892–901 ns (AMD Zen 5). The
    /// one-shot AEAD kernel absorbs its associated data in the usual order: with the other
    /// one, the allocator laid out the decryption loop of that kernel anew, and slower
    /// (PERFORMANCE.md).
    const ABSORB_XORS_FIRST: bool = (L::PARTS == 2 || L::LANES == 2) && L::REGISTERS < 32;

    /// Blocks loaded together by the plain encryption loop over part `h` of `parts` of every
    /// block: pairs for one lane, for 32-register lane types and for whole blocks in one
    /// register; single blocks where a block of several lanes takes several registers of 16,
    /// or the loop runs over one part of such a block, which measured faster that way
    /// (PERFORMANCE.md: on AMD Zen 4 at 64 KiB, HiAEx2 on AES-NI 185 → 213 Gbps, HiAEx4 on
    /// VAES-AVX2 about 300 → 420 Gbps). HiAEx2 on VAES-AVX2 (one `ymm` per block) took 983 to
    /// 1005 ns for 64 KiB with pairs and 1023 to 1045 with single blocks (AMD Zen 5).
    #[inline(always)]
    const fn enc_loads(parts: usize) -> usize {
        if L::LANES == 1 || L::REGISTERS >= 32 || (parts == 1 && L::PARTS == 1) {
            2
        } else {
            1
        }
    }

    /// Whether the plain encryption loop stores each ciphertext block right after its update
    /// (lane types in 16 registers) rather than with the rest of its group of loads: for one
    /// lane on AMD Zen 4, 64 KiB in 2237 instead of 2416 ns (PERFORMANCE.md).
    const ENC_STORE_EACH: bool = L::REGISTERS < 32;

    /// Whether the one-lane short MAC ([`mac_short`](Self::mac_short)) loads its input blocks
    /// before the initialization rather than after it (lane types in 16 registers). On AMD
    /// Zen 5 with `VAES-AVX2`, libhiae's time / ours at 16, 48 and 64 bytes went from 1.06–1.08
    /// to 1.12–1.14 (32 bytes level, 80 bytes 1.09 → 1.07); with 32 registers
    /// (`VAES-AVX512`) the other order was 1–3 % faster.
    const MAC_SHORT_BLOCKS_FIRST: bool = L::REGISTERS < 32;

    /// Whether the decryption loop keeps the eight state words that wait longest for their
    /// next use in memory (lane types with one register per word and 16 registers): each word
    /// goes to memory right after its `S9` read and is read back as the `S1` and `S0` eight
    /// updates later, off the dependency chain, instead of the register allocator choosing
    /// what to spill (it had chosen a value on the chain).
    const DEC_PARK: bool = Self::UNROLL && L::REGISTERS < 32 && L::PARTS == 1;

    /// Whether a final partial block goes through general-purpose registers ([`read_words`],
    /// [`Lanes::from_words`]) rather than through a buffer in memory: for blocks of one or two
    /// lanes (16 or 32 bytes). Four lanes' 64-byte block takes eight words, and assembling them
    /// in registers measured slower than the buffer (HiAEx4 on VAES-AVX512, 63 bytes: 57 against
    /// 49 ns).
    const TAIL_IN_WORDS: bool = L::LANES <= 2;

    /// Whether this lane type runs the one-shot kernels for whole chunks ([`whole_len`]),
    /// which take the chunk loops alone ([`crypt_whole`](Self::crypt_whole),
    /// [`absorb_whole`](Self::absorb_whole)): where the loops are unrolled and the one-shot
    /// kernels keep a state of the whole width (not [`Self::PART_BY_PART`], whose kernels run
    /// each part from `Init` to its tag). The rule itself is [`whole_loops`], which the
    /// one-shot calls apply to a token's [`LaneShape`] before dispatching.
    pub(crate) const WHOLE_LOOPS: bool = whole_loops(
        L::LANES,
        LaneShape {
            parts: L::PARTS,
            registers: L::REGISTERS,
        },
    );

    /// Encrypts (`DEC = false`) or decrypts `buf`, whose length passes [`whole_len`] for this
    /// width, on a lane type with [`Self::WHOLE_LOOPS`]: the chunk loops alone (by parts
    /// where [`Self::SPLIT`]).
    #[inline(always)]
    pub(crate) fn crypt_whole<const DEC: bool>(&mut self, buf: InOutBuf<'_, '_, u8>) {
        debug_assert!(Self::WHOLE_LOOPS && whole_len(buf.len(), L::LANES));
        self.crypt_bulk::<DEC>(buf);
    }

    /// Absorbs `data`, whose length passes [`whole_len`] for this width, on a lane type with
    /// [`Self::WHOLE_LOOPS`]: the chunk loops alone (`MAC` as in
    /// [`absorb_blocks`](Self::absorb_blocks)).
    #[inline(always)]
    pub(crate) fn absorb_whole<const MAC: bool>(&mut self, data: &[u8]) {
        debug_assert!(Self::WHOLE_LOOPS && whole_len(data.len(), L::LANES));
        self.absorb_bulk::<MAC>(data);
    }

    /// Bytes absorbed per update (one block in every lane).
    pub(crate) const BLOCK: usize = 16 * L::LANES;
    /// Bytes per unrolled chunk of sixteen updates.
    pub(crate) const CHUNK: usize = 256 * L::LANES;
    /// Bytes per piece of data that the parts go over in turn where the loops run part by part
    /// ([`Self::SPLIT`]).
    pub(crate) const PIECE: usize = SPLIT_PIECE * Self::CHUNK;

    /// `Init(key, nonce)` (version C), with the per-lane context block for `LANES > 1`.
    #[inline(always)]
    pub(crate) fn new(key: &[u8; 32], nonce: &[u8; 16]) -> Self {
        Self::new_lanes(key, nonce, L::LANES, 0)
    }

    /// `Init(key, nonce)` of lanes `first .. first + L::LANES` of a `total`-lane instance:
    /// the same state as those lanes of `State::<W>::new` for a `total`-lane `W` (the context
    /// block of lane `l` is `l || total - 1 || 0…`, none for `total = 1`).
    #[inline(always)]
    pub(crate) fn new_lanes(key: &[u8; 32], nonce: &[u8; 16], total: usize, first: usize) -> Self {
        Self::new_lanes_in::<false>(key, nonce, total, first)
    }

    /// [`new`](Self::new) for the MAC kernels: `Diffuse` in assembly where the lane type has
    /// it ([`Lanes::hiae_diffuse`]).
    #[inline(always)]
    pub(crate) fn new_mac(key: &[u8; 32], nonce: &[u8; 16]) -> Self {
        Self::new_lanes_in::<true>(key, nonce, L::LANES, 0)
    }

    /// [`new_lanes`](Self::new_lanes); `ASM`: `Diffuse` in assembly where the lane type has it.
    #[inline(always)]
    fn new_lanes_in<const ASM: bool>(
        key: &[u8; 32],
        nonce: &[u8; 16],
        total: usize,
        first: usize,
    ) -> Self {
        let mut k0b = [0u8; 16];
        let mut k1b = [0u8; 16];
        k0b.copy_from_slice(&key[..16]);
        k1b.copy_from_slice(&key[16..]);
        let k0 = L::broadcast(&k0b);
        let k1 = L::broadcast(&k1b);
        let n = L::broadcast(nonce);
        let c0 = L::broadcast(&C0);
        let c1 = L::broadcast(&C1);
        let z = L::zero();
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
        if total > 1 {
            let mut ctx = [0u8; 16 * MAX_LANES];
            for l in 0..L::LANES {
                ctx[16 * l] = (first + l) as u8;
                ctx[16 * l + 1] = (total - 1) as u8;
            }
            let ctx = L::load(&ctx);
            for b in s.iter_mut() {
                *b = b.xor(ctx);
            }
        }
        let mut st = State { s };
        // One lane: the key is `k0 || k1` as `Diffuse` reads its inputs, from where it is.
        let ran = ASM
            && if L::LANES == 1 {
                L::hiae_diffuse_from::<0, false>(&mut st.s, key)
            } else {
                L::hiae_diffuse::<0, false>(&mut st.s, k0, k1)
            };
        if !ran {
            st.diffuse(k0, k1);
        }
        st
    }

    /// All blocks zero: a placeholder to be overwritten.
    #[inline(always)]
    pub(crate) fn zeroed() -> Self {
        State { s: [L::zero(); 16] }
    }

    /// Loads a state written by [`State::store_bytes`].
    #[inline(always)]
    pub(crate) fn load_bytes(bytes: &[u8; STATE_BYTES]) -> Self {
        let mut s = [L::zero(); 16];
        for (i, b) in s.iter_mut().enumerate() {
            *b = L::load(&bytes[i * Self::BLOCK..]);
        }
        State { s }
    }

    /// Serializes the state (block `i` at bytes `i·BLOCK ..`; the rest stays untouched).
    #[inline(always)]
    pub(crate) fn store_bytes(&self, bytes: &mut [u8; STATE_BYTES]) {
        for (i, b) in self.s.iter().enumerate() {
            b.store(&mut bytes[i * Self::BLOCK..]);
        }
    }

    /// The state whose block `i` is [`Lanes::shift_blocks`]`(a[i], b[i], n)`: the last `n`
    /// lanes of `a`, then the first `LANES - n` of `b`.
    #[inline(always)]
    pub(crate) fn shift_lanes(a: &Self, b: &Self, n: usize) -> Self {
        let mut s = a.s;
        for (x, y) in s.iter_mut().zip(b.s.iter()) {
            *x = L::shift_blocks(*x, *y, n);
        }
        State { s }
    }

    /// `Update(x)` at rotation offset `I` (no rotation).
    #[inline(always)]
    fn update_at<const I: usize>(&mut self, x: L) {
        self.update_idx(I, x, false);
    }

    /// `Update(x)` at rotation offset `i < 16`: with a constant `i` (the unrolled loops) the
    /// block indices fold to constants. `xors_first` writes the `S3` and `S13` XORs before the
    /// two rounds instead of after them (see [`Self::ABSORB_XORS_FIRST`]); the result is the
    /// same, as neither round reads those blocks' new values.
    #[inline(always)]
    fn update_idx(&mut self, i: usize, x: L, xors_first: bool) {
        self.update_with(i, x, xors_first, [true, true]);
    }

    /// [`update_idx`](Self::update_idx) with only the `S3` / `S13` XORs that `xors` selects
    /// (`[S3, S13]`): the form of [`Self::diffuse`], which leaves out the pairs of XORs that
    /// cancel.
    #[inline(always)]
    fn update_with(&mut self, i: usize, x: L, xors_first: bool, xors: [bool; 2]) {
        /// The selected `S3` and `S13` XORs of the update at offset `i`.
        #[inline(always)]
        fn apply<L: Lanes>(s: &mut [L; 16], i: usize, s13: L, x: L, xors: [bool; 2]) {
            if xors[0] {
                s[(i + 3) % 16] = s[(i + 3) % 16].xor(x);
            }
            if xors[1] {
                s[(i + 13) % 16] = s13.xor(x);
            }
        }
        let s = &mut self.s;
        let s13 = s[(i + 13) % 16];
        if xors_first {
            apply(s, i, s13, x, xors);
        }
        let t = s[i].xor(s[(i + 1) % 16]).aes_round(x);
        s[i] = s13.aes_round(t);
        if !xors_first {
            apply(s, i, s13, x, xors);
        }
    }

    /// `K` consecutive updates (`Update`, `UpdateEnc` or `UpdateDec`, as `step` says) at
    /// rotation offsets `i, i + 1, …` (`K` = 1 or 2, `R = 2 K`), with all their AES rounds in
    /// one [`Lanes::aes_rounds`] call; returns the ciphertext or plaintext blocks (`x` for
    /// `Update`). The rolled loops' form ([`Self::UNROLL`]): the portable lanes evaluate four
    /// blocks per bitsliced round, so two updates cost about what one did.
    ///
    /// The rounds are independent: within an update, `AESL(S13)` does not wait for
    /// `AESL(S0 ^ S1)` (the result is only XORed in afterwards), and update `i + 1` reads
    /// `S(i+1)`, `S(i+2)`, `S(i+14)` and `S(i+10)`, none of which update `i` writes
    /// (`S(i)`, `S(i+3)`, `S(i+13)`).
    #[inline(always)]
    fn steps<const K: usize, const R: usize>(&mut self, i: usize, step: Step, x: [L; K]) -> [L; K] {
        const { assert!(R == 2 * K && K <= 2) };
        let s = &mut self.s;
        let (mut input, mut key) = ([L::zero(); R], [L::zero(); R]);
        for j in 0..K {
            let o = (i + j) % 16;
            input[j] = s[o].xor(s[(o + 1) % 16]);
            input[K + j] = s[(o + 13) % 16];
            // Encryption and absorption: `t = AESL(S0 ^ S1) ^ x`, then `AESL(S13) ^ t`.
            // Decryption: both rounds take `t = c ^ S9`.
            key[j] = match step {
                Step::Dec => x[j].xor(s[(o + 9) % 16]),
                Step::Absorb | Step::Enc => x[j],
            };
            key[K + j] = match step {
                Step::Dec => key[j],
                Step::Absorb | Step::Enc => L::zero(),
            };
        }
        let r = L::aes_rounds(input, key);
        let mut out = x;
        for j in 0..K {
            let o = (i + j) % 16;
            let (m, s0) = match step {
                Step::Dec => (r[j], r[K + j]),
                Step::Absorb | Step::Enc => (x[j], r[K + j].xor(r[j])),
            };
            out[j] = match step {
                Step::Absorb => x[j],
                Step::Enc => r[j].xor(s[(o + 9) % 16]),
                Step::Dec => m,
            };
            s[o] = s0;
            s[(o + 3) % 16] = s[(o + 3) % 16].xor(m);
            s[(o + 13) % 16] = s[(o + 13) % 16].xor(m);
        }
        out
    }

    /// `Update(x)` at rotation offset `I` in the deferred form ([`Self::DEFERRED`]): the
    /// `S13 ^= x` waits in `p[I+13]` and is folded into that block with its `S3` input ten
    /// updates later, as one three-way XOR; until then a reader of the block must XOR `p` in.
    /// Returns `t = AESL(S0 ^ S1) ^ x`. Blocks 3..=12 carry a pending value between chunks:
    /// [`Self::fold_pending`] settles them.
    #[inline(always)]
    fn update_deferred_at<const I: usize>(&mut self, p: &mut [L; 16], x: L) -> L {
        let s = &mut self.s;
        let t = s[I].xor(s[(I + 1) % 16]).aes_round(x);
        s[(I + 3) % 16] = s[(I + 3) % 16].xor3(p[(I + 3) % 16], x);
        p[(I + 13) % 16] = x;
        s[I] = s[(I + 13) % 16].aes_round(t);
        t
    }

    /// `UpdateEnc(m)` at rotation offset `I` in the deferred form
    /// ([`update_deferred_at`](Self::update_deferred_at)); returns the ciphertext block. The
    /// `S9` read takes the block's pending value as a third XOR input. (The update leaves
    /// `S9` and `p[9]` as they were, so reading them after it is the same as before.)
    #[inline(always)]
    fn enc_deferred_at<const I: usize>(&mut self, p: &mut [L; 16], m: L) -> L {
        let t = self.update_deferred_at::<I>(p, m);
        t.xor3(self.s[(I + 9) % 16], p[(I + 9) % 16])
    }

    /// Folds the values still pending after the last chunk of a deferred loop.
    #[inline(always)]
    fn fold_pending(&mut self, p: &[L; 16]) {
        for (b, q) in self.s[3..=12].iter_mut().zip(&p[3..=12]) {
            *b = b.xor(*q);
        }
    }

    /// `UpdateEnc(m)` at rotation offset `I`; returns the ciphertext block.
    #[inline(always)]
    fn enc_at<const I: usize>(&mut self, m: L) -> L {
        self.enc_idx(I, m)
    }

    /// `UpdateEnc(m)` at rotation offset `i < 16`.
    #[inline(always)]
    fn enc_idx(&mut self, i: usize, m: L) -> L {
        let s = &mut self.s;
        let t = s[i].xor(s[(i + 1) % 16]).aes_round(m);
        let c = t.xor(s[(i + 9) % 16]);
        let s13 = s[(i + 13) % 16];
        s[i] = s13.aes_round(t);
        s[(i + 3) % 16] = s[(i + 3) % 16].xor(m);
        s[(i + 13) % 16] = s13.xor(m);
        c
    }

    /// `UpdateDec(c)` at rotation offset `I`; returns the plaintext block.
    #[inline(always)]
    fn dec_at<const I: usize>(&mut self, c: L) -> L {
        self.dec_idx(I, c)
    }

    /// `UpdateDec(c)` at rotation offset `i < 16`.
    #[inline(always)]
    fn dec_idx(&mut self, i: usize, c: L) -> L {
        let s = &mut self.s;
        let t = c.xor(s[(i + 9) % 16]);
        let m = s[i].xor(s[(i + 1) % 16]).aes_round(t);
        let s13 = s[(i + 13) % 16];
        s[i] = s13.aes_round(t);
        s[(i + 3) % 16] = s[(i + 3) % 16].xor(m);
        s[(i + 13) % 16] = s13.xor(m);
        m
    }

    /// Rotates the block array left by `R` (`new S_i = old S_{i+R}`): with a constant `R`
    /// this is only a renaming of registers.
    #[inline(always)]
    fn rotate_by<const R: usize>(&mut self) {
        let s = self.s;
        for (i, b) in self.s.iter_mut().enumerate() {
            *b = s[(i + R) % 16];
        }
    }

    /// Rotates the block array left by one.
    #[inline(always)]
    fn rotate1(&mut self) {
        self.rotate_by::<1>();
    }

    /// Rotates the block array left by `n < 16` after the rolled loops' `n` updates at
    /// offsets `0..n` (the unrolled tails rotate by a constant, see
    /// [`crypt_tail`](Self::crypt_tail)).
    #[inline(always)]
    fn rotate(&mut self, n: usize) {
        debug_assert!(n < 16);
        self.s.rotate_left(n);
    }

    /// One `Update(x)` with rotation.
    #[inline(always)]
    pub(crate) fn update(&mut self, x: L) {
        if !Self::UNROLL {
            self.steps::<1, 2>(0, Step::Absorb, [x]);
        } else {
            self.update_at::<0>(x);
        }
        self.rotate1();
    }

    /// `Diffuse(x0, x1)`: sixteen times `Update(x0); Update(x1)`.
    ///
    /// Unrolled, it leaves out 22 of the 32 `S3` XORs and 22 of the 32 `S13` XORs: the block
    /// that update `k` XORs into its `S13` word is XORed into the same word again by update
    /// `k + 10` (its `S3` then; `k` and `k + 10` take the same `x`), and no update in between
    /// reads that word (an update reads `S0`, `S1` and `S13`; the word goes from position 12
    /// to 4 meanwhile). So both XORs are left out where both fall inside the 32 updates
    /// (`k < 22`); the `S3` XORs of updates 0–9 (their pairs came before) and the `S13` XORs of
    /// updates 22–31 (their pairs come after) stay. The state is the same as with every XOR.
    #[inline(always)]
    pub(crate) fn diffuse(&mut self, x0: L, x1: L) {
        self.diffuse_keeping(x0, x1, true);
    }

    /// `Diffuse(t, t)` for a caller that takes only the block sum afterwards
    /// ([`Self::block_sum`]): as [`diffuse`](Self::diffuse), and the `S13` XORs of updates
    /// 22–31 are left out too. Each would put `t` into one block of the sum, ten times in all,
    /// so the sum is unchanged (the blocks themselves are not: the state is not for use).
    #[inline(always)]
    fn diffuse_for_sum(&mut self, t: L) {
        self.diffuse_keeping(t, t, false);
    }

    /// `Diffuse(t, t)` at rotation offset `OFF` (the state of `OFF` updates without rotation,
    /// as [`block_sum_from`](Self::block_sum_from) takes it), then the block sum; the state is
    /// not for use afterwards ([`diffuse_for_sum`](Self::diffuse_for_sum)).
    #[inline(always)]
    fn diffuse_sum<const OFF: usize>(&mut self, t: L, asm: bool) -> L {
        if asm && L::hiae_diffuse::<OFF, true>(&mut self.s, t, t) {
            return self.s[OFF % 16];
        }
        if OFF == 0 {
            self.diffuse_for_sum(t);
        } else {
            self.diffuse_at(OFF, t, t, false);
        }
        self.block_sum_from(OFF)
    }

    /// [`diffuse`](Self::diffuse); `keep` false leaves out the `S13` XORs of updates 22–31
    /// (for `x0 = x1` followed by the block sum only, [`diffuse_for_sum`](Self::diffuse_for_sum)).
    #[inline(always)]
    fn diffuse_keeping(&mut self, x0: L, x1: L, keep: bool) {
        if !Self::UNROLL {
            // 32 updates at offsets 0..16, twice: back in canonical order.
            for i in (0..32).step_by(2) {
                self.steps::<2, 4>(i % 16, Step::Absorb, [x0, x1]);
            }
            return;
        }
        // By parts only for four single-lane registers (AES-NI, Arm), whose interleaved
        // states spill. Two `ymm` (VAES-AVX2) stay interleaved: by parts, the two dependency
        // chains would run one after the other instead of hiding each other's latency.
        if Self::SPLIT && L::PARTS > 2 {
            by_parts!(self, |p, I| {
                p.diffuse_at(0, x0.part(I), x1.part(I), keep);
            });
        } else {
            self.diffuse_at(0, x0, x1, keep);
        }
    }

    /// The 32 unrolled updates of [`diffuse_keeping`](Self::diffuse_keeping) on all lanes at
    /// once, update `k` at rotation offset `(off + k) mod 16`, with the XORs that do not
    /// cancel. Rotation-free: from `off = 0` the array is back in canonical order after the 32
    /// updates. (A rolled loop with a real rotation per update is the same code when the state
    /// fits in registers, but for states that do not — `Wide` lanes on AES-NI — every rotation
    /// moves the whole array through memory.)
    #[inline(always)]
    fn diffuse_at(&mut self, off: usize, x0: L, x1: L, keep: bool) {
        /// The `[S3, S13]` XORs that update `k` of the 32 does.
        #[inline(always)]
        fn xors_of(k: usize, keep: bool) -> [bool; 2] {
            [k < 10, keep && k >= 22]
        }
        unroll16!(I => {
            let x = if I.is_multiple_of(2) { x0 } else { x1 };
            self.update_with((off + I) % 16, x, false, xors_of(I, keep));
        });
        unroll16!(I => {
            let x = if I.is_multiple_of(2) { x0 } else { x1 };
            self.update_with((off + I) % 16, x, false, xors_of(16 + I, keep));
        });
    }

    /// The keystream of the next update: `AESL(S0 ^ S1) ^ S9` (state unchanged).
    #[inline(always)]
    pub(crate) fn keystream(&self) -> L {
        self.s[0].xor(self.s[1]).aes_round(self.s[9])
    }

    /// Absorbs `data` (a multiple of [`Self::BLOCK`] bytes) with `Update`. `MAC`: the caller
    /// is a kernel that absorbs MAC input (the one-shot MAC, and the general kernel, which also
    /// absorbs the streamed associated data), whose loop may take the order of
    /// [`Self::ABSORB_XORS_FIRST`].
    #[inline(always)]
    pub(crate) fn absorb_blocks<const MAC: bool>(&mut self, data: &[u8]) {
        self.absorb_aligned::<MAC>(data);
    }

    /// [`absorb_blocks`](Self::absorb_blocks) with the lanes in the order they are: whole
    /// chunks (part by part where [`Self::SPLIT`]), then the remaining blocks.
    #[inline(always)]
    pub(crate) fn absorb_run<const MAC: bool>(&mut self, data: &[u8]) {
        debug_assert_eq!(data.len() % Self::BLOCK, 0);
        if !Self::UNROLL {
            self.absorb_rolled(data);
            return;
        }
        let (bulk, rest) = data.split_at(data.len() - data.len() % Self::CHUNK);
        self.absorb_bulk::<MAC>(bulk);
        self.absorb_short(rest, TAIL_MAX);
    }

    /// Absorbs whole chunks: part by part over pieces where [`Self::SPLIT`], else all lanes
    /// at once (`MAC` as in [`absorb_blocks`](Self::absorb_blocks)).
    #[inline(always)]
    fn absorb_bulk<const MAC: bool>(&mut self, bulk: &[u8]) {
        if Self::SPLIT {
            for piece in bulk.chunks(Self::PIECE) {
                by_parts!(self, |p, I| {
                    p.absorb_chunks::<MAC>(piece, I, L::PARTS);
                });
            }
        } else {
            self.absorb_chunks::<MAC>(bulk, 0, 1);
        }
    }

    /// [`absorb_blocks`](Self::absorb_blocks) for at most `max < 16` blocks: no chunk loop,
    /// `max` updates unrolled (`max` is a constant after inlining).
    #[inline(always)]
    pub(crate) fn absorb_short(&mut self, data: &[u8], max: usize) {
        debug_assert!(data.len().is_multiple_of(Self::BLOCK) && data.len() <= max * Self::BLOCK);
        // Nothing to do (a whole number of chunks) must not take the parts out and put them
        // back.
        if data.is_empty() {
            return;
        }
        if !Self::UNROLL {
            self.absorb_rolled(data);
        } else if Self::SPLIT {
            by_parts!(self, |p, I| {
                p.absorb_tail(data, I, L::PARTS, max);
            });
        } else {
            self.absorb_tail(data, 0, 1, max);
        }
    }

    /// Absorbs the last, partial block of associated data or MAC input (`rest`, shorter than
    /// `parts × BLOCK`) zero-padded: part `h` of it where this state is part `h` of a wider one
    /// ([`absorb_part_padded`](Self::absorb_part_padded)), else `h = 0` and `parts = 1`.
    /// Nothing if `rest` is empty. The partial bytes go through general-purpose registers
    /// ([`read_words`]).
    #[inline(always)]
    pub(crate) fn absorb_last(&mut self, rest: &[u8], h: usize, parts: usize) {
        debug_assert!(rest.len() < parts * Self::BLOCK && rest.len() < 16 * MAX_LANES);
        if rest.is_empty() {
            return;
        }
        let b = Self::BLOCK;
        let mine = &rest[(h * b).min(rest.len())..((h + 1) * b).min(rest.len())];
        self.update(Self::load_padded(mine));
    }

    /// The first block of `bytes`, zero-padded where `bytes` is shorter than a block. The
    /// partial bytes go through general-purpose registers ([`read_words`]) where
    /// [`Self::TAIL_IN_WORDS`].
    #[inline(always)]
    fn load_padded(bytes: &[u8]) -> L {
        let b = Self::BLOCK;
        if bytes.len() >= b {
            L::load(bytes)
        } else if Self::TAIL_IN_WORDS {
            L::from_words(&read_words(bytes, b / 8))
        } else {
            let mut pad = [0u8; 16 * MAX_LANES];
            pad[..bytes.len()].copy_from_slice(bytes);
            L::load(&pad)
        }
    }

    /// Encrypts (`decrypt` false) or decrypts the final partial block `tail` (shorter than
    /// [`Self::BLOCK`]) with the keystream of the next update, then absorbs the zero-padded
    /// plaintext with `Update`. The bytes go through general-purpose registers
    /// ([`read_words`]), not through a buffer of single-byte stores that a vector load would
    /// then wait on.
    #[inline(always)]
    pub(crate) fn crypt_last(&mut self, tail: &mut InOutBuf<'_, '_, u8>, decrypt: bool) {
        let (n, k) = (tail.len(), Self::BLOCK / 8);
        debug_assert!(n > 0 && n < Self::BLOCK);
        if !Self::TAIL_IN_WORDS {
            let mut ks = [0u8; 16 * MAX_LANES];
            self.keystream().store(&mut ks);
            let mut pad = [0u8; 16 * MAX_LANES];
            for i in 0..n {
                let x = tail.get_in()[i];
                let y = x ^ ks[i];
                tail.get_out()[i] = y;
                pad[i] = if decrypt { y } else { x };
            }
            self.update(L::load(&pad));
            return;
        }
        let x = read_words(tail.get_in(), k);
        let ks = self.keystream().to_words();
        let mut y = [0u64; WORDS];
        for ((y, x), s) in y.iter_mut().zip(&x).zip(&ks).take(k) {
            *y = x ^ s;
        }
        keep_bytes(&mut y, n, k);
        write_words(tail.get_out(), &y, k);
        self.update(L::from_words(&select_words(decrypt, &y, &x)));
    }

    /// The rolled absorb loop ([`Self::UNROLL`] false).
    #[inline(always)]
    fn absorb_rolled(&mut self, data: &[u8]) {
        let mut o = 0;
        let pairs = data.chunks_exact(2 * Self::BLOCK);
        let last = pairs.remainder();
        for pair in pairs {
            let x = [L::load(pair), L::load(&pair[Self::BLOCK..])];
            self.steps::<2, 4>(o, Step::Absorb, x);
            o = (o + 2) % 16;
        }
        if !last.is_empty() {
            self.steps::<1, 2>(o, Step::Absorb, [L::load(last)]);
            o = (o + 1) % 16;
        }
        self.rotate(o);
    }

    /// Byte offset of block `i` of part `h` in data made of `parts`-register blocks (block `i`
    /// of the whole value is `parts × BLOCK` bytes at `i · parts · BLOCK`).
    #[inline(always)]
    fn at(i: usize, h: usize, parts: usize) -> usize {
        (i * parts + h) * Self::BLOCK
    }

    /// Absorbs the blocks after the last whole chunk (at most `max < 16`), part `h` of
    /// `parts`, then one rotation (as in [`crypt_tail`](Self::crypt_tail)).
    #[inline(always)]
    #[allow(clippy::needless_return)] // needed in every copy of the block but the last
    fn absorb_tail(&mut self, rest: &[u8], h: usize, parts: usize, max: usize) {
        let n = rest.len() / (parts * Self::BLOCK);
        debug_assert!(n > 0, "the callers skip empty tails");
        unroll16!(I => {
            if I < max {
                self.update_at::<I>(L::load(&rest[Self::at(I, h, parts)..]));
                if n == I + 1 {
                    self.rotate_by::<{ I + 1 }>();
                    return;
                }
            }
        });
    }

    /// Absorbs whole chunks of `data` (a multiple of `parts ×` [`Self::CHUNK`] bytes) in which
    /// this state owns part `h` of every `parts × BLOCK`-byte block (see [`Self::SPLIT`]);
    /// `MAC` as in [`absorb_blocks`](Self::absorb_blocks).
    #[inline(always)]
    fn absorb_chunks<const MAC: bool>(&mut self, data: &[u8], h: usize, parts: usize) {
        if L::HIAE_LOOPS {
            // The lane type's own loop (`Lanes::hiae_absorb_chunks`), as in `enc_chunks`.
            let done = L::hiae_absorb_chunks(&mut self.s, data, h, parts);
            debug_assert!(done);
            return;
        }
        let chunks = data.chunks_exact(parts * Self::CHUNK);
        if Self::DEFERRED && L::LANES == 1 {
            // Deferred form (`update_deferred_at`; one lane only: wider lanes spilled).
            let mut p = [L::zero(); 16];
            for chunk in chunks {
                let chunk = &chunk[..parts * Self::CHUNK];
                unroll16!(I => {
                    self.update_deferred_at::<I>(&mut p, L::load(&chunk[Self::at(I, h, parts)..]));
                });
            }
            self.fold_pending(&p);
        } else {
            for chunk in chunks {
                let chunk = &chunk[..parts * Self::CHUNK];
                unroll16!(I => {
                    let x = L::load(&chunk[Self::at(I, h, parts)..]);
                    self.update_idx(I, x, MAC && Self::ABSORB_XORS_FIRST);
                });
            }
        }
    }

    /// Encrypts `buf` (a multiple of [`Self::BLOCK`] bytes): plaintext from its input side,
    /// ciphertext to its output side (the same memory for in-place use).
    ///
    /// Each block is read from the input before its ciphertext is written, at the same
    /// offset, so this is correct whether or not the two sides are the same buffer, and the
    /// output is never read. No copy of the input is made first: a copy, and moving the state
    /// through memory around it, measured markedly slower.
    #[inline(always)]
    pub(crate) fn enc_blocks(&mut self, buf: InOutBuf<'_, '_, u8>) {
        self.crypt_aligned::<false>(buf);
    }

    /// Decrypts `buf` (a multiple of [`Self::BLOCK`] bytes), input side to output side as
    /// [`enc_blocks`](Self::enc_blocks).
    #[inline(always)]
    pub(crate) fn dec_blocks(&mut self, buf: InOutBuf<'_, '_, u8>) {
        self.crypt_aligned::<true>(buf);
    }

    /// [`enc_blocks`](Self::enc_blocks) (`DEC = false`) or [`dec_blocks`](Self::dec_blocks):
    /// whole chunks (part by part where [`Self::SPLIT`]), then the remaining blocks.
    #[inline(always)]
    pub(crate) fn crypt_blocks<const DEC: bool>(&mut self, buf: InOutBuf<'_, '_, u8>) {
        debug_assert_eq!(buf.len() % Self::BLOCK, 0);
        if !Self::UNROLL {
            self.crypt_rolled::<DEC>(buf);
            return;
        }
        let bulk_len = buf.len() - buf.len() % Self::CHUNK;
        let (bulk, tail) = buf.split_at(bulk_len);
        self.crypt_bulk::<DEC>(bulk);
        self.crypt_short::<DEC>(tail, TAIL_MAX);
    }

    /// Encrypts (`DEC = false`) or decrypts whole chunks: part by part over pieces where
    /// [`Self::SPLIT`], else all lanes at once.
    #[inline(always)]
    fn crypt_bulk<const DEC: bool>(&mut self, mut bulk: InOutBuf<'_, '_, u8>) {
        if Self::SPLIT {
            let in_place = bulk.get_in().as_ptr() == bulk.get_out().as_ptr();
            let piece = if in_place {
                Self::PIECE
            } else {
                SPLIT_PIECE_APART * Self::CHUNK
            };
            while !bulk.is_empty() {
                let n = bulk.len().min(piece);
                let (mut piece, rest) = bulk.split_at(n);
                bulk = rest;
                by_parts!(self, |p, I| {
                    p.crypt_chunks::<DEC>(piece.reborrow(), I, L::PARTS);
                });
            }
        } else {
            self.crypt_chunks::<DEC>(bulk, 0, 1);
        }
    }

    /// [`crypt_blocks`](Self::crypt_blocks) for at most `max < 16` blocks: no chunk loop,
    /// `max` updates unrolled (`max` is a constant after inlining).
    #[inline(always)]
    pub(crate) fn crypt_short<const DEC: bool>(
        &mut self,
        mut buf: InOutBuf<'_, '_, u8>,
        max: usize,
    ) {
        debug_assert!(buf.len().is_multiple_of(Self::BLOCK) && buf.len() <= max * Self::BLOCK);
        if buf.is_empty() {
            return;
        }
        if !Self::UNROLL {
            self.crypt_rolled::<DEC>(buf);
        } else if Self::SPLIT {
            by_parts!(self, |p, I| {
                p.crypt_tail::<DEC>(buf.reborrow(), I, L::PARTS, max);
            });
        } else {
            self.crypt_tail::<DEC>(buf, 0, 1, max);
        }
    }

    /// Absorbs part `h` of every `parts × BLOCK`-byte block of `data`, the last one
    /// zero-padded: the part's own share of a wider instance's associated data or MAC input
    /// ([`PART_BY_PART`](Self::PART_BY_PART)).
    #[inline(always)]
    pub(crate) fn absorb_part_padded(&mut self, data: &[u8], h: usize, parts: usize) {
        debug_assert!(Self::UNROLL);
        let full = data.len() - data.len() % (parts * Self::BLOCK);
        let (blocks, rest) = data.split_at(full);
        let (bulk, tail) = blocks.split_at(full - full % (parts * Self::CHUNK));
        if !bulk.is_empty() {
            self.absorb_chunks::<false>(bulk, h, parts);
        }
        if !tail.is_empty() {
            self.absorb_tail(tail, h, parts, TAIL_MAX);
        }
        self.absorb_last(rest, h, parts);
    }

    /// Encrypts (`DEC = false`) or decrypts part `h` of every `parts × BLOCK`-byte block of
    /// `buf` (a multiple of that size), as [`absorb_part_padded`](Self::absorb_part_padded).
    #[inline(always)]
    pub(crate) fn crypt_part<const DEC: bool>(
        &mut self,
        buf: InOutBuf<'_, '_, u8>,
        h: usize,
        parts: usize,
    ) {
        debug_assert!(Self::UNROLL && buf.len().is_multiple_of(parts * Self::BLOCK));
        let bulk_len = buf.len() - buf.len() % (parts * Self::CHUNK);
        let (bulk, tail) = buf.split_at(bulk_len);
        if !bulk.is_empty() {
            self.crypt_chunks::<DEC>(bulk, h, parts);
        }
        if !tail.is_empty() {
            self.crypt_tail::<DEC>(tail, h, parts, TAIL_MAX);
        }
    }

    /// The rolled encryption or decryption loop ([`Self::UNROLL`] false).
    #[inline(always)]
    fn crypt_rolled<const DEC: bool>(&mut self, mut buf: InOutBuf<'_, '_, u8>) {
        let step = if DEC { Step::Dec } else { Step::Enc };
        let (b, mut o) = (Self::BLOCK, 0);
        let mut i = 0;
        while i + 2 * b <= buf.len() {
            let x = [L::load(&buf.get_in()[i..]), L::load(&buf.get_in()[i + b..])];
            let y = self.steps::<2, 4>(o, step, x);
            y[0].store(&mut buf.get_out()[i..]);
            y[1].store(&mut buf.get_out()[i + b..]);
            o = (o + 2) % 16;
            i += 2 * b;
        }
        if i < buf.len() {
            let y = self.steps::<1, 2>(o, step, [L::load(&buf.get_in()[i..])]);
            y[0].store(&mut buf.get_out()[i..]);
            o = (o + 1) % 16;
        }
        self.rotate(o);
    }

    /// Encrypts or decrypts whole chunks of `buf` (a multiple of `parts ×` [`Self::CHUNK`]
    /// bytes) in which this state owns part `h` of every `parts × BLOCK`-byte block.
    #[inline(always)]
    fn crypt_chunks<const DEC: bool>(&mut self, buf: InOutBuf<'_, '_, u8>, h: usize, parts: usize) {
        if DEC {
            self.dec_chunks(buf, h, parts);
        } else {
            self.enc_chunks(buf, h, parts);
        }
    }

    /// The encryption loop of [`crypt_chunks`](Self::crypt_chunks).
    #[inline(always)]
    fn enc_chunks(&mut self, mut buf: InOutBuf<'_, '_, u8>, h: usize, parts: usize) {
        if L::HIAE_LOOPS {
            // The lane type's own loop, scheduled for its sixteen registers
            // (`Lanes::hiae_encrypt_chunks`); its output stores are not realigned.
            let done = L::hiae_encrypt_chunks(&mut self.s, buf, h, parts);
            debug_assert!(done);
            return;
        }
        let shift = Self::shift_for(&mut buf, parts, REALIGN_MIN);
        if shift != 0 {
            self.enc_chunks_shifted(buf, shift);
            return;
        }
        let size = parts * Self::CHUNK;
        if Self::DEFERRED {
            // Deferred form (`enc_deferred_at`): five vector operations per update instead
            // of six.
            let mut p = [L::zero(); 16];
            while buf.len() >= size {
                let (mut chunk, rest) = buf.split_at(size);
                buf = rest;
                unroll16!(I => {
                    let m = L::load(&chunk.get_in()[Self::at(I, h, parts)..]);
                    let c = self.enc_deferred_at::<I>(&mut p, m);
                    c.store(&mut chunk.get_out()[Self::at(I, h, parts)..]);
                });
            }
            self.fold_pending(&p);
            return;
        }
        while buf.len() >= size {
            // A chunk of known length: the offsets below need no bounds checks.
            let (mut chunk, rest) = buf.split_at(size);
            buf = rest;
            // Loads in groups of `enc_loads`, stores after each update or with the group.
            let g = Self::enc_loads(parts);
            let mut m = [L::zero(); 2];
            let mut c = [L::zero(); 2];
            unroll16!(I => {
                if I.is_multiple_of(g) {
                    for (j, x) in m[..g].iter_mut().enumerate() {
                        *x = L::load(&chunk.get_in()[Self::at(I + j, h, parts)..]);
                    }
                }
                c[I % g] = self.enc_at::<I>(m[I % g]);
                if Self::ENC_STORE_EACH {
                    c[I % g].store(&mut chunk.get_out()[Self::at(I, h, parts)..]);
                } else if I % g == g - 1 {
                    for (j, x) in c[..g].iter().enumerate() {
                        x.store(&mut chunk.get_out()[Self::at(I + 1 - g + j, h, parts)..]);
                    }
                }
            });
        }
    }

    /// [`enc_chunks`](Self::enc_chunks) with the output realigned by `shift` blocks
    /// ([`Realign`]; `parts` is 1): one block per update, each stored after its update.
    #[inline(always)]
    fn enc_chunks_shifted(&mut self, mut buf: InOutBuf<'_, '_, u8>, shift: usize) {
        let (size, len) = (Self::CHUNK, buf.len());
        let mut out = Realign::new(shift);
        let mut p = [L::zero(); 16];
        let mut pos = 0;
        if len >= size {
            self.enc_chunk_shifted::<true>(&mut buf, pos, &mut out, &mut p);
            pos = size;
        }
        while pos + size <= len {
            self.enc_chunk_shifted::<false>(&mut buf, pos, &mut out, &mut p);
            pos += size;
        }
        if Self::DEFERRED {
            self.fold_pending(&p);
        }
        out.finish(buf.get_out(), pos);
    }

    /// One chunk of [`enc_chunks_shifted`](Self::enc_chunks_shifted), at byte `pos`, the
    /// first one (`FIRST`) or a later one.
    #[inline(always)]
    fn enc_chunk_shifted<const FIRST: bool>(
        &mut self,
        buf: &mut InOutBuf<'_, '_, u8>,
        pos: usize,
        out: &mut Realign<L>,
        p: &mut [L; 16],
    ) {
        let size = Self::CHUNK;
        let w = out.window::<FIRST>(pos);
        unroll16!(I => {
            let m = L::load(&buf.get_in()[pos..pos + size][I * Self::BLOCK..]);
            let c = if Self::DEFERRED {
                self.enc_deferred_at::<I>(p, m)
            } else {
                self.enc_at::<I>(m)
            };
            out.put::<FIRST>(&mut buf.get_out()[w..w + size], I * Self::BLOCK, c);
        });
    }

    /// How many blocks the encryption loop shifts its output stores by ([`Realign`]): where
    /// the lane type realigns ([`Lanes::REALIGN_STORES`]: two lanes in a 256-bit register),
    /// the output address is a multiple of 16 but not of the register's width (`BYTES`), the
    /// loop writes whole registers (`parts` 1, a one-part lane type) and goes over at least
    /// `min` bytes ([`REALIGN_MIN`] for encryption); 0 (no shift) otherwise. Below
    /// `REALIGN_MIN` the stores crossing cache lines cost less than the realigned loop's start
    /// (HiAEx2 on AMD Zen 4, 16 bytes past a 32-byte boundary: 1 KiB in 64 instead of 57 ns,
    /// 8 KiB in 212 instead of 237).
    /// The decryption loop, realigned so, gained less (64 KiB: 1817 instead of 2046 ns) and
    /// its parked form spilled more with a realigned loop beside it in the same kernel; it
    /// realigns within each chunk instead ([`pieces_for`](Self::pieces_for)).
    #[inline(always)]
    fn shift_for(buf: &mut InOutBuf<'_, '_, u8>, parts: usize, min: usize) -> usize {
        if !(Self::UNROLL && L::REALIGN_STORES && L::PARTS == 1) || parts != 1 {
            return 0;
        }
        if buf.len() < min {
            return 0;
        }
        let addr = buf.get_out().as_ptr() as usize;
        if !addr.is_multiple_of(16) {
            return 0;
        }
        (addr % L::BYTES) / 16
    }

    /// The decryption loop of [`crypt_chunks`](Self::crypt_chunks).
    #[inline(always)]
    fn dec_chunks(&mut self, mut buf: InOutBuf<'_, '_, u8>, h: usize, parts: usize) {
        // Parking (`DEC_PARK`) costs a copy of the state in and out of memory around the
        // loop. A part of a wider state (`parts > 1`) that goes over a single chunk pays that
        // copy for sixteen updates only, and runs the plain form instead.
        if Self::DEC_PARK && (parts == 1 || buf.len() >= 2 * parts * Self::CHUNK) {
            match Self::pieces_for(&mut buf, parts) {
                0 => self.dec_chunks_in::<true, 0>(buf, h, parts),
                1 => self.dec_chunks_in::<true, 1>(buf, h, parts),
                _ => self.dec_chunks_in::<true, 2>(buf, h, parts),
            }
        } else {
            self.dec_chunks_in::<false, 0>(buf, h, parts);
        }
    }

    /// Whether and how the decryption loop realigns its stores within each chunk: 0 not, else
    /// 1 when the chunk's first value would cross a cache line (the output 48 bytes past a
    /// 64-byte boundary), 2 when its last one would (16 bytes past). Where the encryption loop
    /// would shift a 256-bit output by a block ([`shift_for`](Self::shift_for), from
    /// [`DEC_PIECES_MIN`] bytes), the output is 16 bytes past a 32-byte boundary and every
    /// other value sits across a line. The loop then stores update `i`'s value with the last
    /// block of update `i - 1`'s ([`Lanes::shift_blocks`]) 16 bytes before its place, so that
    /// no store crosses a line, and the chunk's first and last values whole as well (the one
    /// that would cross a line in 16-byte pieces, [`Lanes::store_pieces`]): 17 or 18 stores
    /// per 512 bytes, where the pieces of every crossing value took 24, and the stores per
    /// line were what the loop waited on. (The shifts across chunks of [`Realign`] made the
    /// decryption kernel spill more.)
    #[inline(always)]
    fn pieces_for(buf: &mut InOutBuf<'_, '_, u8>, parts: usize) -> usize {
        if L::BYTES != 32 || Self::shift_for(buf, parts, DEC_PIECES_MIN) == 0 {
            return 0;
        }
        // 16 or 48 bytes past a 64-byte boundary: the even or the odd values cross.
        if buf.get_out().as_ptr() as usize % 64 == 48 {
            1
        } else {
            2
        }
    }

    /// [`dec_chunks`](Self::dec_chunks) with the state words parked in memory (`PARK`) or
    /// not.
    #[inline(always)]
    fn dec_chunks_in<const PARK: bool, const PIECES: usize>(
        &mut self,
        mut buf: InOutBuf<'_, '_, u8>,
        h: usize,
        parts: usize,
    ) {
        let size = parts * Self::CHUNK;
        let len = buf.len();
        // Decryption is latency-bound: the plaintext `m` of update i is XORed into `S3`, which
        // is the `S1` of update i+2, whose `AESL(S0 ^ S1)` gives the next plaintext. Written
        // plainly that chain is xor, xor, aesenc per two updates. Here the `S3 ^= m` is held
        // back (`win`: the plaintexts of the last three updates) and update i+2 computes
        // `(S0 ^ S1) ^ m`, so only one XOR sits between two AES rounds of the chain; the
        // held-back XOR is applied off the chain.
        //
        // Where the AES instruction XORs its key in first (`AES_XOR_FIRST`, Arm), that
        // `(S0 ^ S1) ^ m` costs no XOR: `m` of update i-2 is the key of `aese`. There the `S1`
        // word does not take its held-back XOR at all: it is the `S0` of the next update and
        // then replaced, so update i+1 XORs the same `m` into its `S0 ^ S1` instead (after the
        // two words, `xor_late`): that plaintext reaches the AES round through one XOR, not two.
        //
        // `PARK`: the words wait in memory from their `S9` read until they are the `S1`
        // (eight at a time), and are read from there as the `S1` and the `S0`, each with its
        // held-back XOR (`xor_late` keeps `m` last: LLVM put a value loaded just before last
        // otherwise). `black_box` keeps LLVM from promoting them back to registers.
        let mut win = [L::zero(); 3];
        let mut parked_words = self.s;
        let park = PARK && len >= size;
        let parked = if park {
            core::hint::black_box(&mut parked_words)
        } else {
            &mut parked_words
        };
        // `PARK`: what update `i + 1` reads from memory (its ciphertext block, and its `S0`
        // and `S1` from `parked`) is read before update `i` stores its plaintext.
        let mut ahead = [L::zero(); 3];
        while buf.len() >= size {
            let (mut chunk, rest) = buf.split_at(size);
            buf = rest;
            unroll16!(I => {
                let s = &mut self.s;
                let [t, a, b] = if PARK && I != 0 {
                    ahead
                } else {
                    let c = L::load(&chunk.get_in()[Self::at(I, h, parts)..]);
                    [c.xor(s[(I + 9) % 16]), parked[I].xor(win[0]), parked[(I + 1) % 16]]
                };
                let m = if PARK {
                    let x = a.xor_late(b, win[1]);
                    parked[(I + 9) % 16] = s[(I + 9) % 16];
                    x.aes_round(t)
                } else if L::AES_XOR_FIRST {
                    s[I].xor_late(s[(I + 1) % 16], win[0]).aesl_xor(win[1]).xor(t)
                } else {
                    let m = s[I].xor(s[(I + 1) % 16]).xor(win[1]).aes_round(t);
                    s[(I + 1) % 16] = s[(I + 1) % 16].xor(win[1]);
                    m
                };
                let s13 = s[(I + 13) % 16];
                s[I] = s13.aes_round(t);
                s[(I + 13) % 16] = s13.xor(m);
                win = [win[1], win[2], m];
                if PARK && I < 15 {
                    const J: usize = (I + 1) % 16;
                    let c = L::load(&chunk.get_in()[Self::at(J, h, parts)..]);
                    ahead = [c.xor(s[(J + 9) % 16]), parked[J].xor(win[0]), parked[(J + 1) % 16]];
                }
                if PIECES != 0 {
                    // Realigned within the chunk (`pieces_for`); `win[1]` is update i-1's value.
                    let out = chunk.get_out();
                    if I == 0 {
                        if PIECES == 1 { m.store_pieces(out) } else { m.store(out) }
                    } else {
                        let at = I * Self::BLOCK - 16;
                        L::shift_blocks(win[1], m, 1).store(&mut out[at..]);
                    }
                    if I == 15 {
                        let out = &mut out[I * Self::BLOCK..];
                        if PIECES == 2 { m.store_pieces(out) } else { m.store(out) }
                    }
                } else {
                    m.store(&mut chunk.get_out()[Self::at(I, h, parts)..]);
                }
            });
        }
        if park {
            // Words 0 to 8 are parked.
            self.s[..9].copy_from_slice(&parked[..9]);
        }
        if park || (!PARK && L::AES_XOR_FIRST) {
            // Word 0 still lacks the plaintext of update 13 (parked, or the Arm form above).
            self.s[0] = self.s[0].xor(win[0]);
        }
        // Updates 14 and 15 of the last chunk held back their `S3` XORs (words 1 and 2).
        self.s[1] = self.s[1].xor(win[1]);
        self.s[2] = self.s[2].xor(win[2]);
    }

    /// Part `i` of every block ([`Lanes::part`]), as a state of [`Lanes::Part`] lanes.
    #[inline(always)]
    fn part_state(&self, i: usize) -> State<L::Part> {
        let mut s = [L::Part::zero(); 16];
        for (d, b) in s.iter_mut().zip(&self.s) {
            *d = b.part(i);
        }
        State { s }
    }

    /// Puts back what [`part_state`](Self::part_state) took out.
    #[inline(always)]
    fn set_part_state(&mut self, i: usize, part: &State<L::Part>) {
        for (b, x) in self.s.iter_mut().zip(&part.s) {
            b.set_part(i, *x);
        }
    }

    /// The blocks after the last full chunk (at most `max < 16`; part `h` of `parts`),
    /// encrypted (`DEC = false`) or decrypted at the unrolled offsets, then one rotation: a
    /// rotation per block would move the whole state each time. The rotation by the constant
    /// `n` is made right after block `n - 1`, and the function returns there: deciding after
    /// the sixteen guarded blocks, LLVM kept a flag per block and re-tested them all (a tenth
    /// of HiAEx4's instructions at 64 bytes on AES-NI).
    #[inline(always)]
    #[allow(clippy::needless_return)] // needed in every copy of the block but the last
    fn crypt_tail<const DEC: bool>(
        &mut self,
        mut buf: InOutBuf<'_, '_, u8>,
        h: usize,
        parts: usize,
        max: usize,
    ) {
        let n = buf.len() / (parts * Self::BLOCK);
        debug_assert!(n > 0, "the callers skip empty tails");
        unroll16!(I => {
            if I < max {
                let at = Self::at(I, h, parts);
                let x = L::load(&buf.get_in()[at..]);
                let y = if DEC { self.dec_at::<I>(x) } else { self.enc_at::<I>(x) };
                y.store(&mut buf.get_out()[at..]);
                if n == I + 1 {
                    self.rotate_by::<{ I + 1 }>();
                    return;
                }
            }
        });
    }

    /// XOR of the sixteen blocks (per lane), taken after a `Diffuse`.
    #[inline(always)]
    fn block_sum(&self) -> L {
        self.block_sum_from(0)
    }

    /// [`block_sum`](Self::block_sum) of a state whose last update was at offset `off - 1`
    /// (mod 16) and that was not rotated: logical block `j` is `s[(j + off) % 16]`. Blocks
    /// 15, 14, 13 are the last three results of the `AESL` chain (12 and 11 got its `S13`
    /// XORs a little earlier), so they are XORed in last, in that order, and the tag waits for
    /// one XOR after the last round. Summed in any order, LLVM regrouped the XORs by where
    /// their inputs were defined and put the last round's result first: eight dependent XORs
    /// after it.
    #[inline(always)]
    fn block_sum_from(&self, off: usize) -> L {
        let b = |j: usize| self.s[(j + off) % 16];
        let mut acc = b(0);
        for j in 1..12 {
            acc = acc.xor(b(j));
        }
        acc.xor_late(b(12), b(13)).xor_late(b(14), b(15))
    }

    /// The one-shot MAC of one lane for at most [`MAC_SHORT_UPDATES`] updates of input (the
    /// last block may be partial, zero-padded): `Init(key, nonce)`, `Update` per block,
    /// `Finalize(8·|data|, 0)`, the tag. One copy of the code per number of updates, each running its updates and the
    /// 32 of `Diffuse` at their own offsets and summing the blocks where they are: the copies
    /// join after the tag. Absorbing with an unrolled tail that rotates the state by the number
    /// of blocks, the register allocator joined the exits by permuting sixteen live registers
    /// and sent one new block of the `AESL` chain through the stack on the way.
    #[inline(always)]
    pub(crate) fn mac_short(key: &[u8; 32], nonce: &[u8; 16], data: &[u8]) -> [u8; 16] {
        debug_assert!(L::LANES == 1 && Self::UNROLL);
        match data.len().div_ceil(Self::BLOCK) {
            0 => Self::mac_short_n::<0>(key, nonce, data),
            1 => Self::mac_short_n::<1>(key, nonce, data),
            2 => Self::mac_short_n::<2>(key, nonce, data),
            3 => Self::mac_short_n::<3>(key, nonce, data),
            4 => Self::mac_short_n::<4>(key, nonce, data),
            5 => Self::mac_short_n::<5>(key, nonce, data),
            _ => unreachable!("at most {MAC_SHORT_UPDATES} updates"),
        }
    }

    /// [`mac_short`](Self::mac_short) for `N` updates of input.
    #[inline(always)]
    fn mac_short_n<const N: usize>(key: &[u8; 32], nonce: &[u8; 16], data: &[u8]) -> [u8; 16] {
        let b = Self::BLOCK;
        let lengths = lengths_block((data.len() as u64).wrapping_mul(8), 0);
        let t = L::broadcast(&lengths);
        if L::HIAE_LOOPS && b == 16 {
            // The updates in assembly read their blocks where they are (a padded copy for a
            // partial last block), `Init` and `Finalize` included (`hiae_diffuse`).
            let mut pad = [0u8; 16 * MAC_SHORT_UPDATES];
            let blocks = if data.len() == N * b {
                data
            } else {
                pad[..data.len()].copy_from_slice(data);
                &pad[..N * b]
            };
            // `Finalize`'s input in memory (`x0 = x1 = t`), written long before it is read.
            // (No more: zeroing a larger buffer took 256-bit stores, slower at 0 bytes.)
            let tt = [lengths; 2];
            let mut st = Self::new_mac(key, nonce);
            let mut ran = true;
            unroll16!(I => {
                if I < N {
                    ran &= L::hiae_update_from::<I>(&mut st.s, &blocks[I * b..]);
                }
            });
            ran &= L::hiae_diffuse_from::<N, true>(&mut st.s, tt.as_flattened());
            debug_assert!(ran, "the lane types with HIAE_LOOPS have these updates");
            return st.s[N].fold_xor();
        }
        let first = Self::MAC_SHORT_BLOCKS_FIRST;
        // A loop, not `array::from_fn`: its closure was compiled out of line, one call per
        // block.
        let mut m = [L::zero(); N];
        if first {
            for (i, x) in m.iter_mut().enumerate() {
                *x = Self::load_padded(&data[i * b..]);
            }
        }
        let mut st = Self::new(key, nonce);
        unroll16!(I => {
            if I < N {
                let x = if first { m[I] } else { Self::load_padded(&data[I * b..]) };
                st.update_idx(I, x, false);
            }
        });
        st.diffuse_sum::<N>(t, false).fold_xor()
    }

    /// Finalization, lengths in bytes (converted to bits here); returns the tag.
    ///
    /// AEAD (`mac = false`): `Finalize(8·|ad|, 8·|msg|)`, tag = XOR of all blocks of all lanes.
    /// MAC (`mac = true`, the data length in `ad_len`): one lane, `Finalize(8·|data|, 0)`;
    /// several lanes (zig-hiae's `HiaeX(d)` definition), `Diffuse` with
    /// `LE64(8·|data|) || LE64(128)`, absorb the per-lane sums of lanes `1..d` into lane 0,
    /// `Diffuse` with `LE64(d) || LE64(128)`, tag = lane 0's block sum.
    #[inline(always)]
    pub(crate) fn finalize(mut self, mac: bool, ad_len: u64, msg_len: u64) -> [u8; 16] {
        if mac && L::LANES > 1 {
            let sums = self.wide_mac_sums(ad_len);
            return self.wide_mac_tag(L::LANES, |j| sums.lane(j));
        }
        let second = if mac { 0 } else { msg_len.wrapping_mul(8) };
        let t = L::broadcast(&lengths_block(ad_len.wrapping_mul(8), second));
        self.diffuse_sum::<0>(t, mac).fold_xor()
    }

    /// The first half of the MAC finalization of several lanes: `Diffuse` with
    /// `LE64(8·len) || LE64(128)`; returns each lane's block sum.
    #[inline(always)]
    pub(crate) fn wide_mac_sums(&mut self, len: u64) -> L {
        let t = L::broadcast(&lengths_block(len.wrapping_mul(8), 128));
        self.diffuse(t, t);
        self.block_sum()
    }

    /// The second half, on the state that holds lane 0 of a `lanes`-lane instance: absorbs the
    /// block sums of lanes `1..lanes` (`sum(j)`) into lane 0, `Diffuse` with
    /// `LE64(lanes) || LE64(128)`; returns lane 0's block sum, the tag. (The other lanes of
    /// this state absorb zero blocks and do not reach the tag.)
    #[inline(always)]
    pub(crate) fn wide_mac_tag(
        mut self,
        lanes: usize,
        sum: impl Fn(usize) -> [u8; 16],
    ) -> [u8; 16] {
        for j in 1..lanes {
            self.update(L::first_lane(&sum(j)));
        }
        let t2 = L::broadcast(&lengths_block(lanes as u64, 128));
        self.diffuse_sum::<0>(t2, true).lane(0)
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use aes_lanes::{Backend, LaneOp, Token};

    use super::*;

    /// Reports [`State::WHOLE_LOOPS`] of the lane type it runs with.
    struct WholeLoops<const N: usize>;

    impl<const N: usize> LaneOp for WholeLoops<N> {
        const LANES: usize = N;
        type Output = bool;
        #[inline(always)]
        fn run<L: Lanes>(self) -> bool {
            State::<L>::WHOLE_LOOPS
        }
    }

    /// The one-shot calls choose the kernels for whole chunks from the token's shape
    /// (`whole_loops`); the kernels themselves hold only for lane types with
    /// `State::WHOLE_LOOPS`. Both must agree on every backend.
    #[test]
    fn whole_loops_from_the_shape_is_that_of_the_lane_type() {
        for b in Backend::available() {
            let t = b.token().unwrap();
            assert_eq!(
                whole_loops(1, t.shape(1)),
                t.dispatch(WholeLoops::<1>),
                "{b} x1"
            );
            assert_eq!(
                whole_loops(2, t.shape(2)),
                t.dispatch(WholeLoops::<2>),
                "{b} x2"
            );
            assert_eq!(
                whole_loops(4, t.shape(4)),
                t.dispatch(WholeLoops::<4>),
                "{b} x4"
            );
        }
        assert!(!whole_loops(1, Token::portable().shape(1)));
    }
}
