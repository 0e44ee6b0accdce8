//! Every vector, for LeMac, LeMacX2 and LeMacX4, on every backend this machine can run:
//! one-shot, streaming with irregular chunkings, reset and clone reuse.

mod common;

use common::{Rng, Vector, vectors};
use digest::{FixedOutputReset, Mac};
use lemac::{Backend, LeMacGeneric, LeMacKeyGeneric, Supported, Width};

/// Piece sizes for streaming. Interpreted (Miri), a piece one past a block and one past every
/// input (with the random sizes below) reach every path of the stream code; the other sizes
/// only repeat them.
const CHUNKINGS: &[usize] = if cfg!(miri) {
    &[65, 4096]
} else {
    &[1, 3, 63, 64, 65, 4096]
};

fn check_oneshot<const D: usize>(backend: Backend, vs: &[Vector])
where
    Width<D>: Supported<D>,
{
    for (i, v) in vs.iter().enumerate() {
        let key = LeMacKeyGeneric::<D>::new_with_backend(&v.key, backend).unwrap();
        assert_eq!(key.backend(), backend);
        assert_eq!(
            key.mac(&v.msg, &v.nonce),
            v.tag,
            "D={D} {backend} vector {i} one-shot"
        );
        assert!(key.verify(&v.msg, &v.nonce, &v.tag).is_ok());
    }
}

fn streamed<const D: usize>(
    mut mac: LeMacGeneric<D>,
    msg: &[u8],
    sizes: &mut dyn FnMut() -> usize,
) -> [u8; 16]
where
    Width<D>: Supported<D>,
{
    let mut rest = msg;
    while !rest.is_empty() {
        let n = sizes().min(rest.len());
        mac.update(&rest[..n]);
        rest = &rest[n..];
    }
    mac.finalize_tag()
}

fn check_streaming<const D: usize>(backend: Backend, vs: &[Vector])
where
    Width<D>: Supported<D>,
{
    let mut rng = Rng(0x1e4ac ^ (D as u64) << 40);
    for (i, v) in vs.iter().enumerate() {
        let key = LeMacKeyGeneric::<D>::new_with_backend(&v.key, backend).unwrap();
        let base = key.hasher_with_nonce(&v.nonce);
        for &size in CHUNKINGS {
            let tag = streamed(base.clone(), &v.msg, &mut || size);
            assert_eq!(tag, v.tag, "D={D} {backend} vector {i} chunks of {size}");
        }
        let tag = streamed(base.clone(), &v.msg, &mut || rng.below(300));
        assert_eq!(tag, v.tag, "D={D} {backend} vector {i} random chunks");
        // Nonce given at the end instead of at construction.
        let mut m = key.hasher();
        m.update(&v.msg);
        assert_eq!(
            m.finalize_with_nonce(&v.nonce),
            v.tag,
            "D={D} {backend} vector {i} late nonce"
        );
    }
}

fn check_reuse<const D: usize>(backend: Backend, vs: &[Vector])
where
    Width<D>: Supported<D>,
{
    // One instance per key, reset between messages; clones taken mid-stream continue
    // independently.
    for (i, v) in vs.iter().enumerate() {
        let mut mac = LeMacKeyGeneric::<D>::new_with_backend(&v.key, backend)
            .unwrap()
            .hasher_with_nonce(&v.nonce);
        mac.update(b"some earlier message that must be forgotten by reset, longer than one chunk .......................................................................................................................................................................");
        Mac::reset(&mut mac);
        let half = v.msg.len() / 2;
        mac.update(&v.msg[..half]);
        let mut fork = mac.clone();
        fork.update(&v.msg[half..]);
        mac.update(&v.msg[half..]);
        assert_eq!(
            fork.finalize_tag(),
            v.tag,
            "D={D} {backend} vector {i} clone"
        );
        let out = mac.finalize_fixed_reset();
        assert_eq!(
            out.as_slice(),
            &v.tag,
            "D={D} {backend} vector {i} finalize_reset"
        );
        mac.update(&v.msg);
        assert!(
            mac.verify_slice(&v.tag).is_ok(),
            "D={D} {backend} vector {i} after reset"
        );
    }
}

fn all<const D: usize>()
where
    Width<D>: Supported<D>,
{
    let vs = vectors(D);
    assert_eq!(common::all_vectors(D).len(), if D == 1 { 290 } else { 289 });
    let mut ran = 0;
    for backend in common::backends() {
        check_oneshot::<D>(backend, &vs);
        check_streaming::<D>(backend, &vs);
        check_reuse::<D>(backend, &vs);
        ran += 1;
    }
    assert!(ran >= 1);
}

#[test]
fn lemac_vectors_every_backend() {
    all::<1>();
}

#[test]
fn lemacx2_vectors_every_backend() {
    all::<2>();
}

#[test]
fn lemacx4_vectors_every_backend() {
    all::<4>();
}

#[test]
fn unavailable_backend_is_an_error() {
    for b in Backend::ALL {
        let r = lemac::LeMac::new_with_backend(&[0; 16], b);
        assert_eq!(r.is_ok(), b.is_available());
        if let Err(e) = r {
            assert_eq!(e, lemac::Unavailable(b));
        }
    }
}

#[test]
fn print_backends() {
    for b in Backend::available() {
        println!("available: {}", b.name());
    }
    println!(
        "detected: {}",
        <lemac::LeMac as lemac::KeyInit>::new(&[0; 16].into()).implementation_name()
    );
}
