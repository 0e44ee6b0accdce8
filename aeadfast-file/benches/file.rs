//! `cargo bench -p aeadfast-file`: the file format against one-shot HiAE in the same run.
//!
//! * `1GiB/*`: 1 GiB in memory, HiAE, default chunk size (256 KiB): `Encryptor` (to
//!   `io::sink` and to a `Vec`) and `Decryptor` (`read` into a `Vec`, `copy_to` and
//!   `copy_buffered_to` a sink), with
//!   the `parallel` feature on every core, against the single-thread one-shot HiAE
//!   encryption / decryption of the whole buffer in place, and against the bound of any
//!   pipeline: every thread sealing (opening) its share of the chunks with nothing else to do.
//! * `random_4KiB/*`: a random 4 KiB read at a random offset of a 1 GiB encrypted file in
//!   the page cache (seek + read through `Decryptor<File>`) against decrypting one 256 KiB
//!   chunk held in memory: the same chunk every time (in the cache), and a chunk at a random
//!   place of the file read into memory (fetched from memory, as the read fetches it from
//!   the page cache); and the read of one stored chunk from the page cache alone.
//!
//! `AEADFAST_BENCH_MIB` changes the size of the large input (default 1024).

use std::hint::black_box;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::time::Duration;

use aeadfast_file::chunk::Sealer;
use aeadfast_file::{Algorithm, Decryptor, Encryptor, Header};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use hiae::{AeadInOut, Hiae, KeyInit};

const KEY: [u8; 32] = [0x42; 32];

fn size() -> usize {
    std::env::var("AEADFAST_BENCH_MIB")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(1024)
        << 20
}

/// The next value of a xorshift64 generator (bench data and random offsets).
fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

fn data(len: usize) -> Vec<u8> {
    let mut x = 0x9e3779b97f4a7c15u64;
    let mut v = vec![0u8; len];
    for c in v.chunks_mut(8) {
        c.copy_from_slice(&xorshift(&mut x).to_le_bytes()[..c.len()]);
    }
    v
}

/// Runs `f(t)` on `threads` scoped threads, `t = 0..threads`, and waits for all of them.
fn on_each_thread(threads: usize, f: impl Fn(usize) + Sync) {
    std::thread::scope(|s| {
        for t in 0..threads {
            let f = &f;
            s.spawn(move || f(t));
        }
    })
}

fn encrypt_file(plain: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(plain.len() + plain.len() / 1000 + 1024);
    let mut enc = Encryptor::new(&mut out, Algorithm::Hiae, &KEY).unwrap();
    enc.write_all(plain).unwrap();
    enc.finish().unwrap();
    out
}

fn large(c: &mut Criterion) {
    let len = size();
    let plain = data(len);
    let file = encrypt_file(&plain);
    let cipher = Hiae::new(&KEY.into());
    let nonce = [7u8; 16].into();
    let mut g = c.benchmark_group(format!("{}MiB", len >> 20));
    g.sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1))
        .throughput(Throughput::Bytes(len as u64));

    let mut buf = plain.clone();
    g.bench_function("one_shot_hiae_encrypt_1_thread", |b| {
        b.iter(|| {
            black_box(
                cipher
                    .encrypt_inout_detached(&nonce, b"", buf.as_mut_slice().into())
                    .unwrap(),
            )
        })
    });
    let mut ct = plain.clone();
    let tag = cipher
        .encrypt_inout_detached(&nonce, b"", ct.as_mut_slice().into())
        .unwrap();
    g.bench_function("one_shot_hiae_decrypt_1_thread", |b| {
        b.iter_batched_ref(
            || ct.clone(),
            |w| {
                cipher
                    .decrypt_inout_detached(&nonce, b"", w.as_mut_slice().into(), &tag)
                    .unwrap()
            },
            BatchSize::PerIteration,
        )
    });
    drop(ct);
    // The bound of any pipeline on this machine: every thread seals its own share of the
    // chunks (alternate ones) into a buffer of its own, with no ordering, hand-over or output.
    let threads = rayon::current_num_threads().max(1);
    let (fh, fh_len) = Header::parse(&file).unwrap();
    let file_sealer = Sealer::new(&fh, &file[..fh_len], b"", &KEY).unwrap();
    let (chunk, stride) = (file_sealer.chunk_size(), file_sealer.stride());
    g.bench_function(
        format!("{threads}_threads_sealing_alternate_chunks_no_pipeline"),
        |b| {
            b.iter(|| {
                on_each_thread(threads, |t| {
                    let mut out = vec![0u8; chunk];
                    for (i, c) in plain.chunks(chunk).enumerate().skip(t).step_by(threads) {
                        let io = aead::inout::InOutBuf::new(c, &mut out[..c.len()]).unwrap();
                        black_box(file_sealer.seal(i as u64, false, io).unwrap());
                    }
                })
            })
        },
    );
    g.bench_function("encryptor_to_sink", |b| {
        b.iter(|| {
            let mut enc = Encryptor::new(io::sink(), Algorithm::Hiae, &KEY).unwrap();
            enc.write_all(&plain).unwrap();
            enc.finish().unwrap();
        })
    });
    let mut out = Vec::with_capacity(file.len());
    g.bench_function("encryptor_to_vec", |b| {
        b.iter(|| {
            out.clear();
            let mut enc = Encryptor::new(&mut out, Algorithm::Hiae, &KEY).unwrap();
            enc.write_all(&plain).unwrap();
            enc.finish().unwrap();
        })
    });
    drop(out);
    let mut back = vec![0u8; len];
    Decryptor::new(&file[..], &KEY)
        .unwrap()
        .read_exact(&mut back)
        .unwrap();
    assert!(back == plain);
    g.bench_function("decryptor_read_into_vec", |b| {
        b.iter(|| {
            let mut dec = Decryptor::new(&file[..], &KEY).unwrap();
            dec.read_exact(&mut back).unwrap();
            assert_eq!(dec.read(&mut [0u8; 1]).unwrap(), 0);
        })
    });
    // The bound for decryption, as above: every thread opens its share of the file's chunks
    // into a buffer of its own.
    let stored = &file[fh_len..];
    let full_chunks = len / chunk;
    g.bench_function(
        format!("{threads}_threads_opening_alternate_chunks_no_pipeline"),
        |b| {
            b.iter(|| {
                on_each_thread(threads, |t| {
                    let mut out = vec![0u8; chunk];
                    for i in (t..full_chunks).step_by(threads) {
                        let c = &stored[i * stride..(i + 1) * stride];
                        let (ct, tag) = c.split_at(chunk);
                        let io = aead::inout::InOutBuf::new(ct, &mut out).unwrap();
                        file_sealer.open(i as u64, false, io, tag).unwrap();
                    }
                })
            })
        },
    );
    g.bench_function("decryptor_copy_to_sink", |b| {
        b.iter(|| {
            let mut dec = Decryptor::new(&file[..], &KEY).unwrap();
            assert_eq!(dec.copy_to(&mut io::sink()).unwrap(), len as u64);
        })
    });
    g.bench_function("decryptor_copy_buffered_to_sink", |b| {
        b.iter(|| {
            let mut dec = Decryptor::new(&file[..], &KEY).unwrap();
            assert_eq!(dec.copy_buffered_to(&mut io::sink()).unwrap(), len as u64);
        })
    });
    g.finish();
}

fn random_read(c: &mut Criterion) {
    let len = size();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bench.af");
    let plain = data(len);
    std::fs::write(&path, encrypt_file(&plain)).unwrap();
    drop(plain);
    let mut g = c.benchmark_group("random_4KiB");
    g.throughput(Throughput::Bytes(4096));

    // One chunk decrypted in memory: the reference cost.
    let header = Header {
        algorithm: Algorithm::Hiae,
        chunk_log2: 18,
        key_source: aeadfast_file::KeySource::RawKey,
        nonce_prefix: [3; 11],
    };
    let hb = header.to_bytes();
    let sealer = Sealer::new(&header, &hb, b"", &KEY).unwrap();
    let mut chunk = data(1 << 18);
    let tag = sealer.seal(5, false, chunk.as_mut_slice().into()).unwrap();
    let mut work = vec![0u8; 1 << 18];
    g.bench_function("decrypt_one_256KiB_chunk_in_memory", |b| {
        b.iter(|| {
            let io = aead::inout::InOutBuf::new(&chunk, &mut work).unwrap();
            sealer.open(5, false, io, &tag).unwrap();
        })
    });

    // One chunk at a random place of the same file held in memory (not in the cache, like
    // the chunk that a read from the page cache fetches): the reference that pays the same
    // trip to memory.
    let file = std::fs::read(&path).unwrap();
    let (fh, fh_len) = Header::parse(&file).unwrap();
    let file_sealer = Sealer::new(&fh, &file[..fh_len], b"", &KEY).unwrap();
    let stride = file_sealer.stride();
    let full_chunks = (file.len() - fh_len) / stride;
    let mut pick = 0x9e3779b97f4a7c15u64;
    g.bench_function("decrypt_random_256KiB_chunk_of_1GiB_in_memory", |b| {
        b.iter(|| {
            let i = xorshift(&mut pick) % full_chunks as u64;
            let at = fh_len + i as usize * stride;
            let (ct, tag) = file[at..at + stride].split_at(stride - 16);
            let io = aead::inout::InOutBuf::new(ct, &mut work).unwrap();
            file_sealer.open(i, false, io, tag).unwrap();
        })
    });
    drop(file);

    // The read alone: one stored chunk at a random place of the file, from the page cache
    // into a buffer (what a seek and read must do before it can decrypt anything).
    let mut raw = std::fs::File::open(&path).unwrap();
    let mut stored = vec![0u8; stride];
    g.bench_function("read_one_stored_256KiB_chunk_from_page_cache", |b| {
        b.iter(|| {
            let i = xorshift(&mut pick) % full_chunks as u64;
            raw.seek(SeekFrom::Start(fh_len as u64 + i * stride as u64))
                .unwrap();
            raw.read_exact(&mut stored).unwrap();
            black_box(&stored);
        })
    });

    let mut dec = Decryptor::new(std::fs::File::open(&path).unwrap(), &KEY).unwrap();
    let mut rng = 0x2545f4914f6cdd1du64;
    let mut buf = [0u8; 4096];
    dec.seek(SeekFrom::Start(0)).unwrap();
    g.bench_function("seek_and_read_4KiB_from_1GiB_file", |b| {
        b.iter(|| {
            let at = xorshift(&mut rng) % (len as u64 - 4096);
            dec.seek(SeekFrom::Start(at)).unwrap();
            dec.read_exact(&mut buf).unwrap();
            black_box(&buf);
        })
    });
    g.finish();
}

criterion_group!(benches, large, random_read);
criterion_main!(benches);
