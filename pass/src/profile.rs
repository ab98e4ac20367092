//! The part of a GPU profile the pass reads: declared in `sl1-core`.

pub use sl1_core::profile::*;
