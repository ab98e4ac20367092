//! Loops at most one lane of a warp runs (`analysis/lone_lane.rs`) are left
//! as they are, with the reason; a loop a whole row of lanes runs, or all
//! lanes but one, is transformed. HeCBench `chacha20` (one thread writing a
//! byte stream) ran 0.60x of the build without S-L1 when cached and 0.83x
//! when declined at run time (H100, 2026-11-25).

mod common;

use common::transform_case;
use sl1_pass::transform::Reason;
use sl1_pass::Options;

#[test]
fn loops_of_one_lane_are_left_alone_and_say_why() {
    let t = transform_case("lone_lane", &Options::default());
    for kernel in ["first_thread", "last_in_grid"] {
        let k = t.kernel(kernel);
        assert!(!k.applied, "{kernel} was transformed");
        assert!(
            k.reasons
                .iter()
                .any(|r| matches!(r, Reason::LoneLane { .. })),
            "{kernel}: {:?}",
            k.reasons
        );
        assert!(!t.text(kernel).contains("sl1."), "{}", t.text(kernel));
    }
}

#[test]
fn loops_of_many_lanes_are_transformed() {
    for options in [
        Options::default(),
        Options {
            static_prediction: false,
            ..Options::default()
        },
    ] {
        let t = transform_case("lone_lane", &options);
        for kernel in ["first_row", "all_but_first"] {
            let k = t.kernel(kernel);
            assert!(k.applied, "{kernel}: {:?}", k.reasons);
        }
    }
}
