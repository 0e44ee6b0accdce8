//! Streaming (`<P>_stream_*`): one message whose associated data and body arrive in pieces
//! of any sizes, in a caller-owned `<P>_stream_state_t`.
//!
//! Whole `16 × lanes`-byte blocks go to the raw state in one call. Pieces that leave a block
//! unfinished are taken lane by lane: the lanes are independent HiAE states, so lane `l` can
//! absorb its 16 bytes as soon as they are complete, and `buffer` only ever holds the current
//! lane's unfinished 16 bytes (which is all that fits in HiAEx2's 16-byte buffer). Output for
//! an unfinished lane block is produced at once from that lane's keystream, as libhiae does.
//!
//! Any misuse (see [`Refused`]) wipes the stream and leaves it in the final phase, where
//! every later call is refused too.

use hiae::aead::inout::InOutBuf;
use hiae::{MAX_LEN, Variant};
use zeroize::Zeroize;

use hiae::Hiae;

use crate::raw::{Raw, with_lane};
use crate::select;
use crate::types::{
    MODE_DECRYPT, MODE_ENCRYPT, MODE_NONE, PHASE_AD, PHASE_FINAL, PHASE_INIT, PHASE_MSG,
    StreamState,
};

/// A call was refused: the stream is out of order (absorb after the message started, both
/// directions, anything after the end), an argument is invalid (NULL with a non-zero
/// length), a total length exceeds 2^61 − 1 bytes, or the public members hold values this
/// library never writes.
#[derive(Debug)]
pub(crate) struct Refused;

/// A stream of variant `V` over a caller's state.
pub(crate) struct Stream<'s, V: Variant, const N: usize, const B: usize> {
    s: &'s mut StreamState<N, B>,
    _v: core::marker::PhantomData<V>,
}

/// Wipes `s` (all but its direction) and puts it in the final phase, where every call is
/// refused.
pub(crate) fn end<const N: usize, const B: usize>(s: &mut StreamState<N, B>) {
    s.state.opaque.zeroize();
    s.buffer.zeroize();
    s.offset = 0;
    s.ad_len = 0;
    s.msg_len = 0;
    s.phase = PHASE_FINAL;
}

/// A zero block, absorbed by lanes that lie wholly in the padding of the last block.
const ZERO: [u8; 16] = [0; 16];

impl<'s, V: Variant, const N: usize, const B: usize> Stream<'s, V, N, B> {
    /// Bytes per block: 16 per lane.
    const W: usize = V::BLOCK_SIZE;

    /// Starts a stream: `key` and `nonce` (or a refused stream if either is missing).
    pub(crate) fn init(
        s: &'s mut StreamState<N, B>,
        key: Option<&[u8; 32]>,
        nonce: Option<&[u8; 16]>,
    ) {
        s.offset = 0;
        s.ad_len = 0;
        s.msg_len = 0;
        s.mode = MODE_NONE;
        s.phase = PHASE_INIT;
        s.buffer.zeroize();
        let mut st = Stream::<V, N, B> {
            s,
            _v: core::marker::PhantomData,
        };
        let started = match (key, nonce) {
            (Some(k), Some(n)) => {
                Raw::<V>::init(&mut st.s.state.opaque, select::backend::<V>(), k, n).is_some()
            }
            _ => false,
        };
        if !started {
            st.refuse();
        }
    }

    /// Continues the stream in `s` after checking that its members are consistent.
    pub(crate) fn resume(s: &'s mut StreamState<N, B>) -> Result<Self, Refused> {
        let consistent = s.offset < Self::W
            && s.mode <= MODE_DECRYPT
            && match s.phase {
                PHASE_INIT => s.mode == MODE_NONE && s.offset == 0,
                PHASE_AD => s.mode == MODE_NONE,
                PHASE_MSG => s.mode != MODE_NONE,
                PHASE_FINAL => true,
                _ => false,
            };
        let mut st = Stream {
            s,
            _v: core::marker::PhantomData,
        };
        if consistent {
            Ok(st)
        } else {
            st.refuse();
            Err(Refused)
        }
    }

    /// Wipes everything but the direction and ends the stream.
    fn refuse(&mut self) {
        end(self.s);
    }

    /// Runs `f`; if it refuses, the stream is wiped and ended.
    fn guarded<R>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<R, Refused>,
    ) -> Result<R, Refused> {
        let r = f(self);
        if r.is_err() {
            self.refuse();
        }
        r
    }

    /// The raw state on the backend selected for `V`.
    fn raw(&mut self) -> Option<Raw<'_, V>> {
        Raw::new(&mut self.s.state.opaque, select::backend::<V>())
    }

    /// Runs `f` on lane `lane` of the raw state alone (see [`with_lane`]).
    fn lane<R>(
        &mut self,
        lane: usize,
        f: impl FnOnce(&mut Raw<'_, Hiae>) -> R,
    ) -> Result<R, Refused> {
        with_lane::<V, R>(&mut self.s.state.opaque, lane, select::backend::<V>(), f).ok_or(Refused)
    }

    /// `total + more`, if it stays within 2^61 − 1.
    fn add_len(total: usize, more: usize) -> Result<usize, Refused> {
        total
            .checked_add(more)
            .filter(|&t| t as u64 <= MAX_LEN)
            .ok_or(Refused)
    }

    /// `<P>_stream_absorb` (`ad` is `None` for NULL with a non-zero length).
    pub(crate) fn absorb(&mut self, ad: Option<&[u8]>) -> Result<(), Refused> {
        self.guarded(|st| {
            let ad = ad.ok_or(Refused)?;
            if st.s.phase != PHASE_INIT && st.s.phase != PHASE_AD {
                return Err(Refused);
            }
            st.s.ad_len = Self::add_len(st.s.ad_len, ad.len())?;
            st.s.phase = PHASE_AD;
            let mut rest = ad;
            while !rest.is_empty() {
                let n = if st.s.offset == 0 && rest.len() >= Self::W {
                    let n = rest.len() - rest.len() % Self::W;
                    st.raw().ok_or(Refused)?.absorb(&rest[..n]);
                    n
                } else {
                    st.lane_ad(rest)?
                };
                rest = &rest[n..];
            }
            Ok(())
        })
    }

    /// Takes up to the rest of the current lane's block from `ad`; returns the bytes taken.
    fn lane_ad(&mut self, ad: &[u8]) -> Result<usize, Refused> {
        let (lane, p) = (self.s.offset / 16, self.s.offset % 16);
        let k = ad.len().min(16 - p);
        let mut block = ZERO;
        if p == 0 && k == 16 {
            block.copy_from_slice(&ad[..16]);
        } else {
            self.s.buffer[p..p + k].copy_from_slice(&ad[..k]);
            block.copy_from_slice(&self.s.buffer[..16]);
        }
        if p + k == 16 {
            self.lane(lane, |r| r.absorb(&block))?;
        }
        block.zeroize();
        self.s.offset = (self.s.offset + k) % Self::W;
        Ok(k)
    }

    /// Ends the associated data: the unfinished block, zero-padded, goes in lane by lane.
    fn end_ad(&mut self) -> Result<(), Refused> {
        if self.s.offset != 0 {
            let (lane, p) = (self.s.offset / 16, self.s.offset % 16);
            let mut block = ZERO;
            block[..p].copy_from_slice(&self.s.buffer[..p]);
            self.lane(lane, |r| r.absorb(&block))?;
            for l in lane + 1..V::LANES {
                self.lane(l, |r| r.absorb(&ZERO))?;
            }
            block.zeroize();
            self.s.offset = 0;
        }
        Ok(())
    }

    /// `<P>_stream_encrypt` (`DEC = false`) and `<P>_stream_decrypt` (`buf` is `None` for a
    /// NULL pointer with a non-zero length).
    pub(crate) fn crypt<const DEC: bool>(
        &mut self,
        buf: Option<InOutBuf<'_, '_, u8>>,
    ) -> Result<(), Refused> {
        let mode = if DEC { MODE_DECRYPT } else { MODE_ENCRYPT };
        self.guarded(|st| {
            let mut buf = buf.ok_or(Refused)?;
            if st.s.phase == PHASE_FINAL || (st.s.mode != MODE_NONE && st.s.mode != mode) {
                return Err(Refused);
            }
            st.s.msg_len = Self::add_len(st.s.msg_len, buf.len())?;
            if st.s.phase != PHASE_MSG {
                st.end_ad()?;
                st.s.phase = PHASE_MSG;
            }
            st.s.mode = mode;
            while !buf.is_empty() {
                let bulk = st.s.offset == 0 && buf.len() >= Self::W;
                let n = if bulk {
                    buf.len() - buf.len() % Self::W
                } else {
                    buf.len().min(16 - st.s.offset % 16)
                };
                let (piece, rest) = buf.split_at(n);
                buf = rest;
                if bulk {
                    st.raw().ok_or(Refused)?.crypt::<DEC>(piece);
                } else {
                    st.lane_msg::<DEC>(piece)?;
                }
            }
            Ok(())
        })
    }

    /// Encrypts or decrypts `piece`, at most the rest of the current lane's block.
    fn lane_msg<const DEC: bool>(
        &mut self,
        mut piece: InOutBuf<'_, '_, u8>,
    ) -> Result<(), Refused> {
        let (lane, p, k) = (self.s.offset / 16, self.s.offset % 16, piece.len());
        if p == 0 && k == 16 {
            self.lane(lane, |r| r.crypt::<DEC>(piece))?;
        } else {
            // The input (plaintext, or ciphertext when decrypting) waits in the buffer until
            // the lane's block is complete; the output comes from the keystream now.
            self.s.buffer[p..p + k].copy_from_slice(piece.get_in());
            let mut ks = self.lane(lane, |r| r.keystream())?;
            for ((o, &x), &y) in piece
                .get_out()
                .iter_mut()
                .zip(&self.s.buffer[p..p + k])
                .zip(&ks[p..p + k])
            {
                *o = x ^ y;
            }
            ks.zeroize();
            if p + k == 16 {
                let mut block = ZERO;
                block.copy_from_slice(&self.s.buffer[..16]);
                self.lane(lane, |r| r.crypt::<DEC>(InOutBuf::from(&mut block[..])))?;
                block.zeroize();
            }
        }
        self.s.offset = (self.s.offset + k) % Self::W;
        Ok(())
    }

    /// Ends the message: the unfinished block goes in lane by lane (the current lane's bytes
    /// as a final partial block, the later lanes as zero blocks).
    fn end_msg(&mut self) -> Result<(), Refused> {
        if self.s.offset != 0 {
            let (lane, p) = (self.s.offset / 16, self.s.offset % 16);
            let dec = self.s.mode == MODE_DECRYPT;
            let mut block = ZERO;
            block[..p].copy_from_slice(&self.s.buffer[..p]);
            self.lane(lane, |r| {
                if p == 0 {
                    r.absorb(&ZERO);
                } else if dec {
                    r.crypt::<true>(InOutBuf::from(&mut block[..p]));
                } else {
                    r.crypt::<false>(InOutBuf::from(&mut block[..p]));
                }
            })?;
            for l in lane + 1..V::LANES {
                self.lane(l, |r| r.absorb(&ZERO))?;
            }
            block.zeroize();
            self.s.offset = 0;
        }
        Ok(())
    }

    /// Finishes the stream and returns the tag it computed; the stream is wiped and ended.
    /// `verify` refuses encrypting streams (their tag is for `<P>_stream_finalize`).
    pub(crate) fn finish(&mut self, verify: bool) -> Result<[u8; 16], Refused> {
        let r = self.guarded(|st| {
            if st.s.phase == PHASE_FINAL || (verify && st.s.mode == MODE_ENCRYPT) {
                return Err(Refused);
            }
            match st.s.phase {
                PHASE_AD => st.end_ad()?,
                PHASE_MSG => st.end_msg()?,
                _ => {}
            }
            let (ad_len, msg_len) = (st.s.ad_len as u64, st.s.msg_len as u64);
            Ok(st.raw().ok_or(Refused)?.finalize(ad_len, msg_len))
        });
        self.refuse();
        r
    }
}
