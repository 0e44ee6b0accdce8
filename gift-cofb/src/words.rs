//! The word abstraction the cipher and the mode are written against.
//!
//! Fixsliced GIFT-128 only ever needs bitwise logic, shifts and rotations on
//! 32-bit words. [`Words`] is "one 32-bit word per message lane": `u32` is the
//! single-message (portable) instance, and the SIMD backends implement it for
//! vectors of 4, 8 or 16 independent words, so the cipher in
//! [`crate::gift128`] and the batch driver in [`crate::batch`] are written once
//! for every width.
//!
//! Everything here is `#[inline(always)]` and carries no `#[target_feature]`:
//! the backends' entry points (which do carry the feature) instantiate it, so
//! the vector code is compiled with the right instruction set and fully
//! inlined.

/// One 32-bit word per lane, with the operations fixsliced GIFT-128 needs.
///
/// Shift and rotation amounts are const generics, always in `1..=31`.
pub(crate) trait Words: Copy {
    /// Number of independent lanes (messages) in one value.
    const LANES: usize;
    /// Whether the cipher should favour short dependency chains over fewer
    /// operations: true for the single-message paths (one block at a time
    /// leaves most execution units idle) and for the x86 batch types, where
    /// it measured faster on Zen 4 (each lane is still one sequential COFB
    /// chain).
    const LATENCY_BOUND: bool = false;

    /// The same word in every lane (round keys and constants are shared by all
    /// lanes because a batch uses one key).
    fn splat(x: u32) -> Self;
    /// Lane-wise XOR.
    fn xor(self, o: Self) -> Self;
    /// Lane-wise AND.
    fn and(self, o: Self) -> Self;
    /// Lane-wise OR.
    fn or(self, o: Self) -> Self;
    /// Lane-wise NOT.
    fn not(self) -> Self;
    /// Lane-wise logical left shift by `N`.
    fn shl<const N: u32>(self) -> Self;
    /// Lane-wise logical right shift by `N`.
    fn shr<const N: u32>(self) -> Self;
    /// Lane-wise left rotation by `N`.
    fn rotl<const N: u32>(self) -> Self;

    /// Lane-wise arithmetic right shift by 31: all ones where the top bit is
    /// set, zero elsewhere.
    fn sign_mask(self) -> Self;

    /// Loads lanes `0..LANES` from `src`.
    fn load(src: &[u32; 16]) -> Self;
    /// Stores lanes `0..LANES` into `dst` (the others are left alone).
    fn store(self, dst: &mut [u32; 16]);

    /// Loads the 16-byte block `blocks[lane]` of every lane, transposed into
    /// the word-sliced form: result `w` holds big-endian word `w` (bytes
    /// `4w..4w+4`) of each lane's block.
    #[inline(always)]
    fn load_blocks(blocks: &[[u8; 16]; 16]) -> [Self; 4] {
        let mut stage = [[0u32; 16]; 4];
        for (lane, block) in blocks.iter().enumerate().take(Self::LANES) {
            for (w, bytes) in block.chunks_exact(4).enumerate() {
                stage[w][lane] = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            }
        }
        [
            Self::load(&stage[0]),
            Self::load(&stage[1]),
            Self::load(&stage[2]),
            Self::load(&stage[3]),
        ]
    }

    /// Inverse of [`Words::load_blocks`]: writes each lane's block into
    /// `blocks[lane]`.
    #[inline(always)]
    fn store_blocks(s: &[Self; 4], blocks: &mut [[u8; 16]; 16]) {
        let mut stage = [[0u32; 16]; 4];
        for (x, row) in s.iter().zip(stage.iter_mut()) {
            x.store(row);
        }
        for (lane, block) in blocks.iter_mut().enumerate().take(Self::LANES) {
            for (w, bytes) in block.chunks_exact_mut(4).enumerate() {
                bytes.copy_from_slice(&stage[w][lane].to_be_bytes());
            }
        }
    }

    /// `self ^ splat(k)`; backends with a broadcast memory operand override it.
    #[inline(always)]
    fn xor_splat(self, k: u32) -> Self {
        self.xor(Self::splat(k))
    }

    /// `((self >> R) & mr) | ((self & ml) << L)`: the masked two-way bit move
    /// that most fixsliced linear layers are made of.
    #[inline(always)]
    fn move2<const R: u32, const L: u32>(self, mr: u32, ml: u32) -> Self {
        self.shr::<R>()
            .and(Self::splat(mr))
            .or(self.and(Self::splat(ml)).shl::<L>())
    }

    /// `swapmove(x, m, N)`: swaps the bits selected by `m` with those selected
    /// by `m << N`.
    #[inline(always)]
    fn swapmove<const N: u32>(self, m: u32) -> Self {
        let t = self.shr::<N>().xor(self).and(Self::splat(m));
        self.xor(t).xor(t.shl::<N>())
    }
}

/// A [`Words`] type with a single lane, usable for one message at a time.
pub(crate) trait SingleLane: Words {
    /// The value with `x` in its lane.
    fn from_u32(x: u32) -> Self;
    /// The value of its lane.
    fn to_u32(self) -> u32;
}

impl SingleLane for u32 {
    #[inline(always)]
    fn from_u32(x: u32) -> Self {
        x
    }
    #[inline(always)]
    fn to_u32(self) -> u32 {
        self
    }
}

impl Words for u32 {
    const LANES: usize = 1;
    const LATENCY_BOUND: bool = true;

    #[inline(always)]
    fn splat(x: u32) -> Self {
        x
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn not(self) -> Self {
        !self
    }
    #[inline(always)]
    fn shl<const N: u32>(self) -> Self {
        self << N
    }
    #[inline(always)]
    fn shr<const N: u32>(self) -> Self {
        self >> N
    }
    #[inline(always)]
    fn rotl<const N: u32>(self) -> Self {
        self.rotate_left(N)
    }
    #[inline(always)]
    fn sign_mask(self) -> Self {
        ((self as i32) >> 31) as u32
    }
    #[inline(always)]
    fn load(src: &[u32; 16]) -> Self {
        src[0]
    }
    #[inline(always)]
    fn store(self, dst: &mut [u32; 16]) {
        dst[0] = self;
    }
}
