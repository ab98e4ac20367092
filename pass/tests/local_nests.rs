//! A kernel whose deepest loop nest works on local memory, beside a
//! shallower loop the cache would take, is left as it is with the reason
//! (`transform/local_nests.rs`); with the local work no deeper than the
//! cached loop, the kernel is transformed. HeCBench `nqueen` (a prologue
//! reading each thread's prefix, then a depth-first search on a local
//! board) ran 0.97x-0.98x of the build without S-L1 with its prologue
//! cached (H100, 2026-11-25).

mod common;

use common::transform_case;
use sl1_pass::transform::Reason;
use sl1_pass::Options;

fn modes() -> [Options; 2] {
    [
        Options::default(),
        Options {
            static_prediction: false,
            cache_read_only: true,
            ..Options::default()
        },
    ]
}

#[test]
fn a_deeper_local_nest_keeps_the_kernel_as_it_is() {
    for options in modes() {
        let t = transform_case("local_nests", &options);
        let k = t.kernel("prologue_then_search");
        assert!(!k.applied, "transformed: {:?}", k.reasons);
        let search = Reason::LocalNest {
            loop_at: "search".into(),
            levels: 2,
            accesses: 2,
        };
        assert!(k.reasons.contains(&search), "{:?}", k.reasons);
        assert!(
            !t.text("prologue_then_search").contains("sl1."),
            "{}",
            t.text("prologue_then_search")
        );
    }
}

#[test]
fn local_work_no_deeper_than_the_cached_loop_is_transformed() {
    for options in modes() {
        let t = transform_case("local_nests", &options);
        let k = t.kernel("prologue_then_flat");
        assert!(k.applied, "{:?}", k.reasons);
        assert_eq!(k.loops_sliced, ["copy"]);
    }
}
