//! The block API (`<P>_init`, `_absorb`, `_enc`, `_dec`, `_enc/dec_partial_noupdate`,
//! `_finalize`, `_finalize_mac`) over the raw state in caller memory.

use hiae::Variant;
use zeroize::Zeroize;

use crate::ffi::{array, inout, input, output, wipe};
use crate::raw::Raw;
use crate::select;

/// The raw state of `V` in `bytes` (`None` if `bytes` is NULL, or not the size of `V`'s
/// state, which the exported functions rule out by their types).
fn raw<V: Variant>(bytes: Option<&mut [u8]>) -> Option<Raw<'_, V>> {
    Raw::new(bytes?, select::backend::<V>())
}

/// `<P>_init`. With a NULL key or nonce the state is filled with random bytes from the
/// operating system (nothing derived from it can be predicted); if the system has none to
/// give, the process aborts rather than leave a predictable state behind.
///
/// # Safety
/// `key` and `nonce`, if not NULL, must be valid for reads of 32 and 16 bytes.
pub(crate) unsafe fn init<V: Variant>(state: Option<&mut [u8]>, key: *const u8, nonce: *const u8) {
    let Some(state) = state else { return };
    // SAFETY: the contract of `array` is this function's.
    let (key, nonce) = unsafe { (array::<32>(key), array::<16>(nonce)) };
    match (key, nonce) {
        (Some(key), Some(nonce)) => {
            // Dropping the state writes it to `state`.
            drop(Raw::<V>::init(state, select::backend::<V>(), key, nonce));
        }
        _ => {
            if getrandom::fill(state).is_err() {
                std::process::abort();
            }
        }
    }
}

/// `<P>_absorb`; invalid arguments leave the state unchanged.
///
/// # Safety
/// `ad`, if not NULL, must be valid for reads of `len` bytes.
pub(crate) unsafe fn absorb<V: Variant>(state: Option<&mut [u8]>, ad: *const u8, len: usize) {
    // SAFETY: the contract of `input` is this function's.
    let ad = unsafe { input(ad, len) };
    if let (Some(mut r), Some(ad)) = (raw::<V>(state), ad) {
        r.absorb(ad);
    }
}

/// `<P>_enc` (`DEC = false`) and `<P>_dec`: `out` from `inp`; invalid arguments leave the
/// state unchanged and zero-fill `out`.
///
/// # Safety
/// `inp` and `out`, if not NULL, must be valid for `len` bytes, the same pointer or disjoint.
pub(crate) unsafe fn crypt<V: Variant, const DEC: bool>(
    state: Option<&mut [u8]>,
    out: *mut u8,
    inp: *const u8,
    len: usize,
) {
    // SAFETY: the contract of `inout` is this function's.
    let buf = unsafe { inout(inp, out, len) };
    match (raw::<V>(state), buf) {
        (Some(mut r), Some(buf)) => r.crypt::<DEC>(buf),
        _ => {
            // SAFETY: `out`, if not NULL, is valid for writes of `len` bytes (contract); the
            // buffer borrow made above was not created or has ended.
            unsafe { wipe(out, len) }
        }
    }
}

/// `<P>_enc_partial_noupdate` and `<P>_dec_partial_noupdate` (the same operation: XOR with
/// the next keystream block, state unchanged). `len` must be below the block size
/// (`16 × lanes`); otherwise, or on other invalid arguments, `out` is zero-filled.
///
/// # Safety
/// As [`crypt`].
pub(crate) unsafe fn partial_noupdate<V: Variant>(
    state: Option<&mut [u8]>,
    out: *mut u8,
    inp: *const u8,
    len: usize,
) {
    let fits = len < V::BLOCK_SIZE;
    // SAFETY: the contract of `inout` is this function's.
    let buf = unsafe { inout(inp, out, len) };
    match (raw::<V>(state), buf) {
        (Some(mut r), Some(mut buf)) if fits => {
            let mut ks = r.keystream();
            let x: &mut [u8] = &mut ks[..len];
            for (k, &i) in x.iter_mut().zip(buf.get_in()) {
                *k ^= i;
            }
            buf.get_out().copy_from_slice(x);
            ks.zeroize();
        }
        _ => {
            // SAFETY: as in `crypt`.
            unsafe { wipe(out, len) }
        }
    }
}

/// `<P>_finalize` (`MAC = false`, lengths `ad_len`, `msg_len`) and `<P>_finalize_mac`
/// (`MAC = true`, `ad_len` is the data length): writes the tag, or zeros if the state is NULL.
///
/// # Safety
/// `tag`, if not NULL, must be valid for writes of 16 bytes.
pub(crate) unsafe fn finalize<V: Variant, const MAC: bool>(
    state: Option<&mut [u8]>,
    ad_len: u64,
    msg_len: u64,
    tag: *mut u8,
) {
    // SAFETY: the contract of `output` is this function's.
    let Some(out) = (unsafe { output(tag, 16) }) else {
        return;
    };
    match raw::<V>(state) {
        Some(mut r) if MAC => out.copy_from_slice(&r.finalize_mac(ad_len)),
        Some(mut r) => out.copy_from_slice(&r.finalize(ad_len, msg_len)),
        None => out.fill(0),
    }
}
