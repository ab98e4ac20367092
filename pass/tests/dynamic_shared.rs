//! Kernels with dynamic shared memory (`extern __shared__`): untransformed
//! unless the most a launch gives is declared; then the static line buffer
//! takes what the budget leaves beside it, and where that cannot give every
//! thread its lines the first warps get them (the warp threshold).

mod common;

use sl1_pass::transform::Reason;
use sl1_pass::transform::TransformReport;
use sl1_pass::Options;

fn transform(options: &Options) -> TransformReport {
    common::transform_case("dynamic_shared", options)
        .kernel("dynamic_shared")
        .clone()
}

fn declared(bytes: u64) -> Options {
    Options {
        dynamic_shared: Some(bytes),
        ..Options::default()
    }
}

#[test]
fn undeclared_dynamic_shared_memory_leaves_the_kernel_alone() {
    let t = transform(&Options::default());
    assert!(!t.applied, "{t:?}");
    assert_eq!(t.reasons, [Reason::DynamicSharedUnknown], "{t:?}");
    let hint = t.reasons[0].hint().expect("the option that declares it");
    assert_eq!(hint.option, "dynamic-shared");
    assert_eq!(t.shared_bytes, 0);
}

#[test]
fn a_declared_size_gives_lines_beside_it() {
    let t = transform(&declared(1024));
    assert!(t.applied, "{t:?}");
    assert_eq!(t.dynamic_shared_bytes, Some(1024));
    assert!(t.shared_bytes > 0);
    assert!(
        t.shared_bytes + 1024 <= Options::default().shared_budget,
        "{t:?}"
    );
    // 1024 threads, two structures, 16 B lines and their padding fit.
    assert_eq!(t.warps_with_lines, None, "{t:?}");
}

#[test]
fn a_large_declared_size_leaves_lines_to_the_first_warps() {
    let t = transform(&declared(40 * 1024));
    assert!(t.applied, "{t:?}");
    assert!(
        t.shared_bytes + 40 * 1024 <= Options::default().shared_budget,
        "{t:?}"
    );
    // 8 KiB: 409 lines of 20 B for 1024 threads and two structures.
    assert_eq!(t.warps_with_lines, Some(0), "{t:?}");
    assert_eq!(t.warps_with_a_line, Some(409 / 32), "{t:?}");
}

#[test]
fn a_declared_size_of_the_whole_budget_is_refused() {
    let options = declared(Options::default().shared_budget);
    assert!(options.validate().is_err());
}
