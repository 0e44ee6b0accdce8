//! Decrypting arbitrary bytes never panics and never accepts a forgery.
//!
//! Input: byte 0 = variant selector, byte 1 = AD length, then the AD, then `ct || tag`
//! (key and nonce are fixed, so a random input verifying would be a forgery). Every failed
//! decryption must leave a zero-filled output.
#![no_main]

use hiae::stream::Decryptor;
use hiae::{Hiae, HiaeX2, HiaeX4, Variant};
use libfuzzer_sys::fuzz_target;

const KEY: [u8; 32] = [0x5a; 32];
const NONCE: [u8; 16] = [0xa5; 16];

fn check<V: Variant>(ad: &[u8], ct_tag: &[u8]) {
    let c = V::new_from_slice(&KEY).expect("32-byte key");
    let n = NONCE.into();
    // The combined API (handles too-short inputs itself).
    let mut buf = ct_tag.to_vec();
    assert!(
        c.decrypt_in_place(&n, ad, &mut buf).is_err(),
        "forgery accepted"
    );
    if ct_tag.len() < 16 {
        return;
    }
    let (ct, tag) = ct_tag.split_at(ct_tag.len() - 16);
    let tag = hiae::Tag::try_from(tag).unwrap();
    let mut buf = ct.to_vec();
    assert!(
        c.decrypt_inout_detached(&n, ad, buf.as_mut_slice().into(), &tag)
            .is_err()
    );
    assert!(buf.iter().all(|&b| b == 0), "output not wiped");
    let mut d = Decryptor::new(&c, &n);
    d.update_ad(ad).unwrap();
    for piece in ct.chunks(7) {
        d.decrypt(piece).unwrap();
    }
    assert!(d.finalize(&tag).is_err());
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let ad_len = (data[1] as usize).min(data.len() - 2);
    let (ad, ct_tag) = data[2..].split_at(ad_len);
    match data[0] % 3 {
        0 => check::<Hiae>(ad, ct_tag),
        1 => check::<HiaeX2>(ad, ct_tag),
        _ => check::<HiaeX4>(ad, ct_tag),
    }
});
