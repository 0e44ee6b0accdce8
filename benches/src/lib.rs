//! Shared helpers for the aeadfast criterion benches.
