//! Encryption and decryption with the input and output at every alignment, in place and out
//! of place, on every backend, against the same computation on the reference backend.
//!
//! The encryption loop of lane types wider than a block stores its output realigned to the
//! register width where the output address is a multiple of 16 but not of the width and the
//! message has at least 8 KiB of whole chunks (the first chunk as it is, then registers
//! shifted across register boundaries, the rest of the last one after the loop). The lengths
//! here reach the loop below and above that length, with and without tails.

mod common;

use hiae::aead::inout::InOutBuf;
use hiae::stream::{Encryptor, UnverifiedDecryptor};
use hiae::{Hiae, HiaeX2, HiaeX4, Variant};

use common::{NewWithBackend, data, reference};

const KEY: [u8; 32] = [0x3c; 32];
const NONCE: [u8; 16] = [0x96; 16];

/// A buffer with room for `len` bytes at any offset below 128 from a 64-byte boundary.
struct Arena(Vec<u8>, usize);

impl Arena {
    fn new(len: usize) -> Self {
        let v = vec![0u8; len + 256];
        let skip = v.as_ptr().align_offset(64);
        Arena(v, skip)
    }

    /// `len` bytes at `off` bytes past a 64-byte boundary.
    fn at(&mut self, off: usize, len: usize) -> &mut [u8] {
        let start = self.1 + off;
        &mut self.0[start..start + len]
    }
}

/// The output offsets tried (from a 64-byte boundary): aligned, one, two and three blocks
/// past it, and two that are not multiples of 16.
const OUT_OFFSETS: [usize; 6] = [0, 16, 32, 48, 8, 100];

fn check<V: Variant + NewWithBackend>() {
    let chunk = 256 * V::LANES;
    let block = 16 * V::LANES;
    // Below 8 KiB the loop stores as it is; from there on it realigns.
    let lengths = if cfg!(miri) {
        vec![8192 + block + 3]
    } else {
        vec![
            chunk + 1,
            2 * chunk + 3 * block + 5,
            8192,
            8192 + chunk + 1,
            16384 + 2 * chunk - block,
        ]
    };
    let n = NONCE.into();
    let ad = data(40, 7);
    for len in lengths {
        let msg = data(len, 1);
        let reference = V::with_backend(&KEY, reference());
        let mut want = msg.clone();
        let want_tag = reference
            .encrypt_inout_detached(&n, &ad, want.as_mut_slice().into())
            .unwrap();
        for b in common::backends() {
            let c = V::with_backend(&KEY, b);
            for &out_off in &OUT_OFFSETS {
                let what = format!("{} on {b}, {len} bytes, output at 64k + {out_off}", V::NAME);
                // Out of place: input aligned, output at the offset.
                let mut arena_in = Arena::new(len);
                let mut arena_out = Arena::new(len);
                arena_in.at(0, len).copy_from_slice(&msg);
                let io = InOutBuf::new(arena_in.at(0, len), arena_out.at(out_off, len)).unwrap();
                let tag = c.encrypt_inout_detached(&n, &ad, io).unwrap();
                assert!(
                    arena_out.at(out_off, len) == want.as_slice(),
                    "{what}: ciphertext"
                );
                assert_eq!(tag, want_tag, "{what}: tag");
                let mut arena_pt = Arena::new(len);
                let io = InOutBuf::new(arena_out.at(out_off, len), arena_pt.at(out_off ^ 16, len))
                    .unwrap();
                c.decrypt_inout_detached(&n, &ad, io, &tag).unwrap();
                assert!(
                    arena_pt.at(out_off ^ 16, len) == msg.as_slice(),
                    "{what}: decryption"
                );
                // In place at the offset.
                let mut arena = Arena::new(len);
                arena.at(out_off, len).copy_from_slice(&msg);
                let tag = c
                    .encrypt_inout_detached(&n, &ad, arena.at(out_off, len).into())
                    .unwrap();
                assert!(
                    arena.at(out_off, len) == want.as_slice(),
                    "{what}: in place"
                );
                assert_eq!(tag, want_tag, "{what}: tag in place");
                c.decrypt_inout_detached(&n, &ad, arena.at(out_off, len).into(), &tag)
                    .unwrap();
                assert!(
                    arena.at(out_off, len) == msg.as_slice(),
                    "{what}: decryption in place"
                );
                // Streamed in place, pieces of three chunks and a bit (the general kernel).
                let mut e = Encryptor::new(&c, &n);
                e.update_ad(&ad).unwrap();
                arena.at(out_off, len).copy_from_slice(&msg);
                for piece in arena.at(out_off, len).chunks_mut(3 * chunk + block + 16) {
                    e.encrypt(piece).unwrap();
                }
                assert_eq!(e.finalize(), want_tag, "{what}: streamed tag");
                assert!(
                    arena.at(out_off, len) == want.as_slice(),
                    "{what}: streamed"
                );
                let mut d = UnverifiedDecryptor::new(&c, &n);
                d.update_ad(&ad).unwrap();
                for piece in arena.at(out_off, len).chunks_mut(2 * chunk + 48) {
                    d.decrypt_unverified(piece).unwrap();
                }
                d.verify(&want_tag).unwrap();
                assert!(
                    arena.at(out_off, len) == msg.as_slice(),
                    "{what}: streamed decryption"
                );
            }
        }
    }
}

#[test]
fn alignment_hiae() {
    check::<Hiae>();
}

#[test]
fn alignment_hiaex2() {
    check::<HiaeX2>();
}

#[test]
fn alignment_hiaex4() {
    check::<HiaeX4>();
}
