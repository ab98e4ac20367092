//! The two suites `sl1-bench` runs: the paper's ten apps (`apps`) and the
//! do-no-harm kernels (`harm`), each an `App`.

use crate::apps::{self, App};
use crate::harm;

/// The do-no-harm kernels.
pub fn harm() -> Vec<&'static dyn App> {
    harm::all()
}

/// An app of either suite.
pub fn by_name(name: &str) -> Option<&'static dyn App> {
    apps::all()
        .into_iter()
        .chain(harm())
        .find(|a| a.name() == name)
}
