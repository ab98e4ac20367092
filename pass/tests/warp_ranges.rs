//! Warp ranges' report (`transform::warp_ranges`): the chunk loops a warp
//! may not walk as one range are listed with why, so that a user sees what
//! keeps a loop to its lines (`testdata/ll/warp_ranges.ll`).

mod common;

use sl1_pass::options::Options;

/// The refusals of `kernel` in `transformed`: loop header and why.
fn refusals(transformed: &common::Transformed, kernel: &str) -> Vec<(String, String)> {
    transformed
        .kernel(kernel)
        .warp_ranges_refused
        .iter()
        .map(|r| (r.loop_header.clone(), r.why.clone()))
        .collect()
}

#[test]
fn loops_that_got_a_copy_are_not_refused() {
    let transformed = common::transform_case("warp_ranges", &Options::default());
    for kernel in ["bytes", "saxpy", "scaled", "fenced"] {
        let report = transformed.kernel(kernel);
        assert_eq!(report.warp_ranges, ["loop"], "{kernel}");
        assert!(report.warp_ranges_refused.is_empty(), "{kernel}");
    }
}

#[test]
fn chunk_loops_without_a_copy_say_why() {
    let transformed = common::transform_case("warp_ranges", &Options::default());
    let why = |kernel: &str| {
        let r = refusals(&transformed, kernel);
        assert_eq!(r.len(), 1, "{kernel}: {r:?}");
        assert_eq!(r[0].0, "loop", "{kernel}");
        r[0].1.clone()
    };
    assert_eq!(why("carried"), "values carried between iterations");
    assert!(why("aliased").contains("__restrict__"));
    assert!(why("by_lane").contains("differ between lanes"));
    assert_eq!(why("reread"), "a load of what the iteration stored");
    assert_eq!(why("fence_in_loop"), "a fence");
}
