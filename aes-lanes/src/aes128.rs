//! AES-128 built from the lane primitives: the key schedule, block encryption, and a bulk
//! kernel that encrypts each 16-byte record under its own key.
//!
//! Everything here is constant time in keys and data (the lane primitives are; there are no
//! tables and no data-dependent branches).
//!
//! The generic functions ([`expand`], [`encrypt`], [`encrypt_block`]) are `#[inline(always)]`
//! building blocks for code that already runs inside a [`LaneOp`](crate::LaneOp) (they have no
//! target features of their own); [`encrypt_records`] is a complete operation that dispatches
//! itself.
//!
//! ```
//! use aes_lanes::{LaneOp, Lanes, Token, aes128};
//! use hex_literal::hex;
//!
//! /// FIPS-197 appendix C.1 in one lane.
//! struct C1;
//! impl LaneOp for C1 {
//!     const LANES: usize = 1;
//!     type Output = [u8; 16];
//!     #[inline(always)]
//!     fn run<L: Lanes>(self) -> [u8; 16] {
//!         let rk = aes128::expand::<L>(&hex!("000102030405060708090a0b0c0d0e0f"));
//!         let rk = aes128::schedule_lanes::<L>(&rk);
//!         aes128::encrypt_block::<L>(&hex!("00112233445566778899aabbccddeeff"), &rk)
//!     }
//! }
//! assert_eq!(Token::detect().dispatch(C1), hex!("69c4e0d86a7b0430d8cdb78070b4c55a"));
//! ```

mod bulk;

pub use bulk::{RECORD, RecordsKernel, encrypt_records};

use crate::Lanes;

/// A 16-byte block.
pub type Block = [u8; 16];

/// AES-128 round keys `k0 .. k10`.
pub type Schedule = [Block; 11];

/// Round constants of the AES-128 key schedule.
pub const RCON: [u8; 10] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36];

/// Expands an AES-128 key ([`Lanes::aes128_key_step`] in lane 0 of `L`).
#[inline(always)]
pub fn expand<L: Lanes>(key: &Block) -> Schedule {
    let mut rk = [[0u8; 16]; 11];
    rk[0] = *key;
    let mut k = L::broadcast(key);
    for (i, &rcon) in RCON.iter().enumerate() {
        k = k.aes128_key_step(rcon);
        rk[i + 1] = k.lane(0);
    }
    rk
}

/// Round keys broadcast to every lane.
#[inline(always)]
pub fn schedule_lanes<L: Lanes>(rk: &Schedule) -> [L; 11] {
    let mut out = [L::zero(); 11];
    for (o, k) in out.iter_mut().zip(rk) {
        *o = L::broadcast(k);
    }
    out
}

/// Encrypts each lane of `x` with AES-128 under the round keys `rk` (per lane).
#[inline(always)]
pub fn encrypt<L: Lanes>(x: L, rk: &[L; 11]) -> L {
    let mut x = x.xor(rk[0]);
    for k in &rk[1..10] {
        x = x.aes_round(*k);
    }
    x.aes_round_last(rk[10])
}

/// `E_k(x)` of one block, computed in lane 0 of `L`.
#[inline(always)]
pub fn encrypt_block<L: Lanes>(x: &Block, rk: &[L; 11]) -> Block {
    encrypt(L::broadcast(x), rk).lane(0)
}
