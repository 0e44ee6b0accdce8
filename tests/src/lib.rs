//! Shared helpers for the workspace-level tests (see `tests/`).
