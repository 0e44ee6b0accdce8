//! The `aeadfast-file` library and the `aeadfast` binary read each other's files: native
//! files (every algorithm, raw keys and passphrases, associated data, several chunk sizes,
//! read in order and by seeking) and libhiae `-e` files.

use std::fs;
use std::io::{Cursor, Read, Seek, SeekFrom, Write};
use std::path::Path;

use aeadfast_file::libhiae::{self, HiaeFile};
use aeadfast_file::{Algorithm, Argon2Params, Decryptor, Encryptor};
use aeadfast_tests::{aeadfast, stderr_of};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed)
        .collect()
}

#[test]
fn library_files_decrypt_with_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (i, alg) in Algorithm::ALL.into_iter().enumerate() {
        let key: Vec<u8> = (0..alg.key_len() as u8).collect();
        let key_path = d.join(format!("{alg}.key"));
        fs::write(&key_path, &key).unwrap();
        for (log2, len) in [(6u8, 0usize), (6, 1000), (10, 70_000), (18, 600_000)] {
            let msg = pattern(len, i as u8);
            let mut enc = Encryptor::builder(alg)
                .chunk_log2(log2)
                .associated_data(b"lib-ad")
                .build(Vec::new(), &key)
                .unwrap();
            enc.write_all(&msg).unwrap();
            let file = d.join("lib.af");
            fs::write(&file, enc.finish().unwrap()).unwrap();
            let r = aeadfast(&["decrypt", "-k", s(&key_path), s(&file), "--ad", "lib-ad"]);
            assert!(r.status.success(), "{alg} {log2} {len}: {}", stderr_of(&r));
            assert!(r.stdout == msg, "{alg} {log2} {len}");
        }
    }
    // A passphrase file.
    let msg = pattern(5000, 9);
    let mut enc = Encryptor::builder(Algorithm::HiaeX2)
        .argon2_params(Argon2Params {
            m_kib: 256,
            t: 2,
            p: 1,
            salt: [8; 16],
        })
        .build_with_passphrase(Vec::new(), b"open sesame")
        .unwrap();
    enc.write_all(&msg).unwrap();
    let file = d.join("pass.af");
    fs::write(&file, enc.finish().unwrap()).unwrap();
    let pass = d.join("pass");
    fs::write(&pass, "open sesame\n").unwrap();
    let r = aeadfast(&["decrypt", "--passphrase-file", s(&pass), s(&file)]);
    assert!(r.status.success(), "{}", stderr_of(&r));
    assert_eq!(r.stdout, msg);
}

#[test]
fn cli_files_decrypt_with_the_library() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for alg in Algorithm::ALL {
        let key_path = d.join(format!("{alg}.key"));
        let r = aeadfast(&["keygen", "-a", alg.name(), "-o", s(&key_path)]);
        assert!(r.status.success());
        let key = fs::read(&key_path).unwrap();
        let msg = pattern(300_000, 3);
        let plain = d.join("plain");
        fs::write(&plain, &msg).unwrap();
        let enc = d.join(format!("{alg}.af"));
        let r = aeadfast(&[
            "encrypt",
            "-a",
            alg.name(),
            "-k",
            s(&key_path),
            s(&plain),
            "-o",
            s(&enc),
            "--ad",
            "cli-ad",
            "--chunk-size-log2",
            "12",
        ]);
        assert!(r.status.success(), "{}", stderr_of(&r));
        let mut dec = Decryptor::builder()
            .associated_data(b"cli-ad")
            .read_header(fs::File::open(&enc).unwrap())
            .unwrap()
            .unlock_with_key(&key)
            .unwrap();
        let mut back = Vec::new();
        dec.read_to_end(&mut back).unwrap();
        assert!(back == msg, "{alg}");
        dec.seek(SeekFrom::Start(123_457)).unwrap();
        let mut part = [0u8; 5000];
        dec.read_exact(&mut part).unwrap();
        assert_eq!(part[..], msg[123_457..128_457]);
    }
}

#[test]
fn libhiae_files_cross_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = [0x33u8; 32];
    let key_path = d.join("k");
    fs::write(&key_path, key).unwrap();
    let msg = pattern(1_500_000, 5);
    let hf = HiaeFile::new(&key).unwrap();
    let nonce = [0x44u8; 16];
    let mut file = libhiae::preamble(&nonce).to_vec();
    let tag = hf
        .encrypt(&nonce, &mut &b"ad"[..], &mut &msg[..], &mut file)
        .unwrap();
    file.extend_from_slice(&tag);
    let f = d.join("lib.hiae");
    fs::write(&f, &file).unwrap();
    let out = d.join("out");
    let r = aeadfast(&[
        "decrypt",
        "--format",
        "hiae",
        "-k",
        s(&key_path),
        s(&f),
        "-o",
        s(&out),
        "--ad",
        "ad",
    ]);
    assert!(r.status.success(), "{}", stderr_of(&r));
    assert!(fs::read(&out).unwrap() == msg);
    // And the other way.
    let plain = d.join("plain");
    fs::write(&plain, &msg).unwrap();
    let g = d.join("cli.hiae");
    let r = aeadfast(&[
        "encrypt",
        "--format",
        "hiae",
        "-k",
        s(&key_path),
        s(&plain),
        "-o",
        s(&g),
        "--ad",
        "ad",
    ]);
    assert!(r.status.success(), "{}", stderr_of(&r));
    let bytes = fs::read(&g).unwrap();
    let n = libhiae::parse_preamble(&bytes).unwrap();
    let ct_len = bytes.len() - 48;
    let tag: [u8; 16] = bytes[bytes.len() - 16..].try_into().unwrap();
    let mut back = Vec::new();
    hf.decrypt(
        &n,
        &mut Cursor::new(b"ad"),
        &mut Cursor::new(&bytes[32..32 + ct_len]),
        ct_len as u64,
        &tag,
        &mut back,
    )
    .unwrap();
    assert!(back == msg);
}
