//! Encryption and decryption with the input and output at every alignment, in place and out
//! of place, on every backend, against the same computation on the reference backend.
//!
//! Two realignments in the loops of lane types wider than a block start at 8 KiB: where input
//! and output both sit 16 bytes past a 32-byte boundary, the lanes are rotated (`skew.rs`:
//! some lanes one block ahead, lone updates before and after the loop); where only the output
//! does, the encryption loop of two-lane 256-bit types stores registers shifted across
//! register boundaries (`realign.rs`: the first chunk as it is, the rest of the last one after
//! the loop). The lengths here reach the loops below and above that length, with and without
//! tails; in place at 16 and 48 bytes past a 64-byte boundary takes the rotation by one and
//! three lanes.

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
    // Below 8 KiB the loops access memory as it is; from there on they realign.
    let lengths = if cfg!(miri) {
        vec![8192 + block + 3]
    } else {
        vec![
            chunk + 1,
            2 * chunk + 3 * block + 5,
            8192,
            8192 + chunk + 1,
            16384 + 2 * chunk - block,
            32768 + 3 * chunk + block + 7,
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
                // Out of place, input and output at the same offset in two buffers.
                let mut arena_ct = Arena::new(len);
                arena_in.at(out_off, len).copy_from_slice(&msg);
                let io = InOutBuf::new(arena_in.at(out_off, len), arena_ct.at(out_off, len));
                let tag = c.encrypt_inout_detached(&n, &ad, io.unwrap()).unwrap();
                assert!(
                    arena_ct.at(out_off, len) == want.as_slice(),
                    "{what}: input at the same offset"
                );
                assert_eq!(tag, want_tag, "{what}: tag, input at the same offset");
                let io = InOutBuf::new(arena_ct.at(out_off, len), arena_pt.at(out_off, len));
                c.decrypt_inout_detached(&n, &ad, io.unwrap(), &tag)
                    .unwrap();
                assert!(
                    arena_pt.at(out_off, len) == msg.as_slice(),
                    "{what}: decryption, input at the same offset"
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

/// The MAC, whole and incremental, and long associated data, at every offset from a 64-byte
/// boundary, below and above 8 KiB (where the absorb loop rotates the lanes for an input 16
/// bytes past a 32-byte boundary), against the reference backend.
fn check_absorb<V: Variant + NewWithBackend>() {
    let block = 16 * V::LANES;
    let lengths = if cfg!(miri) {
        vec![8192 + block]
    } else {
        vec![
            256 * V::LANES + 1,
            8192,
            8192 + 3 * block + 7,
            16384 + 256 * V::LANES - block,
        ]
    };
    let n = NONCE.into();
    let msg = data(100, 5);
    for len in lengths {
        let input = data(len, 3);
        let want_mac = hiae::mac_with_backend::<V>(reference(), &KEY, &NONCE, &input).unwrap();
        let mut want = msg.clone();
        let want_tag = V::with_backend(&KEY, reference())
            .encrypt_inout_detached(&n, &input, want.as_mut_slice().into())
            .unwrap();
        for b in common::backends() {
            let c = V::with_backend(&KEY, b);
            for &off in &OUT_OFFSETS {
                let what = format!("{} on {b}, {len} bytes at 64k + {off}", V::NAME);
                let mut arena = Arena::new(len);
                arena.at(off, len).copy_from_slice(&input);
                let at = arena.at(off, len);
                let got = hiae::mac_with_backend::<V>(b, &KEY, &NONCE, at).unwrap();
                assert_eq!(got, want_mac, "{what}: MAC");
                let mut m = hiae::GenericMac::<V>::new_with_backend(&KEY, &NONCE, b).unwrap();
                hiae::Mac::update(&mut m, &at[..7]);
                hiae::Mac::update(&mut m, &at[7..]);
                let got: [u8; 16] = hiae::Mac::finalize(m).into_bytes().into();
                assert_eq!(got, want_mac, "{what}: incremental MAC");
                let mut ct = msg.clone();
                let tag = c
                    .encrypt_inout_detached(&n, at, ct.as_mut_slice().into())
                    .unwrap();
                assert_eq!(
                    (ct, tag),
                    (want.clone(), want_tag),
                    "{what}: associated data"
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

#[test]
fn absorb_alignment_hiae() {
    check_absorb::<Hiae>();
}

#[test]
fn absorb_alignment_hiaex2() {
    check_absorb::<HiaeX2>();
}

#[test]
fn absorb_alignment_hiaex4() {
    check_absorb::<HiaeX4>();
}
