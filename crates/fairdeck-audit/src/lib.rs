//! # fairdeck-audit
//!
//! Exact distributions and statistical audits of shuffling algorithms.
