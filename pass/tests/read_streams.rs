//! A loop that writes no global memory reads the structures the kernel only
//! reads as streams, restrict or not, and leaves them to the hardware L1
//! (HeCBench `maxpool3d`: a non-restrict image read in pooling windows ran
//! 0.70x of the build without S-L1 cached, H100, 2026-11-25); so does a loop
//! whose writes go only through structures left direct (HeCBench `chemv`: a
//! non-restrict matrix read beside a direct accumulator ran 0.36x cached,
//! H100, 2026-11-26).

mod common;

use common::transform_case;
use sl1_pass::transform::Reason;
use sl1_pass::Options;

/// `kernel` of the case is left as it is, its input to the hardware L1.
fn assert_left_to_the_l1(kernel: &str) {
    let t = transform_case("read_streams", &Options::default());
    let k = t.kernel(kernel);
    assert!(!k.applied, "{kernel} was transformed");
    assert!(
        k.reasons
            .iter()
            .any(|r| matches!(r, Reason::OnlyReads { structures, .. } if structures == "`in`")),
        "{:?}",
        k.reasons
    );
    assert!(!t.text(kernel).contains("sl1."), "{}", t.text(kernel));
}

#[test]
fn a_non_restrict_input_read_in_a_loop_that_writes_nothing_is_left_to_the_l1() {
    assert_left_to_the_l1("window_max");
}

#[test]
fn a_non_restrict_input_beside_direct_writes_only_is_left_to_the_l1() {
    assert_left_to_the_l1("row_accumulate");
}

#[test]
fn caching_read_only_structures_caches_it() {
    let options = Options {
        cache_read_only: true,
        ..Options::default()
    };
    let t = transform_case("read_streams", &options);
    assert!(t.kernel("window_max").applied);
    assert!(t.kernel("row_accumulate").applied);
}

/// `kernel` of `vector_streams.ll` under the driver's device tuning, with or
/// without the vector loads.
fn vector_case(kernel: &str, vector_loads: bool) -> sl1_pass::transform::TransformReport {
    let options = Options {
        device_tuning: true,
        vector_loads,
        ..Options::default()
    };
    transform_case("vector_streams", &options)
        .kernel(kernel)
        .clone()
}

#[test]
fn a_stream_the_vector_loads_read_16_bytes_at_a_time_is_left_to_them() {
    // HeCBench tensorAccessor: 0.561 ms in line runs against 0.476 ms left
    // to the vector loads (H100, 2026-11-27).
    let k = vector_case("row_dot", true);
    assert!(!k.applied, "{k:?}");
    assert!(
        k.reasons.iter().any(
            |r| matches!(r, Reason::LeftToVectorLoads { structures, .. } if structures == "`m`")
        ),
        "{:?}",
        k.reasons
    );
    assert!(vector_case("row_dot", false).applied);
}

#[test]
fn streams_of_a_loop_that_stores_are_cached_with_the_vector_loads_on() {
    // The rewrite leaves loads with a store between them apart.
    assert!(vector_case("scatter", true).applied);
    assert!(vector_case("scatter", false).applied);
}
