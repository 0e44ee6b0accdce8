//! proptest over chunk sizes, write splits and seek sequences: any split of the writes gives
//! the one-call file, the file decrypts back, and any sequence of seeks and reads returns the
//! plaintext slices; any single flipped bit fails.

mod common;

use std::io::{Cursor, Read, Seek, SeekFrom, Write};

use aeadfast_file::{Algorithm, Decryptor, Encryptor};
use common::{encrypt, key};
use proptest::prelude::*;

fn algorithm() -> impl Strategy<Value = Algorithm> {
    prop::sample::select(Algorithm::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn splits_seeks_and_flips(
        alg in algorithm(),
        log2 in 6u8..=9,
        msg in prop::collection::vec(any::<u8>(), 0..5000),
        splits in prop::collection::vec(0usize..700, 1..30),
        seeks in prop::collection::vec((any::<u16>(), 0usize..700, 0u8..3), 1..20),
        flip in any::<(usize, u8)>(),
    ) {
        let want = encrypt(alg, log2, b"p", &msg);
        let mut enc = Encryptor::builder(alg)
            .chunk_log2(log2)
            .associated_data(b"p")
            .insecure_nonce_prefix([0x11; 11])
            .build(Vec::new(), &key(alg))
            .unwrap();
        let mut at = 0;
        for s in splits.iter().cycle() {
            if at >= msg.len() {
                break;
            }
            let n = (*s).min(msg.len() - at).max(1);
            enc.write_all(&msg[at..at + n]).unwrap();
            at += n;
        }
        prop_assert!(enc.finish().unwrap() == want);

        let mut dec = Decryptor::builder()
            .associated_data(b"p")
            .read_header(Cursor::new(&want))
            .unwrap()
            .unlock_with_key(&key(alg))
            .unwrap();
        let l = msg.len() as u64;
        for &(t, rlen, how) in &seeks {
            let target = match how {
                0 => u64::from(t) % (l + 10),
                1 => l.saturating_sub(u64::from(t) % (l + 1)),
                _ => (u64::from(t) % (l / (1 << log2) + 2)) << log2,
            };
            let from = if how == 1 { SeekFrom::End(target as i64 - l as i64) } else { SeekFrom::Start(target) };
            prop_assert_eq!(dec.seek(from).unwrap(), target);
            let mut got = vec![0u8; rlen];
            let mut n = 0;
            while n < rlen {
                let k = dec.read(&mut got[n..]).unwrap();
                if k == 0 {
                    break;
                }
                n += k;
            }
            let s = (target as usize).min(msg.len());
            let e = (s + rlen).min(msg.len());
            prop_assert!(got[..n] == msg[s..e]);
        }

        let mut bad = want.clone();
        let i = flip.0 % bad.len();
        bad[i] ^= 1 << (flip.1 % 8);
        let r = Decryptor::builder()
            .associated_data(b"p")
            .read_header(&bad[..])
            .and_then(|l| l.unlock_with_key(&key(alg)))
            .and_then(|mut d| {
                let mut out = Vec::new();
                d.read_to_end(&mut out).map(|_| out)
            });
        prop_assert!(r.is_err());
    }
}
