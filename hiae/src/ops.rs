//! Every public operation as a [`LaneOp`], dispatched once per call, running the generic
//! [`State`] code with the lane type of the backend, the state in registers from start to end:
//! - [`OneShot`]: a whole message below [`ONE_SHOT_MAX`] bytes (HiAEx2: of any length),
//!   encrypted or decrypted;
//! - [`WholeOneShot`]: the same for a message of whole chunks, from the chunk loop straight
//!   to the finalization;
//! - [`MacOneShot`]: the one-shot MAC (with a kernel for whole chunks too);
//! - [`Run`] of a [`Job`]: one call of a stream, of the incremental MAC or of the block API, or
//!   a longer one-shot message, whose phases (start from a key or a stored state, absorb,
//!   encrypt or decrypt, end) are chosen at run time, with the partial-block bookkeeping of
//!   [`Pending`].
//!
//! Each kernel holds its own copy of the loops it runs: `Run` and the long form of `OneShot`
//! each one per variant and backend. The one-shot kernels skip the general kernel's
//! bookkeeping and the register moves between its phases, which short and medium messages
//! pay for (PERFORMANCE.md).

use aead::inout::InOutBuf;
use aes_lanes::{LaneOp, Lanes, MAX_LANES, Token};

use crate::Variant;
use crate::state::{MAC_SHORT_UPDATES, STATE_BYTES, State, each_part, whole_len, whole_loops};

/// The byte-level side of a computation: the partial block not absorbed yet, the keystream
/// for it, and the lengths.
///
/// `pend` holds the first `pend_len` bytes of the next block to absorb (associated data, or
/// *plaintext* in the message phase); in the message phase `ks` holds that block's keystream
/// `AESL(S0 ^ S1) ^ S9`, which depends only on the state, so partial blocks can be encrypted
/// or decrypted as soon as their bytes arrive.
#[derive(Clone)]
pub(crate) struct Pending {
    pub ks: [u8; 16 * MAX_LANES],
    pub pend: [u8; 16 * MAX_LANES],
    pub pend_len: usize,
    pub ad_len: u64,
    pub msg_len: u64,
    pub in_msg: bool,
}

impl Pending {
    /// Nothing pending, zero lengths.
    pub(crate) const fn new() -> Self {
        Pending {
            ks: [0; 16 * MAX_LANES],
            pend: [0; 16 * MAX_LANES],
            pend_len: 0,
            ad_len: 0,
            msg_len: 0,
            in_msg: false,
        }
    }

    /// Absorbs more associated data (or MAC input).
    #[inline(always)]
    fn absorb<L: Lanes>(&mut self, st: &mut State<L>, mut data: &[u8]) {
        let block = State::<L>::BLOCK;
        if self.pend_len > 0 {
            let n = (block - self.pend_len).min(data.len());
            self.pend[self.pend_len..self.pend_len + n].copy_from_slice(&data[..n]);
            self.pend_len += n;
            data = &data[n..];
            if self.pend_len < block {
                return;
            }
            st.update(L::load(&self.pend));
            self.pend_len = 0;
        }
        let full = data.len() - data.len() % block;
        st.absorb_blocks::<true>(&data[..full]);
        let rest = &data[full..];
        // Guarded: a copy of variable length is a `memcpy` call, even of nothing.
        if !rest.is_empty() {
            self.pend[..rest.len()].copy_from_slice(rest);
            self.pend_len = rest.len();
        }
    }

    /// Absorbs the zero-padded pending block, if any.
    #[inline(always)]
    fn flush<L: Lanes>(&mut self, st: &mut State<L>) {
        if self.pend_len > 0 {
            self.pend[self.pend_len..].fill(0);
            st.update(L::load(&self.pend));
            self.pend_len = 0;
        }
    }

    /// Ends the associated data and starts the message phase.
    #[inline(always)]
    fn start_msg<L: Lanes>(&mut self, st: &mut State<L>) {
        if !self.in_msg {
            self.flush(st);
            self.in_msg = true;
        }
    }

    /// Encrypts or decrypts the next `buf.len()` message bytes (input side to output side).
    #[inline(always)]
    fn crypt<L: Lanes>(&mut self, st: &mut State<L>, mut buf: InOutBuf<'_, '_, u8>, decrypt: bool) {
        let block = State::<L>::BLOCK;
        if self.pend_len > 0 {
            let n = (block - self.pend_len).min(buf.len());
            let (head, rest) = buf.split_at(n);
            self.crypt_pending(head, decrypt);
            buf = rest;
            if self.pend_len < block {
                return;
            }
            st.update(L::load(&self.pend));
            self.pend_len = 0;
        }
        let full = buf.len() - buf.len() % block;
        let (blocks, rest) = buf.split_at(full);
        if decrypt {
            st.dec_blocks(blocks);
        } else {
            st.enc_blocks(blocks);
        }
        if !rest.is_empty() {
            st.keystream().store(&mut self.ks);
            self.crypt_pending(rest, decrypt);
        }
    }

    /// XORs `buf` with the keystream bytes after the pending ones and appends the plaintext
    /// to the pending block.
    #[inline(always)]
    fn crypt_pending(&mut self, mut buf: InOutBuf<'_, '_, u8>, decrypt: bool) {
        let p = self.pend_len;
        for i in 0..buf.len() {
            let x = buf.get_in()[i];
            let y = x ^ self.ks[p + i];
            buf.get_out()[i] = y;
            self.pend[p + i] = if decrypt { y } else { x };
        }
        self.pend_len += buf.len();
    }

    /// Wipes the keystream and the pending bytes.
    pub(crate) fn wipe(&mut self) {
        #[cfg(feature = "zeroize")]
        {
            use zeroize::Zeroize;
            self.ks.zeroize();
            self.pend.zeroize();
        }
        #[cfg(not(feature = "zeroize"))]
        {
            self.ks = [0; 16 * MAX_LANES];
            self.pend = [0; 16 * MAX_LANES];
        }
        self.pend_len = 0;
    }
}

/// How a [`Job`] ends.
pub(crate) enum End<'b> {
    /// Store the state (a stream or block-API call that continues later).
    Store,
    /// Absorb the zero-padded pending block (a final partial block), then store the state.
    FlushStore,
    /// AEAD finalization with the lengths in the [`Pending`]; returns the tag.
    Tag,
    /// MAC finalization (the data length is `ad_len`); returns the tag.
    MacTag,
    /// Write the keystream of the next update to the first `16 × LANES` bytes (state kept).
    Keystream(&'b mut [u8]),
}

/// One dispatched computation, in phase order: start (initialize from `init`, or load
/// `state`), absorb `absorb`, encrypt or decrypt `crypt`, end. Returns the tag (zeros where
/// the job ends without one).
pub(crate) struct Job<'s, 'k, 'a, 'b, 'i, 'o> {
    /// Key and nonce to initialize from; `None`: continue from `state`.
    pub init: Option<(&'k [u8; 32], &'k [u8; 16])>,
    /// The serialized state: loaded when `init` is `None`, written back by [`End::Store`].
    pub state: Option<&'s mut [u8; STATE_BYTES]>,
    /// Pending bytes and lengths.
    pub pending: &'s mut Pending,
    /// Associated data (or MAC input) to absorb.
    pub absorb: &'a [u8],
    /// Message bytes to encrypt or decrypt (ends the associated data). A reference: the
    /// kernel reads the buffer's fields one by one (see `Sealed::one_shot` in the crate
    /// root).
    pub crypt: Option<&'s mut InOutBuf<'i, 'o, u8>>,
    /// Whether `crypt` decrypts.
    pub decrypt: bool,
    /// What happens at the end.
    pub end: End<'b>,
}

/// Runs a [`Job`] with `LANES` lanes. The job is a reference (see `Sealed::one_shot` in the
/// crate root).
pub(crate) struct Run<'j, 's, 'k, 'a, 'b, 'i, 'o, const LANES: usize>(
    pub &'j mut Job<'s, 'k, 'a, 'b, 'i, 'o>,
);

impl<const LANES: usize> LaneOp for Run<'_, '_, '_, '_, '_, '_, '_, LANES> {
    const LANES: usize = LANES;
    type Output = [u8; 16];

    #[inline(always)]
    fn run<L: Lanes>(self) -> [u8; 16] {
        let job = self.0;
        let p = &mut *job.pending;
        let (absorb, decrypt) = (job.absorb, job.decrypt);
        let mut st = match (job.init, job.state.as_deref()) {
            (Some((key, nonce)), _) => State::<L>::new(key, nonce),
            (None, Some(bytes)) => State::<L>::load_bytes(bytes),
            (None, None) => unreachable!("a job starts from a key or from a state"),
        };
        if !absorb.is_empty() {
            p.absorb(&mut st, absorb);
        }
        if let Some(buf) = job.crypt.as_deref_mut() {
            p.start_msg(&mut st);
            p.crypt(&mut st, buf.reborrow(), decrypt);
        }
        match &mut job.end {
            end @ (End::Store | End::FlushStore) => {
                if matches!(end, End::FlushStore) {
                    p.flush(&mut st);
                }
                if let Some(bytes) = job.state.as_deref_mut() {
                    st.store_bytes(bytes);
                }
                [0; 16]
            }
            End::Tag => {
                p.start_msg(&mut st);
                p.flush(&mut st);
                // Two 8-byte loads for the lengths block, as in `OneShot` (a stream counts
                // them with separate stores; a long one-shot call writes them just before).
                st.finalize(false, p.ad_len, core::hint::black_box(p.msg_len))
            }
            End::MacTag => {
                p.flush(&mut st);
                st.finalize(true, p.ad_len, 0)
            }
            End::Keystream(out) => {
                st.keystream().store(out);
                if let Some(bytes) = job.state.as_deref_mut() {
                    st.store_bytes(bytes);
                }
                [0; 16]
            }
        }
    }
}

/// Whole blocks of input, in bytes, that the one-shot MAC absorbs in unrolled updates without
/// the chunk loops (a partial block more): four blocks of HiAE, two of HiAEx2, one of HiAEx4.
pub(crate) const SHORT_BYTES: usize = 64;

/// Whole blocks of associated data, and of message, that the short form of [`OneShot`] takes
/// with `lanes` lanes, in bytes (each may have a partial block more): four blocks of HiAE and
/// of HiAEx2, one of HiAEx4. Its loops are unrolled that far: the few updates of a short
/// message, where the bookkeeping of the chunk loops costs the most. With four blocks HiAEx4
/// was slower at 64 bytes on `VAES-AVX2`, so it keeps the MAC's one (PERFORMANCE.md).
pub(crate) const fn short_bytes(lanes: usize) -> usize {
    if lanes <= 2 {
        4 * 16 * lanes
    } else {
        SHORT_BYTES
    }
}

/// Associated data and message together, in bytes, below which a one-shot call runs
/// [`OneShot`]; longer ones run [`Run`]. From a few KiB on, the general kernel's bookkeeping
/// and phase changes are a small part of a call, and its loops (the same source, compiled in
/// another function) are the ones whose register allocation was checked for every backend
/// (PERFORMANCE.md: in the bench build the one-lane encryption loop of `OneShot` on the
/// 16-register backends kept a value of its dependency chain on the stack). The same 4 KiB at
/// which one-lane decryption changes tiers on AVX-512 CPUs. HiAEx2 runs `OneShot` at every
/// length: there its decryption loop on AES-NI (two lanes in sixteen `xmm` registers, which
/// spill) came out with fewer stack accesses than in `Run` (PERFORMANCE.md), and its other
/// loops measured the same.
pub(crate) const ONE_SHOT_MAX: usize = 4096;

/// A one-shot encryption or decryption with `LANES` lanes: `Init`, the associated data, the
/// message, the tag (below [`ONE_SHOT_MAX`] bytes).
///
/// `SHORT`: at most [`short_bytes`] of whole blocks of associated data and as many of message,
/// each with a partial block more, in unrolled updates without the chunk loops. Otherwise any
/// lengths, with the chunk loops. [`one_shot`] chooses.
///
/// `AD`: whether there is associated data. The short form has a kernel without the
/// associated-data phases for calls without any: each phase whose update count varies with
/// the length ends in a join of paths that leave the state in different registers, and each
/// join cost about twenty register moves and stack accesses on every path (HiAE on
/// `VAES-AVX2`, an empty message: 439 instructions per call instead of 494; 64-byte messages
/// 25.7 against 29.4–29.5 ns, AMD Zen 5, PERFORMANCE.md). The kernel without them reads
/// no field of `ad`: its length is `0` here, not loaded (loading it, LLVM read it and the
/// next field with one 16-byte load, which waited for the two 8-byte stores that had just
/// written them to retire: 33 instead of 26 ns).
///
/// `buf` is a reference (see `Sealed::one_shot` in the crate root).
pub(crate) struct OneShot<'k, 'a, 'b, 'i, 'o, const LANES: usize, const SHORT: bool, const AD: bool>
{
    pub key: &'k [u8; 32],
    pub nonce: &'k [u8; 16],
    pub ad: &'a [u8],
    pub buf: &'b mut InOutBuf<'i, 'o, u8>,
    pub decrypt: bool,
}

impl<const LANES: usize, const SHORT: bool, const AD: bool> LaneOp
    for OneShot<'_, '_, '_, '_, '_, LANES, SHORT, AD>
{
    const LANES: usize = LANES;
    type Output = [u8; 16];

    #[inline(always)]
    fn run<L: Lanes>(self) -> [u8; 16] {
        let OneShot {
            key,
            nonce,
            ad,
            buf,
            decrypt,
        } = self;
        if !SHORT && State::<L>::PART_BY_PART {
            return one_shot_by_parts::<L>(key, nonce, ad, buf, decrypt);
        }
        let block = State::<L>::BLOCK;
        // Without associated data its length is the constant 0 (see `AD` above).
        let ad_len = if AD { ad.len() as u64 } else { 0 };
        let msg_len = buf.len() as u64;
        let mut st = State::<L>::new(key, nonce);
        let max = short_bytes(LANES) / block;
        if AD {
            let full = ad.len() - ad.len() % block;
            if SHORT {
                st.absorb_short(&ad[..full], max);
            } else {
                st.absorb_blocks::<false>(&ad[..full]);
            }
            st.absorb_last(&ad[full..], 0, 1);
        }
        let full = buf.len() - buf.len() % block;
        let (blocks, mut tail) = buf.reborrow().split_at(full);
        match (SHORT, decrypt) {
            (true, false) => st.crypt_short::<false>(blocks, max),
            (true, true) => st.crypt_short::<true>(blocks, max),
            (false, false) => st.enc_blocks(blocks),
            (false, true) => st.dec_blocks(blocks),
        }
        if !tail.is_empty() {
            // The final partial block: keystream XOR, then `Update` of the zero-padded
            // plaintext, in general-purpose registers (`tail`). (`one_shot_by_parts` does this
            // for a part's bytes; one method for both, with the part's byte range, made
            // one-lane 64-byte encryption 6–10 % slower in the bench build.)
            st.crypt_last(&mut tail, decrypt);
        }
        // The two lengths are read as two 8-byte loads (`black_box` keeps LLVM from merging
        // them into one 16-byte load): the caller wrote them with separate stores just
        // before, and a load that spans several pending stores cannot take its data from the
        // store buffer: it waits until they retire, behind the previous call's finalization,
        // which held back back-to-back short calls (PERFORMANCE.md).
        st.finalize(false, ad_len, core::hint::black_box(msg_len))
    }
}

/// A one-shot encryption or decryption with `LANES` lanes of a message of whole chunks
/// ([`whole_len`]): `Init`, the associated data, the chunk loop, the tag. `AD`: [`AD_NONE`]
/// (no code for it), [`AD_PARTIAL`] (less than one block: its one padded update, without the
/// absorb loops and their joins: with 13 bytes, HiAEx2 encryption of 1 KiB on `VAES-AVX2`
/// 54.0–54.3 instead of 56.5–57.0 ns, HiAEx4 67.0–70.9 instead of 76.1–76.6, AMD Zen 5) or
/// [`AD_ANY`]. Dispatched only to lane types with
/// [`State::WHOLE_LOOPS`] (the others run [`OneShot`]): the kernel returns the tag itself, as
/// the other kernels do (declining with an `Option` instead cost 1.5 to 2.5 ns per call, the
/// tag and its flag returned through memory).
///
/// `buf` is a reference (see `Sealed::one_shot` in the crate root).
pub(crate) struct WholeOneShot<'k, 'a, 'b, 'i, 'o, const LANES: usize, const AD: u8> {
    pub key: &'k [u8; 32],
    pub nonce: &'k [u8; 16],
    pub ad: &'a [u8],
    pub buf: &'b mut InOutBuf<'i, 'o, u8>,
    pub decrypt: bool,
}

/// [`WholeOneShot`] without associated data.
pub(crate) const AD_NONE: u8 = 0;
/// [`WholeOneShot`] with associated data shorter than one block (`16 · LANES` bytes).
pub(crate) const AD_PARTIAL: u8 = 1;
/// [`WholeOneShot`] with associated data of any length.
pub(crate) const AD_ANY: u8 = 2;

impl<const LANES: usize, const AD: u8> LaneOp for WholeOneShot<'_, '_, '_, '_, '_, LANES, AD> {
    const LANES: usize = LANES;
    type Output = [u8; 16];

    #[inline(always)]
    fn run<L: Lanes>(self) -> [u8; 16] {
        assert!(
            State::<L>::WHOLE_LOOPS,
            "a whole-chunk kernel runs only on lane types with whole loops"
        );
        let WholeOneShot {
            key,
            nonce,
            ad,
            buf,
            decrypt,
        } = self;
        let ad_len = if AD == AD_NONE { 0 } else { ad.len() as u64 };
        let msg_len = buf.len() as u64;
        let mut st = State::<L>::new(key, nonce);
        if AD == AD_PARTIAL {
            st.absorb_last(ad, 0, 1);
        } else if AD == AD_ANY {
            // As the general form of `OneShot`.
            let full = ad.len() - ad.len() % State::<L>::BLOCK;
            st.absorb_blocks::<false>(&ad[..full]);
            st.absorb_last(&ad[full..], 0, 1);
        }
        if decrypt {
            st.crypt_whole::<true>(buf.reborrow());
        } else {
            st.crypt_whole::<false>(buf.reborrow());
        }
        // Two 8-byte loads for the lengths, as in `OneShot`.
        st.finalize(false, ad_len, core::hint::black_box(msg_len))
    }
}

/// The general form of [`OneShot`] with a state per part ([`State::PART_BY_PART`]): each
/// part of the lanes is initialized with its lanes' context blocks ([`State::new_lanes`]),
/// takes its share of every block and finalizes on its own, one part after the other; the
/// AEAD tag is the XOR of every lane's blocks, so the parts' tags are XORed. (The parts going
/// through each phase in turn, their states kept in memory in between, measured 3 % slower.)
#[inline(always)]
fn one_shot_by_parts<L: Lanes>(
    key: &[u8; 32],
    nonce: &[u8; 16],
    ad: &[u8],
    buf: &mut InOutBuf<'_, '_, u8>,
    decrypt: bool,
) -> [u8; 16] {
    let (block, pb) = (State::<L>::BLOCK, State::<L::Part>::BLOCK);
    let (ad_len, msg_len) = (ad.len() as u64, buf.len() as u64);
    let msg_full = buf.len() - buf.len() % block;
    let mut tag = [0u8; 16];
    each_part!(L, H, {
        let mut st = State::<L::Part>::new_lanes(key, nonce, L::LANES, H * L::Part::LANES);
        st.absorb_part_padded(ad, H, L::PARTS);
        let (blocks, mut tail) = buf.reborrow().split_at(msg_full);
        if decrypt {
            st.crypt_part::<true>(blocks, H, L::PARTS);
        } else {
            st.crypt_part::<false>(blocks, H, L::PARTS);
        }
        if !tail.is_empty() {
            // This part's bytes of the final partial block (none, if it ends before them:
            // the part still absorbs its zero block), as `OneShot` does for the whole width.
            let mut ks = [0u8; 16 * MAX_LANES];
            st.keystream().store(&mut ks);
            let mut pad = [0u8; 16 * MAX_LANES];
            let (lo, hi) = (H * pb, ((H + 1) * pb).min(tail.len()));
            for i in lo..hi {
                let x = tail.get_in()[i];
                let y = x ^ ks[i - lo];
                tail.get_out()[i] = y;
                pad[i - lo] = if decrypt { y } else { x };
            }
            st.update(L::Part::load(&pad));
        }
        // Two 8-byte loads for the lengths, as in `OneShot`.
        let t = st.finalize(false, ad_len, core::hint::black_box(msg_len));
        for (a, b) in tag.iter_mut().zip(t) {
            *a ^= b;
        }
    });
    tag
}

/// A one-shot encryption or decryption with `LANES` lanes on `token`; returns the tag. Short
/// lengths run the short form of [`OneShot`] (its kernel without associated data where there
/// is none), the rest below [`ONE_SHOT_MAX`] bytes (HiAEx2: at every length) its general
/// form, or [`WholeOneShot`] for a message of whole chunks where the lane type has that
/// kernel, longer messages a [`Job`] of [`Run`]. Inlined into each variant's
/// `Sealed::one_shot` (see there). (The general form split the same way measured the same
/// at 1 KiB and made the kernels an eighth larger.)
#[inline(always)]
pub(crate) fn one_shot<const LANES: usize>(
    token: Token,
    key: &[u8; 32],
    nonce: &[u8; 16],
    ad: &[u8],
    buf: &mut InOutBuf<'_, '_, u8>,
    decrypt: bool,
) -> [u8; 16] {
    // Dispatches the message kernel `$op` (`OneShot` or `WholeOneShot`) with this call's
    // arguments.
    macro_rules! message_kernel {
        ($op:ident < $($g:tt),* >) => {
            token.dispatch($op::<$($g),*> {
                key,
                nonce,
                ad,
                buf,
                decrypt,
            })
        };
    }
    let short = short_bytes(LANES) + 16 * LANES;
    if ad.is_empty() && buf.len() < short {
        message_kernel!(OneShot<LANES, true, false>)
    } else if ad.len() < short && buf.len() < short {
        message_kernel!(OneShot<LANES, true, true>)
    } else if LANES == 2 || ad.len() + buf.len() < ONE_SHOT_MAX {
        if whole_len(buf.len(), LANES) && whole_loops(LANES, token.shape(LANES)) {
            return if ad.is_empty() {
                message_kernel!(WholeOneShot<LANES, AD_NONE>)
            } else if ad.len() < 16 * LANES {
                message_kernel!(WholeOneShot<LANES, AD_PARTIAL>)
            } else {
                message_kernel!(WholeOneShot<LANES, AD_ANY>)
            };
        }
        message_kernel!(OneShot<LANES, false, true>)
    } else {
        let mut pending = Pending::new();
        pending.ad_len = ad.len() as u64;
        pending.msg_len = buf.len() as u64;
        token.dispatch(Run::<LANES>(&mut Job {
            init: Some((key, nonce)),
            state: None,
            pending: &mut pending,
            absorb: ad,
            crypt: Some(buf),
            decrypt,
            end: End::Tag,
        }))
    }
}

/// The one-shot MAC (`Init`, absorb `data`, MAC finalization) with `LANES` lanes.
///
/// Its own small kernel rather than a [`Job`] of [`Run`]: with nothing but these three phases
/// the state is not moved between the register layouts of the general kernel's phases, which
/// cost short MACs up to a quarter of their time (PERFORMANCE.md).
///
/// `WHOLE`: the kernel for input of whole chunks ([`whole_len`]) longer than
/// [`SHORT_BYTES`]: `Init`, the chunk loops, the finalization, as [`WholeOneShot`], and
/// dispatched only to lane types with [`State::WHOLE_LOOPS`]. [`mac`] chooses.
pub(crate) struct MacOneShot<'k, 'a, const LANES: usize, const WHOLE: bool> {
    pub key: &'k [u8; 32],
    pub nonce: &'k [u8; 16],
    pub data: &'a [u8],
}

impl<const LANES: usize, const WHOLE: bool> LaneOp for MacOneShot<'_, '_, LANES, WHOLE> {
    const LANES: usize = LANES;
    type Output = [u8; 16];

    #[inline(always)]
    fn run<L: Lanes>(self) -> [u8; 16] {
        let data = self.data;
        if WHOLE {
            assert!(
                State::<L>::WHOLE_LOOPS,
                "a whole-chunk kernel runs only on lane types with whole loops"
            );
            let mut st = State::<L>::new_mac(self.key, self.nonce);
            st.absorb_whole::<true>(data);
            return st.finalize(true, data.len() as u64, 0);
        }
        if State::<L>::PART_BY_PART && data.len() <= State::<L>::PIECE {
            return mac_by_parts::<L>(self.key, self.nonce, data);
        }
        if L::LANES == 1
            && State::<L>::UNROLL
            && data.len() <= MAC_SHORT_UPDATES * State::<L>::BLOCK
        {
            return State::<L>::mac_short(self.key, self.nonce, data);
        }
        let mut st = State::<L>::new_mac(self.key, self.nonce);
        let full = data.len() - data.len() % State::<L>::BLOCK;
        // Short inputs: at most the few updates of `SHORT_BYTES`, unrolled. With the general
        // tail of up to fifteen blocks, the register allocator joined that many exits before
        // the finalization and put the last new block through the stack twice on the way
        // (HiAEx2 on VAES-AVX2 at 64 bytes, PERFORMANCE.md).
        if full <= SHORT_BYTES {
            st.absorb_short(&data[..full], SHORT_BYTES / State::<L>::BLOCK);
        } else {
            st.absorb_blocks::<true>(&data[..full]);
        }
        st.absorb_last(&data[full..], 0, 1);
        st.finalize(true, data.len() as u64, 0)
    }
}

/// The one-shot MAC with `LANES` lanes on `token`: the `WHOLE` kernel of [`MacOneShot`] for
/// input of whole chunks longer than [`SHORT_BYTES`] where the lane type has it, the other
/// one otherwise.
#[inline(always)]
pub(crate) fn mac<const LANES: usize>(
    token: Token,
    key: &[u8; 32],
    nonce: &[u8; 16],
    data: &[u8],
) -> [u8; 16] {
    if data.len() > SHORT_BYTES
        && whole_len(data.len(), LANES)
        && whole_loops(LANES, token.shape(LANES))
    {
        return token.dispatch(MacOneShot::<LANES, true> { key, nonce, data });
    }
    token.dispatch(MacOneShot::<LANES, false> { key, nonce, data })
}

/// The one-shot MAC with a state per part ([`State::PART_BY_PART`]), for at most
/// [`State::PIECE`] bytes (which the later parts read from the L1 cache), as
/// [`one_shot_by_parts`]: each part runs `Init`, its share of the data and the first half of
/// the finalization; only lane 0's state goes on, absorbs the other lanes' block sums and ends
/// with the second `Diffuse` (the other lanes of a wide state would only absorb zero blocks
/// there, and no part of the tag comes from them).
#[inline(always)]
fn mac_by_parts<L: Lanes>(key: &[u8; 32], nonce: &[u8; 16], data: &[u8]) -> [u8; 16] {
    let pl = L::Part::LANES;
    let mut sums = [L::Part::zero(); MAX_LANES];
    let mut lane0 = State::<L::Part>::zeroed();
    each_part!(L, H, {
        let mut st = State::<L::Part>::new_lanes(key, nonce, L::LANES, H * pl);
        st.absorb_part_padded(data, H, L::PARTS);
        sums[H] = st.wide_mac_sums(data.len() as u64);
        if H == 0 {
            lane0 = st;
        }
    });
    lane0.wide_mac_tag(L::LANES, |j| sums[j / pl].lane(j % pl))
}

/// A computation kept in memory between calls (the stream, MAC and block APIs): the
/// serialized state and the pending bytes. Each method is one dispatch on `token`.
#[derive(Clone)]
pub(crate) struct StreamCore {
    pub state: [u8; STATE_BYTES],
    pub pending: Pending,
}

impl StreamCore {
    /// `Init(key, nonce)`.
    pub(crate) fn new<V: Variant>(token: Token, key: &[u8; 32], nonce: &[u8; 16]) -> Self {
        let mut core = StreamCore {
            state: [0; STATE_BYTES],
            pending: Pending::new(),
        };
        core.run::<V>(token, Some((key, nonce)), &[], None, false, End::Store);
        core
    }

    /// A state serialized by `State::store_bytes` (its first `bytes.len()` bytes), nothing
    /// pending.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Self {
        let mut core = StreamCore {
            state: [0; STATE_BYTES],
            pending: Pending::new(),
        };
        core.state[..bytes.len()].copy_from_slice(bytes);
        core
    }

    /// Runs one job on the stored state.
    #[inline]
    pub(crate) fn run<V: Variant>(
        &mut self,
        token: Token,
        init: Option<(&[u8; 32], &[u8; 16])>,
        absorb: &[u8],
        crypt: Option<&mut InOutBuf<'_, '_, u8>>,
        decrypt: bool,
        end: End<'_>,
    ) -> [u8; 16] {
        V::run(
            token,
            &mut Job {
                init,
                state: Some(&mut self.state),
                pending: &mut self.pending,
                absorb,
                crypt,
                decrypt,
                end,
            },
        )
    }

    /// Absorbs associated data (or MAC input); the caller counts its length.
    pub(crate) fn absorb<V: Variant>(&mut self, token: Token, data: &[u8]) {
        if !data.is_empty() {
            self.run::<V>(token, None, data, None, false, End::Store);
        }
    }

    /// Encrypts or decrypts the next message bytes; the caller counts their length. With
    /// `flush`, a final partial block is absorbed (zero-padded) right away instead of at
    /// finalization.
    pub(crate) fn crypt<V: Variant>(
        &mut self,
        token: Token,
        mut buf: InOutBuf<'_, '_, u8>,
        decrypt: bool,
        flush: bool,
    ) {
        let end = if flush { End::FlushStore } else { End::Store };
        self.run::<V>(token, None, &[], Some(&mut buf), decrypt, end);
    }

    /// AEAD (`mac = false`) or MAC finalization with the counted lengths; returns the tag.
    pub(crate) fn finish<V: Variant>(&mut self, token: Token, mac: bool) -> [u8; 16] {
        let end = if mac { End::MacTag } else { End::Tag };
        self.run::<V>(token, None, &[], None, false, end)
    }

    /// Wipes the state and the pending bytes.
    pub(crate) fn wipe(&mut self) {
        #[cfg(feature = "zeroize")]
        {
            use zeroize::Zeroize;
            self.state.zeroize();
        }
        #[cfg(not(feature = "zeroize"))]
        {
            self.state = [0; STATE_BYTES];
        }
        self.pending.wipe();
    }
}
