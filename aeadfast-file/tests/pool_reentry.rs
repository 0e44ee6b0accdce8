//! Readers and writers that use rayon's pool themselves (as the `aeadfast` CLI's input does,
//! reading large blocks in two halves with `rayon::join`), with the library called from
//! inside a pool of many threads: every path through the ring finishes, with the right bytes.
//! A run that does not finish within a minute fails the test instead of hanging it.

mod common;

use std::io::{self, Read, Write};
use std::sync::mpsc;
use std::time::Duration;

use aeadfast_file::{Algorithm, Decryptor, Encryptor};
use common::{key, pattern};

/// Reads in two halves on the pool when asked for 64 KiB or more.
struct JoinReader<'a>(&'a [u8]);

impl Read for JoinReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(self.0.len());
        if n < 64 << 10 {
            return self.0.read(buf);
        }
        let (src_a, src_b) = self.0[..n].split_at(n / 2);
        let (dst_a, dst_b) = buf[..n].split_at_mut(n / 2);
        rayon::join(
            || dst_a.copy_from_slice(src_a),
            || dst_b.copy_from_slice(src_b),
        );
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// Copies each write in two halves on the pool.
struct JoinWriter(Vec<u8>);

impl Write for JoinWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let at = self.0.len();
        self.0.resize(at + data.len(), 0);
        let (dst_a, dst_b) = self.0[at..].split_at_mut(data.len() / 2);
        let (src_a, src_b) = data.split_at(data.len() / 2);
        rayon::join(
            || dst_a.copy_from_slice(src_a),
            || dst_b.copy_from_slice(src_b),
        );
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn within_a_minute(what: &str, f: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        f();
        let _ = tx.send(());
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(()) => {}
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what} did not finish (deadlock?)"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what} panicked"),
    }
}

#[test]
fn readers_and_writers_that_use_the_pool_inside_a_large_pool() {
    within_a_minute("copy_from / copy_to / large reads", || {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(64)
            .build()
            .unwrap();
        pool.install(|| {
            let alg = Algorithm::Hiae;
            let msg = pattern((1 << 20) * 24 + 123, 9);
            let encryptor = |batch| {
                Encryptor::builder(alg)
                    .chunk_log2(20)
                    .batch_size(batch)
                    .insecure_nonce_prefix([3; 11])
                    .build(JoinWriter(Vec::new()), &key(alg))
                    .unwrap()
            };
            for batch in [1usize << 20, 3 << 20, 8 << 20] {
                let mut enc = encryptor(batch);
                enc.copy_from(JoinReader(&msg)).unwrap();
                let file = enc.finish().unwrap().0;
                let decryptor = || {
                    Decryptor::builder()
                        .batch_size(batch)
                        .read_header(JoinReader(&file))
                        .unwrap()
                        .unlock_with_key(&key(alg))
                        .unwrap()
                };

                let mut dec = decryptor();
                let mut out = JoinWriter(Vec::new());
                assert_eq!(dec.copy_to(&mut out).unwrap(), msg.len() as u64);
                assert!(out.0 == msg, "copy_to, batch {batch}");

                let mut dec = decryptor();
                let mut big = vec![0u8; msg.len() + 10];
                let mut at = 0;
                while let n @ 1.. = dec.read(&mut big[at..]).unwrap() {
                    at += n;
                }
                assert!(big[..at] == msg[..], "large reads, batch {batch}");

                let mut enc = encryptor(batch);
                enc.write_all(&msg).unwrap();
                assert!(enc.finish().unwrap().0 == file, "write_all, batch {batch}");
            }
        });
    });
}
