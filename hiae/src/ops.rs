//! The public operations as [`LaneOp`]s: each one is dispatched once per message (or once per
//! streaming call) and runs the generic [`State`] code with the lane type of the backend.

use core::marker::PhantomData;

use aead::inout::InOutBuf;
use aes_lanes::{LaneOp, Lanes, MAX_LANES};

use crate::Variant;
use crate::state::{STATE_BYTES, State};

/// Whole-message encryption or decryption.
pub(crate) struct OneShot<'k, 'a, 'b, 'i, 'o, V, const DECRYPT: bool, const R32: bool> {
    pub key: &'k [u8; 32],
    pub nonce: &'k [u8; 16],
    pub ad: &'a [u8],
    pub buf: &'b mut InOutBuf<'i, 'o, u8>,
    pub _v: PhantomData<V>,
}

impl<V: Variant, const DECRYPT: bool, const R32: bool> LaneOp
    for OneShot<'_, '_, '_, '_, '_, V, DECRYPT, R32>
{
    const LANES: usize = V::LANES;
    type Output = [u8; 16];

    #[inline(always)]
    fn run<L: Lanes>(self) -> [u8; 16] {
        let mut st = State::<L>::new(self.key, self.nonce, R32);
        st.absorb_padded(self.ad);
        let len = self.buf.len();
        let full = len - len % State::<L>::BLOCK;
        let (blocks, tail) = self.buf.reborrow().split_at(full);
        if DECRYPT {
            st.dec_blocks(blocks);
            st.dec_partial(tail);
        } else {
            st.enc_blocks(blocks);
            st.enc_partial(tail);
        }
        st.finalize(self.ad.len() as u64, len as u64)
    }
}

/// One-shot MAC.
pub(crate) struct MacOneShot<'k, 'a, V, const R32: bool> {
    pub key: &'k [u8; 32],
    pub nonce: &'k [u8; 16],
    pub data: &'a [u8],
    pub _v: PhantomData<V>,
}

impl<V: Variant, const R32: bool> LaneOp for MacOneShot<'_, '_, V, R32> {
    const LANES: usize = V::LANES;
    type Output = [u8; 16];

    #[inline(always)]
    fn run<L: Lanes>(self) -> [u8; 16] {
        let mut st = State::<L>::new(self.key, self.nonce, R32);
        st.absorb_padded(self.data);
        st.finalize_mac(self.data.len() as u64)
    }
}

/// Serialized state plus the pending partial block of a streaming computation.
///
/// `pend` holds the first `pend_len` bytes of the next block to absorb (associated data, or
/// *plaintext* in the message phase); in the message phase `ks` holds that block's keystream
/// `AESL(S0 ^ S1) ^ S9`, which depends only on the state, so partial blocks can be encrypted
/// or decrypted as soon as their bytes arrive.
#[derive(Clone)]
pub(crate) struct StreamCore {
    pub state: [u8; STATE_BYTES],
    pub ks: [u8; 16 * MAX_LANES],
    pub pend: [u8; 16 * MAX_LANES],
    pub pend_len: usize,
    pub ad_len: u64,
    pub msg_len: u64,
    pub in_msg: bool,
}

impl StreamCore {
    /// A fresh core with an all-zero state (to be initialized by [`StreamInit`]).
    pub(crate) const fn empty() -> Self {
        StreamCore {
            state: [0; STATE_BYTES],
            ks: [0; 16 * MAX_LANES],
            pend: [0; 16 * MAX_LANES],
            pend_len: 0,
            ad_len: 0,
            msg_len: 0,
            in_msg: false,
        }
    }

    /// Wipes everything.
    pub(crate) fn wipe(&mut self) {
        #[cfg(feature = "zeroize")]
        {
            use zeroize::Zeroize;
            self.state.zeroize();
            self.ks.zeroize();
            self.pend.zeroize();
        }
        #[cfg(not(feature = "zeroize"))]
        {
            self.state = [0; STATE_BYTES];
            self.ks = [0; 16 * MAX_LANES];
            self.pend = [0; 16 * MAX_LANES];
        }
        self.pend_len = 0;
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
        st.absorb_blocks(&data[..full]);
        let rest = &data[full..];
        self.pend[..rest.len()].copy_from_slice(rest);
        self.pend_len = rest.len();
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
}

/// Initializes a [`StreamCore`].
pub(crate) struct StreamInit<'k, 'c, V> {
    pub key: &'k [u8; 32],
    pub nonce: &'k [u8; 16],
    pub core: &'c mut StreamCore,
    pub _v: PhantomData<V>,
}

impl<V: Variant> LaneOp for StreamInit<'_, '_, V> {
    const LANES: usize = V::LANES;
    type Output = ();

    #[inline(always)]
    fn run<L: Lanes>(self) {
        State::<L>::new(self.key, self.nonce, false).store_bytes(&mut self.core.state);
    }
}

/// A computation on a [`StreamCore`] and its loaded state.
pub(crate) trait StreamFn {
    /// What it returns.
    type Out;
    /// Runs it.
    fn call<L: Lanes>(self, core: &mut StreamCore, st: &mut State<L>) -> Self::Out;
}

/// Absorbs associated data / MAC input.
pub(crate) struct Absorb<'d>(pub &'d [u8]);

impl StreamFn for Absorb<'_> {
    type Out = ();
    #[inline(always)]
    fn call<L: Lanes>(self, core: &mut StreamCore, st: &mut State<L>) {
        core.absorb(st, self.0);
    }
}

/// Encrypts (`DECRYPT = false`) or decrypts the next message bytes.
pub(crate) struct Crypt<'b, 'i, 'o, const DECRYPT: bool>(pub &'b mut InOutBuf<'i, 'o, u8>);

impl<const DECRYPT: bool> StreamFn for Crypt<'_, '_, '_, DECRYPT> {
    type Out = ();
    #[inline(always)]
    fn call<L: Lanes>(self, core: &mut StreamCore, st: &mut State<L>) {
        core.start_msg(st);
        core.crypt(st, self.0.reborrow(), DECRYPT);
    }
}

/// AEAD finalization.
pub(crate) struct Finish;

impl StreamFn for Finish {
    type Out = [u8; 16];
    #[inline(always)]
    fn call<L: Lanes>(self, core: &mut StreamCore, st: &mut State<L>) -> [u8; 16] {
        core.start_msg(st);
        core.flush(st);
        st.finalize(core.ad_len, core.msg_len)
    }
}

/// MAC finalization (the data length is `core.ad_len`).
pub(crate) struct FinishMac;

impl StreamFn for FinishMac {
    type Out = [u8; 16];
    #[inline(always)]
    fn call<L: Lanes>(self, core: &mut StreamCore, st: &mut State<L>) -> [u8; 16] {
        core.flush(st);
        st.finalize_mac(core.ad_len)
    }
}

/// Dispatches a [`StreamFn`]: loads the state, runs it, stores the state.
pub(crate) struct StreamOp<'c, V, F, const R32: bool> {
    pub core: &'c mut StreamCore,
    pub f: F,
    pub _v: PhantomData<V>,
}

impl<V: Variant, F: StreamFn, const R32: bool> LaneOp for StreamOp<'_, V, F, R32> {
    const LANES: usize = V::LANES;
    type Output = F::Out;

    #[inline(always)]
    fn run<L: Lanes>(self) -> F::Out {
        let core = self.core;
        let mut st = State::<L>::load_bytes(&core.state, R32);
        let out = self.f.call(core, &mut st);
        st.store_bytes(&mut core.state);
        out
    }
}

/// A hazmat computation on a loaded state.
pub(crate) trait BlockFn {
    /// What it returns.
    type Out;
    /// Runs it.
    fn call<L: Lanes>(self, st: &mut State<L>) -> Self::Out;
}

macro_rules! block_fn {
    ($(#[$doc:meta] $name:ident($($t:ty),*) -> $out:ty = |$st:ident, $($a:ident),*| $body:expr;)*) => {
        $(
            #[$doc]
            pub(crate) struct $name<'d>($(pub $t),*, pub PhantomData<&'d ()>);
            impl BlockFn for $name<'_> {
                type Out = $out;
                #[inline(always)]
                fn call<L: Lanes>(self, $st: &mut State<L>) -> $out {
                    let $name($($a),*, _) = self;
                    $body
                }
            }
        )*
    };
}

block_fn! {
    /// Whole blocks of associated data.
    HAbsorb(&'d [u8]) -> () = |st, d| st.absorb_blocks(d);
    /// Whole blocks encrypted in place.
    HEnc(&'d mut [u8]) -> () = |st, d| st.enc_blocks(d.into());
    /// Whole blocks decrypted in place.
    HDec(&'d mut [u8]) -> () = |st, d| st.dec_blocks(d.into());
    /// Final partial block encrypted in place.
    HEncPartial(&'d mut [u8]) -> () = |st, d| st.enc_partial(d.into());
    /// Final partial block decrypted in place.
    HDecPartial(&'d mut [u8]) -> () = |st, d| st.dec_partial(d.into());
    /// Keystream of the next update.
    HKeystream(&'d mut [u8]) -> () = |st, d| st.keystream().store(d);
    /// AEAD finalization.
    HFinalize(u64, u64) -> [u8; 16] = |st, a, m| st.finalize(a, m);
    /// MAC finalization.
    HFinalizeMac(u64) -> [u8; 16] = |st, n| st.finalize_mac(n);
}

/// Dispatches a [`BlockFn`] on a serialized state.
pub(crate) struct BlockOp<'s, V, F, const R32: bool> {
    pub state: &'s mut [u8; STATE_BYTES],
    pub f: F,
    pub _v: PhantomData<V>,
}

impl<V: Variant, F: BlockFn, const R32: bool> LaneOp for BlockOp<'_, V, F, R32> {
    const LANES: usize = V::LANES;
    type Output = F::Out;

    #[inline(always)]
    fn run<L: Lanes>(self) -> F::Out {
        let mut st = State::<L>::load_bytes(self.state, R32);
        let out = self.f.call(&mut st);
        st.store_bytes(self.state);
        out
    }
}
