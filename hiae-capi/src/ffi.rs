//! From C arguments to Rust values: NULL and length checks, input/output buffer pairs, panic
//! containment, and the C spelling of every parameter type (for the header check).

use core::ffi::{c_char, c_int};
use core::{ptr, slice};
use std::panic::{self, AssertUnwindSafe};

use hiae::aead::inout::InOutBuf;
use subtle::ConstantTimeEq;

use crate::types::{State, StreamState};

/// What an `int` function returns on success.
pub(crate) const OK: c_int = 0;
/// What an `int` function returns on failure.
pub(crate) const FAIL: c_int = -1;

/// `len` bytes at `p`, or `None` if `p` is NULL while `len` is not 0 (or `len` is over
/// `isize::MAX`). A NULL or dangling `p` with `len == 0` gives an empty slice.
///
/// # Safety
/// If `p` is not NULL and `len` is not 0, `p` must be valid for reads of `len` bytes for `'a`
/// and not be written through another pointer meanwhile.
pub(crate) unsafe fn input<'a>(p: *const u8, len: usize) -> Option<&'a [u8]> {
    if len == 0 {
        return Some(&[]);
    }
    if p.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: `p` is not NULL, and by this function's contract it is valid for reads of `len`
    // (≤ isize::MAX) bytes for 'a with no writes meanwhile; `u8` has alignment 1 and every bit
    // pattern is a valid `u8`.
    Some(unsafe { slice::from_raw_parts(p, len) })
}

/// `len` writable bytes at `p`, or `None` as for [`input`].
///
/// # Safety
/// If `p` is not NULL and `len` is not 0, `p` must be valid for reads and writes of `len`
/// bytes for `'a` and not be accessed through another pointer meanwhile.
pub(crate) unsafe fn output<'a>(p: *mut u8, len: usize) -> Option<&'a mut [u8]> {
    if len == 0 {
        return Some(&mut []);
    }
    if p.is_null() || len > isize::MAX as usize {
        return None;
    }
    // SAFETY: as in `input`, with exclusive access for 'a by this function's contract.
    Some(unsafe { slice::from_raw_parts_mut(p, len) })
}

/// The `K` bytes at `p` (a key, a nonce or a tag), or `None` if `p` is NULL.
///
/// # Safety
/// If `p` is not NULL it must be valid for reads of `K` bytes for `'a` and not be written
/// meanwhile.
pub(crate) unsafe fn array<'a, const K: usize>(p: *const u8) -> Option<&'a [u8; K]> {
    // SAFETY: `input`'s contract is this function's, with `len = K`.
    let s = unsafe { input(p, K) }?;
    s.try_into().ok()
}

/// Zero-fills `len` bytes at `p`; nothing if `p` is NULL.
///
/// # Safety
/// If `p` is not NULL it must be valid for writes of `len` bytes.
pub(crate) unsafe fn wipe(p: *mut u8, len: usize) {
    if !p.is_null() && len != 0 {
        // SAFETY: `p` is not NULL and valid for writes of `len` bytes (this function's
        // contract); `u8` has alignment 1.
        unsafe { ptr::write_bytes(p, 0, len) };
    }
}

/// The input and output of a cipher call as one [`InOutBuf`]: `inp` and `out` may be the same
/// pointer (in place) or disjoint; if they overlap otherwise, the input is first moved to
/// `out` (as `memmove` would) and the call runs in place there. `None` if a pointer is NULL
/// while `len` is not 0.
///
/// # Safety
/// If `len` is not 0: `inp` must be valid for reads and `out` for reads and writes of `len`
/// bytes for `'a`, and neither range may be accessed through other pointers meanwhile. `out`
/// is C memory whose bytes count as initialized `u8`s (every bit pattern is a valid `u8`);
/// the ciphers write each output byte before anything reads it.
pub(crate) unsafe fn inout<'a>(
    inp: *const u8,
    out: *mut u8,
    len: usize,
) -> Option<InOutBuf<'a, 'a, u8>> {
    if len == 0 {
        return Some(InOutBuf::from(&mut [][..]));
    }
    if inp.is_null() || out.is_null() || len > isize::MAX as usize {
        return None;
    }
    let (a, b) = (inp as usize, out as usize);
    // Valid ranges of `len` bytes do not wrap around the address space.
    let overlap = a != b && a < b.wrapping_add(len) && b < a.wrapping_add(len);
    if overlap {
        // SAFETY: both ranges are valid for `len` bytes (contract); `ptr::copy` allows
        // overlapping ranges.
        unsafe { ptr::copy(inp, out, len) };
        // SAFETY: `out` is valid for reads and writes of `len` bytes, exclusively ours for
        // 'a (contract), and now holds the input.
        let buf = unsafe { slice::from_raw_parts_mut(out, len) };
        return Some(InOutBuf::from(buf));
    }
    // SAFETY: the pointers are equal or the ranges disjoint (checked just above), both are
    // valid for `len` bytes and not accessed through other pointers for 'a (contract), and
    // `out`'s bytes are initialized `u8`s (contract).
    Some(unsafe { InOutBuf::from_raw(inp, out, len) })
}

/// The raw state bytes of the `State<N>` at `p`, or `None` if `p` is NULL.
///
/// # Safety
/// If `p` is not NULL it must be valid for reads and writes of `N` bytes for `'a` and not be
/// accessed through other pointers meanwhile (its alignment is 1).
pub(crate) unsafe fn state_mut<'a, const N: usize>(p: *mut State<N>) -> Option<&'a mut [u8]> {
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` is not NULL, valid, exclusively ours for 'a (contract), and `State<N>` has
    // alignment 1; a byte array has no invalid bit patterns.
    Some(unsafe { &mut (&mut *p).opaque[..] })
}

/// The stream state at `p`, or `None` if `p` is NULL or not aligned for the type.
///
/// # Safety
/// If `p` is not NULL and aligned it must be valid for reads and writes of one
/// `StreamState<N, B>` for `'a` and not be accessed through other pointers meanwhile. (Its
/// members are integers and byte arrays, so any bytes C left there form a valid value.)
pub(crate) unsafe fn stream_mut<'a, const N: usize, const B: usize>(
    p: *mut StreamState<N, B>,
) -> Option<&'a mut StreamState<N, B>> {
    if p.is_null() || !p.is_aligned() {
        return None;
    }
    // SAFETY: `p` is not NULL, aligned (checked), valid and exclusively ours for 'a
    // (contract), and every bit pattern is a valid `StreamState`.
    Some(unsafe { &mut *p })
}

/// Whether two tags are equal, in constant time (one 128-bit comparison with `subtle`).
pub(crate) fn tags_equal(a: &[u8; 16], b: &[u8; 16]) -> bool {
    u128::from_le_bytes(*a)
        .ct_eq(&u128::from_le_bytes(*b))
        .into()
}

/// Runs `f`; if it panics, the panic stops here and `on_panic` gives the result, so no
/// unwinding ever reaches C. (`AssertUnwindSafe`: after a panic the only state touched is
/// what `on_panic` resets or wipes.)
pub(crate) fn contain<R>(f: impl FnOnce() -> R, on_panic: impl FnOnce() -> R) -> R {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            // The payload of our panics is a string; forgetting it rules out a panicking
            // destructor here, outside any `catch_unwind`.
            core::mem::forget(payload);
            on_panic()
        }
    }
}

/// `const char *` in a C signature: a pointer to a NUL-terminated string (the same ABI as
/// `*const c_char`; a distinct type because `c_char` is `u8` on some targets).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CStrPtr(pub *const c_char);

/// The C prototype of one exported function, spelled from its Rust declaration; the tests
/// compare these with the headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// The function's symbol name.
    pub name: &'static str,
    /// The C return type (`"void"` for none).
    pub ret: &'static str,
    /// The C parameter types, in order (empty for `(void)`).
    pub params: &'static [&'static str],
}

/// The C spelling of a Rust type used in an exported signature.
pub trait CType {
    /// The type as the headers write it, e.g. `"const uint8_t *"`.
    const C: &'static str;
}

macro_rules! c_types {
    ($($t:ty => $c:literal),* $(,)?) => {
        $(impl CType for $t { const C: &'static str = $c; })*
    };
}

c_types! {
    () => "void",
    c_int => "int",
    usize => "size_t",
    u64 => "uint64_t",
    *const u8 => "const uint8_t *",
    *mut u8 => "uint8_t *",
    CStrPtr => "const char *",
    *mut State<256> => "HiAE_state_t *",
    *mut State<512> => "HiAEx2_state_t *",
    *mut State<1024> => "HiAEx4_state_t *",
    *mut StreamState<256, 16> => "HiAE_stream_state_t *",
    *mut StreamState<512, 16> => "HiAEx2_stream_state_t *",
    *mut StreamState<1024, 64> => "HiAEx4_stream_state_t *",
}
