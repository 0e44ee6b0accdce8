//! What the `abi` bench and the `abi_cost` example share: the key and nonce, the exported
//! functions' types, and the in-place C call.
#![allow(dead_code)]

use std::hint::black_box;

pub const KEY: [u8; 32] = [0x42; 32];
pub const NONCE: [u8; 16] = [0x24; 16];

/// `<P>_encrypt`'s type.
pub type EncryptFn = unsafe extern "C" fn(
    *const u8,
    *const u8,
    *const u8,
    *mut u8,
    usize,
    *const u8,
    usize,
    *mut u8,
) -> i32;
/// `<P>_decrypt`'s type.
pub type DecryptFn = unsafe extern "C" fn(
    *const u8,
    *const u8,
    *mut u8,
    *const u8,
    usize,
    *const u8,
    usize,
    *const u8,
) -> i32;

/// Encrypts `buf` in place through `f` with [`KEY`], [`NONCE`] and empty associated data, as
/// a C program calls the library (the buffer pointer hidden from the optimizer); returns the
/// status and the tag.
#[inline(always)]
pub fn c_encrypt_in_place(f: EncryptFn, buf: &mut [u8]) -> (i32, [u8; 16]) {
    let mut tag = [0u8; 16];
    let p = black_box(buf.as_mut_ptr());
    // SAFETY: key 32, nonce 16 and tag 16 bytes; `p` valid for `buf.len()` bytes, in place;
    // empty associated data.
    let r = unsafe {
        f(
            KEY.as_ptr(),
            NONCE.as_ptr(),
            p,
            p,
            buf.len(),
            core::ptr::null(),
            0,
            tag.as_mut_ptr(),
        )
    };
    (r, tag)
}
