//! One-shot encryption, decryption and MAC: the `hiae` crate's AEAD and MAC APIs behind C
//! pointers.

use core::ffi::c_int;

use hiae::aead::KeySizeUser;
use hiae::aead::consts::U32;
use hiae::{Backend, Hiae, HiaeX2, HiaeX4, Key, MAX_LEN, Variant};

use crate::ffi::{FAIL, OK, array, inout, input, output, wipe};
use crate::select;

/// A `hiae` cipher type that can be built for a chosen backend.
pub(crate) trait Cipher: Variant + KeySizeUser<KeySize = U32> {
    /// The cipher for `key` on `backend`, or `None` if it cannot run here.
    fn with_backend(key: &Key<Self>, backend: Backend) -> Option<Self>;
}

macro_rules! cipher {
    ($($t:ty),*) => {
        $(impl Cipher for $t {
            fn with_backend(key: &Key<Self>, backend: Backend) -> Option<Self> {
                <$t>::new_with_backend(key, backend).ok()
            }
        })*
    };
}
cipher!(Hiae, HiaeX2, HiaeX4);

/// The cipher for `key` on the backend selected for `V` (it wipes its key copy on drop). The
/// key is passed on by reference: a local copy, wiped byte by byte, then read back as 16-byte
/// blocks, stalled store forwarding and cost about 60 ns per call.
#[inline]
fn cipher<V: Cipher>(key: &[u8; 32]) -> Option<V> {
    V::with_backend(key.into(), select::backend::<V>())
}

/// `<P>_encrypt`. On any failure `ct` (where writable) and `tag` are zero-filled.
///
/// # Safety
/// Every non-NULL pointer must be valid for its length (`key` 32, `nonce` 16, `tag` 16 bytes,
/// `msg`/`ct` `msg_len`, `ad` `ad_len`); `ct` equals `msg` or does not overlap it, and no
/// output overlaps another argument.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn encrypt<V: Cipher>(
    key: *const u8,
    nonce: *const u8,
    msg: *const u8,
    ct: *mut u8,
    msg_len: usize,
    ad: *const u8,
    ad_len: usize,
    tag: *mut u8,
) -> c_int {
    // SAFETY: the pointer contracts of `array`, `input`, `output` and `inout` are this
    // function's (see `# Safety`).
    let args = unsafe {
        (
            array::<32>(key),
            array::<16>(nonce),
            input(ad, ad_len),
            output(tag, 16),
            inout(msg, ct, msg_len),
        )
    };
    let result = match args {
        (Some(key), Some(nonce), Some(ad), Some(tag), Some(buf)) => cipher::<V>(key)
            .ok_or(())
            .and_then(|c| {
                c.encrypt_inout_detached(&(*nonce).into(), ad, buf)
                    .map_err(|_| ())
            })
            .map(|t| tag.copy_from_slice(&t)),
        _ => Err(()),
    };
    match result {
        Ok(()) => OK,
        Err(()) => {
            // SAFETY: `ct` and `tag`, where not NULL, are valid for writes of `msg_len` and 16
            // bytes (contract); the borrows made above have ended.
            unsafe {
                wipe(ct, msg_len);
                wipe(tag, 16);
            }
            FAIL
        }
    }
}

/// `<P>_decrypt`. On a wrong tag or any other failure `msg` (where writable) is zero-filled.
///
/// # Safety
/// As [`encrypt`], with `msg`/`ct` of `ct_len` bytes and `tag` read.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn decrypt<V: Cipher>(
    key: *const u8,
    nonce: *const u8,
    msg: *mut u8,
    ct: *const u8,
    ct_len: usize,
    ad: *const u8,
    ad_len: usize,
    tag: *const u8,
) -> c_int {
    // SAFETY: as in `encrypt`.
    let args = unsafe {
        (
            array::<32>(key),
            array::<16>(nonce),
            input(ad, ad_len),
            array::<16>(tag),
            inout(ct, msg, ct_len),
        )
    };
    let ok = match args {
        (Some(key), Some(nonce), Some(ad), Some(tag), Some(buf)) => {
            cipher::<V>(key).is_some_and(|c| {
                c.decrypt_inout_detached(&(*nonce).into(), ad, buf, &(*tag).into())
                    .is_ok()
            })
        }
        _ => false,
    };
    if ok {
        OK
    } else {
        // SAFETY: `msg`, where not NULL, is valid for writes of `ct_len` bytes (contract); the
        // borrows made above have ended.
        unsafe { wipe(msg, ct_len) };
        FAIL
    }
}

/// `<P>_mac`. On failure `tag` is zero-filled.
///
/// # Safety
/// Every non-NULL pointer must be valid for its length (`key` 32, `nonce` 16, `tag` 16,
/// `data` `data_len` bytes); `tag` does not overlap the others.
pub(crate) unsafe fn mac<V: Variant>(
    key: *const u8,
    nonce: *const u8,
    data: *const u8,
    data_len: usize,
    tag: *mut u8,
) -> c_int {
    // SAFETY: the contracts of `array`, `input` and `output` are this function's.
    let args = unsafe {
        (
            array::<32>(key),
            array::<16>(nonce),
            input(data, data_len),
            output(tag, 16),
        )
    };
    let result = match args {
        (Some(key), Some(nonce), Some(data), Some(out)) if data.len() as u64 <= MAX_LEN => {
            hiae::mac_with_backend::<V>(select::backend::<V>(), key, nonce, data)
                .map(|t| out.copy_from_slice(&t))
                .map_err(|_| ())
        }
        _ => Err(()),
    };
    match result {
        Ok(()) => OK,
        Err(()) => {
            // SAFETY: `tag`, where not NULL, is valid for writes of 16 bytes (contract); the
            // borrows made above have ended.
            unsafe { wipe(tag, 16) };
            FAIL
        }
    }
}
