//! Decrypting arbitrary bytes with GIFT-COFB never panics and never accepts
//! (a forgery would need a 128-bit tag guess), on the single-message path of
//! every backend and through the batch API; rejected output is zero-filled.
//!
//! Input layout (raw bytes, no `arbitrary`): `[ad_len]`, 16-byte key,
//! 16-byte nonce, then `ad_len` bytes of AD (capped), then ciphertext || tag.
#![no_main]

use gift_cofb::aead::{Aead, AeadInOut, Nonce, Payload, Tag};
use gift_cofb::{Backend, BatchItem, GiftCofb};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 33 {
        return;
    }
    let ad_len = usize::from(data[0]);
    let key: [u8; 16] = data[1..17].try_into().unwrap();
    let nonce: Nonce<GiftCofb> = <[u8; 16]>::try_from(&data[17..33]).unwrap().into();
    let rest = &data[33..];
    let ad_len = ad_len.min(rest.len());
    let (ad, ct_and_tag) = rest.split_at(ad_len);

    for backend in Backend::available() {
        let cipher = GiftCofb::new_with_backend(&key.into(), backend).unwrap();

        // Vec API: must reject (too short, or a wrong tag).
        assert!(
            cipher
                .decrypt(
                    &nonce,
                    Payload {
                        msg: ct_and_tag,
                        aad: ad
                    }
                )
                .is_err()
        );

        if ct_and_tag.len() < 16 {
            continue;
        }
        let (ct, tag) = ct_and_tag.split_at(ct_and_tag.len() - 16);
        let tag = Tag::<GiftCofb>::try_from(tag).unwrap();

        // In-place detached API: rejects and zero-fills.
        let mut buf = ct.to_vec();
        assert!(
            cipher
                .decrypt_inout_detached(&nonce, ad, (&mut buf[..]).into(), &tag)
                .is_err()
        );
        assert!(buf.iter().all(|&b| b == 0));

        // Batch API: the same message twice plus a valid one; only the valid
        // one verifies.
        let mut good = ct.to_vec();
        let good_tag = cipher
            .encrypt_inout_detached(&nonce, ad, (&mut good[..]).into())
            .unwrap();
        let (mut a, mut b) = (ct.to_vec(), ct.to_vec());
        let mut items = [
            BatchItem::with_tag(&nonce, ad, &mut a, &tag),
            BatchItem::with_tag(&nonce, ad, &mut good, &good_tag),
            BatchItem::with_tag(&nonce, ad, &mut b, &tag),
        ];
        assert!(cipher.decrypt_batch(&mut items).is_err());
        assert!(!items[0].is_verified() && items[1].is_verified() && !items[2].is_verified());
        assert!(items[0].buffer().iter().all(|&x| x == 0));
        assert_eq!(items[1].buffer(), ct);
    }
});
