//! Read-only structures that a counted inner loop reads again, at an address
//! that moves with the main loop, are cached (`analysis::reuse`); searches
//! that may stop at once, and tables every thread reads, stay with the
//! hardware L1.

mod common;

use sl1_pass::transform::Reason;
use sl1_pass::transform::TransformReport;
use sl1_pass::Options;

/// What the transform did to `rereads.ll`'s kernel `name`.
fn kernel(name: &str) -> TransformReport {
    common::transform_case("rereads", &Options::default())
        .kernel(name)
        .clone()
}

#[test]
fn points_read_once_per_iteration_of_a_counted_loop_are_cached() {
    let t = kernel("reread");
    assert!(t.applied, "{t:?}");
    assert_eq!(t.rereads.len(), 1, "{t:?}");
    let r = &t.rereads[0];
    assert_eq!(
        (
            r.loop_header.as_str(),
            r.argument.as_str(),
            r.inner_loop.as_str()
        ),
        ("outer", "pts", "mid")
    );
    assert_eq!(t.accesses_cached, 1, "{t:?}");
}

#[test]
fn searches_and_shared_tables_stay_with_the_hardware_l1() {
    for name in ["search", "table"] {
        let t = kernel(name);
        assert!(!t.applied, "{name}: {t:?}");
        assert!(t.rereads.is_empty(), "{name}: {t:?}");
        // A table every lane reads at the same place is settled by the lane
        // test before the read-only rule is asked.
        let why = if name == "table" {
            t.predictions[0].decision_text()
        } else {
            assert!(
                matches!(t.reasons[0], Reason::OnlyReads { .. }),
                "{name}: {t:?}"
            );
            t.reasons[0].to_string()
        };
        let expected = if name == "table" {
            "lanes access it 0 B apart"
        } else {
            "caches nothing but structures it only reads"
        };
        assert!(why.contains(expected), "{name}: {t:?}");
    }
}

#[test]
fn rereads_the_late_vector_loads_serve_stay_with_them() {
    // The inner loop reads `pts` 4 B a step in one block: with the device
    // tuning's vector loads it is read 16 B at a time after unrolling, which
    // beat the cached reads (k-means 0.690 against 1.141 ms, H100).
    let tuned = Options {
        device_tuning: true,
        ..Options::default()
    };
    let t = common::transform_case("rereads", &tuned)
        .kernel("reread")
        .clone();
    assert!(!t.applied, "{t:?}");
    assert!(t.rereads.is_empty(), "{t:?}");
    assert!(
        matches!(t.reasons[0], Reason::LeftToVectorLoads { .. }),
        "{t:?}"
    );
    let without = Options {
        vector_loads: false,
        ..tuned
    };
    let t = common::transform_case("rereads", &without)
        .kernel("reread")
        .clone();
    assert!(t.applied, "{t:?}");
    assert_eq!(t.rereads.len(), 1, "{t:?}");
}
