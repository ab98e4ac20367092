//! Why a kernel, or one of its loops, was left as it was: declared with the
//! report in `sl1-core` (`report::Reason`).

pub use sl1_core::report::Reason;
