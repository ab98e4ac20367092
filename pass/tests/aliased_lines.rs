//! Aliased groups (arguments without restrict share their lines): which
//! line a miss fills. Two pointers into one buffer a few bytes apart
//! (`dst[i] = src[i] + 1`, `src = dst + 1`) share every memory line; when
//! the leading one misses, the line it leaves is still being written by
//! the trailing one. Filling the member's own line there wrote that line
//! back byte by byte and fetched it again (0.36x of the build without
//! S-L1 on the H100); the miss now takes another cached member's line
//! when it is free or wholly written, or, in a group of two, not the line
//! the group used last (rows that start mid-line leave the line before
//! partly written for ever: a tridiagonal sweep with `l = d + 1` ran 0.54x
//! of the build without S-L1 on the H200, 2026-11-28).

mod common;

use sl1_pass::Options;

#[test]
fn a_miss_looks_for_a_spare_line_when_its_own_is_partly_written() {
    let t = common::transform_case("aliased_inplace", &Options::default());
    assert!(t.kernel("aliased_inplace").applied);
    let text = t.text("aliased_inplace");
    // The miss path tests its own line's dirty mask against the full mask
    // and, per other member, whether that member's line may take the fill.
    assert!(text.contains("%own.partly"), "{text}");
    assert!(text.contains("%take"), "{text}");
}

#[test]
fn a_group_of_one_has_no_other_line_to_take() {
    // Restrict arguments only: every miss fills the structure's own line.
    let t = common::transform_case("restrict_loop", &Options::default());
    assert!(t.kernel("restrict_loop").applied);
    assert!(!t.text("restrict_loop").contains("own.partly"));
}

#[test]
fn in_a_group_of_two_a_miss_may_take_the_line_not_used_last() {
    let t = common::transform_case("aliased_inplace", &Options::default());
    let text = t.text("aliased_inplace");
    // A slot per loop names the member used last (in a register once the
    // helpers are inlined); the miss path compares it with the other's.
    assert!(text.contains("= phi i32 [ -1,"), "{text}");
    assert!(text.contains("= icmp ne i32 %sl1.group.mru"), "{text}");
}

#[test]
fn groups_of_more_than_eight_members_stay_direct() {
    // Every access of a group looks up every member's line: sixteen members
    // made 212,000 PTX lines and two minutes of ptxas (2026-11-30).
    use sl1_pass::report::{Decision, DirectReason};
    for options in [
        Options::default(),
        Options {
            static_prediction: false,
            ..Options::default()
        },
    ] {
        let t = common::transform_case("large_aliased_group", &options);
        assert!(t.kernel("eight").applied);
        assert!(t.text("eight").contains("sl1.aload.i32.a4.g8"));
        let nine = t.kernel("nine");
        assert!(!nine.applied, "{nine:?}");
        assert!(!t.text("nine").contains("sl1.a"));
        if options.static_prediction {
            assert_eq!(nine.predictions.len(), 9);
            for p in &nine.predictions {
                assert!(
                    matches!(
                        p.decision,
                        Decision::Direct {
                            reason: DirectReason::LargeAliasedGroup {
                                members: 9,
                                most: 8
                            }
                        }
                    ),
                    "{p:?}"
                );
            }
        }
    }
}
