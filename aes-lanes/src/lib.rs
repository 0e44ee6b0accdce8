#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod aes128;
mod backend;
mod lanes;
mod soft;
#[cfg(any(x86_backends, arm_backends))]
mod tier;
mod wide;

#[cfg(arm_backends)]
mod arm;
#[cfg(x86_backends)]
mod x86;

pub use backend::{Backend, LaneOp, LaneShape, SelectError, Token, Unavailable};
pub use lanes::{Lanes, MAX_LANES};
pub use soft::Soft;
pub use wide::Wide;
