//! The block API's state written to bytes and read back: the same computation on every
//! backend, and each lane of a wide state is a one-lane HiAE state in that layout.

mod common;

use common::backends;
use hiae::hazmat::State;
use hiae::{Backend, Hiae, HiaeX2, HiaeX4, Variant};

const KEY: [u8; 32] = [7; 32];
const NONCE: [u8; 16] = [9; 16];

fn data(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31) ^ seed)
        .collect()
}

/// A message processed with the state stored and reloaded (on each backend in turn) between
/// calls gives the tag of the uninterrupted computation.
fn reload_anywhere<V: Variant>() {
    let bs = V::BLOCK_SIZE;
    let ad = data(3 * bs, 1);
    let msg = data(5 * bs + 3, 2);
    let first = backends()[0];
    let mut st = State::<V>::new_with_backend(&KEY, &NONCE, first).unwrap();
    st.absorb(&ad);
    let mut ct = msg.clone();
    let (blocks, tail) = ct.split_at_mut(5 * bs);
    st.enc(blocks);
    st.enc_partial(tail);
    let tag = st.finalize(ad.len() as u64, msg.len() as u64);

    let mut bytes = vec![0u8; State::<V>::BYTES];
    State::<V>::new_with_backend(&KEY, &NONCE, first)
        .unwrap()
        .to_bytes(&mut bytes);
    let mut next = backends().into_iter().cycle();
    let mut step = |f: &mut dyn FnMut(&mut State<V>)| {
        let mut st = State::<V>::from_bytes(&bytes, next.next().unwrap()).unwrap();
        f(&mut st);
        st.to_bytes(&mut bytes);
    };
    step(&mut |st| st.absorb(&ad[..bs]));
    step(&mut |st| st.absorb(&ad[bs..]));
    let mut buf = ct.clone();
    let (blocks, tail) = buf.split_at_mut(5 * bs);
    let (b1, b2) = blocks.split_at_mut(2 * bs);
    step(&mut |st| st.dec(b1));
    step(&mut |st| st.dec(b2));
    step(&mut |st| st.dec_partial(tail));
    assert_eq!(buf, msg, "{} plaintext", V::NAME);
    let st = State::<V>::from_bytes(&bytes, Backend::Portable).unwrap();
    assert_eq!(
        st.finalize(ad.len() as u64, msg.len() as u64),
        tag,
        "{} tag",
        V::NAME
    );
}

#[test]
fn state_reloads_on_every_backend() {
    reload_anywhere::<Hiae>();
    reload_anywhere::<HiaeX2>();
    reload_anywhere::<HiaeX4>();
}

/// Updating each lane alone, as a one-lane state made of that lane's blocks, equals the wide
/// update.
fn lanes_are_hiae_states<V: Variant>() {
    let lanes = V::LANES;
    for backend in backends() {
        let mut wide = State::<V>::new_with_backend(&KEY, &NONCE, backend).unwrap();
        wide.absorb(&data(V::BLOCK_SIZE, 3));
        let mut bytes = vec![0u8; State::<V>::BYTES];
        wide.to_bytes(&mut bytes);
        let block = data(V::BLOCK_SIZE, 4);
        wide.absorb(&block);
        let mut want = vec![0u8; State::<V>::BYTES];
        wide.to_bytes(&mut want);
        for l in 0..lanes {
            let mut one: Vec<u8> = (0..16)
                .flat_map(|i| bytes[16 * (i * lanes + l)..][..16].to_vec())
                .collect();
            let mut st = State::<Hiae>::from_bytes(&one, backend).unwrap();
            st.absorb(&block[16 * l..16 * l + 16]);
            st.to_bytes(&mut one);
            for (i, b) in one.chunks_exact(16).enumerate() {
                bytes[16 * (i * lanes + l)..][..16].copy_from_slice(b);
            }
        }
        assert_eq!(bytes, want, "{} lanes on {backend}", V::NAME);
    }
}

#[test]
fn lanes_of_wide_states_are_hiae_states() {
    lanes_are_hiae_states::<HiaeX2>();
    lanes_are_hiae_states::<HiaeX4>();
}
