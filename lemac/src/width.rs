//! [`Width`]: the lane counts LeMac is defined for, and the compiled code of each.

use aes_lanes::Token;

use crate::state::{AbsorbOp, FinishOp, KeySetupOp};

/// A LeMac lane count as a type: `Width<1>` (LeMac), `Width<2>` (LeMacX2), `Width<4>`
/// (LeMacX4). Generic code over the lane count `D` states `where Width<D>: Supported<D>`.
///
/// ```
/// use lemac::{LeMacKeyGeneric, Supported, Width};
///
/// fn tag_len<const D: usize>(key: &LeMacKeyGeneric<D>) -> usize
/// where
///     Width<D>: Supported<D>,
/// {
///     key.mac(b"data", &[0; 16]).len()
/// }
/// assert_eq!(tag_len(&lemac::LeMacKeyX4::new(&[1; 16])), 16);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Width<const D: usize>;

/// Implemented for exactly `Width<1>`, `Width<2>` and `Width<4>` (sealed).
pub trait Supported<const D: usize>: sealed::Ops<D> {}

pub(crate) mod sealed {
    use super::*;

    /// The operations of one lane count `D` as non-generic functions: the lane code of each
    /// width is compiled once, in this crate, and generic callers only call it.
    #[allow(private_interfaces)]
    pub trait Ops<const D: usize> {
        /// Key derivation.
        fn key_setup(token: Token, op: KeySetupOp<'_, D>);
        /// Absorbs whole chunks into a stored state.
        fn absorb(token: Token, op: AbsorbOp<'_, D>);
        /// The last call of a message.
        fn finish(token: Token, op: FinishOp<'_, D>) -> [u8; 16];
    }
}

macro_rules! widths {
    ($($d:literal)*) => {$(
        impl Supported<$d> for Width<$d> {}

        #[allow(private_interfaces)]
        impl sealed::Ops<$d> for Width<$d> {
            fn key_setup(token: Token, op: KeySetupOp<'_, $d>) {
                token.dispatch(op)
            }
            fn absorb(token: Token, op: AbsorbOp<'_, $d>) {
                token.dispatch(op)
            }
            fn finish(token: Token, op: FinishOp<'_, $d>) -> [u8; 16] {
                token.dispatch(op)
            }
        }
    )*};
}
widths!(1 2 4);
