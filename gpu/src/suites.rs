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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{Config, Shape};

    #[test]
    fn every_app_of_both_suites_is_found_by_name_and_apps_launch_in_one_dimension() {
        assert_eq!(by_name("upper").unwrap().name(), "upper");
        assert_eq!(by_name("inplace_shift").unwrap().name(), "inplace_shift");
        assert!(by_name("nosuchapp").is_none());
        for app in apps::all().into_iter().chain(harm()) {
            assert_eq!(by_name(app.name()).unwrap().name(), app.name());
        }
        let c = Config {
            blocks: 132,
            threads: 256,
        };
        for app in apps::all() {
            assert_eq!(app.shape(c), Shape::linear(c), "{}", app.name());
        }
        // No name is in both suites.
        for h in harm() {
            assert!(
                apps::all().iter().all(|a| a.name() != h.name()),
                "{}",
                h.name()
            );
        }
    }
}
