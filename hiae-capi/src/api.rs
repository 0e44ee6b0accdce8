//! The exported C functions. One definition, instantiated for HiAE, HiAEx2 and HiAEx4 with
//! each variant's names; every function's C prototype is recorded from its Rust parameter
//! types (see [`Signature`](crate::Signature)), so the tests can hold the headers to the code.
//!
//! Every body runs inside [`contain`]: a panic (none is expected: lengths are checked before
//! any slicing) stops at the boundary, wipes the outputs and, for a stream, ends it.

use core::ffi::{CStr, c_int};

use crate::ffi::{
    CStrPtr, FAIL, OK, Signature, array, contain, inout, input, output, state_mut, stream_mut,
    tags_equal, wipe,
};
use crate::stream::{self, Stream};
use crate::types::{State, StreamState};
use crate::{block, oneshot, select};

/// The C spelling of a return type (`void` when there is none).
macro_rules! ret_c {
    () => {
        "void"
    };
    ($t:ty) => {
        <$t as $crate::ffi::CType>::C
    };
}

/// Defines `extern "C"` functions and the list of their C prototypes (`$sigs`).
macro_rules! exports {
    ($sigs:ident; $(
        $(#[$m:meta])*
        fn $name:ident($($a:ident: $t:ty),* $(,)?) $(-> $r:ty)? $body:block
    )*) => {
        $(
            $(#[$m])*
            ///
            /// # Safety
            /// Each pointer must be NULL or valid for the number of bytes the header gives
            /// it; a state pointer must point to a state of this variant that no other
            /// thread uses during the call.
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn $name($($a: $t),*) $(-> $r)? $body
        )*

        /// The C prototypes of this variant's exported functions, from their Rust types.
        pub(crate) const $sigs: &[Signature] = &[$(
            Signature {
                name: stringify!($name),
                ret: ret_c!($($r)?),
                params: &[$(<$t as $crate::ffi::CType>::C),*],
            }
        ),*];
    };
}

/// The functions of one variant: `$V` the `hiae` cipher type, `$n` the state size, `$b` the
/// stream buffer size, `$h` the header, then the function names in the header's order.
macro_rules! variant {
    (
        $sigs:ident, $V:ty, $n:literal, $b:literal, $h:literal;
        $encrypt:ident, $decrypt:ident, $mac:ident,
        $init_library:ident, $get_name:ident, $force:ident, $verify_tag:ident,
        $s_init:ident, $s_absorb:ident, $s_encrypt:ident, $s_decrypt:ident,
        $s_finalize:ident, $s_verify:ident,
        $init:ident, $absorb:ident, $finalize:ident,
        $enc:ident, $dec:ident, $enc_p:ident, $dec_p:ident
        $(; mac: $finalize_mac:ident)?
    ) => {
        exports! { $sigs;
            #[doc = concat!("One-shot encryption (`", $h, "`).")]
            #[allow(clippy::too_many_arguments)]
            fn $encrypt(
                key: *const u8, nonce: *const u8, msg: *const u8, ct: *mut u8, msg_len: usize,
                ad: *const u8, ad_len: usize, tag: *mut u8,
            ) -> c_int {
                contain(
                    // SAFETY: the pointer contract of `oneshot::encrypt` is this function's.
                    || unsafe { oneshot::encrypt::<$V>(key, nonce, msg, ct, msg_len, ad, ad_len, tag) },
                    || {
                        // SAFETY: `ct` and `tag`, where not NULL, are writable (contract).
                        unsafe { wipe(ct, msg_len); wipe(tag, 16) };
                        FAIL
                    },
                )
            }

            #[doc = concat!("One-shot decryption; zero-fills `msg` unless the tag verifies (`", $h, "`).")]
            #[allow(clippy::too_many_arguments)]
            fn $decrypt(
                key: *const u8, nonce: *const u8, msg: *mut u8, ct: *const u8, ct_len: usize,
                ad: *const u8, ad_len: usize, tag: *const u8,
            ) -> c_int {
                contain(
                    // SAFETY: the pointer contract of `oneshot::decrypt` is this function's.
                    || unsafe { oneshot::decrypt::<$V>(key, nonce, msg, ct, ct_len, ad, ad_len, tag) },
                    || {
                        // SAFETY: `msg`, where not NULL, is writable for `ct_len` bytes.
                        unsafe { wipe(msg, ct_len) };
                        FAIL
                    },
                )
            }

            #[doc = concat!("MAC of `data` (`", $h, "`).")]
            fn $mac(
                key: *const u8, nonce: *const u8, data: *const u8, data_len: usize, tag: *mut u8,
            ) -> c_int {
                contain(
                    // SAFETY: the pointer contract of `oneshot::mac` is this function's.
                    || unsafe { oneshot::mac::<$V>(key, nonce, data, data_len, tag) },
                    || {
                        // SAFETY: `tag`, where not NULL, is writable for 16 bytes.
                        unsafe { wipe(tag, 16) };
                        FAIL
                    },
                )
            }

            #[doc = concat!("Detects the CPU's features; returns 0 (`", $h, "`).")]
            fn $init_library() -> c_int {
                contain(|| { let _ = select::backend::<$V>(); OK }, || FAIL)
            }

            #[doc = concat!("The name of the implementation in use, a static C string (`", $h, "`).")]
            fn $get_name() -> CStrPtr {
                contain(
                    || CStrPtr(select::c_name(select::backend::<$V>()).as_ptr()),
                    || CStrPtr(c"Portable".as_ptr()),
                )
            }

            #[doc = concat!("Forces an implementation by name; NULL restores automatic selection (`", $h, "`).")]
            fn $force(impl_name: CStrPtr) -> c_int {
                contain(
                    || {
                        let name = if impl_name.0.is_null() {
                            None
                        } else {
                            // SAFETY: a non-NULL `impl_name` points to a NUL-terminated
                            // string (contract) that is not modified during the call.
                            match unsafe { CStr::from_ptr(impl_name.0) }.to_str() {
                                Ok(s) => Some(s),
                                Err(_) => return FAIL,
                            }
                        };
                        if select::force::<$V>(name).is_ok() { OK } else { FAIL }
                    },
                    || FAIL,
                )
            }

            #[doc = concat!("Compares two 16-byte tags in constant time (`", $h, "`).")]
            fn $verify_tag(expected_tag: *const u8, actual_tag: *const u8) -> c_int {
                contain(
                    || {
                        // SAFETY: non-NULL tags are readable for 16 bytes (contract).
                        let tags = unsafe { (array::<16>(expected_tag), array::<16>(actual_tag)) };
                        match tags {
                            (Some(a), Some(b)) if tags_equal(a, b) => OK,
                            _ => FAIL,
                        }
                    },
                    || FAIL,
                )
            }

            #[doc = concat!("Starts a stream (`", $h, "`).")]
            fn $s_init(stream: *mut StreamState<$n, $b>, key: *const u8, nonce: *const u8) {
                contain(
                    || {
                        // SAFETY: `stream` (if not NULL and aligned), `key` and `nonce` are
                        // valid for their sizes and `stream` is ours for the call (contract).
                        let (s, key, nonce) = unsafe { (stream_mut(stream), array::<32>(key), array::<16>(nonce)) };
                        if let Some(s) = s {
                            Stream::<$V, $n, $b>::init(s, key, nonce);
                        }
                    },
                    // SAFETY: as above.
                    || unsafe { end_stream(stream) },
                )
            }

            #[doc = concat!("Absorbs associated data into a stream (`", $h, "`).")]
            fn $s_absorb(stream: *mut StreamState<$n, $b>, ad: *const u8, ad_len: usize) {
                contain(
                    || {
                        // SAFETY: as in the stream init function; `ad` is readable for `ad_len`.
                        let (s, ad) = unsafe { (stream_mut(stream), input(ad, ad_len)) };
                        if let Some(mut st) = s.and_then(|s| Stream::<$V, $n, $b>::resume(s).ok()) {
                            let _refused = st.absorb(ad);
                        }
                    },
                    // SAFETY: as above.
                    || unsafe { end_stream(stream) },
                )
            }

            #[doc = concat!("Encrypts the next piece of a stream (`", $h, "`).")]
            fn $s_encrypt(stream: *mut StreamState<$n, $b>, ct: *mut u8, pt: *const u8, len: usize) {
                // SAFETY: the contract of `stream_crypt` is this function's.
                unsafe { stream_crypt::<$V, $n, $b, false>(stream, ct, pt, len) }
            }

            #[doc = concat!("Decrypts the next piece of a stream; the output is UNVERIFIED (`", $h, "`).")]
            fn $s_decrypt(stream: *mut StreamState<$n, $b>, pt: *mut u8, ct: *const u8, len: usize) {
                // SAFETY: the contract of `stream_crypt` is this function's.
                unsafe { stream_crypt::<$V, $n, $b, true>(stream, pt, ct, len) }
            }

            #[doc = concat!("Finishes a stream and writes its tag (`", $h, "`).")]
            fn $s_finalize(stream: *mut StreamState<$n, $b>, tag: *mut u8) {
                contain(
                    || {
                        // SAFETY: as in the stream init function; `tag` is writable for 16.
                        let (s, out) = unsafe { (stream_mut(stream), output(tag, 16)) };
                        let t = s
                            .and_then(|s| Stream::<$V, $n, $b>::resume(s).ok())
                            .and_then(|mut st| st.finish(false).ok())
                            .unwrap_or([0; 16]);
                        if let Some(out) = out {
                            out.copy_from_slice(&t);
                        }
                    },
                    || {
                        // SAFETY: as above.
                        unsafe { end_stream(stream); wipe(tag, 16) }
                    },
                )
            }

            #[doc = concat!("Finishes a decrypting stream and checks its tag (`", $h, "`).")]
            fn $s_verify(stream: *mut StreamState<$n, $b>, expected_tag: *const u8) -> c_int {
                contain(
                    || {
                        // SAFETY: as in the stream init function; the tag is readable for 16.
                        let (s, expected) = unsafe { (stream_mut(stream), array::<16>(expected_tag)) };
                        let t = s
                            .and_then(|s| Stream::<$V, $n, $b>::resume(s).ok())
                            .and_then(|mut st| st.finish(true).ok());
                        match (t, expected) {
                            (Some(t), Some(e)) if tags_equal(&t, e) => OK,
                            _ => FAIL,
                        }
                    },
                    || {
                        // SAFETY: as above.
                        unsafe { end_stream(stream) };
                        FAIL
                    },
                )
            }

            #[doc = concat!("Block API: `Init(key, nonce)` (`", $h, "`).")]
            fn $init(state: *mut State<$n>, key: *const u8, nonce: *const u8) {
                // SAFETY: `state`, `key`, `nonce` are NULL or valid for their sizes (contract).
                contain(|| unsafe { block::init::<$V>(state_mut(state), key, nonce) }, || ())
            }

            #[doc = concat!("Block API: absorbs associated data (`", $h, "`).")]
            fn $absorb(state: *mut State<$n>, ad: *const u8, len: usize) {
                // SAFETY: `state` and `ad` are NULL or valid for their sizes (contract).
                contain(|| unsafe { block::absorb::<$V>(state_mut(state), ad, len) }, || ())
            }

            #[doc = concat!("Block API: AEAD finalization, lengths in bytes (`", $h, "`).")]
            fn $finalize(state: *mut State<$n>, ad_len: u64, msg_len: u64, tag: *mut u8) {
                contain(
                    // SAFETY: `state` and `tag` are NULL or valid for their sizes (contract).
                    || unsafe { block::finalize::<$V, false>(state_mut(state), ad_len, msg_len, tag) },
                    // SAFETY: as above.
                    || unsafe { wipe(tag, 16) },
                )
            }

            $(
            #[doc = concat!("Block API: MAC finalization (`", $h, "`).")]
            fn $finalize_mac(state: *mut State<$n>, data_len: u64, tag: *mut u8) {
                contain(
                    // SAFETY: `state` and `tag` are NULL or valid for their sizes (contract).
                    || unsafe { block::finalize::<$V, true>(state_mut(state), data_len, 0, tag) },
                    // SAFETY: as above.
                    || unsafe { wipe(tag, 16) },
                )
            }
            )?

            #[doc = concat!("Block API: encrypts message blocks (`", $h, "`).")]
            fn $enc(state: *mut State<$n>, ci: *mut u8, mi: *const u8, size: usize) {
                contain(
                    // SAFETY: the pointers are NULL or valid for their sizes (contract).
                    || unsafe { block::crypt::<$V, false>(state_mut(state), ci, mi, size) },
                    // SAFETY: as above.
                    || unsafe { wipe(ci, size) },
                )
            }

            #[doc = concat!("Block API: decrypts message blocks (`", $h, "`).")]
            fn $dec(state: *mut State<$n>, mi: *mut u8, ci: *const u8, size: usize) {
                contain(
                    // SAFETY: the pointers are NULL or valid for their sizes (contract).
                    || unsafe { block::crypt::<$V, true>(state_mut(state), mi, ci, size) },
                    // SAFETY: as above.
                    || unsafe { wipe(mi, size) },
                )
            }

            #[doc = concat!("Block API: encrypts a partial block without updating the state (`", $h, "`).")]
            fn $enc_p(state: *mut State<$n>, ci: *mut u8, mi: *const u8, size: usize) {
                contain(
                    // SAFETY: the pointers are NULL or valid for their sizes (contract).
                    || unsafe { block::partial_noupdate::<$V>(state_mut(state), ci, mi, size) },
                    // SAFETY: as above.
                    || unsafe { wipe(ci, size) },
                )
            }

            #[doc = concat!("Block API: decrypts a partial block without updating the state (`", $h, "`).")]
            fn $dec_p(state: *mut State<$n>, mi: *mut u8, ci: *const u8, size: usize) {
                contain(
                    // SAFETY: the pointers are NULL or valid for their sizes (contract).
                    || unsafe { block::partial_noupdate::<$V>(state_mut(state), mi, ci, size) },
                    // SAFETY: as above.
                    || unsafe { wipe(mi, size) },
                )
            }
        }
    };
}

/// Ends (wipes) the stream at `p`, if there is one; used after a contained panic.
///
/// # Safety
/// As [`stream_mut`].
unsafe fn end_stream<const N: usize, const B: usize>(p: *mut StreamState<N, B>) {
    // SAFETY: this function's contract is `stream_mut`'s.
    if let Some(s) = unsafe { stream_mut(p) } {
        stream::end(s);
    }
}

/// `<P>_stream_encrypt` (`DEC = false`) and `<P>_stream_decrypt`: a refused call zero-fills
/// `out`.
///
/// # Safety
/// `stream` as [`stream_mut`]; `inp` and `out` NULL or valid for `len` bytes, equal or
/// disjoint, not overlapping the stream.
unsafe fn stream_crypt<V: hiae::Variant, const N: usize, const B: usize, const DEC: bool>(
    stream: *mut StreamState<N, B>,
    out: *mut u8,
    inp: *const u8,
    len: usize,
) {
    contain(
        || {
            // SAFETY: this function's contract covers `stream_mut`'s and `inout`'s.
            let s = unsafe { stream_mut(stream) };
            let ok = match s.and_then(|s| Stream::<V, N, B>::resume(s).ok()) {
                // SAFETY: as above.
                Some(mut st) => st.crypt::<DEC>(unsafe { inout(inp, out, len) }).is_ok(),
                None => false,
            };
            if !ok {
                // SAFETY: `out`, where not NULL, is writable for `len` bytes; the borrows made
                // above have ended.
                unsafe { wipe(out, len) };
            }
        },
        || {
            // SAFETY: as above.
            unsafe {
                end_stream(stream);
                wipe(out, len);
            }
        },
    );
}

variant! {
    HIAE_SIGNATURES, hiae::Hiae, 256, 16, "HiAE.h";
    HiAE_encrypt, HiAE_decrypt, HiAE_mac,
    HiAE_init_library, HiAE_get_implementation_name, HiAE_force_implementation, HiAE_verify_tag,
    HiAE_stream_init, HiAE_stream_absorb, HiAE_stream_encrypt, HiAE_stream_decrypt,
    HiAE_stream_finalize, HiAE_stream_verify,
    HiAE_init, HiAE_absorb, HiAE_finalize,
    HiAE_enc, HiAE_dec, HiAE_enc_partial_noupdate, HiAE_dec_partial_noupdate
}

variant! {
    HIAEX2_SIGNATURES, hiae::HiaeX2, 512, 16, "HiAEx2.h";
    HiAEx2_encrypt, HiAEx2_decrypt, HiAEx2_mac,
    HiAEx2_init_library, HiAEx2_get_implementation_name, HiAEx2_force_implementation,
    HiAEx2_verify_tag,
    HiAEx2_stream_init, HiAEx2_stream_absorb, HiAEx2_stream_encrypt, HiAEx2_stream_decrypt,
    HiAEx2_stream_finalize, HiAEx2_stream_verify,
    HiAEx2_init, HiAEx2_absorb, HiAEx2_finalize,
    HiAEx2_enc, HiAEx2_dec, HiAEx2_enc_partial_noupdate, HiAEx2_dec_partial_noupdate;
    mac: HiAEx2_finalize_mac
}

variant! {
    HIAEX4_SIGNATURES, hiae::HiaeX4, 1024, 64, "HiAEx4.h";
    HiAEx4_encrypt, HiAEx4_decrypt, HiAEx4_mac,
    HiAEx4_init_library, HiAEx4_get_implementation_name, HiAEx4_force_implementation,
    HiAEx4_verify_tag,
    HiAEx4_stream_init, HiAEx4_stream_absorb, HiAEx4_stream_encrypt, HiAEx4_stream_decrypt,
    HiAEx4_stream_finalize, HiAEx4_stream_verify,
    HiAEx4_init, HiAEx4_absorb, HiAEx4_finalize,
    HiAEx4_enc, HiAEx4_dec, HiAEx4_enc_partial_noupdate, HiAEx4_dec_partial_noupdate;
    mac: HiAEx4_finalize_mac
}
