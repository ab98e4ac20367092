//! What the transformation reports of one kernel: declared with the report
//! in `sl1-core` (`report::transform`).

pub use sl1_core::report::direct::{Decided, Decision, DirectReason};
pub use sl1_core::report::transform::{
    ApartReport, DirectAccess, LaneTestReport, LaunchBytes, LineRunsReport, RefusedWarpRange,
    RereadReport, TransformReport,
};
