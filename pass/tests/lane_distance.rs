//! The lane test (`transform/lanes.rs`): structures a thread only reads or
//! only writes, in pieces of 4 B or more, are cached only where a warp's
//! neighbouring lanes access them at least an L1 line apart, which the
//! decision measures with a shuffle; loops with a read-modify-write or a
//! narrow structure, and loops with a block barrier, keep the decision they
//! had. Without
//! the test, S-L1 ran `soa` at 0.80x and `vec16` at 0.87x of the build
//! without it on the H100 (2026-11-25), where lanes 25 and 62 B apart share
//! the hardware's lines.

mod common;

use common::{transform_case, Transformed};
use sl1_pass::report::{Decision, DirectReason};
use sl1_pass::Options;

fn transform(case: &str) -> Transformed {
    transform_case(case, &Options::default())
}

fn tested(t: &Transformed, kernel: &str) -> Vec<String> {
    let k = t.kernel(kernel);
    assert!(k.applied, "{kernel} was not transformed");
    k.lane_tests
        .iter()
        .flat_map(|l| l.arguments.clone())
        .collect()
}

#[test]
fn read_only_and_write_only_words_are_cached_only_where_lanes_lie_apart() {
    let t = transform("lane_distance");
    assert_eq!(tested(&t, "copy_words"), ["in", "out"]);
    let ir = t.text("copy_words");
    // One neighbour's address per tested structure, compared with a line.
    assert_eq!(
        ir.matches("@llvm.nvvm.shfl.sync.bfly.i32(").count(),
        2,
        "{ir}"
    );
    assert!(ir.contains("%sl1.lanes.apart"), "{ir}");
}

#[test]
fn a_monitored_loop_whose_lanes_are_all_close_skips_monitoring() {
    let monitored = Options {
        static_prediction: false,
        ..Options::default()
    };
    let t = transform_case("lane_distance", &monitored);
    assert_eq!(tested(&t, "copy_words"), ["in", "out"]);
    let ir = t.text("copy_words");
    // The preheader tests both structures once, for monitoring and decision.
    assert_eq!(
        ir.matches("@llvm.nvvm.shfl.sync.bfly.i32(").count(),
        2,
        "{ir}"
    );
    let preheader = ir.split("\nsl1.preheader:").nth(1).expect("a preheader");
    let branch = preheader
        .lines()
        .find(|l| l.trim_start().starts_with("br "))
        .unwrap();
    assert!(
        branch.contains("label %sl1.decide") && branch.contains(".sl1.monitor"),
        "the preheader goes to monitoring only: {branch}"
    );
}

#[test]
fn loops_with_read_modify_write_or_narrow_structures_are_not_tested() {
    let t = transform("lane_distance");
    for kernel in ["add_in_place", "accumulate", "copy_bytes"] {
        assert!(tested(&t, kernel).is_empty(), "{kernel}");
        assert!(!t.text(kernel).contains("shfl.sync.bfly"), "{kernel}");
    }
}

#[test]
fn loops_with_a_block_barrier_keep_one_decision_for_the_block() {
    let t = transform("barrier_in_loop");
    for k in &t.report.kernels {
        assert!(k.transform.lane_tests.is_empty(), "{}", k.name);
        assert!(!t.text(&k.name).contains("sl1.lanes"), "{}", k.name);
    }
}

fn reasons(t: &Transformed, kernel: &str) -> String {
    let k = t.kernel(kernel);
    let mut all = k
        .reasons
        .iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    for p in &k.predictions {
        all.push('\n');
        all.push_str(&p.decision_text());
    }
    all
}

/// Asserts that `kernel` was left as it was, its lanes `bytes` apart.
fn left_as_it_was(t: &Transformed, kernel: &str, bytes: i64) {
    let why = reasons(t, kernel);
    assert!(!t.kernel(kernel).applied, "{why}");
    assert!(
        t.kernel(kernel).predictions.iter().any(|p| matches!(
            p.decision,
            Decision::Direct {
                reason: DirectReason::LanesClose { distance, .. }
            } if distance == bytes
        )),
        "{why}"
    );
}

#[test]
fn lanes_reading_one_element_leave_the_kernel_as_it_was() {
    left_as_it_was(&transform("lane_distance_static"), "broadcast", 0);
}

#[test]
fn a_counter_rebased_to_each_threads_start_reads_one_element_in_every_lane() {
    // `xx[i - begin]`, `begin = tid * chunk`: whatever `begin`'s step, the
    // difference counts iterations.
    left_as_it_was(&transform("lane_distance_static"), "rebased", 0);
}

#[test]
fn lanes_a_known_distance_under_a_line_apart_are_left_direct_at_compile_time() {
    left_as_it_was(&transform("lane_distance_static"), "keys16", 64);
}

#[test]
fn lanes_a_known_distance_of_a_line_or_more_apart_are_cached_without_a_test() {
    let t = transform("lane_distance_static");
    let k = t.kernel("rows256");
    assert!(k.applied, "{}", reasons(&t, "rows256"));
    assert!(k.lane_tests.is_empty(), "{:?}", k.lane_tests);
    assert!(!t.text("rows256").contains("shfl.sync.bfly"));
}

#[test]
fn aliased_structures_whose_lanes_are_all_close_leave_the_loop_direct() {
    let t = transform("lane_distance_static");
    let k = t.kernel("aliased_close");
    assert!(!k.applied, "{}", reasons(&t, "aliased_close"));
}

#[test]
fn aliased_structures_are_tested_together_at_run_time() {
    let t = transform("lane_distance_static");
    assert_eq!(tested(&t, "aliased_chunks"), ["in", "out"]);
    let ir = t.text("aliased_chunks");
    assert_eq!(
        ir.matches("@llvm.nvvm.shfl.sync.bfly.i32(").count(),
        2,
        "{ir}"
    );
    // The loop declines as a whole (an alias left direct beside a cached
    // one could miss its dirty line): no structure's test alone decides.
    let k = t.kernel("aliased_chunks");
    assert!(k.applied);
    assert!(!ir.contains("and i1 %sl1.lanes.apart"), "{ir}");
}

#[test]
fn accesses_in_an_inner_loop_are_settled_too() {
    // `in + 4 * (r * w + 2 * tid + c)`: `c` starts at 0 in every lane, so
    // lanes lie 8 B apart, though the main loop's affine form does not
    // follow the inner loop's counter.
    left_as_it_was(&transform("lane_distance_static"), "window_max", 8);
}

#[test]
fn a_lane_whose_neighbour_is_missing_cannot_tell_and_caches() {
    let t = transform("lane_distance");
    let ir = t.text("copy_words");
    // The neighbour's bit in the active mask, not the whole warp's.
    assert!(ir.contains("@llvm.nvvm.read.ptx.sreg.laneid()"), "{ir}");
    assert!(ir.contains("%sl1.lanes.paired"), "{ir}");
}

#[test]
fn a_broadcast_read_without_restrict_stays_direct_beside_its_cached_aliases() {
    let t = transform("lane_distance_static");
    let k = t.kernel("aliased_broadcast");
    assert!(k.applied, "{}", reasons(&t, "aliased_broadcast"));
    let decision = |argument: &str| {
        k.predictions
            .iter()
            .find(|p| p.argument == argument)
            .unwrap_or_else(|| panic!("no prediction for {argument}"))
            .decision
            .clone()
    };
    // Every lane reads `x[j]`: a line per thread would fill it 32 times.
    assert!(
        matches!(
            decision("x"),
            Decision::Direct {
                reason: DirectReason::OneSector { distance: 0, .. }
            }
        ),
        "{}",
        reasons(&t, "aliased_broadcast")
    );
    // The rows and the sum kept in memory still get lines.
    for cached in ["a", "y"] {
        assert!(
            matches!(decision(cached), Decision::Cached { .. }),
            "{cached}: {}",
            reasons(&t, "aliased_broadcast")
        );
    }
    // The direct read checks whether a line of the group holds its address
    // (it may alias them) instead of writing every line back per iteration.
    // (The helpers are inlined: one `sl1.evict` per cached member.)
    let ir = t.text("aliased_broadcast");
    let evicts = ir
        .lines()
        .filter(|l| l.starts_with("sl1.evict.exit"))
        .count();
    assert!(evicts >= 2, "{ir}");
}
