//! Differential fuzzing: every available backend against the portable one, for HiAE, HiAEx2
//! and HiAEx4, encryption (one-shot and streamed with fuzzer-chosen cuts), decryption and MAC.
//!
//! Input layout: byte 0 = variant selector, byte 1 = AD length, bytes 2..4 = chunk size for
//! streaming, then 32-byte key, 16-byte nonce, AD, and the rest is the message.
#![no_main]

use hiae::stream::Encryptor;
use hiae::{Backend, Hiae, HiaeX2, HiaeX4, Variant};
use libfuzzer_sys::fuzz_target;

trait Make: Variant {
    fn make(key: &[u8; 32], b: Backend) -> Self;
}
macro_rules! make {
    ($t:ty) => {
        impl Make for $t {
            fn make(key: &[u8; 32], b: Backend) -> Self {
                <$t>::new_with_backend(&(*key).into(), b).unwrap()
            }
        }
    };
}
make!(Hiae);
make!(HiaeX2);
make!(HiaeX4);

fn check<V: Make>(key: &[u8; 32], nonce: &[u8; 16], ad: &[u8], msg: &[u8], step: usize) {
    let n = (*nonce).into();
    let p = V::make(key, Backend::Portable);
    let mut ct = msg.to_vec();
    let tag = p
        .encrypt_inout_detached(&n, ad, ct.as_mut_slice().into())
        .unwrap();
    let mac = hiae::mac_with_backend::<V>(Backend::Portable, key, nonce, msg).unwrap();
    for b in Backend::available() {
        let c = V::make(key, b);
        let mut buf = msg.to_vec();
        let t = c
            .encrypt_inout_detached(&n, ad, buf.as_mut_slice().into())
            .unwrap();
        assert_eq!((&buf, &t), (&ct, &tag), "{} encrypt on {b}", V::NAME);

        let mut e = Encryptor::new(&c, &n);
        e.update_ad(ad).unwrap();
        let mut buf = msg.to_vec();
        for piece in buf.chunks_mut(step) {
            e.encrypt(piece).unwrap();
        }
        assert_eq!(
            (&buf, &e.finalize()),
            (&ct, &tag),
            "{} stream on {b}",
            V::NAME
        );

        let mut out = vec![0u8; ct.len()];
        c.decrypt_inout_detached(
            &n,
            ad,
            hiae::aead::inout::InOutBuf::new(&ct, &mut out).unwrap(),
            &tag,
        )
        .unwrap();
        assert_eq!(out, msg, "{} decrypt on {b}", V::NAME);

        assert_eq!(
            hiae::mac_with_backend::<V>(b, key, nonce, msg).unwrap(),
            mac,
            "{} MAC on {b}",
            V::NAME
        );
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 + 48 {
        return;
    }
    let (hdr, rest) = data.split_at(4);
    let (kn, rest) = rest.split_at(48);
    let key: [u8; 32] = kn[..32].try_into().unwrap();
    let nonce: [u8; 16] = kn[32..].try_into().unwrap();
    let ad_len = (hdr[1] as usize).min(rest.len());
    let (ad, msg) = rest.split_at(ad_len);
    let step = (u16::from_le_bytes([hdr[2], hdr[3]]) as usize).max(1);
    match hdr[0] % 3 {
        0 => check::<Hiae>(&key, &nonce, ad, msg, step),
        1 => check::<HiaeX2>(&key, &nonce, ad, msg, step),
        _ => check::<HiaeX4>(&key, &nonce, ad, msg, step),
    }
});
