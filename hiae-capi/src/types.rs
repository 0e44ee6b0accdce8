//! The public C types of `HiAE.h`, `HiAEx2.h` and `HiAEx4.h`, laid out as the headers declare
//! them (`#[repr(C)]`, same members in the same order).

#![allow(non_camel_case_types, non_upper_case_globals)]

use core::ffi::c_uint;

/// A raw cipher state of `N` bytes (`opaque`): sixteen blocks of `N / 256` lanes × 16 bytes.
/// Alignment 1, as in C: it may sit at any address.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct State<const N: usize> {
    /// Block `i`, lane `l` at bytes `16 · (i · lanes + l) ..` (canonical order, no rotation
    /// pending between calls).
    pub opaque: [u8; N],
}

/// `HiAE_state_t`: 256 bytes.
pub type HiAE_state_t = State<256>;
/// `HiAEx2_state_t`: 512 bytes.
pub type HiAEx2_state_t = State<512>;
/// `HiAEx4_state_t`: 1024 bytes.
pub type HiAEx4_state_t = State<1024>;

/// A streaming state: the raw state, a partial-block buffer of `B` bytes, the position in the
/// current block, the total lengths, and the phase and direction (C enums, read as `c_uint`:
/// a value C code stored there is never trusted to be in range).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct StreamState<const N: usize, const B: usize> {
    /// The raw cipher state.
    pub state: State<N>,
    /// The data of the current lane's unfinished 16-byte block (its first `offset % 16` bytes).
    pub buffer: [u8; B],
    /// Bytes of the current `16 × lanes`-byte block already taken in.
    pub offset: usize,
    /// Associated data absorbed so far, in bytes.
    pub ad_len: usize,
    /// Message bytes encrypted or decrypted so far.
    pub msg_len: usize,
    /// One of the `*_STREAM_INIT` … `*_STREAM_FINAL` values.
    pub phase: c_uint,
    /// One of the `*_STREAM_MODE_*` values.
    pub mode: c_uint,
}

/// `HiAE_stream_state_t`.
pub type HiAE_stream_state_t = StreamState<256, 16>;
/// `HiAEx2_stream_state_t` (its buffer holds one lane's 16 bytes, as libhiae declares it).
pub type HiAEx2_stream_state_t = StreamState<512, 16>;
/// `HiAEx4_stream_state_t`.
pub type HiAEx4_stream_state_t = StreamState<1024, 64>;

/// `HiAE_stream_phase_t` (a C enum: `unsigned int` on the supported ABIs).
pub type HiAE_stream_phase_t = c_uint;
/// `HiAEx2_stream_phase_t`.
pub type HiAEx2_stream_phase_t = c_uint;
/// `HiAEx4_stream_phase_t`.
pub type HiAEx4_stream_phase_t = c_uint;
/// `HiAE_stream_mode_t`.
pub type HiAE_stream_mode_t = c_uint;
/// `HiAEx2_stream_mode_t`.
pub type HiAEx2_stream_mode_t = c_uint;
/// `HiAEx4_stream_mode_t`.
pub type HiAEx4_stream_mode_t = c_uint;

/// Phase: after `stream_init`.
pub const PHASE_INIT: c_uint = 0;
/// Phase: absorbing associated data.
pub const PHASE_AD: c_uint = 1;
/// Phase: encrypting or decrypting.
pub const PHASE_MSG: c_uint = 2;
/// Phase: finished, or refused after a misuse.
pub const PHASE_FINAL: c_uint = 3;
/// Mode: no message byte yet.
pub const MODE_NONE: c_uint = 0;
/// Mode: encrypting.
pub const MODE_ENCRYPT: c_uint = 1;
/// Mode: decrypting.
pub const MODE_DECRYPT: c_uint = 2;

macro_rules! enum_values {
    ($($name:ident = $value:ident),* $(,)?) => {
        $(
            #[doc = concat!("`", stringify!($name), "` (= [`", stringify!($value), "`]).")]
            pub const $name: c_uint = $value;
        )*
    };
}

enum_values! {
    HIAE_STREAM_INIT = PHASE_INIT,
    HIAE_STREAM_AD = PHASE_AD,
    HIAE_STREAM_MSG = PHASE_MSG,
    HIAE_STREAM_FINAL = PHASE_FINAL,
    HIAE_STREAM_MODE_NONE = MODE_NONE,
    HIAE_STREAM_MODE_ENCRYPT = MODE_ENCRYPT,
    HIAE_STREAM_MODE_DECRYPT = MODE_DECRYPT,
    HiAEx2_STREAM_INIT = PHASE_INIT,
    HiAEx2_STREAM_AD = PHASE_AD,
    HiAEx2_STREAM_MSG = PHASE_MSG,
    HiAEx2_STREAM_FINAL = PHASE_FINAL,
    HiAEx2_STREAM_MODE_NONE = MODE_NONE,
    HiAEx2_STREAM_MODE_ENCRYPT = MODE_ENCRYPT,
    HiAEx2_STREAM_MODE_DECRYPT = MODE_DECRYPT,
    HiAEx4_STREAM_INIT = PHASE_INIT,
    HiAEx4_STREAM_AD = PHASE_AD,
    HiAEx4_STREAM_MSG = PHASE_MSG,
    HiAEx4_STREAM_FINAL = PHASE_FINAL,
    HiAEx4_STREAM_MODE_NONE = MODE_NONE,
    HiAEx4_STREAM_MODE_ENCRYPT = MODE_ENCRYPT,
    HiAEx4_STREAM_MODE_DECRYPT = MODE_DECRYPT,
}

/// Key length in bytes (`HIAE_KEYBYTES`, `HIAEX2_KEYBYTES`, `HIAEX4_KEYBYTES`).
pub const KEYBYTES: usize = 32;
/// Nonce length in bytes (`*_NONCEBYTES`).
pub const NONCEBYTES: usize = 16;
/// Tag length in bytes (`*_MACBYTES`).
pub const MACBYTES: usize = 16;

#[cfg(test)]
mod tests {
    use super::*;
    use core::mem::{align_of, offset_of, size_of};

    /// The sizes, alignments and member offsets the headers promise.
    fn check<const N: usize, const B: usize>(size64: usize, size32: usize) {
        assert_eq!(size_of::<State<N>>(), N);
        assert_eq!(align_of::<State<N>>(), 1);
        let w = size_of::<usize>();
        assert_eq!(offset_of!(StreamState<N, B>, state), 0);
        assert_eq!(offset_of!(StreamState<N, B>, buffer), N);
        assert_eq!(offset_of!(StreamState<N, B>, offset), N + B);
        assert_eq!(offset_of!(StreamState<N, B>, ad_len), N + B + w);
        assert_eq!(offset_of!(StreamState<N, B>, msg_len), N + B + 2 * w);
        assert_eq!(offset_of!(StreamState<N, B>, phase), N + B + 3 * w);
        assert_eq!(offset_of!(StreamState<N, B>, mode), N + B + 3 * w + 4);
        assert_eq!(align_of::<StreamState<N, B>>(), w);
        let expect = if w == 8 { size64 } else { size32 };
        assert_eq!(size_of::<StreamState<N, B>>(), expect);
    }

    #[test]
    fn layouts_match_the_headers() {
        check::<256, 16>(304, 292);
        check::<512, 16>(560, 548);
        check::<1024, 64>(1120, 1108);
        assert_eq!(size_of::<HiAE_stream_phase_t>(), 4);
    }
}
