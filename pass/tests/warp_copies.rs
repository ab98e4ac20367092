//! Lines of 32 B and more move a warp at a time when the whole warp copies
//! at once: the copy is guarded by the warp's active mask, passes the owners'
//! line addresses by shuffles and is fenced by warp barriers; each thread
//! still copies its own line when lanes are missing. 16 B lines, and
//! `warp_copies: false`, keep the thread copies alone.

mod common;

use sl1_pass::Options;

/// The transformed text of `restrict_loop.ll`'s kernel under `options`.
fn transformed(options: &Options) -> String {
    let t = common::transform_case("restrict_loop", options);
    let kernel = &t.report.kernels[0];
    assert!(
        !kernel.transform.loops_sliced.is_empty(),
        "{:?}",
        kernel.transform
    );
    t.text(&kernel.name).to_string()
}

fn count(text: &str, what: &str) -> usize {
    text.matches(what).count()
}

#[test]
fn lines_of_32_bytes_move_a_warp_at_a_time_when_the_whole_warp_misses() {
    let text = transformed(&Options::default());
    // Each copy is entered on a full mask: as many compares as guards
    // (the other active masks are the lane test's, one per tested
    // structure).
    let guards =
        count(&text, "call i32 @llvm.nvvm.activemask()") - count(&text, "%sl1.lanes.neighbour =");
    assert!(guards >= 1, "{text}");
    assert_eq!(count(&text, "%sl1.all.lanes"), 2 * guards, "{text}");
    // Three shuffles (address halves, shared line) per 16 B piece, two
    // pieces or more per line; a barrier before and after each copy.
    let shuffles = count(&text, "@llvm.nvvm.shfl.sync.idx.i32(i32 -1,");
    let barriers = count(&text, "call void @llvm.nvvm.bar.warp.sync(i32 -1)");
    assert!(shuffles >= 3 * 2 * guards, "{text}");
    assert_eq!(shuffles % 3, 0, "{text}");
    assert_eq!(barriers, 2 * guards, "{text}");
    // The thread copy stays beside it.
    assert!(text.contains("thread.copy"), "{text}");
}

#[test]
fn sixteen_byte_lines_and_the_option_off_keep_thread_copies() {
    let sixteen = Options {
        max_line_size: 16,
        ..Options::default()
    };
    let off = Options {
        warp_copies: false,
        ..Options::default()
    };
    for options in [sixteen, off] {
        let text = transformed(&options);
        for warp_op in ["sl1.all.lanes", "shfl.sync", "bar.warp.sync"] {
            assert!(!text.contains(warp_op), "{warp_op}: {text}");
        }
        assert!(text.contains("load <4 x i32>"), "{text}");
    }
}
