//! Backend tiers: each tier's target features are listed once, in [`tier!`], which makes from
//! that one list both the `#[target_feature]` entry point and the run-time check that must pass
//! before the entry point may be called. A feature the entry point enables but the check does
//! not test cannot be written.

use core::sync::atomic::{AtomicU8, Ordering};

/// A cached yes/no answer of a CPU check: 0 = not asked yet, 1 = no, 2 = yes.
pub(crate) struct Cached(AtomicU8);

impl Cached {
    /// Not asked yet.
    pub(crate) const fn new() -> Self {
        Cached(AtomicU8::new(0))
    }

    /// The cached answer, or `check()`'s (then cached).
    #[inline]
    pub(crate) fn get(&self, check: impl FnOnce() -> bool) -> bool {
        match self.0.load(Ordering::Relaxed) {
            0 => {
                let yes = check();
                self.0.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
                yes
            }
            state => state == 2,
        }
    }
}

/// Defines a tier:
///
/// ```text
/// tier! {
///     /// docs
///     run_name, has_name, FEATURES_NAME = ["feat", ...] => |op| body;
/// }
/// ```
///
/// expands to `FEATURES_NAME` (the list), `has_name()` (true when every feature in the list is
/// enabled at compile time or reported by the CPU, see `cpu::has`; cached) and the generic entry
/// point `run_name<Op: LaneOp>(slot: &mut Option<Op>)`, compiled with
/// `#[target_feature(enable = f)]` for each `f` in the list, which takes `op` out of `slot` and
/// runs `body`. Calling the entry point is sound exactly when `has_name()` returned true.
macro_rules! tier {
    ($(
        $(#[$doc:meta])*
        $run:ident, $has:ident, $features:ident = [$($f:literal),+ $(,)?] => |$op:ident| $body:expr;
    )*) => {$(
        /// The target features of the entry point of the same tier, in the order enabled.
        #[cfg_attr(not(test), allow(dead_code))]
        pub(crate) const $features: &[&str] = &[$($f),+];

        /// Whether this CPU (or this build) has every feature in the tier's list, so that its
        /// entry point may run. Cached after the first call.
        #[inline]
        pub(crate) fn $has() -> bool {
            static ANSWER: $crate::tier::Cached = $crate::tier::Cached::new();
            if cfg!(all($(target_feature = $f),+)) {
                return true;
            }
            ANSWER.get(|| true $(&& (cfg!(target_feature = $f) || cpu::has($f)))+)
        }

        $(#[$doc])*
        ///
        /// Runs the operation in `slot` (taken out) with the tier's lane types; sound to call
        /// only after the check of the same tier returned true.
        $(#[target_feature(enable = $f)])+
        pub(crate) fn $run<Op: $crate::LaneOp>(slot: &mut Option<Op>) -> Op::Output {
            let $op = $crate::backend::take_op(slot);
            $body
        }
    )*};
}
pub(crate) use tier;
