//! The bulk loops of every backend against another backend's, at lengths that reach them.
//!
//! Each lane type runs its own loop forms (the deferred-XOR encryption and absorb loops on
//! 32-register lane types with a one-instruction three-way XOR, the plain ones elsewhere, the
//! split loops where four lanes span several registers), and the vector files have few
//! messages long enough to reach the 16-update chunks (256 bytes per lane). Here every backend
//! under test encrypts, decrypts, MACs and streams messages of 0 to 2 chunks plus partial tails
//! at every width, and must equal a reference backend with the plain loops: AES-NI where the
//! machine (or, under Miri, the compile-time target features) has it, else the portable one.
//! That is how CI checks the VAES-AVX512 loops under Miri on machines without AVX-512.

mod common;

use hiae::stream::Encryptor;
use hiae::{Backend, Hiae, HiaeX2, HiaeX4, Variant};

use common::{NewWithBackend, data, reference};

const KEY: [u8; 32] = [0x5a; 32];
const NONCE: [u8; 16] = [0xc3; 16];

/// Lengths around the `256·d`-byte chunk: none, tails only (the longest the short one-shot
/// kernel takes, then longer), one chunk (the one-shot kernels' path for whole chunks), two
/// chunks (pending XORs cross a chunk boundary) plus whole and partial tail blocks; then two
/// with the associated data of [`outputs`] on either side of 4 KiB in all, where one-shot
/// calls change kernels, two whole chunks, one past 16 KiB, where the HiAEx4 MAC on
/// four-register lane types changes forms, and one past 256 chunks, where the absorption loop
/// of one-part lane types in sixteen registers changes forms (not under Miri, where they would
/// cost minutes: the changes are the same on every backend, and both kernels run there anyway,
/// the general one for streaming).
fn lengths<V: Variant>() -> Vec<usize> {
    let chunk = 256 * V::LANES;
    let block = 16 * V::LANES;
    // Four whole blocks and a partial one for HiAE and HiAEx2, one and a partial for HiAEx4.
    let short = if V::LANES >= 4 { 64 } else { 64 * V::LANES };
    let all = [
        0,
        block + 3,
        short + block - 1,
        chunk - 1,
        chunk,
        2 * chunk + 3 * block,
        2 * chunk + 5 * block + 7,
        2500 - 200 * V::LANES,
        4096,
        2 * chunk,
        16 * 1024 + 16 * V::LANES + 5,
        256 * chunk + block + 9,
    ];
    all[..if cfg!(miri) { 7 } else { 12 }].to_vec()
}

/// Everything one backend computes for one length: ciphertext, tag, decryption, MAC, and the
/// streamed ciphertext and tag with pieces that split chunks.
fn outputs<V: Variant + NewWithBackend>(b: Backend, len: usize) -> Vec<Vec<u8>> {
    let c = V::with_backend(&KEY, b);
    let n = NONCE.into();
    let msg = data(len, 1);
    // Associated data long enough to reach the absorb loop.
    let ad = data(len / 2 + 300 * V::LANES, 2);
    let mut ct = msg.clone();
    let tag = c
        .encrypt_inout_detached(&n, &ad, ct.as_mut_slice().into())
        .unwrap();
    let mut pt = ct.clone();
    c.decrypt_inout_detached(&n, &ad, pt.as_mut_slice().into(), &tag)
        .unwrap();
    assert_eq!(pt, msg, "{b}: decryption");
    // Associated data of 64 bytes of whole blocks and a partial one: with a message as short,
    // the one-shot kernel for short inputs.
    let short_ad = &ad[..69];
    let mut short_ct = msg.clone();
    let short_tag = c
        .encrypt_inout_detached(&n, short_ad, short_ct.as_mut_slice().into())
        .unwrap();
    let mut short_pt = short_ct.clone();
    c.decrypt_inout_detached(&n, short_ad, short_pt.as_mut_slice().into(), &short_tag)
        .unwrap();
    assert_eq!(short_pt, msg, "{b}: decryption with short associated data");
    // Associated data shorter than one block (for whole chunks, the kernel that absorbs it in
    // one padded update), against the stream, which runs the general kernel.
    let partial_ad = &ad[..13];
    let mut partial_ct = msg.clone();
    let partial_tag = c
        .encrypt_inout_detached(&n, partial_ad, partial_ct.as_mut_slice().into())
        .unwrap();
    let mut e = Encryptor::new(&c, &n);
    e.update_ad(partial_ad).unwrap();
    let mut partial_streamed = msg.clone();
    e.encrypt(&mut partial_streamed).unwrap();
    assert_eq!(
        partial_streamed, partial_ct,
        "{b}: 13 bytes of associated data"
    );
    assert_eq!(
        e.finalize(),
        partial_tag,
        "{b}: 13 bytes of associated data, tag"
    );
    let mut partial_pt = partial_ct.clone();
    c.decrypt_inout_detached(
        &n,
        partial_ad,
        partial_pt.as_mut_slice().into(),
        &partial_tag,
    )
    .unwrap();
    assert_eq!(
        partial_pt, msg,
        "{b}: decryption with 13 bytes of associated data"
    );
    let mac = hiae::mac_with_backend::<V>(b, &KEY, &NONCE, &msg).unwrap();
    // The incremental MAC runs the general kernel; the one-shot MAC its own.
    let mut m = hiae::GenericMac::<V>::new_with_backend(&KEY, &NONCE, b).unwrap();
    for piece in msg.chunks(16 * V::LANES * 3 + 5) {
        hiae::Mac::update(&mut m, piece);
    }
    let streamed_mac: [u8; 16] = hiae::Mac::finalize(m).into_bytes().into();
    assert_eq!(streamed_mac, mac, "{b}: incremental and one-shot MACs");
    let mut streamed = msg.clone();
    let mut e = Encryptor::new(&c, &n);
    for piece in ad.chunks(100) {
        e.update_ad(piece).unwrap();
    }
    for piece in streamed.chunks_mut(16 * V::LANES * 5 + 1) {
        e.encrypt(piece).unwrap();
    }
    let stag = e.finalize();
    assert_eq!(streamed, ct, "{b}: streamed and one-shot ciphertexts");
    assert_eq!(stag, tag, "{b}: streamed and one-shot tags");
    vec![
        ct,
        tag.to_vec(),
        short_ct,
        short_tag.to_vec(),
        partial_ct,
        partial_tag.to_vec(),
        mac.to_vec(),
        streamed,
        stag.to_vec(),
    ]
}

fn check<V: Variant + NewWithBackend>() {
    let reference = reference();
    for len in lengths::<V>() {
        let want = outputs::<V>(reference, len);
        for b in common::backends() {
            if b != reference {
                assert!(
                    outputs::<V>(b, len) == want,
                    "{} on {b} differs from {reference} at {len} bytes",
                    V::NAME
                );
            }
        }
    }
}

#[test]
fn loops_hiae() {
    check::<Hiae>();
}

#[test]
fn loops_hiaex2() {
    check::<HiaeX2>();
}

#[test]
fn loops_hiaex4() {
    check::<HiaeX4>();
}
